"""A generic information-set Monte Carlo tree search player over the engine protocol.

Single-observer IS-MCTS (Cowling, Powley & Whitehouse 2012; the idea of OpenSpiel's ``ismcts.py``, written
afresh): every iteration draws a determinization - a full state the searching seat cannot tell from the real
one (``engines/<game>/determinize.py``; perfect-information games just copy the state, which is plain MCTS) -
and walks one shared tree whose nodes are information sets keyed by the actions taken since the root (every
action in these games is announced to all seats). Selection is UCT with availability counts (an action
legal in only some determinizations is judged by how often it was available), one node is added per
iteration, the game is played out by a rollout policy (the game's heuristic AI, sometimes a random legal
action, or purely random), and each seat on the path is credited with its own reward from the final places.
Several seats in ``to_act`` act in seat order, one at a time, as the engines allow.

The search never reads hidden cards: the real state is only ever passed to the determinizer, whose sample
depends on what the seat can see and on ``rng``.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import math
import time

from ai.evaluate import EVALUATIONS
from engines.rng import Rng

EXPLORATION = 0.7
#: the search overrules its prior only with an action it has tried at least this often
MIN_VISITS = 4


def _determinizer(engine):
    """The game's ``determinize(state, seat, rng)``, or a plain copy for perfect-information games."""
    package = type(engine).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.determinize").determinize
    except ModuleNotFoundError:
        return lambda state, seat, rng: engine.from_json(engine.to_json(state))


def _key(action: dict) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def rewards(engine, state) -> list[float]:
    """Each seat's reward in [0, 1]: the share of other seats it finished ahead of (a tie counts half)."""
    return _reward_of_places(engine.result(state)["places"])


def _reward_of_places(places: list[int]) -> list[float]:
    n = len(places)
    if n < 2:
        return [1.0] * n
    return [(sum(1 for q in places if q > p) + 0.5 * (sum(1 for q in places if q == p) - 1)) / (n - 1)
            for p in places]


class _Node:
    """One information set: per action key, [visits, total reward of the acting seat, availability]."""

    __slots__ = ("stats",)

    def __init__(self) -> None:
        self.stats: dict[str, list] = {}


def _heuristic(engine):
    from ai import AI_PLAYERS  # late: ai/__init__ discovers this module too

    return AI_PLAYERS.get(engine.key)


def rollout_policy(engine, epsilon: float = 0.15):
    """The game's heuristic AI, taking a random legal action with probability ``epsilon`` (so rollouts
    differ); a purely random player when the game has no heuristic AI."""
    heuristic = _heuristic(engine)

    def policy(state, seat, rng):
        legal = engine.legal_actions(state, seat)
        if heuristic is None or rng.below(1000) < epsilon * 1000:
            return rng.choice(legal)
        return heuristic(engine, state, seat, rng)

    return policy


