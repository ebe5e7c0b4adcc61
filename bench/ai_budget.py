"""How long the hard AI thinks: ``python -m bench.ai_budget [GAME ...] [--games N] [--seed0 S]
[--iterations N]`` plays games of the hard level against normal (each seed from every seat; Ave Caesar one
race) and prints, per game, the CPU seconds of hard's decisions that had a choice: mean, 99th percentile and
max, and how many took over 2.5 s. The budget (``ai/levels.py``): mean <= 1 s, 99th percentile <= 2.5 s on
this machine, so the live bot's wall-clock cap (``HARD_SECONDS``) is a safety net that never decides the
strength. CPU seconds, so the figures hold on a loaded machine too; the default seeds are the held-apart
range docs/ai.md reports (``bench/arena.py``)."""

from __future__ import annotations

import argparse
import sys
import time

from bench.arena import HELD_APART_SEED0, QUICK_OPTIONS, budget_figures, match_games
from engines import ENGINES

MEAN_BUDGET = 1.0
P99_BUDGET = 2.5


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="*", help=f"games (default: all of {', '.join(sorted(ENGINES))})")
    parser.add_argument("--games", type=int, default=2, help="games per game (default 2: one seed, both seats)")
    parser.add_argument("--seed0", type=int, default=HELD_APART_SEED0, help="first seed")
    parser.add_argument("--iterations", type=int, help="hard: iterations per decision (default: the level's own)")
    parser.add_argument("--workers", type=int, default=1, help="games played at once (processes)")
    args = parser.parse_args(argv)
    unknown = [g for g in args.game if g not in ENGINES]
    if unknown:
        parser.error(f"unknown game {', '.join(unknown)}; choose from {', '.join(sorted(ENGINES))}")
    over = []
    for key in args.game or list(ENGINES):
        start = time.perf_counter()
        _, times = match_games(key, "hard", "normal", args.games, args.iterations, None, args.workers,
                               QUICK_OPTIONS.get(key), args.seed0)
        f = budget_figures(times)
        print(f"{key:<16} {f['decisions']:>5} decisions, CPU s mean {f['mean']:.2f} p99 {f['p99']:.2f} "
              f"max {f['max']:.2f}, {f['over_2_5']} over 2.5 s ({time.perf_counter() - start:.0f} s wall)",
              flush=True)
        if f["mean"] > MEAN_BUDGET or f["p99"] > P99_BUDGET:
            over.append(key)
    print("within budget" if not over else "over budget: " + ", ".join(over))
    return 0


if __name__ == "__main__":
    sys.exit(main())
