"""How long the hard AI thinks: ``python -m bench.ai_budget GAME [ITERATIONS] [SEED]`` plays one game of the
hard level (seat 0) against normal and prints the CPU seconds of hard's decisions that had a choice (mean,
median, 90th percentile, max). ITERATIONS defaults to the level's own (``ai/levels.py``), whose figures aim
at about a second on one idle core. CPU seconds, so the figure holds on a loaded machine too."""

from __future__ import annotations

import sys
import time

import ai
from ai import search
from ai.arena import play
from engines import ENGINES

QUICK_OPTIONS = {"ave-caesar": {"races": 1}}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in ENGINES:
        print(__doc__)
        return 2
    engine = ENGINES[args[0]]
    budget = search.hard_budget(engine)
    budget["seconds"] = None
    if len(args) > 1:
        budget["iterations"] = int(args[1])
    seed = int(args[2]) if len(args) > 2 else 20_160
    times: list[float] = []

    def hard(engine, state, seat, rng):
        choice = len(engine.legal_actions(state, seat)) > 1
        start = time.process_time()
        action = search.choose(engine, state, seat, rng, **budget)
        if choice:
            times.append(time.process_time() - start)
        return action

    def normal(engine, state, seat, rng):
        return ai.choose(engine, state, seat, rng, "normal")

    seats = [hard] + [normal] * (engine.min_players - 1)
    play(engine, seats, seed, QUICK_OPTIONS.get(engine.key))
    times.sort()
    if not times:
        print(f"{engine.key}: hard had no decision with a choice")
        return 0
    print(f"{engine.key} {budget['iterations']} iterations: {len(times)} decisions, CPU s mean "
          f"{sum(times) / len(times):.3f} median {times[len(times) // 2]:.3f} p90 {times[int(len(times) * .9)]:.3f} "
          f"max {times[-1]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
