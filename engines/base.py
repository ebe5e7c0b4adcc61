"""Shared plumbing for engines: validation that leaves the state untouched on any illegal action."""

from __future__ import annotations

from typing import Any

from engines import IllegalAction


class BaseEngine:
    """Implements :meth:`apply` once: check the seat, the shape and legality, then call ``_apply``.

    Subclasses implement ``_apply(state, seat, action) -> events`` and may override
    :meth:`validate` when enumerating every legal action would be too expensive.
    """

    key = ""
    title = ""
    min_players = 2
    max_players = 2
    rules_version = 1

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
        return self._apply(state, seat, action)

    def validate(self, state: Any, seat: int, action: dict) -> None:
        """Raise IllegalAction unless ``action`` is one of the legal actions of ``seat``."""
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(self.explain_illegal(state, seat, action))

    def explain_illegal(self, state: Any, seat: int, action: dict) -> str:
        """A player-facing reason; engines override it to be more specific."""
        return "That move is not allowed now."

    def conformance_configs(self) -> list[tuple[int, dict]]:
        """(num_players, options) pairs the conformance suite plays; every player count by default."""
        return [(n, {}) for n in range(self.min_players, self.max_players + 1)]

    def max_playout_steps(self) -> int:
        """Upper bound on actions in a random playout; the conformance suite fails a game that runs longer."""
        return 20_000

    def _apply(self, state: Any, seat: int, action: dict) -> list[dict]:  # pragma: no cover - abstract
        raise NotImplementedError
