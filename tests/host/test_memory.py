"""Bounded memory: the live-state cache never holds more than ``LIVE_GAMES`` games, a game pushed out of it
plays on exactly as if it had stayed, per-game locks and marks do not pile up, and a reminder round looks at
every due game without filling the cache."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

import host.service_queries as service_queries
from bot import create_bot
from engines import ENGINES
from engines.rng import Rng
from host.cache import DEFAULT_LIVE_GAMES, Bounded, LiveCache, Locks
from host.service import GameService
from settings import Settings
from store import SqliteStore

KEYS = sorted(ENGINES)


@pytest.fixture
async def store(tmp_path):
    s = await SqliteStore.open(tmp_path / "g.db")
    yield s
    await s.close()


async def two_player_game(service: GameService, key: str, ann: int, bob: int):
    for user in (ann, bob):  # one action per call, whatever the game's auto-pass offers
        await service.settings(user, auto_pass=False)
    game, outcome = await service.create(key, user_id=ann, user_name=f"P{ann}", guild_id=1, channel_id=1,
                                         invite=(bob, f"P{bob}"))
    if outcome is None:
        outcome = await service.start(game.id, ann)
    return outcome.game


async def one_move(service: GameService, game_id: int, rng: Rng):
    """A random legal move of whoever is to act (None once the game is over), chosen from the legal actions
    as the store's snapshot has them, so the choice never depends on what the cache holds."""
    game = await service.game(game_id)
    if game.status != "running":
        return None
    engine = ENGINES[game.engine]
    _, state = await service._load_state(game)
    seat = engine.to_act(state)[0]
    index = rng.below(len(engine.legal_actions(state, seat)))
    return await service.act(game_id, game.seat_row(seat).user_id, game.version, index)


# -- the cache itself ---------------------------------------------------------------------------------

def test_the_cache_keeps_the_most_recently_used_games_within_its_bound():
    cache = LiveCache(3)
    for key in range(10):
        cache[key] = f"state {key}"
        assert len(cache) <= 3
    assert sorted(cache.keys()) == [7, 8, 9]
    cache.get(7)  # used again: 8 is now the one idle longest
    cache[10] = "state 10"
    assert sorted(cache.keys()) == [7, 9, 10]
    assert cache.evictions == 8


def test_games_that_are_over_go_first_and_games_in_play_last():
    playing = {1}
    cache = LiveCache(3, pinned=lambda key: key in playing)
    cache[1], cache[2], cache[3] = "a", "b", "c"
    cache.retire(3)  # finished, and the most recently used
    cache[4] = "d"
    assert sorted(cache.keys()) == [1, 2, 4], "the finished game made room, not the idle one"
    cache[5] = "e"
    assert sorted(cache.keys()) == [1, 4, 5], "the game being played (1) stays although idle longest"
    playing |= {4, 5}
    cache[6] = "f"
    assert len(cache) == 3 and 6 in cache, "when every game is in play the bound still holds"
    assert cache.peek(6) == "f" and cache.pop(6) == "f" and 6 not in cache


def test_a_bound_below_one_is_refused():
    with pytest.raises(ValueError):
        LiveCache(0)
    with pytest.raises(ValueError):
        Bounded(0)


def test_live_games_setting():
    assert Settings.from_env({}).live_games == DEFAULT_LIVE_GAMES
    assert Settings.from_env({"LIVE_GAMES": "50"}).live_games == 50
    for bad in ("0", "many", "-4"):
        with pytest.raises(SystemExit, match="LIVE_GAMES"):
            Settings.from_env({"LIVE_GAMES": bad})


# -- locks --------------------------------------------------------------------------------------------

async def test_a_lock_is_dropped_only_when_nobody_holds_or_waits_for_it():
    locks = Locks()
    entered, release = asyncio.Event(), asyncio.Event()
    order = []

    async def holder():
        async with locks(1):
            entered.set()
            await release.wait()
            order.append("holder")

    async def waiter():
        async with locks(1):
            order.append("waiter")

    first = asyncio.create_task(holder())
    await entered.wait()
    second = asyncio.create_task(waiter())
    await asyncio.sleep(0)
    assert len(locks) == 1 and locks.held(1)
    assert locks.setdefault(1, asyncio.Lock()).locked(), "a newcomer gets the held lock, not a fresh one"
    release.set()
    await asyncio.gather(first, second)
    assert order == ["holder", "waiter"], "the waiter waited for the holder"
    assert len(locks) == 0 and not locks.held(1)


