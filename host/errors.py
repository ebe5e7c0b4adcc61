"""The refusals the host's services raise: a message for the person who asked, in their language."""

from __future__ import annotations

from host.locale import t


class GameError(Exception):
    """A refusal with a message for the person who asked; nothing was changed.

    Made from a locale key (``GameError.of("not_your_turn", names=...)``) it can be told in the asker's
    language with :meth:`text`; made from a plain message (an engine's explanation) it stays as it is."""

    def __init__(self, message: str, key: str | None = None, fields: dict | None = None) -> None:
        super().__init__(message)
        self.key, self.fields = key, fields or {}

    @classmethod
    def of(cls, key: str, /, **fields) -> GameError:
        return cls(t(key, **fields), key, fields)

    def text(self, locale: object | None = None) -> str:
        return t(self.key, str(locale) if locale else None, **self.fields) if self.key else str(self)


class StaleBoard(GameError):
    """A click on a board that the game has moved past."""


class NeedsConfirmation(GameError):
    """A choice that loses something for good (``warning`` says what), clicked by a player who asked to be
    asked first: nothing was applied; the player confirms with a second click."""

    def __init__(self, label: str, warning: str, seat: int) -> None:
        super().__init__(warning)
        self.label, self.warning, self.seat = label, warning, seat
