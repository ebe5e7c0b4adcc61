"""The slash commands around the games: limits of the command tree, lobby life, status, list, rules."""

from __future__ import annotations

import copy

import discord

from tests.cogs.driver import latest_board
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, live_state, thread_of
from tests.discord_harness import CHANNEL_ID, button, components

EVERYONE = "1071698660929"
NO_MANAGE = str(int(EVERYONE) & ~int(discord.Permissions(manage_guild=True).value))
MANAGE = str(int(EVERYONE) | discord.Permissions(manage_guild=True).value)


def replies_since(h, before: int) -> list[dict]:
    return list(h.fake.messages.values())[before:]


async def test_command_tree_is_within_discord_limits(harness):
    from engines import ENGINES
    from tests.discord.contract import command_problems

    tree = harness.bot.tree
    # as synced: with the Hungarian and Polish descriptions (Discord refuses the whole tree if one is too long)
    payload = [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]
    assert command_problems(payload) == []
    by_name = {c["name"]: c for c in payload}
    # every game has its own group with "new"; what every game shares is under /game
    for key in ENGINES:
        assert [o["name"] for o in by_name[key]["options"]] == ["new"]
    assert {o["name"] for o in by_name["game"]["options"]} >= {"join", "start", "status", "hand", "leave",
                                                              "abandon", "list", "play", "log", "settings"}
    assert "new" not in {o["name"] for o in by_name["game"]["options"]}
    assert "rules" in by_name


async def test_rules_are_paged_and_pages_turn(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "rules", game="hector-achilles")
    reply = replies_since(h, before)[-1]
    assert reply["flags"] & 64
    first_title = reply["embeds"][0]["title"]
    assert first_title.startswith("Hector and Achilles")
    assert "Page 1/" in reply["embeds"][0]["footer"]["text"]
    await h.click(ANN, reply, button(reply, "▶")["custom_id"])
    turned = h.fake.messages[int(reply["id"])]
    assert "Page 2/" in turned["embeds"][0]["footer"]["text"]
    assert turned["embeds"][0]["title"] != first_title
    h.assert_no_errors()