async def test_the_bots_publishing_locks_stay_bounded():
    bot = create_bot(Settings(sync_commands=False))
    for game_id in range(10_500):
        async with bot.publish_locks.setdefault(game_id, asyncio.Lock()):
            pass
    assert len(bot.publish_locks) == 0
    await bot.close()


# -- the service --------------------------------------------------------------------------------------

async def test_the_service_never_keeps_more_states_locks_or_marks_than_its_bound(store):
    service = GameService(store, seed_source=lambda: 11, render=False, live_games=3)
    rng = Rng(4)
    for i in range(12):
        game = await two_player_game(service, KEYS[i % len(KEYS)], 100 + 2 * i, 101 + 2 * i)
        await one_move(service, game.id, rng)
        assert len(service._live) <= 3
        assert len(service._nudged) <= 8 * 3
        assert len(service._locks) == 0, "no lock outlives its action"
    assert service._live.evictions >= 9


async def test_an_evicted_game_plays_on_as_if_it_had_stayed_in_memory(tmp_path):
    """Every kind of game, played move by move in turn with room for one state only (so each move reloads its
    game from the snapshot), tells the same story, asks the same people and ends the same way as with room
    for all of them."""
    async def play(path, live_games: int) -> list:
        store = await SqliteStore.open(path)
        service = GameService(store, seed_source=lambda: 23, render=False, live_games=live_games,
                                  clock=lambda: datetime(2030, 1, 1, tzinfo=UTC))  # both runs: the same deadlines
        try:
            games = [(await two_player_game(service, key, 10 + 2 * i, 11 + 2 * i)).id for i, key in enumerate(KEYS)]
            rngs = {game_id: Rng(game_id) for game_id in games}
            story = []
            for _ in range(40):
                for game_id in games:
                    outcome = await one_move(service, game_id, rngs[game_id])
                    assert len(service._live) <= live_games
                    if outcome is not None:
                        story.append((game_id, outcome.game.version, outcome.lines, outcome.board.mentions,
                                      outcome.board.text, [n.user_id for n in outcome.nudges]))
            for game_id in games:
                game = await service.game(game_id)
                story.append((game_id, game.status, game.version, game.result))
            return story, service._live.evictions
        finally:
            service.close()
            await store.close()

    roomy, no_evictions = await play(tmp_path / "roomy.db", 100)
    tight, evictions = await play(tmp_path / "tight.db", 1)
    assert no_evictions == 0 and evictions > 100
    assert len(roomy) > len(KEYS) * 20
    assert tight == roomy


async def test_a_reminder_round_looks_at_every_due_game_without_filling_the_cache(store, monkeypatch):
    monkeypatch.setattr(service_queries, "REMIND_BATCH", 2)  # several batches
    service = GameService(store, seed_source=lambda: 7, render=False, live_games=2)
    games = []
    for i in range(7):
        game = await two_player_game(service, KEYS[i % len(KEYS)], 200 + 2 * i, 201 + 2 * i)
        games.append(game.id)
    await service.status(games[0])  # the oldest game is looked at again: it is one of the two kept
    kept = {game_id: service._live.peek(game_id) for game_id in service._live.keys()}
    assert sorted(kept) == [games[0], games[-1]]
    evictions = service._live.evictions
    later = datetime.now(UTC) + timedelta(days=2)
    found = await service.due_reminders(timedelta(hours=24), later)
    assert {game_id: service._live.peek(game_id) for game_id in service._live.keys()} == kept
    assert service._live.evictions == evictions, "the round neither loaded nor evicted a state"
    assert sorted(r.game.id for r in found) == games
    for reminder in found:
        game = await service.game(reminder.game.id)
        _, state = await service._load_state(game)
        expected = [game.seat_row(s).user_id for s in ENGINES[game.engine].to_act(state)]
        assert reminder.users == expected and all(f"<@{u}>" in reminder.text for u in expected)
    assert await service.due_reminders(timedelta(hours=24), later) == [], "once per board"
    # a game that moves is due again, and only that one
    await one_move(service, games[3], Rng(1))
    again = await service.due_reminders(timedelta(hours=24), later + timedelta(days=2))
    assert [r.game.id for r in again] == [games[3]]
    assert len(service._live) <= 2
