"""Kiválasztottak on Discord: buttons for every decision (priority actions grouped by card, team selection,
ranks, targets, the order of timed effects), a line per thing that happens, and the two priority settings.
Every sentence lives in ``data/locales/kivalasztottak/<lang>.json`` (the game's language); card names are the
English ones of the card data, or the Hungarian ones (``name_hu``) and the rulebook's condition words when the
game is played in Hungarian (Polish has no card names of its own: it keeps the English ones).

Secrecy: every choice of a priority decision is ``secret`` (the panel shows what your hand and your face-down
obstacles allow, so it only ever opens privately), as are choices naming a hand card or a face-down level.
Narration comes from events only, which the engine scrubs of hidden cards.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from engines.kivalasztottak import decks as D
from engines.kivalasztottak.cards import card_defs, english
from host.locale import current_language
from host.outcome import Hand
from host.panels import MAX_BUTTONS, MAX_LABEL, MAX_OPTIONS, Choice
from host.presenters.base import OptionSpec, Presenter, Refined, Told

GAME = "kivalasztottak"
FREE_TYPES = ("quest", "building", "ally", "obstacle")
#: decision kinds whose choices show hidden cards of the deciding player (hand, face-down levels)
SECRET_DECISIONS = ("tower_order", "mulligan", "adjust_discard", "omen_bottom", "close_discard", "reserve_pick")


@lru_cache(maxsize=1)
def _hungarian_names() -> dict[str, str]:
    """English card name -> Hungarian card name."""
    return {d["name_en"]: d["name_hu"] for d in card_defs().values()}


def _hungarian() -> bool:
    return current_language() == "hu"


def _local(name):
    """A card name (English, as the engine says it; "#n" kept) in the game's language: Hungarian games use the
    cards' Hungarian names, every other language the English ones. Anything that is not a card name (the
    engine's "face-down obstacle", None) comes back as it is."""
    if not isinstance(name, str) or not _hungarian():
        return name
    names = _hungarian_names()
    base, sep, number = name.rpartition(" #")
    if sep and number.isdigit() and base in names:
        return f"{names[base]} #{number}"
    return names.get(name, name)


def _shorten(label: str, limit: int = MAX_LABEL) -> str:
    """A label cut at a word boundary (never inside a word or a name's "#n"), with "…" when anything went."""
    if len(label) <= limit:
        return label
    cut = label[:limit - 1]
    if " " in cut and label[limit - 1] != " ":
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip(" ,;:·→+") + "…"


def _fold(text: str) -> str:
    """Lower case without accents and extra spaces: "Kráni  Sniper" -> "krani sniper"."""
    text = unicodedata.normalize("NFKD", text)
    return " ".join("".join(ch for ch in text if not unicodedata.combining(ch)).lower().split())


def _entry(index: dict[str, dict], key: object) -> dict:
    """The card ``key`` of ``index`` (card id -> card), {} for none."""
    return index.get(key, {}) if isinstance(key, str) else {}


def _card_def(key: object) -> dict:
    """The definition of the card ``key`` ({} for none or an unknown one)."""
    return card_defs().get(key, {}) if isinstance(key, str) else {}


@dataclass
class _Told(Told):
    """A Kiválasztottak event being narrated: seats by name, cards and places by what the event calls them."""

    presenter: KivalasztottakPresenter

    def who(self, seat: int | None) -> str:
        return self.presenter._named(self.names, seat)

    def ref(self, field: str) -> str:
        """The card or place named by the event's ``field`` (its ``<field>_name``, else the place)."""
        value = self.event.get(field)
        if value is None:
            return "?"
        name = self.event.get(f"{field}_name")
        if name and not (str(value).startswith("T") and str(value)[1:].isdigit()):
            return name
        return self.presenter._place(value, self.names, name=name)

    def refs(self, field: str) -> str:
        """The cards or places listed by the event's ``field``, or "nobody"."""
        values = self.event.get(field) or []
        got = self.event.get(f"{field}_names") or [None] * len(values)
        return ", ".join(n or self.presenter._place(v, self.names) for v, n in zip(values, got)) \
            or self.presenter.text("nobody")


@dataclass
class _Decision:
    """An action ``a`` of a pending decision ``dec`` being labelled, with the seat's ``view``; ``kind``: the
    decision's kind, ``t``: the action's type, ``index``: the cards in view by id."""

    view: dict
    dec: dict
    a: dict
    presenter: KivalasztottakPresenter

    @property
    def kind(self) -> str:
        return self.dec["kind"]

    @property
    def t(self) -> str:
        return self.a["type"]

    @property
    def index(self) -> dict:
        return self.presenter._index(self.view)


