"""Hector and Achilles on Discord: labels for its actions, narration of its events, prompts.
Every sentence lives in ``data/locales/hector-achilles/en.json``."""

from __future__ import annotations

from engines.hector_achilles.data import TROOPS
from host.locale import DEFAULT, current_language, use_language
from host.panels import Choice
from host.presenters.base import OptionSpec, Presenter

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

    def parse(self, view: dict, choices: list[Choice], text: str) -> int:
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
        kind = event["type"]

        def who(seat: int | None) -> str:
            # the side beside the name, as on the picture ("**Ann** (Achaeans)")
            return f"**{names[seat]}** ({self.seat_label(seat)})" if seat is not None and seat < len(names) else "?"

        both = {"who0": who(0), "who1": who(1)}
        # sums and scores always read Achaeans first, each with its side's name
        sides = {"side0": self.text("seat_0"), "side1": self.text("seat_1")}
        seat = event.get("seat")
        if kind == "battle_started":
            return self.text("ev_battle_started", battle=event["battle"], attacker=who(event["attacker"]))
        if kind == "vanguard_taken":
            return self.text("ev_vanguard_taken", who=who(seat), deck=self.deck(event["deck"]),
                             card=self.card(event["card"]))
        if kind == "deck_chosen":
            return self.text("ev_deck_chosen", who=who(seat), deck=self.deck(event["deck"]))
        if kind == "active_decks":
            return self.text("ev_active_decks", deck0=self.deck(event["decks"][0]),
                             deck1=self.deck(event["decks"][1]), **both)
        if kind in ("fate_oriented", "fate_rotated"):
            f = event["facing"]
            return self.text(f"ev_{kind}", who=who(seat), colour0=self.colour(f[0]), colour1=self.colour(f[1]),
                             direction=self.direction(event.get("direction", "cw")), **both)
        if kind == "vanguard_revealed":
            return self.text("ev_vanguard_revealed", who=who(seat), card=self.card(event["card"])) \
                if event.get("card") else None
        if kind in ("card_swapped", "hero_swapped", "passed", "retreated"):
            return self.text(f"ev_{kind}", who=who(seat))
        if kind in ("hero_played", "reinforced", "card_played"):
            return self.text(f"ev_{kind}", who=who(seat), card=self.card(event.get("on") or event.get("card")),
                             hero=self.hero(event["hero"]) if event.get("hero") else "")
        if kind == "fate_phase":
            t = event["totals"]
            key = "ev_fate_phase_rotate" if event.get("rotator") is not None else "ev_fate_phase_tie"
            return self.text(key, round=event["round"], total0=t[0], total1=t[1], who=who(event.get("rotator")),
                             **sides)
        if kind == "heroes_revealed":
            shown = [f"{who(s)}: {self.hero(h)}" for s, h in enumerate(event["heroes"]) if h]
            return self.text("ev_heroes_revealed", heroes=", ".join(shown)) if shown else None
        if kind == "battle_scored":
            s = event["scores"]
            key = "ev_battle_scored_tie" if event["winner"] is None else "ev_battle_scored"
            cols = event.get("scoring_colours") or [[], []]
            colours = {f"colours{i}": " + ".join(self.colour(c) for c in cols[i]) or "–" for i in (0, 1)}
            return self.text(key, score0=s[0], score1=s[1], who=who(event["winner"]), **sides, **colours)
        if kind == "hero_in_danger":
            return self.text("ev_hero_in_danger", who=who(seat), hero=self.hero(event["hero"]))
        if kind in ("hero_saved", "hero_lost"):
            return self.text(f"ev_{kind}", who=who(seat), name=self.name(event["hero"]["name"]))
        if kind in ("shame_losses", "shame_taken"):
            return self.text(f"ev_{kind}", who=who(seat), count=event.get("count"), shame=event.get("shame"))
        if kind == "battle_ended":
            lost = event.get("troops_lost") or [0, 0]
            return self.text("ev_battle_ended", lost0=lost[0], lost1=lost[1], **both)
        if kind == "deck_eliminated":
            return self.text("ev_deck_eliminated", who=who(seat), deck=self.deck(event["deck"]))
        if kind == "fate_reshuffled":
            return self.text("ev_fate_reshuffled")
        if kind == "game_over":
            if event["winner"] is None:
                return self.text("ev_game_over_draw")
            return self.text("ev_game_over", who=who(event["winner"]),
                             reason=self.text(f"reason_{event['reason']}"))
        return None

    def result_lines(self, result: dict, names: list[str]) -> list[str]:
        won = result.get("battles_won", [0, 0])
        lines = [self.text("result_line", name=names[s], side=self.seat_label(s), troops=result["scores"][s],
                           battles=won[s]) for s in (0, 1)]
        if result.get("winner") is None:
            return [self.text("result_draw"), *lines]
        return [self.text("result_winner", name=names[result["winner"]],
                          side=self.seat_label(result["winner"])), *lines]


PRESENTER = HectorAchillesPresenter()
