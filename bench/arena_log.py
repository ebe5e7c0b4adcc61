"""Figures from the per-game lines of ``python -m bench.arena --log`` runs (whole or cut short):
``python -m bench.arena_log LOG [LOG ...]`` prints, per game and pairing, the score share with its 95%
interval and the CPU seconds per hard decision (mean, 99th percentile, max, how many over 2.5 s). A game
played twice (the same seed and seat in two logs) counts once."""

from __future__ import annotations

import re
import sys

from bench.arena import budget_figures, wilson

LINE = re.compile(r"^\s*(?P<game>\S+) (?P<pairing>\S+) game \d+: seed (?P<seed>\d+) seat (?P<seat>\d+) "
                  r"score (?P<score>[0-9.]+);.*?(?:times (?P<times>[0-9. ]*))?$")


def read(paths: list[str]) -> dict[tuple[str, str], dict[tuple[int, int], tuple[float, list[float]]]]:
    """(game, pairing) -> (seed, seat) -> (score, CPU seconds of each hard decision)."""
    out: dict = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                m = LINE.match(line.rstrip("\n"))
                if m is None:
                    continue
                times = [float(x) for x in (m["times"] or "").split()]
                out.setdefault((m["game"], m["pairing"]), {})[(int(m["seed"]), int(m["seat"]))] = (
                    float(m["score"]), times)
    return out


def main(argv: list[str] | None = None) -> int:
    paths = sys.argv[1:] if argv is None else argv
    if not paths:
        print(__doc__)
        return 2
    for (game, pairing), games in sorted(read(paths).items()):
        score = sum(s for s, _ in games.values())
        times = [t for _, ts in games.values() for t in ts]
        low, high = wilson(score, len(games))
        seeds = sorted({seed for seed, _ in games})
        line = (f"{game:<16} {pairing:<12} {score / len(games):>5.0%} ({score:g} of {len(games)}) 95% {low:.0%}-"
                f"{high:.0%}; seeds {seeds[0]}-{seeds[-1]}")
        if times:
            f = budget_figures(times)
            line += (f"; CPU s per decision mean {f['mean']:.2f} p99 {f['p99']:.2f} max {f['max']:.2f}, "
                     f"{f['over_2_5']} of {f['decisions']} over 2.5 s")
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
