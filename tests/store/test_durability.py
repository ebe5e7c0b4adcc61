"""Storage that survives bad days: fsync per commit, checks at opening, the real error on a full disk, one
damaged game row that breaks only its game, and a background checkpoint that keeps the writer's discipline."""

from __future__ import annotations

import asyncio
import gc
import logging
import sqlite3
import threading

import pytest

import store.sqlite as db
from store import DamagedRow, SqliteStore, StorageError, Store
from store.migrations import MIGRATIONS


async def _game(store: Store, guild: int = 1, user: int = 100) -> int:
    gid = await store.create_game(engine="troja", options={"lang": "en"}, seed=7, num_players=2,
                                  guild_id=guild, channel_id=2, host_user_id=user)
    await store.set_seat(gid, 0, user_id=user, name=f"P{user}")
    await store.set_seat(gid, 1, ai_level="normal", name="AI")
    return gid


def _worker_threads() -> int:
    return sum(1 for t in threading.enumerate() if t.is_alive())


# -- durability -------------------------------------------------------------------------------------------

async def test_every_commit_is_fsynced_full_not_normal(tmp_path):
    store = await SqliteStore.open(tmp_path / "g.db")
    try:
        # 2 = FULL: in WAL mode the WAL is fsynced at every COMMIT (NORMAL = 1 only at checkpoints)
        assert [tuple(r) for r in await store._rows("PRAGMA synchronous")] == [(2,)]
        assert await store.journal_mode() == "wal"
    finally:
        await store.close()
    store = await SqliteStore.open(tmp_path / "g.db", synchronous="NORMAL")  # what bench/storage.py compares with
    try:
        assert [tuple(r) for r in await store._rows("PRAGMA synchronous")] == [(1,)]
    finally:
        await store.close()


# -- checks at opening ------------------------------------------------------------------------------------

async def test_a_damaged_file_is_refused_and_no_thread_is_left(tmp_path):
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    for n in range(40):
        await _game(store, user=100 + n)
    await store.close()
    with sqlite3.connect(path) as conn:
        ((root,),) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'seats_by_user'")
    conn.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * 4096:root * 4096] = b"\x5a" * 4096  # an index page: tables still read fine
    path.write_bytes(bytes(data))

    threads = _worker_threads()
    with pytest.raises(StorageError, match=r"^the database file is damaged \(quick_check: .*Page "):
        await SqliteStore.open(path)
    await asyncio.sleep(0.1)
    assert _worker_threads() == threads  # aiosqlite's (non-daemon) worker thread was stopped


async def test_a_newer_schema_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    await _game(store)
    await store.close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 3}")
    conn.close()
    threads = _worker_threads()
    with pytest.raises(StorageError, match=f"schema version {len(MIGRATIONS) + 3}, newer than this code's"):
        await SqliteStore.open(path)
    await asyncio.sleep(0.1)
    assert _worker_threads() == threads
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (len(MIGRATIONS) + 3,)
    conn.close()


async def test_opening_twice_is_fine_and_the_probe_writes_nothing(tmp_path):
    path = tmp_path / "g.db"
    first = await SqliteStore.open(path)
    try:
        gid = await _game(first)
        second = await SqliteStore.open(path)  # a reader/writer at rest does not lock the file
        try:
            assert (await second.get_game(gid)).seats[0].name == "P100"
            assert await second.schema_version() == len(MIGRATIONS)
        finally:
            await second.close()
    finally:
        await first.close()


# -- a full disk ------------------------------------------------------------------------------------------

async def test_a_full_database_reports_sqlite_full_and_the_store_keeps_working(tmp_path, caplog):
    store = await SqliteStore.open(tmp_path / "g.db")
    try:
        gid = await _game(store)
        await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1)
        ((pages,),) = await store._rows("PRAGMA page_count")
        await store._rows(f"PRAGMA max_page_count = {pages}")  # the "disk" is full now
        with caplog.at_level(logging.DEBUG, logger="store.sqlite"):
            with pytest.raises(sqlite3.OperationalError, match="database or disk is full"):
                await store.commit_action(gid, expected_version=0, seat=0, user_id=100, action={"type": "a"},
                                          events=[], snapshot={"turn": 1, "pad": "x" * 200_000}, result=None)
        assert "cannot rollback" not in caplog.text
        # nothing of the failed write landed, and once there is room again the same move commits
        game = await store.get_game(gid)
        assert (game.version, game.snapshot) == (0, {"turn": 0}) and await store.actions(gid) == []
        await store._rows("PRAGMA max_page_count = 1073741823")
        assert await store.commit_action(gid, expected_version=0, seat=0, user_id=100, action={"type": "a"},
                                         events=[], snapshot={"turn": 1, "pad": "x" * 200_000},
                                         result=None) == 1
    finally:
        await store.close()


async def test_a_failed_guard_still_rolls_back_its_transaction(tmp_path):
    from store import VersionConflict

    store = await SqliteStore.open(tmp_path / "g.db")
    try:
        gid = await _game(store)
        with pytest.raises(VersionConflict):
            await store.commit_action(gid, expected_version=5, seat=0, user_id=100, action={}, events=[],
                                      snapshot={}, result=None)
        assert not store._db.in_transaction
        await store.set_user_settings(1, {"a": 1})  # the next transaction starts normally
        assert await store.user_settings(1) == {"a": 1}
    finally:
        await store.close()


# -- a damaged game row ------------------------------------------------------------------------------------

