"""What used to crash, and requests the command tree would never send (stale clients, damaged controls): each
answered with a clear, private refusal and nothing changed, through the real discord.py dispatch."""

from __future__ import annotations

import pytest

from engines.rng import Rng
from tests.cogs.driver import latest_board, take_turn
from tests.cogs.fence import message_with, send
from tests.cogs.test_hector_achilles_discord import ANN, CAROL, open_two_player_game, thread_of
from tests.discord_harness import CHANNEL_ID, components

CANNOT_READ = "I cannot read this button"


async def test_status_of_an_abandoned_game_shows_its_last_board(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    await h.slash(ANN, "game abandon", channel_id=thread, name="Ann")
    for where in ({"game": 1}, {"channel_id": thread}):  # by number anywhere, or in the game's thread
        replies = await send(h, h.payloads.slash(ANN, "game status", name="Ann", **where))
        (status,) = [m for m in replies if m["attachments"]]
        assert status["flags"] & 64 and "abandoned" in status["content"]
        assert "your turn" not in status["content"] and not components(status), "nobody is asked to act any more"
    h.assert_no_errors()


async def test_unknown_games_are_named_not_crashed_on(harness):
    h = harness
    replies = await send(h, h.payloads.slash(ANN, "rules", game="chess"))
    assert [m["content"] for m in replies] == ["Unknown game chess."] and replies[0]["flags"] & 64
    replies = await send(h, h.payloads.slash(ANN, "tournament new", game="chess", name="Ann"))
    assert [m["content"] for m in replies] == ["Unknown game chess."] and replies[0]["flags"] & 64
    assert await h.bot.service.store.tournament(1) is None
    h.assert_no_errors()


async def test_a_long_typed_move_is_refused_without_echoing_it(harness):
    h = harness
    thread = await open_two_player_game(h)
    version = (await h.bot.service.game(1)).version
    text = "take the vanguard please " * 200  # 5,000 characters
    replies = await send(h, h.payloads.slash(ANN, "game play", channel_id=thread, name="Ann", move=text))
    assert [m["content"] for m in replies] == [
        "That is 5000 characters; a move is a few words (at most 200 characters). Try e.g. the text of a button."]
    # a text just within the limit that matches nothing is echoed, and the answer fits Discord's 2,000
    replies = await send(h, h.payloads.slash(ANN, "game play", channel_id=thread, name="Ann", move="x" * 200))
    assert len(replies) == 1 and "x" * 200 in replies[0]["content"] and len(replies[0]["content"]) <= 2000
    assert (await h.bot.service.game(1)).version == version
    h.assert_no_errors()


@pytest.mark.parametrize("move", [0, -5, 201])
async def test_game_log_of_a_move_not_made_is_refused(harness, move):
    h = harness
    thread = await open_two_player_game(h)
    await take_turn(h, thread, Rng(1))
    made = (await h.bot.service.game(1)).version
    replies = await send(h, h.payloads.slash(ANN, "game log", channel_id=thread, name="Ann", move=move))
    assert [m["content"] for m in replies] == [
        f"`move` must be a number from 1 to {made}: game #1 has {made} moves so far."]
    h.assert_no_errors()


DAMAGED = [
    "gh:a:1:99999999999999999999:0:0",  # a version over 64 bits
    "gh:a:18446744073709551617:0:0:0",  # a game over 64 bits
    "gh:t:١",  # an Arabic-Indic digit (Python's \d and int() take it)
    "gh:h:１",  # a full-width digit
    "gh:j:1x",
    "gh:st:",
    "gh:rm:1:2",  # a field too many
    "gh:a:1:0",  # fields missing
    "gh:a:1:0:0:0:NOTHEX",
    "gh:gb:1:0:0:²",  # a superscript two: isdigit() says yes, int() says no
    "gh:pg:1:0:0:0:99999999999999999999",
    "gh:tj:99999999999999999999",
    "gh:ts:٣",
    "gh:r:hextri:٣",
    "gh:r:hextri:99999",
    "gh:lg:1:5",  # a /game log page without its direction
    "gh:lg:1:٣:0",
    "gh:zz:1",  # a control this version does not have
]


@pytest.mark.parametrize("custom_id", DAMAGED)
async def test_a_damaged_custom_id_is_refused_clearly(harness, custom_id):
    h = harness
    thread = await open_two_player_game(h)
    version = (await h.bot.service.game(1)).version
    message = message_with(h, thread, custom_id)
    replies = await send(h, h.payloads.click(ANN, message, custom_id, name="Ann"))
    assert len(replies) == 1 and replies[0]["content"].startswith(CANNOT_READ) and replies[0]["flags"] & 64, \
        [m["content"] for m in replies]
    assert (await h.bot.service.game(1)).version == version
    h.assert_no_errors()


@pytest.mark.parametrize("value", ["²", "١", "99999999999999999999", "-1"])
async def test_a_damaged_select_value_is_refused_clearly(harness, value):
    h = harness
    thread = await open_two_player_game(h)
    game = await h.bot.service.game(1)
    custom_id = f"gh:s:1:{game.version}:0:0"
    message = message_with(h, thread, custom_id, select=True)
    replies = await send(h, h.payloads.click(ANN, message, custom_id, values=[value], name="Ann"))
    assert [m["content"] for m in replies] == ["That choice no longer exists on this board."]
    assert (await h.bot.service.game(1)).version == game.version
    h.assert_no_errors()


async def test_option_bounds_of_the_command_tree_hold_for_stale_clients(harness):
    h = harness
    for game, option, value, message in [
            ("kivalasztottak", "round_limit", 1_000_000_000,
             "round_limit must be a whole number from 0 to 200 (not 1000000000)."),
            ("hextri", "round_limit", 1_000_000_000, "round_limit must be a whole number from 0 to 999"),
            ("ave-caesar", "races", 50, "races must be 1, 2, 3 or 4."),  # (the game's own words)
            ("troja", "max_rounds", 10**9, "max_rounds must be a whole number from 5 to 200")]:
        replies = await send(h, h.payloads.slash(ANN, f"{game} new", name="Ann", opponent="ai",
                                                 **{option: value}))
        assert any(message in m["content"] and m["flags"] & 64 for m in replies), [m["content"] for m in replies]
    assert await h.bot.service.store.get_game(1) is None, "a refused game is not created"
    assert not [c for c in h.fake.channels.values() if c["type"] == 11]
    h.assert_no_errors()


async def test_the_announcement_loses_its_join_button_when_the_game_starts(harness):
    h = harness
    thread = await open_two_player_game(h)  # Bob's Join fills the table: the game starts
    (announcement,) = [m for m in h.messages_in(CHANNEL_ID) if m["content"].startswith("🎲")]
    assert not components(announcement), "nobody is sent to a full table"
    assert announcement["content"].split("\n") == [
        f"🎲 Ann opened **Hector and Achilles** (game #1) in <#{thread}>.",
        f"▶️ Game #1 is under way: follow it in <#{thread}>."]
    h.assert_no_errors()


async def test_the_announcement_follows_start_and_a_called_off_lobby(harness):
    h = harness
    await h.slash(ANN, "hextri new", name="Ann", players=3)
    first = thread_of(h)
    lobby = h.messages_in(first)[0]
    (announce,) = [m for m in h.messages_in(CHANNEL_ID) if m["content"].startswith("🎲")]
    assert [c["label"] for c in components(announce)] == ["Join"]
    await h.click(CAROL, announce, components(announce)[0]["custom_id"], name="Carol")
    assert components(h.fake.messages[int(announce["id"])]), "one seat is still open"
    start = next(c for c in components(h.fake.messages[int(lobby["id"])]) if c["label"] == "Start")
    await h.click(ANN, lobby, start["custom_id"], name="Ann")
    announce = h.fake.messages[int(announce["id"])]
    assert not components(announce) and f"is under way: follow it in <#{first}>" in announce["content"]
    # a lobby its host leaves is called off, and its announcement says so
    await h.slash(ANN, "hextri new", name="Ann")
    second = thread_of(h)
    await h.slash(ANN, "game leave", channel_id=second, name="Ann")
    called_off = [m for m in h.messages_in(CHANNEL_ID) if m["content"].startswith("🎲") and "#2" in m["content"]]
    assert len(called_off) == 1 and not components(called_off[0])
    assert called_off[0]["content"].endswith("✖️ Game #2 was called off.")
    h.assert_no_errors()


async def test_closed_dms_in_hextri_point_at_the_controls_hextri_has(harness):
    from engines.rng import Rng
    from tests.cogs.driver import take_turn
    from tests.cogs.test_hector_achilles_discord import BOB

    h = harness
    h.fake.closed_dms.add(BOB)
    await h.slash(ANN, "hextri new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, next(c["custom_id"] for c in components(lobby) if c["label"] == "Join"), name="Bob")
    notes: list[dict] = []
    for _ in range(20):
        notes = [m for m in h.messages_in(thread) if "cannot send you direct messages" in m["content"]]
        if notes:
            break
        await take_turn(h, thread, Rng(1))
    assert len(notes) == 1 and f"<@{BOB}>" in notes[0]["content"]
    assert "My hand" not in notes[0]["content"], "HEX-TRI boards have no My hand button"
    assert "the buttons on the newest board" in notes[0]["content"] and "**Take your turn**" in notes[0]["content"]
    labels = {c.get("label") for c in components(latest_board(h, thread))}
    assert "My hand" not in labels
    h.assert_no_errors()
