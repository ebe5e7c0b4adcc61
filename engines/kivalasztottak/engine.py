"""Kiválasztottak (The Chosen), "Vadászháború" starter rules: the whole game as a pure, deterministic engine.

State layout (one JSON dict): ``p`` (two players: mp, zones as lists of card ids, mulligan/setup flags),
``cards`` (every card instance by id), ``stage`` (towers, mulligan, open, adjust, omen_bottom, maneuvers,
close, over), ``thread`` (the time thread: ``None`` when closed, else a list of items, top last), ``prio``
and ``passes`` (who may act now and how many passes in a row), ``maneuver`` (the out-of-row maneuver being
played, with its ``step``), ``pending`` (decisions that must be made before anything else: team selection,
ranks, beast targets, trigger order, discards ...), ``trig`` (timed effects waiting to go on the thread).

Where the English digest and the Hungarian rulebook differ the rulebook is followed; those places and the
decisions the rulebook leaves open are marked "Rulebook:" / "Decision:" in comments and listed in
``docs/kivalasztottak.md``.
"""

from __future__ import annotations

import json
from itertools import permutations

from engines.base import BaseEngine
from engines.protocol import IllegalAction
from engines.rng import Rng

from . import decks as D
from . import state as S
from .cards import (
    BUILDING_LIMIT,
    HAND_SIZE,
    IMMEDIATE_DP,
    QUEST_LIMIT,
    ROUND_END_DP,
    ROUND_MP,
    SIEGE_COST,
    START_MP,
    card_defs,
    default_decks,
)
from .conditions import holds

KEY = "kivalasztottak"
_CARD_DEFAULTS = {"state": "alert", "dmg": 0, "up": True}
DEFAULT_ROUND_LIMIT = 60
PAST = "past"


_NAMES: tuple = (None, {})


def _names_en() -> dict[str, str]:
    """Card key -> English name (rebuilt if the card definitions were reloaded)."""
    global _NAMES
    defs = card_defs()
    if _NAMES[0] is not defs:
        _NAMES = (defs, {k: d["name_en"] for k, d in defs.items()})
    return _NAMES[1]


def _v2(state: dict) -> bool:
    """The game began under rules version 2 or later (version-1 games keep their rules to the end)."""
    return state.get("rules_version", 1) >= 2


def _heals_damaged_only(state: dict) -> bool:
    """Version 2 offered a heal only for a damaged adventurer; versions 1 and 3 on any the card allows (the
    book: "Gyógyul x szintet: Lekerül róla legfeljebb X sebzés" - at most X damage comes off, and nothing
    makes an activation wait for an effect)."""
    return state.get("rules_version", 1) == 2


def _fast(ab_or_card: dict) -> bool:
    """Fast effect: INTERRUPT, or PERMANENT together with ONCE PER ROUND."""
    sym = ab_or_card.get("sym", [])
    if ab_or_card.get("interrupt"):
        return True
    return "INTERRUPT" in sym or ("PERMANENT" in sym and "ONCE_ROUND" in sym)


def _timing(ab: dict, th: bool, no_maneuver: bool, rounds: bool) -> bool:
    """May activated ability ``ab`` be used now (a thread open or not, outside maneuvers, in combat rounds)?"""
    fast = _fast(ab)
    sym = ab["sym"]
    if "COMBAT" in sym:
        return rounds and (fast or not th)
    if rounds:
        return "PERMANENT" in sym and (fast or not th)
    if no_maneuver:
        return fast or not th
    return fast and th


#: the timing situations of _timing: (thread open, no maneuver, combat rounds)
_SITUATIONS = [(th, none, rounds) for th in (False, True) for none, rounds in ((True, False), (False, False),
                                                                                   (False, True))]
_ACTIVATED: tuple = (None, {})
_HAND: tuple = (None, {})


def _card_timing(d: dict, th: bool, no_maneuver: bool, rounds: bool) -> bool:
    """May the action or event card ``d`` be summoned now (same situations as _timing)?"""
    fast = _fast(d)
    phase = d.get("phase", "row")
    if phase == "combat":
        return rounds and (fast or not th)
    if phase == "maneuver":
        # Decision: Maneuver-phase cards may be summoned in any thread a maneuver phase opens.
        return not no_maneuver and not rounds and th
    if no_maneuver:
        return fast or not th
    return fast and th and not rounds


def _hand_table() -> dict[str, tuple[int, int, list[bool]]]:
    """Card key -> (kind, MP needed, timing per situation) for the quick refusals of a hand card: kind 1 is
    summoned only in a free Row phase, 2 an action or event card, 3 an obstacle, 0 never (towers, omens)."""
    global _HAND
    defs = card_defs()
    if _HAND[0] is not defs:
        table = {}
        for k, d in defs.items():
            t = d["type"]
            if t in _ROW_ONLY_TYPES:
                table[k] = (1, d["mp"] if t == "adventurer" else -(10 ** 9), [])
            elif t in ("action", "event"):
                table[k] = (2, d["mp"], [_card_timing(d, *sit) for sit in _SITUATIONS])
            elif t == "obstacle":
                table[k] = (3, 0, [])
            else:
                table[k] = (0, 0, [])
        _HAND = (defs, table)
    return _HAND[1]


def _situation(state: dict) -> int:
    """The index in _SITUATIONS of the state's timing situation."""
    m = state["maneuver"]
    return (3 if state["thread"] is not None else 0) + (0 if m is None else 2 if m["step"] == "rounds" else 1)


def _activated() -> dict[str, list[list[tuple[int, dict]]]]:
    """Card key -> per timing situation, its activated abilities usable then as (index, ability); keys
    without activated abilities are left out."""
    global _ACTIVATED
    defs = card_defs()
    if _ACTIVATED[0] is not defs:
        table = {}
        for k, d in defs.items():
            abl = [(i, ab) for i, ab in enumerate(d["abilities"]) if ab["kind"] == "activated"]
            if abl:
                table[k] = [[(i, ab) for i, ab in abl if _timing(ab, *sit)] for sit in _SITUATIONS]
        _ACTIVATED = (defs, table)
    return _ACTIVATED[1]


_ROW_ONLY_TYPES = ("adventurer", "quest", "building", "ally")
_HIDDEN_ZONES = ("hand", "future", "setaside", "reserve")
_FACE_DOWN_ZONES = ("towers", "attached", "thread")


class _Hidden:
    """``cid in hidden``: is card ``cid`` hidden now (in a hand, the Future, set aside, or face down)? Asked
    of the few ids in events, instead of building the set of every hidden card after each action."""

    __slots__ = ("cards",)

    def __init__(self, cards: dict) -> None:
        self.cards = cards

    def __contains__(self, cid: object) -> bool:
        c = self.cards.get(cid)
        if c is None:
            return False
        zone = c["zone"]
        return zone in _HIDDEN_ZONES or (not c["up"] and zone in _FACE_DOWN_ZONES)


