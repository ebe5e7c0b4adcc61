"""The searches' settings as typed values: what a caller may tune, in one place per search.

:class:`SearchConfig` drives the IS-MCTS tree search (``ai/search/ismcts.py``), :class:`PairedConfig` the
paired flat Monte Carlo (``ai/search/paired_playouts.py``); both share the budget, the rollout policy, the
prior, the root candidates, the margin and the trace of :class:`Common`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from engines.rng import Rng

Action = dict
#: a rollout (simulation) policy: ``(state, seat, rng) -> action``
Policy = Callable[[Any, int, Rng], Action]

#: UCT's exploration constant
EXPLORATION = 0.7
#: iterations when a caller gives neither iterations nor seconds
DEFAULT_ITERATIONS = 100


class Game(Protocol):
    """What the searches use of an engine (``engines/base.py``; also ``max_playout_steps`` when it has
    one)."""

    key: str

    def legal_actions(self, state: Any, seat: int) -> list[dict]: ...

    def to_act(self, state: Any) -> list[int]: ...

    def apply(self, state: Any, seat: int, action: dict) -> list[dict]: ...

    def result(self, state: Any) -> dict | None: ...

    def to_json(self, state: Any) -> Any: ...

    def from_json(self, data: Any) -> Any: ...


@dataclass(frozen=True, kw_only=True)
class Common:
    """Settings both searches share.

    Budget: stop after ``iterations`` or ``seconds`` of wall time, whichever comes first (at least one
    iteration; 100 iterations when neither is given). ``rollout(state, seat, rng) -> action`` plays the
    simulations (default: the game's heuristic, ``ai/search/rollout.py``). ``prior`` (e.g. the heuristic's
    choice) is kept unless the search's pick beats it by ``margin`` standard errors. ``candidates``: only
    these root actions are searched. ``trace``: a list that gets, per iteration, a fingerprint of the sample
    drawn and what was backed up (tests compare the traces of two searches).
    """

    iterations: int | None = None
    seconds: float | None = None
    rollout: Policy | None = None
    prior: Action | None = None
    margin: float = 1.0
    candidates: list[Action] | None = None
    trace: list | None = field(default=None, compare=False)

    def budget(self) -> int | None:
        """The iterations to run: the default when neither iterations nor seconds bound the search."""
        if self.iterations is None and self.seconds is None:
            return DEFAULT_ITERATIONS
        return self.iterations


@dataclass(frozen=True, kw_only=True)
class SearchConfig(Common):
    """IS-MCTS (:func:`ai.search.search`). ``exploration``: UCT's constant. ``evaluation``: cut playouts short
    where the game has a cheap evaluation (``ai/evaluate.py``: at the end of the current stage - battle,
    round, race - or after the game's depth of actions past the tree) and score the sample with it.
    ``flat``: the tree is the root alone, the rollout policy plays every later move."""

    exploration: float = EXPLORATION
    evaluation: bool = True
    flat: bool = False


@dataclass(frozen=True, kw_only=True)
class PairedConfig(Common):
    """Paired flat Monte Carlo (:func:`ai.search.paired`). ``iterations`` counts playouts (one candidate
    each). ``depth``: a playout stops after this many actions and is scored by the game's evaluation.
    ``prune``: every ``check_every`` rounds a candidate trailing the best by this many standard errors of
    their paired difference is dropped (None: never). ``stage``: a playout also stops at the end of the
    current stage (Ave Caesar's race) and every playout is scored by the evaluation. ``actions``: a budget
    in actions played out in all (rounds are finished)."""

    depth: int | None = None
    prune: float | None = 2.0
    check_every: int = 8
    stage: bool = False
    actions: int | None = None
