"""Hector and Achilles on Discord: labels for its actions, narration of its events, prompts.
Every sentence lives in ``data/locales/hector-achilles/en.json``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engines.hector_achilles.data import TROOPS
from host.locale import DEFAULT, current_language, use_language
from host.outcome import Hand
from host.panels import Choice
from host.presenters.base import OptionSpec, Presenter, Refined, Told

EMOJI = {"red": "🟥", "green": "🟩", "blue": "🟦", "yellow": "🟨", "purple": "🟪", "brown": "🟫"}
#: action type -> (group key, button style, reveals the hand)
ACTIONS = {
    "take_vanguard": ("group_vanguard", "secondary", False),
    "choose_active": ("group_call", "primary", False),
    "orient_fate": ("group_orient", "secondary", False),
    "rotate_fate": ("group_rotate", "secondary", False),
    "save_hero": ("group_hero_fate", "success", False),
    "abandon_hero": ("group_hero_fate", "secondary", False),
    "play": ("group_play", "primary", True),
    "swap_card": ("group_swap", "secondary", True),
    "swap_hero": ("group_hero", "secondary", True),
    "play_hero": ("group_hero", "success", True),
    "reinforce": ("group_reinforce", "secondary", True),
    "retreat": ("group_retreat", "danger", True),
    "pass": ("group_play", "secondary", True),
}


@dataclass
class _Told(Told):
    """A Hector and Achilles event being narrated: seats as "**name** (side)"."""

    presenter: HectorAchillesPresenter

    def who(self, seat: int | None) -> str:
        # the side beside the name, as on the picture ("**Ann** (Achaeans)")
        names = self.names
        return f"**{names[seat]}** ({self.presenter.seat_label(seat)})" if seat is not None and seat < len(names) \
            else "?"

    @property
    def both(self) -> dict[str, str]:
        return {"who0": self.who(0), "who1": self.who(1)}

    @property
    def sides(self) -> dict[str, str]:
        # sums and scores always read Achaeans first, each with its side's name
        return {"side0": self.presenter.text("seat_0"), "side1": self.presenter.text("seat_1")}


class HectorAchillesPresenter(Presenter):
    game = "hector-achilles"

    @property
    def seat_labels(self) -> list[str]:
        return [self.text("seat_0"), self.text("seat_1")]

    #: the ``side`` option's values, by seat ("Az egyik játékos a trójai seregeket vezeti, a másik az akhájokat")
    SIDES = ("achaeans", "trojans")

    @property
    def options(self) -> list[OptionSpec]:
        return [OptionSpec("side", "choice", self.text("opt_side"), default="achaeans",
                           choices=[(self.text(f"seat_{i}"), side) for i, side in enumerate(self.SIDES)])]

    def engine_options(self, raw: dict, opponent: str = "open") -> tuple[int | None, dict]:
        # the side is a seat, not a rule: it never reaches the engine (which refuses any other option by name)
        return 2, {k: v for k, v in raw.items() if v is not None and k != "side"}

    def creator_seat(self, raw: dict) -> int:
        side = raw.get("side")
        return self.SIDES.index(side) if side in self.SIDES else 0

    # -- words for things -----------------------------------------------------------------------------

    def colour(self, key: str) -> str:
        """A colour key ("red") in the game's language ("vörös", "czerwony")."""
        return self.text(f"colour_{key}")

    def name(self, name: str) -> str:
        """A hero's name as the game's language spells it ("Hektor" in Polish)."""
        try:
            return self.text(f"name_{name}")
        except KeyError:
            return name

    def card(self, face: dict) -> str:
        """"red 3 (spearman)" from a troop face {colour, strength, kind}."""
        return self.text("card", colour=self.colour(face["colour"]), strength=face["strength"],
                         kind=self.text(f"kind_{face['kind']}"))

    def short(self, face: dict) -> str:
        return self.text("card_short", Colour=self.colour(face["colour"]).capitalize(), strength=face["strength"])

    def hero(self, face: dict) -> str:
        return self.text("hero", name=self.name(face["name"]), colour=self.colour(face["colour"]),
                         value=face["value"])

    def deck(self, key) -> str:
        return self.text(f"deck_{key}")

    def direction(self, d: str) -> str:
        return self.text("clockwise" if d == "cw" else "counter_clockwise")

    # -- buttons ---------------------------------------------------------------------------------------

    def describe(self, view: dict, action: dict, index: int) -> Choice:
        kind = action["type"]
        if kind not in ACTIONS:
            return super().describe(view, action, index)
        group, style, secret = ACTIONS[kind]
        emoji = None
        fields: dict = {}
        if kind == "take_vanguard":
            fields = {"deck": self.deck(action["deck"]),
                      "size": view["sides"][view["seat"]]["decks"][action["deck"]]["size"]}
        elif kind == "choose_active":
            fields = {"deck": self.deck(action["deck"])}
        elif kind == "orient_fate":
            colours = view["fate"]["colours"]
            them = colours[(colours.index(action["colour"]) + 2) % 4]
            fields = {"Mine": self.colour(action["colour"]).capitalize(), "theirs": self.colour(them)}
            emoji = EMOJI[action["colour"]]
        elif kind == "rotate_fate":
            facing = view["fate"]["after_" + action["direction"]]
            me = view["seat"]
            fields = {"direction": self.direction(action["direction"]), "mine": self.colour(facing[me]),
                      "theirs": self.colour(facing[1 - me])}
            emoji = "↻" if action["direction"] == "cw" else "↺"
        elif kind in ("play", "swap_card"):
            face = TROOPS[action["card"]]
            fields = {"card": self.card(face) if kind == "play" else self.short(face)}
            emoji = EMOJI[face["colour"]]
        elif kind == "retreat":
            # the Shame cost (book 5.4): one more troop per Shame token already held, and a new token up to 3
            shame = min(3, view["sides"][view["seat"]]["shame"]) if view.get("seat") in (0, 1) else 0
            return Choice(index, self.text(f"label_retreat_{shame}"), self.text(group), style=style, secret=secret)
        elif kind in ("play_hero", "reinforce"):
            face = TROOPS[action["on"]]
            hero = (view.get("hand_hero") or {}).get("name")
            fields = {"card": self.short(face), "hero": self.name(hero) if hero else self.text("hero_unknown")}
            emoji = EMOJI[face["colour"]]
        return Choice(index, self.text(f"label_{kind}", **fields), self.text(group), style=style, secret=secret,
                      emoji=emoji)

    def hand(self, view: dict | None) -> Hand | None:
        """The troops in hand and the hero, as the narration names them ("🟥 red 3 (spearman)"), and the colours
        that score for the seat now: all the hand picture shows (render/hector_achilles.py, render_private)."""
        if view is None or view.get("seat") not in (0, 1) or "hand" not in view:
            return None
        items = [f"{EMOJI.get(c['colour'], '')} {self.card(c)}".strip() for c in view["hand"]]
        hero = view.get("hand_hero")
        if hero:
            items.append(self.text("hand_hero", hero=self.hero(hero)))
        scoring = view.get("scoring_colours")
        if scoring:
            note = self.text("hand_scoring", colours=", ".join(self.colour(c) for c in scoring))
        else:
            note = self.text("hand_not_laid" if items else "hand_drawn_later")
        return Hand(tuple(items), note)

    def prompt(self, view: dict) -> str:
        kind = (view.get("decision") or {}).get("kind")
        if kind == "save_hero":
            side = view["sides"][view["seat"]] if view.get("seat") is not None else None
            name = self.name(side["hero"]["name"]) if side and side.get("hero") else self.text("your_hero")
            tokens = side["favour"] if side else 0
            return self.text("prompt_save_hero", hero=name, tokens=tokens, after=max(0, tokens - 1))
        if kind in ("take_vanguard", "choose_active", "orient_fate", "optional_or_play", "play", "rotate_fate"):
            return self.text(f"prompt_{kind}", battle=view.get("battle"), round=view.get("round"))
        return self.text("prompt_other")

    def parse(self, view: dict, choices: list[Choice], text: str) -> int | Refined:
        """``/game play``: the text of a button in the game's language; in a Hungarian or Polish game the
        English button texts are understood too."""
        try:
            return super().parse(view, choices, text)
        except ValueError:
            lang = current_language()
            legal = view.get("legal") or []
            if lang == DEFAULT or not legal:
                raise
            use_language(DEFAULT)
            try:
                english = [Choice(c.index, self.describe(view, legal[c.index], c.index).label, c.group)
                           for c in choices if c.index < len(legal)]
            finally:
                use_language(lang)
            try:
                return super().parse(view, english, text)
            except ValueError:
                pass
            raise

    # -- narration -------------------------------------------------------------------------------------

    def confirm(self, view: dict, action: dict, legal: list[dict]) -> str | None:
        """A retreat gives the battle up (and troops, and Shame): asked first."""
        return self.text("confirm_retreat") if action["type"] == "retreat" else None

    def narrate(self, event: dict, names: list[str]) -> str | None:
        told = _Told(event, names, self)
        narrator = _NARRATORS.get(told.kind)
        return narrator(self, told) if narrator is not None else None

    # -- the narration of each kind of event (_NARRATORS) -------------------------------------------------------

    def _ev_battle_started(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        return self.text("ev_battle_started", battle=event["battle"], attacker=who(event["attacker"]))

    def _ev_vanguard_taken(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_vanguard_taken", who=who(seat), deck=self.deck(event["deck"]),
                         card=self.card(event["card"]))

    def _ev_deck_chosen(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_deck_chosen", who=who(seat), deck=self.deck(event["deck"]))

    def _ev_active_decks(self, told: _Told) -> str | None:
        event, both = told.event, told.both
        return self.text("ev_active_decks", deck0=self.deck(event["decks"][0]),
                         deck1=self.deck(event["decks"][1]), **both)

    def _ev_fate_turned(self, told: _Told) -> str | None:
        event, seat, kind, who, both = told.event, told.seat, told.kind, told.who, told.both
        f = event["facing"]
        return self.text(f"ev_{kind}", who=who(seat), colour0=self.colour(f[0]), colour1=self.colour(f[1]),
                         direction=self.direction(event.get("direction", "cw")), **both)

    def _ev_vanguard_revealed(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_vanguard_revealed", who=who(seat), card=self.card(event["card"])) \
            if event.get("card") else None

    def _ev_who_only(self, told: _Told) -> str | None:
        seat, kind, who = told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat))

    def _ev_card_played(self, told: _Told) -> str | None:
        event, seat, kind, who = told.event, told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat), card=self.card(event.get("on") or event["card"]),
                         hero=self.hero(event["hero"]) if event.get("hero") else "")

    def _ev_fate_phase(self, told: _Told) -> str | None:
        event, who, sides = told.event, told.who, told.sides
        t = event["totals"]
        key = "ev_fate_phase_rotate" if event.get("rotator") is not None else "ev_fate_phase_tie"
        return self.text(key, round=event["round"], total0=t[0], total1=t[1], who=who(event.get("rotator")),
                         **sides)

    def _ev_heroes_revealed(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        shown = [f"{who(s)}: {self.hero(h)}" for s, h in enumerate(event["heroes"]) if h]
        return self.text("ev_heroes_revealed", heroes=", ".join(shown)) if shown else None

    def _ev_battle_scored(self, told: _Told) -> str | None:
        event, who, sides = told.event, told.who, told.sides
        s = event["scores"]
        key = "ev_battle_scored_tie" if event["winner"] is None else "ev_battle_scored"
        cols = event.get("scoring_colours") or [[], []]
        colours = {f"colours{i}": " + ".join(self.colour(c) for c in cols[i]) or "–" for i in (0, 1)}
        return self.text(key, score0=s[0], score1=s[1], who=who(event["winner"]), **sides, **colours)

    def _ev_hero_in_danger(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_hero_in_danger", who=who(seat), hero=self.hero(event["hero"]))

    def _ev_hero_fate(self, told: _Told) -> str | None:
        event, seat, kind, who = told.event, told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat), name=self.name(event["hero"]["name"]))

    def _ev_shame(self, told: _Told) -> str | None:
        event, seat, kind, who = told.event, told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat), count=event.get("count"), shame=event.get("shame"))

    def _ev_battle_ended(self, told: _Told) -> str | None:
        event, both = told.event, told.both
        lost = event.get("troops_lost") or [0, 0]
        return self.text("ev_battle_ended", lost0=lost[0], lost1=lost[1], **both)

    def _ev_deck_eliminated(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_deck_eliminated", who=who(seat), deck=self.deck(event["deck"]))

    def _ev_fate_reshuffled(self, told: _Told) -> str | None:
        return self.text("ev_fate_reshuffled")

    def _ev_game_over(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        if event["winner"] is None:
            return self.text("ev_game_over_draw")
        return self.text("ev_game_over", who=who(event["winner"]),
                         reason=self.text(f"reason_{event['reason']}"))

    def result_lines(self, result: dict, names: list[str]) -> list[str]:
        won = result.get("battles_won", [0, 0])
        lines = [self.text("result_line", name=names[s], side=self.seat_label(s), troops=result["scores"][s],
                           battles=won[s]) for s in (0, 1)]
        if result.get("winner") is None:
            return [self.text("result_draw"), *lines]
        return [self.text("result_winner", name=names[result["winner"]],
                          side=self.seat_label(result["winner"])), *lines]


_NARRATORS: dict[str, Callable[[HectorAchillesPresenter, _Told], str | None]] = {
    "battle_started": HectorAchillesPresenter._ev_battle_started,
    "vanguard_taken": HectorAchillesPresenter._ev_vanguard_taken,
    "deck_chosen": HectorAchillesPresenter._ev_deck_chosen,
    "active_decks": HectorAchillesPresenter._ev_active_decks,
    "fate_oriented": HectorAchillesPresenter._ev_fate_turned,
    "fate_rotated": HectorAchillesPresenter._ev_fate_turned,
    "vanguard_revealed": HectorAchillesPresenter._ev_vanguard_revealed,
    "card_swapped": HectorAchillesPresenter._ev_who_only,
    "hero_swapped": HectorAchillesPresenter._ev_who_only,
    "passed": HectorAchillesPresenter._ev_who_only,
    "retreated": HectorAchillesPresenter._ev_who_only,
    "hero_played": HectorAchillesPresenter._ev_card_played,
    "reinforced": HectorAchillesPresenter._ev_card_played,
    "card_played": HectorAchillesPresenter._ev_card_played,
    "fate_phase": HectorAchillesPresenter._ev_fate_phase,
    "heroes_revealed": HectorAchillesPresenter._ev_heroes_revealed,
    "battle_scored": HectorAchillesPresenter._ev_battle_scored,
    "hero_in_danger": HectorAchillesPresenter._ev_hero_in_danger,
    "hero_saved": HectorAchillesPresenter._ev_hero_fate,
    "hero_lost": HectorAchillesPresenter._ev_hero_fate,
    "shame_losses": HectorAchillesPresenter._ev_shame,
    "shame_taken": HectorAchillesPresenter._ev_shame,
    "battle_ended": HectorAchillesPresenter._ev_battle_ended,
    "deck_eliminated": HectorAchillesPresenter._ev_deck_eliminated,
    "fate_reshuffled": HectorAchillesPresenter._ev_fate_reshuffled,
    "game_over": HectorAchillesPresenter._ev_game_over,
}


PRESENTER = HectorAchillesPresenter()
