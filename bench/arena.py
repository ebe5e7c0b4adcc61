"""Arena: how strong each AI level is. ``python -m bench.arena`` plays, per game, hard against normal and
normal against easy over a range of seeds (each seed once from every seat) and prints the stronger level's
score share (a draw counts half), with a 95% interval, and the CPU seconds of the hard level's decisions.

The hard level plays with its real budget, in iterations per decision (``ai/levels.py``), without the level's
wall-clock cap, so a run gives the same figures on any machine and under any load. Seeds: the settings were
tuned on games from seed 20160 on (:data:`TUNING_SEED0`); figures to report come from a range held apart
from tuning (:data:`HELD_APART_SEED0`, ``--seed0``), so they do not flatter the settings picked on them.
The default run is short, for ``make bench``: 2 games per pairing for the hard level, 20 for normal against
easy, and Ave Caesar as a single race. ``--games N`` plays more, ``--iterations N`` or ``--seconds S`` sets
another budget for the hard level, ``--championship`` plays Ave Caesar's four races, ``--log`` prints a line
per game as it ends, with the CPU seconds of each hard decision (a run cut short still leaves its figures:
``python -m bench.arena_log LOG ...`` sums such lines up), ``--pairing`` plays one pairing only.

    python -m bench.arena                                   # the short run
    python -m bench.arena --games 40 --game troja --seed0 880000 --pairing hard-normal --log
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
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
#: the seeds the hard level's settings were tuned on (every game, issues 16-30)
TUNING_SEED0 = 20_160
#: the seeds docs/ai.md's figures come from: never used for tuning
HELD_APART_SEED0 = 880_000
SEED0 = TUNING_SEED0
PAIRINGS = (("hard", "normal"), ("normal", "easy"))


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


def _timed(chooser, times: list):
    """``chooser`` adding the CPU seconds of each decision that had a choice to ``times``."""
    def timed(engine, state, seat, rng):
        choice = len(engine.legal_actions(state, seat)) > 1
        start = time.process_time()
        try:
            return chooser(engine, state, seat, rng)
        finally:
            if choice:
                times.append(time.process_time() - start)

    return timed


def game_seed(g: int, num_players: int, seed0: int = SEED0) -> int:
    """Game ``g`` of a match plays seed ``seed0 + g // num_players`` from seat ``g % num_players``."""
    return seed0 + g // num_players


def one_game(args: tuple) -> tuple[float, list[float]]:
    """The stronger level's score in one game (1 win, 0.5 draw = shared first place, 0 loss), and the CPU
    seconds of its decisions that had a choice."""
    key, strong, weak, g, iterations, seconds, options, seed0 = args
    engine = ENGINES[key]
    n = engine.min_players
    hero = g % n
    times: list[float] = []
    choosers = [_timed(_player(strong, iterations, seconds), times) if s == hero
                else _player(weak, iterations, seconds) for s in range(n)]
    _, result = play(engine, choosers, game_seed(g, n, seed0), options)  # each seed once from every seat
    places = result["places"]
    score = 0.0 if places[hero] != 1 else (1.0 if places.count(1) == 1 else 0.5)
    return score, times


