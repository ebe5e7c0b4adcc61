"""A generic information-set Monte Carlo tree search over the engine protocol: the tree and its loop.

Single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012; the idea of OpenSpiel's ``ismcts.py``, written
afresh): every iteration draws a determinization (``ai/search/determinization.py``) and walks one shared
tree whose nodes are information sets keyed by the actions taken since the root (every action in these games
is announced to all seats). Selection is UCT with availability counts (``ai/search/policy.py``), one node is
added per iteration, the sample is played out by the rollout policy (``ai/search/rollout.py``), and each
seat on the path is credited with its own reward. Several seats in ``to_act`` act in seat order, one at a
time, as the engines allow.
"""

from __future__ import annotations

import time
from typing import Any

from ai.evaluate import EVALUATIONS
from ai.search import policy as P
from ai.search.config import Action, Game, SearchConfig
from ai.search.determinization import determinizer, fingerprint
from ai.search.rollout import playout, rollout_policy
from engines.rng import Rng

#: a path through the tree: per step, the node, the action's key and the seat that took it
Path = list[tuple["Node", str, int]]


class Node:
    """One information set: per action key, its :class:`~ai.search.policy.Edge`."""

    __slots__ = ("edges",)

    def __init__(self) -> None:
        self.edges: dict[str, P.Edge] = {}

    def offer(self, options: list[Action]) -> list[tuple[str, Action]]:
        """The keyed legal ``options`` of this visit; each counts one more availability."""
        keyed = [(P.key(a), a) for a in options]
        for k, _ in keyed:
            edge = self.edges.get(k)
            if edge is None:
                self.edges[k] = P.Edge()
            else:
                edge.available += 1
        return keyed


class Tree:
    """The shared tree of one search: nodes by the history of action keys since the root."""

    def __init__(self, config: SearchConfig, root_keys: set[str] | None, prior_key: str | None) -> None:
        self.nodes: dict[tuple, Node] = {}
        self.config = config
        self.root_keys = root_keys
        self.prior_key = prior_key

    def descend(self, engine: Game, state: Any, rng: Rng) -> tuple[tuple, Path]:
        """Selection and expansion on ``state`` (a sample, changed in place) until a node is added or an
        untried action taken: the history of keys walked and the path to back up."""
        history: tuple = ()
        path: Path = []
        expanded = False
        while not expanded:
            acting = engine.to_act(state)
            if not acting or (self.config.flat and history):
                break
            p = min(acting)
            node = self.nodes.get(history)
            if node is None:
                node = self.nodes[history] = Node()
                expanded = True
            k, a, tried = self._edge(node, self._options(engine, state, p, history), history, rng)
            expanded = expanded or tried
            path.append((node, k, p))
            engine.apply(state, p, a)
            history = history + (k,)
        return history, path

    def _options(self, engine: Game, state: Any, p: int, history: tuple) -> list[Action]:
        options = engine.legal_actions(state, p)
        if self.root_keys is not None and not history:
            options = [a for a in options if P.key(a) in self.root_keys] or options
        return options

    def _edge(self, node: Node, options: list[Action], history: tuple, rng: Rng) -> tuple[str, Action, bool]:
        """The edge to follow: an untried action (the prior first at the root, else a random one; the
        iteration's expansion) or the best by UCT."""
        keyed = node.offer(options)
        untried = [(k, a) for k, a in keyed if node.edges[k].visits == 0]
        if untried:
            pick = next((ka for ka in untried if ka[0] == self.prior_key), None) if not history else None
            k, a = pick or untried[rng.below(len(untried))]
            return k, a, True
        c = self.config.exploration
        k, a = max(keyed, key=lambda ka: P.ucb(node.edges[ka[0]], c))
        return k, a, False

    @staticmethod
    def backup(path: Path, reward: list[float] | None) -> None:
        """Credit each step's seat with its own reward (a draw's when the playout could not be scored)."""
        for node, k, p in path:
            edge = node.edges[k]
            edge.visits += 1
            edge.total += reward[p] if reward is not None else 0.5

    def best(self, legal: list[Action]) -> Action:
        """The root's final choice: the most visited action (then the better mean, then the prior)."""
        root = self.nodes[()].edges
        return max(legal, key=lambda a: P.final_rank(root.get(P.key(a)), P.key(a) == self.prior_key))


def search(engine: Game, state: Any, seat: int, rng: Rng, config: SearchConfig | None = None) -> Action:
    """Run IS-MCTS for ``seat`` from ``state`` with ``config`` (:class:`~ai.search.config.SearchConfig`) and
    return the chosen action. The prior, when given, is tried first and kept unless the search's pick beats
    it by ``config.margin`` standard errors: a handful of noisy playouts should not overrule a sound
    heuristic."""
    config = config or SearchConfig()
    legal = P.root_actions(engine, state, seat, config.candidates)
    root_keys = {P.key(a) for a in legal} if config.candidates is not None else None
    if len(legal) == 1:
        return legal[0]
    prior_key = P.key(config.prior) if config.prior is not None else None
    tree = Tree(config, root_keys, prior_key)
    _run(engine, state, seat, rng, config, tree)
    best = tree.best(legal)
    if config.prior is None or prior_key is None or P.key(best) == prior_key:
        return best
    root = tree.nodes[()].edges
    beaten = P.clearly_better(root.get(P.key(best)), root.get(prior_key), config.margin)
    return best if beaten else config.prior


def _run(engine: Game, state: Any, seat: int, rng: Rng, config: SearchConfig, tree: Tree) -> None:
    """The search's iterations within its budget: determinize, descend, play out, back up."""
    determinize = determinizer(engine)
    policy = config.rollout or rollout_policy(engine)
    cut = EVALUATIONS.get(engine.key) if config.evaluation else None
    iterations = config.budget()
    deadline = time.perf_counter() + config.seconds if config.seconds is not None else None
    trace = config.trace
    done = 0
    while True:
        sample = determinize(state, seat, rng)
        if trace is not None:
            trace.append(fingerprint(engine, sample))
        history, path = tree.descend(engine, sample, rng)
        reward = playout(engine, sample, policy, rng, len(path), cut, deadline if done else None)
        if trace is not None:
            trace.append((history, reward))
        tree.backup(path, reward)
        done += 1
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
