"""Arena: how strong each AI level is. ``python -m bench.arena`` plays, per game, hard against normal and
normal against easy over a fixed set of seeds (each level takes each seat equally often) and prints the
stronger level's win rate (a draw counts half).

The hard level plays with its real budget, in iterations per decision (``ai/levels.py``: about a second
each), without the level's wall-clock cap, so a run gives the same figures on any machine and under any
load. The default run is short, for ``make bench``: 2 games per pairing for the hard level, 20 for normal
against easy, and Ave Caesar as a single race. ``--games N`` plays more, ``--iterations N`` or ``--seconds S``
sets another budget for the hard level, ``--championship`` plays Ave Caesar's four races.

    python -m bench.arena                      # the short run
    python -m bench.arena --games 40 --game troja
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
#: a four-race championship is ~2,600 actions: the default run plays one race
QUICK_OPTIONS = {"ave-caesar": {"races": 1}}
SEED0 = 20_160


def _player(level: str, iterations: int | None, seconds: float | None):
    if level != "hard":
        return lambda engine, state, seat, rng: ai.choose(engine, state, seat, rng, level)

    def hard(engine, state, seat, rng):
        budget = search.hard_budget(engine)
        budget["seconds"] = None  # the iterations alone: the same moves under any load
        if iterations is not None or seconds is not None:
            budget.update(iterations=iterations, seconds=seconds)
        return search.choose(engine, state, seat, rng, **budget)

    return hard


def _timed(chooser, clock: list):
    """``chooser`` adding its wall time and the number of its decisions to ``clock``."""
    def timed(engine, state, seat, rng):
        start = time.perf_counter()
        try:
            return chooser(engine, state, seat, rng)
        finally:
            clock[0] += time.perf_counter() - start
            clock[1] += 1

    return timed


def _one(args: tuple) -> tuple[float, float, int]:
    """The stronger level's score in one game (1 win, 0.5 draw = shared first place, 0 loss), and its
    seconds spent deciding and number of decisions."""
    key, strong, weak, g, iterations, seconds, options = args
    engine = ENGINES[key]
    n = engine.min_players
    hero = g % n
    clock = [0.0, 0]
    choosers = [_timed(_player(strong, iterations, seconds), clock) if s == hero
                else _player(weak, iterations, seconds) for s in range(n)]
    _, result = play(engine, choosers, SEED0 + g // n, options)  # each seed once from every seat
    places = result["places"]
    score = 0.0 if places[hero] != 1 else (1.0 if places.count(1) == 1 else 0.5)
    return score, clock[0], clock[1]


def match(key: str, strong: str, weak: str, games: int, iterations: int | None = None,
          seconds: float | None = None, workers: int = 2, options: dict | None = None) -> float:
    """``strong``'s score share against ``weak`` over ``games`` games of ``key`` (seats alternate)."""
    return match_timed(key, strong, weak, games, iterations, seconds, workers, options)[0]


def match_timed(key: str, strong: str, weak: str, games: int, iterations: int | None = None,
                seconds: float | None = None, workers: int = 2, options: dict | None = None) -> tuple:
    """:func:`match`, and ``strong``'s mean seconds per decision (decisions with one legal action included)."""
    jobs = [(key, strong, weak, g, iterations, seconds, options) for g in range(games)]
    if workers <= 1:
        out = list(map(_one, jobs))
    else:
        with concurrent.futures.ProcessPoolExecutor(workers) as pool:
            out = list(pool.map(_one, jobs))
    decisions = sum(o[2] for o in out)
    return sum(o[0] for o in out) / games, sum(o[1] for o in out) / max(decisions, 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="games per pairing (default: "
                        f"{DEFAULT_HARD_GAMES} hard-normal, {DEFAULT_EASY_GAMES} normal-easy)")
    parser.add_argument("--game", action="append", choices=sorted(ENGINES), help="only this game (repeatable)")
    parser.add_argument("--iterations", type=int, help="hard: iterations per decision (default: the level's own, "
                        "per game)")
    parser.add_argument("--seconds", type=float, help="hard: seconds per decision instead")
    parser.add_argument("--championship", action="store_true", help="Ave Caesar: the four races")
    parser.add_argument("--workers", type=int, default=2, help="games played at once (processes)")
    args = parser.parse_args(argv)
    iterations, seconds = args.iterations, args.seconds
    budget = " and ".join(x for x in (f"{seconds:g} s" if seconds else "", f"{iterations} iterations"
                                      if iterations else "") if x) or "its own iterations (ai/levels.py)"
    print(f"AI arena: score share of the stronger level (draw = 1/2); hard on {budget} per decision; "
          f"target {TARGET:.0%}")
    print(f"{'game':<16} {'hard-normal':>12} {'games':>6} {'s/decision':>10} {'normal-easy':>12} {'games':>6} "
          f"{'seconds':>8}")
    missed = []
    for key in args.game or list(ENGINES):
        start = time.perf_counter()
        hard_games = args.games or DEFAULT_HARD_GAMES
        easy_games = args.games or DEFAULT_EASY_GAMES
        options = None if args.championship else QUICK_OPTIONS.get(key)
        hn, per_decision = match_timed(key, "hard", "normal", hard_games, iterations, seconds, args.workers,
                                       options)
        ne = match(key, "normal", "easy", easy_games, workers=args.workers, options=options)
        for pair, score in (("hard-normal", hn), ("normal-easy", ne)):
            if score < TARGET:
                missed.append(f"{key} {pair}")
        print(f"{key:<16} {hn:>12.0%} {hard_games:>6} {per_decision:>10.2f} {ne:>12.0%} {easy_games:>6} "
              f"{time.perf_counter() - start:>8.1f}", flush=True)
    print("targets met" if not missed else "below target: " + ", ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
