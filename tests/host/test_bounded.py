"""Bounded work per interaction (issue 22): a seat's choices, typed moves and AI decisions are worked out in
worker processes with a time budget, so that no position - HEX-TRI's pass-until-huge position of 200,354 legal
actions among them - holds up the event loop, and a player is told clearly when a budget ran out."""

from __future__ import annotations

import asyncio
import time

import pytest

from engines import ENGINES
from host import workers as work
from host.service import Asker, GameError, GameService, Slow
from store import SqliteStore
from tests.host.worst import GUILD, PLAYER, WORST, seat_worst, still_huge, to_act

SPECTATOR = Asker(5_555, GUILD)


class Ticker:
    """How late each 20 ms sleep of the event loop wakes up, while it runs."""

    def __init__(self) -> None:
        self.late: list[float] = []
        self._task: asyncio.Task | None = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.02)
            self.late.append(loop.time() - start - 0.02)

    def __enter__(self) -> Ticker:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc) -> None:
        self._task.cancel()


@pytest.fixture
async def processes(tmp_path):
    """A game service whose work runs in two worker processes, as in the bot."""
    store = await SqliteStore.open(tmp_path / "bounded.db")
    service = GameService(store, seed_source=lambda: 5, render_processes=2)
    await service.workers.warm_up()
    yield service
    service.close()
    await store.close()


async def _everything_at_once(service: GameService, games: dict[str, int]) -> dict[str, list]:
    """Status (a spectator), hand and a click (the seat to act) of every game, all at the same time."""

    async def one(key: str, game_id: int) -> list:
        seat = to_act(key)[0]
        version = (await service.game(game_id)).version
        calls = [service.status(game_id, SPECTATOR),
                 service.private(game_id, PLAYER + seat, Asker(PLAYER + seat, GUILD)),
                 service.act(game_id, PLAYER + seat, version, 0, asker=Asker(PLAYER + seat, GUILD))]
        return await asyncio.gather(*calls, return_exceptions=True)

    answers = await asyncio.gather(*(one(key, game_id) for key, game_id in games.items()))
    return dict(zip(games, answers))


async def test_the_worst_position_of_every_game_does_not_hold_the_loop(processes):
    service = processes
    games = {key: await seat_worst(service.store, key) for key in WORST}
    assert WORST["hextri"]["legal"] > 200_000
    huge = still_huge()
    with Ticker() as ticker:
        began, cpu = time.perf_counter(), time.thread_time()
        answers = await _everything_at_once(service, games)
        took, cpu = time.perf_counter() - began, time.thread_time() - cpu
    print(f"\nall answered in {took:.2f} s; the loop's own CPU time {cpu * 1000:.0f} ms; it woke at most "
          f"{max(ticker.late) * 1000:.0f} ms late ({len(ticker.late)} ticks)")
    for key, (status, private, played) in answers.items():
        assert not isinstance(status, Exception), (key, status)
        assert not isinstance(private, Exception), (key, private)
        assert status.board.image is not None, key
        if key == "hextri" and huge:
            # 200,354 ways to move: said, with what to do instead (on a very busy machine listing them may even
            # run past its budget: then that is said, with when to try again); the click changed nothing
            if "took longer than" in status.board.text:
                assert isinstance(played, Slow) and "<t:" in status.board.text
            else:
                assert "200354 possible moves" in status.board.text and "/game play" in status.board.text
                assert "/game play" in private.text and isinstance(played, GameError)
                assert played.key == "choices_type_move"
            assert private.panel is not None and private.panel.choices == []
            assert (await service.game(games[key])).version == 0
        else:
            assert not isinstance(played, Exception), (key, played)
            assert (await service.game(games[key])).version >= 1, key
            # the hand came with its choices, unless the click was served first (then it is no longer its turn)
            assert private.panel is None or private.panel.choices, key
    # the loop was sampled all along: a 20 ms tick at least every 40 ms of the work (a fixed count of ticks
    # failed once the pictures a status and a hand share were drawn once: all answered in 0.24 s, 10-12 ticks)
    assert len(ticker.late) >= max(3, int(took / 0.04)), (len(ticker.late), took)
    # the work done on the loop itself (its thread's CPU time: what the machine's other load does not change)
    # stays small, and the loop wakes in time: 45-170 ms of CPU and 20-120 ms late when measured; the bound on
    # the lateness is the (another member answered within a second), since on a shared two-core
    # machine the scheduler alone can keep a process waiting a few hundred milliseconds
    assert cpu < 0.5, f"{cpu:.2f} s of CPU on the event loop"
    assert max(ticker.late) < 1.0, f"the event loop stalled {max(ticker.late):.2f} s"


