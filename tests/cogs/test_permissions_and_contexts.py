"""Discord's realities before anything is opened: the bot's permissions where a game or a tournament is asked for
(told in plain words to the member, once to the admins; a game never half opens), commands where they work
(DMs: only games against the AI), and stale commands from clients that still show an old command tree."""

from __future__ import annotations

import logging

import discord

from tests.cogs.test_hector_achilles_discord import ANN, BOB
from tests.cogs.test_tournament_play import PEOPLE, event_post, register
from tests.discord_harness import CHANNEL_ID, GUILD_ID, FakeHTTPError, Payloads, button

EVERYONE = discord.Permissions(1071698660929)
OWNER = 1  # the test server's owner (tests/discord_harness.py)
UNKNOWN_CHESS = "Unknown game chess."


def without(*names: str) -> str:
    perms = discord.Permissions(EVERYONE.value)
    for name in names:
        setattr(perms, name, False)
    return str(perms.value)


def replies(h, before: int) -> list[str]:
    """What only the asker saw since ``before`` (not the empty "thinking…" of a deferral)."""
    return [m["content"] for m in list(h.fake.messages.values())[before:] if m["flags"] & 64 and m["content"]]


def public(h, channel_id: int) -> list[dict]:
    return [m for m in h.messages_in(channel_id) if not m["flags"] & 64]


def threads(h) -> list[int]:
    return [cid for cid, c in h.fake.channels.items() if c["type"] == 11]


def admin_notices(h) -> list[str]:
    return [m["content"] for m in h.dm_messages(OWNER)]


def server_with(role_permissions: int, **extra) -> dict:
    """The test server's GUILD_CREATE with its @everyone role (the bot's only role) allowed ``role_permissions``."""
    payload = Payloads.guild_create()
    payload["roles"][0]["permissions"] = str(role_permissions)
    payload.update(extra)
    return payload


async def rejoin(h, payload: dict) -> None:
    """The server as the gateway sends it at start (or after an outage): the bot checks its permissions there."""
    h.bot._connection.parse_guild_create(payload)
    await h.settle()


# -- permissions in a channel --------------------------------------------------------------------------------


async def test_threads_without_posting_in_them_the_game_is_played_in_the_channel(harness, caplog):
    h = harness
    caplog.set_level(logging.INFO)
    cannot_post_in_threads = without("send_messages_in_threads")
    before = len(h.fake.messages)
    await h.slash(ANN, "troja new", name="Ann", app_permissions=cannot_post_in_threads)
    assert threads(h) == [], "no thread it could not post in"
    game = await h.bot.service.game(1)
    assert game.status == "lobby" and game.thread_id == CHANNEL_ID and game.board_message_id
    lobby = h.fake.messages[game.board_message_id]
    assert lobby["channel_id"] == str(CHANNEL_ID) and button(lobby, "Join")
    (told,) = replies(h, before)
    assert "Game #1" in told and "**Send Messages in Threads**" in told and "played right here" in told
    (notice,) = admin_notices(h)
    assert "**Send Messages in Threads**" in notice and f"<#{CHANNEL_ID}>" in notice and "Test server" in notice
    # Bob can join and play there; a second game in the channel does not tell the admins again
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    assert (await h.bot.service.game(1)).status == "lobby", "a Troja table waits for four, or the host's Start"
    await h.slash(BOB, "hextri new", name="Bob", app_permissions=cannot_post_in_threads, opponent="ai")
    assert (await h.bot.service.game(2)).status == "running"
    assert len(admin_notices(h)) == 1
    assert any("lacks send_messages_in_threads" in r.getMessage() for r in caplog.records
               if r.levelno == logging.WARNING)
    h.assert_no_errors()


async def test_without_send_messages_nothing_is_opened_and_the_member_is_told_what_is_missing(harness):
    h = harness
    mute = without("send_messages", "send_messages_in_threads", "attach_files")
    before = len(h.fake.messages)
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", app_permissions=mute)
    (told,) = replies(h, before)
    assert told.startswith("I can't host a game in this channel")
    assert "**Send Messages**, **Attach Files**, **Send Messages in Threads**" in told
    assert await h.bot.service.store.list_games(guild_id=GUILD_ID, statuses=("lobby", "running", "abandoned")) == []
    assert threads(h) == [] and not public(h, CHANNEL_ID)
    assert len(admin_notices(h)) == 1
    # the same problem again: the member is told, the admins are not told twice
    await h.slash(BOB, "ave-caesar new", name="Bob", app_permissions=mute)
    assert len(admin_notices(h)) == 1
    # a different problem in the same channel is news to them
    await h.slash(BOB, "ave-caesar new", name="Bob", app_permissions=without("embed_links"))
    notices = admin_notices(h)
    assert len(notices) == 2 and "**Embed Links**" in notices[1]
    # a rematch button is checked the same way, before anything is saved
    h.assert_no_errors()


