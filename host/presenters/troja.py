"""Troja on Discord: labels for its actions, narration of its events, prompts and the /troja new options.
Every sentence lives in ``data/locales/troja/en.json`` (``pl.json``, ``hu.json``: the same in the game's language);
card, hero and patron names and card texts come from the card set in the game's language too.

Every choice of Troja is marked secret, so its panels only ever open privately ("Take your turn", DMs, "My
hand"): most decisions offer cards from the hand, and a public panel for the rest (e.g. only "Pass" or only
"End your turn") would tell the table that the hand holds nothing playable. Prompts are shown on the public
board, so they are built from public parts of the view only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engines.troja import HEROES, PATRONS, PHYSICAL, TYPES
from engines.troja import name as card_name
from host.locale import current_language
from host.outcome import Hand
from host.panels import MAX_LABEL, Choice, clip
from host.presenters.base import OptionSpec, Presenter, Refined, Told

LETTERS = "ABCD"
WINDOWS = ("join", "fate", "start")
#: action type -> (group key, button style)
ACTIONS = {
    "attach": ("group_attach", "primary"),
    "challenge": ("group_challenge", "primary"),
    "duel": ("group_duel", "danger"),
    "intervene": ("group_intervene", "primary"),
    "event": ("group_event", "primary"),
    "end_turn": ("group_end_turn", "secondary"),
    "combine": ("group_combine", "primary"),
    "launch": ("group_launch", "success"),
    "add": ("group_add", "primary"),
    "wrath": ("group_wrath", "danger"),
    "pass": ("group_pass", "secondary"),
    "discard": ("group_discard", "secondary"),
}

#: the kinds of action made with a card (labelled with it)
CARD_ACTIONS = ("attach", "challenge", "combine", "add", "intervene", "event", "discard")


def letter(seat: int) -> str:
    return LETTERS[seat] if 0 <= seat < len(LETTERS) else str(seat + 1)


def key_of(card_id: str) -> str:
    """The card type of a physical card id ("spearmen#2" -> "spearmen")."""
    return PHYSICAL[card_id]["key"] if card_id in PHYSICAL else card_id.split("#")[0]


@dataclass
class _Told(Told):
    """A Troja event being narrated: seats as "name (letter)", sides and cards by their names."""

    presenter: TrojaPresenter

    def who(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "?"
        return self.presenter.text("who", name=self.names[seat], letter=letter(seat))

    def side(self, name: str | None) -> str:
        return self.presenter.text(name) if name in ("attacker", "defender") else str(name)

    def card(self, key: str | None) -> str:
        return self.presenter.name(key) if key else "?"


class TrojaPresenter(Presenter):
    game = "troja"
    supports_auto_pass = True
    two_step = False

    @property
    def select_groups(self) -> tuple[str, ...]:
        """A reaction window offers "Play a card" as a select (whatever the number of cards) beside the Pass
        button: one look tells what can be played, and the select says what each card does."""
        return (self.text("group_window_play"),)

    @property
    def options(self) -> list[OptionSpec]:
        return [
            OptionSpec("players", "int", self.text("opt_players"), None, min_value=2, max_value=4),
            OptionSpec("max_rounds", "int", self.text("opt_max_rounds"), 30, min_value=0, max_value=200),
            OptionSpec("rotate_first", "bool", self.text("opt_rotate_first"), False),
        ]

    @property
    def seat_labels(self) -> list[str]:
        return [self.text("seat_label", letter=c) for c in LETTERS]

    def engine_options(self, raw: dict, opponent: str = "open") -> tuple[int | None, dict]:
        players = raw.get("players")
        if players is not None and (isinstance(players, bool) or players not in (2, 3, 4)):
            raise ValueError(self.text("bad_players", value=players))  # the host tells the player
        rounds = raw.get("max_rounds")
        if rounds is not None and not isinstance(rounds, bool) and 0 < rounds < 5:
            raise ValueError(self.text("bad_max_rounds", value=rounds))  # 0 (no limit) or 5-200
        options = {"max_rounds": rounds} if rounds is not None else {}
        if raw.get("rotate_first") is not None:
            options["rotate_first"] = bool(raw["rotate_first"])
        return players, options

    # -- words for things -----------------------------------------------------------------------------

    @staticmethod
    def name(key: str) -> str:
        """A card type's, hero's or patron's name in the game's language."""
        return card_name(key, current_language())

    @staticmethod
    def rules_text(entry: dict) -> str:
        """The rules text of a card type, hero or patron in the game's language (English when missing)."""
        texts = entry.get("text") or {}
        return texts.get(current_language()) or texts.get("en", "")

    def card(self, key: str) -> str:
        return self.name(key_of(key) if "#" in key else key)

    def stats(self, key: str) -> str:
        """"STR 7, Glory 4, POWER 3" for a challenge card type."""
        card = TYPES[key]
        parts = []
        if card.get("strength"):
            parts.append(self.text("stat_str", value=card["strength"]))
        if card.get("tactics"):
            parts.append(self.text("stat_tac", value=card["tactics"]))
        if card.get("glory") is not None:
            parts.append(self.text("stat_glory", value=card["glory"]))
        if card["kind"] == "beast":
            parts.append(self.text("stat_power", value=card["power"]))
        return ", ".join(parts)

    def hand(self, view: dict | None) -> Hand | None:
        """The cards in hand by name and kind ("Athena's Aegis (Intervention)"), and which of them can be played
        now: what the hand picture marks (render/troja.py, render_private; the picture above has their texts)."""
        if view is None or view.get("seat") is None or "hand" not in view:
            return None
        items = tuple(self.text("hand_card", card=self.card(cid), kind=self.text(f"kind_{TYPES[key_of(cid)]['kind']}"))
                      for cid in view["hand"])
        playable = [self.card(cid) for cid in view["hand"] if cid in set(view.get("playable") or [])]
        note = self.text("hand_playable", cards=", ".join(playable)) if playable else ""
        return Hand(items, note)

    def card_description(self, key: str) -> str:
        """Kind, numbers and rules text of a card type: the grey line under a select option."""
        card = TYPES[key]
        head = [self.text(f"kind_{card['kind']}")]
        if card["kind"] in ("unit", "trojan", "beast"):
            head.append(self.stats(key))
        elif card.get("power"):
            head.append(self.text("stat_power", value=card["power"]))
        elif card.get("cost") is not None:
            head.append(self.text("stat_cost", value=card["cost"]))
        text = self.rules_text(card)
        return " · ".join(head) + (f" — {text}" if text else "")

    def hero_at(self, view: dict, seat: int) -> str:
        hero = self.name(view["players"][seat]["hero"])
        if seat == view.get("seat"):
            return self.text("you_hero", hero=hero)
        return self.text("hero_at", hero=hero, letter=letter(seat))

    def side_name(self, view: dict, side: str) -> str:
        """Who "attacker"/"defender" is in the current fight: the Trojans or a hero."""
        fight = view.get("fight") or {}
        if fight.get("duel"):
            seat = fight["attacker"] if side == "attacker" else fight["defender"]
            return self.hero_at(view, seat)
        if side == "defender" and fight.get("defender") is not None:
            return self.hero_at(view, fight["defender"])
        cards = fight.get("cards") or []
        if side == "attacker" and len(cards) == 1:  # a beast or a Trojan hero alone: its name
            return self.card(cards[0]["card"])
        return self.text("trojans") if side == "attacker" else self.text("defender")

    def holder_of(self, view: dict, card_id: str) -> int | None:
        for p in view["players"]:
            if card_id in p["attached"] or any(r["card"] == card_id for r in p["roamers"]):
                return p["seat"]
        return None

    def effect(self, view: dict, effect: dict, action: dict) -> str:
        """What an intervention, event or wrath does with this action's parameters."""
        op = effect["op"]
        me = view["players"][view["seat"]]
        side = self.side_name(view, action["side"]) if "side" in action else ""
        if op == "fight_mod":
            amount = effect.get("by_patron", {}).get(me["patron"], effect["amount"])
            return self.text("fx_fight_mod", amount=f"{amount:+d}", side=side)
        if op in ("redraw_fate", "extra_fate"):
            if "side" in action and self._own_side(view, action["side"]):
                return self.text(f"fx_{op}_own")  # "your fate card", not "the fate card of you"
            return self.text(f"fx_{op}", side=side)
        if op == "take_wrath":
            return self.text("fx_take_wrath", target=self.hero_at(view, action["target"]), amount=effect["amount"])
        if op in ("banish", "move_roamer", "wreck"):
            target = action["target"]
            holder = self.holder_of(view, target)
            return self.text(f"fx_{op}", card=self.card(target),
                             holder=self.hero_at(view, holder) if holder is not None else "?",
                             to=self.hero_at(view, action["to"]) if "to" in action else "")
        if op == "discard_random":
            return self.text("fx_discard_random", target=self.hero_at(view, action["target"]),
                             amount=effect["amount"])
        if op == "gain":
            return self.text("fx_gain", amount=effect.get("by_patron", {}).get(me["patron"], effect["amount"]))
        return self.text(f"fx_{op}", amount=effect.get("amount", ""))

    @staticmethod
    def _own_side(view: dict, side: str) -> bool:
        """Whether ``side`` of the current fight is the viewer's own hero."""
        fight = view.get("fight") or {}
        seat = fight.get("defender") if side == "defender" else fight.get("attacker") if fight.get("duel") else None
        return seat is not None and seat == view.get("seat")

    def modifier_effect(self, key: str) -> str:
        card = TYPES[key]
        amount = card.get("amount", 0)
        where = self.text(f"fx_where_{card.get('fight') or 'any'}")
        return self.text(f"fx_mod_{card.get('side', 'defender')}", amount=amount, where=where)

    # -- buttons ---------------------------------------------------------------------------------------

    def describe(self, view: dict, action: dict, index: int) -> Choice:
        kind = action["type"]
        step = view.get("step")
        description = None
        key = key_of(action["card"]) if "card" in action else None
        if key is not None:
            description = self.card_description(key)
        if kind == "done":
            group = "group_camp_done" if step == "camp" else "group_discard_done"
            label = self.text("label_camp_done" if step == "camp" else "label_discard_done")
            style = "success" if step == "camp" else "secondary"
        elif kind in ACTIONS:
            group, style = ACTIONS[kind]
            if step in WINDOWS and kind in ("add", "intervene"):
                group = "group_window_play"  # the card plays of a reaction window: one select
            label = self._label(view, action, key)
        else:
            return super().describe(view, action, index)
        if kind == "wrath":
            patron = view["players"][view["seat"]]["patron"]
            description = self.rules_text(PATRONS[patron])
        # every choice stays private: see the module docstring
        return Choice(index, clip(label, MAX_LABEL), self.text(group), style=style, secret=True,
                      description=description)

    def _label(self, view: dict, action: dict, key: str | None) -> str:
        kind = action["type"]
        step = view.get("step")
        if key is not None and kind in CARD_ACTIONS:
            return self._card_label(view, action, key)
        if kind == "duel":
            return self.text("label_duel", target=self.hero_at(view, action["target"]))
        if kind == "wrath":
            patron = view["players"][view["seat"]]["patron"]
            return self.text("label_wrath", patron=self.name(patron),
                             effect=self.effect(view, PATRONS[patron]["wrath"], action))
        if kind == "pass":
            return self.text(f"label_pass_{step}" if step in WINDOWS else "label_pass_start")
        return self.text(f"label_{kind}")

    def _card_label(self, view: dict, action: dict, key: str) -> str:
        """The label of an action with the card ``key`` (one of :data:`CARD_ACTIONS`)."""
        kind = action["type"]
        if kind == "attach":
            cost = self._attach_cost(view, key)
            return self.text("label_attach", card=self.card(key), cost=cost)
        if kind == "challenge":
            target = self.text("yourself") if action["target"] == view["seat"] else \
                self.hero_at(view, action["target"])
            return self.text("label_challenge", card=self.card(key), stats=self.stats(key), target=target)
        if kind in ("combine", "add"):
            if TYPES[key]["kind"] == "modifier":
                return self.text("label_add_modifier", card=self.card(key), effect=self.modifier_effect(key))
            return self.text(f"label_{kind}", card=self.card(key), stats=self.stats(key))
        if kind in ("intervene", "event"):
            return self.text("label_play", card=self.card(key), effect=self.effect(view, TYPES[key]["effect"], action))
        return self.text("label_discard", card=self.card(key))

    @staticmethod
    def _attach_cost(view: dict, key: str) -> int:
        me = view["players"][view["seat"]]
        cost = TYPES[key]["cost"]
        for eff in HEROES[me["hero"]]["ability"]:
            if eff["op"] == "cost_discount" and eff["kind"] == TYPES[key]["kind"]:
                cost -= eff["amount"]
        return max(0, cost)

    def parse(self, view: dict, choices: list[Choice], text: str) -> int | Refined:
        """Button text, or its words in any order ("spearmen nestor", "duel b", "pass")."""
        try:
            return super().parse(view, choices, text)
        except ValueError as exc:
            error = exc
        words = [w for w in _words(text) if w not in ("the", "a", "an", "on", "to", "with")]
        if words:
            found = [c for c in choices if all(w in _words(c.label) for w in words)]
            if len({c.label for c in found}) == 1:  # the same card twice in hand: the same move
                return found[0].index
        raise error

    # -- prompts (shown on the public board: public parts of the view only) ----------------------------

    def prompt(self, view: dict) -> str:
        step = view.get("step")
        seat = view.get("seat")
        players = view.get("players") or []
        if seat is None or seat >= len(players):
            return self.text("prompt_other")
        me = players[seat]
        hero = self.name(me["hero"])
        assault = view.get("assault") or {}
        if step == "camp":
            return self.text("prompt_camp", hero=hero, gp=me["gp"])
        if step == "main":
            return self.text("prompt_main_used" if view.get("turn_used") else "prompt_main", hero=hero)
        if step == "build":
            if assault["target"] == seat:
                return self.text("prompt_build_self", cards=self._cards(assault["cards"]))
            return self.text("prompt_build", target=self._target(view, assault["target"]),
                             cards=self._cards(assault["cards"]))
        if step == "join":
            cards = self._cards(assault["cards"] + assault.get("joined", []))
            by = self.hero_at(view, assault["by"])
            if assault["target"] == seat:
                return self.text("prompt_join_target", by=by, cards=cards)
            if assault["target"] == assault["by"]:
                return self.text("prompt_join_self", by=by, cards=cards)
            return self.text("prompt_join", by=by, target=self._target(view, assault["target"]), cards=cards)
        if step == "fate" and view.get("fight"):
            fight = view["fight"]
            totals = fight.get("totals") or {"attacker": "?", "defender": "?"}
            number = (assault.get("index") or 0) + 1
            count = len(assault.get("fights") or []) or 1
            which = self.text("fight_of", number=number, count=count) if count > 1 else self.text("fight_one")
            return self.text("prompt_fate", fight=which,
                             attacker=self.side_name(view, "attacker"), defender=self.side_name(view, "defender"),
                             attacker_total=totals["attacker"], defender_total=totals["defender"])
        if step == "start" and view.get("turn") is not None:
            turn = players[view["turn"]]
            count = sum(1 for r in turn["roamers"] if r.get("arrived"))
            return self.text("prompt_start", count=count, hero=self.name(turn["hero"]), letter=letter(view["turn"]))
        if step == "discard":
            left = 2 - (me.get("discarded") or 0)
            return self.text("prompt_discard" if left > 1 else "prompt_discard_one", round=view.get("round"),
                             count=left)
        return self.text("prompt_other")

    def _target(self, view: dict, seat: int) -> str:
        return self.hero_at(view, seat)

    def _cards(self, entries: list[dict]) -> str:
        return self.text("and").join(self.card(e["card"]) for e in entries) or "—"

    def auto_pass(self, view: dict, legal: list[dict], settings: dict) -> bool:
        """Only in reaction windows, only by the player's own setting, only when the seat's own view says it
        can play nothing (no card and, in a fate window, no wrath token)."""
        if not settings.get("auto_pass", True) or view.get("step") not in WINDOWS:
            return False
        return not view.get("can_play", True) and any(a["type"] == "pass" for a in legal)

    # -- narration -------------------------------------------------------------------------------------

    def opening_lines(self, view: dict, names: list[str]) -> list[str]:
        """Who plays which hero (the picture shows heroes by seat letter), who begins and why."""
        heroes = [self.text("opening_hero", who=self.text("who", name=names[p["seat"]], letter=letter(p["seat"])),
                            hero=self.name(p["hero"]), patron=self.name(p["patron"]))
                  for p in view.get("players", []) if p["seat"] < len(names)]
        lines = [self.text("opening_heroes", heroes=", ".join(heroes))] if heroes else []
        for event in view.get("last") or []:
            if event["type"] in ("fate", "first_player", "round"):
                line = self.narrate(event, names)
                if line:
                    lines.append(line)
        return lines

    def narrate(self, event: dict, names: list[str]) -> str | None:
        told = _Told(event, names, self)
        narrator = _NARRATORS.get(told.kind)
        return narrator(self, told) if narrator is not None else None

    # -- the narration of each kind of event (_NARRATORS) -------------------------------------------------------

    def _ev_first_player(self, told: _Told) -> str | None:
        seat, who = told.seat, told.who
        return self.text("ev_first_player", who=who(seat))

    def _ev_round(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        return self.text("ev_round", round=event["round"], who=who(event["first"]))

    def _ev_draw(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        # extra draws after a won fight say why (Odysseus' ability, the reward for beating Glaucus)
        reason = event.get("reason")
        key = f"ev_draw_{reason}" if reason in ("ability", "reward") else "ev_draw"
        return self.text(key, who=who(seat), count=event["count"])

    def _ev_reshuffle(self, told: _Told) -> str | None:
        event = told.event
        return self.text("ev_reshuffle", size=event["size"])

    def _ev_attach(self, told: _Told) -> str | None:
        event, seat, who, card = told.event, told.seat, told.who, told.card
        return self.text("ev_attach", who=who(seat), card=card(event["card"]), cost=event["cost"], gp=event["gp"])

    def _ev_end_turn(self, told: _Told) -> str | None:
        return None  # the next line says whose turn it is (or that the round ends): boards stay short

    def _ev_who_only(self, told: _Told) -> str | None:
        seat, kind, who = told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat))

    def _ev_challenge(self, told: _Told) -> str | None:
        event, seat, who, card = told.event, told.seat, told.who, told.card
        if event["target"] == seat:
            return self.text("ev_challenge_self", who=who(seat), card=card(event["card"]))
        return self.text("ev_challenge", who=who(seat), target=who(event["target"]), card=card(event["card"]))

    def _ev_combine(self, told: _Told) -> str | None:
        event, seat, who, card = told.event, told.seat, told.who, told.card
        return self.text("ev_combine", who=who(seat), card=card(event["card"]))

    def _ev_launch(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        if event["target"] == seat:
            return self.text("ev_launch_self", who=who(seat))
        return self.text("ev_launch", who=who(seat), target=who(event["target"]))

    def _ev_add(self, told: _Told) -> str | None:
        event, seat, who, card = told.event, told.seat, told.who, told.card
        return self.text("ev_add", who=who(seat), card=card(event["card"]), target=who(event["target"]))

    def _ev_pass(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        # passing in a fight or before the attacks: the result follows at once, and every pass line would
        # push the fights out of a board's 2000 characters in a game of four
        return self.text("ev_pass_join", who=who(seat)) if event.get("window") == "join" else None

    def _ev_duel(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_duel", who=who(seat), target=who(event["target"]))

    def _ev_roam_attack(self, told: _Told) -> str | None:
        event, who, card = told.event, told.who, told.card
        if event.get("kind") in ("strength", "tactics"):
            return self.text(f"ev_roam_attack_{event['kind']}", card=card(event["card"]),
                             target=who(event["target"]))
        return self.text("ev_roam_attack", card=card(event["card"]), target=who(event["target"]))

    def _ev_fight(self, told: _Told) -> str | None:
        event, who, card = told.event, told.who, told.card
        # a duel and a roaming attack were just announced with both sides and the stat: no second line
        # (4-player chains of AI turns fill a board's 2000 characters quickly)
        if event.get("duel") or (event.get("roaming") and len(event.get("cards") or []) == 1):
            return None
        return self.text(f"ev_fight_{event['kind']}", target=who(event["target"]),
                         cards=self.text("and").join(card(k) for k in event["cards"]) or "?")

    def _ev_fate(self, told: _Told) -> str | None:
        event, who, side, card = told.event, told.who, told.side, told.card
        return self._narrate_fate(event, who, side, card)

    def _ev_card_played(self, told: _Told) -> str | None:
        event, seat, kind, who, side, card = told.event, told.seat, told.kind, told.who, told.side, told.card
        detail = ""
        if "side" in event:
            detail = self.text("detail_side", side=side(event["side"]))
        elif "to" in event:
            detail = self.text("detail_move", target=card(event["target"]), to=who(event["to"]))
        elif "target" in event:
            target = event["target"]
            detail = self.text("detail_target", target=who(target) if isinstance(target, int) else card(target))
        return self.text(f"ev_{kind}", who=who(seat), card=card(event["card"]), detail=detail)

    def _ev_wrath(self, told: _Told) -> str | None:
        event, seat, who, side, card = told.event, told.seat, told.who, told.side, told.card
        return self.text("ev_wrath", who=who(seat), patron=card(event["patron"]), side=side(event.get("side")))

    def _ev_fight_mod(self, told: _Told) -> str | None:
        event, side = told.event, told.side
        return self.text("ev_fight_mod", Side=side(event["side"]).capitalize(), amount=f"{event['amount']:+d}")

    def _ev_fate_redrawn(self, told: _Told) -> str | None:
        event, side = told.event, told.side
        return self.text("ev_fate_redrawn", Side=side(event["side"]).capitalize(), face=event["face"])

    def _ev_fight_cancelled(self, told: _Told) -> str | None:
        return self.text("ev_fight_cancelled")

    def _ev_fight_result(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        return self._narrate_result(event, who)

    def _ev_glory(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        delta = event["delta"]
        reason = self.text(f"reason_{event['reason']}") if event.get("reason") else ""
        if delta < 0 and event.get("due", -delta) > -delta:  # the hero had less Glory than the loss
            return self.text("ev_glory_loss_all", who=who(seat), delta=-delta, due=event["due"],
                             gp=event["gp"], reason=reason)
        key = "ev_glory_gain" if delta > 0 else "ev_glory_loss"
        return self.text(key, who=who(seat), delta=abs(delta), gp=event["gp"], reason=reason)

    def _ev_escape(self, told: _Told) -> str | None:
        event, who, card = told.event, told.who, told.card
        return self.text("ev_escape", card=card(event["card"]), target=who(event["target"]))

    def _ev_escape_failed(self, told: _Told) -> str | None:
        event, card = told.event, told.card
        return self.text("ev_escape_failed", card=card(event["card"]), face=event["face"], need=event["need"])

    def _ev_contest(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        if len(event["seats"]) == 1:
            return None  # the Glory line names the winner
        return self.text("ev_contest_tie", best=event["best"], who=", ".join(who(s) for s in event["seats"]))

    def _ev_grows(self, told: _Told) -> str | None:
        event, card = told.event, told.card
        return self.text("ev_grows", card=card(event["card"]), grow=event["grow"])

    def _ev_wrath_changed(self, told: _Told) -> str | None:
        event, seat, kind, who = told.event, told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat), wrath=event["wrath"])

    def _ev_wrecked(self, told: _Told) -> str | None:
        event, seat, who, card = told.event, told.seat, told.who, told.card
        return self.text("ev_wrecked", who=who(seat), card=card(event["card"]))

    def _ev_discard(self, told: _Told) -> str | None:
        event, seat, who, card = told.event, told.seat, told.who, told.card
        cards = ", ".join(card(k) for k in event["cards"])
        return self.text("ev_discard_random" if event.get("random") else "ev_discard", who=who(seat), cards=cards)

    def _ev_banished(self, told: _Told) -> str | None:
        event, who, card = told.event, told.who, told.card
        return self.text("ev_banished", card=card(event["card"]), holder=who(event["holder"]))

    def _ev_moved(self, told: _Told) -> str | None:
        event, who, card = told.event, told.who, told.card
        return self.text("ev_moved", card=card(event["card"]), holder=who(event["holder"]), to=who(event["to"]))

    def _ev_roamers_move(self, told: _Told) -> str | None:
        event = told.event
        return self.text("ev_roamers_move", count=event["count"])

    def _ev_disgrace(self, told: _Told) -> str | None:
        event, seat, who, card = told.event, told.seat, told.who, told.card
        keys = event.get("returned") or []
        returned = ", ".join(card(k) for k in keys)
        # number agreement: one item ("Boar's Tusk Helmet goes back"); units are plural ("Myrmidons go")
        one = len(keys) == 1 and TYPES.get(keys[0], {}).get("kind") == "item"
        back = self.text("disgrace_returned_one" if one else "disgrace_returned", cards=returned)
        return self.text("ev_disgrace", who=who(seat), old=card(event["old"]), new=card(event["new"]),
                         returned=back if keys else "")

    def _ev_game_over(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        winner = event.get("winner")
        if event["reason"] == "glory":
            return self.text("ev_game_over_glory", who=who(winner))
        if winner is not None:
            return self.text("ev_game_over_limit", who=who(winner))
        scores = event.get("scores") or []
        best = max(scores) if scores else 0
        return self.text("ev_game_over_limit_tie",
                         who=", ".join(who(s) for s, gp in enumerate(scores) if gp == best))

    def _narrate_fate(self, event: dict, who, side, card) -> str:
        reason = event.get("reason")
        if event.get("card") is None:
            return self.text("ev_fate_empty", who=who(event.get("seat")))
        fields = {"who": who(event.get("seat")), "face": event["face"], "card": card(event["card"])}
        if reason in ("attacker", "defender"):
            return self.text("ev_fate_side", side=side(reason), **fields)
        if reason in ("extra", "escape", "start"):
            return self.text(f"ev_fate_{reason}", **fields)
        return self.text("ev_fate_roll", **fields)

    def _narrate_result(self, event: dict, who) -> str | None:
        if event.get("cancelled"):
            return None  # fight_cancelled said it
        winner = event.get("winner")
        totals = {"attacker_total": event["attacker_total"], "defender_total": event["defender_total"]}
        if event.get("duel"):
            if winner is None:
                return self.text("ev_result_duel_tie", **totals)
            win, lose = (event["attacker"], event["target"]) if winner == "attacker" else \
                (event["target"], event["attacker"])
            return self.text("ev_result_duel", winner=who(win), loser=who(lose),
                             win_total=totals[f"{winner}_total"],
                             lose_total=totals["defender_total" if winner == "attacker" else "attacker_total"])
        if winner == "defender":
            return self.text("ev_result_hero", target=who(event["target"]), **totals)
        if winner == "attacker":
            return self.text("ev_result_trojans", target=who(event["target"]), **totals)
        return self.text("ev_result_tie", **totals)

    def who(self, seat: int | None, names: list[str]) -> str:
        if seat is None or not 0 <= seat < len(names):
            return "?"
        return f"{names[seat]} ({letter(seat)})"

    def score_text(self, details: dict, seat: int) -> str | None:
        scores = details.get("scores") or []
        return self.text("end_score", gp=scores[seat]) if seat < len(scores) else None

    def result_lines(self, result: dict, names: list[str]) -> list[str]:
        places = result.get("places", [])
        scores = result.get("scores", [])
        heroes = result.get("heroes") or [None] * len(places)
        rounds = result.get("rounds", "?")
        winner = result.get("winner")
        if winner is not None and winner < len(names):
            key = "result_winner_glory" if result.get("reason") == "glory" else "result_winner_limit"
            head = self.text(key, name=names[winner], letter=letter(winner), rounds=rounds,
                             gp=scores[winner] if winner < len(scores) else "?")
        else:
            head = self.text("result_shared", rounds=rounds)
        order = sorted(range(min(len(places), len(names))), key=lambda s: (places[s], s))
        return [head, *(self.text("result_line", place=places[s], name=names[s], letter=letter(s),
                                  hero=self.name(heroes[s]) if heroes[s] else "?", gp=scores[s])
                        for s in order)]


_NARRATORS: dict[str, Callable[[TrojaPresenter, _Told], str | None]] = {
    "first_player": TrojaPresenter._ev_first_player,
    "round": TrojaPresenter._ev_round,
    "draw": TrojaPresenter._ev_draw,
    "reshuffle": TrojaPresenter._ev_reshuffle,
    "attach": TrojaPresenter._ev_attach,
    "end_turn": TrojaPresenter._ev_end_turn,
    "turn": TrojaPresenter._ev_who_only,
    "camp_done": TrojaPresenter._ev_who_only,
    "discard_done": TrojaPresenter._ev_who_only,
    "challenge": TrojaPresenter._ev_challenge,
    "combine": TrojaPresenter._ev_combine,
    "launch": TrojaPresenter._ev_launch,
    "add": TrojaPresenter._ev_add,
    "pass": TrojaPresenter._ev_pass,
    "duel": TrojaPresenter._ev_duel,
    "roam_attack": TrojaPresenter._ev_roam_attack,
    "fight": TrojaPresenter._ev_fight,
    "fate": TrojaPresenter._ev_fate,
    "intervene": TrojaPresenter._ev_card_played,
    "event": TrojaPresenter._ev_card_played,
    "wrath": TrojaPresenter._ev_wrath,
    "fight_mod": TrojaPresenter._ev_fight_mod,
    "fate_redrawn": TrojaPresenter._ev_fate_redrawn,
    "fight_cancelled": TrojaPresenter._ev_fight_cancelled,
    "fight_result": TrojaPresenter._ev_fight_result,
    "glory": TrojaPresenter._ev_glory,
    "escape": TrojaPresenter._ev_escape,
    "escape_failed": TrojaPresenter._ev_escape_failed,
    "contest": TrojaPresenter._ev_contest,
    "grows": TrojaPresenter._ev_grows,
    "wrath_lost": TrojaPresenter._ev_wrath_changed,
    "wrath_restored": TrojaPresenter._ev_wrath_changed,
    "wrecked": TrojaPresenter._ev_wrecked,
    "discard": TrojaPresenter._ev_discard,
    "banished": TrojaPresenter._ev_banished,
    "moved": TrojaPresenter._ev_moved,
    "roamers_move": TrojaPresenter._ev_roamers_move,
    "disgrace": TrojaPresenter._ev_disgrace,
    "game_over": TrojaPresenter._ev_game_over,
}


def _words(text: str) -> list[str]:
    cleaned = "".join(ch.lower() if ch.isalnum() or ch in "'’" else " " for ch in text)
    return cleaned.split()


PRESENTER = TrojaPresenter()
