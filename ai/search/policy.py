"""Move choice: which root actions are searched, how the tree picks an edge, and which action the search
finally plays against the prior (the heuristic's own choice, kept unless clearly beaten)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from ai.search.config import Action, Game

#: the search overrules its prior only with an action it has tried at least this often
MIN_VISITS = 4


def key(action: Action) -> str:
    """An action's name in the tree (actions are dicts: not hashable)."""
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def root_actions(engine: Game, state: Any, seat: int, candidates: list[Action] | None) -> list[Action]:
    """The legal actions to search: only the ``candidates`` among them when given (all when none is legal)."""
    legal = engine.legal_actions(state, seat)
    if candidates is not None:
        legal = [a for a in candidates if a in legal] or legal
    return legal


@dataclass(slots=True)
class Edge:
    """An action's statistics at one information set: visits, the acting seat's total reward, and in how many
    of the node's visits it was legal (availability: an action legal only in some determinizations)."""

    visits: int = 0
    total: float = 0.0
    available: int = 1

    def mean(self) -> float:
        return self.total / self.visits


def ucb(edge: Edge, c: float) -> float:
    """UCT with availability counts."""
    return edge.total / edge.visits + c * math.sqrt(math.log(max(edge.available, 1)) / edge.visits)


def final_rank(edge: Edge | None, is_prior: bool) -> tuple:
    """The final choice's order: most visited action; then the better mean; then the prior."""
    if edge is None or edge.visits == 0:
        return (0, 0.0, is_prior)
    return (edge.visits, edge.mean(), is_prior)


def clearly_better(edge: Edge | None, base: Edge | None, z: float) -> bool:
    """``edge``'s mean beats ``base``'s by ``z`` standard errors (rewards in [0, 1]: variance <= 1/4)."""
    if edge is None or edge.visits < MIN_VISITS:
        return False
    if base is None or not base.visits:
        return True
    gap = edge.mean() - base.mean()
    return gap > z * math.sqrt(0.25 / edge.visits + 0.25 / base.visits)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def paired_better(samples: list[list[float]], rounds: list[list[int]], a: int, b: int, z: float) -> bool:
    """Candidate ``a`` beats ``b`` by ``z`` standard errors of their difference over the rounds both
    played."""
    mine = dict(zip(rounds[a], samples[a]))
    diffs = [mine[r] - x for r, x in zip(rounds[b], samples[b]) if r in mine]
    n = len(diffs)
    if n < MIN_VISITS:
        return False
    avg = sum(diffs) / n
    var = sum((d - avg) ** 2 for d in diffs) / (n - 1)
    return avg > z * math.sqrt(var / n) and avg > 0