async def test_a_damaged_game_row_breaks_only_that_game(tmp_path, caplog):
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    try:
        good, bad, bad_result = await _game(store), await _game(store), await _game(store)
        await store.start_game(good, num_players=2, snapshot={"turn": 0}, rules_version=1)
        await store.start_game(bad, num_players=2, snapshot={"turn": 0}, rules_version=1)
        await store.set_status(bad_result, "finished", {"places": [1, 2]})
        with sqlite3.connect(path) as raw:  # damage as a half-written or hand-edited row would
            raw.execute("UPDATE games SET options = '{\"lang\": \"en\"', snapshot = 'null]' WHERE id = ?", (bad,))
            raw.execute("UPDATE games SET result = '{places' WHERE id = ?", (bad_result,))
        raw.close()
        with caplog.at_level(logging.ERROR, logger="store.base"):
            assert [g.id for g in await store.list_games(guild_id=1)] == [good]
            assert [g.id for g in await store.list_games(guild_id=1)] == [good]  # logged once, not per call
            assert [g.id for g in await store.list_games(user_id=100)] == [good]
            assert await store.finished_games(engine="troja", guild_id=1) == []
            assert (await store.get_game(good)).snapshot == {"turn": 0}
            with pytest.raises(DamagedRow, match=f"game {bad}: invalid JSON in its options column"):
                await store.get_game(bad)
        damaged = [r.getMessage() for r in caplog.records]
        assert sum(f"game {bad}: invalid JSON in its options column" in m for m in damaged) == 1
        assert sum(f"game {bad_result}: invalid JSON in its result column" in m for m in damaged) == 1
        # the good game goes on being played
        assert await store.commit_action(good, expected_version=0, seat=0, user_id=100, action={}, events=[],
                                         snapshot={"turn": 1}, result=None) == 1
    finally:
        await store.close()


async def test_damaged_user_settings_fall_back_to_the_defaults(tmp_path):
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    try:
        await store.set_user_settings(5, {"dm": False})
        with sqlite3.connect(path) as raw:
            raw.execute("UPDATE user_settings SET settings = '{\"dm\": fal' WHERE user_id = 5")
        raw.close()
        assert await store.user_settings(5) == {}
        await store.set_user_settings(5, {"dm": True})  # saving repairs the row
        assert await store.user_settings(5) == {"dm": True}
    finally:
        await store.close()


# -- the background checkpoint ----------------------------------------------------------------------------

async def test_a_checkpoint_never_lands_inside_a_read(tmp_path):
    """Reads and checkpoints interleaved: the old reads left their statement open across an await, and a
    checkpoint between them failed with "database table is locked"."""
    store = await SqliteStore.open(tmp_path / "g.db")
    try:
        gids = [await _game(store, user=100 + n) for n in range(5)]
        for _ in range(20):
            await asyncio.gather(store.get_game(gids[0]), store.checkpoint(), store.list_games(guild_id=1),
                                 store.checkpoint(), store.tournament(1), store.actions(gids[1]),
                                 store.checkpoint(), store.user_settings(100))
    finally:
        await store.close()


async def test_the_idle_checkpoint_runs_while_players_read_and_write(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(db, "CHECKPOINT_IDLE_S", 0.01)
    loop = asyncio.get_running_loop()
    unhandled: list[dict] = []  # "Task exception was never retrieved" and the like
    loop.set_exception_handler(lambda _loop, context: unhandled.append(context))
    path = tmp_path / "g.db"
    store = await SqliteStore.open(path)
    try:
        gid = await _game(store)
        await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1)

        async def keep_reading(until: float) -> None:
            while loop.time() < until:
                await store.get_game(gid)
                await store.list_games(user_id=100)

        with caplog.at_level(logging.WARNING, logger="store.sqlite"):
            for v in range(15):  # one player moves, others keep looking while the idle checkpoint runs
                await store.commit_action(gid, expected_version=v, seat=v % 2, user_id=100, action={"n": v},
                                          events=[], snapshot={"turn": v + 1}, result=None)
                until = loop.time() + 0.04
                await asyncio.gather(*(keep_reading(until) for _ in range(3)))
            await asyncio.sleep(0.05)
        with sqlite3.connect(f"file:{path}?immutable=1", uri=True) as raw:  # the file alone, not the WAL
            assert raw.execute("SELECT version FROM games WHERE id = ?", (gid,)).fetchone() == (15,)
        raw.close()
    finally:
        await store.close()
        gc.collect()
        loop.set_exception_handler(None)
    assert "checkpoint failed" not in caplog.text
    assert unhandled == []


async def test_a_failed_idle_checkpoint_is_logged_and_close_still_closes(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(db, "CHECKPOINT_IDLE_S", 0.01)
    store = await SqliteStore.open(tmp_path / "g.db")
    threads = _worker_threads()
    gid = await _game(store)
    await _game(store)
    # a statement left half-read on the connection (what the old reads did): a checkpoint now gets SQLITE_LOCKED
    cursor = await store._db.execute("SELECT * FROM games")
    with caplog.at_level(logging.WARNING, logger="store.sqlite"):
        await store.set_user_settings(1, {})  # arms the idle checkpoint
        await asyncio.sleep(0.2)
    task = store._checkpointing
    assert task is not None and task.done()
    assert task.exception() is None  # nothing for "Task exception was never retrieved"
    assert "idle WAL checkpoint failed" in caplog.text and "database table is locked" in caplog.text
    assert (await store.get_game(gid)).id == gid  # the store still works
    await cursor.close()
    await asyncio.wait_for(store.close(), 10)  # neither re-raises the checkpoint's error nor hangs
    await asyncio.sleep(0.1)
    assert _worker_threads() == threads - 1  # the connection's worker thread has stopped
    with pytest.raises(ValueError, match="no active connection|Connection closed"):
        await store.get_game(gid)
