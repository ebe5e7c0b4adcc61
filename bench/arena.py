"""Arena: how strong each AI level is. ``python -m bench.arena`` plays, per game, hard against normal and
normal against easy over a fixed set of seeds (each level takes each seat equally often) and prints the
stronger level's win rate (a draw counts half).

The default run is short, for ``make bench``: few games, and the hard level on a fixed iteration budget so the
figures repeat exactly. ``--games N`` plays more; ``--seconds S`` gives the hard level the time budget it
has in real games (``ai/levels.py``: about a second per decision) instead.

    python -m bench.arena                      # the short run
    python -m bench.arena --games 40 --game troja --seconds 1
"""

from __future__ import annotations

import argparse
import concurrent.futures
import sys
import time

import ai
from ai import search
from ai.arena import play
from engines import ENGINES

TARGET = 0.65
DEFAULT_HARD_GAMES = 2
DEFAULT_EASY_GAMES = 20
DEFAULT_ITERATIONS = 2
SEED0 = 20_160


def _player(level: str, iterations: int | None, seconds: float | None):
    if level != "hard":
        return lambda engine, state, seat, rng: ai.choose(engine, state, seat, rng, level)

    def hard(engine, state, seat, rng):
        budget = search.hard_budget(engine)
        if iterations is not None or seconds is not None:
            budget.update(iterations=iterations, seconds=seconds)
        return search.choose(engine, state, seat, rng, **budget)

    return hard


def _one(args: tuple) -> float:
    """The stronger level's score in one game: 1 win, 0.5 draw (shared first place), 0 loss."""
    key, strong, weak, g, iterations, seconds = args
    engine = ENGINES[key]
    n = engine.min_players
    hero = g % n
    choosers = [_player(strong if s == hero else weak, iterations, seconds) for s in range(n)]
    _, result = play(engine, choosers, SEED0 + g // n)  # each seed once from every seat
    places = result["places"]
    if places[hero] != 1:
        return 0.0
    return 1.0 if places.count(1) == 1 else 0.5


def match(key: str, strong: str, weak: str, games: int, iterations: int | None = None,
          seconds: float | None = None, workers: int = 2) -> float:
    """``strong``'s score share against ``weak`` over ``games`` games of ``key`` (seats alternate)."""
    jobs = [(key, strong, weak, g, iterations, seconds) for g in range(games)]
    if workers <= 1:
        return sum(map(_one, jobs)) / games
    with concurrent.futures.ProcessPoolExecutor(workers) as pool:
        return sum(pool.map(_one, jobs)) / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="games per pairing (default: "
                        f"{DEFAULT_HARD_GAMES} hard-normal, {DEFAULT_EASY_GAMES} normal-easy)")
    parser.add_argument("--game", action="append", choices=sorted(ENGINES), help="only this game (repeatable)")
    parser.add_argument("--iterations", type=int, help=f"hard: iterations per decision (default "
                        f"{DEFAULT_ITERATIONS}, or the level's cap with --seconds)")
    parser.add_argument("--seconds", type=float, help="hard: seconds per decision (the real level: 1)")
    parser.add_argument("--workers", type=int, default=2, help="games played at once (processes)")
    args = parser.parse_args(argv)
    iterations = args.iterations if args.iterations or args.seconds else DEFAULT_ITERATIONS
    budget = f"{args.seconds:g} s" if args.seconds else f"{iterations} iterations"
    print(f"AI arena: score share of the stronger level (draw = 1/2); hard on {budget} per decision; "
          f"target {TARGET:.0%}")
    print(f"{'game':<16} {'hard-normal':>12} {'games':>6} {'normal-easy':>12} {'games':>6} {'seconds':>8}")
    missed = []
    for key in args.game or list(ENGINES):
        start = time.perf_counter()
        hard_games = args.games or DEFAULT_HARD_GAMES
        easy_games = args.games or DEFAULT_EASY_GAMES
        hn = match(key, "hard", "normal", hard_games, iterations, args.seconds, args.workers)
        ne = match(key, "normal", "easy", easy_games, workers=args.workers)
        for pair, score in (("hard-normal", hn), ("normal-easy", ne)):
            if score < TARGET:
                missed.append(f"{key} {pair}")
        print(f"{key:<16} {hn:>12.0%} {hard_games:>6} {ne:>12.0%} {easy_games:>6} "
              f"{time.perf_counter() - start:>8.1f}", flush=True)
    print("targets met" if not missed else "below target: " + ", ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