class KivalasztottakPresenter(Presenter):
    game = GAME
    supports_auto_pass = True
    has_private = True

    def __init__(self) -> None:
        self._index_for: tuple[dict, dict, str] | None = None
        self._plan_for: tuple[dict, dict, str] | None = None
        self._two_step = False

    # -- options of /kivalasztottak new -----------------------------------------------------------

    @property
    def options(self) -> list[OptionSpec]:
        return [
            OptionSpec("deck", "text", self.text("opt_deck"), suggest="decks"),
            OptionSpec("opponent_deck", "text", self.text("opt_opponent_deck"), suggest="decks"),
            OptionSpec("round_limit", "int", self.text("opt_round_limit"), min_value=0, max_value=200),
        ]

    def engine_options(self, raw: dict, opponent: str = "open") -> tuple[int | None, dict]:
        """``deck`` is the creator's (seat 1), ``opponent_deck`` the other seat's: a starter deck (id or name),
        a deck code, or a deck the command has already looked up (a spec). A missing one is ``None``: when the
        game starts, the seat's player's chosen deck (``/deck use``), else the starter deck the other does not
        play (``engines.kivalasztottak.decks.complete``). Text that names no deck is refused here."""
        decks = []
        for name in ("deck", "opponent_deck"):
            value = raw.get(name)
            if isinstance(value, str):
                found = D.from_text(value)
                if found is None:
                    raise ValueError(self.text("deck_unknown", name=value[:40]))
                value = found
            decks.append(value)
        options: dict = {"decks": decks}
        if raw.get("round_limit") is not None:
            options["round_limit"] = raw["round_limit"]
        return 2, options

    @property
    def seat_labels(self) -> list[str]:
        return [self.text("seat_0"), self.text("seat_1")]

    # -- names of things in a view ---------------------------------------------------------------------

    def _index(self, view: dict) -> dict[str, dict]:
        """Card id -> the card as the view shows it (with ``label``, ``zone`` and ``seat`` added)."""
        lang = current_language()
        if self._index_for is not None and self._index_for[0] is view and self._index_for[2] == lang:
            return self._index_for[1]
        out: dict[str, dict] = {}
        for p in view.get("players", []):
            for zone in ("towers", "row", "team", "store", "quests", "solved", "buildings", "allies", "events",
                         "omen"):
                for c in p.get(zone, []):
                    if "id" in c:
                        out[c["id"]] = {**c, "zone": zone, "seat": p["seat"]}
                        for w in c.get("worn", []):
                            if "id" in w:
                                out[w["id"]] = {**w, "zone": "worn", "seat": p["seat"], "on": c["id"]}
                        for a in c.get("attached", []):
                            if "id" in a:
                                out[a["id"]] = {**a, "zone": "attached", "seat": p["seat"], "on": c["id"]}
        for c in view.get("hand", []) or []:
            out[c["id"]] = {**c, "zone": "hand", "seat": view.get("seat")}
        if lang == "hu":  # (the only language whose card names are not the engine's: _local)
            for c in out.values():
                for field in ("name", "label"):
                    if field in c:
                        c[field] = _local(c[field])
        self._index_for = (view, out, lang)
        return out

    def _label(self, view: dict, cid) -> str:
        """How a card, a thread item or a place is called on a button."""
        if cid is None:
            return "?"
        card = self._index(view).get(cid)
        if card is not None:
            if card["zone"] == "towers":
                tower = self._tower(card["seat"], self._tower_place(view, cid), None, view)
                return self.text("tower_named", tower=tower, name=card["name"])
            return card.get("label") or card["name"]
        return self._place(cid, view=view)

    def _tower_place(self, view: dict, cid: str) -> int:
        for p in view["players"]:
            for i, t in enumerate(p["towers"]):
                if t.get("id") == cid:
                    return i + 1
        return 0

    def _place(self, ref: str, names: list[str] | None = None, view: dict | None = None,
               name: str | None = None) -> str:
        """A reference that is not a visible card: a tower place, a face-down card, a thread item,
        the i-th obstacle at the maneuver's location."""
        ref = str(ref)
        if ref.startswith("tower-"):
            _, seat, i = ref.split("-")
            return self._tower(int(seat), int(i) + 1, names, view)
        if ref.startswith("hidden-"):
            return self.text("face_down_card")
        if ref.startswith("obstacle-"):
            return self.text("face_down_obstacle_n", n=int(ref.split("-")[1]) + 1)
        if ref.startswith("T") and ref[1:].isdigit():
            if name is None and view is not None:
                item = next((it for it in view.get("thread") or [] if it["uid"] == ref), None)
                name = _local(item["name"]) if item else None
            if name == "face-down obstacle":  # how the engine calls a hidden thread item
                name = self.text("face_down_obstacle")
            return self.text("thread_item", name=name or self.text("an_effect"))
        return name or ref

    def _named(self, names: list[str], seat) -> str:
        """A player in narration: the name in bold with the seat letter beside it, as on the picture."""
        if not isinstance(seat, int) or not 0 <= seat < len(names):
            return "?"
        return f"**{names[seat]}** ({self.seat_label(seat)})"

    def _tower(self, seat: int, place: int, names: list[str] | None, view: dict | None) -> str:
        """A tower level by its place (1 = bottom): the named player's in narration, else yours or the
        enemy's as the viewer sees it (whole phrases, so each language can say the owner its own way)."""
        if names is not None and seat < len(names):
            return self.text("tower_of", who=self._named(names, seat), place=place)
        if view is not None and view.get("seat") is not None:
            return self.text("tower_mine" if seat == view["seat"] else "tower_enemy", place=place)
        return self.text("tower_of", who=self.seat_label(seat), place=place)

    # -- what a card or ability does, in a few words -----------------------------------------------------

    def _effects(self, effects: list[dict]) -> str:
        parts = []
        for eff in effects:
            op = eff["op"]
            fields = dict(eff)
            if op == "token":
                fields["name"] = _local(card_defs()[eff["card"]]["name_en"])
            if op == "buff" or op == "buff_team":
                fields["stat"] = self.text(f"stat_{eff['stat']}")
                fields["sign"] = "+" if eff["amount"] >= 0 else "−"
                fields["abs"] = abs(eff["amount"])
            if op == "free_maneuver":
                fields["kind"] = self.text(f"maneuver_{eff['kind']}")
            key = f"eff_{op}_anyway" if op == "damage" and eff.get("anyway") else f"eff_{op}"
            parts.append(self.text(key, **fields))
        return ", ".join(parts)

    def _cost(self, ab: dict) -> str:
        parts = []
        if ab.get("mp"):
            parts.append(self.text("cost_mp", n=ab["mp"]))
        if ab.get("szp"):
            parts.append(self.text("cost_szp", n=ab["szp"]))
        if "TAP" in ab.get("sym", ()):
            parts.append(self.text("cost_tap"))
        if ab.get("sacrifice"):
            parts.append(self.text("cost_sacrifice"))
        return ", ".join(parts)

    def ability_text(self, key: str, index: int) -> str:
        ab = card_defs()[key]["abilities"][index]
        what = self._effects(ab.get("effect", []))
        cost = self._cost(ab)
        return f"{what} ({cost})" if cost else what

    def hand(self, view: dict | None) -> Hand | None:
        """The cards in hand by name and cost ("Aranyhajú (3 MP)"), and which of them can be played now: what the
        hand picture frames (render/kivalasztottak.py, render_private; the picture above has their texts)."""
        if view is None or view.get("seat") is None or view.get("hand") is None:
            return None
        index = self._index(view)

        def name(card: dict) -> str:  # (by name: a button's "#2" of a second copy changes as copies come and go)
            return (index.get(card["id"]) or {}).get("name") or card["name"]

        items = tuple(self.text("hand_card", card=name(c), cost=self._card_cost(c)) for c in view["hand"])
        playable = {a.get("card") for a in view.get("legal") or [] if a.get("type") in ("summon", "attach_reward")}
        now = list(dict.fromkeys(name(c) for c in view["hand"] if c["id"] in playable))
        return Hand(items, self.text("hand_playable", cards=", ".join(now)) if now else "")

    def _card_cost(self, card: dict) -> str:
        if card["type"] == "obstacle":  # attached for free, but revealing it costs its MP value
            return self.text("cost_reveal", n=card.get("mp", 0))
        if card["type"] in FREE_TYPES or not card.get("mp"):
            return self.text("free")
        return self.text("cost_mp", n=card.get("mp", 0))

    # -- buttons ---------------------------------------------------------------------------------------

    def _decision(self, view: dict) -> dict | None:
        seat = view.get("seat")
        return next((d for d in view.get("pending") or [] if d["seat"] == seat), None)

    def _plan(self, view: dict) -> dict[int, str]:
        """Group names of the priority actions of ``view`` (by action index): one group per hand card (its
        summons and reward attachments), per card with abilities, per face-down obstacle, then maneuvers,
        equipment and passing.

        Discord fits at most five one-choice groups as direct buttons next to the group select, and 25 groups
        in it: beyond that, one-choice groups of a kind are merged ("Cards from your hand", ...), and with more
        than 25 groups abilities and obstacles are grouped by kind."""
        lang = current_language()
        if self._plan_for is not None and self._plan_for[0] is view and self._plan_for[2] == lang:
            return self._plan_for[1]
        legal = view.get("legal") or []
        index = self._index(view)
        kinds: dict[int, str] = {}
        fine: dict[int, str] = {}
        for i, a in enumerate(legal):
            t = a["type"]
            if t == "pass":
                kinds[i], fine[i] = "pass", self.text("group_pass")
            elif t in ("summon", "attach_reward"):
                card = index.get(a["card"], {"name": "?", "type": "action", "label": "?"})
                kinds[i] = "card"
                fine[i] = self.text("group_card", card=card.get("label") or card["name"], cost=self._card_cost(card))
            elif t == "activate" and self.heals_nothing(view, a):
                kinds[i], fine[i] = "noeffect", self.text("group_no_effect")  # apart: a cost for no effect
            elif t == "activate":
                kinds[i], fine[i] = "ability", self.text("group_ability", card=self._label(view, a["card"]))
            elif t == "activate_obstacle":
                kinds[i], fine[i] = "obstacle", self.text("group_obstacle", card=self._label(view, a["card"]))
            elif t == "maneuver":
                kinds[i], fine[i] = "maneuver", self.text("group_maneuver")
            else:
                kinds[i], fine[i] = "equipment", self.text("group_equipment")
        plan = dict(fine)
        if len(set(plan.values())) > MAX_OPTIONS:
            for i, kind in kinds.items():
                if kind in ("ability", "obstacle"):
                    plan[i] = self.text(f"group_{kind}_all")
        for merged in ("card", "ability", "obstacle", "equipment", "maneuver", None):
            sizes: dict[str, int] = {}
            for g in plan.values():
                sizes[g] = sizes.get(g, 0) + 1
            singles = {g for g, n in sizes.items() if n == 1}
            if len(singles) <= MAX_BUTTONS:
                break
            for i in plan:
                if plan[i] in singles and kinds[i] != "pass" and (merged is None or kinds[i] == merged):
                    plan[i] = self.text(f"group_{merged or 'more'}_all")
        self._plan_for = (view, plan, lang)
        return plan

    def heals_nothing(self, view: dict, action: dict) -> bool:
        """An activation whose only effect is a heal, of an adventurer with no damage: legal (the book: "at
        most X damage comes off"), but it changes nothing except its cost (issue 26). The one time such a
        cost is the point, a card sacrificed while an enemy effect on the thread aims at it, is not counted."""
        if action.get("type") != "activate":
            return False
        index = self._index(view)
        card = index.get(action["card"], {})
        abilities = _card_def(card.get("key")).get("abilities", [])
        if action["ability"] >= len(abilities):
            return False
        ab = abilities[action["ability"]]
        if not ab.get("effect") or any(e["op"] != "heal" for e in ab["effect"]):
            return False
        target = index.get(action.get("target") or action["card"], {})
        if target.get("dmg", 1) > 0:
            return False
        return not self.sacrifice_under_fire(view, action)

    def sacrifice_under_fire(self, view: dict, action: dict) -> bool:
        """An activation that sacrifices its card while an enemy effect on the thread aims at that card: the
        effect would lose its target (the Wild Dog answering a shot at it)."""
        if action.get("type") != "activate":
            return False
        card = self._index(view).get(action["card"], {})
        abilities = _card_def(card.get("key")).get("abilities", [])
        if action["ability"] >= len(abilities) or not abilities[action["ability"]].get("sacrifice"):
            return False
        seat = view.get("seat")
        return any(it["seat"] != seat and action["card"] in it.get("targets", ()) for it in view.get("thread") or ())

    def describe(self, view: dict, action: dict, index: int) -> Choice:
        dec = self._decision(view)
        if dec is None:
            group = self._plan(view).get(index, self.text("group_pass"))
            label, style = self._priority_label(view, action)
            return Choice(index, _shorten(label), group, style=style, secret=True)
        label, group, style = self._decision_label(view, dec, action)
        return Choice(index, _shorten(label), group, style=style, secret=dec["kind"] in SECRET_DECISIONS)

    def _fitted(self, key: str, long: str, **fields) -> str:
        """A label whose ``long`` field (an ability's effect, a condition) gives way word by word when the
        whole would not fit on a button, so that the card and the target are always kept."""
        text = self.text(key, **fields)
        words = str(fields[long]).split()
        while len(text) > MAX_LABEL and len(words) > 1:
            words.pop()
            fields[long] = " ".join(words).rstrip(",;:+·") + "…"
            text = self.text(key, **fields)
        return text

    def _priority_label(self, view: dict, a: dict) -> tuple[str, str]:
        t = a["type"]
        index = self._index(view)
        if t == "pass":
            thread = view.get("thread")
            if thread is None:
                key = "label_pass"
            elif not view.get("passes"):
                key = "label_pass_first"  # only the second pass in a row resolves an item or closes the thread
            else:
                key = "label_pass_resolve" if thread else "label_pass_close"
            return self.text(key), "secondary"
        if t == "summon":
            card = index.get(a["card"], {"name": "?", "type": "action"})
            name = card.get("label") or card["name"]
            if card["type"] == "obstacle":
                return self.text("label_summon_obstacle", card=name, place=self._label(view, a["target"])), "primary"
            if a.get("by"):
                return self.text("label_summon_by", card=name, by=self._label(view, a["by"]),
                                 target=self._label(view, a.get("target"))), "primary"
            if a.get("target"):
                return self.text("label_summon_target", card=name, target=self._label(view, a["target"])), "primary"
            key = "label_summon_item" if card.get("action_type") in ("item", "magic_item") else \
                "label_play" if card["type"] in ("event", "action") else "label_summon"
            return self.text(key, card=name, cost=self._card_cost(card)), "primary"
        if t == "attach_reward":
            card = index.get(a["card"], {})
            return self.text("label_attach_reward", card=self._label(view, a["card"]),
                             quest=self._label(view, a["quest"]), cost=self._card_cost(card)), "secondary"
        if t == "activate":
            card = index.get(a["card"], {"key": None})
            what = self.ability_text(card["key"], a["ability"]) if card.get("key") else "?"
            key = "label_activate_target" if a.get("target") else "label_activate"
            if self.heals_nothing(view, a):
                key += "_no_effect"
            return self._fitted(key, "what", card=self._label(view, a["card"]), what=what,
                                target=self._label(view, a.get("target"))), "success"
        if t == "activate_obstacle":
            card = index.get(a["card"], {"name": "?"})
            key = "label_obstacle_target" if a.get("target") else "label_obstacle"
            name = card.get("label") or card["name"]
            if card.get("on") and card["on"] != (view.get("maneuver") or {}).get("target"):
                name = self.text("obstacle_at", card=name, place=self._label(view, card["on"]))
            label = self.text(key, card=name, cost=self.text("cost_mp", n=card.get("mp", 0)),
                              target=self._label(view, a.get("target")))
            if a.get("tap"):
                label += self.text("label_obstacle_tap", tap=self._label(view, a["tap"]))
            return label, "danger"
        if t == "maneuver":
            if a["kind"] == "siege":
                opp = 1 - view["seat"]
                return self.text("label_siege", place=self._place(f"tower-{opp}-0", view=view)), "danger"
            target = _entry(index, a.get("target"))
            if a["kind"] == "quest":
                key = "label_quest_own" if target.get("seat") == view["seat"] else "label_quest_enemy"
                return self.text(key, quest=self._label(view, a["target"]), dp=target.get("dp", "?")), "danger"
            return self.text("label_capture", building=self._label(view, a["target"]),
                             cost=target.get("dp", "?")), "danger"
        if t == "equip":
            return self.text("label_equip", item=self._label(view, a["item"]), to=self._label(view, a["to"])), \
                "secondary"
        if t == "unequip":
            item = index.get(a["item"], {})
            return self.text("label_unequip", item=self._label(view, a["item"]),
                             wearer=self._label(view, item.get("on"))), "secondary"
        return super().describe(view, a, 0).label, "secondary"

    def _decision_label(self, view: dict, dec: dict, a: dict) -> tuple[str, str, str]:
        """(label, group, button style) of the action ``a`` of the decision ``dec``."""
        labeller = _DECISION_LABELS.get(dec["kind"])
        if labeller is None:
            return super().describe(view, a, 0).label, dec["kind"], "secondary"
        return labeller(self, _Decision(view, dec, a, self))

    # -- the label of each kind of decision (_DECISION_LABELS) ---------------------------------------------------

    def _label_tower_order(self, asked: _Decision) -> tuple[str, str, str]:
        a, index = asked.a, asked.index
        parts = []
        for cid in a["order"]:
            tower = index.get(cid, {"name": "?", "wall": "?"})
            parts.append(self.text("tower_wall", name=tower["name"], wall=tower.get("wall", "?")))
        return self.text("label_tower_order", bottom=parts[0], middle=parts[1], top=parts[2]), \
            self.text("group_towers"), "secondary"

    def _label_mulligan(self, asked: _Decision) -> tuple[str, str, str]:
        view, t = asked.view, asked.t
        n = len(view.get("hand") or [])
        key = "label_keep" if t == "keep" else "label_mulligan"
        return self.text(key, n=n, less=max(0, n - 2)), self.text("group_mulligan"), \
            "success" if t == "keep" else "secondary"

    def _label_discard(self, asked: _Decision) -> tuple[str, str, str]:
        view, a, kind, t = asked.view, asked.a, asked.kind, asked.t
        if t == "no_discard":
            return self.text("label_no_discard"), self.text("group_keep_hand"), "success"
        key = "label_bottom" if t == "bottom" else "label_discard"
        return self.text(key, card=self._label(view, a["card"])), self.text(f"group_{kind}"), "secondary"

    def _label_team(self, asked: _Decision) -> tuple[str, str, str]:
        view, a, t, index = asked.view, asked.a, asked.t, asked.index
        if t == "team_add":
            card = index.get(a["card"], {})
            return self.text("label_team_add", card=self._label(view, a["card"]), level=card.get("level", "?")), \
                self.text("group_team_add"), "primary"
        if t == "equip":
            return self.text("label_equip", item=self._label(view, a["item"]), to=self._label(view, a["to"])), \
                self.text("group_team_gear"), "secondary"
        if t == "team_done":
            me = view["players"][view["seat"]]
            return self.text("label_team_done", n=len(me["team"]),
                             level=sum(max(0, c.get("level", 0)) for c in me["team"])), \
                self.text("group_team_done"), "success"
        return self.text("label_no_block"), self.text("group_team_done"), "secondary"

    def _label_wall_choice(self, asked: _Decision) -> tuple[str, str, str]:
        t = asked.t
        return self.text(f"label_{t}"), self.text("group_wall"), "success" if t == "end_siege" else "secondary"

    def _label_ranks(self, asked: _Decision) -> tuple[str, str, str]:
        view, a = asked.view, asked.a
        me = view["players"][view["seat"]]
        back = [self._label(view, c["id"]) for c in me["team"] if c["id"] not in a["front"]]
        front = ", ".join(self._label(view, c) for c in a["front"])
        key = "label_ranks" if back else "label_ranks_all"
        return self.text(key, front=front, back=", ".join(back)), self.text("group_ranks"), "secondary"

    def _label_continue_quest(self, asked: _Decision) -> tuple[str, str, str]:
        t = asked.t
        return self.text(f"label_{t}"), self.text("group_quest"), "success" if t == "continue" else "secondary"

    def _label_solve(self, asked: _Decision) -> tuple[str, str, str]:
        view, a, t = asked.view, asked.a, asked.t
        if t == "decline":
            return self.text("label_decline"), self.text("group_solve"), "secondary"
        quest = self._maneuver_target(view)
        conds = (None if _hungarian() else quest.get("conditions_en")) or quest.get("conditions") or []
        cond = conds[a["condition"]] if a["condition"] < len(conds) else "?"
        return self._fitted("label_solve", "condition", n=a["condition"] + 1, condition=cond,
                            mp=quest.get("mp", "?")), \
            self.text("group_solve"), "success"

    def _label_beast_target(self, asked: _Decision) -> tuple[str, str, str]:
        view, a = asked.view, asked.a
        return self.text("label_beast_target", card=self._label(view, a["card"])), \
            self.text("group_beast"), "danger"

    def _label_trigger_order(self, asked: _Decision) -> tuple[str, str, str]:
        view, a, index = asked.view, asked.a, asked.index
        card = index.get(a["card"], {"key": None})
        what = self.ability_text(card["key"], a["ability"]) if card.get("key") else "?"
        return self._fitted("label_order_trigger", "what", card=self._label(view, a["card"]), what=what), \
            self.text("group_trigger"), "primary"

    def _label_destroy_building(self, asked: _Decision) -> tuple[str, str, str]:
        view, a = asked.view, asked.a
        return self.text("label_destroy_building", card=self._label(view, a["card"])), \
            self.text("group_destroy"), "danger"

    def _label_reserve_pick(self, asked: _Decision) -> tuple[str, str, str]:
        view, a = asked.view, asked.a
        card = next((c for c in view.get("reserve") or [] if c["id"] == a["card"]), {"name": "?"})
        return self.text("label_reserve_pick", card=_local(card["name"]), cost=self._card_cost(card)), \
            self.text("group_reserve"), "primary"

    def _maneuver_target(self, view: dict) -> dict:
        m = view.get("maneuver") or {}
        return _entry(self._index(view), m.get("target"))

    @property
    def two_step(self) -> bool:  # noqa: D401 - decided per panel by ``prompt``
        """First the card, then how (summoner → target) — when some card has more choices than a row of
        buttons; otherwise every choice is shown at once. Set by ``prompt``, which the host calls for the
        same view just before it reads this (see the report: a per-view ``two_step`` would be cleaner)."""
        return self._two_step

    @two_step.setter
    def two_step(self, value: bool) -> None:  # (writable, as every presenter's ``two_step``)
        self._two_step = value

    def _wants_two_step(self, view: dict) -> bool:
        legal = view.get("legal") or []
        if self._decision(view) is not None or not legal:
            return False
        plan = self._plan(view)
        sizes: dict[str, int] = {}
        for i in range(len(legal)):
            sizes[plan.get(i, "")] = sizes.get(plan.get(i, ""), 0) + 1
        return len(sizes) > 1 and max(sizes.values()) > MAX_BUTTONS

    # -- prompts ---------------------------------------------------------------------------------------

    def prompt(self, view: dict) -> str:
        self._two_step = self._wants_two_step(view)
        dec = self._decision(view)
        seat = view.get("seat")
        m = view.get("maneuver") or {}
        if dec is not None:
            kind = dec["kind"]
            if kind == "team":
                role = "init" if m.get("initiator") == seat else "block"
                return self.text(f"prompt_team_{role}", maneuver=self._maneuver_name(view))
            if kind == "adjust_discard":
                n = len(view.get("hand") or [])
                return self.text("prompt_adjust_discard", n=n, extra=max(0, n - 7))
            if kind == "wall_choice":
                return self.text("prompt_wall_choice", wall=m.get("wall", "?"))
            if kind == "solve":
                quest = self._maneuver_target(view)
                return self.text("prompt_solve", quest=quest.get("name", "?"), mp=quest.get("mp", "?"))
            return self.text(f"prompt_{kind}")
        thread = view.get("thread")
        if thread:
            top = thread[-1]
            who = self.text("you") if top["seat"] == seat else self.text("your_opponent")
            targets = ", ".join(self._label(view, t) for t in top.get("targets", []))
            # the prompt is posted in the thread: the player's own face-down obstacle stays unnamed
            name = self.text("face_down_obstacle") if top.get("hidden") or top.get("face_down") else _local(top["name"])
            what = name + (f" → {targets}" if targets else "")
            return self.text("prompt_thread", who=who, what=what, n=len(thread))
        if thread is not None:
            step = m.get("step")
            if step in ("init_thread", "reveal", "obstacles", "block_thread", "prep", "result", "solve_thread"):
                return self.text(f"prompt_step_{step}", maneuver=self._maneuver_name(view), wall=m.get("wall", "?"))
            return self.text("prompt_thread_empty")
        if seat is None:  # (only a seat is asked to decide)
            raise ValueError("a prompt is for a seat")
        me, opp = view["players"][seat], view["players"][1 - seat]
        if m.get("step") == "rounds":
            return self.text("prompt_combat_round", round=m.get("combat_round"), mp=me["mp"], opp_mp=opp["mp"])
        return self.text("prompt_maneuvers", mp=me["mp"], opp_mp=opp["mp"])

    def _maneuver_name(self, view: dict) -> str:
        m = view.get("maneuver") or {}
        kind = m.get("kind", "siege")
        target = m.get("target")
        return self.text(f"maneuver_{kind}_of", target=self._label(view, target) if target else "?")

    def status_line(self, view: dict) -> str:
        p = view["players"]
        return self.text("status", round=view["round"], mp0=p[0]["mp"], mp1=p[1]["mp"], dp0=p[0]["dp"],
                         dp1=p[1]["dp"])

    # -- typed moves -----------------------------------------------------------------------------------

    def parse(self, view: dict, choices: list[Choice], text: str) -> int | Refined:
        """Like the default, but accents and case do not matter, and a unique beginning or a set of words
        that only one choice contains is enough ("sniper clan", "pass", "siege")."""
        wanted = _fold(text)
        if not wanted:
            raise ValueError(self.text("parse_empty"))
        folded = [(_fold(c.label), c) for c in choices]
        for test in (lambda lab: lab == wanted, lambda lab: lab.startswith(wanted), lambda lab: wanted in lab,
                     lambda lab: all(w in lab for w in wanted.split())):
            found = [c for lab, c in folded if test(lab)]
            if len(found) == 1:
                return found[0].index
            if len(found) > 1:
                sample = "; ".join(c.label for c in found[:8])
                raise ValueError(self.text("parse_ambiguous", text=text, n=len(found), sample=sample))
        sample = "; ".join(c.label for c in choices[:8])
        raise ValueError(self.text("parse_none", text=text, sample=sample))

    # -- the priority settings -------------------------------------------------------------------------

    def auto_pass(self, view: dict, legal: list[dict], settings: dict) -> bool:
        """Whether to pass for this seat now, from its own view and settings only.

        * ``auto_pass`` (on by default): pass when passing is the only choice, or the others are activations
          that heal nothing (:meth:`heals_nothing`: an undamaged target, and not a sacrifice under fire).
        * ``stop_on_opponent`` (on by default): when off, inside an open time thread — answering what the
          opponent put on it, or the last chance before an item resolves or the thread closes — pass unless
          the player could use a hidden fast effect (a card from the hand, a face-down obstacle) or one of
          his adventurers is at level 0 or less (it dies when the thread closes, so a heal may matter) or a card
          he could sacrifice is what an enemy effect aims at (:meth:`sacrifice_under_fire`).
          His own actions outside a thread and every other decision are always asked.
        """
        if not any(a["type"] == "pass" for a in legal):
            return False
        if settings.get("auto_pass", True) and all(a["type"] == "pass" or self.heals_nothing(view, a)
                                                   for a in legal):
            return True  # a heal with nothing to heal counts as nothing to do (rules version 3 offers it)
        if settings.get("stop_on_opponent", True) or view.get("thread") is None:
            return False
        if any(a["type"] in ("summon", "activate_obstacle", "attach_reward") for a in legal):
            return False
        me = view["players"][view["seat"]]
        if any(c.get("level", 1) < 1 for c in [*me["row"], *me["team"]]):
            return False
        if any(self.sacrifice_under_fire(view, a) for a in legal):
            return False  # the Wild Dog shot at may still make the shot lose its target
        return True

    # -- narration -------------------------------------------------------------------------------------

    def opening_lines(self, view: dict, names: list[str]) -> list[str]:
        """Who plays which deck, and whom the die made the first player."""
        players = view.get("players") or []
        if len(players) < 2 or len(names) < 2:
            return []
        decks = [self.text("deck_of", who=self._named(names, p["seat"]), deck=p["deck_name"], hu=p["deck_name_hu"])
                 for p in players]
        return [self.text("opening_decks", decks="; ".join(decks)),
                self.text("opening_first", who=self._named(names, view["first"]))]

    def confirm(self, view: dict, action: dict, legal: list[dict]) -> str | None:
        """The second pass in a row with nothing on the time thread and no maneuver under way ends the
        maneuvers phase for both players: asked first when something else could still be done."""
        if (action["type"] == "pass" and view.get("stage") == "maneuvers" and view.get("thread") is None
                and view.get("maneuver") is None and view.get("passes")
                and any(a["type"] != "pass" for a in legal)):
            return self.text("confirm_pass_phase")
        return None

    def narrate(self, event: dict, names: list[str]) -> str | None:
        if _hungarian():  # the engine names cards in English: a Hungarian game says their Hungarian names
            event = {k: [_local(x) for x in v] if k.endswith("_names") and isinstance(v, list)
                     else _local(v) if k == "name" or k.endswith("_name") else v for k, v in event.items()}
        told = _Told(event, names, self)
        narrator = _NARRATORS.get(told.kind)
        # (thread_closed and other kinds without a narrator: the lines about deaths and damage say what matters)
        return narrator(self, told) if narrator is not None else None

    # -- the narration of each kind of event (_NARRATORS) -------------------------------------------------------

    def _ev_who_only(self, told: _Told) -> str | None:
        seat, kind, who = told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat))

    def _ev_hand_size(self, told: _Told) -> str | None:
        event, seat, kind, who = told.event, told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat), n=event["hand"])

    def _ev_round_started(self, told: _Told) -> str | None:
        event = told.event
        return self.text("ev_round_started", round=event["round"])

    def _ev_resources(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        mp = event["mp"]
        return self.text("ev_resources", who0=who(0), who1=who(1), mp0=mp[0], mp1=mp[1])

    def _ev_drew(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_drew_one" if event["n"] == 1 else "ev_drew", who=who(seat), n=event["n"])

    def _ev_discarded(self, told: _Told) -> str | None:
        seat, who, ref = told.seat, told.who, told.ref
        return self.text("ev_discarded", who=who(seat), card=ref("card"))

    def _ev_phase(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        if event["phase"] == "maneuvers":
            return self.text("ev_phase_maneuvers", who=who(event.get("active")))
        return self.text("ev_phase_close")

    def _ev_omen_point_lost(self, told: _Told) -> str | None:
        event, seat, who, ref = told.event, told.seat, told.who, told.ref
        return self.text("ev_omen_point_lost", who=who(seat), card=ref("card"), left=event["left"])

    def _ev_passed(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return None if event.get("open", True) else self.text("ev_passed", who=who(seat))

    def _ev_summoned(self, told: _Told) -> str | None:
        event, seat, who, ref = told.event, told.seat, told.who, told.ref
        cost = self.text("free") if not event.get("cost") else self.text("cost_mp", n=event["cost"])
        if event.get("by"):
            return self.text("ev_summoned_by", who=who(seat), card=event["name"], cost=cost, by=ref("by"),
                             target=ref("target"))
        gear = _card_def(event.get("card_key")).get("action_type") in ("item", "magic_item")
        if event.get("target"):
            return self.text("ev_summoned_reward" if gear else "ev_summoned_target", who=who(seat),
                             card=event["name"], cost=cost, target=ref("target"))
        d = _card_def(event.get("card_key"))
        plays = d.get("type") == "event" or (d.get("type") == "action"
                                              and d.get("action_type") not in ("item", "magic_item"))
        return self.text("ev_played" if plays else "ev_summoned", who=who(seat), card=event["name"], cost=cost)

    def _ev_placed_hidden(self, told: _Told) -> str | None:
        event, seat, kind, who, ref = told.event, told.seat, told.kind, told.who, told.ref
        place = str(event.get("location"))
        if place.startswith(f"tower-{seat}-"):
            place = self.text("their_tower", place=int(place.rsplit("-", 1)[1]) + 1)
        else:
            place = ref("location")
        return self.text(f"ev_{kind}", who=who(seat), place=place)

    def _ev_activated(self, told: _Told) -> str | None:
        event, seat, who, ref = told.event, told.seat, told.who, told.ref
        key = event.get("card_key")
        what = self.ability_text(key, event["ability"]) if key in card_defs() else ""
        if event.get("target"):
            return self.text("ev_activated_target", who=who(seat), card=event["name"], what=what,
                             target=ref("target"))
        return self.text("ev_activated", who=who(seat), card=event["name"], what=what)

    def _ev_obstacle_activated(self, told: _Told) -> str | None:
        event, seat, who, ref = told.event, told.seat, told.who, told.ref
        key = "ev_obstacle_activated_target" if event.get("target") else "ev_obstacle_activated"
        return self.text(key, who=who(seat), card=event["name"], kind=self.text(f"kind_{event['kind']}"),
                         target=ref("target"))

    def _ev_trigger(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_trigger", card=event["name"], who=who(seat), on=self.text(f"on_{event['on']}"))

    def _ev_resolved(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_resolved", card=event["name"], who=who(seat))

    def _ev_fizzled(self, told: _Told) -> str | None:
        event = told.event
        name = event.get("name")
        return self.text("ev_fizzled", card=self.text("an_obstacle") if name == "obstacle" else name)

    def _ev_neutralised(self, told: _Told) -> str | None:
        event = told.event
        return self.text("ev_neutralised", card=event.get("name") or self.text("an_effect"))

    def _ev_entered(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        zone = event["zone"]
        d = _card_def(event.get("card_key"))
        if zone == "buildings":
            return self.text("ev_entered_building", who=who(seat), card=event["name"], dp=d.get("dp", "?"))
        if zone == "allies":
            return self.text("ev_entered_ally", who=who(seat), card=event["name"], szp=d.get("szp", "?"))
        return self.text(f"ev_entered_{zone}", who=who(seat), card=event["name"])

    def _ev_named_rule(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_named_rule", who=who(seat), card=event["name"])

    def _ev_attack_roll(self, told: _Told) -> str | None:
        event, ref = told.event, told.ref
        a, b = event["dice"]
        return self.text("ev_attack_hit" if event["hit"] else "ev_attack_miss", by=ref("by"),
                         target=ref("target"), card=event["name"], a=a, b=b, sum=a + b,
                         threshold=event["threshold"])

    def _ev_damaged(self, told: _Told) -> str | None:
        event, ref = told.event, told.ref
        key = "ev_damaged_anyway" if event.get("anyway") else "ev_damaged"
        line = self.text(key, card=ref("card"), n=event["amount"], level=event["level"])
        if event["level"] < 1:
            line += self.text("ev_dying")
        return line

    def _ev_card_only(self, told: _Told) -> str | None:
        kind, ref = told.kind, told.ref
        return self.text(f"ev_{kind}", card=ref("card"))

    def _ev_healed(self, told: _Told) -> str | None:
        event, ref = told.event, told.ref
        return self.text("ev_healed_one" if event["amount"] == 1 else "ev_healed", card=ref("card"),
                         n=event["amount"])

    def _ev_turned(self, told: _Told) -> str | None:
        event, ref = told.event, told.ref
        return self.text("ev_turned", card=ref("card"), state=self.text(f"state_{event['state']}"))

    def _ev_modified(self, told: _Told) -> str | None:
        event, ref = told.event, told.ref
        amount = event["amount"]
        return self.text("ev_modified", card=ref("card"), stat=self.text(f"stat_{event['stat']}"),
                         sign="+" if amount >= 0 else "−", n=abs(amount))

    def _ev_destroyed(self, told: _Told) -> str | None:
        event, ref = told.event, told.ref
        return self.text("ev_destroyed", card=event.get("name") or ref("card"))

    def _ev_mp_changed(self, told: _Told) -> str | None:
        event, seat, kind, who = told.event, told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat), n=event["amount"])

    def _ev_named_card(self, told: _Told) -> str | None:
        event, seat, kind, who = told.event, told.seat, told.kind, told.who
        return self.text(f"ev_{kind}", who=who(seat), card=event["name"])

    def _ev_equip_begun(self, told: _Told) -> str | None:
        seat, kind, who, ref = told.seat, told.kind, told.who, told.ref
        return self.text(f"ev_{kind}", who=who(seat), item=ref("item"), to=ref("to"))

    def _ev_equipped(self, told: _Told) -> str | None:
        seat, who, ref = told.seat, told.who, told.ref
        return self.text("ev_equipped", who=who(seat), item=ref("item"), to=ref("to"))

    def _ev_unequipped(self, told: _Told) -> str | None:
        seat, who, ref = told.seat, told.who, told.ref
        return self.text("ev_unequipped", who=who(seat), item=ref("item"))

    def _ev_reward_attached(self, told: _Told) -> str | None:
        seat, who, ref = told.seat, told.who, told.ref
        return self.text("ev_reward_attached", who=who(seat), card=ref("card"), quest=ref("quest"))

    def _ev_maneuver_declared(self, told: _Told) -> str | None:
        event, seat, who, ref = told.event, told.seat, told.who, told.ref
        cost = self.text("ev_cost", n=event["cost"]) if event.get("cost") else ""
        return self.text(f"ev_declared_{event['kind']}", who=who(seat), target=ref("target"), cost=cost)

    def _ev_maneuver_impossible(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_maneuver_impossible", who=who(seat), kind=self.text(f"maneuver_{event['kind']}"))

    def _ev_team_joined(self, told: _Told) -> str | None:
        seat, who, ref = told.seat, told.who, told.ref
        return self.text("ev_team_joined", who=who(seat), card=ref("card"))

    def _ev_team_left_row(self, told: _Told) -> str | None:
        event, seat, who, refs = told.event, told.seat, told.who, told.refs
        cost = self.text("ev_paid", n=event["cost"]) if event.get("cost") else ""
        return self.text("ev_team_left_row", who=who(seat), team=refs("team"), cost=cost)

    def _ev_tower_revealed(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_tower_revealed", who=who(seat), card=event["name"], wall=event["wall"])

    def _ev_beast_attacks(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_beast_attacks", who=who(seat), card=event["name"], n=event["number"],
                         attack=event["attack"], damage=event["damage"])

    def _ev_beast_roll(self, told: _Told) -> str | None:
        event, ref = told.event, told.ref
        a, b = event["dice"]
        return self.text("ev_beast_hit" if event["hit"] else "ev_beast_miss", card=ref("card"),
                         target=ref("target"), a=a, b=b, sum=a + b, attack=event["attack"])

    def _ev_beast_reattached(self, told: _Told) -> str | None:
        event, names = told.event, told.names
        return self.text("ev_beast_reattached", card=event["card_name"], place=self._place(
            event["location"], names, name=event.get("location_name")))

    def _ev_ranks(self, told: _Told) -> str | None:
        event, seat, who, refs = told.event, told.seat, told.who, told.refs
        if not event.get("back"):
            return self.text("ev_ranks_all", who=who(seat), front=refs("front"))
        return self.text("ev_ranks", who=who(seat), front=refs("front"), back=refs("back"))

    def _ev_combat_round(self, told: _Told) -> str | None:
        event = told.event
        return self.text("ev_combat_round", round=event["round"])

    def _ev_combat_result(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        lv = event["levels"]
        if event.get("winner") is None:
            return self.text("ev_combat_draw", who0=who(0), who1=who(1), lv0=lv[0], lv1=lv[1])
        return self.text("ev_combat_result", who0=who(0), who1=who(1), lv0=lv[0], lv1=lv[1],
                         who=who(event["winner"]))

    def _ev_team_returned(self, told: _Told) -> str | None:
        seat, who, refs = told.seat, told.who, told.refs
        return self.text("ev_team_returned", who=who(seat), team=refs("cards"))

    def _ev_quest_solved(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        d = _card_def(event.get("card_key"))
        conds = d.get("conditions") or []
        text = conds[event["condition"]]["text"] if event["condition"] < len(conds) else "?"
        cond = text if _hungarian() else english(text)
        return self.text("ev_quest_solved", who=who(seat), card=event["name"], condition=cond,
                         mp=event["mp"], dp=event["dp"])

    def _ev_reward_taken(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_reward_taken", who=who(seat), card=event["name"])

    def _ev_tower_destroyed(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_tower_destroyed", who=who(seat), card=event["name"])

    def _ev_building_captured(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        d = _card_def(event.get("card_key"))
        return self.text("ev_building_captured", who=who(seat), card=event["name"], dp=d.get("dp", "?"))

    def _ev_building_destroyed(self, told: _Told) -> str | None:
        seat, who, ref = told.seat, told.who, told.ref
        return self.text("ev_building_destroyed", who=who(seat), card=ref("card"))

    def _ev_reserve_searched(self, told: _Told) -> str | None:
        event, seat, who = told.event, told.seat, told.who
        return self.text("ev_reserve_searched", who=who(seat), left=event["left"])

    def _ev_reserve_empty(self, told: _Told) -> str | None:
        seat, who = told.seat, told.who
        return self.text("ev_reserve_empty", who=who(seat))

    def _ev_maneuver_ended(self, told: _Told) -> str | None:
        event = told.event
        return self.text("ev_maneuver_ended", kind=self.text(f"maneuver_{event['kind']}"))

    def _ev_game_over(self, told: _Told) -> str | None:
        event, who = told.event, told.who
        reason = self.text(f"reason_{event['reason']}")
        if event.get("winner") is None:
            return self.text("ev_game_over_draw", reason=reason)
        return self.text("ev_game_over", who=who(event["winner"]), reason=reason)

    def result_lines(self, result: dict, names: list[str]) -> list[str]:
        scores = result.get("scores", [0, 0])
        lines = [self.text("result_line", name=names[s], side=self.seat_label(s), dp=scores[s]) for s in (0, 1)]
        reason = self.text(f"reason_{result['reason']}") if result.get("reason") else "?"
        if result.get("winner") is None:
            return [self.text("result_draw", reason=reason), *lines]
        w = result["winner"]
        return [self.text("result_winner", name=names[w], side=self.seat_label(w), reason=reason), *lines]


_DECISION_LABELS: dict[str, Callable[[KivalasztottakPresenter, _Decision], tuple[str, str, str]]] = {
    "tower_order": KivalasztottakPresenter._label_tower_order,
    "mulligan": KivalasztottakPresenter._label_mulligan,
    "adjust_discard": KivalasztottakPresenter._label_discard,
    "close_discard": KivalasztottakPresenter._label_discard,
    "omen_bottom": KivalasztottakPresenter._label_discard,
    "team": KivalasztottakPresenter._label_team,
    "wall_choice": KivalasztottakPresenter._label_wall_choice,
    "ranks": KivalasztottakPresenter._label_ranks,
    "continue_quest": KivalasztottakPresenter._label_continue_quest,
    "solve": KivalasztottakPresenter._label_solve,
    "beast_target": KivalasztottakPresenter._label_beast_target,
    "trigger_order": KivalasztottakPresenter._label_trigger_order,
    "destroy_building": KivalasztottakPresenter._label_destroy_building,
    "reserve_pick": KivalasztottakPresenter._label_reserve_pick,
}


_NARRATORS: dict[str, Callable[[KivalasztottakPresenter, _Told], str | None]] = {
    "towers_set": KivalasztottakPresenter._ev_who_only,
    "card_to_bottom": KivalasztottakPresenter._ev_who_only,
    "no_block": KivalasztottakPresenter._ev_who_only,
    "quest_continued": KivalasztottakPresenter._ev_who_only,
    "quest_not_solved": KivalasztottakPresenter._ev_who_only,
    "siege_repelled_by_wall": KivalasztottakPresenter._ev_who_only,
    "maneuver_no_teams": KivalasztottakPresenter._ev_who_only,
    "combat_started": KivalasztottakPresenter._ev_who_only,
    "turned_back": KivalasztottakPresenter._ev_who_only,
    "mulligan": KivalasztottakPresenter._ev_hand_size,
    "kept_hand": KivalasztottakPresenter._ev_hand_size,
    "round_started": KivalasztottakPresenter._ev_round_started,
    "resources": KivalasztottakPresenter._ev_resources,
    "drew": KivalasztottakPresenter._ev_drew,
    "discarded": KivalasztottakPresenter._ev_discarded,
    "phase": KivalasztottakPresenter._ev_phase,
    "omen_point_lost": KivalasztottakPresenter._ev_omen_point_lost,
    "passed": KivalasztottakPresenter._ev_passed,
    "summoned": KivalasztottakPresenter._ev_summoned,
    "summoned_hidden": KivalasztottakPresenter._ev_placed_hidden,
    "obstacle_attached": KivalasztottakPresenter._ev_placed_hidden,
    "activated": KivalasztottakPresenter._ev_activated,
    "obstacle_activated": KivalasztottakPresenter._ev_obstacle_activated,
    "trigger": KivalasztottakPresenter._ev_trigger,
    "resolved": KivalasztottakPresenter._ev_resolved,
    "fizzled": KivalasztottakPresenter._ev_fizzled,
    "neutralised": KivalasztottakPresenter._ev_neutralised,
    "entered": KivalasztottakPresenter._ev_entered,
    "named_rule": KivalasztottakPresenter._ev_named_rule,
    "attack_roll": KivalasztottakPresenter._ev_attack_roll,
    "damaged": KivalasztottakPresenter._ev_damaged,
    "damage_prevented": KivalasztottakPresenter._ev_card_only,
    "warded": KivalasztottakPresenter._ev_card_only,
    "beast_victorious": KivalasztottakPresenter._ev_card_only,
    "healed": KivalasztottakPresenter._ev_healed,
    "turned": KivalasztottakPresenter._ev_turned,
    "modified": KivalasztottakPresenter._ev_modified,
    "destroyed": KivalasztottakPresenter._ev_destroyed,
    "mp_gained": KivalasztottakPresenter._ev_mp_changed,
    "mp_lost": KivalasztottakPresenter._ev_mp_changed,
    "token_created": KivalasztottakPresenter._ev_named_card,
    "sacrificed": KivalasztottakPresenter._ev_named_card,
    "ally_exhausted": KivalasztottakPresenter._ev_named_card,
    "died": KivalasztottakPresenter._ev_named_card,
    "equip_started": KivalasztottakPresenter._ev_equip_begun,
    "unequip_started": KivalasztottakPresenter._ev_equip_begun,
    "equipped": KivalasztottakPresenter._ev_equipped,
    "unequipped": KivalasztottakPresenter._ev_unequipped,
    "reward_attached": KivalasztottakPresenter._ev_reward_attached,
    "maneuver_declared": KivalasztottakPresenter._ev_maneuver_declared,
    "maneuver_impossible": KivalasztottakPresenter._ev_maneuver_impossible,
    "team_joined": KivalasztottakPresenter._ev_team_joined,
    "team_left_row": KivalasztottakPresenter._ev_team_left_row,
    "tower_revealed": KivalasztottakPresenter._ev_tower_revealed,
    "beast_attacks": KivalasztottakPresenter._ev_beast_attacks,
    "beast_roll": KivalasztottakPresenter._ev_beast_roll,
    "beast_reattached": KivalasztottakPresenter._ev_beast_reattached,
    "ranks": KivalasztottakPresenter._ev_ranks,
    "combat_round": KivalasztottakPresenter._ev_combat_round,
    "combat_result": KivalasztottakPresenter._ev_combat_result,
    "team_returned": KivalasztottakPresenter._ev_team_returned,
    "quest_solved": KivalasztottakPresenter._ev_quest_solved,
    "reward_taken": KivalasztottakPresenter._ev_reward_taken,
    "tower_destroyed": KivalasztottakPresenter._ev_tower_destroyed,
    "building_captured": KivalasztottakPresenter._ev_building_captured,
    "building_destroyed": KivalasztottakPresenter._ev_building_destroyed,
    "reserve_searched": KivalasztottakPresenter._ev_reserve_searched,
    "reserve_empty": KivalasztottakPresenter._ev_reserve_empty,
    "maneuver_ended": KivalasztottakPresenter._ev_maneuver_ended,
    "game_over": KivalasztottakPresenter._ev_game_over,
}


PRESENTER = KivalasztottakPresenter()
