"""What every game's presenter builds on: :class:`Presenter` (a game's buttons, words and options),
:class:`OptionSpec` and :class:`Refined`. Apart from ``host/presenters/__init__.py``, which discovers the game
modules, so that they import this module and not the package that imports them (no import circle)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from host.ending import Ending, How
from host.locale import game_text, t
from host.outcome import Hand
from host.panels import Choice


@dataclass
class OptionSpec:
    """One option of ``/<game> new``. ``kind``: "int", "bool", "choice" (``choices``: (label, value)) or "text"
    (a word of at most 100 characters; ``suggest`` names what the command suggests while it is typed:
    "decks", a player's Kiválasztottak decks, which the command also resolves - see cogs/newgame.py)."""

    name: str
    kind: str
    description: str
    default: Any = None
    choices: list[tuple[str, Any]] = field(default_factory=list)
    min_value: int | None = None
    max_value: int | None = None
    suggest: str | None = None


@dataclass(frozen=True)
class Refined:
    """What :meth:`Presenter.parse` returns for a typed choice that names one of the listed actions
    (``index``) made in a particular way the list does not spell out (``action``, e.g. a HEX-TRI move with
    the fields that pay it): the host applies ``action``, and the engine checks it."""

    index: int
    action: dict


@dataclass
class Told:
    """One event being narrated (:meth:`Presenter.narrate`) with the players' names: what the small functions of
    a presenter's narration table (event kind -> function) are given. Presenters add how they name seats."""

    event: dict
    names: list[str]

    @property
    def kind(self) -> str:
        return self.event["type"]

    @property
    def seat(self) -> Any:
        return self.event.get("seat")


class Presenter:
    """The generic presenter; games subclass it. Every method gets views, never engine state."""

    game = ""
    #: whether render_private says anything (False for perfect-information games)
    has_private = True
    #: whether the per-player "auto-pass when I can do nothing" setting applies (reaction-window games)
    supports_auto_pass = False
    #: choose a group first (e.g. the card), then one of its choices (e.g. the destination)
    two_step = False
    #: whether a turn's DM carries the seat's private picture; False: the hand and the choices are said in words
    #: (:meth:`hand`, :meth:`describe`) and the picture is sent only on request (a button on the DM)
    dm_picture = True

    # (read-only properties, so that a game may word them in the current language or decide them per panel)
    @property
    def options(self) -> list[OptionSpec]:
        """The options of the game's ``new`` command."""
        return []

    @property
    def seat_labels(self) -> list[str] | None:
        """Names of the seats' sides, e.g. ["Achaeans", "Trojans"]; None when seats are just players."""
        return None

    @property
    def select_groups(self) -> tuple[str, ...]:
        """Names of groups always offered as a select (e.g. "Play a card" next to a Pass button)."""
        return ()

    def engine_options(self, raw: dict, opponent: str = "open") -> tuple[int | None, dict]:
        """Slash-command option values -> (number of players or None for "as many as join", engine options).
        ``opponent`` ("ai" or "open"): whom the table is for (a presenter may size a table against the AI)."""
        return None, {k: v for k, v in raw.items() if v is not None}

    def creator_seat(self, raw: dict) -> int:
        """The seat the creator of a game takes (0 unless the game has sides the creator may choose, e.g. the
        ``side`` option of Hector and Achilles); the other people and the AI take the other seats."""
        return 0

    def check_options(self, raw: dict) -> None:
        """Refuse (ValueError, in the current language) a value outside what :attr:`options` advertise: the
        command tree offers only those, but a stale client or a hand-made request may send anything."""
        for spec in self.options:
            value = raw.get(spec.name)
            if value is None:
                continue
            if spec.kind == "int":
                low, high = spec.min_value, spec.max_value
                if (isinstance(value, bool) or not isinstance(value, int) or (low is not None and value < low)
                        or (high is not None and value > high)):
                    key = "option_range" if low is not None and high is not None else \
                        "option_min" if low is not None else "option_max" if high is not None else "option_int"
                    raise ValueError(t(key, name=spec.name, value=str(value)[:20], min=low, max=high))
            elif spec.kind == "choice" and spec.choices and value not in [v for _, v in spec.choices]:
                raise ValueError(t("option_choice", name=spec.name, value=str(value)[:40],
                                   choices=", ".join(str(v) for _, v in spec.choices)[:500]))
            elif spec.kind == "bool" and not isinstance(value, bool):
                raise ValueError(t("option_choice", name=spec.name, value=str(value)[:40], choices="True, False"))

    def two_step_for(self, view: dict) -> bool:
        """Whether this seat's panel is a two-step choice now; by default the class's ``two_step``."""
        return self.two_step

    def text(self, key: str, **fields) -> str:
        """This game's string ``key`` from ``data/locales/<game>/en.json``."""
        return game_text(self.game, key, **fields)

    def seat_label(self, seat: int) -> str:
        if self.seat_labels and seat < len(self.seat_labels):
            return self.seat_labels[seat]
        return t("seat_n", n=seat + 1)

    def describe(self, view: dict, action: dict, index: int) -> Choice:
        """A button for one legal action."""
        details = ", ".join(f"{k} {v}" for k, v in action.items() if k != "type")
        label = action["type"].replace("_", " ").capitalize() + (f": {details}" if details else "")
        return Choice(index=index, label=label, group=action["type"])

    def describe_all(self, view: dict, legal: list[dict]) -> list[Choice]:
        """The buttons for all legal actions; a game with hundreds of them may share work between them."""
        return [self.describe(view, a, i) for i, a in enumerate(legal)]

    def describe_variants(self, view: dict, action: dict, index: int, variants: list[dict]) -> list[Choice]:
        """The choices of a panel of one action's variants (``engine.variants``, the listed action first):
        by default each described like the action itself, in one group."""
        group = self.describe(view, action, index).label
        out = []
        for n, variant in enumerate(variants):
            choice = self.describe(view, variant, index)
            choice.group, choice.variant, choice.more = group, n, False
            out.append(choice)
        return out

    def parse(self, view: dict, choices: list[Choice], text: str) -> int | Refined:
        """The index of the choice a player typed (``/game play``). By default the text is matched against
        the choice labels: an exact label, else the only label containing it. Raise ValueError with a
        helpful message otherwise; games may accept their own notation (e.g. field names), and may name a
        listed action made in a particular way (:class:`Refined`)."""
        wanted = " ".join(text.lower().split())
        if not wanted:
            raise ValueError(t("parse_empty"))
        exact = [c for c in choices if c.label.lower() == wanted]
        if len(exact) == 1:
            return exact[0].index
        found = [c for c in choices if wanted in c.label.lower()]
        if len(found) == 1:
            return found[0].index
        sample = "; ".join(c.label for c in (found or choices)[:8])
        if found:
            raise ValueError(t("parse_ambiguous", text=text, count=len(found), sample=sample))
        raise ValueError(t("parse_none", text=text, sample=sample))

    def prompt(self, view: dict) -> str:
        """What the seat in ``view`` is asked to decide."""
        return t("prompt_default")

    def hand(self, view: dict | None) -> Hand | None:
        """The hand of the seat in ``view`` (a private view) in words, for a DM that lists it instead of
        uploading its picture again (cogs/publish.py). None: the game's private picture shows more than its words
        can (by default; e.g. Ave Caesar's destinations numbered on the track), so a changed one is uploaded."""
        return None

    def opening_lines(self, view: dict, names: list[str]) -> list[str]:
        """Lines for the first board of a game (what set-up decided: a start grid, who begins...)."""
        return []

    def narrate(self, event: dict, names: list[str]) -> str | None:
        """One line of narration for an event, or None to stay silent about it."""
        return None

    def result_lines(self, result: dict, names: list[str]) -> list[str]:
        """How the rules ended the game, in the game's words (``result``: the engine's own result). Only for
        a game that ended by its rules with everybody at the table; :meth:`ending_lines` tells any end."""
        places = result.get("places", [])
        scores = result.get("scores", [])
        order = sorted(range(len(places)), key=lambda s: places[s])
        if places and all(p == 1 for p in places):
            return [t("result_draw")]
        return [f"{places[s]}. {names[s]} — {scores[s]}" for s in order]

    # -- how a game ended (host/ending.py) ----------------------------------------------------------------

    def who(self, seat: int | None, names: list[str]) -> str:
        """A seat as the result lines name it: the player, with the side when seats have sides."""
        if seat is None or not 0 <= seat < len(names):
            return "?"
        return f"{names[seat]} ({self.seat_labels[seat]})" if self.seat_labels and seat < len(self.seat_labels) \
            else names[seat]

    def score_text(self, details: dict, seat: int) -> str | None:
        """A seat's score in words ("12 Glory") from the engine's result, for the standings of a game the rules
        ended after somebody left; None: the game has no score worth telling."""
        return None

    def ending_lines(self, ending: Ending, names: list[str]) -> list[str]:
        """What a player reads about how the game ended: who won and why, then every seat's place (with how
        those who left did so, and the score when the rules ended the game). A game the rules ended with
        everybody at the table is told in the game's own words (:meth:`result_lines`)."""
        if ending.plain and ending.details is not None:  # (plain: always with details)
            return self.result_lines(ending.details, names)
        lines = [ending_headline(self, ending, names)]
        places = ending.places
        if places is None:
            return lines
        for seat in sorted(range(len(places)), key=lambda s: (places[s], s)):
            extra = []
            if ending.details is not None and (score := self.score_text(ending.details, seat)):
                extra.append(score)
            if (gone := ending.departure(seat)) is not None:
                extra.append(t("end_mark_" + gone.how.value))
            lines.append(t("end_standing", place=places[seat], who=self.who(seat, names),
                           extra="".join(" — " + e for e in extra)))
        return lines

    def ending_picture(self, ending: Ending, names: list[str]) -> dict | None:
        """What a final picture shows instead of whose turn it is (the picture's ``ending``): the headline in
        the game's language, and per seat that left how it did (in a picture's short words); None when the game's own picture of its result
        is right (the rules ended it with everybody at the table)."""
        if ending.plain:
            return None
        return {"headline": ending_headline(self, ending, names, picture=True),
                "places": list(ending.places) if ending.places is not None else None,
                "left": {str(d.seat): t("end_pic_mark_" + d.how.value) for d in ending.left}}

    def status_line(self, view: dict) -> str:
        return ""

    def confirm(self, view: dict, action: dict, legal: list[dict]) -> str | None:
        """What ``action`` (one of the seat's ``legal`` ones) would lose for good, when it is a choice a
        misclick must not make (a battle given up, a whole phase passed away): the host then asks "Are you
        sure?" first (unless the player turned that off in ``/game settings``). None for ordinary choices."""
        return None

    def auto_pass(self, view: dict, legal: list[dict], settings: dict) -> bool:
        """Whether to pass for this seat without asking. By default: the player's "auto_pass" setting (on
        unless turned off) and nothing but passing is possible. A game may add its own rules (e.g. a
        "stop when the opponent acts" setting); the decision uses the seat's own view only."""
        if not self.supports_auto_pass or not settings.get("auto_pass", True):
            return False
        return bool(legal) and all(a["type"] == "pass" for a in legal)


def ending_headline(presenter: Presenter, ending: Ending, names: list[str], *, picture: bool = False) -> str:
    """One line: who won (or a draw, or no result) and why, in the game's language; ``picture``: the shorter
    words of a picture, without markdown ("Bob (Trojans) wins — Ann (Achaeans) resigned")."""
    pre = "end_pic_" if picture else "end_"

    def who(seat: int) -> str:
        name = presenter.who(seat, names)
        return name.replace("**", "") if picture else name

    why = _why(ending, who, pre)
    if ending.places is None:
        return t(pre + "none", why=why)
    if ending.draw:
        return t(pre + "draw", why=why)
    winners = ending.winners
    return t(pre + ("win_one" if len(winners) == 1 else "win_many"), who=" & ".join(who(s) for s in winners),
             why=why)


def _why(ending: Ending, who, pre: str) -> str:
    """The reason clause of the headline (": Ann resigned"); empty for a game the rules ended."""
    note = ending.note
    if ending.how in (How.RESIGNED, How.TIMEOUT, How.DROPPED, How.FORFEIT) and ending.left:
        return t(pre + "why_" + ending.how.value, who=who(ending.left[-1].seat))
    if ending.how is How.ADJUDICATED:
        return t(pre + "why_adjudicated", match=note.get("match", "?"), tournament=note.get("tournament", "?"))
    if ending.how is How.DEADLINE:
        return t(pre + "why_deadline", match=note.get("match", "?"), round=note.get("round", "?"))
    if ending.how is How.ABANDONED:
        if "tournament" in note:
            return t(pre + "why_cancelled", tournament=note["tournament"])
        return t(pre + "why_abandoned", by=note["by"]) if note.get("by") else t(pre + "why_abandoned_plain")
    return ""