def search(engine, state, seat: int, rng, *, iterations: int | None = None, seconds: float | None = None,
           rollout=None, prior: dict | None = None, exploration: float = EXPLORATION,
           margin: float = 1.0, evaluation: bool = True, candidates: list | None = None,
           flat: bool = False, trace: list | None = None) -> dict:
    """Run IS-MCTS for ``seat`` from ``state`` and return the chosen action.

    Budget: stop after ``iterations`` iterations or ``seconds`` of wall time, whichever comes first (at least
    one iteration). ``rollout(state, seat, rng) -> action`` plays the simulations (default: heuristic with
    some random moves). ``prior``, when given (e.g. the heuristic's choice), is tried first and is kept
    unless the search's pick beats it by ``margin`` standard errors: a handful of noisy playouts should not
    overrule a sound heuristic. ``evaluation``: cut playouts short where the game has a cheap evaluation
    (``ai/evaluate.py``: at the end of the current stage - battle, round, race - or after the game's depth
    of actions past the tree) and score the sample with it, so many more iterations fit in the budget.
    ``candidates``: only these root actions are searched (a game with thousands of moves searches the
    heuristic's best few); ``flat``: the tree is the root alone, the rollout policy plays every later move.
    ``trace``: a list that gets, per iteration, a digest of the sample it drew, the actions of its tree path
    and the rewards it backed up (tests compare the traces of two searches).
    """
    legal = engine.legal_actions(state, seat)
    if candidates is not None:
        legal = [a for a in candidates if a in legal] or legal
    root_keys = {_key(a) for a in legal} if candidates is not None else None
    if len(legal) == 1:
        return legal[0]
    if iterations is None and seconds is None:
        iterations = 100
    determinize = _determinizer(engine)
    policy = rollout or rollout_policy(engine)
    limit = engine.max_playout_steps() if hasattr(engine, "max_playout_steps") else 20_000
    prior_key = _key(prior) if prior is not None else None
    tree: dict[tuple, _Node] = {}
    deadline = time.perf_counter() + seconds if seconds is not None else None
    done = 0
    while True:
        s = determinize(state, seat, rng)
        if trace is not None:
            trace.append(_digest(engine, s))
        history: tuple = ()
        path: list[tuple[_Node, str, int]] = []
        expanded = False
        steps = 0
        while not expanded:
            acting = engine.to_act(s)
            if not acting or (flat and history):
                break
            p = min(acting)
            options = engine.legal_actions(s, p)
            if root_keys is not None and not history:
                options = [a for a in options if _key(a) in root_keys] or options
            node = tree.get(history)
            if node is None:
                node = tree[history] = _Node()
                expanded = True
            stats = node.stats
            keyed = [(_key(a), a) for a in options]
            for k, _ in keyed:
                entry = stats.get(k)
                if entry is None:
                    stats[k] = [0, 0.0, 1]
                else:
                    entry[2] += 1
            untried = [(k, a) for k, a in keyed if stats[k][0] == 0]
            if untried:
                pick = next((ka for ka in untried if ka[0] == prior_key), None) if not history else None
                k, a = pick or untried[rng.below(len(untried))]
                expanded = True
            else:
                k, a = max(keyed, key=lambda ka: _ucb(stats[ka[0]], exploration))
            path.append((node, k, p))
            engine.apply(s, p, a)
            history = history + (k,)
            steps += 1
        cut = EVALUATIONS.get(engine.key) if evaluation else None
        stage = cut[0](s) if cut else None
        stop = steps + cut[2] if cut else limit
        while steps < limit:
            acting = engine.to_act(s)
            if not acting or (cut and (steps >= stop or cut[0](s) != stage)):
                break
            if cut and deadline is not None and done and time.perf_counter() >= deadline:
                break  # out of time: score the playout where it stands (HEX-TRI moves can be slow)
            p = min(acting)
            engine.apply(s, p, policy(s, p, rng))
            steps += 1
        if engine.result(s) is not None:
            reward = rewards(engine, s)
        elif cut:
            reward = cut[1](engine, s)
        else:
            reward = None
        if trace is not None:
            trace.append((history, reward))
        for node, k, p in path:
            entry = node.stats[k]
            entry[0] += 1
            entry[1] += reward[p] if reward is not None else 0.5
        done += 1
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    root = tree[()].stats
    best = max(legal, key=lambda a: _final(root.get(_key(a)), _key(a) == prior_key))
    if prior is not None and _key(best) != prior_key and not _clearly_better(root.get(_key(best)),
                                                                             root.get(prior_key), margin):
        return prior
    return best


