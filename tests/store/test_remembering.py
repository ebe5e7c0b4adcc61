"""Issue 29: a move reads the game's clocks and the vacations once (``Store.remembering``) and runs its
transaction in one call to SQLite's worker thread; neither may ever show a player an out-of-date clock."""

import asyncio

from engines import ENGINES
from engines.rng import Rng
from host.clock import SeatClock
from host.service import GameService
from host.service_core import person
from store import Store, connect


async def _game(store: Store) -> int:
    gid = await store.create_game(engine="troja", options={"lang": "en"}, seed=7, num_players=2,
                                  guild_id=1, channel_id=2, host_user_id=100)
    await store.set_seat(gid, 0, user_id=100, name="P100")
    await store.set_seat(gid, 1, user_id=101, name="P101")
    return gid


async def _timed_game(service: GameService, engine: str):
    """A running game of ``engine`` between Ann (1) and Bob (2), on a 3-day clock."""
    game, _ = await service.create(engine, user_id=1, user_name="Ann", guild_id=1, channel_id=1, time_control="3d")
    game, _ = await service.join(game.id, 2, "Bob")
    if game.status == "lobby":
        await service.start(game.id, 1)
    return game


class Counted:
    """Counts the store's reads (``_rows``), by the table they read."""

    def __init__(self, store: Store, monkeypatch) -> None:
        self.sql: list[str] = []
        original = store._rows

        async def rows(sql: str, params: tuple = ()):
            self.sql.append(sql)
            return await original(sql, params)

        monkeypatch.setattr(store, "_rows", rows)

    def reading(self, table: str) -> int:
        return sum(f"FROM {table} " in s + " " for s in self.sql)


async def test_clocks_are_read_once_in_a_block_and_follow_every_write(database, monkeypatch):
    store = await connect(database)
    try:
        gid = await _game(store)
        await store.set_clocks(gid, [SeatClock(0, started=10, deadline=3610), SeatClock(1)])
        counted = Counted(store, monkeypatch)
        async with store.remembering():
            first = await store.clocks(gid)
            first[0]["deadline"] = 1  # a caller's change of its copy is not remembered
            assert (await store.clocks(gid))[0]["deadline"] == 3610
            assert counted.reading("clocks") == 1
            # written through this store: remembered as written, not read again
            await store.set_clocks(gid, [SeatClock(0, started=20, deadline=3620), SeatClock(1, bank=5)])
            assert [(c["deadline"], c["bank"]) for c in await store.clocks(gid)] == [(3620, None), (None, 5)]
            assert counted.reading("clocks") == 1
            # a write that moves many games' clocks in SQL: forgotten, read again
            await store.shift_clocks(100)
            assert (await store.clocks(gid))[0]["deadline"] == 3720
            assert counted.reading("clocks") == 2
        # outside the block every call reads
        await store.clocks(gid)
        await store.clocks(gid)
        assert counted.reading("clocks") == 4
    finally:
        await store.close()


async def test_vacations_are_remembered_per_second_and_forgotten_when_one_starts(database, monkeypatch):
    store = await connect(database)
    try:
        await _game(store)
        counted = Counted(store, monkeypatch)
        async with store.remembering():
            assert await store.away_users(1000) == {}
            assert await store.away_users(1000) == {}
            assert counted.reading("away") == 1
            await store.set_away(100, since=1000, until=5000, month="2026-12", used_days=1)
            assert await store.away_users(1000) == {100: 5000}  # read again after the vacation began
            assert await store.away_users(1001) == {100: 5000}  # another second: its own read
            assert counted.reading("away") == 3
    finally:
        await store.close()


async def test_nothing_remembered_outlives_its_block_not_even_in_a_task_started_inside(database):
    store = await connect(database)
    other = await connect(database)  # another connection: writes this store cannot know of
    try:
        gid = await _game(store)
        await store.set_clocks(gid, [SeatClock(0, started=10, deadline=3610), SeatClock(1)])
        later = asyncio.Event()

        async def reads_later() -> int:
            await later.wait()
            return (await store.clocks(gid))[0]["deadline"]

        async with store.remembering():
            assert (await store.clocks(gid))[0]["deadline"] == 3610
            task = asyncio.create_task(reads_later())
        await other.set_clocks(gid, [SeatClock(0, started=10, deadline=9999), SeatClock(1)])
        later.set()
        assert await task == 9999
        assert (await store.clocks(gid))[0]["deadline"] == 9999
    finally:
        await other.close()
        await store.close()


