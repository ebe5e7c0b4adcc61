"""The heaviest positions of every game, for the load tests (tests/host/test_bounded.py, tests/e2e/test_bounded.py):

    python -m bench.worst_positions [games] [--write]    # --write: into tests/data/worst_positions.json

HEX-TRI: the pass-until-huge position of issue 22 - on a radius-5 board without a round limit, both players
play the normal AI for six rounds and then only pass, so that mana piles up on their fields and the ways to
pay for a move multiply: the position after 38 actions (seed 7), which the engine of the time listed as 200,354
actions (the file keeps that one); the engine now lists moves by destination, so it prints far fewer. The other
games: the position with the most legal actions (then the largest state) met in ``games`` random playouts at the
largest table. Each entry is what a game row needs: players, options, seed and the engine's snapshot."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import ai
from engines import ENGINES
from engines.rng import Rng

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "worst_positions.json"
HUGE = 200_000


def huge_hextri(seed: int = 7, ai_rounds: int = 6, steps: int = 38) -> dict:
    """The pass-until-huge HEX-TRI position (after ``steps`` actions, or at the first of ``HUGE`` legal
    actions)."""
    engine = ENGINES["hextri"]
    options = {"radius": 5, "round_limit": 0}
    state = engine.new_game(2, seed, dict(options))
    rng = Rng(1)
    for step in range(2000):
        seat = engine.to_act(state)[0]
        legal = engine.legal_actions(state, seat)
        if len(legal) >= HUGE or step == steps:
            return {"players": 2, "options": options, "seed": seed, "snapshot": engine.to_json(state),
                    "legal": len(legal)}
        if state["round"] <= ai_rounds or state["phase"] == "losses":
            action = ai.choose(engine, state, seat, rng, "normal")
        else:
            action = next((a for a in legal if a["type"] == "pass"), legal[0])
        engine.apply(state, seat, action)
    raise SystemExit("no huge HEX-TRI position was reached")


def busiest(key: str, games: int) -> dict:
    """The position with the most legal actions (then the largest state) in ``games`` random playouts."""
    engine = ENGINES[key]
    n = engine.max_players
    best = (-1, -1, None, None)
    for seed in range(games):
        state = engine.new_game(n, seed, {})
        rng = Rng(seed)
        for _ in range(engine.max_playout_steps()):
            acting = engine.to_act(state)
            if not acting:
                break
            seat = acting[0]
            legal = engine.legal_actions(state, seat)
            size = len(json.dumps(engine.to_json(state)))
            if (len(legal), size) > best[:2]:
                best = (len(legal), size, engine.to_json(state), seed)
            engine.apply(state, seat, rng.choice(legal))
    return {"players": n, "options": {}, "seed": best[3], "snapshot": best[2], "legal": best[0]}


def main(argv: list[str]) -> int:
    write = "--write" in argv
    argv = [a for a in argv if a != "--write"]
    games = int(argv[0]) if argv else 20
    found = {}
    for key in ENGINES:
        began = time.perf_counter()
        found[key] = huge_hextri() if key == "hextri" else busiest(key, games)
        print(f"{key}: {found[key]['legal']:,} legal actions, a state of "
              f"{len(json.dumps(found[key]['snapshot'])):,} characters ({time.perf_counter() - began:.1f} s)")
    if write:
        OUT.parent.mkdir(exist_ok=True)
        OUT.write_text(json.dumps(found, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"written to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