async def test_the_notice_goes_to_the_system_channel_when_the_owner_takes_no_dms(harness):
    h = harness
    h.fake.closed_dms.add(OWNER)
    await rejoin(h, server_with(EVERYONE.value, system_channel_id=str(CHANNEL_ID)))
    await h.slash(ANN, "troja new", name="Ann", app_permissions=without("create_public_threads"))
    (notice,) = [m for m in h.messages_in(CHANNEL_ID) if "is missing permissions" in m["content"]]
    assert "**Create Public Threads**" in notice["content"]
    h.assert_no_errors()


async def test_at_start_the_servers_permissions_are_checked_and_admins_told_once(harness, caplog):
    h = harness
    caplog.set_level(logging.WARNING)
    weak = EVERYONE.value & ~discord.Permissions(attach_files=True, create_public_threads=True).value
    await rejoin(h, server_with(weak))
    (notice,) = admin_notices(h)
    assert "**Attach Files**, **Create Public Threads**" in notice and "for the whole server" in notice
    assert any("roles lack attach_files, create_public_threads" in r.getMessage() for r in caplog.records)
    # a restart (the same server again): not told twice
    await rejoin(h, server_with(weak))
    assert len(admin_notices(h)) == 1
    assert (await h.bot.service.store.guild_settings(GUILD_ID))["permission_notices"] == {
        "0": "attach_files,create_public_threads"}
    # fixed: forgotten, so a later problem is told again
    await rejoin(h, server_with(EVERYONE.value))
    assert (await h.bot.service.store.guild_settings(GUILD_ID))["permission_notices"] == {}
    await rejoin(h, server_with(weak))
    assert len(admin_notices(h)) == 2
    # an administrator lacks nothing
    await rejoin(h, server_with(discord.Permissions(administrator=True).value))
    assert (await h.bot.service.store.guild_settings(GUILD_ID))["permission_notices"] == {}
    h.assert_no_errors()


async def test_a_lobby_discord_refuses_calls_the_game_off_and_removes_its_thread(harness, caplog):
    h = harness
    caplog.set_level(logging.WARNING)
    fake = h.fake
    answer = fake.rest
    new_threads = set()

    async def thread_refuses_posts(method, path, p, payload, recorded):
        # Discord refuses the lobby although the channel's permissions allowed it (changed in between)
        if method == "POST" and path == "/channels/{channel_id}/messages" and int(p["channel_id"]) in new_threads:
            raise FakeHTTPError(403, 50001, "Missing Access")
        result = await answer(method, path, p, payload, recorded)
        if method == "POST" and path == "/channels/{channel_id}/threads":
            new_threads.add(int(result["id"]))
        return result

    fake.rest = thread_refuses_posts
    before = len(fake.messages)
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    game = await h.bot.service.game(1)
    assert game.status == "abandoned" and await h.bot.service.store.outbox(1) == [], "nothing left owed"
    assert await h.bot.service.store.list_games(guild_id=GUILD_ID) == [], "not listed as open or running"
    deleted = [s for s in fake.sent if s.method == "DELETE"]
    assert len(deleted) == 1 and threads(h) == [], "the empty thread is removed"
    (told,) = replies(h, before)
    assert "so nothing was opened" in told and "Missing Access" in told
    assert not public(h, CHANNEL_ID), "no announcement of it"
    assert any("could not be opened in" in r.getMessage() and "called off" in r.getMessage()
               for r in caplog.records)
    h.assert_no_errors()


async def test_a_queued_game_whose_thread_refuses_its_lobby_is_called_off_and_its_host_told(harness, monkeypatch):
    import cogs.actions

    h = harness
    monkeypatch.setattr(cogs.actions, "PLACE_WAIT", 0)  # the command does not wait: the game is queued
    fake = h.fake
    answer = fake.rest
    new_threads = set()

    async def thread_refuses_posts(method, path, p, payload, recorded):
        if method == "POST" and path == "/channels/{channel_id}/messages" and int(p["channel_id"]) in new_threads:
            raise FakeHTTPError(403, 50013, "Missing Permissions")
        result = await answer(method, path, p, payload, recorded)
        if method == "POST" and path == "/channels/{channel_id}/threads":
            new_threads.add(int(result["id"]))
        return result

    fake.rest = thread_refuses_posts
    before = len(fake.messages)
    await h.slash(ANN, "troja new", name="Ann")
    assert any("is saved" in r for r in replies(h, before)), "told it is queued"
    assert (await h.bot.service.game(1)).status == "abandoned" and threads(h) == []
    (told,) = [m["content"] for m in h.dm_messages(ANN)]
    assert told.startswith("I could not post the game in") and "Missing Permissions" in told
    h.assert_no_errors()


