"""Swiss pairing at scale (``make bench`` runs it).

1. A Swiss of 1,024 players and 11 rounds with random results (wins, losses and draws alike), paired by the
   Dutch system (tournaments/dutch.py): the time to pair each round, how it was paired (``dutch`` or the fallback)
   and whether an absolute criterion had to give way; the slowest round against the budget (``swiss.BUDGET``, past
   which the fallback pairs the round).
2. The same round paired through the service's worker in a separate process (host/tournaments.py
   ``PairingWorker``) while the event loop ticks every 10 ms: the loop's worst lateness meanwhile.
3. With ``caissify-pairings`` installed (a dev dependency: a Dutch system checked against the FIDE-endorsed
   bbpPairings), the share of rounds of random small events (6-16 players, 5 rounds) that both pair alike.
4. Double elimination (tournaments/double.py) of 64, 512 and 1,024 players with random results: every round is
   paired by replaying the whole bracket from the results so far (on the event loop, like single elimination);
   the slowest round.

``python -m bench.tournaments [players] [rounds] [events]``.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time

from tournaments.standings import Result
from tournaments.swiss import BUDGET, entrants, plan_round

OUTCOMES = [(1, 2), (2, 1), (1, 1)]


def swiss(players: int, rounds: int, seed: int = 1) -> tuple[float, list[Result]]:
    rng = random.Random(seed)
    field = list(range(1, players + 1))
    results: list[Result] = []
    slowest = 0.0
    for r in range(1, rounds + 1):
        start = time.perf_counter()
        plan = plan_round(field, results, r)
        took = (time.perf_counter() - start) * 1000
        slowest = max(slowest, took)
        relaxed = ", ".join(plan.relaxed) or "none"
        print(f"swiss {players} players, round {r}: {len(plan.tables)} tables, {len(plan.byes)} bye(s), "
              f"{plan.method}, relaxed: {relaxed}, paired in {took:.0f} ms", flush=True)
        for p in plan.byes:
            results.append(Result(r, (p,), (1,)))
        for table in plan.tables:
            results.append(Result(r, table, rng.choice(OUTCOMES)))
    verdict = "within" if slowest < BUDGET * 1000 else "OVER"
    print(f"swiss {players} players x {rounds} rounds: slowest round {slowest:.0f} ms ({verdict} the "
          f"{BUDGET:.0f} s budget)")
    return slowest, results


async def _loop_lateness(players: int, results: list[Result], rounds: int) -> tuple[float, float]:
    from host.tournaments import PairingWorker

    worker = PairingWorker(processes=1)
    await worker.plan(list(range(1, players + 1)), [], 1)  # start the process first (imports: about a second)
    worst = 0.0
    done = False

    async def tick() -> None:
        nonlocal worst
        while not done:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            worst = max(worst, time.perf_counter() - before - 0.01)

    ticker = asyncio.create_task(tick())
    start = time.perf_counter()
    await worker.plan(list(range(1, players + 1)), results, rounds + 1)
    took = time.perf_counter() - start
    done = True
    await ticker
    worker.close()
    return took, worst


def agreement(events: int, seed: int = 7) -> float | None:
    """Share of rounds (in %) that tournaments/dutch.py and caissify-pairings pair alike (the same pairs)."""
    try:
        from caissify_pairings import generate_pairings
    except ImportError:
        print("caissify-pairings is not installed: no comparison")
        return None
    import warnings
    warnings.simplefilter("ignore")
    rng = random.Random(seed)
    same = total = 0
    for _ in range(events):
        n = rng.randint(6, 16)
        field = list(range(1, n + 1))
        results: list[Result] = []
        for r in range(1, 6):
            plan = plan_round(field, results, r)
            es = entrants(field, results)
            players = [{"id": e.id, "name": str(e.id), "score": float(e.score), "rating": 3000 - e.number,
                        "starting_number": e.number,
                        "color_hist": ["white" if c == 1 else "black" if c == -1 else "none" for c in e.colours],
                        "float_history": [f or "none" for f in e.floats], "bye_count": int(e.had_bye)}
                       for e in es]
            met = {(min(e.id, o), max(e.id, o)) for e in es for o in e.opponents}
            theirs = generate_pairings("dutch", players, met, r, 5)
            ref = {frozenset((p["white_id"], p["black_id"])) for p in theirs
                   if p.get("black_id") is not None and not p.get("bye")}
            total += 1
            same += ref == {frozenset(t) for t in plan.tables}
            for p in plan.byes:
                results.append(Result(r, (p,), (1,)))
            for table in plan.tables:
                results.append(Result(r, table, rng.choice(OUTCOMES)))
    share = 100 * same / max(total, 1)
    print(f"dutch vs caissify-pairings: {same} of {total} rounds of {events} random events of 6-16 players paired "
          f"alike ({share:.1f}%)")
    return share


def double_elimination(sizes: tuple[int, ...] = (64, 512, 1024), seed: int = 3) -> None:
    from tournaments import double
    rng = random.Random(seed)
    for n in sizes:
        seeded, done, worst, t = list(range(n)), [], 0.0, 1
        while True:
            began = time.perf_counter()
            matches = double.round_matches(seeded, done, t)
            worst = max(worst, time.perf_counter() - began)
            if not matches:
                break
            done += [(m, (1,) if len(m.players) == 1 else rng.choice(OUTCOMES)) for m in matches]
            t += 1
        print(f"double elimination of {n} players: {t - 1} rounds, {len(done)} matches; slowest round paired in "
              f"{worst * 1000:.1f} ms")


def main(players: int = 1024, rounds: int = 11, events: int = 40) -> float:
    slowest, results = swiss(players, rounds)
    took, worst = asyncio.run(_loop_lateness(players, results, rounds))
    print(f"round {rounds + 1} of {players} players paired in a worker process in {took * 1000:.0f} ms; the event "
          f"loop's worst lateness meanwhile: {worst * 1000:.1f} ms")
    agreement(events)
    double_elimination()
    return slowest


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:4]]
    sys.exit(0 if main(*args) < BUDGET * 1000 else 1)