async def test_lobby_refuses_bad_requests_with_clear_messages(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    # the host cannot start alone; the lobby names the open seat
    before = len(h.fake.messages)
    await h.click(ANN, lobby, button(lobby, "Start")["custom_id"], name="Ann")
    assert any("needs at least 2 players" in m["content"] for m in replies_since(h, before))
    assert "open" in lobby["embeds"][0]["fields"][0]["value"]
    # joining twice is refused
    before = len(h.fake.messages)
    await h.click(ANN, lobby, button(lobby, "Join")["custom_id"], name="Ann")
    assert any("already have a seat" in m["content"] for m in replies_since(h, before))
    # /game join inside the thread finds the game without a number; Bob's join fills it and it starts
    await h.slash(BOB, "game join", channel_id=thread, name="Bob")
    game, _ = await live_state(h)
    assert game.status == "running"
    lobby = h.fake.messages[int(lobby["id"])]
    assert not components(lobby), "a started game's lobby keeps no Join/Start buttons"
    assert "running" in lobby["embeds"][0]["footer"]["text"]
    before = len(h.fake.messages)
    await h.slash(CAROL, "game join", channel_id=thread, name="Carol")
    assert any("already started" in m["content"] for m in replies_since(h, before))
    h.assert_no_errors()


async def test_status_list_and_hand_commands(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    before = len(h.fake.messages)
    await h.slash(CAROL, "game list", name="Carol")
    listing = replies_since(h, before)[-1]
    assert "#1" in listing["embeds"][0]["description"] and "Hector and Achilles" in listing["embeds"][0]["description"]
    before = len(h.fake.messages)
    await h.slash(CAROL, "game status", channel_id=thread, name="Carol")
    status = [m for m in replies_since(h, before) if m["attachments"]]
    assert status and status[-1]["flags"] & 64 and "running" in status[-1]["content"]
    # /game hand for someone without a game
    before = len(h.fake.messages)
    await h.slash(CAROL, "game hand", name="Carol")
    assert any("No game of yours" in m["content"] for m in replies_since(h, before))
    # Ann's hand, from the main channel (her only game is found)
    before = len(h.fake.messages)
    await h.slash(ANN, "game hand", name="Ann")
    mine = [m for m in replies_since(h, before) if m["attachments"]]
    assert mine and mine[-1]["flags"] & 64
    assert any(c["custom_id"].startswith("gh:a:") for c in components(mine[-1])), "on her turn: choices"
    h.assert_no_errors()


async def test_abandon_needs_the_host_or_manage_server(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    board_before = copy.deepcopy(latest_board(h, thread))
    before = len(h.fake.messages)
    await h.slash(CAROL, "game abandon", channel_id=thread, name="Carol", permissions=NO_MANAGE)
    refusals = [m for m in replies_since(h, before) if "Only the host" in m["content"]]
    assert refusals and all(m["flags"] & 64 for m in refusals), "a refusal is for the asker only"
    assert (await live_state(h))[0].status == "running"
    await h.slash(CAROL, "game abandon", channel_id=thread, name="Mod", permissions=MANAGE)
    game, _ = await live_state(h)
    assert game.status == "abandoned"
    told = [m for m in h.messages_in(thread) if "abandoned" in m["content"].lower() and not m["flags"] & 64]
    assert told, "the game's thread is told publicly that it was abandoned"
    assert not components(latest_board(h, thread)), "an abandoned game's board loses its buttons"
    # a click on the board as it was before is now refused
    action = next(c for c in components(board_before) if c["custom_id"].startswith("gh:a:"))
    before = len(h.fake.messages)
    await h.click(ANN, board_before, action["custom_id"], name="Ann")
    assert any("is over" in m["content"] for m in replies_since(h, before))
    assert (await live_state(h))[0].version == game.version
    h.assert_no_errors()


async def test_leaving_a_running_game_hands_the_seat_to_the_ai(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    before = len(h.fake.messages)
    await h.slash(ANN, "game leave", channel_id=thread, name="Ann")
    # leaving is for good: asked first (tests/cogs/test_confirmation.py), then confirmed
    (ask,) = [m for m in list(h.fake.messages.values())[before:] if "Leave game #1?" in m["content"]]
    await h.click(ANN, ask, button(ask, "Leave the game")["custom_id"], name="Ann")
    await h.settle()
    game, _ = await live_state(h)
    assert game.seats[0].is_ai and game.status in ("running", "finished")
    assert any("the AI takes over" in m["content"] for m in h.messages_in(thread))
    # Bob is now the only person asked to act
    assert f"<@{BOB}>" in latest_board(h, thread)["content"]
    h.assert_no_errors()


async def test_invite_reserves_the_second_seat(harness):
    h = harness
    bob = {"id": str(BOB), "username": "bob", "discriminator": "0", "global_name": "Bob", "avatar": None}
    resolved = {"users": {str(BOB): bob},
                "members": {str(BOB): {"roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                                       "mute": False, "flags": 0, "nick": None, "avatar": None,
                                       "pending": False, "permissions": EVERYONE}}}
    await h.slash(ANN, "hector-achilles new", name="Ann", invite=discord.Object(BOB), resolved=resolved)
    game, _ = await live_state(h)
    assert [s.user_id for s in game.seats] == [ANN, BOB] and game.status == "running"
    assert CHANNEL_ID != thread_of(h)
    h.assert_no_errors()


async def test_settings_are_personal_and_stored(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "game settings", name="Ann", dm=False)
    reply = replies_since(h, before)[-1]
    assert reply["flags"] & 64 and "Direct messages on your turn: **—**" in reply["content"]
    assert (await h.bot.service.store.user_settings(ANN))["dm"] is False
    assert await h.bot.service.store.user_settings(BOB) == {}
    # with DMs off, Ann's turn in a new game sends her no DM
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    assert h.dm_messages(ANN) == []
    h.assert_no_errors()


async def test_commands_are_described_in_hungarian_and_polish_and_replies_follow_the_locale(harness):
    h = harness
    tree = h.bot.tree
    translator = tree.translator
    payload = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    game = next(c for c in payload if c["name"] == "game")
    assert game["description_localizations"]["hu"] == "Társasjátékok ezen a szerveren"
    join = next(o for o in game["options"] if o["name"] == "join")
    assert join["description_localizations"]["pl"] == "Dołącz do otwartej gry"
    assert "name_localizations" not in join or not join["name_localizations"]
    # a game's own options are described in the game's translated words
    hextri = next(c for c in payload if c["name"] == "hextri")
    assert hextri["description_localizations"]["hu"] == "HEX-TRI játék"
    new = next(o for o in hextri["options"] if o["name"] == "new")
    radius = next(o for o in new["options"] if o["name"] == "radius")
    from host.locale import game_text
    assert radius["description_localizations"]["hu"] == game_text("hextri", "opt_radius", "hu")
    assert radius["description_localizations"]["hu"] != radius["description"]
    # a refusal is told in the clicking user's language
    payload = h.payloads.slash(CAROL, "game hand", name="Carol")
    payload["locale"] = "hu"
    before = len(h.fake.messages)
    h.bot._connection.parse_interaction_create(payload)
    await h.settle()
    assert any("Itt nem található játékod" in m["content"] for m in replies_since(h, before))
    h.assert_no_errors()


async def test_an_unexpected_error_is_answered_not_silent(harness, monkeypatch):
    h = harness

    async def boom(*args, **kwargs):
        raise RuntimeError("database on fire")

    monkeypatch.setattr(h.bot.service, "private", boom)
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    board = latest_board(h, thread)
    before = len(h.fake.messages)
    await h.click(ANN, board, button(board, "My hand")["custom_id"], name="Ann")
    assert any("Something went wrong" in m["content"] and m["flags"] & 64 for m in replies_since(h, before))
    before = len(h.fake.messages)
    await h.slash(ANN, "game hand", channel_id=thread, name="Ann")
    assert any("Something went wrong" in m["content"] for m in replies_since(h, before))
    assert len(h.errors.records) == 2  # both logged with their traceback
    h.errors.records.clear()


async def test_game_log_retells_the_last_moves_privately(harness):
    from engines.rng import Rng
    from tests.cogs.driver import take_turn
    from tests.cogs.test_hector_achilles_discord import open_two_player_game

    h = harness
    thread = await open_two_player_game(h)
    told = []
    for _ in range(4):
        await take_turn(h, thread, Rng(2))
        board = latest_board(h, thread)
        told += [line for line in board["content"].split("\n")
                 if line and "your turn" not in line and not line.startswith("⏳")]  # clock lines: not moves
    assert told
    before = len(h.fake.messages)
    await h.slash(BOB, "game log", channel_id=thread, name="Bob")
    (reply,) = [m for m in replies_since(h, before) if m["content"].startswith("**Game #1")]
    assert reply["flags"] & 64, "the log is only for the one who asked"
    assert all(line in reply["content"] for line in told), (told, reply["content"])
    before = len(h.fake.messages)
    await h.slash(BOB, "game log", channel_id=thread, name="Bob", move=1)
    (short,) = [m for m in replies_since(h, before) if m["content"].startswith("**Game #1")]
    assert short["content"].splitlines()[0].startswith("**Game #1 (Hector and Achilles)**: moves 1–1 of")
    assert len(short["content"]) < len(reply["content"])
    h.assert_no_errors()


async def test_tournament_profile_and_leaderboard_are_described_in_hungarian_and_polish(harness):
    tree = harness.bot.tree
    payload = [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]
    missing = []

    def walk(node: dict, path: str) -> None:
        where = f"{path} {node['name']}".strip()
        for lang in ("hu", "pl"):
            if not (node.get("description_localizations") or {}).get(lang):
                missing.append(f"{where} ({lang})")
        for choice in node.get("choices") or []:
            for lang in ("hu", "pl"):
                if not (choice.get("name_localizations") or {}).get(lang):
                    missing.append(f"{where} choice {choice['name']} ({lang})")
        for option in node.get("options") or []:
            walk(option, where)

    from engines import ENGINES

    for command in payload:
        if command["name"] in ("tournament", "profile", "leaderboard", "deck", *ENGINES):
            walk(command, "")
    # the games' titles and the languages' own names are the same in every language
    missing = [m for m in missing if " game choice " not in m and " language choice " not in m]
    assert missing == [], "\n".join(missing)
    tournament = next(c for c in payload if c["name"] == "tournament")
    drop = next(o for o in tournament["options"] if o["name"] == "drop")
    assert drop["description_localizations"]["pl"].startswith("Wycofaj gracza")
    new = next(o for o in tournament["options"] if o["name"] == "new")
    fmt = next(o for o in new["options"] if o["name"] == "format")
    assert {c["name_localizations"]["hu"] for c in fmt["choices"]} >= {"svájci", "kieséses"}


async def test_the_whole_log_of_a_long_game_reads_page_by_page(harness):
    """/game log of a game of hundreds of moves: the latest page first, then every page by its buttons, each
    within a message's 2,000 characters; together they tell the whole game, every move once, in order."""
    from host.presenters import presenter_for
    from tests.discord_harness import GUILD_ID, components

    h = harness
    outcome = await h.bot.service.ai_match("ave-caesar", 2, {"races": 2}, guild_id=GUILD_ID)
    game = outcome.game
    assert game.version > 200, "longer than the old limit of 200 moves"
    presenter, names = presenter_for("ave-caesar"), h.bot.service.names(game)
    whole = [line for a in await h.bot.service.store.actions(game.id) for e in a["events"]
             if (line := presenter.narrate(e, names))]
    before = len(h.fake.messages)
    await h.slash(ANN, "game log", game=game.id, name="Ann")
    (page,) = [m for m in replies_since(h, before) if m["content"].startswith(f"**Game #{game.id}")]
    first_line = page["content"].splitlines()[0]
    assert first_line.endswith(f"of {game.version}") and f"–{game.version} of" in first_line, "the latest first"
    buttons = {c["emoji"]["name"]: c for c in components(page)}
    assert not buttons["⏮"].get("disabled") and buttons["▶"].get("disabled"), "older pages; none newer"
    # from the first page onwards, ▶ after ▶
    await h.click(ANN, page, buttons["⏮"]["custom_id"])
    told, pages, seen = [], 0, set()
    for _ in range(100):
        page = h.fake.messages[int(page["id"])]
        assert len(page["content"]) <= 2000
        head, *lines = page["content"].splitlines()
        assert head not in seen, "a page repeated"
        seen.add(head)
        told += [line for text in lines for line in [text]]
        pages += 1
        buttons = {c["emoji"]["name"]: c for c in components(page)}
        if buttons["▶"].get("disabled"):
            break
        await h.click(ANN, page, buttons["▶"]["custom_id"])
    h.assert_no_errors()
    assert pages > 2, (pages, head, told[:3], len(whole))
    assert head.endswith(f"of {game.version}") and f"–{game.version} of" in head
    assert told == [line for text in whole for line in text.split("\n")], "the whole game, once, in order"
    h.assert_no_errors()
