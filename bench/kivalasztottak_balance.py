"""Kiválasztottak balance benchmark: AI-vs-AI games between two decks, seats alternated.

    .venv/bin/python -m bench.kivalasztottak_balance [--games N] [--seed S] [--decks vadaszhaz,medveklan]

Game g gives the first deck seat 0 when g is even and seat 1 when g is odd (who begins is the engine's die
roll). For each deck: wins, win rate with its standard error (sqrt(p(1-p)/n), draws count as non-wins), how
its wins came (DP 19 at once, DP 11 at a round's close, the enemy tower destroyed, the enemy's Future empty,
the round limit), its own quests solved by itself, enemy quests it stole, its quests stolen by the enemy,
buildings built and captured, tower levels destroyed. Goal for the starter decks: each wins 50% +- 8 points.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import Counter

from ai.kivalasztottak import choose
from engines.kivalasztottak import ENGINE
from engines.kivalasztottak.cards import deck_file
from engines.rng import Rng

REASONS = {"dp19": "DP 19", "dp11": "DP 11 at close", "towers": "tower destroyed", "future": "Future empty",
           "round_limit": "round limit"}
DRAW_REASONS = {"simultaneous", "future_draw", "round_limit"}


def play_one(decks: list[str], seed: int, choosers=None) -> tuple[dict, dict, list[dict]]:
    """One game with ``decks`` in seat order; returns (final state, result, every event)."""
    choosers = choosers or [choose, choose]
    state = ENGINE.new_game(2, seed, {"decks": list(decks)})
    rngs = [Rng(seed * 1_000_003 + 101 * i + 7) for i in range(2)]
    events: list[dict] = []
    for _ in range(ENGINE.max_playout_steps()):
        acting = ENGINE.to_act(state)
        if not acting:
            return state, ENGINE.result(state), events
        seat = acting[0]
        events.extend(ENGINE.apply(state, seat, choosers[seat](ENGINE, state, seat, rngs[seat])))
    raise RuntimeError(f"kivalasztottak: game with seed {seed} did not end")


def run(decks: tuple[str, str], games: int, seed0: int) -> dict:
    """Play ``games`` games alternating seats; statistics by deck position (0 = first deck, 1 = second)."""
    st = {"games": games, "wins": [0, 0], "draws": 0, "how": [Counter(), Counter()], "draw_how": Counter(),
          "solves": [0, 0], "steals": [0, 0], "stolen": [0, 0], "built": [0, 0], "captured": [0, 0],
          "towers": [0, 0], "first_wins": 0, "rounds": [], "dp": [[], []], "decided": 0}
    for g in range(games):
        order = list(decks) if g % 2 == 0 else [decks[1], decks[0]]
        pos = [0, 1] if g % 2 == 0 else [1, 0]  # pos[seat] = deck position of that seat
        state, result, events = play_one(order, seed0 + g)
        st["rounds"].append(state["round"])
        for seat in range(2):
            st["dp"][pos[seat]].append(result["scores"][seat])
        w = result["winner"]
        if w is None:
            st["draws"] += 1
            st["draw_how"][result["reason"]] += 1
        else:
            st["decided"] += 1
            st["wins"][pos[w]] += 1
            st["how"][pos[w]][result["reason"]] += 1
            st["first_wins"] += w == state["first"]
        owner = {cid: c["owner"] for cid, c in state["cards"].items()}
        for e in events:
            t = e["type"]
            if t == "quest_solved":
                solver, quest_owner = e["seat"], owner[e["card"]]
                if solver == quest_owner:
                    st["solves"][pos[solver]] += 1
                else:
                    st["steals"][pos[solver]] += 1
                    st["stolen"][pos[quest_owner]] += 1
            elif t == "entered" and e.get("zone") == "buildings":
                st["built"][pos[e["seat"]]] += 1
            elif t == "building_captured":
                st["captured"][pos[e["seat"]]] += 1
            elif t == "tower_destroyed":
                st["towers"][pos[1 - e["seat"]]] += 1  # counted for the besieger
    return st


def win_rate(st: dict, i: int) -> tuple[float, float]:
    n = st["games"]
    p = st["wins"][i] / n
    return p, math.sqrt(p * (1 - p) / n)


def report(decks: tuple[str, str], st: dict) -> list[str]:
    names = {k: v["name_en"] for k, v in deck_file()["decks"].items()}
    n = st["games"]
    lines = [f"== {names[decks[0]]} ({decks[0]}) vs {names[decks[1]]} ({decks[1]}): {n} games, seats alternated =="]
    for i, deck in enumerate(decks):
        p, se = win_rate(st, i)
        how = ", ".join(f"{REASONS.get(r, r)} {c}" for r, c in st["how"][i].most_common()) or "-"
        lines.append(f"{deck:<10} wins {st['wins'][i]:>4}  {100 * p:5.1f}% +- {100 * se:.1f}  ({how})")
    draws = ", ".join(f"{r} {c}" for r, c in st["draw_how"].most_common())
    lines.append(f"draws {st['draws']}" + (f" ({draws})" if draws else ""))
    lines.append(f"{'':<10}{'own solved':>11}{'stole':>7}{'lost':>6}{'built':>7}{'captured':>9}{'towers':>8}"
                 f"{'mean DP':>9}")
    for i, deck in enumerate(decks):
        lines.append(f"{deck:<10}{st['solves'][i]:>11}{st['steals'][i]:>7}{st['stolen'][i]:>6}{st['built'][i]:>7}"
                     f"{st['captured'][i]:>9}{st['towers'][i]:>8}{statistics.mean(st['dp'][i]):>9.1f}")
    r = st["rounds"]
    lines.append(f"rounds: median {statistics.median(r):.0f}, mean {statistics.mean(r):.1f}, max {max(r)}; "
                 f"first player won {st['first_wins']}/{st['decided']} decided games "
                 f"({100 * st['first_wins'] / max(1, st['decided']):.1f}%)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20_000)
    parser.add_argument("--decks", default="vadaszhaz,medveklan",
                        help="two deck ids; repeat with ';' for several matches (e.g. 'a,b;a,a')")
    args = parser.parse_args()
    for match in args.decks.split(";"):
        a, b = match.split(",")
        started = time.perf_counter()
        stats = run((a, b), args.games, args.seed)
        for line in report((a, b), stats):
            print(line)
        print(f"({time.perf_counter() - started:.1f} s)\n")


if __name__ == "__main__":
    main()
