"""Clicks that arrive together: both interactions are handed to discord.py before either is answered, as
the gateway does when two people (or one impatient one) click at the same moment."""

from __future__ import annotations

from tests.cogs.fence import send
from tests.cogs.test_hector_achilles_discord import ANN, BOB, open_two_player_game, thread_of
from tests.discord_harness import button, components


def reply_box(h, payload: dict) -> int:
    """Record the answers to ``payload`` (response and followups) apart: in a channel of their own."""
    box = h.fake.new_id()
    h.fake._channel_of[payload["token"]] = box
    return box


def told(h, box: int) -> list[str]:
    return [m["content"] for m in h.messages_in(box) if m["content"]]


async def finished_game_between_people(h) -> tuple[int, dict]:
    thread = await open_two_player_game(h)
    await h.bot.service.store.set_status(1, "finished", {"places": [2, 1], "scores": [0, 1], "reason": "test"})
    replies = await send(h, h.payloads.slash(BOB, "game status", channel_id=thread, name="Bob"))
    (board,) = [m for m in replies if components(m)]
    return thread, board


def texts(h, since: int) -> list[str]:
    """What the bot said since message number ``since``."""
    return [m["content"] for m in list(h.fake.messages.values())[since:] if m["content"]]


async def test_a_double_clicked_rematch_opens_one_game(harness):
    h = harness
    thread, board = await finished_game_between_people(h)
    clicks = [h.payloads.click(BOB, board, "gh:rm:1", name="Bob") for _ in range(2)]
    boxes = [reply_box(h, c) for c in clicks]
    for click in clicks:
        h.bot._connection.parse_interaction_create(click)
    await h.settle()
    assert await h.bot.service.store.get_game(3) is None, "one rematch, not two"
    rematch = await h.bot.service.game(2)
    assert rematch.status == "lobby" and rematch.seat_of(BOB) == 0 and rematch.options["rematch_of"] == 1
    first, second = (told(h, box) for box in boxes)
    assert first == [f"Game #2 of Hector and Achilles is open in <#{rematch.thread_id}>."], first
    # (its thread may not exist yet at that moment: then the channel is named)
    assert len(second) == 1 and second[0].startswith("The rematch is already open: game #2 in <#"), second
    threads = [c for c in h.fake.channels.values() if c["type"] == 11]
    assert len(threads) == 2, "one new thread"
    h.assert_no_errors()


async def test_the_other_players_rematch_click_seats_them_in_the_open_one(harness):
    h = harness
    thread, board = await finished_game_between_people(h)
    await h.click(BOB, board, "gh:rm:1", name="Bob")
    before = len(h.fake.messages)
    await h.click(ANN, board, "gh:rm:1", name="Ann")
    game = await h.bot.service.game(2)
    assert await h.bot.service.store.get_game(3) is None
    assert game.status == "running" and {game.seat_of(BOB), game.seat_of(ANN)} == {0, 1}
    assert f"Ann joined game #2, and the table is full: the game has started in <#{game.thread_id}>." \
        in texts(h, before)
    # and a third click (days later) says where the rematch is
    before = len(h.fake.messages)
    await h.click(ANN, board, "gh:rm:1", name="Ann")
    assert f"The rematch is already open: game #2 in <#{game.thread_id}>." in texts(h, before)
    h.assert_no_errors()


async def test_start_pressed_while_the_last_player_joins(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    join = h.payloads.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    start = h.payloads.click(ANN, lobby, button(lobby, "Start")["custom_id"], name="Ann")
    bob, ann = reply_box(h, join), reply_box(h, start)
    h.bot._connection.parse_interaction_create(join)
    h.bot._connection.parse_interaction_create(start)
    await h.settle()
    game = await h.bot.service.game(1)
    assert game.status == "running" and game.seat_of(BOB) == 1
    assert told(h, bob) == [f"Bob joined game #1, and the table is full: the game has started in <#{thread}>."]
    assert told(h, ann) == ["Game #1 has already started."]  # (Bob's seat filled the table first)
    assert len([m for m in h.messages_in(thread) if "begins" in m["content"]]) == 1, "one first board"
    h.assert_no_errors()