async def test_the_workers_run_below_the_bots_priority(processes):
    """On a busy machine the scheduler serves the event loop before the jobs (os.nice in the workers)."""
    import os

    ours = os.nice(0)
    theirs = await processes.workers.run("ai", os.nice, 0)
    assert theirs == min(ours + work.WORKER_NICENESS, 19)


async def test_a_typed_move_works_in_the_huge_position(processes):
    service = processes
    game_id = await seat_worst(service.store, "hextri")
    seat = to_act("hextri")[0]
    outcome = await service.act_text(game_id, PLAYER + seat, "pass", asker=Asker(PLAYER + seat, GUILD))
    assert outcome.done_label == "Pass this go"
    log = await service.store.actions(game_id)
    assert [a["action"] for a in log] == [{"type": "pass"}]
    with pytest.raises(GameError, match="T-Z9|not a field|field"):
        await service.act_text(game_id, PLAYER + 1 - seat, "T-Z9", asker=Asker(PLAYER + 1 - seat, GUILD))


async def test_choices_past_their_budget_are_refused_clearly_and_not_worked_out_again(processes, monkeypatch):
    service = processes
    if not still_huge():
        pytest.skip("the HEX-TRI engine lists this position quickly now")
    monkeypatch.setitem(work.BUDGETS, "turn", 0.3)  # the huge position takes a second or more
    game_id = await seat_worst(service.store, "hextri")
    seat = to_act("hextri")[0]
    player = Asker(PLAYER + seat, GUILD)
    with Ticker() as ticker:
        status = await service.status(game_id, SPECTATOR)
        assert "took longer than 0.3 s" in status.board.text and "<t:" in status.board.text
        assert service.workers.overruns == 1
        # asked again (and again): answered from the verdict, without working the choices out again
        private = await service.private(game_id, PLAYER + seat, player)
        with pytest.raises(Slow) as refused:
            await service.act(game_id, PLAYER + seat, 0, 0, asker=player)
        assert service.workers.overruns == 1
    assert "took longer than 0.3 s" in private.text
    assert "nothing was done" in refused.value.text("en") and "<t:" in refused.value.text("en")
    assert (await service.game(game_id)).version == 0
    assert max(ticker.late) < 1.0
    # the killed worker was replaced: ordinary work goes on
    other = await seat_worst(service.store, "troja")
    assert (await service.status(other, SPECTATOR)).board.image is not None


async def test_an_ai_past_its_budget_passes_and_the_game_goes_on(processes, monkeypatch):
    service = processes
    if not still_huge():
        pytest.skip("the HEX-TRI engine lists this position quickly now")
    monkeypatch.setitem(work.BUDGETS, "ai", 0.3)
    seat = to_act("hextri")[0]
    game_id = await seat_worst(service.store, "hextri", ai_seats=(seat,))
    game = await service.game(game_id)
    assert await service.run_automatic(game)
    log = await service.store.actions(game_id)
    assert log[0]["seat"] == seat and log[0]["action"] == {"type": "pass"}
    assert service.workers.overruns >= 1


async def test_in_threads_the_same_choices_come_out(tmp_path):
    """RENDER_PROCESSES=0: the same jobs in worker threads give the same panels as the processes."""
    panels = {}
    for n in (0, 2):
        store = await SqliteStore.open(tmp_path / f"t{n}.db")
        service = GameService(store, render=False, render_processes=n)
        try:
            game_id = await seat_worst(store, "kivalasztottak")
            seat = to_act("kivalasztottak")[0]
            private = await service.private(game_id, PLAYER + seat)
            panels[n] = [(c.index, c.label, c.group) for c in private.panel.choices], private.panel.digest
        finally:
            service.close()
            await store.close()
    assert panels[0] == panels[2] and len(panels[0][0]) == WORST["kivalasztottak"]["legal"]
    assert ENGINES["kivalasztottak"]


