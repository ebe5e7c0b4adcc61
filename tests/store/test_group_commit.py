"""Group commit on SQLite (issue 29): the moves of several games that come while the connection is busy are saved by
one COMMIT (one fsync of ``synchronous=FULL``), each still its own transaction - one that fails (a stale version,
a broken constraint) fails alone and leaves nothing behind, the others are saved - and nobody is answered before
the COMMIT; a caller cancelled before its transaction ran never has it run."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio

from store import SqliteStore, Store, VersionConflict


@pytest_asyncio.fixture
async def store(tmp_path):
    """A SQLite store of its own (group commit is SQLite's), closed after the test."""
    opened = await SqliteStore.open(tmp_path / "g.db")
    yield opened
    await opened.close()


async def _running(store: Store, n: int) -> list[int]:
    ids = []
    for i in range(n):
        gid = await store.create_game(engine="troja", options={"lang": "en"}, seed=7, num_players=2,
                                      guild_id=1, channel_id=2, host_user_id=100 + i)
        await store.set_seat(gid, 0, user_id=100 + i, name="A")
        await store.set_seat(gid, 1, user_id=200 + i, name="B")
        await store.start_game(gid, num_players=2, snapshot={"n": 0}, rules_version=1)
        ids.append(gid)
    return ids


def _move(store: Store, gid: int, expected: int):
    return store.commit_action(gid, expected_version=expected, seat=0, user_id=1, action={"type": "x"},
                               events=[], snapshot={"n": expected + 1}, result=None, publish=[f"move of {gid}"])


async def test_moves_of_many_games_share_one_commit_and_a_stale_one_fails_alone(store, monkeypatch):
    groups: list[int] = []
    run_group = store._run_group

    def counted(group):
        groups.append(len(group))
        return run_group(group)

    monkeypatch.setattr(store, "_run_group", counted)
    games = await _running(store, 8)
    groups.clear()
    stale = games[3]
    results = await asyncio.gather(*(_move(store, g, 5 if g == stale else 0) for g in games),
                                   return_exceptions=True)
    assert isinstance(results[3], VersionConflict)
    assert [r for i, r in enumerate(results) if i != 3] == [1] * 7
    assert sum(groups) == 8 and len(groups) < 8, groups  # several moves per COMMIT
    for gid in games:
        game = await store.get_game(gid)
        assert game is not None
        logged = await store.actions(gid)
        pending = [e.lines for e in await store.outbox(gid) if e.version]  # (the start: version 0)
        if gid == stale:  # nothing of it: no action, no snapshot, no outbox entry
            assert (game.version, game.snapshot, logged, pending) == (0, {"n": 0}, [], [])
        else:
            assert (game.version, game.snapshot, len(logged), pending) == (1, {"n": 1}, 1, [[f"move of {gid}"]])


async def test_a_broken_statement_rolls_back_only_its_own_transaction(store):
    games = await _running(store, 2)
    bad = store._transaction([("INSERT INTO seats (game_id, seat, user_id, ai_level, name) VALUES (?, ?, ?, ?, ?)",
                               (games[0], 5, 1, None, "X")),
                              ("INSERT INTO no_such_table VALUES (1)", ())])
    results = await asyncio.gather(_move(store, games[1], 0), bad, _move(store, games[0], 0),
                                   return_exceptions=True)
    assert results[0] == 1 and results[2] == 1
    assert "no such table" in str(results[1])
    game = await store.get_game(games[0])
    assert game is not None and [s.seat for s in game.seats] == [0, 1], \
        "the broken transaction's first statement was undone too"
    assert not store._db.in_transaction


async def test_a_caller_cancelled_before_its_turn_never_has_its_transaction_run(store):
    games = await _running(store, 3)
    async with store._write:  # the connection busy: both wait
        first = asyncio.ensure_future(_move(store, games[0], 0))
        second = asyncio.ensure_future(_move(store, games[1], 0))
        await asyncio.sleep(0.05)
        second.cancel()
        await asyncio.sleep(0)
    assert await first == 1
    with pytest.raises(asyncio.CancelledError):
        await second
    game = await store.get_game(games[1])
    assert game is not None and game.version == 0
    assert await store.actions(games[1]) == []
    assert await _move(store, games[2], 0) == 1, "the store goes on"


async def test_a_transaction_alone_that_breaks_leaves_nothing_and_the_store_goes_on(store):
    """A group of one runs without a savepoint (its own SQLite transaction): a failure still undoes all of it."""
    games = await _running(store, 1)
    with pytest.raises(Exception, match="no such table"):
        await store._transaction([("INSERT INTO seats (game_id, seat, user_id, ai_level, name) VALUES (?, ?, ?, ?, ?)",
                                   (games[0], 5, 1, None, "X")), ("INSERT INTO no_such_table VALUES (1)", ())])
    game = await store.get_game(games[0])
    assert game is not None and [s.seat for s in game.seats] == [0, 1]
    assert not store._db.in_transaction
    with pytest.raises(VersionConflict):
        await _move(store, games[0], 3)
    assert await _move(store, games[0], 0) == 1, "the store goes on"
    assert len(await store.actions(games[0])) == 1
