"""Benchmark of every implemented game (``make bench``).

Per game: the pipeline time of one player action through the real game service, set up as the bot sets it up
(pictures drawn by ``RENDER_PROCESSES`` worker processes, 2 by default) — validate, apply, commit (SQLite,
WAL, one transaction), render the public board and the private view of the next seat to act —
p50/p99 in ms; the public render alone (p50); the public PNG size (KB, mean); and the bare engine speed
(random legal actions per second). The last line printed is one JSON object with those figures.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from engines import ENGINES
from engines.rng import Rng
from host.service import GameService
from render import RENDERERS
from settings import Settings
from store import Store

ACTIONS_PER_GAME = 300
ENGINE_SECONDS = 2.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def engine_speed(engine) -> float:
    """Random legal actions applied per second (legal_actions + apply), over whole games."""
    rng = Rng(1)
    count, seed, start = 0, 0, time.perf_counter()
    state = engine.new_game(engine.min_players, seed, {})
    while time.perf_counter() - start < ENGINE_SECONDS:
        acting = engine.to_act(state)
        if not acting:
            seed += 1
            state = engine.new_game(engine.min_players, seed, {})
            continue
        seat = acting[0]
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        count += 1
    return count / (time.perf_counter() - start)


async def open_table(service: GameService, key: str, users: list[int]):
    """A running game of ``key`` between ``users`` (who never pass automatically: one action per call)."""
    for user in users:
        await service.settings(user, auto_pass=False)
    game, _ = await service.create(key, user_id=users[0], user_name="P0", guild_id=1, channel_id=1)
    for i, user in enumerate(users[1:], start=1):
        game, _ = await service.join(game.id, user, f"P{i}")
    if game.status == "lobby":
        await service.start(game.id, users[0])
    return game


async def timed_random_action(service: GameService, game_id: int, users: list[int], rng: Rng) -> float | None:
    """One random legal action of whoever is to act, through the service: its time in ms (None: game over)."""
    game = await service.game(game_id)
    if game.status != "running":
        return None
    engine = ENGINES[game.engine]
    state = await service._state(game)
    seat = engine.to_act(state)[0]
    index = rng.below(len(engine.legal_actions(state, seat)))
    start = time.perf_counter()
    await service.act(game.id, users[seat], game.version, index)
    return (time.perf_counter() - start) * 1000


async def pipeline(key: str, folder: Path) -> dict:
    engine = ENGINES[key]
    store = await Store.open(folder / f"{key}.db")
    service = GameService(store, seed_source=lambda: 4242, render_processes=Settings.from_env().render_processes)
    await service.painter.warm_up()
    rng = Rng(7)
    timings: list[float] = []
    try:
        game_no = 0
        while len(timings) < ACTIONS_PER_GAME:
            users = [10_000 * (game_no + 1) + i for i in range(engine.min_players)]
            game = await open_table(service, key, users)
            game_no += 1
            while len(timings) < ACTIONS_PER_GAME:
                took = await timed_random_action(service, game.id, users, rng)
                if took is None:
                    break
                timings.append(took)
    finally:
        service.close()
        await store.close()
    return {"pipeline_p50_ms": round(statistics.median(timings), 2),
            "pipeline_p99_ms": round(percentile(timings, 0.99), 2)}


def render_figures(key: str) -> dict:
    """Public render time (p50, ms) and PNG size (mean KB) over positions of a random game."""
    engine = ENGINES[key]
    renderer = RENDERERS[key]
    rng = Rng(3)
    state = engine.new_game(engine.min_players, 3, {})
    times, sizes = [], []
    step = 0
    while engine.to_act(state) and len(times) < 60:
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        step += 1
        if step % 3:
            continue
        view = engine.view(state, None)
        start = time.perf_counter()
        png = renderer.render_public(view)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png) / 1024)
    return {"render_p50_ms": round(statistics.median(times), 2), "png_kb": round(statistics.mean(sizes), 1)}


def main() -> int:
    figures: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for key in ENGINES:
            if key not in RENDERERS:
                print(f"{key}: no renderer yet, skipped", flush=True)
                continue
            result = asyncio.run(pipeline(key, Path(tmp)))
            result.update(render_figures(key))
            result["engine_actions_per_s"] = round(engine_speed(ENGINES[key]))
            figures[key] = result
            print(f"{key}: pipeline p50 {result['pipeline_p50_ms']} ms, p99 {result['pipeline_p99_ms']} ms; "
                  f"render p50 {result['render_p50_ms']} ms; PNG {result['png_kb']} KB; "
                  f"engine {result['engine_actions_per_s']} actions/s", flush=True)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