async def test_a_thread_discord_refuses_after_the_check_is_told_to_the_admins(harness):
    h = harness
    # the bot's role lost Create Public Threads after the member's client computed the interaction's permissions
    weak = EVERYONE.value & ~discord.Permissions(create_public_threads=True).value
    h.bot._connection.parse_guild_role_update({"guild_id": str(GUILD_ID), "role": dict(
        Payloads.guild_create()["roles"][0], permissions=str(weak))})
    answer = h.fake.rest

    async def no_threads(method, path, p, payload, recorded):
        if method == "POST" and path == "/channels/{channel_id}/threads":
            raise FakeHTTPError(403, 50013, "Missing Permissions")
        return await answer(method, path, p, payload, recorded)

    h.fake.rest = no_threads
    await h.slash(ANN, "troja new", name="Ann", opponent="ai")
    game = await h.bot.service.game(1)
    assert game.status == "running" and game.thread_id == CHANNEL_ID, "played in the channel"
    (notice,) = admin_notices(h)
    assert "**Create Public Threads**" in notice and f"<#{CHANNEL_ID}>" in notice
    h.assert_no_errors()


async def test_a_rematch_where_the_bot_may_not_post_saves_nothing(harness):
    from tests.cogs.test_hector_achilles_discord import open_two_player_game
    from tests.discord_harness import components

    h = harness
    thread = await open_two_player_game(h)
    await h.bot.service.store.set_status(1, "finished", {"places": [2, 1], "scores": [0, 1], "reason": "test"})
    before = len(h.fake.messages)
    await h.slash(BOB, "game status", channel_id=thread, name="Bob")
    (board,) = [m for m in list(h.fake.messages.values())[before:] if components(m)]
    before = len(h.fake.messages)
    await h.click(BOB, board, button(board, "Rematch")["custom_id"], name="Bob",
                  app_permissions=without("send_messages", "send_messages_in_threads"))
    (told,) = replies(h, before)
    assert told.startswith("I can't host a game in this channel")
    assert await h.bot.service.store.get_game(2) is None and len(threads(h)) == 1
    h.assert_no_errors()


# -- tournaments -----------------------------------------------------------------------------------------------