def paired(engine, state, seat: int, rng, *, iterations: int | None = None, seconds: float | None = None,
           rollout=None, prior: dict | None = None, margin: float = 1.0, candidates: list | None = None,
           depth: int | None = None, prune: float | None = 2.0, check_every: int = 8,
           stage: bool = False, actions: int | None = None, trace: list | None = None) -> dict:
    """Paired flat Monte Carlo with common random numbers: the chosen action for ``seat``.

    Every iteration draws one determinization (``engines/<game>/determinize.py``: hidden cards redealt, the
    engine's future chance reseeded) and one rollout seed, and plays each root candidate out from that same
    sample with that same seed, by ``rollout`` (best a deterministic policy), to the end of the game, or for
    at most ``depth`` actions, then scored by the game's evaluation (``ai/evaluate.py``). Candidates are
    compared by their per-sample *differences* from the prior, so the luck of the deal and the dice, shared
    by all, cancels out of the comparison. ``iterations`` counts playouts (one candidate each), so the
    budget does not grow with the number of legal actions; ``actions`` bounds the actions played out in all
    (rounds are finished: pairs match), so a decision early in a game, whose playouts are long, stops after
    fewer of them and its CPU time stays bounded. Every ``check_every`` rounds a candidate whose
    mean trails the best one by more than ``prune`` standard errors of their paired difference is dropped
    (the prior never is). The prior is kept unless the best candidate beats it by ``margin`` standard errors
    of the paired difference. ``stage``: a playout also stops at the end of the current stage of the game
    (``ai/evaluate.py``: Ave Caesar's race), and every playout, finished games included, is scored by the
    game's evaluation (a margin, finer than the places). ``trace``: a list that gets, per round, a digest of
    the sample, then each candidate's reward (tests compare the traces of two searches).
    """
    legal = engine.legal_actions(state, seat)
    if candidates is not None:
        legal = [a for a in candidates if a in legal] or legal
    if len(legal) == 1:
        return legal[0]
    if iterations is None and seconds is None:
        iterations = 100
    determinize = _determinizer(engine)
    policy = rollout or rollout_policy(engine, 0.0)
    limit = engine.max_playout_steps() if hasattr(engine, "max_playout_steps") else 20_000
    evaluation = EVALUATIONS.get(engine.key) if depth is not None or stage else None
    if evaluation is None:
        depth, stage = None, False
    start = evaluation[0](state) if stage else None
    keys = [_key(a) for a in legal]
    prior_key = _key(prior) if prior is not None and prior in legal else None
    alive = list(range(len(legal)))
    samples: list[list[float]] = [[] for _ in legal]  # per candidate, its reward in each round it played
    rounds: list[list[int]] = [[] for _ in legal]  # per candidate, the rounds it played (pairs match on these)
    deadline = time.perf_counter() + seconds if seconds is not None else None
    done = played = 0
    r = 0
    while True:
        sample = determinize(state, seat, Rng(rng.next64()))
        if trace is not None:
            trace.append(_digest(engine, sample))
        seed = rng.next64()
        for i in alive:
            s = engine.from_json(sample)
            engine.apply(s, seat, legal[i])
            roll = Rng(seed)
            steps = 0
            while steps < (depth or limit):
                acting = engine.to_act(s)
                if not acting or (stage and evaluation[0](s) != start):
                    break
                p = min(acting)
                options = engine.legal_actions(s, p)
                engine.apply(s, p, options[0] if len(options) == 1 else policy(s, p, roll))
                steps += 1
            played += steps + 1
            if engine.result(s) is not None and not stage:
                reward = rewards(engine, s)[seat]
            elif evaluation:
                reward = evaluation[1](engine, s)[seat]
            else:
                reward = 0.5
            samples[i].append(reward)
            rounds[i].append(r)
            if trace is not None:
                trace.append((keys[i], reward))
            done += 1
            if r and deadline is not None and time.perf_counter() >= deadline:
                break  # out of time within a round (a loaded host): pairs match on the rounds both played
        r += 1
        if (iterations is not None and done >= iterations) or (actions is not None and played >= actions) or (
                deadline is not None and time.perf_counter() >= deadline):
            break
        if prune is not None and r % check_every == 0 and len(alive) > 1:
            top = max(alive, key=lambda i: _mean(samples[i]))
            alive = [i for i in alive if i == top or keys[i] == prior_key
                     or not _paired_better(samples, rounds, top, i, prune)]
            if len(alive) == 1:
                break  # decided (the prior is never dropped): the rest of the budget would change nothing
    best = max(alive, key=lambda i: (_mean(samples[i]), keys[i] == prior_key))
    if prior_key is None or keys[best] == prior_key:
        return legal[best]
    base = keys.index(prior_key)
    return legal[best] if _paired_better(samples, rounds, best, base, margin) else legal[base]


def _digest(engine, state) -> str:
    """A short fingerprint of a whole state (for traces)."""
    return hashlib.sha256(json.dumps(engine.to_json(state), sort_keys=True).encode()).hexdigest()[:16]


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _paired_better(samples: list, rounds: list, a: int, b: int, z: float) -> bool:
    """Candidate ``a`` beats ``b`` by ``z`` standard errors of their difference over the rounds both played."""
    mine = dict(zip(rounds[a], samples[a]))
    diffs = [mine[r] - x for r, x in zip(rounds[b], samples[b]) if r in mine]
    n = len(diffs)
    if n < MIN_VISITS:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(var / n) and mean > 0


def _clearly_better(entry: list | None, base: list | None, z: float) -> bool:
    """``entry``'s mean beats ``base``'s by ``z`` standard errors (rewards in [0, 1]: variance <= 1/4)."""
    if entry is None or entry[0] < MIN_VISITS:
        return False
    if base is None or not base[0]:
        return True
    gap = entry[1] / entry[0] - base[1] / base[0]
    return gap > z * math.sqrt(0.25 / entry[0] + 0.25 / base[0])


def _ucb(entry: list, c: float) -> float:
    n, w, avail = entry
    return w / n + c * math.sqrt(math.log(max(avail, 1)) / n)


def _final(entry: list | None, is_prior: bool) -> tuple:
    """Most visited action; then the better mean; then the prior."""
    if entry is None or entry[0] == 0:
        return (0, 0.0, is_prior)
    return (entry[0], entry[1] / entry[0], is_prior)


def random_rollout(engine):
    """Uniformly random playouts: cheap, so many more iterations fit in the budget."""
    return lambda state, seat, rng: rng.choice(engine.legal_actions(state, seat))


