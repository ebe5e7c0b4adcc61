"""The hard AI level: per game, which search (IS-MCTS, paired playouts or the game's own), its shape, rollout
policy, margin and budget, with the game's heuristic AI as prior and its shortlist of root candidates."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ai import hextri_search, levels
from ai.evaluate import CANDIDATES
from ai.search.config import Action, Game, PairedConfig, SearchConfig
from ai.search.ismcts import search
from ai.search.paired_playouts import paired
from ai.search.rollout import heuristic, random_rollout, rollout_policy
from engines.rng import Rng


def choose(engine: Game, state: Any, seat: int, rng: Rng, *, iterations: int | None = None,
           seconds: float | None = None, rollout: str = "heuristic", margin: float = 1.0,
           actions: int | None = None, trace: list | None = None) -> Action:
    """The hard AI: the game's search (:data:`SEARCHERS`, else the shape in :data:`SHAPES`: IS-MCTS or paired
    playouts) with the heuristic's own choice as prior, over the game's candidate moves (``ai/evaluate.py``).
    ``rollout``: "heuristic" or "random". ``actions``: the budget in actions played out, for paired playouts.
    ``trace``: see :class:`~ai.search.config.Common` (not kept by a game's own searcher)."""
    searcher = SEARCHERS.get(engine.key)
    if searcher is not None:
        return searcher(engine, state, seat, rng, iterations=iterations, seconds=seconds)
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    chooser = heuristic(engine)
    prior = chooser(engine, state, seat, Rng(rng.next64())) if chooser else None
    candidates = _candidates(engine, state, seat, rng, prior)
    shape = SHAPES.get(engine.key, SearchConfig())
    if isinstance(shape, PairedConfig):
        policy = random_rollout(engine) if rollout == "random" else rollout_policy(engine, 0.0)
        return paired(engine, state, seat, rng, replace(
            shape, iterations=iterations, seconds=seconds, rollout=policy, prior=prior, margin=margin,
            candidates=candidates, trace=trace, actions=actions))
    policy = random_rollout(engine) if rollout == "random" else rollout_policy(engine)
    return search(engine, state, seat, rng, replace(
        shape, iterations=iterations, seconds=seconds, rollout=policy, prior=prior, margin=margin,
        candidates=candidates, trace=trace))

def _candidates(engine: Game, state: Any, seat: int, rng: Rng, prior: Action | None) -> list[Action] | None:
    """The game's shortlist of root actions (None: all), the heuristic's own choice always among them."""
    shortlist = CANDIDATES.get(engine.key)
    if shortlist is None:
        return None
    candidates = shortlist(engine, state, seat, rng)
    if prior is not None and prior not in candidates:
        candidates.append(prior)
    return candidates


def hard_budget(engine: Game) -> dict:
    """The hard level's settings for ``engine`` (:func:`choose`'s keyword arguments): the game's iterations
    (about a second), a wall-clock cap, the game's budget of actions, rollout and margin."""
    return {"seconds": levels.HARD_SECONDS,
            "iterations": levels.HARD_ITERATIONS.get(engine.key, levels.DEFAULT_HARD_ITERATIONS),
            "actions": levels.HARD_ACTIONS.get(engine.key),
            "rollout": ROLLOUTS.get(engine.key, "heuristic"), "margin": MARGINS.get(engine.key, 1.0)}


#: per game, a search of its own instead of IS-MCTS (``choose(engine, state, seat, rng, *, iterations,
#: seconds)``): HEX-TRI's rollouts to the end of the game, ``ai/hextri_search.py``
#: (the game's entries in SHAPES, MARGINS and ai/evaluate.py then serve only a direct call of a search)
SEARCHERS = {"hextri": hextri_search.choose}


#: per game, the search's shape (default: IS-MCTS with evaluated cut-offs, :class:`SearchConfig`): HEX-TRI's
#: thousands of replies leave a deeper tree all but empty, so its search is flat (the root's candidates, then
#: heuristic playouts). :class:`PairedConfig`: no tree but paired playouts: Troja is luck-heavy and short
#: (~190 actions, ~14 ms with the heuristic), so every candidate is played to the end of the game from the
#: same samples; a tree search with evaluated cut-offs scored 50% against normal in every setting tried, and
#: cut-offs (2 or 1 rounds) missed the moves that whole-game playouts found; Ave Caesar too: its races are
#: short (~140 actions, ~20 ms with the heuristic), so every candidate is played to the end of the race from
#: the same samples and scored by the laurels won and to come (``ai/evaluate.py``); IS-MCTS scored by the
#: race's places won 1 game in 4 against normal
SHAPES: dict[str, SearchConfig | PairedConfig] = {
    "hextri": SearchConfig(flat=True), "troja": PairedConfig(), "ave-caesar": PairedConfig(stage=True)}


#: per game, the rollout policy: random playouts (many more per second) did worse than the heuristic in the
#: arena for Troja and Hector and Achilles; in Ave Caesar random races even run longer (~0.3 s, against ~0.2 s)
ROLLOUTS = {"hector-achilles": "heuristic", "troja": "heuristic", "ave-caesar": "heuristic", "hextri": "heuristic",
            "kivalasztottak": "heuristic"}


#: per game, how many standard errors the search's pick must beat the heuristic's by (the configs'
#: ``margin``): at one, Kiválasztottak's search never overruled its heuristic (0 of 40 decisions)
#: Troja at 0.5 (paired differences, 150 playouts): 16 of 24 arena games against normal, against 14 of 24 at one
#: standard error and 100 playouts
MARGINS = {"kivalasztottak": 0.3, "hextri": 0.3, "troja": 0.5}
