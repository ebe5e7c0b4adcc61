"""Shared plumbing for engines: validation that leaves the state untouched on any illegal action, and a
small memo so that the legal actions of a state are computed once (the AI, the host and ``apply`` all ask).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from engines.protocol import IllegalAction


def json_text(obj: Any) -> str:
    """``obj`` as compact JSON text (no spaces, non-ASCII characters as they are): what the store saves and the
    workers load, made once per move (issue 29). By orjson, about ten times as fast as the standard library and
    the same text; by the standard library where orjson cannot write ``obj`` (a lone surrogate, an integer past
    64 bits, a type JSON does not have: which then fails as it always did)."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # (orjson.JSONEncodeError)
        pass
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def json_value(text: str | bytes) -> Any:
    """The value of JSON ``text`` (orjson's parser, else, and for what it refuses, the standard library's)."""
    try:
        return orjson.loads(text)
    except ValueError:  # (orjson.JSONDecodeError) e.g. NaN, which the standard library reads
        pass
    return json.loads(text)


def _copy(obj):
    """A copy of a JSON-like value (dicts and lists of plain values), far cheaper than ``copy.deepcopy``."""
    if isinstance(obj, dict):
        return {k: _copy(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_copy(v) for v in obj]
    return obj


class BaseEngine:
    """Implements :meth:`apply` once: check the seat, the shape and legality, then call ``_apply``.

    Subclasses implement ``_legal_actions(state, seat)`` and ``_apply(state, seat, action) -> events`` and
    may override :meth:`validate` when enumerating every legal action would be too expensive (an engine may
    also override ``legal_actions`` itself, as before: then nothing is memoised).

    Memo: facts about one state (its legal actions per seat, and whatever an engine stores with
    :meth:`_memo`) are kept for the state object asked about last, until :meth:`apply` changes that state.
    States change only through ``apply``; code that edits a state by hand (tests building a position) must
    call :meth:`forget` before asking again.
    """

    key = ""
    title = ""
    min_players = 2
    max_players = 2
    rules_version = 1
    #: the kinds of action this game lets a player take back within their own turn (see :meth:`reversible`);
    #: none unless the game lists them
    take_back: frozenset[str] = frozenset()
    #: the state is plain JSON data throughout and ``to_json`` a copy of it: :meth:`json_text` serialises the
    #: state itself, without the copy
    plain_json = False

    # (state object, its memo dict); one slot: playouts and searches ask about one state at a time. The
    # state is referenced so that its id cannot be reused by another object while the slot holds it.
    _memo_slot: tuple[Any, dict] | None = None
    _memo_kept: tuple[Any, dict] | None = None  # the slot _fresh_memo made during the running apply

    #: id(state) -> (state, its memo) for the states whose legal actions were worked out elsewhere
    #: (:meth:`remember_legal`), at most ``KNOWN_STATES``; a state leaves it when ``apply`` changes it
    _known: dict[int, tuple[Any, dict]] | None = None
    KNOWN_STATES = 32

    def _memo(self, state: Any) -> dict:
        """The memo dict of ``state`` (a fresh one when the slot held another state)."""
        slot = self._memo_slot
        if slot is not None and slot[0] is state:
            return slot[1]
        known = self._known.get(id(state)) if self._known else None
        if known is not None and known[0] is state:
            self._memo_slot = known
            return known[1]
        memo: dict = {}
        self._memo_slot = (state, memo)
        return memo

    def remember_legal(self, state: Any, seat: int, legal: list[dict]) -> None:
        """The legal actions of ``seat`` in ``state``, listed elsewhere from an exact copy of it (a worker, from
        its JSON): kept with ``state`` until ``apply`` changes it, so that neither the host's next look at them
        nor ``apply``'s check lists them again (issue 29). The list and its actions become the engine's: read
        only, as :meth:`legal_actions` returns them. (Not for a state of a game that is played by the one slot
        of :meth:`_memo` alone: a search's states never come here.)"""
        if self._known is None:
            self._known = {}
        entry = self._known.get(id(state))
        if entry is None or entry[0] is not state:
            slot = self._memo_slot
            entry = slot if slot is not None and slot[0] is state else (state, {})
            self._known[id(state)] = entry
            while len(self._known) > self.KNOWN_STATES:
                del self._known[next(iter(self._known))]
        entry[1].setdefault(("legal", seat), list(legal))

    def _fresh_memo(self, state: Any) -> dict:
        """An empty memo for ``state``, kept after the running ``apply`` (for facts about the new state)."""
        memo: dict = {}
        self._memo_slot = self._memo_kept = (state, memo)
        return memo

    def forget(self, state: Any = None) -> None:
        """Drop what is remembered about ``state`` (about any state when None)."""
        slot = self._memo_slot
        if slot is not None and (state is None or slot[0] is state):
            self._memo_slot = None
        if self._known:
            if state is None:
                self._known.clear()
            else:
                self._known.pop(id(state), None)

    def to_act(self, state: Any) -> list[int]:  # pragma: no cover - abstract
        """The seats that may act now (see the protocol)."""
        raise NotImplementedError

    def result(self, state: Any) -> dict | None:  # pragma: no cover - abstract
        """The final result, or None while the game goes on (see the protocol)."""
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[dict]:
        memo = self._memo(state)
        key = ("legal", seat)
        actions = memo.get(key)
        if actions is None:
            actions = memo[key] = self._legal_actions(state, seat)
        return list(actions)  # the caller may reorder its list; the action dicts are shared, read-only

    def legal_copy(self, state: Any, seat: int) -> list[dict]:
        """The legal actions as new objects, for views that leave the engine (callers may change them)."""
        return [_copy(a) for a in self.legal_actions(state, seat)]

    def variants(self, state: Any, seat: int, action: dict, limit: int = 25) -> list[dict]:
        """The listed ``action`` and the other forms of it a player may choose instead (see the protocol):
        an engine without any has the action alone."""
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self.explain_illegal(state, seat, action))
        return [action][:max(limit, 0)]

    def _legal_actions(self, state: Any, seat: int) -> list[dict]:  # pragma: no cover - abstract
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: dict) -> list[dict]:
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("That is not a valid action.")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalAction("Unknown seat.")
        if seat not in self.to_act(state):
            if self.result(state) is not None:
                raise IllegalAction("The game is over.")
            raise IllegalAction("It is not your turn.")
        self.validate(state, seat, action)
        self._memo_kept = None
        try:
            return self._apply(state, seat, action)
        finally:
            # the state has changed: forget it, unless _apply left a fresh memo about the new state
            slot = self._memo_slot
            if slot is not None and slot[0] is state and slot is not self._memo_kept:
                self._memo_slot = None
            self._memo_kept = None
            if self._known:
                self._known.pop(id(state), None)

    def validate(self, state: Any, seat: int, action: dict) -> None:
        """Raise IllegalAction unless ``action`` is one of the legal actions of ``seat``."""
        # the public method: memoised here, and still right for an engine that overrides it directly
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self.explain_illegal(state, seat, action))

    def explain_illegal(self, state: Any, seat: int, action: dict) -> str:
        """A player-facing reason; engines override it to be more specific."""
        return "That move is not allowed now."

    # the rest of the protocol that reversible() uses, which every game implements (engines/protocol.py)
    def to_json(self, state: Any) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def from_json(self, data: dict) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def from_text(self, text: str) -> Any:
        """The state saved as ``text`` (JSON, e.g. :meth:`json_text`'s): ``from_json`` of it, without the copy
        ``from_json`` makes of data its caller keeps, where the engine can take the parsed data over
        (:meth:`_adopt`)."""
        return self._adopt(json_value(text))

    def _adopt(self, data: dict) -> Any:
        """``from_json(data)`` of ``data`` nobody else holds (freshly parsed): an engine whose ``from_json`` checks
        and copies overrides this to check only."""
        return self.from_json(data)

    def json_text(self, state: Any) -> str:
        """``to_json(state)`` as compact JSON text (what the host saves once per move): without the copy that
        ``to_json`` makes when the state is plain JSON data already (:attr:`plain_json`)."""
        return json_text(state if self.plain_json else self.to_json(state))

    def secrets(self, state: Any, seat: int | None) -> set[str]:  # pragma: no cover - abstract
        raise NotImplementedError

    def seat_count(self, state: Any) -> int:  # pragma: no cover - abstract
        """How many seats play ``state``."""
        raise NotImplementedError

    def reversible(self, state: Any, seat: int, action: dict, *, given_away: bool = False) -> bool:
        """Whether ``seat`` may take ``action`` back once made (undo within a turn, issue 25): it is of a kind
        the game allows (:attr:`take_back`) and, made on a copy of ``state``, it draws nothing at random,
        shows nobody anything hidden (every seat's secrets, and nobody's, stay secrets of the same seats) and
        leaves the same seat, alone, to act in a game that goes on. ``state`` is not changed; an action not
        allowed now is not reversible. ``given_away``: the caller gives ``state`` away (e.g. just loaded with
        :meth:`from_text`), so the trial is made on it without copying it first - the same answer, and
        ``state`` may be left changed."""
        if not self._may_take_back(state, seat, action):
            return False
        slot = self._memo_slot  # the trial must not cost the real state its remembered legal actions
        try:
            return self._trial_keeps_turn(state if given_away else self.from_json(self.to_json(state)), seat,
                                          action)
        finally:
            self._memo_slot = slot

    def _may_take_back(self, state: Any, seat: int, action: dict) -> bool:
        return isinstance(action, dict) and action.get("type") in self.take_back and self.result(state) is None \
            and self.to_act(state) == [seat]

    def _trial_keeps_turn(self, trial: Any, seat: int, action: dict) -> bool:
        """:meth:`reversible`'s trial: ``action`` made on ``trial`` (a copy of the state, changed by it)."""
        rng = self._rng_of(trial)
        seats: list[int | None] = [None, *range(self.seat_count(trial))]
        hidden = {s: self.secrets(trial, s) for s in seats}
        try:
            self.apply(trial, seat, action)
        except IllegalAction:
            return False
        return (self._rng_of(trial) == rng and self.result(trial) is None
                and self.to_act(trial) == [seat] and all(hidden[s] <= self.secrets(trial, s) for s in seats))

    def _rng_of(self, state: Any) -> Any:
        """The random generator's state as ``to_json`` saves it (its ``"rng"``): read off the state itself where
        that is plain JSON data (:attr:`plain_json`), else from ``to_json``."""
        if self.plain_json:
            return _copy(state.get("rng")) if isinstance(state, dict) else None
        return self.to_json(state).get("rng")

    def conformance_configs(self) -> list[tuple[int, dict]]:
        """(num_players, options) pairs the conformance suite plays; every player count by default."""
        return [(n, {}) for n in range(self.min_players, self.max_players + 1)]

    def max_playout_steps(self) -> int:
        """Upper bound on actions in a random playout; the conformance suite fails a game that runs longer."""
        return 20_000

    def _apply(self, state: Any, seat: int, action: dict) -> list[dict]:  # pragma: no cover - abstract
        raise NotImplementedError
