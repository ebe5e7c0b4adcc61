"""Turn clocks through the real discord.py dispatch, with the service's clock driven by the test: the option of
``/game new``, the time left on the board and in ``/game list``, a timeout narrated in the thread, ``/game
resign`` with its confirmation button, and ``/game away``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.cogs.driver import latest_board
from tests.cogs.test_hector_achilles_discord import ANN, BOB, thread_of
from tests.discord_harness import button


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


async def _game(h, **options) -> int:
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "game new hector-achilles", name="Ann", **options)
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    return thread, clock


def _replies(h, since: int) -> list[dict]:
    return list(h.fake.messages.values())[since:]


async def test_a_timed_out_player_is_replaced_by_the_ai_and_told_in_the_thread(harness):
    h = harness
    thread, clock = await _game(h, time_control="1h", on_timeout="ai")
    board = latest_board(h, thread)
    deadline = int((clock.now + timedelta(hours=1)).timestamp())
    assert f"⏳ Ann: time runs out <t:{deadline}:R>" in board["content"]
    before = len(h.fake.messages)
    await h.slash(BOB, "game list")
    (listing,) = [m for m in _replies(h, before) if m["embeds"]]
    assert "⏳ 1h" in listing["embeds"][0]["description"]
    cog = h.bot.get_cog("Clocks")

    async def run_for(minutes: int) -> list[int]:
        """The clock job as it runs: a tick a minute (a longer gap would be an outage, given back to every clock)."""
        changed = []
        for _ in range(minutes):
            clock.now += timedelta(minutes=1)
            changed += await cog.tick()
        await h.settle()
        return changed

    assert await run_for(31) == [1]
    assert any("half of your time" in m["content"] and f"<@{ANN}>" in m["content"] for m in h.messages_in(thread))
    assert await run_for(30) == [1]
    texts = "\n".join(m["content"] for m in h.messages_in(thread))
    assert "Ann ran out of time: the AI plays their seat until they are back" in texts
    assert "🤖 The AI plays for Ann" in latest_board(h, thread)["content"]
    h.assert_no_errors()


async def test_forfeit_is_the_hosts_choice_and_resign_asks_first(harness):
    h = harness
    thread, clock = await _game(h, time_control="none")
    before = len(h.fake.messages)
    await h.slash(ANN, "game resign", channel_id=thread)
    (ask,) = [m for m in _replies(h, before) if "Resign game #1?" in m["content"]]
    assert ask["flags"] & 64
    assert (await h.bot.service.game(1)).status == "running", "nothing happens before the confirmation"
    await h.click(ANN, ask, button(ask, "Resign")["custom_id"])
    await h.settle()
    game = await h.bot.service.game(1)
    assert game.status == "finished" and game.result["places"] == [2, 1]
    assert any("Ann resigned game #1" in m["content"] for m in h.messages_in(thread))
    h.assert_no_errors()


async def test_away_pauses_the_clock_and_shows_it(harness):
    h = harness
    thread, clock = await _game(h, time_control="12h")
    before = len(h.fake.messages)
    await h.slash(ANN, "game away days", days=3)
    (reply,) = [m for m in _replies(h, before) if "away until" in m["content"]]
    assert reply["flags"] & 64
    before = len(h.fake.messages)
    await h.slash(BOB, "game status", channel_id=thread)
    assert any("✈️ Ann is away until" in m["content"] for m in _replies(h, before))
    clock.now += timedelta(days=2)
    assert await h.bot.get_cog("Clocks").tick() == []  # no warning, no timeout while away
    before = len(h.fake.messages)
    await h.slash(ANN, "game away off")
    assert any("clocks run again" in m["content"] for m in _replies(h, before))
    h.assert_no_errors()
