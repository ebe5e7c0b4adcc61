"""The AI's searches, along OpenSpiel's seams (``open_spiel/python/algorithms/mcts.py``, ``ismcts.py``):

- ``ismcts.py``: the tree and its loop (IS-MCTS: :func:`search`);
- ``paired_playouts.py``: paired flat Monte Carlo with common random numbers, no tree (:func:`paired`);
- ``rollout.py``: simulation (rollout policies, playouts, their rewards);
- ``policy.py``: move choice (root candidates, UCT, the final pick against the heuristic's prior);
- ``determinization.py``: the samples a seat cannot tell from the real state;
- ``config.py``: the searches' settings (:class:`SearchConfig`, :class:`PairedConfig`);
- ``hard.py``: the hard level (:func:`choose`, :func:`hard_budget`): which search each game uses, and how.

The searches never read hidden cards: the real state is only ever passed to the determinizer, whose sample
depends on what the seat can see and on ``rng``.
"""

from __future__ import annotations

from ai.search.config import PairedConfig, SearchConfig
from ai.search.determinization import determinizer
from ai.search.hard import MARGINS, ROLLOUTS, SEARCHERS, SHAPES, choose, hard_budget
from ai.search.ismcts import search
from ai.search.paired_playouts import paired
from ai.search.rollout import random_rollout, rewards, rollout_policy

__all__ = ["MARGINS", "ROLLOUTS", "SEARCHERS", "SHAPES", "PairedConfig", "SearchConfig", "choose",
           "determinizer", "hard_budget", "paired", "random_rollout", "rewards", "rollout_policy", "search"]