class KivalasztottakEngine(BaseEngine):
    key = KEY
    title = "Kiválasztottak"
    min_players = 2
    max_players = 2
    #: 2: the active player acts first in an open thread; equipping, unequipping and attaching a quest reward
    #: open a thread (the reward is paid for); the blocking phase closes with a thread even without a blocker;
    #: heals are offered only for damaged adventurers; tower levels have MP value 4, no race = human.
    #: 3: heals are offered on any own adventurer the card allows again (the book); decks of the players' own
    #: (``decks`` entries may be deck specs, see ``decks.py``) with a reserve deck (Cserepakli) that cards
    #: search (``search_reserve``). Games saved under versions 1 and 2 load and finish with their rules (see
    #: ``_v2``, ``_heals_damaged_only``; their states have no ``reserve`` zone).
    rules_version = 3
    #: undo within a turn (issue 25): putting a team together (adding an adventurer, the front rank, items
    #: equipped or taken off, the team done); summons, abilities, maneuvers and passes are final
    take_back = frozenset({"team_add", "team_done", "equip", "unequip", "ranks"})
    loadable_versions = (1, 2, 3)

    #: (state, S.MOVES value) when _check_immediate last found no immediate win in that state
    _calm: tuple | None = None
    #: (cards dict of a game, {group of card ids: its "#n" labels}); card ids keep their card key in a game
    _label_groups: tuple | None = None

    def forget(self, state: dict | None = None) -> None:
        """Also drop the facts kept about the last game's zones (see BaseEngine.forget)."""
        super().forget(state)
        self._calm = None
        self._label_groups = None

    # ------------------------------------------------------------------ set-up
    def new_game(self, num_players: int, seed: int, options: dict | None = None) -> dict:
        options = dict(options or {})
        if num_players != 2:
            raise ValueError("Kiválasztottak is a game for exactly 2 players.")
        unknown = set(options) - {"decks", "round_limit"}
        if unknown:
            raise ValueError(f"Unknown option(s): {', '.join(sorted(unknown))}. Known: decks, round_limit.")
        decks = options.get("decks", default_decks())
        if not isinstance(decks, list) or len(decks) != 2:
            raise ValueError(f"decks must be a list of two decks (preset ids from {list(D.presets())} or "
                             "decks of {name, cards, reserve}).")
        decks = D.complete(decks)  # None: no deck named for that seat (see decks.complete)
        specs = [D.spec_of(d) for d in decks]
        limit = options.get("round_limit", DEFAULT_ROUND_LIMIT)
        if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
            raise ValueError("round_limit must be a whole number >= 0 (0 = no limit).")
        for seat, spec in enumerate(specs):
            problems = D.problems(spec)
            if problems:
                raise ValueError(f"Deck {seat + 1} ({spec['name']}): " + " ".join(map(D.describe, problems)))
        rng = Rng(seed)
        st: dict = {
            "rules_version": self.rules_version, "options": {"decks": list(decks), "round_limit": limit},
            "cards": {}, "p": [], "round": 0, "stage": "towers", "thread": None, "prio": None, "passes": 0,
            "maneuver": None, "pending": [], "trig": [], "used_thread": [], "thread_quests": [], "victorious": [],
            "free_maneuver": None, "beast": None, "clock": 0, "last_acted": [0, 0], "result": None, "last": [],
            "uid": 0, "tokens": 0, "adjusted_once": False,
        }
        defs = card_defs()
        for seat, deck in enumerate(decks):
            p = {z: [] for z in S.LIST_ZONES}
            p.update({"mp": 0, "mulligans": 0, "kept": False, "towers_set": False, "used_round": [],
                      "omen_due": False, "deck": deck if isinstance(deck, str) else "custom"})
            if not isinstance(deck, str):
                p["deck_name"] = specs[seat]["name"]
            st["p"].append(p)
            keys = D.expand(specs[seat]["cards"])
            rng.shuffle(keys)  # ids carry no information about the card
            for i, key in enumerate(keys):
                cid = f"KV{seat}-{i:02d}"
                st["cards"][cid] = S.new_card(cid, key, seat, "future")
                p["future"].append(cid)
            reserve = D.expand(specs[seat]["reserve"])
            if reserve:  # the Cserepakli: face down aside, known only to its player, searched by effects
                rng.shuffle(reserve)
                for i, key in enumerate(reserve, len(keys)):
                    cid = f"KV{seat}-{i:02d}"
                    st["cards"][cid] = S.new_card(cid, key, seat, "reserve")
                    p["reserve"].append(cid)
        first = rng.below(2)  # "decide who starts, e.g. by a die roll"
        st["first"] = first
        st["last_acted"] = [0, 0]
        st["last_acted"][first] = -2  # the first player counts as having acted longer ago
        st["last_acted"][1 - first] = -1
        for seat in range(2):
            p = st["p"][seat]
            for cid in list(p["future"]):
                t = defs[st["cards"][cid]["k"]]["type"]
                if t == "tower":
                    S.move(st, cid, "towers", seat)
                    st["cards"][cid]["up"] = False
                elif t == "omen":
                    S.move(st, cid, "omen", seat)
                    st["cards"][cid]["op"] = defs[st["cards"][cid]["k"]]["op"]
                    p["omen_due"] = True
            rng.shuffle(p["future"])
            p["mp"] = START_MP
            for _ in range(HAND_SIZE):
                S.move(st, p["future"][-1], "hand", seat)
        st["rng"] = rng.state
        st["pending"] = [{"kind": "tower_order", "seat": s, "simul": True} for s in range(2)]
        return st

    def conformance_configs(self) -> list[tuple[int, dict]]:
        return [(2, {})]

    def max_playout_steps(self) -> int:
        return 20_000

    # ------------------------------------------------------------------ protocol
    def seat_count(self, state: dict) -> int:
        return len(state["p"])

    def to_act(self, state: dict) -> list[int]:
        if state["result"] is not None:
            return []
        pend = state["pending"]
        if pend:
            if pend[0].get("simul"):
                return sorted({d["seat"] for d in pend if d.get("simul")})
            return [pend[0]["seat"]]
        return [state["prio"]] if state["prio"] is not None else []

    def result(self, state: dict) -> dict | None:
        return state["result"]

    def to_json(self, state: dict) -> dict:
        """The state as plain JSON; card fields at their default value are left out (smaller saves)."""
        compact = dict(state)
        cards = {}
        for cid, c in state["cards"].items():
            d = dict(c)
            if d["state"] == "alert":
                del d["state"]
            if d["dmg"] == 0:
                del d["dmg"]
            if d["up"] is True:
                del d["up"]
            if d["ctrl"] == d["owner"]:
                del d["ctrl"]
            if d["zs"] == d["owner"]:
                del d["zs"]
            cards[cid] = d
        compact["cards"] = cards
        return json.loads(json.dumps(compact))

    def from_json(self, data: dict) -> dict:
        if data.get("rules_version") not in self.loadable_versions:
            raise ValueError(f"This saved game was made with rules version {data.get('rules_version')}; "
                             f"this engine plays versions {', '.join(map(str, self.loadable_versions))}.")
        state = json.loads(json.dumps(data))
        if state.get("rules_version", 1) < 3:
            for p in state["p"]:  # no reserve deck before version 3 (a state stamped with an old version)
                if not p.get("reserve", [None]):
                    del p["reserve"]
        for c in state["cards"].values():
            for k, v in _CARD_DEFAULTS.items():
                c.setdefault(k, v)
            c.setdefault("ctrl", c["owner"])
            c.setdefault("zs", c["owner"])
        return state

    def secrets(self, state: dict, seat: int | None) -> set[str]:
        out: set[str] = set()
        if seat is None:
            for p in state["p"]:
                out.update(p["future"])
                out.update(p["setaside"])
            return out
        p = state["p"][seat]
        out.update(p["hand"])
        out.update(p.get("reserve", ()))  # the Cserepakli: "tartalma csak a játékosa számára ismert"
        for cid, c in state["cards"].items():
            if c["owner"] == seat and not c["up"] and c["zone"] in ("towers", "attached", "thread"):
                out.add(cid)
        return out

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        pend = state["pending"]
        if pend or state["result"] is not None:
            if seat not in self.to_act(state):
                return []
            dec = next(d for d in pend if d["seat"] == seat)
            return self._decision_actions(state, dec)
        if state["prio"] != seat:  # to_act is [prio] here
            return []
        return self._prio_actions(state, seat)

    def auto_passable(self, state: dict, seat: int) -> bool:
        """True when ``seat`` is to act and could do nothing but pass (for the host's auto-pass setting)."""
        acts = self.legal_actions(state, seat)
        return bool(acts) and all(a["type"] == "pass" for a in acts)

    def explain_illegal(self, state: dict, seat: int, action: dict) -> str:
        """Why an action is refused, in words a player understands."""
        t = action.get("type")
        p = state["p"][seat]
        pend = [d for d in state["pending"] if d["seat"] == seat]
        if pend:
            return f"First decide: {pend[0]['kind'].replace('_', ' ')}."
        thread_open = state["thread"] is not None
        m = state["maneuver"]
        if t == "summon":
            cid = action.get("card")
            if cid not in p["hand"]:
                return "That card is not in your hand."
            d = S.cdef(state, cid)
            cost = 0 if d["type"] in ("quest", "building", "ally", "obstacle") else d.get("mp", 0)
            if cost > p["mp"]:
                return f"You cannot pay {cost} MP for {d['name_en']}: you have {p['mp']}."
            if d["type"] == "quest" and len(p["quests"]) >= QUEST_LIMIT:
                return "You already have 3 quests awaiting solution."
            if d["type"] in ("building", "ally"):
                return f"Your Row does not fulfil {d['name_en']}'s condition ({d['condition']['text']})."
            if thread_open and not _fast(d):
                return "The time thread is open: only fast effects may be added now."
            if d.get("phase") == "combat" and not (m and m["step"] == "rounds"):
                return f"{d['name_en']} can only be summoned in combat rounds."
            if d.get("castes"):
                return f"{d['name_en']} needs an alert {' or '.join(d['castes'])} adventurer in the right place."
            return f"You may not summon {d['name_en']} now."
        if t in ("maneuver", "equip", "unequip", "attach_reward"):
            if thread_open:
                return "The time thread is open: only fast effects may be added now."
            if m is not None:
                return "A maneuver is under way: that has to wait until it ends."
            if t == "maneuver":
                if not any(state["cards"][a]["state"] == "alert" for a in p["row"]):
                    return "You need an alert adventurer in your Row to start a maneuver."
                return "You cannot pay for that maneuver or it has no such target."
            if t == "unequip":
                return "Magic items cannot be unequipped."
            if t == "equip":
                return "An adventurer may wear at most one melee weapon and one armour."
        if t == "activate":
            return "That ability cannot be used now (cost, state, timing or once-only limit)."
        return "That move is not allowed now."

    # ------------------------------------------------------------------ views
    def view(self, state: dict, seat: int | None) -> dict:
        from .view import build_view
        return build_view(self, state, seat)

    # ------------------------------------------------------------------ apply
    def _apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        ev: list[dict] = []
        # facts that depend only on which cards lie in which zone, in which order (the "#n" labels the acting
        # player's buttons showed, ...): the previous apply left them in the memo
        zones = self._zone_facts(state)
        before = zones.get("labels")
        if before is None:
            before = zones["labels"] = self._labels(state)
        moves = S.MOVES[0]
        pend = state["pending"]
        reordered = False  # a tower order is the one change of a zone's order that is not a take/put
        if pend:
            dec = next(d for d in pend if d["seat"] == seat)
            reordered = dec["kind"] == "tower_order"
            self._decide(state, seat, dec, action, ev)
        else:
            self._prio_act(state, seat, action, ev)
        self._advance(state, ev)
        if S.MOVES[0] == moves and not reordered:
            after = before  # no card moved: the zone facts still hold
            self._scrub(state, ev, before)
        else:
            after = self._labels(state)
            self._scrub(state, ev, {**after, **before})
            zones = {"labels": after}
        state["last"] = ev[-12:]
        self._fresh_memo(state)["zones"] = zones  # the state is final: they hold until the next apply
        return ev

    def _zone_facts(self, state: dict) -> dict:
        """The memo's facts about the zones of ``state`` (kept across actions that move no card)."""
        memo = self._memo(state)
        zones = memo.get("zones")
        if zones is None:
            zones = memo["zones"] = {}
        return zones

    def _labels(self, state: dict) -> dict[str, str]:
        """Card id -> "Name #n" for public cards whose name appears twice in one zone (Row and team count as
        one), exactly as the view labels them for buttons and the picture."""
        out: dict[str, str] = {}
        name_of = _names_en()
        cards = state["cards"]
        cache = self._label_groups
        if cache is None or cache[0] is not cards:
            cache = self._label_groups = (cards, {})
        known = cache[1]
        for p in state["p"]:
            for group in (p["row"] + p["team"], p["store"], p["quests"], p["solved"], p["buildings"], p["allies"],
                          p["events"], p["towers"]):
                if len(group) < 2:
                    continue
                key = tuple(group)
                entries = known.get(key)
                if entries is None:
                    entries = known[key] = self._group_labels(group, [name_of[cards[c]["k"]] for c in group])
                if entries:
                    out.update(entries)
        if len(known) > 4096:  # a long game: start afresh rather than grow without bound
            self._label_groups = None
        return out

    @staticmethod
    def _group_labels(group: list[str], names: list[str]) -> dict[str, str]:
        """The "#n" labels of one zone's cards (empty when no name appears twice)."""
        out: dict[str, str] = {}
        if len(set(names)) == len(names):
            return out
        counts: dict[str, int] = {}
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        seen: dict[str, int] = {}
        for cid, name in zip(group, names):
            if counts[name] > 1:
                seen[name] = seen.get(name, 0) + 1
                out[cid] = f"{name} #{seen[name]}"
        return out

    def _scrub(self, state: dict, ev: list, labels: dict[str, str] | None = None) -> None:
        """Events are public: a card that is hidden once the action is over (a besieged level turned face
        down again, say) is named by its place, never by its id. Every card that may be shown gets its English
        name next to its id (``<field>_name`` / ``<field>_names``; ``card_key`` for the card itself), and a
        thread item named as a target gets the name of what it is (``target_name``), so a narrator needs no
        state."""
        cards = state["cards"]
        labels = labels or {}
        name_of = _names_en()
        items = None  # thread items by uid, built when an event names one

        for e in ev:
            extra = None
            for k, v in e.items():
                if isinstance(v, str):
                    c = cards.get(v)
                    if c is not None:
                        zone = c["zone"]
                        if zone in _HIDDEN_ZONES or (not c["up"] and zone in _FACE_DOWN_ZONES):
                            e[k] = self._pub(state, v)
                        elif k != "type":
                            if extra is None:
                                extra = {}
                            extra[f"{k}_name"] = labels.get(v) or name_of[c["k"]]
                            if k == "card":
                                extra["card_key"] = c["k"]
                    elif k == "target":
                        if items is None:
                            items = {it["uid"]: it for it in state["thread"] or ()}
                        it = items.get(v)
                        if it is not None:
                            if extra is None:
                                extra = {}
                            extra["target_name"] = ("face-down obstacle" if it.get("hidden")
                                                    else name_of[cards[it["card"]]["k"]])
                elif isinstance(v, list):
                    if not v:
                        e[k] = []  # events never share a list with the state or an action
                        continue
                    hidden = _Hidden(cards)
                    e[k] = [self._pub(state, x) if isinstance(x, str) and x in hidden else x for x in v]
                    if any(isinstance(x, str) and x in cards for x in v):
                        if extra is None:
                            extra = {}
                        extra[f"{k}_names"] = [None if not isinstance(x, str) or x in hidden or x not in cards
                                               else labels.get(x) or name_of[cards[x]["k"]] for x in v]
            if labels:
                card = e.get("card")
                if card in labels and e.get("name") == name_of[cards[card]["k"]]:
                    e["name"] = labels[card]  # the card's own name, with the "#n" its button showed
            if extra:
                e.update(extra)

    # ------------------------------------------------------------------ helpers: rng, events
    def _roll(self, state: dict) -> tuple[int, int]:
        rng = Rng(state["rng"])
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        state["rng"] = rng.state
        return a, b

    def _shuffle(self, state: dict, items: list) -> None:
        rng = Rng(state["rng"])
        rng.shuffle(items)
        state["rng"] = rng.state

    def _pub(self, state: dict, cid: str) -> str:
        """A reference to a card that may be shown to everybody (face-down cards are not named)."""
        c = state["cards"][cid]
        if c["up"] and c["zone"] not in _HIDDEN_ZONES:
            return cid
        if c["zone"] == "towers":
            return f"tower-{c['zs']}-{state['p'][c['zs']]['towers'].index(cid)}"
        return f"hidden-{c['owner']}"

    def _draw(self, state: dict, seat: int, n: int, ev: list) -> int:
        p = state["p"][seat]
        got = 0
        for _ in range(n):
            if not p["future"]:
                break
            S.move(state, p["future"][-1], "hand", seat)
            got += 1
        if got:
            ev.append({"type": "drew", "seat": seat, "n": got})
        return got

    def _stamp(self, state: dict, seat: int) -> None:
        state["clock"] += 1
        state["last_acted"][seat] = state["clock"]

    # ------------------------------------------------------------------ zones: leaving the Present
    def _to_past(self, state: dict, cid: str, ev: list | None = None) -> None:
        """Present -> Past (a named card goes to the Depth instead, unless its player already has one there
        or in the Present: then the Past). Tokens cease to exist."""
        c = state["cards"][cid]
        was_present = c["zone"] in S.PRESENT or c["zone"] in ("thread", "limbo")
        self._strip(state, cid, ev)
        S.take(state, cid)
        d = S.cdef(state, cid)
        if d.get("token"):
            c["zone"] = "gone"
            c["inc"] += 1
            return
        S.reset_card(c)
        dest = PAST
        if was_present and d["named"]:
            c["zone"] = "nowhere"
            if not S.named_conflict(state, c["owner"], cid):
                dest = "depth"
        S.put(state, cid, dest, c["owner"])

    def _strip(self, state: dict, cid: str, ev: list | None) -> None:
        """Cards hanging on a card that leaves the Present fall off: worn gear to the Store (or the Past when
        the wearer dies in a maneuver: handled by the caller), attached cards to their owners' Past."""
        c = state["cards"][cid]
        for item in list(c.get("worn", ())):
            S.move(state, item, "store", state["cards"][item]["ctrl"])
        for att in list(c.get("att", ())):
            self._to_past(state, att, ev)
        for w in c.get("wards", ()):
            src = w.get("src")
            if src and state["cards"][src]["zone"] in S.PRESENT:
                self._to_past(state, src, ev)
        c.pop("wards", None)

    # ------------------------------------------------------------------ the advance loop
    def _advance(self, state: dict, ev: list) -> None:
        for _ in range(10_000):
            if state["result"] is not None:
                return
            if self._check_immediate(state, ev):
                return
            if state["pending"]:
                return
            if state["trig"]:
                if self._place_triggers(state, ev):
                    return
                continue
            if state["prio"] is not None:
                return
            self._flow(state, ev)
        raise RuntimeError("kivalasztottak: the game did not settle")

    def _flow(self, state: dict, ev: list) -> None:
        """Nobody holds priority and nothing is pending: move the game on to its next decision."""
        stage = state["stage"]
        if stage == "towers":
            state["stage"] = "mulligan"
            state["pending"] = [{"kind": "mulligan", "seat": s, "simul": True} for s in range(2)]
        elif stage == "mulligan":
            self._begin_round(state, ev)
        elif stage == "open":
            self._resource(state, ev)
        elif stage == "adjust":
            self._after_adjust(state, ev)
        elif stage == "omen_bottom":
            self._turn_back(state, ev)
        elif stage == "maneuvers":
            if state["free_maneuver"] is not None:
                fm = state["free_maneuver"]
                state["free_maneuver"] = None
                self._declare_maneuver(state, fm["seat"], fm["kind"], fm.get("target"), ev, free=True)
            elif state["maneuver"] is not None:
                self._maneuver_next(state, ev)
            else:
                state["prio"] = S.active(state)
                state["passes"] = 0
        elif stage == "close":
            self._round_end(state, ev)

    # ------------------------------------------------------------------ rounds
    def _begin_round(self, state: dict, ev: list) -> None:
        state["round"] += 1
        limit = state["options"]["round_limit"]
        if limit and state["round"] > limit:
            self._finish_by_dp(state, "round_limit", ev)
            return
        for p in state["p"]:
            p["used_round"] = []
        for c in state["cards"].values():
            if c.get("mods"):
                c["mods"] = [x for x in c["mods"] if x["until"] != "round"]  # "until the end of the round"
        ev.append({"type": "round_started", "round": state["round"]})
        state["stage"] = "open"
        first = S.active(state)
        for seat in (first, 1 - first):
            seen_once: set[str] = set()
            for cid in self._controlled_present(state, seat):
                d = S.cdef(state, cid)
                for i, ab in enumerate(d["abilities"]):
                    if ab["kind"] == "trigger" and ab["on"] == "round_start":
                        if "ONCE_PLAYER" in ab["sym"]:
                            # ONCE PER PLAYER: one such effect applies per player
                            if d["key"] in seen_once:
                                continue
                            seen_once.add(d["key"])
                        state["trig"].append({"seat": seat, "card": cid, "ab": i})

    def _resource(self, state: dict, ev: list) -> None:
        if state["round"] == 1:  # the resource phase is skipped in the first round
            self._start_maneuvers(state, ev)
            return
        for seat in range(2):
            state["p"][seat]["mp"] += ROUND_MP
        ev.append({"type": "resources", "mp": [state["p"][0]["mp"], state["p"][1]["mp"]]})
        state["stage"] = "adjust"
        for seat in range(2):
            p = state["p"][seat]
            if len(p["hand"]) < HAND_SIZE:
                self._draw(state, seat, HAND_SIZE - len(p["hand"]), ev)
        state["pending"] = [{"kind": "adjust_discard", "seat": s, "simul": True}
                            for s in range(2) if len(state["p"][s]["hand"]) > HAND_SIZE]

    def _after_adjust(self, state: dict, ev: list) -> None:
        state["stage"] = "omen_bottom"
        if not state["adjusted_once"]:
            state["adjusted_once"] = True
            # Rulebook: after the game's first card-adjustment step the omen's player puts one card from his
            # hand at the bottom of his Future (the first adjustment is in round 2: round 1 has none).
            state["pending"] = [{"kind": "omen_bottom", "seat": s, "simul": True} for s in range(2)
                                if state["p"][s]["omen_due"] and state["p"][s]["hand"]]
            for p in state["p"]:
                p["omen_due"] = False

    def _turn_back(self, state: dict, ev: list) -> None:
        for seat in range(2):
            for cid in state["p"][seat]["row"]:
                c = state["cards"][cid]
                if c["state"] == "resting":
                    c["state"] = "alert"
                elif c["state"] == "injured":
                    c["state"] = "resting"
        ev.append({"type": "turned_back"})
        self._start_maneuvers(state, ev)

    def _start_maneuvers(self, state: dict, ev: list) -> None:
        state["stage"] = "maneuvers"
        state["prio"] = S.active(state)
        state["passes"] = 0
        ev.append({"type": "phase", "phase": "maneuvers", "active": state["prio"]})

    def _round_end(self, state: dict, ev: list) -> None:
        for seat in range(2):
            for cid in state["p"][seat]["omen"]:
                c = state["cards"][cid]
                if c["op"] > 0:
                    c["op"] -= 1  # the omen loses 1 omen point at the end of every round
                    ev.append({"type": "omen_point_lost", "seat": seat, "card": cid, "left": c["op"]})
        d = [S.dp(state, 0), S.dp(state, 1)]
        for seat in range(2):
            if d[seat] >= ROUND_END_DP and d[seat] > d[1 - seat]:
                self._win(state, seat, "dp11", ev)
                return
        empty = [not state["p"][s]["future"] for s in range(2)]
        if empty[0] and empty[1]:
            self._draw_game(state, "future_draw", ev)
            return
        if empty[0] or empty[1]:
            self._win(state, 1 if empty[0] else 0, "future", ev)
            return
        self._begin_round(state, ev)

    # ------------------------------------------------------------------ victory
    def _check_immediate(self, state: dict, ev: list) -> bool:
        if state["stage"] in ("towers", "mulligan"):
            return False
        calm = self._calm
        if calm is not None and calm[0] is state and calm[1] == S.MOVES[0]:
            return False  # towers and triumph points depend on the zones only, and no card moved since
        p0, p1 = state["p"]
        no_tower = [not p0["towers"], not p1["towers"]]
        if not (no_tower[0] or no_tower[1] or p0["solved"] or p0["buildings"] or p1["solved"] or p1["buildings"]):
            self._calm = (state, S.MOVES[0])
            return False  # nobody has triumph points and both have towers
        big = [S.dp(state, s) >= IMMEDIATE_DP for s in range(2)]
        wins = [no_tower[1 - s] or big[s] for s in range(2)]
        if not (wins[0] or wins[1]):
            self._calm = (state, S.MOVES[0])
            return False
        if wins[0] and wins[1]:
            self._draw_game(state, "simultaneous", ev)
            return True
        for s in range(2):
            if wins[s]:
                self._win(state, s, "towers" if no_tower[1 - s] else "dp19", ev)
                return True
        return False

    def _win(self, state: dict, seat: int, reason: str, ev: list) -> None:
        places = [1, 2] if seat == 0 else [2, 1]
        state["result"] = {"places": places, "scores": [S.dp(state, 0), S.dp(state, 1)], "reason": reason,
                           "winner": seat}
        self._game_over(state, ev)

    def _draw_game(self, state: dict, reason: str, ev: list) -> None:
        state["result"] = {"places": [1, 1], "scores": [S.dp(state, 0), S.dp(state, 1)], "reason": reason,
                           "winner": None}
        self._game_over(state, ev)

    def _finish_by_dp(self, state: dict, reason: str, ev: list) -> None:
        d = [S.dp(state, 0), S.dp(state, 1)]
        if d[0] == d[1]:
            self._draw_game(state, reason, ev)
        else:
            self._win(state, 0 if d[0] > d[1] else 1, reason, ev)

    def _game_over(self, state: dict, ev: list) -> None:
        state["stage"] = "over"
        state["pending"] = []
        state["prio"] = None
        state["trig"] = []
        ev.append({"type": "game_over", **{k: v for k, v in state["result"].items()}})

    # ------------------------------------------------------------------ presence helpers
    def _controlled_present(self, state: dict, seat: int) -> list[str]:
        p = state["p"][seat]
        out = []
        for z in S.PRESENT_LISTS:
            out.extend(p[z])
        for cid in [*p["row"], *p["team"]]:
            out.extend(state["cards"][cid].get("worn", ()))
        return out

    def _alive_team(self, state: dict, seat: int) -> list[str]:
        return list(state["p"][seat]["team"])

    # ------------------------------------------------------------------ the time thread
    def _push(self, state: dict, item: dict, actor: int) -> None:
        state["uid"] += 1
        item["uid"] = f"T{state['uid']}"
        if state["thread"] is None:
            state["thread"] = []
            state["used_thread"] = []
            state["thread_quests"] = []
        state["thread"].append(item)
        state["passes"] = 0
        # Rulebook l.229: in an open thread the active player (MP rule) acts first; rules version 1 let the
        # opponent answer first
        state["prio"] = S.active(state) if _v2(state) else 1 - actor

    def _open_phase_thread(self, state: dict) -> None:
        state["thread"] = []
        state["used_thread"] = []
        state["thread_quests"] = []
        state["passes"] = 0
        state["prio"] = S.active(state)

    def _pass(self, state: dict, seat: int, ev: list) -> None:
        ev.append({"type": "passed", "seat": seat, "open": state["thread"] is not None})
        state["passes"] += 1
        th = state["thread"]
        if state["passes"] < 2:
            state["prio"] = 1 - seat
            return
        state["passes"] = 0
        if th:
            self._resolve_top(state, ev)
            if state["result"] is None:
                state["prio"] = S.active(state)
            return
        if th is not None:
            self._close_thread(state, ev)
            return
        # two passes with no thread open
        m = state["maneuver"]
        state["prio"] = None
        if m is None:
            state["stage"] = "close"
            ev.append({"type": "phase", "phase": "close"})
            state["pending"] = [{"kind": "close_discard", "seat": s, "simul": True} for s in range(2)]
        elif m["step"] == "rounds":
            if m["acted"]:
                self._new_combat_round(state, ev)
            else:
                self._combat_result(state, ev)

    def _close_thread(self, state: dict, ev: list) -> None:
        """Both passed on an empty thread: deaths, Row damage, victorious beasts; then the game moves on."""
        state["thread"] = None
        state["used_thread"] = []
        state["thread_quests"] = []
        state["prio"] = None
        m = state["maneuver"]
        cards = state["cards"]
        defs = card_defs()
        for seat in range(2):
            for cid in list(state["p"][seat]["row"]) + list(state["p"][seat]["team"]):
                c = cards[cid]
                if c.get("worn") or c.get("mods"):
                    dead = S.level(state, cid) < 1
                else:  # no gear, no modifiers: S.level is the printed level minus the damage
                    dead = defs[c["k"]]["level"] - c["dmg"] < 1
                if dead:
                    self._die(state, cid, ev)
            for cid in state["p"][seat]["row"]:
                c = state["cards"][cid]
                if c["dmg"] > 0:
                    c["dmg"] = 0  # Row adventurers lose their damage and turn injured
                    c["state"] = "injured"
        for vb in state["victorious"]:
            cid, loc, team_seat = vb["card"], vb["loc"], vb["team"]
            loc_ok = loc in state["cards"] and state["cards"][loc]["zone"] in S.PRESENT
            if loc_ok and not state["p"][team_seat]["team"]:
                S.take(state, cid)
                S.put(state, cid, "attached", state["cards"][cid]["owner"], on=loc)
                state["cards"][cid]["up"] = False
                ev.append({"type": "beast_reattached", "seat": state["cards"][cid]["owner"],
                           "card_name": S.cdef(state, cid)["name_en"], "location": self._pub(state, loc)})
            else:
                self._to_past(state, cid, ev)
        state["victorious"] = []
        if m is not None:
            self._front_fix(state)
        ev.append({"type": "thread_closed"})

    def _die(self, state: dict, cid: str, ev: list) -> None:
        c = state["cards"][cid]
        seat = c["ctrl"]
        in_team = c["zone"] == "team"
        ev.append({"type": "died", "seat": seat, "card": cid, "name": S.cdef(state, cid)["name_en"]})
        if in_team:
            # gear worn by an adventurer who dies in a maneuver is destroyed
            for item in list(c.get("worn", ())):
                self._to_past(state, item, ev)
            m = state["maneuver"]
            if m and cid in m["front"]:
                m["front"].remove(cid)
        self._to_past(state, cid, ev)

    # ------------------------------------------------------------------ triggers
    def _place_triggers(self, state: dict, ev: list) -> bool:
        """Put waiting timed effects on the thread; a player with several chooses their order.
        Returns True when a decision is needed."""
        first = S.active(state)
        for seat in (first, 1 - first):
            mine = [t for t in state["trig"] if t["seat"] == seat]
            if len(mine) > 1:
                state["pending"] = [{"kind": "trigger_order", "seat": seat}]
                return True
            if mine:
                t = mine[0]
                state["trig"].remove(t)
                self._push_trigger(state, t, ev)
        return False

    def _push_trigger(self, state: dict, t: dict, ev: list) -> None:
        d = S.cdef(state, t["card"])
        ab = d["abilities"][t["ab"]]
        item = {"kind": "trigger", "seat": t["seat"], "card": t["card"], "ab": t["ab"], "by": None,
                "targets": [], "tinc": [], "labels": []}
        self._push(state, item, t["seat"])
        state["prio"] = S.active(state)
        ev.append({"type": "trigger", "seat": t["seat"], "card": t["card"], "name": d["name_en"],
                   "on": ab["on"], "uid": item["uid"]})

    # ------------------------------------------------------------------ decisions
    def _decision_actions(self, state: dict, dec: dict) -> list[dict]:
        seat = dec["seat"]
        p = state["p"][seat]
        kind = dec["kind"]
        if kind == "tower_order":
            return [{"type": "tower_order", "order": list(o)} for o in permutations(p["towers"])]
        if kind == "mulligan":
            acts = [{"type": "keep"}]
            if p["mulligans"] < 3:
                acts.append({"type": "mulligan"})
            return acts
        if kind in ("adjust_discard", "omen_bottom"):
            t = "discard" if kind == "adjust_discard" else "bottom"
            return [{"type": t, "card": cid} for cid in p["hand"]]
        if kind == "close_discard":
            return [{"type": "no_discard"}] + [{"type": "discard", "card": cid} for cid in p["hand"]]
        if kind == "team":
            return self._team_actions(state, seat, dec)
        if kind == "wall_choice":
            return [{"type": "end_siege"}, {"type": "continue_siege"}]
        if kind == "ranks":
            team = p["team"]
            acts = []
            for mask in range(1, 1 << len(team)):
                acts.append({"type": "ranks", "front": [c for i, c in enumerate(team) if mask >> i & 1]})
            return acts
        if kind == "continue_quest":
            return [{"type": "continue"}, {"type": "withdraw"}]
        if kind == "solve":
            m = state["maneuver"]
            q = S.cdef(state, m["target"])
            acts = []
            if p["mp"] >= q["mp"]:
                group = [S.adv_desc(state, a) for a in p["team"]]
                for i, cond in enumerate(q["conditions"]):
                    if holds(cond, group, self._attr_fn(state)):
                        acts.append({"type": "solve", "condition": i})
            acts.append({"type": "decline"})
            return acts
        if kind == "beast_target":
            return [{"type": "beast_target", "card": cid} for cid in state["p"][seat]["team"]]
        if kind == "trigger_order":
            return [{"type": "order_trigger", "card": t["card"], "ability": t["ab"]}
                    for t in state["trig"] if t["seat"] == seat]
        if kind == "destroy_building":
            return [{"type": "destroy_building", "card": cid} for cid in p["buildings"]]
        if kind == "reserve_pick":  # one choice per card of the reserve (copies alike: the first of them)
            seen: dict[str, str] = {}
            for cid in p["reserve"]:
                seen.setdefault(state["cards"][cid]["k"], cid)
            return [{"type": "reserve_pick", "card": cid} for cid in seen.values()]
        raise AssertionError(kind)

    def _attr_fn(self, state: dict):
        names = {"phys": "phys", "astral": "astral", "mental": "mental"}
        return lambda adv, a: S.attr(state, adv["id"], names[a])

    def _team_actions(self, state: dict, seat: int, dec: dict) -> list[dict]:
        p = state["p"][seat]
        acts = []
        if len(p["team"]) < 3:
            acts += [{"type": "team_add", "card": cid} for cid in p["row"]
                     if state["cards"][cid]["state"] == "alert"]
        for item in p["store"]:
            for adv in p["team"]:
                if self._can_wear(state, adv, item):
                    acts.append({"type": "equip", "item": item, "to": adv})
        if p["team"]:
            acts.append({"type": "team_done"})
        elif dec["role"] == "block":
            acts.append({"type": "no_block"})
        return acts

    def _decide(self, state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
        kind = dec["kind"]
        p = state["p"][seat]
        t = action["type"]
        if kind == "tower_order":
            p["towers"] = list(action["order"])
            p["towers_set"] = True
            state["pending"].remove(dec)
            ev.append({"type": "towers_set", "seat": seat})
        elif kind == "mulligan":
            if t == "keep":
                p["kept"] = True
                if p["setaside"]:
                    for cid in list(p["setaside"]):
                        S.move(state, cid, "future", seat)
                    self._shuffle(state, p["future"])
                state["pending"].remove(dec)
                ev.append({"type": "kept_hand", "seat": seat, "hand": len(p["hand"])})
            else:
                p["mulligans"] += 1
                for cid in list(p["hand"]):
                    S.move(state, cid, "setaside", seat)
                n = HAND_SIZE - 2 * p["mulligans"]
                for _ in range(n):
                    if p["future"]:
                        S.move(state, p["future"][-1], "hand", seat)
                ev.append({"type": "mulligan", "seat": seat, "hand": len(p["hand"])})
        elif kind == "adjust_discard":
            S.move(state, action["card"], PAST, seat)
            ev.append({"type": "discarded", "seat": seat, "card": action["card"]})
            if len(p["hand"]) <= HAND_SIZE:
                state["pending"].remove(dec)
        elif kind == "omen_bottom":
            S.take(state, action["card"])
            S.put(state, action["card"], "future", seat, bottom=True)
            ev.append({"type": "card_to_bottom", "seat": seat})
            state["pending"].remove(dec)
        elif kind == "close_discard":
            if t == "discard":
                S.move(state, action["card"], PAST, seat)
                ev.append({"type": "discarded", "seat": seat, "card": action["card"]})
            state["pending"].remove(dec)
        elif kind == "team":
            self._team_decide(state, seat, dec, action, ev)
        elif kind == "wall_choice":
            state["pending"].remove(dec)
            m = state["maneuver"]
            if t == "end_siege":
                ev.append({"type": "siege_repelled_by_wall", "seat": seat})
                m["winner"] = seat
                self._end_maneuver(state, ev)
            else:
                self._form_block(state, ev)
        elif kind == "ranks":
            state["pending"].remove(dec)
            m = state["maneuver"]
            for cid in p["team"]:
                if cid in m["front"]:
                    m["front"].remove(cid)
            m["front"].extend(action["front"])
            ev.append({"type": "ranks", "seat": seat, "front": action["front"],
                       "back": [c for c in p["team"] if c not in action["front"]]})
            if not state["pending"]:
                self._new_combat_round(state, ev)
        elif kind == "continue_quest":
            state["pending"].remove(dec)
            m = state["maneuver"]
            if t == "continue":
                ev.append({"type": "quest_continued", "seat": seat})
                m["solver"] = seat
                self._quest_obstacles(state, ev)
            else:
                self._return_team(state, seat, ev)
                self._end_maneuver(state, ev)
        elif kind == "solve":
            state["pending"].remove(dec)
            if t == "solve":
                self._solve_quest(state, seat, action["condition"], ev)
            else:
                ev.append({"type": "quest_not_solved", "seat": seat})
                self._end_maneuver(state, ev)
        elif kind == "beast_target":
            state["pending"].remove(dec)
            self._beast_attack(state, action["card"], ev)
        elif kind == "trigger_order":
            state["pending"].remove(dec)
            tr = next(x for x in state["trig"] if x["seat"] == seat and x["card"] == action["card"]
                      and x["ab"] == action["ability"])
            state["trig"].remove(tr)
            self._push_trigger(state, tr, ev)
        elif kind == "destroy_building":
            state["pending"].remove(dec)
            ev.append({"type": "building_destroyed", "seat": seat, "card": action["card"]})
            self._to_past(state, action["card"], ev)
        elif kind == "reserve_pick":
            state["pending"].remove(dec)
            S.move(state, action["card"], "hand", seat)
            # public: that a card came from the reserve; the card itself is the player's secret
            ev.append({"type": "reserve_searched", "seat": seat, "card": action["card"],
                       "left": len(p["reserve"])})

    # ------------------------------------------------------------------ priority actions
    def _prio_actions(self, state: dict, seat: int) -> list[dict]:
        acts: list[dict] = [{"type": "pass"}]
        p = state["p"][seat]
        th = state["thread"] is not None
        m = state["maneuver"]
        row_free = m is None and not th  # MP-bound Row-phase actions
        cards = state["cards"]
        mp = p["mp"]
        hand_table = _hand_table()
        sit = _situation(state)
        for cid in p["hand"]:
            # the cheap refusals of _summon_actions (type, MP, timing), before calling it
            kind, need, timing = hand_table[cards[cid]["k"]]
            if kind == 1:
                if not row_free or mp < need:
                    continue
            elif kind == 2:
                if mp < need or not timing[sit]:
                    continue
            elif kind != 3:
                continue
            acts.extend(self._summon_actions(state, seat, cid))
        acts.extend(self._ability_actions(state, seat))
        acts.extend(self._obstacle_actions(state, seat))
        if row_free:
            alert = [a for a in p["row"] if state["cards"][a]["state"] == "alert"]
            if alert:
                opp = state["p"][1 - seat]
                if p["mp"] >= SIEGE_COST and opp["towers"]:
                    acts.append({"type": "maneuver", "kind": "siege"})
                for q in [*p["quests"], *opp["quests"]]:
                    acts.append({"type": "maneuver", "kind": "quest", "target": q})
                for b in opp["buildings"]:
                    if p["mp"] >= S.cdef(state, b)["dp"]:
                        acts.append({"type": "maneuver", "kind": "capture", "target": b})
            for item in p["store"]:
                for adv in p["row"]:
                    if self._can_wear(state, adv, item):
                        acts.append({"type": "equip", "item": item, "to": adv})
            for adv in p["row"]:
                for item in state["cards"][adv].get("worn", ()):
                    if S.cdef(state, item)["action_type"] != "magic_item":
                        acts.append({"type": "unequip", "item": item})
            for cid in p["hand"]:
                d = S.cdef(state, cid)
                if d["type"] == "action" and d["action_type"] in ("item", "magic_item"):
                    for q in p["quests"]:
                        qc = state["cards"][q]
                        has_reward = any(S.cdef(state, a)["type"] == "action" for a in qc.get("att", ()))
                        affordable = d["mp"] <= p["mp"] or not _v2(state)
                        if not has_reward and d["mp"] <= S.cdef(state, q)["dp"] and affordable:
                            acts.append({"type": "attach_reward", "card": cid, "quest": q})
        return acts

    def _can_wear(self, state: dict, adv: str, item: str) -> bool:
        sub = S.cdef(state, item).get("subtype")
        if sub in ("melee_weapon", "armour"):
            for w in state["cards"][adv].get("worn", ()):
                if S.cdef(state, w).get("subtype") == sub:
                    return False  # at most one melee weapon and one armour
        return True

    def _card_timing(self, state: dict, d: dict) -> bool:
        m = state["maneuver"]
        return _card_timing(d, state["thread"] is not None, m is None, m is not None and m["step"] == "rounds")

    def _ability_timing(self, state: dict, ab: dict) -> bool:
        m = state["maneuver"]
        return _timing(ab, state["thread"] is not None, m is None, m is not None and m["step"] == "rounds")

    def _summon_actions(self, state: dict, seat: int, cid: str) -> list[dict]:
        d = S.cdef(state, cid)
        p = state["p"][seat]
        t = d["type"]
        th = state["thread"] is not None
        m = state["maneuver"]
        out: list[dict] = []
        if t == "obstacle":
            locs = []
            if m is None and not th:
                locs = [q for q in p["quests"]] + list(p["towers"]) + list(p["buildings"])
            elif th and m is None:
                # an opponent's quest summoned in this very thread may get an obstacle as a fast effect
                locs = [q for q in state["thread_quests"] if state["cards"][q]["ctrl"] != seat
                        and state["cards"][q]["zone"] == "quests"]
            for loc in locs:
                if self._obstacle_room(state, loc):
                    out.append({"type": "summon", "card": cid, "target": loc})
            return out
        if t in ("tower", "omen"):
            return out
        if t in ("adventurer", "quest", "building", "ally"):
            if m is not None or th:
                return out
            if t == "adventurer" and p["mp"] < d["mp"]:
                return out
            if t == "quest" and len(p["quests"]) >= QUEST_LIMIT:
                return out
            if t in ("building", "ally"):
                group = [S.adv_desc(state, a) for a in p["row"]]
                if not holds(d["condition"], group, self._attr_fn(state)):
                    return out
            return [{"type": "summon", "card": cid}]
        # action cards and events
        if p["mp"] < d["mp"] or not self._card_timing(state, d):
            return out
        if t == "action" and d["action_type"] in ("item", "magic_item"):
            return [{"type": "summon", "card": cid}]
        if t == "event":
            spec = d.get("target")
            if spec is None or spec == "all_enemy_team":
                if d["effect"][0]["op"] == "free_maneuver" and not any(
                        state["cards"][a]["state"] == "alert" for a in p["row"]):
                    return out
                if d["effect"][0]["op"] == "buff_team" and not p["team"]:
                    return out
                return [{"type": "summon", "card": cid}]
            return [{"type": "summon", "card": cid, "target": tg}
                    for tg in self._targets(state, seat, spec, "any", None)]
        # a non-equipment action card needs an alert summoner of a matching caste
        for by in self._summoners(state, seat, d):
            for tg in self._attack_targets(state, seat, d, by):
                out.append({"type": "summon", "card": cid, "by": by, "target": tg})
        return out

    def _summoners(self, state: dict, seat: int, d: dict) -> list[str]:
        p = state["p"][seat]
        m = state["maneuver"]
        pool = p["team"] if m is not None else p["row"]
        out = []
        for a in pool:
            c = state["cards"][a]
            ad = S.cdef(state, a)
            if c["state"] != "alert":
                continue
            if ad["subcaste"] not in d["castes"] and ad["caste"] not in d["castes"]:
                continue
            if m is not None and m["step"] == "prep" and a in m["prep_acted"]:
                continue
            rng_ = d.get("attack", {}).get("range")
            if rng_ == "melee" and a not in m["front"]:
                continue
            if rng_ == "ranged" and a in m["front"]:
                continue
            out.append(a)
        return out

    def _attack_targets(self, state: dict, seat: int, d: dict, by: str) -> list[str]:
        rng_ = d.get("attack", {}).get("range")
        opp = state["p"][1 - seat]
        if rng_ == "row":
            return list(opp["row"])
        if rng_ == "melee":
            return [a for a in opp["team"] if a in state["maneuver"]["front"]]
        if rng_ == "ranged":
            return list(opp["team"])
        return [None]

    def _targets(self, state: dict, seat: int, spec: str | None, ctx: str, src: str | None) -> list:
        """Candidate targets of an effect. ``ctx`` keeps Row and maneuver apart: an adventurer's effects
        reach only its own side of that divide (unless PERMANENT without COMBAT: ctx "any")."""
        opp = 1 - seat
        m = state["maneuver"]

        def pool(s: int) -> list[str]:
            if ctx == "row":
                return list(state["p"][s]["row"])
            if ctx == "maneuver":
                return list(state["p"][s]["team"])
            return S.adventurers(state, s)

        if spec is None or spec in ("all_enemy_team", "self"):
            return [None]
        if spec == "enemy_adv":
            return pool(opp)
        if spec == "own_adv":
            return pool(seat)
        if spec == "own_adv_other":
            return [a for a in pool(seat) if a != src]
        if spec == "own_adv_not_alert":
            return [a for a in pool(seat) if state["cards"][a]["state"] != "alert"]
        if spec == "enemy_team":
            return list(state["p"][opp]["team"])
        if spec == "enemy_front":
            return [a for a in state["p"][opp]["team"] if m and a in m["front"]]
        if spec == "thread_item":
            return [it["uid"] for it in (state["thread"] or [])]
        if spec == "hidden_obstacle_here":
            if not m:
                return []
            loc = m["target"]
            if loc is None or loc not in state["cards"]:
                return []
            out = []
            for i, a in enumerate(state["cards"][loc].get("att", ())):
                c = state["cards"][a]
                if c["owner"] != seat and not c["up"] and S.cdef(state, a)["type"] == "obstacle":
                    out.append(f"obstacle-{i}")  # the i-th card attached at the maneuver's location
            return out
        raise AssertionError(spec)

    def _ability_actions(self, state: dict, seat: int) -> list[dict]:
        p = state["p"][seat]
        m = state["maneuver"]
        cards = state["cards"]
        defs = card_defs()
        activated = _activated()
        sit = _situation(state)  # abilities are listed per timing situation (_ability_timing)
        mp = p["mp"]
        used_thread = state["used_thread"]
        heal_filter = _heals_damaged_only(state)
        out: list[dict] = []
        zones = self._zone_facts(state)
        owners = zones.get(("abilities", seat))
        if owners is None:  # the seat's present cards that have activated abilities, in listing order
            owners = zones[("abilities", seat)] = [
                (cid, activated[cards[cid]["k"]]) for cid in self._controlled_present(state, seat)
                if cards[cid]["k"] in activated]
        for cid, per_situation in owners:
            abl = per_situation[sit]
            if not abl:
                continue
            c = cards[cid]
            d = defs[c["k"]]
            for i, ab in abl:
                sym = ab["sym"]
                if ab["mp"] > mp or ab["szp"] > c.get("szp", 0):
                    continue
                if used_thread and [cid, i] in used_thread:
                    continue  # an ability at most once per thread
                if "ONCE_ROUND" in sym and [cid, i] in p["used_round"]:
                    continue
                actor = cid
                if d["type"] == "action":  # worn equipment: its wearer acts
                    if c["zone"] != "worn":
                        continue
                    actor = c["on"]
                if d["type"] == "omen" and c.get("op", 0) <= 0:
                    continue
                ac = cards[actor]
                if defs[ac["k"]]["type"] == "adventurer":
                    if ac["zone"] not in ("row", "team"):
                        continue
                    needs_alert = "PERMANENT" not in sym or "TAP" in sym
                    if needs_alert and ac["state"] != "alert":
                        continue
                    if "COMBAT" in sym and ac["zone"] != "team":
                        continue
                    if m is not None and m["step"] == "prep" and actor in m["prep_acted"]:
                        continue
                    if d.get("subtype") == "melee_weapon" and actor not in (m or {}).get("front", []):
                        continue
                spec = ab.get("target")
                ctx = S.context(state, cid)
                if "PERMANENT" in sym and "COMBAT" not in sym:
                    ctx = "any"  # the one kind of effect that crosses between Row and maneuver
                tgs = self._targets(state, seat, spec, ctx, cid)
                if heal_filter and ab.get("effect") and all(e["op"] == "heal" for e in ab["effect"]):
                    # version 2 only: a heal is offered only for an adventurer that has damage to heal
                    tgs = [tg for tg in tgs if cards[tg if tg is not None else cid]["dmg"] > 0]
                for tg in tgs:
                    a = {"type": "activate", "card": cid, "ability": i}
                    if tg is not None:
                        a["target"] = tg
                    out.append(a)
        return out

    def _obstacle_room(self, state: dict, loc: str) -> bool:
        cap = S.cdef(state, loc).get("obstacles", 0)
        attached = sum(1 for a in state["cards"][loc].get("att", ()) if S.cdef(state, a)["type"] == "obstacle")
        pending = sum(1 for it in (state["thread"] or []) if it["kind"] == "summon" and it.get("loc") == loc)
        return attached + pending < cap

    def _obstacle_actions(self, state: dict, seat: int) -> list[dict]:
        m = state["maneuver"]
        if m is None:
            return []
        p = state["p"][seat]
        th = state["thread"] is not None
        enemy_team = state["p"][1 - seat]["team"]
        if not enemy_team:
            return []
        out = []
        cands: list[tuple[str, bool]] = []
        if m["step"] == "obstacles" and th and m["target"] in state["cards"]:
            for a in state["cards"][m["target"]].get("att", ()):
                c = state["cards"][a]
                if c["owner"] == seat and not c["up"] and S.cdef(state, a)["type"] == "obstacle":
                    cands.append((a, False))
        elif m["step"] == "rounds" and not th:
            # ANIMATE obstacles also fight in combat rounds, wherever they are attached
            tappers = [a for a in p["team"] if state["cards"][a]["state"] == "alert"]
            if tappers:
                zones = self._zone_facts(state)
                animates = zones.get(("animate", seat))
                if animates is None:  # the seat's ANIMATE obstacles, in card order (owner and kind never change)
                    defs = card_defs()
                    animates = zones[("animate", seat)] = [
                        a for a, c in state["cards"].items() if c["owner"] == seat
                        and defs[c["k"]]["type"] == "obstacle" and defs[c["k"]].get("animate")]
                for a in animates:
                    c = state["cards"][a]
                    if c["zone"] == "attached" and not c["up"]:
                        cands.append((a, True))
        for a, animate in cands:
            d = S.cdef(state, a)
            if d["mp"] > p["mp"]:
                continue
            tgs = [None] if d["kind"] == "beast" else self._targets(state, seat, d.get("target"), "maneuver", None)
            taps = [t for t in p["team"] if state["cards"][t]["state"] == "alert"] if animate else [None]
            for tg in tgs:
                for tp in taps:
                    act = {"type": "activate_obstacle", "card": a}
                    if tg is not None:
                        act["target"] = tg
                    if tp is not None:
                        act["tap"] = tp
                    out.append(act)
        return out

    # ------------------------------------------------------------------ applying priority actions
    def _prio_act(self, state: dict, seat: int, action: dict, ev: list) -> None:
        t = action["type"]
        if t == "pass":
            self._pass(state, seat, ev)
            return
        self._stamp(state, seat)
        m = state["maneuver"]
        if m is not None and m["step"] == "rounds" and state["thread"] is None:
            m["acted"] = True
        if t == "summon":
            self._summon(state, seat, action, ev)
        elif t == "activate":
            self._activate(state, seat, action, ev)
        elif t == "activate_obstacle":
            self._activate_obstacle(state, seat, action, ev)
        elif t == "maneuver":
            self._declare_maneuver(state, seat, action["kind"], action.get("target"), ev)
        elif t in ("equip", "unequip") and _v2(state):
            # Rulebook l.166-171, 226: equipping and unequipping are actions, and every action opens a thread
            item = {"kind": t, "seat": seat, "card": action["item"], "ab": None, "by": None, "targets": [],
                    "tinc": [], "labels": []}
            if t == "equip":
                item["to"] = action["to"]
                item["labels"] = [action["to"]]
            else:
                item["from"] = state["cards"][action["item"]]["on"]
            self._push(state, item, seat)
            ev.append({"type": f"{t}_started", "seat": seat, "item": action["item"], "to": action.get("to"),
                       "uid": item["uid"]})
        elif t == "attach_reward" and _v2(state):
            self._summon_reward(state, seat, action, ev)
        elif t == "equip":
            S.move(state, action["item"], "worn", seat, on=action["to"])
            ev.append({"type": "equipped", "seat": seat, "item": action["item"], "to": action["to"]})
            state["prio"] = S.active(state)
            state["passes"] = 0
        elif t == "unequip":
            S.move(state, action["item"], "store", seat)
            ev.append({"type": "unequipped", "seat": seat, "item": action["item"]})
            state["prio"] = S.active(state)
            state["passes"] = 0
        elif t == "attach_reward":
            # Decision: attaching equipment to one's own awaiting quest is done openly and at once, for free.
            S.move(state, action["card"], "attached", seat, on=action["quest"])
            ev.append({"type": "reward_attached", "seat": seat, "card": action["card"], "quest": action["quest"]})
            state["prio"] = S.active(state)
            state["passes"] = 0
        else:  # pragma: no cover - validated before
            raise IllegalAction("That move is not allowed now.")

    def _summon_reward(self, state: dict, seat: int, action: dict, ev: list) -> None:
        """Equipment from the hand summoned onto one's own awaiting quest: paid for like any summon (book
        l.188; only obstacles are attached for 0 MP), it goes on the thread and attaches when it resolves."""
        cid, quest = action["card"], action["quest"]
        d = S.cdef(state, cid)
        state["p"][seat]["mp"] -= d["mp"]
        S.take(state, cid)
        c = state["cards"][cid]
        c["zone"] = "thread"
        c["zs"] = seat
        c["ctrl"] = seat
        c["inc"] += 1
        item = {"kind": "summon", "seat": seat, "card": cid, "ab": None, "by": None, "targets": [], "tinc": [],
                "labels": [quest], "reward": quest, "qinc": state["cards"][quest]["inc"]}
        self._push(state, item, seat)
        ev.append({"type": "summoned", "seat": seat, "card": cid, "name": d["name_en"], "cost": d["mp"],
                   "by": None, "target": quest, "uid": item["uid"]})

    def _summon(self, state: dict, seat: int, action: dict, ev: list) -> None:
        cid = action["card"]
        d = S.cdef(state, cid)
        p = state["p"][seat]
        t = d["type"]
        cost = 0 if t in ("quest", "building", "ally", "obstacle") else d["mp"]
        p["mp"] -= cost
        by = action.get("by")
        if by:
            state["cards"][by]["state"] = "resting"  # the summoner turns resting
            m = state["maneuver"]
            if m is not None and m["step"] == "prep":
                m["prep_acted"].append(by)
        S.take(state, cid)
        c = state["cards"][cid]
        c["zone"] = "thread"
        c["zs"] = seat
        c["ctrl"] = seat
        c["inc"] += 1
        tg = action.get("target")
        item = {"kind": "summon", "seat": seat, "card": cid, "ab": None, "by": by, "targets": [], "tinc": [],
                "labels": []}
        if t == "obstacle":
            c["up"] = False
            item["loc"] = tg
            item["hidden"] = True
            item["labels"] = [self._pub(state, tg)]
        elif tg is not None:
            self._set_target(state, item, tg)
        self._push(state, item, seat)
        if t == "obstacle":
            ev.append({"type": "summoned_hidden", "seat": seat, "location": self._pub(state, tg), "uid": item["uid"]})
        else:
            ev.append({"type": "summoned", "seat": seat, "card": cid, "name": d["name_en"], "cost": cost,
                       "by": by, "target": item["labels"][0] if item["labels"] else None, "uid": item["uid"]})

    def _set_target(self, state: dict, item: dict, tg: str) -> None:
        if tg.startswith("T"):  # a thread item
            item["targets"] = [tg]
            item["tinc"] = [0]
            item["labels"] = [tg]
        elif tg.startswith("obstacle-"):
            loc = state["maneuver"]["target"]
            real = state["cards"][loc]["att"][int(tg[len("obstacle-"):])]
            item["targets"] = [real]
            item["tinc"] = [state["cards"][real]["inc"]]
            item["labels"] = [tg]
        else:
            item["targets"] = [tg]
            item["tinc"] = [state["cards"][tg]["inc"]]
            item["labels"] = [self._pub(state, tg)]

    def _activate(self, state: dict, seat: int, action: dict, ev: list) -> None:
        cid, i = action["card"], action["ability"]
        d = S.cdef(state, cid)
        ab = d["abilities"][i]
        p = state["p"][seat]
        c = state["cards"][cid]
        p["mp"] -= ab["mp"]
        if ab["szp"]:
            c["szp"] -= ab["szp"]
        actor = c["on"] if c["zone"] == "worn" else cid
        if "TAP" in ab["sym"]:
            state["cards"][actor]["state"] = "resting"
        if "ONCE_ROUND" in ab["sym"]:
            p["used_round"].append([cid, i])
        m = state["maneuver"]
        if m is not None and m["step"] == "prep" and S.cdef(state, actor)["type"] == "adventurer":
            m["prep_acted"].append(actor)
        item = {"kind": "ability", "seat": seat, "card": cid, "ab": i, "by": actor, "targets": [], "tinc": [],
                "labels": []}
        if action.get("target") is not None:
            self._set_target(state, item, action["target"])
        elif ab.get("target") == "self":
            self._set_target(state, item, cid)
        self._push(state, item, seat)
        state["used_thread"].append([cid, i])
        ev.append({"type": "activated", "seat": seat, "card": cid, "name": d["name_en"], "ability": i,
                   "target": item["labels"][0] if item["labels"] else None, "uid": item["uid"]})
        if ab.get("sacrifice"):
            ev.append({"type": "sacrificed", "seat": seat, "card": cid, "name": d["name_en"]})
            self._to_past(state, cid, ev)
        if c["zone"] == "allies" and c.get("szp", 0) <= 0:
            ev.append({"type": "ally_exhausted", "seat": seat, "card": cid, "name": d["name_en"]})
            self._to_past(state, cid, ev)

    def _activate_obstacle(self, state: dict, seat: int, action: dict, ev: list) -> None:
        cid = action["card"]
        d = S.cdef(state, cid)
        p = state["p"][seat]
        c = state["cards"][cid]
        p["mp"] -= d["mp"]
        if action.get("tap"):
            state["cards"][action["tap"]]["state"] = "resting"  # ANIMATE's extra cost
        loc = c["on"]
        S.take(state, cid)
        c["zone"] = "thread"
        c["zs"] = seat
        c["up"] = True
        c["inc"] += 1
        item = {"kind": "obstacle", "seat": seat, "card": cid, "ab": None, "by": None, "targets": [], "tinc": [],
                "labels": [], "loc": loc, "animate": bool(action.get("tap"))}
        if action.get("target") is not None:
            self._set_target(state, item, action["target"])
        self._push(state, item, seat)
        state["used_thread"].append([cid, -1])
        ev.append({"type": "obstacle_activated", "seat": seat, "card": cid, "name": d["name_en"],
                   "kind": d["kind"], "target": item["labels"][0] if item["labels"] else None, "uid": item["uid"]})

    # ------------------------------------------------------------------ resolution
    def _valid_targets(self, state: dict, item: dict) -> list[str]:
        out = []
        for tg, inc in zip(item["targets"], item["tinc"]):
            if tg.startswith("T"):
                if any(it["uid"] == tg for it in state["thread"] or []):
                    out.append(tg)
            elif tg in state["cards"] and state["cards"][tg]["inc"] == inc:
                out.append(tg)
        return out

    def _resolve_top(self, state: dict, ev: list) -> None:
        item = state["thread"].pop()
        kind = item["kind"]
        targets = self._valid_targets(state, item)
        fizzled = bool(item["targets"]) and not targets
        if kind == "summon":
            self._resolve_summon(state, item, targets, fizzled, ev)
        elif kind in ("ability", "trigger"):
            d = S.cdef(state, item["card"])
            ab = d["abilities"][item["ab"]]
            if fizzled:
                ev.append({"type": "fizzled", "uid": item["uid"], "name": d["name_en"]})
                return
            ev.append({"type": "resolved", "uid": item["uid"], "seat": item["seat"], "name": d["name_en"]})
            self._run_effects(state, item, ab["effect"], targets, ev)
        elif kind == "obstacle":
            self._resolve_obstacle(state, item, targets, fizzled, ev)
        elif kind in ("equip", "unequip"):
            self._resolve_gear(state, item, ev)

    def _resolve_gear(self, state: dict, item: dict, ev: list) -> None:
        cid, seat = item["card"], item["seat"]
        c = state["cards"][cid]
        name = S.cdef(state, cid)["name_en"]
        if item["kind"] == "equip":
            to = item["to"]
            ok = (c["zone"] == "store" and c["zs"] == seat and state["cards"][to]["zone"] == "row"
                  and state["cards"][to]["ctrl"] == seat and self._can_wear(state, to, cid))
            if ok:
                S.move(state, cid, "worn", seat, on=to)
                ev.append({"type": "equipped", "seat": seat, "item": cid, "to": to})
                return
        elif c["zone"] == "worn" and c.get("on") == item["from"]:
            S.move(state, cid, "store", seat)
            ev.append({"type": "unequipped", "seat": seat, "item": cid})
            return
        ev.append({"type": "fizzled", "uid": item["uid"], "name": name})

    def _resolve_summon(self, state: dict, item: dict, targets: list, fizzled: bool, ev: list) -> None:
        cid = item["card"]
        seat = item["seat"]
        d = S.cdef(state, cid)
        t = d["type"]
        c = state["cards"][cid]
        if t == "obstacle":
            loc = item["loc"]
            if loc in state["cards"] and state["cards"][loc]["zone"] in S.PRESENT:
                c["zone"] = None
                S.put(state, cid, "attached", seat, on=loc)
                c["up"] = False
                ev.append({"type": "obstacle_attached", "seat": seat, "location": self._pub(state, loc),
                           "uid": item["uid"]})
            else:
                c["zone"] = None
                S.put(state, cid, PAST, c["owner"])
                c["up"] = True
                ev.append({"type": "fizzled", "uid": item["uid"], "name": "obstacle"})
            return
        if fizzled:
            ev.append({"type": "fizzled", "uid": item["uid"], "name": d["name_en"]})
            c["zone"] = None
            S.put(state, cid, PAST, c["owner"])
            return
        ev.append({"type": "resolved", "uid": item["uid"], "seat": seat, "name": d["name_en"]})
        if item.get("reward"):
            q = item["reward"]
            qc = state["cards"][q]
            c["zone"] = None
            if qc["zone"] == "quests" and qc["inc"] == item["qinc"]:
                S.put(state, cid, "attached", seat, on=q)
                ev.append({"type": "reward_attached", "seat": seat, "card": cid, "quest": q})
            else:
                # Decision: the quest left before the reward arrived; the paid-for gear goes to the Store
                S.put(state, cid, "store", seat)
                ev.append({"type": "entered", "seat": seat, "card": cid, "name": d["name_en"], "zone": "store"})
            return
        if t in ("adventurer", "quest", "building", "ally") or (t == "action" and d["action_type"] in ("item", "magic_item")):
            zone = {"adventurer": "row", "quest": "quests", "building": "buildings", "ally": "allies",
                    "action": "store"}[t]
            c["zone"] = "nowhere"
            if S.named_conflict(state, seat, cid):
                # the named-card rule: a second card of the same name goes to the Past instead
                ev.append({"type": "named_rule", "seat": seat, "card": cid, "name": d["name_en"]})
                S.put(state, cid, PAST, c["owner"])
                return
            c["zone"] = None
            c["state"] = "alert"
            S.put(state, cid, zone, seat)
            ev.append({"type": "entered", "seat": seat, "card": cid, "name": d["name_en"], "zone": zone})
            if t == "ally":
                c["szp"] = d["szp"]
            if t == "quest":
                state["thread_quests"].append(cid)
            if t == "building" and len(state["p"][seat]["buildings"]) > BUILDING_LIMIT:
                state["pending"].insert(0, {"kind": "destroy_building", "seat": seat})
            for i, ab in enumerate(d["abilities"]):
                if ab["kind"] == "trigger" and ab["on"] == "enter":
                    state["trig"].append({"seat": seat, "card": cid, "ab": i})
            return
        # attack cards and events
        c["zone"] = None
        S.put(state, cid, "events", seat)
        if d.get("attack"):
            self._attack(state, seat, item["by"], targets[0], d["attack"]["damage"], ev, d["name_en"])
            if d.get("effect"):
                self._run_effects(state, item, d["effect"], targets, ev)
        elif d.get("effect"):
            self._run_effects(state, item, d["effect"], targets, ev)
        dur = d["duration"]
        if dur == "instant" or (dur == "use" and state["cards"][cid]["zone"] == "events"
                                and not self._ward_holder(state, cid)):
            if state["cards"][cid]["zone"] == "events":
                self._to_past(state, cid, ev)

    def _ward_holder(self, state: dict, src: str) -> bool:
        return any(any(w.get("src") == src for w in c.get("wards", ())) for c in state["cards"].values())

    def _attack(self, state: dict, seat: int, by: str, target: str, damage: int, ev: list, name: str) -> None:
        """An attack: 2d6 against the attacker's threshold (fixed now, at resolution); hits deal damage."""
        thr = S.threshold(state, by) if by in state["cards"] and state["cards"][by]["zone"] in S.PRESENT else 0
        a, b = self._roll(state)
        hit = a + b <= thr
        ev.append({"type": "attack_roll", "seat": seat, "by": by, "target": target, "dice": [a, b],
                   "threshold": thr, "hit": hit, "name": name})
        if hit:
            self._damage(state, target, damage, False, ev)

    def _damage(self, state: dict, target: str, amount: int, anyway: bool, ev: list) -> None:
        """Override strengths: armour (weak) and wards (prohibiting) stop ordinary damage; damage dealt
        "anyway" (strong) ignores both."""
        c = state["cards"][target]
        if not anyway:
            if c.get("wards"):
                w = c["wards"].pop(0)
                ev.append({"type": "damage_prevented", "card": target})
                src = w.get("src")
                if src and state["cards"][src]["zone"] == "events":
                    self._to_past(state, src, ev)
                return
            amount = max(0, amount - S.armour(state, target))
        c["dmg"] += amount
        ev.append({"type": "damaged", "card": target, "amount": amount, "level": S.level(state, target),
                   "anyway": anyway})

    def _run_effects(self, state: dict, item: dict, effects: list, targets: list, ev: list) -> None:
        seat = item["seat"]
        for eff in effects:
            op = eff["op"]
            if op == "damage":
                spec = self._item_spec(state, item)
                tgs = list(state["p"][1 - seat]["team"]) if spec == "all_enemy_team" else targets
                for tg in tgs:
                    if tg in state["cards"] and state["cards"][tg]["zone"] in ("row", "team"):
                        self._damage(state, tg, eff["amount"], eff.get("anyway", False), ev)
            elif op == "heal":
                for tg in targets:
                    c = state["cards"][tg]
                    healed = min(c["dmg"], eff["amount"])
                    c["dmg"] -= healed
                    ev.append({"type": "healed", "card": tg, "amount": healed})
            elif op == "attack":
                if targets:
                    self._attack(state, seat, item["by"], targets[0], eff["damage"], ev, S.cdef(state, item["card"])["name_en"])
            elif op == "rest":
                for tg in targets:
                    if state["cards"][tg]["zone"] in ("row", "team"):
                        state["cards"][tg]["state"] = "resting"
                        ev.append({"type": "turned", "card": tg, "state": "resting"})
            elif op == "alert":
                for tg in targets:
                    state["cards"][tg]["state"] = "alert"
                    ev.append({"type": "turned", "card": tg, "state": "alert"})
            elif op == "buff":
                for tg in targets:
                    state["cards"][tg].setdefault("mods", []).append({"stat": eff["stat"], "amount": eff["amount"], "until": eff["until"]})
                    ev.append({"type": "modified", "card": tg, "stat": eff["stat"], "amount": eff["amount"]})
            elif op == "buff_team":
                for tg in state["p"][seat]["team"]:
                    state["cards"][tg].setdefault("mods", []).append({"stat": eff["stat"], "amount": eff["amount"], "until": eff["until"]})
                    ev.append({"type": "modified", "card": tg, "stat": eff["stat"], "amount": eff["amount"]})
            elif op == "ward":
                for tg in targets:
                    state["cards"][tg].setdefault("wards", []).append({"src": item["card"]})
                    ev.append({"type": "warded", "card": tg})
            elif op == "counter":
                for tg in targets:
                    victim = next(it for it in state["thread"] if it["uid"] == tg)
                    state["thread"].remove(victim)
                    victim_def = S.cdef(state, victim["card"])
                    ev.append({"type": "neutralised", "uid": tg, "name": victim_def["name_en"]})
                    if victim["kind"] in ("summon", "obstacle"):
                        vc = state["cards"][victim["card"]]
                        vc["zone"] = None
                        vc["up"] = True
                        S.put(state, victim["card"], PAST, vc["owner"])
            elif op == "destroy":
                for tg in targets:
                    ev.append({"type": "destroyed", "card": tg, "name": S.cdef(state, tg)["name_en"]})
                    state["cards"][tg]["up"] = True
                    self._to_past(state, tg, ev)
            elif op == "gain_mp":
                state["p"][seat]["mp"] += eff["amount"]
                ev.append({"type": "mp_gained", "seat": seat, "amount": eff["amount"]})
            elif op == "opp_lose_mp":
                o = state["p"][1 - seat]
                lost = min(o["mp"], eff["amount"])
                o["mp"] -= lost
                ev.append({"type": "mp_lost", "seat": 1 - seat, "amount": lost})
            elif op == "draw":
                self._draw(state, seat, eff["n"], ev)
            elif op == "token":
                state["tokens"] += 1
                tid = f"KVT-{state['tokens']}"
                state["cards"][tid] = S.new_card(tid, eff["card"], seat, "row")
                state["cards"][tid]["zone"] = None
                S.put(state, tid, "row", seat)
                ev.append({"type": "token_created", "seat": seat, "card": tid, "name": card_defs()[eff["card"]]["name_en"]})
            elif op == "search_reserve":
                # "Cserepakli: a Jövőtől különálló pakli, amiből csak bizonyos lapok, hatások által kereshet ki
                # lapot a játékos": its player picks one card of it (a decision), which goes to the hand.
                # An empty (or spent) reserve: the effect does nothing.
                if state["p"][seat].get("reserve"):
                    state["pending"].insert(0, {"kind": "reserve_pick", "seat": seat})
                else:
                    ev.append({"type": "reserve_empty", "seat": seat})
            elif op == "free_maneuver":
                # an effect that starts a maneuver waits until the thread closes
                state["free_maneuver"] = {"seat": seat, "kind": eff["kind"]}
            else:  # pragma: no cover
                raise AssertionError(op)

    def _item_spec(self, state: dict, item: dict) -> str | None:
        d = S.cdef(state, item["card"])
        if item["kind"] in ("ability", "trigger"):
            return d["abilities"][item["ab"]].get("target")
        return d.get("target")

    def _resolve_obstacle(self, state: dict, item: dict, targets: list, fizzled: bool, ev: list) -> None:
        cid = item["card"]
        d = S.cdef(state, cid)
        seat = item["seat"]
        if d["kind"] == "beast":
            team_seat = 1 - seat
            bonus = S.omen_bonus(state, seat, "beast_attack")
            state["beast"] = {"card": cid, "left": d["number"], "attack": d["attack"] + bonus, "damage": d["damage"],
                              "team": team_seat, "loc": item["loc"], "animate": item.get("animate", False),
                              "uid": item["uid"]}
            ev.append({"type": "beast_attacks", "seat": seat, "card": cid, "name": d["name_en"],
                       "number": d["number"], "attack": d["attack"] + bonus, "damage": d["damage"]})
            self._next_beast_attack(state, ev)
            return
        if fizzled:
            ev.append({"type": "fizzled", "uid": item["uid"], "name": d["name_en"]})
        else:
            ev.append({"type": "resolved", "uid": item["uid"], "seat": seat, "name": d["name_en"]})
            self._run_effects(state, item, d["effect"], targets, ev)
        self._to_past(state, cid, ev)

    def _next_beast_attack(self, state: dict, ev: list) -> None:
        b = state["beast"]
        team = state["p"][b["team"]]["team"]
        if b["left"] <= 0 or not team:
            self._finish_beast(state, ev)
            return
        if len(team) == 1:
            self._beast_attack(state, team[0], ev)
            return
        # the attacked team's player chooses the victim of every single attack
        state["pending"].insert(0, {"kind": "beast_target", "seat": b["team"]})

    def _beast_attack(self, state: dict, target: str, ev: list) -> None:
        b = state["beast"]
        b["left"] -= 1
        x, y = self._roll(state)
        hit = x + y <= b["attack"]
        ev.append({"type": "beast_roll", "card": b["card"], "target": target, "dice": [x, y],
                   "attack": b["attack"], "hit": hit})
        if hit:
            self._damage(state, target, b["damage"], False, ev)
        self._next_beast_attack(state, ev)

    def _finish_beast(self, state: dict, ev: list) -> None:
        b = state["beast"]
        state["beast"] = None
        team = state["p"][b["team"]]["team"]
        m = state["maneuver"]
        in_obstacle_phase = m is not None and m["step"] == "obstacles" and not b["animate"]
        if in_obstacle_phase and team and all(S.level(state, a) < 1 for a in team):
            ev.append({"type": "beast_victorious", "card": b["card"], "name": S.cdef(state, b["card"])["name_en"]})
            state["cards"][b["card"]]["zone"] = "limbo"
            state["victorious"].append({"card": b["card"], "loc": b["loc"], "team": b["team"]})
        else:
            self._to_past(state, b["card"], ev)

    # ------------------------------------------------------------------ maneuvers
    def _declare_maneuver(self, state: dict, seat: int, kind: str, target: str | None, ev: list,
                          free: bool = False) -> None:
        p = state["p"][seat]
        if not any(state["cards"][a]["state"] == "alert" for a in p["row"]):
            ev.append({"type": "maneuver_impossible", "seat": seat, "kind": kind})
            state["prio"] = None
            return
        opp = state["p"][1 - seat]
        if kind == "siege":
            target = opp["towers"][0]  # the lowest level is besieged
            cost = SIEGE_COST
        elif kind == "quest":
            cost = 0
        else:
            cost = S.cdef(state, target)["dp"]
        state["maneuver"] = {"kind": kind, "init": seat, "target": target, "step": "form_init",
                             "cost": 0 if free else cost, "front": [], "prep_acted": [], "acted": False,
                             "round": 0, "winner": None, "combat": False, "solver": seat,
                             "was_hidden": kind == "siege" and not state["cards"][target]["up"], "free": free}
        state["prio"] = None
        state["passes"] = 0
        ev.append({"type": "maneuver_declared", "seat": seat, "kind": kind,
                   "target": self._pub(state, target), "cost": 0 if free else cost})
        state["pending"].insert(0, {"kind": "team", "seat": seat, "role": "init"})

    def _team_decide(self, state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
        t = action["type"]
        p = state["p"][seat]
        m = state["maneuver"]
        if t == "team_add":
            S.move(state, action["card"], "team", seat)
            ev.append({"type": "team_joined", "seat": seat, "card": action["card"]})
            return
        if t == "equip":
            S.move(state, action["item"], "worn", seat, on=action["to"])
            ev.append({"type": "equipped", "seat": seat, "item": action["item"], "to": action["to"]})
            return
        state["pending"].remove(dec)
        if t == "no_block":
            ev.append({"type": "no_block", "seat": seat})
            self._after_block(state, ev)
            return
        # team_done
        if dec["role"] == "init":
            p["mp"] -= m["cost"]
            ev.append({"type": "team_left_row", "seat": seat, "team": list(p["team"]), "cost": m["cost"]})
            m["step"] = "init_thread"
        else:
            ev.append({"type": "team_left_row", "seat": seat, "team": list(p["team"]), "cost": 0})
            m["step"] = "block_thread"
        self._open_phase_thread(state)

    def _form_block(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        m["step"] = "form_block"
        d = 1 - m["init"]
        if any(state["cards"][a]["state"] == "alert" for a in state["p"][d]["row"]):
            state["pending"].insert(0, {"kind": "team", "seat": d, "role": "block"})
        else:
            ev.append({"type": "no_block", "seat": d})
            self._after_block(state, ev)

    def _after_block(self, state: dict, ev: list) -> None:
        """No blocking team: no combat; the maneuver goes on as if its team had won."""
        m = state["maneuver"]
        m["step"] = "block_thread"
        if _v2(state):
            # Rulebook l.301: the blocking phase ends with a thread, blocker or not
            self._open_phase_thread(state)
        else:
            self._maneuver_next(state, ev)

    def _teams_empty(self, state: dict) -> bool:
        return not state["p"][0]["team"] and not state["p"][1]["team"]

    def _maneuver_next(self, state: dict, ev: list) -> None:
        """The thread of a maneuver step has closed (or a step needs none): go to the next step."""
        m = state["maneuver"]
        init = m["init"]
        if self._teams_empty(state) and m["step"] not in ("form_init",):
            ev.append({"type": "maneuver_no_teams"})
            self._end_maneuver(state, ev)
            return
        step = m["step"]
        kind = m["kind"]
        if step == "init_thread":
            if kind == "siege":
                tower = state["cards"][m["target"]]
                tower["up"] = True
                m["step"] = "reveal"
                ev.append({"type": "tower_revealed", "seat": 1 - init, "card": m["target"],
                           "name": S.cdef(state, m["target"])["name_en"], "wall": S.cdef(state, m["target"])["wall"]})
                self._open_phase_thread(state)
            elif kind == "capture":
                m["step"] = "obstacles"
                self._open_phase_thread(state)
            else:
                self._form_block(state, ev)
        elif step == "reveal":
            m["step"] = "obstacles"
            self._open_phase_thread(state)
        elif step == "obstacles":
            if not state["p"][m["solver"]]["team"]:
                self._end_maneuver(state, ev)
                return
            if kind == "quest":
                m["step"] = "condition"
                state["pending"].insert(0, {"kind": "solve", "seat": m["solver"]})
            elif kind == "siege":
                wall = self._wall(state)
                team_level = sum(S.level(state, a) for a in state["p"][init]["team"])
                if wall >= team_level:
                    m["step"] = "wall"
                    state["pending"].insert(0, {"kind": "wall_choice", "seat": 1 - init})
                else:
                    self._form_block(state, ev)
            else:
                self._form_block(state, ev)
        elif step == "block_thread":
            if state["p"][init]["team"] and state["p"][1 - init]["team"]:
                m["combat"] = True
                m["step"] = "prep"
                ev.append({"type": "combat_started"})
                self._open_phase_thread(state)
            else:
                self._outcome_without_combat(state, ev)
        elif step == "prep":
            self._ask_ranks(state, ev)
        elif step == "result":
            self._after_result(state, ev)
        elif step == "solve_thread":
            self._end_maneuver(state, ev)
        elif step == "rounds":
            # a thread opened by a combat-round action has closed: the round goes on
            self._front_fix(state)
            if not state["p"][0]["team"] or not state["p"][1]["team"]:
                self._combat_result(state, ev)
                return
            state["prio"] = S.active(state)
            state["passes"] = 0
        else:  # pragma: no cover
            raise AssertionError(step)

    def _wall(self, state: dict) -> int:
        m = state["maneuver"]
        return S.cdef(state, m["target"])["wall"]

    def _outcome_without_combat(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        init = m["init"]
        if not state["p"][init]["team"]:
            self._end_maneuver(state, ev)
            return
        m["winner"] = init
        if m["kind"] == "quest":
            m["solver"] = init
            self._quest_obstacles(state, ev)
        else:
            self._apply_outcome(state, ev)
            self._end_maneuver(state, ev)

    def _quest_obstacles(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        m["step"] = "obstacles"
        self._open_phase_thread(state)

    def _ask_ranks(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        m["step"] = "ranks"
        init = m["init"]
        # the initiator sets his ranks first, then the blocker
        state["pending"] = [{"kind": "ranks", "seat": s} for s in (init, 1 - init) if state["p"][s]["team"]]
        if not state["pending"]:
            self._end_maneuver(state, ev)

    def _front_fix(self, state: dict) -> None:
        """A team left without a front rank moves its back rank to the front."""
        m = state["maneuver"]
        if m is None:
            return
        for s in range(2):
            team = state["p"][s]["team"]
            m["front"] = [f for f in m["front"] if state["cards"][f]["zone"] == "team"]
            if team and not any(a in m["front"] for a in team):
                m["front"].extend(team)

    def _new_combat_round(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        m["step"] = "rounds"
        m["round"] += 1
        m["acted"] = False
        self._front_fix(state)
        for s in range(2):
            for a in state["p"][s]["team"]:
                state["cards"][a]["state"] = "alert"  # every combat round starts with everyone alert
        ev.append({"type": "combat_round", "round": m["round"]})
        state["prio"] = S.active(state)
        state["passes"] = 0

    def _team_level(self, state: dict, seat: int) -> int:
        return sum(max(0, S.level(state, a)) for a in state["p"][seat]["team"])

    def _combat_result(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        init = m["init"]
        lv = [self._team_level(state, s) for s in range(2)]
        if m["kind"] == "siege":
            lv[1 - init] += self._wall(state)  # the tower's WALL joins the defenders
        if lv[init] > lv[1 - init]:
            m["winner"] = init
        elif lv[init] < lv[1 - init]:
            m["winner"] = 1 - init
        else:
            m["winner"] = -1
        ev.append({"type": "combat_result", "levels": lv, "winner": None if m["winner"] < 0 else m["winner"]})
        m["step"] = "result"
        self._open_phase_thread(state)

    def _after_result(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        # cards with Combat duration leave at the end of the combat-result phase
        for s in range(2):
            for cid in list(state["p"][s]["events"]):
                if S.cdef(state, cid)["duration"] == "combat":
                    self._to_past(state, cid, ev)
            for a in S.adventurers(state, s):
                state["cards"][a]["mods"] = [x for x in state["cards"][a].get("mods", ()) if x["until"] != "combat"]
        w = m["winner"]
        for s in range(2):
            if s != w:
                self._return_team(state, s, ev)  # the non-winner returns to the Row
        if w is None or w < 0 or not state["p"][w]["team"]:
            self._end_maneuver(state, ev)
            return
        if m["kind"] == "quest":
            # the winner may go on with the quest (even the blocker) or return
            state["pending"].insert(0, {"kind": "continue_quest", "seat": w})
            return
        self._apply_outcome(state, ev)
        self._end_maneuver(state, ev)

    def _apply_outcome(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        init = m["init"]
        tgt = m["target"]
        if m["winner"] != init:
            return
        if m["kind"] == "siege":
            ev.append({"type": "tower_destroyed", "seat": 1 - init, "card": tgt, "name": S.cdef(state, tgt)["name_en"]})
            self._to_past(state, tgt, ev)
            m["target"] = None
        elif m["kind"] == "capture":
            for att in list(state["cards"][tgt].get("att", ())):
                self._to_past(state, att, ev)  # attached cards fall off when control changes
            S.move(state, tgt, "buildings", init)
            state["cards"][tgt]["ctrl"] = init
            ev.append({"type": "building_captured", "seat": init, "card": tgt, "name": S.cdef(state, tgt)["name_en"]})
            if len(state["p"][init]["buildings"]) > BUILDING_LIMIT:
                state["pending"].insert(0, {"kind": "destroy_building", "seat": init})

    def _solve_quest(self, state: dict, seat: int, cond: int, ev: list) -> None:
        m = state["maneuver"]
        q = m["target"]
        d = S.cdef(state, q)
        state["p"][seat]["mp"] -= d["mp"]
        for att in list(state["cards"][q].get("att", ())):
            ad = S.cdef(state, att)
            if ad["type"] == "action":
                S.move(state, att, "store", seat)  # the attached reward goes to the solver's Store
                state["cards"][att]["ctrl"] = seat
                ev.append({"type": "reward_taken", "seat": seat, "card": att, "name": ad["name_en"]})
            else:
                state["cards"][att]["up"] = True
                self._to_past(state, att, ev)
        S.move(state, q, "solved", seat)
        state["cards"][q]["ctrl"] = seat
        ev.append({"type": "quest_solved", "seat": seat, "card": q, "name": d["name_en"], "condition": cond,
                   "dp": d["dp"], "mp": d["mp"]})
        m["step"] = "solve_thread"
        self._open_phase_thread(state)
        for i, ab in enumerate(d["abilities"]):
            if ab["kind"] == "trigger" and ab["on"] == "solve":
                state["trig"].append({"seat": seat, "card": q, "ab": i})

    def _return_team(self, state: dict, seat: int, ev: list) -> None:
        team = list(state["p"][seat]["team"])
        if not team:
            return
        m = state["maneuver"]
        for a in team:
            c = state["cards"][a]
            S.move(state, a, "row", seat)
            # back in the Row resting; with damage injured (the damage itself is gone)
            c["state"] = "injured" if c["dmg"] > 0 else "resting"
            c["dmg"] = 0
            c["mods"] = [x for x in c.get("mods", ()) if x["until"] not in ("combat", "maneuver")]
            if m and a in m["front"]:
                m["front"].remove(a)
        ev.append({"type": "team_returned", "seat": seat, "cards": team})

    def _end_maneuver(self, state: dict, ev: list) -> None:
        m = state["maneuver"]
        for s in range(2):
            self._return_team(state, s, ev)
            for cid in list(state["p"][s]["events"]):
                if S.cdef(state, cid)["duration"] == "combat":
                    self._to_past(state, cid, ev)
        if m["kind"] == "siege" and m["target"] is not None and m["was_hidden"]:
            if state["cards"][m["target"]]["zone"] == "towers":
                state["cards"][m["target"]]["up"] = False  # the level turns face down again
        ev.append({"type": "maneuver_ended", "kind": m["kind"], "winner": m["winner"]})
        state["maneuver"] = None
        state["prio"] = None
        state["passes"] = 0
        state["pending"] = [d for d in state["pending"] if d["kind"] in ("destroy_building",)]


ENGINE = KivalasztottakEngine()
