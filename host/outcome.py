"""What the host asks the Discord layer to say after something happened; pure data."""

from __future__ import annotations

from dataclasses import dataclass, field

from host.panels import Panel
from store import GameRow


@dataclass
class Board:
    """A public post in the game's thread: narration, the board image, whom to mention, which controls."""

    text: str
    image: bytes | None
    mentions: list[int] = field(default_factory=list)
    #: choices shown directly on the public message (only when none of them reveals a secret)
    panel: Panel | None = None
    turn_button: bool = False
    hand_button: bool = False
    #: an Undo button: the person to decide may take their last action back (host/undo.py)
    undo_button: bool = False
    filename: str = "board.png"
    #: further pictures for what just happened (e.g. standings after a race)
    extras: list[bytes] = field(default_factory=list)
    #: the seats of the people asked to decide on this board (whose turn it is; not the AI's)
    acting: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Hand:
    """A seat's hand in words (:meth:`host.presenters.base.Presenter.hand`): one item per card, as the board's
    narration names it, and a note that goes with it (e.g. the colours that score for the seat now). A DM lists
    it instead of uploading the hand picture again when the hand holds nothing the last picture did not show
    (cogs/publish.py)."""

    items: tuple[str, ...]
    note: str = ""


@dataclass
class Nudge:
    """A private message to one seated person (a DM, with the ephemeral path as fallback)."""

    user_id: int
    seat: int
    text: str
    image: bytes | None
    panel: Panel | None = None
    #: the clock warning that heads ``text`` (kept when the DM is updated in place later in the turn)
    warning: str | None = None
    #: the seat's hand in words (None: the game's private picture is more than a hand, e.g. Ave Caesar's
    #: numbered destinations, and is never replaced by words)
    hand: Hand | None = None


@dataclass
class Outcome:
    game: GameRow
    board: Board | None = None
    nudges: list[Nudge] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    #: label of the action the clicking person took (to confirm it in their ephemeral panel)
    done_label: str | None = None

    @property
    def finished(self) -> bool:
        return self.game.status == "finished"


@dataclass
class PrivateView:
    """A seat's private picture and, when it is to act, its panel; answer to "My hand" / "Take your turn"."""

    game: GameRow
    seat: int
    text: str
    image: bytes | None
    panel: Panel | None


@dataclass
class Reminder:
    """A line for a game's thread reminding the people it waits for (``users``) that it is their move."""

    game: GameRow
    users: list[int]
    text: str
