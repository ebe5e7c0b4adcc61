"""The AI decides exactly as it did when the digests were recorded (before the refactor of issue 23).

Per game and conformance configuration, fixed-seed whole games at the ``easy`` and ``normal`` levels, and at a
few positions of each the ``hard`` level's choice with a small fixed iteration budget (iterations and actions,
never wall-clock seconds, so the same seed gives the same search on any machine), and the generic searches
with settings the levels do not use (a flat tree, no evaluation, random playouts, paired playouts cut at a
depth and pruned). Every chosen action and every search's trace (per iteration a fingerprint of the sample it
drew and what it backed up) goes into one digest per game, compared with ``data/decision_digests.json``. A
change that makes any AI level pick another action, or search another way, for the same seed fails here.

``python -m tests.ai.test_decisions_digest`` rewrites the data file: only for a deliberate change of the AI.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

import ai
from ai import search
from ai.search import PairedConfig, SearchConfig
from engines import ENGINES
from engines.rng import Rng

DATA = Path(__file__).parent / "data" / "decision_digests.json"
#: the seeds of the game's first configuration (the others play the first only: the test stays fast)
SEEDS = (0, 1)
#: the decisions of a game (counted over all seats) at which the hard level and the searches are asked, in the
#: normal game of seed 0 in the game's first configuration (searches are slow: the test stays fast)
PROBES = (1, 9)
#: a whole game is long enough: this bounds a game whose heuristics stall (none does when recorded)
MAX_STEPS = 5000


def _dump(obj) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=repr).encode()


def _searches(engine, state, seat: int, seed: int) -> list:
    """The hard level's choice and the generic searches' at one position, with their traces."""
    out: list = []
    budget = search.hard_budget(engine)
    budget.update(seconds=None, iterations=12)
    trace: list = []
    out.append(search.choose(engine, state, seat, Rng(seed), trace=trace, **budget))
    out.append(trace)
    rollout = search.random_rollout(engine)
    prior = ai.choose(engine, state, seat, Rng(seed + 1), "normal")
    for kwargs in ({"flat": True}, {"evaluation": False, "exploration": 1.2, "rollout": rollout},
                   {"rollout": rollout, "prior": prior}):
        trace = []
        config = SearchConfig(iterations=6, trace=trace, **kwargs)
        out.append(search.search(engine, state, seat, Rng(seed + 2), config))
        out.append(trace)
    for kwargs in ({"depth": 8, "prune": 1.0, "check_every": 2, "prior": prior},
                   {"stage": True, "actions": 400}, {"rollout": rollout, "prune": None, "iterations": 4}):
        trace = []
        kwargs = {"iterations": 8, **kwargs}
        out.append(search.paired(engine, state, seat, Rng(seed + 3), PairedConfig(trace=trace, **kwargs)))
        out.append(trace)
    return out


def _game(engine, num_players: int, options: dict, seed: int, level: str, probed: bool, hasher) -> None:
    state = engine.new_game(num_players, seed, dict(options))
    rng = Rng(seed * 7919 + 3)
    steps = 0
    while (acting := engine.to_act(state)) and steps < MAX_STEPS:
        seat = min(acting)
        if probed and level == "normal" and steps in PROBES:
            hasher.update(_dump([steps, _searches(engine, state, seat, seed * 1000 + steps)]))
        action = ai.choose(engine, state, seat, rng, level)
        hasher.update(_dump([steps, seat, action]))
        engine.apply(state, seat, action)
        steps += 1
    hasher.update(_dump([steps, engine.result(state)]))


def digest(key: str) -> str:
    """One game's digest over its configurations, seeds and levels."""
    engine = ENGINES[key]
    hasher = hashlib.sha256()
    for n, (num_players, options) in enumerate(engine.conformance_configs()):
        for seed in SEEDS if n == 0 else SEEDS[:1]:
            for level in ("easy", "normal"):
                _game(engine, num_players, options, seed, level, n == 0 and seed == 0, hasher)
    return hasher.hexdigest()[:24]


RECORDED = json.loads(DATA.read_text()) if DATA.exists() else {}


@pytest.mark.parametrize("key", sorted(ENGINES))
def test_the_ai_decides_as_recorded(key):
    assert key in RECORDED, f"no recorded digest for {key}"
    assert digest(key) == RECORDED[key]


if __name__ == "__main__":
    out = {key: digest(key) for key in sorted(ENGINES)}
    DATA.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    print(f"wrote {len(out)} digests to {DATA}", file=sys.stderr)
