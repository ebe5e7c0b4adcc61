"""The part of a seat's decision whose cost grows with the position, as jobs for a worker (host/workers.py):
listing the legal actions, the seat's view (which carries them), describing and digesting them, reading a
typed move, and the AI's choice.

Every job is a pure function of plain data - an engine key, a snapshot (the engine's JSON, as text, so that a
thread gets its own state object just as a process does), a seat, the game's language - and returns plain data.
Nothing here touches the store, Discord or the event loop.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import orjson

from engines import ENGINES
from engines.rng import Rng
from host.locale import use_language
from host.panels import Choice
from host.presenters import Refined, presenter_for

#: most choices a panel lists. Beyond that a seat's view and choices are not sent back from the worker (their
#: size alone - tens of MB for a HEX-TRI position of 200,000 ways to move - would hold the bot up); the player
#: types the move instead (``/game play``). Ordinary positions of every game have well under 1,000.
MAX_CHOICES = 2000


#: the digest's JSON: keys sorted (an action's key order is the engine's business, not a change of choices); keys
#: that are not strings written as strings, as the standard library's json does
_DIGEST_JSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


def choices_digest(legal: list[dict]) -> str:
    """A short fingerprint of a seat's legal actions, carried by its buttons (see ``GameService.act``): SHA-1 of
    their compact JSON (orjson's: a sixth of the standard library's time on a HEX-TRI turn; issue 29)."""
    return hashlib.sha1(orjson.dumps(legal, option=_DIGEST_JSON)).hexdigest()[:8]


def digest_before_orjson(legal: list[dict]) -> str:
    """The fingerprint buttons carried before :func:`choices_digest` used orjson (the standard library's JSON,
    with its spaces and escapes): a board posted by that version still plays (:meth:`Turn.was_listed_as`)."""
    return hashlib.sha1(json.dumps(legal, sort_keys=True).encode()).hexdigest()[:8]


@dataclass
class Turn:
    """What a seat to act may do at one version of a game, worked out in a worker.

    ``count`` legal actions; when there are at most ``MAX_CHOICES``: ``legal`` (in the engine's order: a
    choice's index is its place there), their ``choices`` and ``digest``, and ``view`` is the seat's whole view;
    beyond that those are None and ``view`` lacks its ``"legal"`` list. ``auto_pass``: the seat's own settings
    (``settings`` of :func:`work_out`) say to pass now."""

    view: dict
    count: int
    prompt: str
    legal: list[dict] | None = None
    choices: list[Choice] | None = None
    digest: str = ""
    two_step: bool = False
    select_groups: set[str] = field(default_factory=set)
    auto_pass: bool = False
    _older_digest: str | None = field(default=None, repr=False, compare=False)

    @property
    def too_many(self) -> bool:
        return self.legal is None

    def was_listed_as(self, digest: str) -> bool:
        """Whether buttons carrying ``digest`` list these very choices: :attr:`digest`, or the fingerprint an
        older version of the bot gave them (:func:`digest_before_orjson`, worked out once per turn and only
        when a button carries another digest than :attr:`digest`)."""
        if digest == self.digest:
            return True
        if self.legal is None:
            return False
        if self._older_digest is None:
            self._older_digest = digest_before_orjson(self.legal)
        return digest == self._older_digest

    def label(self, index: int) -> str:
        """The words of choice ``index`` (as its button said)."""
        choice = self.choice(index)
        return choice.label if choice is not None else "?"

    def choice(self, index: int) -> Choice | None:
        """The choice of the ``index``-th legal action, as described with the others (None: not listed)."""
        choices = self.choices or []
        if 0 <= index < len(choices) and choices[index].index == index:  # (described in the engine's order)
            return choices[index]
        return next((c for c in choices if c.index == index), None)


def _state(key: str, snapshot: str):
    return ENGINES[key].from_text(snapshot)  # (the parsed data is the job's own: not copied again)


def work_out(key: str, snapshot: str, seat: int, lang: str, settings: dict | None = None) -> Turn:
    """The :class:`Turn` of ``seat`` (which must be to act) in the game ``snapshot`` of engine ``key``."""
    use_language(lang)
    engine = ENGINES[key]
    presenter = presenter_for(key)
    state = _state(key, snapshot)
    view = engine.view(state, seat)
    # a seat's view carries its legal actions when it is to act (the protocol); else they are listed here
    legal = view["legal"] if "legal" in view else engine.legal_actions(state, seat)
    prompt = presenter.prompt(view)
    if len(legal) > MAX_CHOICES:
        return Turn({k: v for k, v in view.items() if k != "legal"}, len(legal), prompt)
    auto = bool(settings is not None and presenter.supports_auto_pass and presenter.auto_pass(view, legal, settings))
    return Turn(view, len(legal), prompt, legal, presenter.describe_all(view, legal), choices_digest(legal),
                presenter.two_step_for(view), set(presenter.select_groups), auto)


def read_move(key: str, snapshot: str, seat: int, lang: str, text: str) -> tuple[dict, str]:
    """``/game play`` on a position with too many choices for a panel: (the action, its words) for ``text``;
    ValueError with the presenter's message when the text names no legal move."""
    use_language(lang)
    engine = ENGINES[key]
    presenter = presenter_for(key)
    state = _state(key, snapshot)
    view = engine.view(state, seat)
    legal = view["legal"] if "legal" in view else engine.legal_actions(state, seat)
    view = {**view, "legal": legal}
    try:  # a game's own notation needs no choices described (HEX-TRI: field names); a button's text does
        parsed = presenter.parse(view, [], text)
    except Exception:
        parsed = presenter.parse(view, presenter.describe_all(view, legal), text)
    if isinstance(parsed, Refined):  # one of the listed actions, made in a way the list does not spell out
        return parsed.action, presenter.describe(view, parsed.action, parsed.index).label
    return legal[parsed], presenter.describe(view, legal[parsed], parsed).label


def variants_of(key: str, snapshot: str, seat: int, lang: str, index: int,
                limit: int) -> tuple[list[dict], list[Choice]] | None:
    """(the variants of the ``index``-th listed action of ``seat``: ``engine.variants``, at most ``limit``; their
    choices: ``presenter.describe_variants``), or None when ``index`` names no listed action."""
    use_language(lang)
    engine = ENGINES[key]
    state = _state(key, snapshot)
    legal = engine.legal_actions(state, seat)
    if not 0 <= index < len(legal):
        return None
    ways = engine.variants(state, seat, legal[index], limit)
    view = engine.view(state, seat)
    return ways, presenter_for(key).describe_variants(view, legal[index], index, ways)


def ai_decision(key: str, snapshot: str, seat: int, rng_state: int, level: str | None) -> tuple[dict, str | None]:
    """(the AI's action for ``seat`` at ``level``, None): easy, normal, hard, or ``"random"`` (a random legal
    action). An AI that proposes an action the rules do not list (a bug) is overruled by a random legal action,
    and the second item says what it proposed (for the bot's log: a worker process has none of its own)."""
    import ai

    engine = ENGINES[key]
    state = _state(key, snapshot)
    rng = Rng(rng_state)
    if level == "random":
        return ai.random_player(engine, state, seat, rng), None
    action = ai.choose(engine, state, seat, rng, level)
    if action in engine.legal_actions(state, seat):
        return action, None
    return ai.random_player(engine, state, seat, rng), f"proposed an illegal action {action!r}"[:300]
