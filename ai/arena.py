"""Play whole games between choosers (AI or random) through the engine protocol; used by AI strength
tests, the demo and the benchmarks."""

from __future__ import annotations

from engines.rng import Rng


def play(engine, choosers: list, seed: int, options: dict | None = None, max_steps: int | None = None):
    """Play one game, seat i driven by ``choosers[i]``; returns (final state, result)."""
    num_players = len(choosers)
    state = engine.new_game(num_players, seed, dict(options or {}))
    rngs = [Rng(seed * 1_000_003 + 101 * i + 7) for i in range(num_players)]
    limit = max_steps or engine.max_playout_steps() if hasattr(engine, "max_playout_steps") else 100_000
    steps = 0
    while True:
        acting = engine.to_act(state)
        if not acting:
            break
        seat = acting[0]
        engine.apply(state, seat, choosers[seat](engine, state, seat, rngs[seat]))
        steps += 1
        if steps > limit:
            raise RuntimeError(f"{engine.key}: game with seed {seed} did not end in {limit} actions")
    return state, engine.result(state)


def win_rate(engine, hero, villain, games: int, num_players: int = 2, options: dict | None = None,
             seed0: int = 0) -> float:
    """Share of games in which ``hero`` finishes alone in first place; ``hero`` takes each seat in turn and
    the other seats are ``villain``. Draws count as non-wins."""
    wins = 0
    for g in range(games):
        hero_seat = g % num_players
        choosers = [hero if s == hero_seat else villain for s in range(num_players)]
        _, result = play(engine, choosers, seed0 + g, options)
        places = result["places"]
        if places[hero_seat] == 1 and places.count(1) == 1:
            wins += 1
    return wins / games
