"""Rematch: the last board of a finished game has a Rematch button that opens the same game again (same
options, language and AI seats) in a new thread; other people of the old game are called to join."""

from __future__ import annotations

from engines.rng import Rng
from tests.cogs.driver import game_over, latest_board, take_turn
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, open_two_player_game, thread_of
from tests.discord_harness import button, components


def threads(h) -> list[int]:
    return [cid for cid, c in h.fake.channels.items() if c["type"] == 11]


async def test_a_finished_game_against_the_ai_starts_again_with_the_same_options(harness):
    h = harness
    await h.slash(ANN, "hextri new", name="Ann", opponent="ai", radius=2, round_limit=8)
    thread = thread_of(h)
    for _ in range(400):
        if game_over(latest_board(h, thread)):
            break
        await take_turn(h, thread, Rng(4))
    final = latest_board(h, thread)
    rematch = button(final, "Rematch")
    assert rematch["custom_id"] == "gh:rm:1"
    await h.click(ANN, final, rematch["custom_id"], name="Ann")
    old, new = await h.bot.service.game(1), await h.bot.service.game(2)
    assert new.status == "running", "with only the AI to wait for, the rematch starts at once"
    assert new.options["engine"] == old.options["engine"] == {"radius": 2, "round_limit": 8}
    assert new.lang == old.lang and [s.is_ai for s in new.seats] == [False, True]
    new_thread = threads(h)[-1]
    assert new_thread != thread and latest_board(h, new_thread)["content"].startswith("Game #2 of HEX-TRI begins")
    h.assert_no_errors()


async def test_a_rematch_between_people_calls_the_others_to_join(harness):
    h = harness
    thread = await open_two_player_game(h)
    await h.bot.service.store.set_status(1, "finished", {"places": [2, 1], "scores": [0, 1], "reason": "test"})
    # days later, /game status shows the finished game with its Rematch button
    before = len(h.fake.messages)
    await h.slash(BOB, "game status", channel_id=thread, name="Bob")
    (board,) = [m for m in list(h.fake.messages.values())[before:] if components(m)]
    assert button(board, "Rematch")["custom_id"] == "gh:rm:1"
    before = len(h.fake.messages)
    await h.click(CAROL, board, "gh:rm:1", name="Carol")
    assert any("not playing" in m["content"] for m in list(h.fake.messages.values())[before:])
    await h.click(BOB, board, "gh:rm:1", name="Bob")
    game = await h.bot.service.game(2)
    assert game.status == "lobby" and game.seat_of(BOB) == 0 and game.seat_of(ANN) is None
    new_thread = threads(h)[-1]
    call = [m for m in h.messages_in(new_thread) if "rematch" in m["content"].lower()]
    assert call and f"<@{ANN}>" in call[0]["content"]
    lobby = h.messages_in(new_thread)[0]
    await h.click(ANN, lobby, button(lobby, "Join")["custom_id"], name="Ann")
    assert (await h.bot.service.game(2)).status == "running"
    assert [c for c in components(latest_board(h, new_thread)) if c["custom_id"].startswith("gh:a:")]
    h.assert_no_errors()
