"""Turn reminders: a game that waits a day for someone's move mentions them in its thread, once per board,
in the game's language; games that moved, finished or wait only for the AI stay quiet."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engines.rng import Rng
from tests.cogs.driver import latest_board, take_turn, to_act
from tests.cogs.test_hector_achilles_discord import ANN, BOB, open_two_player_game, thread_of


def reminders(h, thread: int) -> list[dict]:
    return [m for m in h.messages_in(thread) if m["content"].startswith("⏰")]


async def remind(h, hours_later: float) -> int:
    cog = h.bot.get_cog("Reminders")
    cog.after = timedelta(hours=24)  # the default (the harness turns the timer off and calls the cog itself)
    count = await cog.remind_once(now=datetime.now(UTC) + timedelta(hours=hours_later))
    await h.settle()
    return count


async def test_a_waiting_player_is_reminded_once_per_board(harness):
    h = harness
    thread = await open_two_player_game(h)
    assert await remind(h, 1) == 0  # an hour is no reason to nag
    assert await remind(h, 25) == 1
    (sent,) = reminders(h, thread)
    assert f"<@{ANN}>" in sent["content"] and "game #1" in sent["content"] and "<t:" in sent["content"]
    request = next(r for r in reversed(h.fake.sent) if r.method == "POST" and r.json.get("content") == sent["content"])
    assert [int(u) for u in request.json["allowed_mentions"]["users"]] == [ANN], "only the waited-for player is pinged"
    assert await remind(h, 50) == 0, "the same board is not reminded of twice"
    # after a move the next player can be reminded again
    await take_turn(h, thread, Rng(1))
    waiting = to_act(latest_board(h, thread))
    assert await remind(h, 25) == 1
    latest = reminders(h, thread)[-1]
    assert all(f"<@{u}>" in latest["content"] for u in waiting)
    assert {ANN, BOB} - set(waiting), "the reminder names only who the board waits for"
    h.assert_no_errors()


async def test_reminders_speak_the_games_language_and_skip_ai_turns_and_finished_games(harness):
    h = harness
    h.payloads.locales[ANN] = "hu"
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    assert await remind(h, 30) == 1
    assert "a lépésedre vár" in reminders(h, thread)[-1]["content"]
    await h.slash(ANN, "game abandon", game=1)
    assert await remind(h, 80) == 0
    assert latest_board(h, thread)
    h.assert_no_errors()
