"""Troja balance benchmark: AI-vs-AI games, each hero's win rate against its fair share.

    .venv/bin/python -m bench.troja_balance [--games N] [--players 2,3,4] [--seed S] [--rotate]

``--rotate`` plays with the option ``rotate_first`` (the first seat passes clockwise each round) instead of
the book's fixed order.

Heroes are dealt at random by the engine, so every hero plays about equally often. A game counts for the
hero its winner *started* with (a disgraced hero's replacement inherits nothing), and separately for the hero
the winner held at the end. A draw (round limit, shared first place) counts for nobody. Goal: every hero
within +-8 points of the fair share 1/players.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ai.arena import play
from ai.troja import choose
from engines.troja import ENGINE, HEROES


def run(players: int, games: int, seed0: int, options: dict | None = None) -> dict:
    seats = [choose] * players
    dealt = {h: 0 for h in HEROES}
    won = {h: 0 for h in HEROES}
    won_final = {h: 0 for h in HEROES}
    held_final = {h: 0 for h in HEROES}
    first_wins = draws = limit = disgraces = 0
    rounds = []
    for g in range(games):
        state, result = play(ENGINE, seats, seed0 + g, options)
        start = [p["heroes"][0] for p in state["players"]]
        for hero in start:
            dealt[hero] += 1
        for p in state["players"]:
            held_final[p["hero"]] += 1
            disgraces += len(p["heroes"]) - 1
        rounds.append(result["rounds"])
        limit += result["reason"] == "round_limit"
        winner = result["winner"]
        if winner is None:
            draws += 1
            continue
        won[start[winner]] += 1
        won_final[state["players"][winner]["hero"]] += 1
        first_wins += winner == state["first"]
    return {"dealt": dealt, "won": won, "won_final": won_final, "held_final": held_final, "draws": draws,
            "limit": limit, "rounds": rounds, "first_wins": first_wins, "disgraces": disgraces, "games": games}


def report(players: int, stats: dict) -> list[str]:
    fair = 100 / players
    lines = [f"== {players} players, {stats['games']} games: fair share {fair:.1f}% ==",
             f"{'hero':<11}{'dealt':>6}{'wins':>6}{'win %':>8}{'vs fair':>9}{'final-hero win %':>18}"]
    worst = 0.0
    for hero in sorted(HEROES):
        dealt = stats["dealt"][hero]
        rate = 100 * stats["won"][hero] / dealt if dealt else 0.0
        held = stats["held_final"][hero]
        final = 100 * stats["won_final"][hero] / held if held else 0.0
        worst = max(worst, abs(rate - fair))
        lines.append(f"{hero:<11}{dealt:>6}{stats['won'][hero]:>6}{rate:>7.1f}%{rate - fair:>+8.1f}{final:>17.1f}%")
    r = stats["rounds"]
    decided = stats["games"] - stats["draws"]
    lines.append(f"largest deviation {worst:.1f} points; first player won {stats['first_wins']}/{decided} decided games "
                 f"({100 * stats['first_wins'] / max(1, decided):.1f}%)")
    lines.append(f"rounds: median {statistics.median(r):.0f}, mean {statistics.mean(r):.1f}, max {max(r)}; "
                 f"round-limit games {stats['limit']}, draws {stats['draws']}, disgraces {stats['disgraces']}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--players", default="2,3,4")
    parser.add_argument("--seed", type=int, default=10_000)
    parser.add_argument("--rotate", action="store_true", help="the first seat rotates each round")
    args = parser.parse_args()
    options = {"rotate_first": True} if args.rotate else {}
    for players in [int(p) for p in args.players.split(",")]:
        started = time.perf_counter()
        stats = run(players, args.games, args.seed, options)
        for line in report(players, stats):
            print(line)
        print(f"({time.perf_counter() - started:.1f} s)\n")


if __name__ == "__main__":
    main()