def wilson(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson interval of a score share over ``games`` games (a draw counts as half a win)."""
    if not games:
        return 0.0, 1.0
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def budget_figures(times: list[float]) -> dict:
    """Mean, 99th percentile and max of CPU seconds per decision, and how many took over 2.5 s and 3 s."""
    if not times:
        return {"decisions": 0, "mean": 0.0, "p99": 0.0, "max": 0.0, "over_2_5": 0, "over_3": 0}
    ordered = sorted(times)
    return {"decisions": len(ordered), "mean": sum(ordered) / len(ordered),
            "p99": ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)], "max": ordered[-1],
            "over_2_5": sum(1 for t in ordered if t > 2.5), "over_3": sum(1 for t in ordered if t > 3.0)}


def match_games(key: str, strong: str, weak: str, games: int, iterations: int | None = None,
                seconds: float | None = None, workers: int = 2, options: dict | None = None,
                seed0: int = SEED0, log=None) -> tuple[float, list[float]]:
    """``strong``'s score over ``games`` games of ``key`` (seats alternate) and the CPU seconds of its
    decisions; ``log(g, seed, seat, score, times)`` is called as each game ends."""
    jobs = [(key, strong, weak, g, iterations, seconds, options, seed0) for g in range(games)]
    n = ENGINES[key].min_players
    total, times = 0.0, []

    def record(g, out):
        nonlocal total
        total += out[0]
        times.extend(out[1])
        if log is not None:
            log(g, game_seed(g, n, seed0), g % n, out[0], out[1])

    if workers <= 1:
        for g, job in enumerate(jobs):
            record(g, one_game(job))
    else:
        with concurrent.futures.ProcessPoolExecutor(workers) as pool:
            futures = {pool.submit(one_game, job): g for g, job in enumerate(jobs)}
            for future in concurrent.futures.as_completed(futures):
                record(futures[future], future.result())
    return total, times


def match(key: str, strong: str, weak: str, games: int, iterations: int | None = None,
          seconds: float | None = None, workers: int = 2, options: dict | None = None, seed0: int = SEED0) -> float:
    """``strong``'s score share against ``weak`` over ``games`` games of ``key`` (seats alternate)."""
    return match_games(key, strong, weak, games, iterations, seconds, workers, options, seed0)[0] / games


def _print_game(key: str, strong: str, weak: str):
    def log(g, seed, seat, score, times):
        figures = budget_figures(times)
        print(f"  {key} {strong}-{weak} game {g}: seed {seed} seat {seat} score {score:g}; "
              f"{figures['decisions']} decisions, CPU s mean {figures['mean']:.2f} max {figures['max']:.2f}; "
              f"times {' '.join(f'{x:.2f}' for x in times)}", flush=True)

    return log


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, help="games per pairing (default: "
                        f"{DEFAULT_HARD_GAMES} hard-normal, {DEFAULT_EASY_GAMES} normal-easy)")
    parser.add_argument("--game", action="append", choices=sorted(ENGINES), help="only this game (repeatable)")
    parser.add_argument("--seed0", type=int, default=SEED0,
                        help=f"first seed of the range (default {SEED0}, the tuning range; docs/ai.md's figures: "
                        f"{HELD_APART_SEED0})")
    parser.add_argument("--pairing", choices=[f"{a}-{b}" for a, b in PAIRINGS], help="only this pairing")
    parser.add_argument("--iterations", type=int, help="hard: iterations per decision (default: the level's own, "
                        "per game)")
    parser.add_argument("--seconds", type=float, help="hard: seconds per decision instead")
    parser.add_argument("--championship", action="store_true", help="Ave Caesar: the four races")
    parser.add_argument("--workers", type=int, default=2, help="games played at once (processes)")
    parser.add_argument("--log", action="store_true", help="a line per game as it ends")
    args = parser.parse_args(argv)
    iterations, seconds = args.iterations, args.seconds
    budget = " and ".join(x for x in (f"{seconds:g} s" if seconds else "", f"{iterations} iterations"
                                      if iterations else "") if x) or "its own iterations (ai/levels.py)"
    print(f"AI arena: score share of the stronger level (draw = 1/2), 95% interval; hard on {budget} per "
          f"decision; seeds from {args.seed0}, each from every seat; target {TARGET:.0%}")
    missed = []
    pairings = [p for p in PAIRINGS if args.pairing in (None, f"{p[0]}-{p[1]}")]
    for key in args.game or list(ENGINES):
        options = None if args.championship else QUICK_OPTIONS.get(key)
        for strong, weak in pairings:
            start = time.perf_counter()
            games = args.games or (DEFAULT_HARD_GAMES if strong == "hard" else DEFAULT_EASY_GAMES)
            log = _print_game(key, strong, weak) if args.log else None
            score, times = match_games(key, strong, weak, games, iterations, seconds, args.workers, options,
                                       args.seed0, log)
            low, high = wilson(score, games)
            line = (f"{key:<16} {strong}-{weak:<7} {score / games:>5.0%} ({score:g} of {games}) "
                    f"95% {low:.0%}-{high:.0%}")
            if strong == "hard":
                f = budget_figures(times)
                line += (f"; CPU s per decision mean {f['mean']:.2f} p99 {f['p99']:.2f} max {f['max']:.2f}, "
                         f"{f['over_2_5']} of {f['decisions']} over 2.5 s")
            print(f"{line}; {time.perf_counter() - start:.0f} s", flush=True)
            if score / games < TARGET:
                missed.append(f"{key} {strong}-{weak}")
    print("targets met" if not missed else "below target: " + ", ".join(missed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
