"""Swiss pairing at scale (``make bench`` runs it): a 256-player Swiss of eight rounds with random results,
the time to pair each round printed; the budget is 100 ms a round (the slowest round is checked against it).

``python -m bench.tournaments [players] [rounds]``.
"""

from __future__ import annotations

import random
import sys
import time

from tournaments.standings import Result
from tournaments.swiss import pair_round

BUDGET_MS = 100.0


def main(players: int = 256, rounds: int = 8) -> float:
    rng = random.Random(1)
    field = list(range(1, players + 1))
    results: list[Result] = []
    slowest = 0.0
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        tables, byes = pair_round(field, results, r)
        took = (time.perf_counter() - start) * 1000
        slowest = max(slowest, took)
        print(f"swiss {players} players, round {r}: {len(tables)} tables, {len(byes)} bye(s), paired in {took:.1f} ms")
        for p in byes:
            results.append(Result(r, (p,), (1,)))
        for table in tables:
            results.append(Result(r, table, rng.choice([(1, 2), (2, 1), (1, 1)])))
    verdict = "within" if slowest < BUDGET_MS else "OVER"
    print(f"swiss {players} players: slowest round {slowest:.1f} ms ({verdict} the {BUDGET_MS:.0f} ms budget)")
    return slowest


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    sys.exit(0 if main(*args) < BUDGET_MS else 1)