def choose(engine, state, seat: int, rng, *, iterations: int | None = None, seconds: float | None = None,
           rollout: str = "heuristic", margin: float = 1.0, actions: int | None = None,
           trace: list | None = None) -> dict:
    """The hard AI: IS-MCTS (``rollout`` "heuristic" or "random"), the heuristic's own choice as prior, over
    the game's candidate moves and tree shape (``ai/evaluate.py``, :data:`SHAPES`). ``actions``: the budget
    in actions played out, for :func:`paired`. ``trace``: see :func:`search` (not kept by a game's own
    searcher, :data:`SEARCHERS`)."""
    from ai.evaluate import CANDIDATES

    searcher = SEARCHERS.get(engine.key)
    if searcher is not None:
        return importlib.import_module(searcher).choose(engine, state, seat, rng, iterations=iterations,
                                                        seconds=seconds)
    heuristic = _heuristic(engine)
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    prior = heuristic(engine, state, seat, Rng(rng.next64())) if heuristic else None
    policy = random_rollout(engine) if rollout == "random" else rollout_policy(engine)
    shortlist = CANDIDATES.get(engine.key)
    candidates = None
    if shortlist is not None:
        candidates = shortlist(engine, state, seat, rng)
        if prior is not None and prior not in candidates:
            candidates.append(prior)
    shape = SHAPES.get(engine.key, {})
    if "paired" in shape:
        return paired(engine, state, seat, rng, iterations=iterations, seconds=seconds, prior=prior,
                      rollout=rollout_policy(engine, 0.0) if rollout != "random" else policy, margin=margin,
                      candidates=candidates, actions=actions, trace=trace, **shape["paired"])
    return search(engine, state, seat, rng, iterations=iterations, seconds=seconds, prior=prior, rollout=policy,
                  margin=margin, candidates=candidates, trace=trace, **shape)


#: per game, a search of its own instead of IS-MCTS (module with ``choose(engine, state, seat, rng, *,
#: iterations, seconds)``): HEX-TRI's rollouts to the end of the game, ``ai/hextri_search.py``
#: (the game's entries in SHAPES, MARGINS and ai/evaluate.py then serve only a direct call of :func:`search`)
SEARCHERS = {"hextri": "ai.hextri_search"}


#: per game, the tree's shape: HEX-TRI's thousands of replies leave a deeper tree all but empty, so its
#: search is flat (the root's candidates, then heuristic playouts). "paired": no tree but :func:`paired`
#: (its keyword arguments): Troja is luck-heavy and short (~190 actions, ~14 ms with the heuristic), so every
#: candidate is played to the end of the game from the same samples; a tree search with evaluated cut-offs
#: scored 50% against normal in every setting tried, and cut-offs (2 or 1 rounds) missed the moves that
#: whole-game playouts found; Ave Caesar too: its races are short (~140 actions, ~20 ms with the heuristic), so
#: every candidate is played to the end of the race from the same samples and scored by the laurels won and
#: to come (``ai/evaluate.py``); IS-MCTS scored by the race's places won 1 game in 4 against normal
SHAPES = {"hextri": {"flat": True}, "troja": {"paired": {}}, "ave-caesar": {"paired": {"stage": True}}}


#: per game, the rollout policy: random playouts (many more per second) did worse than the heuristic in the
#: arena for Troja and Hector and Achilles; in Ave Caesar random races even run longer (~0.3 s, against ~0.2 s)
ROLLOUTS = {"hector-achilles": "heuristic", "troja": "heuristic", "ave-caesar": "heuristic", "hextri": "heuristic",
            "kivalasztottak": "heuristic"}


def hard_budget(engine) -> dict:
    """The hard level's settings for ``engine``: the game's iterations (about a second), a wall-clock cap,
    the game's rollout and margin."""
    from ai import levels

    return {"seconds": levels.HARD_SECONDS,
            "iterations": levels.HARD_ITERATIONS.get(engine.key, levels.DEFAULT_HARD_ITERATIONS),
            "actions": levels.HARD_ACTIONS.get(engine.key),
            "rollout": ROLLOUTS.get(engine.key, "heuristic"), "margin": MARGINS.get(engine.key, 1.0)}


#: per game, how many standard errors the search's pick must beat the heuristic's by (``search``'s
#: ``margin``): at one, Kiválasztottak's search never overruled its heuristic (0 of 40 decisions)
#: Troja at 0.5 (paired differences, 150 playouts): 16 of 24 arena games against normal, against 14 of 24 at one
#: standard error and 100 playouts
MARGINS = {"kivalasztottak": 0.3, "hextri": 0.3, "troja": 0.5}
