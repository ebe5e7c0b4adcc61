"""Shards: the ownership rule (host/shards.py), SHARD_COUNT/SHARD_IDS, the sharded bot, and every background
job's store query filtered by shard on both backends (SQLite and PostgreSQL), so that one process's jobs never
touch another process's games."""

from datetime import UTC, datetime, timedelta

import pytest
from discord.ext import commands

from bot import GameBot, ShardedGameBot, create_bot
from host import clock as clocks
from host.service import GameService
from host.shards import Shards, owns, parse_ids, shard_of
from settings import Settings
from store import Store, connect

USER = 987_654_321_098_765_432


def guild_on(shard: int, count: int, n: int = 0) -> int:
    """A realistic 64-bit server id on ``shard`` of ``count`` (a Discord id's time part is its top bits)."""
    gid = ((1_100_000_000_000 // count * count + n * count + shard) << 22) | 12345
    assert (gid >> 22) % count == shard
    return gid


def test_discords_formula_and_dm_games():
    # the example in Discord's documentation: (guild_id >> 22) % num_shards
    assert shard_of(197038439483310086, 4) == (197038439483310086 >> 22) % 4 == 2
    assert shard_of(None, 4) == 0  # a DM game belongs to shard 0
    assert owns(None, (0, 1), 4) and not owns(None, (1, 2), 4)
    assert owns(guild_on(3, 4), None, 4) and owns(guild_on(3, 4), (1, 3), 4) and not owns(guild_on(3, 4), (0,), 4)
    assert owns(guild_on(3, 4), (0,), None)  # not sharded: every game is this process's


def test_shard_ids_parse_and_settings_refuse_nonsense():
    assert parse_ids("0-3", 8) == (0, 1, 2, 3) and parse_ids("0,2", 4) == (0, 2)
    assert parse_ids("5, 0-1,1", 6) == (0, 1, 5)
    s = Settings.from_env({"SHARD_COUNT": "4", "SHARD_IDS": "2-3"})
    assert (s.shard_count, s.shard_ids) == (4, (2, 3))
    s = Settings.from_env({"SHARD_COUNT": "2"})
    assert (s.shard_count, s.shard_ids) == (2, None)
    assert Settings.from_env({}).shard_count is None
    for env, words in [({"SHARD_IDS": "0"}, "needs SHARD_COUNT"),
                       ({"SHARD_COUNT": "0"}, "at least 1"),
                       ({"SHARD_COUNT": "two"}, "whole number"),
                       ({"SHARD_COUNT": "4", "SHARD_IDS": "3-4"}, "shard 4 does not exist"),
                       ({"SHARD_COUNT": "4", "SHARD_IDS": "2-1"}, "runs backwards"),
                       ({"SHARD_COUNT": "4", "SHARD_IDS": "0;1"}, "neither a shard id nor a range"),
                       ({"SHARD_COUNT": "4", "SHARD_IDS": "0,"}, "an empty entry")]:
        with pytest.raises(SystemExit, match=words):
            Settings.from_env(env)


def test_the_bot_is_sharded_only_when_asked():
    plain = create_bot(Settings(sync_commands=False))
    assert type(plain) is GameBot and not isinstance(plain, commands.AutoShardedBot) and plain.owned is None
    some = create_bot(Settings(sync_commands=False, shard_count=4, shard_ids=(1, 3)))
    assert isinstance(some, ShardedGameBot) and isinstance(some, commands.AutoShardedBot)
    assert (some.shard_count, some.shard_ids) == (4, [1, 3]) and some.owned == Shards((1, 3), 4)
    every = create_bot(Settings(sync_commands=False, shard_count=2))
    assert every.shard_ids is None and every.owned == Shards((0, 1), 2)


async def _running(store: Store, guild_id, *, clock: int | None = None) -> int:
    gid = await store.create_game(engine="troja", options={}, seed=1, num_players=2, guild_id=guild_id,
                                  channel_id=5, host_user_id=USER)
    await store.set_seat(gid, 0, user_id=USER, name="Ann")
    await store.set_seat(gid, 1, ai_level="hard", name="AI")
    await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1, publish=["opening"])
    if clock is not None:
        await store.set_clocks(gid, [clocks.SeatClock(0, started=clock - 100, deadline=clock)])
    return gid


async def test_every_job_query_keeps_to_its_shards(database):
    store = await connect(database)
    try:
        now = datetime.now(UTC)
        at = clocks.seconds(now)
        count = 3
        games = {}  # shard -> game ids
        for shard in range(count):
            for n in range(2):
                games.setdefault(shard, []).append(await _running(store, guild_on(shard, count, n), clock=at - 1))
        dm = await _running(store, None, clock=at - 1)
        games[0].append(dm)
        for shard in range(count):
            tid = await store.create_tournament(engine="troja", lang="en", guild_id=guild_on(shard, count),
                                                channel_id=5, organizer_id=USER)
            await store.set_tournament_status(tid, "running")
        every = sorted(g for ids in games.values() for g in ids)
        later = now + timedelta(days=2)

        for mine in [(0,), (1, 2), (2,), (0, 1, 2)]:
            shards = Shards(mine, count)
            expect = sorted(g for s in mine for g in games[s])
            assert sorted(await store.pending_publications(later, shards=shards)) == expect
            assert [g for g, _ in await store.waiting_games(later, shards=shards)] == expect
            assert await store.due_clocks(at, shards=shards) == expect
            assert sorted(g.id for g in await store.list_games(statuses=("running",), shards=shards)) == expect
            assert len(await store.running_tournaments(shards=shards)) == len(mine)
        # unfiltered, as before
        assert sorted(await store.pending_publications(later)) == every
        assert await store.due_clocks(at) == every

        await store.shift_clocks(1000, shards=Shards((1,), count))
        moved = {gid for gid in every if (await store.clocks(gid))[0]["deadline"] == at + 999}
        assert moved == set(games[1])
    finally:
        await store.close()


async def test_an_outage_is_given_back_only_to_the_shards_that_were_down(database):
    """Two processes (shards 0 and 1 of 2) on one database: the one for shard 1 was down for an hour, the other
    kept beating. When it comes back its games get the hour back; shard 0's clocks, which kept running, do not."""
    store = await connect(database)
    service = GameService(store, render=False)
    try:
        start = datetime(2026, 12, 1, 12, tzinfo=UTC)
        t0 = clocks.seconds(start)
        first = await _running(store, guild_on(0, 2), clock=t0 + 7200)
        second = await _running(store, guild_on(1, 2), clock=t0 + 7200)
        zero, one = Shards((0,), 2), Shards((1,), 2)
        assert await service.heartbeat(start, shards=zero) == 0
        assert await service.heartbeat(start, shards=one) == 0
        for minute in range(1, 61):  # shard 0's process beats every minute; shard 1's is down
            assert await service.heartbeat(start + timedelta(minutes=minute), shards=zero) == 0
        assert await service.heartbeat(start + timedelta(minutes=60), shards=one) == 3600
        assert (await store.clocks(first))[0]["deadline"] == t0 + 7200
        assert (await store.clocks(second))[0]["deadline"] == t0 + 7200 + 3600
        # an unsharded host keeps its single heartbeat, for every game
        assert await service.heartbeat(start + timedelta(minutes=70)) == 0
        assert await service.heartbeat(start + timedelta(minutes=80)) == 600
        assert (await store.clocks(first))[0]["deadline"] == t0 + 7200 + 600
    finally:
        service.close()
        await store.close()