async def test_a_timed_move_reads_the_clocks_and_vacations_once(database, monkeypatch):
    """Through the game service, a move of a timed game of Hector and Achilles between two people: one read of
    the clocks and of the vacations (two when the move straddles a second), and the stored clocks run for the
    seats to act (the remembered clocks are the written ones)."""
    store = await connect(database)
    service = GameService(store, seed_source=lambda: 7, render=False)
    try:
        game = await _timed_game(service, "hector-achilles")
        engine, rng = ENGINES["hector-achilles"], Rng(3)
        counted = Counted(store, monkeypatch)
        for _ in range(6):
            game = await service.game(game.id)
            state = await service._state(game)
            seat = engine.to_act(state)[0]
            before = len(counted.sql)
            await service.act(game.id, person(game, seat), game.version,
                              rng.below(len(engine.legal_actions(state, seat))))
            during = counted.sql[before:]
            assert sum("FROM clocks " in s + " " for s in during) <= 1, during
            # the vacations are remembered per second: a move that straddles a second reads them twice
            assert sum("FROM away " in s + " " for s in during) <= 2, during
            stored = {c["seat"]: c for c in await store.clocks(game.id)}
            acting = engine.to_act(await service._state(await service.game(game.id)))
            assert all(stored[s]["deadline"] is not None for s in acting)
    finally:
        service.close()
        await store.close()


async def test_a_cancelled_move_leaves_the_store_whole(database):
    """A caller cancelled while its transaction runs: the move is saved wholly or not at all, and the next
    transaction runs normally."""
    store = await connect(database)
    try:
        gid = await _game(store)
        await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1)
        task = asyncio.create_task(store.commit_action(
            gid, expected_version=0, seat=0, user_id=100, action={"type": "a"}, events=[],
            snapshot={"turn": 1, "pad": "x" * 100_000}, result=None, publish=["moved"]))
        await asyncio.sleep(0)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        game = await store.get_game(gid)
        actions = await store.actions(gid)
        assert game is not None and (game.version, len(actions)) in ((0, 0), (1, 1))
        assert await store.commit_action(gid, expected_version=game.version, seat=0, user_id=100,
                                         action={"type": "b"}, events=[], snapshot={"turn": 2},
                                         result=None) == game.version + 1
    finally:
        await store.close()


async def test_a_move_reads_once_and_commits_once(tmp_path, monkeypatch):
    """Issue 29: a person's move of a timed game of Troja (whose players may pass automatically, so their settings
    are asked) makes two calls to SQLite's worker thread - one for every read (the game, its seats, clocks,
    vacations and its people's settings, ``Store.get_game(along=...)``), one for its transaction - while every
    board still shows the clocks that were saved."""
    import aiosqlite

    store = await connect(tmp_path / "one.db")
    service = GameService(store, seed_source=lambda: 7, render=False)
    calls: list[str] = []
    original = aiosqlite.Connection._execute

    async def counted(self, fn, *args, **kwargs):
        calls.append(getattr(fn, "__name__", "?"))
        return await original(self, fn, *args, **kwargs)

    try:
        game = await _timed_game(service, "troja")
        await service.settings(2, auto_pass=False)
        monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
        engine, rng, counts = ENGINES["troja"], Rng(5), []
        for _ in range(12):
            game = await service.game(game.id)
            state = await service._state(game)
            seat = engine.to_act(state)[0]
            index = rng.below(len(engine.legal_actions(state, seat)))
            calls.clear()
            outcome = await service.act(game.id, person(game, seat), game.version, index)
            counts.append(len(calls))
            stored = await store.clocks(game.id)
            assert outcome.board is not None
            for c in stored:
                if c["deadline"] is not None and c["paused_at"] is None:
                    assert f"<t:{c['deadline']}:R>" in outcome.board.text, (outcome.board.text, stored)
        # (a move whose clock check straddles a second reads the vacations once more)
        assert counts.count(2) >= len(counts) - 2 and max(counts) <= 3, counts
    finally:
        service.close()
        await store.close()


async def test_settings_read_with_a_game_follow_a_change_made_in_the_same_block(database):
    """The settings of a game's people read along with it are remembered for the operation, as the store's
    other reads: changed through the store, they are read again; a caller's change of its copy is not kept."""
    store = await connect(database)
    try:
        gid = await _game(store)
        await store.set_user_settings(100, {"auto_pass": True})
        async with store.remembering():
            game = await store.get_game(gid, with_snapshot=False, along=1000)
            assert game is not None and [s.user_id for s in game.seats] == [100, 101]
            mine = await store.user_settings(100)
            assert mine == {"auto_pass": True} and await store.user_settings(101) == {}
            mine["auto_pass"] = False
            assert await store.user_settings(100) == {"auto_pass": True}
            await store.set_user_settings(100, {"auto_pass": False, "confirm": False})
            assert await store.user_settings(100) == {"auto_pass": False, "confirm": False}
        assert await store.user_settings(100) == {"auto_pass": False, "confirm": False}
    finally:
        await store.close()
