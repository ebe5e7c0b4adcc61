"""The store keeps games across reopenings of the file, writes each action atomically and refuses stale
writes."""

import asyncio
import sqlite3

import pytest

from store import IntegrityError, SqliteStore, Store, VersionConflict, connect
from store.migrations import MIGRATIONS


async def _new_game(store: Store) -> int:
    gid = await store.create_game(engine="hector-achilles", options={"x": 1}, seed=7, num_players=2,
                                  guild_id=1, channel_id=2, host_user_id=100)
    await store.set_seat(gid, 0, user_id=100, name="Ann")
    await store.set_seat(gid, 1, ai_level="normal", name="AI")
    return gid


async def test_schema_is_migrated(database):
    store = await connect(database)
    try:
        assert await store.schema_version() == len(MIGRATIONS)
    finally:
        await store.close()
    store = await connect(database)  # opening a migrated database again migrates nothing
    try:
        assert await store.schema_version() == len(MIGRATIONS)
    finally:
        await store.close()


async def test_sqlite_is_in_wal_mode(tmp_path):
    store = await SqliteStore.open(tmp_path / "g.db")
    try:
        assert await store.journal_mode() == "wal"
    finally:
        await store.close()


async def test_game_survives_reopening_the_file(database):
    path = database
    store = await connect(path)
    gid = await _new_game(store)
    await store.set_places(gid, thread_id=555, board_message_id=777)
    await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1)
    v = await store.commit_action(gid, expected_version=0, seat=0, user_id=100, action={"type": "a"},
                                  events=[{"type": "e"}], snapshot={"turn": 1}, result=None)
    assert v == 1
    await store.close()

    store = await connect(path)
    try:
        game = await store.get_game(gid)
        assert game.status == "running" and game.version == 1 and game.snapshot == {"turn": 1}
        assert game.thread_id == 555 and game.board_message_id == 777
        assert [s.name for s in game.seats] == ["Ann", "AI"] and game.seats[1].is_ai
        assert game.seat_of(100) == 0
        log = await store.actions(gid)
        assert [(a["seq"], a["action"], a["events"]) for a in log] == [(1, {"type": "a"}, [{"type": "e"}])]
    finally:
        await store.close()


async def test_stale_version_is_refused_and_writes_nothing(database):
    store = await connect(database)
    try:
        gid = await _new_game(store)
        await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1)
        await store.commit_action(gid, expected_version=0, seat=0, user_id=100, action={"type": "a"},
                                  events=[], snapshot={"turn": 1}, result=None)
        with pytest.raises(VersionConflict):
            await store.commit_action(gid, expected_version=0, seat=0, user_id=100, action={"type": "b"},
                                      events=[], snapshot={"turn": 99}, result=None)
        game = await store.get_game(gid)
        assert game.snapshot == {"turn": 1} and game.version == 1
        assert len(await store.actions(gid)) == 1
    finally:
        await store.close()


async def test_the_log_can_be_read_from_a_version_on(database):
    store = await connect(database)
    try:
        gid = await _new_game(store)
        await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1)
        for v in range(4):
            await store.commit_action(gid, expected_version=v, seat=v % 2, user_id=100, action={"n": v},
                                      events=[], snapshot={"turn": v + 1}, result=None)
        assert [a["action"]["n"] for a in await store.actions(gid, after=2)] == [2, 3]
        assert await store.actions(gid, after=4) == []
    finally:
        await store.close()


async def test_finishing_action_closes_the_game(database):
    store = await connect(database)
    try:
        gid = await _new_game(store)
        await store.start_game(gid, num_players=2, snapshot={}, rules_version=1)
        await store.commit_action(gid, expected_version=0, seat=1, user_id=None, action={"type": "a"},
                                  events=[], snapshot={"over": True}, result={"places": [2, 1]})
        game = await store.get_game(gid)
        assert game.status == "finished" and game.result == {"places": [2, 1]}
        assert await store.list_games(guild_id=1) == []
        assert [g.id for g in await store.list_games(guild_id=1, statuses=("finished",))] == [gid]
        with pytest.raises(VersionConflict):  # a finished game takes no more actions
            await store.commit_action(gid, expected_version=1, seat=0, user_id=100, action={"type": "b"},
                                      events=[], snapshot={}, result=None)
    finally:
        await store.close()


async def test_lobby_listing_and_reseat(database):
    store = await connect(database)
    try:
        gid = await _new_game(store)
        assert [g.id for g in await store.list_games(user_id=100)] == [gid]
        await store.reseat(gid, [1, 0])
        game = await store.get_game(gid)
        assert [(s.seat, s.name) for s in game.seats] == [(0, "AI"), (1, "Ann")]
        await store.remove_seat(gid, 0)
        assert [s.name for s in (await store.get_game(gid)).seats] == ["Ann"]
    finally:
        await store.close()


async def test_seat_must_be_a_person_or_an_ai(database):
    store = await connect(database)
    try:
        gid = await _new_game(store)
        with pytest.raises(IntegrityError):
            await store.set_seat(gid, 3, name="nobody")
        assert len((await store.get_game(gid)).seats) == 2  # the failed write changed nothing
    finally:
        await store.close()


async def test_user_settings_round_trip(database):
    path = database
    store = await connect(path)
    await store.set_user_settings(5, {"dm": False})
    await store.close()
    store = await connect(path)
    try:
        assert await store.user_settings(5) == {"dm": False}
        assert await store.user_settings(6) == {}
    finally:
        await store.close()


async def test_the_wal_is_checkpointed_when_writes_pause_not_inside_a_commit(tmp_path, monkeypatch):
    import store.sqlite as db

    def file_only_version(gid):
        # immutable=1 reads the database file alone, ignoring the WAL: it sees only checkpointed data
        with sqlite3.connect(f"file:{tmp_path / 'g.db'}?immutable=1", uri=True) as raw:
            return raw.execute("SELECT version FROM games WHERE id = ?", (gid,)).fetchone()[0]

    monkeypatch.setattr(db, "CHECKPOINT_IDLE_S", 0.05)
    store = await SqliteStore.open(tmp_path / "g.db")
    try:
        gid = await _new_game(store)
        await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1)
        await store.checkpoint()
        for v in range(3):
            await store.commit_action(gid, expected_version=v, seat=0, user_id=100, action={"n": v},
                                      events=[], snapshot={"turn": v + 1}, result=None)
        assert file_only_version(gid) == 0  # just committed: in the WAL, no checkpoint in the commit path
        await asyncio.sleep(0.3)
        assert file_only_version(gid) == 3
        assert (await store.get_game(gid)).version == 3
    finally:
        await store.close()
