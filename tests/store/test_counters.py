"""The counters ``/metrics`` reads (issue 22): games by status kept by the database's own triggers, whatever
changes a game's status, and games with an owed delivery - on both backends, and seeded when an older database
is migrated."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from store import SqliteStore, Store, connect
from store.migrations import MIGRATIONS, steps

USER = 987_654_321_098_765_432


async def _game(store: Store, *, start: bool = True) -> int:
    gid = await store.create_game(engine="troja", options={}, seed=1, num_players=2, guild_id=1, channel_id=2,
                                  host_user_id=USER)
    await store.set_seat(gid, 0, user_id=USER, name="Ann")
    if start:
        await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1, publish=["opening"])
    return gid


async def test_games_are_counted_by_status_as_they_change(database):
    store = await connect(database)
    try:
        assert await store.gauges() == ({"lobby": 0, "running": 0, "finished": 0, "abandoned": 0}, 0, 0)
        lobby = await _game(store, start=False)
        running = [await _game(store) for _ in range(3)]
        counts, owed, _ = await store.gauges()
        assert counts == {"lobby": 1, "running": 3, "finished": 0, "abandoned": 0}
        assert owed == 3  # each started game owes its first board
        await store.commit_action(running[0], expected_version=0, seat=0, user_id=USER, action={"type": "x"},
                                  events=[], snapshot={}, result={"places": [1, 2]})
        await store.set_status(running[1], "abandoned")
        await store.set_status(running[1], "abandoned")  # (the same status again: no change)
        await store.set_status(lobby, "abandoned")
        await store.commit_action(running[2], expected_version=0, seat=0, user_id=USER, action={"type": "x"},
                                  events=[], snapshot={}, result=None)  # a move: still running
        for gid in running:
            await store.outbox_done(gid, 10**9)
        assert await store.gauges() == ({"lobby": 0, "running": 1, "finished": 1, "abandoned": 2}, 0, 0)
    finally:
        await store.close()


async def test_an_older_database_gets_its_counts_when_migrated(tmp_path):
    path = tmp_path / "old.db"
    counters = next(i for i, entry in enumerate(MIGRATIONS) if "game_counts" in entry)
    with closing(sqlite3.connect(path)) as conn:  # a database from before the counters, with games in it
        for number, entry in enumerate(MIGRATIONS[:counters], start=1):
            for statement in steps(entry, "sqlite"):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
        for status in ("lobby", "running", "running", "finished"):
            conn.execute("INSERT INTO games (engine, seed, status, num_players, host_user_id, created_at,"
                         " updated_at) VALUES ('troja', 1, ?, 2, 1, '', '')", (status,))
        conn.commit()
    store = await SqliteStore.open(path)
    try:
        counts, _, _ = await store.gauges()
        assert counts == {"lobby": 1, "running": 2, "finished": 1, "abandoned": 0}
        await _game(store)
        assert (await store.gauges())[0]["running"] == 3
    finally:
        await store.close()
