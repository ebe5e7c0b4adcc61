"""What every engine shares: the :class:`Engine` protocol and :class:`IllegalAction`. Apart from
``engines/__init__.py``, which discovers the game packages, so that they import this module and not the package
that imports them (no import circle)."""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


class IllegalAction(Exception):
    """An action that is not allowed now. The message is shown to the player as is."""


@runtime_checkable
class Engine(Protocol):
    """The protocol the host, the AI and the tests use; nothing else of an engine is touched."""

    key: str
    title: str
    min_players: int
    max_players: int
    rules_version: int
    #: the kinds of action (``action["type"]``) :meth:`reversible` may call reversible: of any other kind, never
    take_back: frozenset[str]

    def new_game(self, num_players: int, seed: int, options: dict | None = None) -> Any: ...
    def to_act(self, state: Any) -> list[int]: ...
    def legal_actions(self, state: Any, seat: int) -> list[dict]:
        """Every decision ``seat`` can make now, each once (empty for a seat not to act). A decision that
        can be carried out in several ways that the rules leave to the player (HEX-TRI: which fields pay a
        move) is listed once, in a default way; :meth:`variants` lists its other ways, a bounded few at a
        time, so that no list grows with the number of ways (issue 22)."""
        ...
    def variants(self, state: Any, seat: int, action: dict, limit: int = 25) -> list[dict]:
        """The listed ``action`` first, then up to ``limit - 1`` other ways to make the same decision, in a
        fixed order (the same state gives the same list); ``apply`` takes each. IllegalAction for an action
        not listed now. Most engines have the action alone."""
        ...
    def apply(self, state: Any, seat: int, action: dict) -> list[dict]:
        """Validates and applies ``action`` in place, returns the events: a listed action, one of its
        :meth:`variants`, or another form the engine documents (e.g. a typed choice); IllegalAction, with
        the state unchanged, for anything else."""
        ...
    def view(self, state: Any, seat: int | None) -> dict: ...
    def result(self, state: Any) -> dict | None:
        """None while running; then ``{"places": [place per seat, 1 = best, ties share a place],
        "scores": [score per seat], "reason": str, ...}``. All seats on place 1 is a draw."""
        ...
    def to_json(self, state: Any) -> dict: ...
    def from_json(self, data: dict) -> Any: ...
    def from_text(self, text: str) -> Any:
        """``from_json`` of the JSON ``text``."""
        ...
    def json_text(self, state: Any) -> str:
        """``to_json(state)`` as JSON text."""
        ...
    def remember_legal(self, state: Any, seat: int, legal: list[dict]) -> None:
        """Keep the legal actions of ``seat`` in ``state`` as listed elsewhere from an exact copy of it, until
        ``apply`` changes it (the host's workers list them; the engine need not list them again)."""
        ...
    def forget(self, state: Any = None) -> None:
        """Drop what is remembered about ``state`` (its legal actions, kept by :meth:`remember_legal`); about
        every state when None."""
        ...
    def reversible(self, state: Any, seat: int, action: dict, *, given_away: bool = False) -> bool:
        """Whether ``seat`` may take ``action`` (to be made now) back within its own turn: only when it reveals
        nothing hidden (no card drawn, no dice rolled, no hand shown, no random draw of any kind) and the same
        seat alone acts next. ``state`` is not changed, unless the caller gives it away (``given_away``: a copy
        of its own, on which the engine may try the action without copying it first)."""
        ...
    def secrets(self, state: Any, seat: int | None) -> set[str]:
        """Ids (card ids, hero names, ...) only ``seat`` may see; ``None``: ids nobody may see (deck order,
        face-down cards). The conformance suite checks that no view carries another seat's secrets."""
        ...
