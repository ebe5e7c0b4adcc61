"""Paired flat Monte Carlo with common random numbers: no tree, every root candidate played out from the
same samples with the same rollout seed, compared by their per-sample differences.

Every round draws one determinization (``ai/search/determinization.py``: hidden cards redealt, the engine's
future chance reseeded) and one rollout seed, and plays each candidate still in the running out from that
sample with that seed (``ai/search/rollout.py``), so the luck of the deal and the dice, shared by all, cancels
out of the comparison (``ai/search/policy.py``: ``paired_better``).
"""

from __future__ import annotations

import time
from typing import Any

from ai.evaluate import EVALUATIONS, Evaluation
from ai.search import policy as P
from ai.search.config import Action, Game, PairedConfig, Policy
from ai.search.determinization import determinizer, fingerprint
from ai.search.rollout import max_steps, paired_playout, paired_reward, rollout_policy
from engines.rng import Rng


class Tally:
    """Per candidate, its reward in each round it played and those rounds (pairs match on them), and the
    candidates still in the running."""

    def __init__(self, legal: list[Action], prior: Action | None) -> None:
        self.keys = [P.key(a) for a in legal]
        self.prior_key = P.key(prior) if prior is not None and prior in legal else None
        self.alive = list(range(len(legal)))
        self.samples: list[list[float]] = [[] for _ in legal]
        self.rounds: list[list[int]] = [[] for _ in legal]

    def record(self, i: int, r: int, reward: float) -> None:
        self.samples[i].append(reward)
        self.rounds[i].append(r)

    def better(self, a: int, b: int, z: float) -> bool:
        return P.paired_better(self.samples, self.rounds, a, b, z)

    def prune(self, z: float) -> None:
        """Drop every candidate whose mean trails the best one by more than ``z`` standard errors of their
        paired difference (the prior never is)."""
        top = max(self.alive, key=lambda i: P.mean(self.samples[i]))
        self.alive = [i for i in self.alive
                      if i == top or self.keys[i] == self.prior_key or not self.better(top, i, z)]

    def choice(self, margin: float) -> int:
        """The best mean (the prior on a tie), unless the prior stands: it is kept unless the best beats it by
        ``margin`` standard errors of the paired difference."""
        best = max(self.alive, key=lambda i: (P.mean(self.samples[i]), self.keys[i] == self.prior_key))
        if self.prior_key is None or self.keys[best] == self.prior_key:
            return best
        base = self.keys.index(self.prior_key)
        return best if self.better(best, base, margin) else base


class _Round:
    """What every playout of a search shares: the policy, the depth, the stage to stay in, the scoring."""

    def __init__(self, engine: Game, state: Any, seat: int, config: PairedConfig) -> None:
        self.engine, self.seat = engine, seat
        self.policy: Policy = config.rollout or rollout_policy(engine, 0.0)
        evaluation = EVALUATIONS.get(engine.key) if config.depth is not None or config.stage else None
        self.evaluation: Evaluation | None = evaluation
        self.depth = config.depth if evaluation is not None else None
        self.stage = config.stage and evaluation is not None
        self.start = evaluation.stage(state) if evaluation is not None and self.stage else None
        self.limit = self.depth or max_steps(engine)

    def play(self, sample: Any, action: Action, seed: int) -> tuple[float, int]:
        """One candidate played out from ``sample`` with the round's ``seed``: its reward, actions played."""
        engine = self.engine
        s = engine.from_json(sample)
        engine.apply(s, self.seat, action)
        stage = None
        if self.stage and self.evaluation is not None and self.start is not None:
            stage = (self.evaluation, self.start)
        steps = paired_playout(engine, s, self.policy, Rng(seed), self.limit, stage)
        return paired_reward(engine, s, self.seat, self.evaluation, self.stage), steps + 1


def paired(engine: Game, state: Any, seat: int, rng: Rng, config: PairedConfig | None = None) -> Action:
    """The chosen action for ``seat`` by paired flat Monte Carlo with ``config``
    (:class:`~ai.search.config.PairedConfig`).

    ``iterations`` counts playouts (one candidate each), so the budget does not grow with the number of legal
    actions; ``actions`` bounds the actions played out in all (rounds are finished: pairs match), so a
    decision early in a game, whose playouts are long, stops after fewer of them. Every ``check_every``
    rounds the clearly worse candidates are pruned; the search stops once only one is left.
    """
    config = config or PairedConfig()
    legal = P.root_actions(engine, state, seat, config.candidates)
    if len(legal) == 1:
        return legal[0]
    tally = Tally(legal, config.prior)
    _run(engine, state, seat, rng, config, legal, tally)
    return legal[tally.choice(config.margin)]


def _run(engine: Game, state: Any, seat: int, rng: Rng, config: PairedConfig, legal: list[Action],
         tally: Tally) -> None:
    """The rounds within the budget: one sample and one seed each, every candidate alive played out."""
    determinize = determinizer(engine)
    rounds = _Round(engine, state, seat, config)
    iterations = config.budget()
    deadline = time.perf_counter() + config.seconds if config.seconds is not None else None
    trace = config.trace
    done = played = r = 0
    while True:
        sample = determinize(state, seat, Rng(rng.next64()))
        if trace is not None:
            trace.append(fingerprint(engine, sample))
        seed = rng.next64()
        for i in tally.alive:
            reward, steps = rounds.play(sample, legal[i], seed)
            played += steps
            tally.record(i, r, reward)
            if trace is not None:
                trace.append((tally.keys[i], reward))
            done += 1
            if r and deadline is not None and time.perf_counter() >= deadline:
                break  # out of time within a round (a loaded host): pairs match on the rounds both played
        r += 1
        if _spent(config, iterations, done, played, deadline):
            break
        if config.prune is not None and r % config.check_every == 0 and len(tally.alive) > 1:
            tally.prune(config.prune)
            if len(tally.alive) == 1:
                break  # decided (the prior is never dropped): the rest of the budget would change nothing


def _spent(config: PairedConfig, iterations: int | None, done: int, played: int,
           deadline: float | None) -> bool:
    """Whether the budget is used up: playouts, actions played out or wall time."""
    if iterations is not None and done >= iterations:
        return True
    if config.actions is not None and played >= config.actions:
        return True
    return deadline is not None and time.perf_counter() >= deadline