async def test_a_picture_past_its_budget_leaves_the_board_without_it_and_loses_nothing(tmp_path, monkeypatch):
    store = await SqliteStore.open(tmp_path / "p.db")
    service = GameService(store, seed_source=lambda: 5)
    try:
        game, _ = await service.create("troja", user_id=PLAYER, user_name="Ann", guild_id=GUILD, channel_id=1,
                                       opponent="ai")
        monkeypatch.setitem(work.BUDGETS, "picture", 0.000_001)
        outcome = await service.act(game.id, PLAYER, (await service.game(game.id)).version, 0)
        assert outcome.board.image is None
        assert "took too long to draw" in outcome.board.text and "/game status" in outcome.board.text
        assert len(await store.actions(game.id)) >= 1  # the move is saved
        monkeypatch.setitem(work.BUDGETS, "picture", 15.0)
        status = await service.status(game.id, SPECTATOR)
        assert status.board.image is not None and "took too long" not in status.board.text
    finally:
        service.close()
        await store.close()


async def test_slow_choices_and_a_slow_ai_in_any_game(tmp_path, monkeypatch):
    """The same budgets with a job made slow on purpose (worker threads, so that the slowness reaches the job):
    whatever makes a position slow, the player is told, and an AI passes."""
    import time as clock

    from host import seatwork

    real_work_out, real_ai = seatwork.work_out, seatwork.ai_decision

    def slow_work_out(*args):
        clock.sleep(0.6)
        return real_work_out(*args)

    def slow_ai(*args):
        clock.sleep(0.6)
        return real_ai(*args)

    monkeypatch.setattr("host.service_core.work_out", slow_work_out)
    monkeypatch.setattr("host.thinking.seatwork.ai_decision", slow_ai)
    monkeypatch.setitem(work.BUDGETS, "turn", 0.2)
    monkeypatch.setitem(work.BUDGETS, "ai", 0.2)
    store = await SqliteStore.open(tmp_path / "s.db")
    service = GameService(store, render=False)
    try:
        game_id = await seat_worst(store, "troja")
        seat = to_act("troja")[0]
        player = Asker(PLAYER + seat, GUILD)
        status = await service.status(game_id, SPECTATOR)
        assert "took longer than 0.2 s" in status.board.text
        with pytest.raises(Slow):
            await service.act(game_id, PLAYER + seat, 0, 0, asker=player)
        private = await service.private(game_id, PLAYER + seat, player)
        assert "took longer than 0.2 s" in private.text and not private.panel.choices
        assert service.workers.overruns == 1  # one job; the verdict answered the rest
        # an AI past its budget passes where passing is allowed (Kiválasztottak's priority)...
        ai_game = await seat_worst(store, "kivalasztottak", ai_seats=tuple(to_act("kivalasztottak")))
        await service.run_automatic(await service.game(ai_game))
        log = await store.actions(ai_game)
        assert log[0]["seat"] == to_act("kivalasztottak")[0] and log[0]["action"] == {"type": "pass"}
        # ...and where it is not (Hector and Achilles here), nothing is saved: the outbox tries the turn again
        ai_game = await seat_worst(store, "hector-achilles", ai_seats=tuple(to_act("hector-achilles")))
        assert await service.run_automatic(await service.game(ai_game)) is False
        assert await store.actions(ai_game) == []
    finally:
        service.close()
        await store.close()


async def test_a_worker_process_past_its_budget_is_replaced_and_the_next_job_runs():
    workers = work.Workers(1)
    try:
        await workers.warm_up()
        began = time.perf_counter()
        with pytest.raises(work.Overrun):
            await workers.run("turn", time.sleep, 30, budget=0.3)
        assert time.perf_counter() - began < 5  # stopped, not waited for
        assert workers.overruns == 1
        assert await workers.run("turn", sum, [1, 2, 3]) == 6  # a fresh process took its place
    finally:
        workers.close()
