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

from engines.base import BaseEngine, json_text

from . import common as C
from . import state as S
from .cards import IMMEDIATE_DP
from .decisions import decide, decision_actions
from .effects import deal_damage
from .obstacles import obstacle_room
from .priority import explain_refusal, prio_act, prio_actions
from .resolution import close_thread
from .rounds import flow
from .scrub import group_labels, scrub
from .setup import DEFAULT_ROUND_LIMIT, new_game
from .thread import place_triggers
from .victory import draw_game, win
from .zones import attr_fn, die, pub, to_past

__all__ = ["DEFAULT_ROUND_LIMIT", "ENGINE", "KEY", "KivalasztottakEngine"]

KEY = "kivalasztottak"
_CARD_DEFAULTS = {"state": "alert", "dmg": 0, "up": True}


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
    #: ``common.v2``, ``common.heals_damaged_only``; their states have no ``reserve`` zone).
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
        return new_game(self.rules_version, num_players, seed, options)

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
        return json.loads(json.dumps(self._compact(state)))

    def json_text(self, state: dict) -> str:
        # (the text of to_json without its round trip through the parser: the same text - issue 29)
        return json_text(self._compact(state))

    def _rng_of(self, state: dict) -> object:
        # (to_json saves the generator's state as it is: an int, which its round trip through JSON keeps)
        return state.get("rng")

    @staticmethod
    def _compact(state: dict) -> dict:
        """The state with its card fields at their default value left out (a shallow copy: not to be kept)."""
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
        return compact

    def from_json(self, data: dict) -> dict:
        self._check_version(data)
        return self._settled(json.loads(json.dumps(data)))

    def _adopt(self, data: dict) -> dict:
        self._check_version(data)
        return self._settled(data)

    def _check_version(self, data: dict) -> None:
        if data.get("rules_version") not in self.loadable_versions:
            raise ValueError(f"This saved game was made with rules version {data.get('rules_version')}; "
                             f"this engine plays versions {', '.join(map(str, self.loadable_versions))}.")

    @staticmethod
    def _settled(state: dict) -> dict:
        """A state as loaded (changed in place): what older saves lack, and the card fields left out at their
        defaults (see :meth:`to_json`)."""
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
            return decision_actions(state, dec)
        if state["prio"] != seat:  # to_act is [prio] here
            return []
        return prio_actions(state, seat, self._zone_facts(state))

    def auto_passable(self, state: dict, seat: int) -> bool:
        """True when ``seat`` is to act and could do nothing but pass (for the host's auto-pass setting)."""
        acts = self.legal_actions(state, seat)
        return bool(acts) and all(a["type"] == "pass" for a in acts)

    def explain_illegal(self, state: dict, seat: int, action: dict) -> str:
        """Why an action is refused, in words a player understands."""
        return explain_refusal(state, seat, action)

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
            decide(state, seat, dec, action, ev)
        else:
            prio_act(state, seat, action, ev)
        self._advance(state, ev)
        if S.MOVES[0] == moves and not reordered:
            after = before  # no card moved: the zone facts still hold
            scrub(state, ev, before)
        else:
            after = self._labels(state)
            scrub(state, ev, {**after, **before})
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
        name_of = C.names_en()
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
                    entries = known[key] = group_labels(group, [name_of[cards[c]["k"]] for c in group])
                if entries:
                    out.update(entries)
        if len(known) > 4096:  # a long game: start afresh rather than grow without bound
            self._label_groups = None
        return out

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
                if place_triggers(state, ev):
                    return
                continue
            if state["prio"] is not None:
                return
            flow(state, ev)
        raise RuntimeError("kivalasztottak: the game did not settle")

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
            draw_game(state, "simultaneous", ev)
            return True
        for s in range(2):
            if wins[s]:
                win(state, s, "towers" if no_tower[1 - s] else "dp19", ev)
                return True
        return False

    # ------------------------------------------------------------------ section functions tests call by name
    def _to_past(self, state: dict, cid: str, ev: list | None = None) -> None:
        to_past(state, cid, ev)

    def _die(self, state: dict, cid: str, ev: list) -> None:
        die(state, cid, ev)

    def _damage(self, state: dict, target: str, amount: int, anyway: bool, ev: list) -> None:
        deal_damage(state, target, amount, anyway, ev)

    def _close_thread(self, state: dict, ev: list) -> None:
        close_thread(state, ev)

    def _obstacle_room(self, state: dict, loc: str) -> bool:
        return obstacle_room(state, loc)

    def _attr_fn(self, state: dict):
        return attr_fn(state)

    def _pub(self, state: dict, cid: str) -> str:
        return pub(state, cid)


ENGINE = KivalasztottakEngine()
