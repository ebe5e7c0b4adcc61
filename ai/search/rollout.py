"""Simulation: the policies that play a sample out past the tree, the playouts, and how they are scored.

A playout is scored by the final places of a finished game (each seat's share of the seats it finished
ahead of) or, where it was cut short, by the game's cheap evaluation (``ai/evaluate.py``).
"""

from __future__ import annotations

import time
from typing import Any

from ai.evaluate import Evaluation, reward_of_places
from ai.players import AI_PLAYERS, ROLLOUT_PLAYERS, Chooser
from ai.search.config import Action, Game, Policy
from engines.rng import Rng

#: a playout's length when the engine names no bound of its own
MAX_STEPS = 20_000


def rewards(engine: Game, state: Any) -> list[float]:
    """Each seat's reward in [0, 1]: the share of other seats it finished ahead of (a tie counts half)."""
    result = engine.result(state)
    assert result is not None, "only a finished game has places"
    return reward_of_places(result["places"])


def heuristic(engine: Game) -> Chooser | None:
    """The game's own AI (``ai/<game>.py``), None for a game without one."""
    return AI_PLAYERS.get(engine.key)


def max_steps(engine: Game) -> int:
    """The longest playout: the engine's own bound when it names one."""
    bound = getattr(engine, "max_playout_steps", None)
    return bound() if bound is not None else MAX_STEPS


def rollout_policy(engine: Game, epsilon: float = 0.15) -> Policy:
    """The game's heuristic AI (in its cheaper rollout form where it has one: the same choices), taking a
    random legal action with probability ``epsilon`` (so rollouts differ); a purely random player when the
    game has no heuristic AI."""
    chooser = ROLLOUT_PLAYERS.get(engine.key) or heuristic(engine)

    def policy(state: Any, seat: int, rng: Rng) -> Action:
        legal = engine.legal_actions(state, seat)
        if chooser is None or rng.below(1000) < epsilon * 1000:
            return rng.choice(legal)
        return chooser(engine, state, seat, rng)

    return policy


def random_rollout(engine: Game) -> Policy:
    """Uniformly random playouts: cheap, so many more iterations fit in the budget."""
    return lambda state, seat, rng: rng.choice(engine.legal_actions(state, seat))


def playout(engine: Game, state: Any, policy: Policy, rng: Rng, steps: int, cut: Evaluation | None,
            deadline: float | None) -> list[float] | None:
    """Play ``state`` on past the tree (``steps`` actions into the iteration) with ``policy``: to the end of
    the game, or, with a ``cut``, to the end of the current stage or the cut's depth of actions, or until the
    ``deadline`` (then scored where it stands: HEX-TRI moves can be slow). Each seat's reward, or None when
    the playout ran into the game's step bound unfinished and uncut."""
    limit = max_steps(engine)
    stage = cut.stage(state) if cut else None
    stop = steps + cut.depth if cut else limit
    while steps < limit:
        acting = engine.to_act(state)
        if not acting or (cut and (steps >= stop or cut.stage(state) != stage)):
            break
        if cut and deadline is not None and time.perf_counter() >= deadline:
            break
        p = min(acting)
        engine.apply(state, p, policy(state, p, rng))
        steps += 1
    if engine.result(state) is not None:
        return rewards(engine, state)
    return cut.evaluate(engine, state) if cut else None


def paired_playout(engine: Game, state: Any, policy: Policy, rng: Rng, limit: int,
                   stage: tuple[Evaluation, int] | None) -> int:
    """Play ``state`` on with ``policy`` (a lone legal action is taken without asking it) for at most
    ``limit`` actions, or to the end of the current stage when ``stage`` gives the game's evaluation and the
    stage the playout started in: the actions played."""
    steps = 0
    while steps < limit:
        acting = engine.to_act(state)
        if not acting or (stage and stage[0].stage(state) != stage[1]):
            break
        p = min(acting)
        options = engine.legal_actions(state, p)
        engine.apply(state, p, options[0] if len(options) == 1 else policy(state, p, rng))
        steps += 1
    return steps


def paired_reward(engine: Game, state: Any, seat: int, evaluation: Evaluation | None, stage: bool) -> float:
    """``seat``'s reward for a paired playout: the places of a finished game (unless stages are scored), else
    the game's evaluation, else a draw's."""
    if engine.result(state) is not None and not stage:
        return rewards(engine, state)[seat]
    if evaluation:
        return evaluation.evaluate(engine, state)[seat]
    return 0.5