async def test_a_tournament_needs_threads_where_it_is_opened_and_started(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(101, "tournament new", game="hector-achilles", name="P0",
                  app_permissions=without("create_public_threads"))
    (told,) = replies(h, before)
    assert "its matches each get a thread" in told and "**Create Public Threads**" in told
    assert await h.bot.service.store.tournament(1) is None
    # opened where it can run, then the bot loses a permission there before the start
    await register(h, 4, format="swiss", rounds=2)
    weak = EVERYONE.value & ~discord.Permissions(send_messages_in_threads=True).value
    h.bot._connection.parse_guild_role_update({"guild_id": str(GUILD_ID), "role": dict(
        Payloads.guild_create()["roles"][0], permissions=str(weak))})
    await h.settle()
    before = len(h.fake.messages)
    post = event_post(h)
    await h.click(101, post, button(post, "Start")["custom_id"], name=PEOPLE[101])
    (told,) = replies(h, before)
    assert f"I can't open the matches in <#{CHANNEL_ID}>" in told and "nothing was started" in told
    assert (await h.bot.service.store.tournament(1)).status == "open" and threads(h) == []
    before = len(h.fake.messages)
    await h.slash(101, "tournament start", tournament=1, name=PEOPLE[101])
    assert any("I can't open the matches" in r for r in replies(h, before))
    # someone else is refused as before (only the organizer starts)
    before = len(h.fake.messages)
    await h.slash(102, "tournament start", tournament=1, name=PEOPLE[102])
    assert any("Only the organizer" in r for r in replies(h, before))
    h.assert_no_errors()


# -- direct messages -------------------------------------------------------------------------------------------


def dm_with(h, user_id: int) -> int:
    channel = h.fake.new_id()
    h.fake.dm_channels[channel] = user_id
    return channel


async def test_in_a_dm_only_a_game_against_the_ai_opens(harness):
    h = harness
    dm = dm_with(h, ANN)
    await h.slash(ANN, "troja new", dm, in_dm=True, name="Ann")  # no opponent given: the AI, there is nobody else
    game = await h.bot.service.game(1)
    assert game.guild_id is None and game.status == "running" and game.thread_id == dm
    assert any(m["attachments"] for m in h.messages_in(dm)), "the board is in the DM"
    for options in ({"opponent": "open"}, {"opponent": "ai", "invite": discord.Object(BOB)}):
        before = len(h.fake.messages)
        resolved = {"users": {str(BOB): {"id": str(BOB), "username": "bob", "discriminator": "0",
                                         "global_name": "Bob", "avatar": None}}}
        await h.slash(ANN, "troja new", dm, in_dm=True, name="Ann", resolved=resolved, **options)
        (told,) = replies(h, before)
        assert told.startswith("In a direct message only a game against the AI"), told
    assert await h.bot.service.store.get_game(2) is None
    # a tournament in a DM (a stale client: the command is registered for servers only)
    before = len(h.fake.messages)
    await h.slash(ANN, "tournament new", dm, in_dm=True, game="troja", name="Ann")
    (told,) = replies(h, before)
    assert "only in a server" in told and await h.bot.service.store.tournament(1) is None
    h.assert_no_errors()


# -- stale and unknown commands --------------------------------------------------------------------------------


async def test_stale_commands_are_told_to_try_again_without_an_error_in_the_log(harness, caplog):
    h = harness
    caplog.set_level(logging.INFO)

    @discord.app_commands.command(name="whois", description="Takes a member")
    async def whois(interaction: discord.Interaction, who: discord.Member) -> None:
        await interaction.response.send_message(who.mention, ephemeral=True)

    h.bot.tree.add_command(whois)
    changed = "This command has changed since Discord last showed it to you. Try again in a minute"
    old_shape = " ".join(["game", "new", "troja"])  # /troja new as it was before its own group (not a typo)
    cases = [(old_shape, {"opponent": "ai"}),
             ("hextri", {}),  # a group sent as a command
             ("chess new", {}),  # a command this bot never had
             ("game play", {}),  # a required option missing
             ("whois", {"who": "Bob"})]  # a value of another type (the option was a string once)
    for path, options in cases:
        before = len(h.fake.messages)
        await h.slash(ANN, path, name="Ann", **options)
        assert [r for r in replies(h, before) if r.startswith(changed)], path
    assert await h.bot.service.store.get_game(1) is None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(r.getMessage().startswith(f"stale command /{old_shape}") for r in caplog.records)
    # an autocomplete request of a stale command gets an empty list, not a message
    payload = h.payloads.interaction(ANN, CHANNEL_ID, kind=4, data={
        "id": "1", "name": "game", "type": 1, "options": [{"name": "gone", "type": 1, "options": [
            {"name": "game", "type": 4, "value": "", "focused": True}]}]})
    h.bot._connection.parse_interaction_create(payload)
    await h.settle()
    answer = [s for s in h.fake.sent if s.path.endswith("/callback")][-1]
    assert answer.json == {"type": 8, "data": {"choices": []}}
    # a game this bot does not know, in a command that offers a choice of games
    before = len(h.fake.messages)
    await h.slash(ANN, "leaderboard", game="chess", name="Ann")
    assert replies(h, before) == [UNKNOWN_CHESS]
    h.assert_no_errors()


# -- refusals are for the one who asked ----------------------------------------------------------------------


async def test_every_tournament_refusal_is_seen_only_by_the_asker(harness):
    h = harness
    await register(h, 4, format="swiss", rounds=2)
    who = {"resolved": {"users": {"101": {"id": "101", "username": "p0", "discriminator": "0",
                                          "global_name": "P0", "avatar": None}}}}
    asks = [("tournament start", {}), ("tournament pause", {}), ("tournament resume", {}),
            ("tournament cancel", {}), ("tournament drop", {"player": discord.Object(101), **who}),
            ("tournament adjudicate", {"match": 1}), ("tournament leave", {"tournament": 7})]
    for path, options in asks:
        options = {"tournament": 1, **options}
        before = len(h.fake.messages)
        await h.slash(105, path, name="P4", **options)  # not the organizer, not even entered
        new = list(h.fake.messages.values())[before:]
        told = [m for m in new if m["content"]]
        assert told and all(m["flags"] & 64 for m in told), (path, [m["content"] for m in told])
    assert (await h.bot.service.store.tournament(1)).status == "open"
    h.assert_no_errors()


async def test_game_help_points_to_every_games_own_command(harness):
    from engines import ENGINES

    h = harness
    h.payloads.locales[BOB] = "hu"
    for who, start in ((ANN, "Start a game"), (BOB, "Játék indítása")):
        before = len(h.fake.messages)
        await h.slash(who, "game help", name="x")
        (reply,) = [m for m in list(h.fake.messages.values())[before:] if m["embeds"]]
        assert reply["flags"] & 64
        fields = {f["name"]: f["value"] for f in reply["embeds"][0]["fields"]}
        assert all(f"`/{key} new`" in fields[start] for key in ENGINES)
    h.assert_no_errors()
