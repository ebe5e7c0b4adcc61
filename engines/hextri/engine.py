"""HEX-TRI rules engine (basic rules): movement, production and combat phases on a trihexagonal board.

Perfect information, no luck (only the first player of round 1 is drawn from the seed). The state is one
JSON-compatible dict; see :meth:`HexTriEngine.new_game` for its keys and :meth:`HexTriEngine.view` for what
renderers and the UI read.

Decisions where the rules are silent or the digest restates the original (``shared/seeds/004_*``):
- A move is one figure's whole sequence of steps (original). The engine lists every reachable destination
  once, with the fewest steps and default mana sources (see :mod:`engines.hextri.moves`); a player may name
  other sources (one per step, ``"free"`` for the leader's free step) and the engine finds a path that fits.
- A player who cannot move is passed over; that counts as a pass ("vagy már nem tud mozogni").
- Battles stop *before* a removal when every side left has one figure, so 1 against 1 stays contested.
- The leader-escape option lets the leader leave a HEX held by exactly one *ordinary* enemy figure
  (original: "1 egyszerű ellenséges bábu"; the digest says "a single enemy figure").
- Every figure removed in the combat phase leaves 1 mana, including a fallen leader's whole team.
- Encirclement (rules version 2, the book): for each player, every connected region of fields that are empty
  or his own is open only while it holds an empty entry TRI (a TRI touching one HEX, where figures come in
  from outside); otherwise every way into it is enemy-held and his figures in it are removed. The board's
  edge gives no protection, so a leader on a rim TRI can fall. Checked for HEXes, then (on the updated
  board) for TRIs; a fallen leader's team leaves the board right after the step in which he fell. Games
  begun under rules version 1 keep its withdrawn reading (a group reaching any rim TRI is safe).
- Moves by destination (issue 22): ``legal_actions`` lists each figure's every destination once, as a
  compact move ``{"type": "move", "from", "to", "leader", "cost", "sources", "other_ways"}`` paid the
  default way (``sources``) and saying whether it could be paid otherwise (``other_ways``: more than one
  choice of fields). The other ways are never listed with the moves - with mana piled up on many fields a
  move can be paid in millions of ways - but :meth:`HexTriEngine.variants` lists a bounded few for one
  move, and ``apply`` takes any way to pay: the listed move, one of its variants, the same move with
  ``sources`` of the player's own choosing (one field per step, ``"free"`` for the free step; the engine
  finds a path that fits them), or without ``sources`` (paid the default way). Action logs saved before
  this change (every way to pay was listed then, without ``other_ways``) replay unchanged.
- First blood (3+ players): the players involved in bringing a leader down (his battle's other sides, or the
  holders of the fields around his encircled group) win if their own leader still stands; if none does, play
  goes on. "first_blood_play_on" (the book's advice, "és esetleg akkor tovább játszani"): those players win
  and leave the table (their figures leave the board, leaving no mana); the others play on for the places,
  as in "last_leader". Two players, or "last_leader": the last player with a leader wins; leaders falling
  together draw.
- Round limit (0 = none): the most figures on the board, then the most mana on one's peaceful fields wins.
  A board on which nobody can move and nothing changes for two rounds ends the same way ("stalemate").
- The first player of round 1 is drawn from the seed; it then passes one seat on each round.
- Only the basic rules ("ALAP SZABÁLY"): the extension rules the original mentions (mana actions, other
  starting set-ups, the luck-based variant "HEX-TRI Viadalok") are not in the rulebook text and not implemented.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engines.base import BaseEngine, _copy
from engines.protocol import IllegalAction
from engines.rng import Rng

from . import combat
from .board import HEX, Board, board
from .moves import (
    FREE,
    LOCAL_FIRST,
    OFF,
    POOL_ONLY,
    Mover,
    SeatFacts,
    check,
    has_choice,
    payment,
    plan,
)

DATA = Path(__file__).resolve().parents[2] / "data" / "hextri"
RULES = json.loads((DATA / "rules.json").read_text(encoding="utf-8"))
FIGURES = int(RULES["figures_per_player"])
MANA_PER_LOSS = int(RULES["mana_per_removed_figure"])
LETTERS = "ABCDEF"


def _rule(state: dict) -> str:
    """The encirclement rule of the rules version the game began with."""
    return combat.RIM if state.get("rules_version", 1) == 1 else combat.ENTRY


def _occupancy(state: dict) -> dict[str, dict[int, int]]:
    occ: dict[str, dict[int, int]] = {}
    get = occ.get
    for seat, p in enumerate(state["players"]):
        for field, n in p["on"].items():
            here = get(field)
            if here is None:
                occ[field] = {seat: n}
            else:
                here[seat] = n
    return occ


def _moved(occ: dict[str, dict[int, int]], seat: int, origin: str, dest: str) -> dict[str, dict[int, int]]:
    """:func:`_occupancy` after one of ``seat``'s figures went from ``origin`` to ``dest``, made from the
    occupancy before (left unchanged: it is shared). Each field's seats stay in seat order, as
    :func:`_occupancy` gives them; only the order of the fields may differ, which nothing reads."""
    out = dict(occ)
    if origin != OFF:
        here = dict(out[origin])
        if here[seat] > 1:
            here[seat] -= 1
        else:
            del here[seat]
        if here:
            out[origin] = here
        else:
            del out[origin]
    there = out.get(dest)
    if there is None:
        out[dest] = {seat: 1}
    elif seat in there:
        there = out[dest] = dict(there)
        there[seat] += 1
    else:
        there = dict(there)
        there[seat] = 1
        out[dest] = dict(sorted(there.items()))
    return out


def _check_move_shape(action: dict) -> None:
    """A move's fields: only the known ones, other_ways a flag, from and to named."""
    allowed = {"type", "from", "to", "leader", "sources", "cost", "other_ways"}
    extra = set(action) - allowed
    if extra:
        raise IllegalAction(f"A move does not take {', '.join(sorted(extra))}.")
    if not isinstance(action.get("other_ways", False), bool):
        raise IllegalAction("other_ways says whether a move can be paid in other ways (true or false).")
    if "from" not in action or "to" not in action:
        raise IllegalAction("Say which figure moves (from) and where to (to).")


def _check_mover(p: dict, origin: str, leader: bool) -> None:
    """The player has the figure that is to move (the leader, or an ordinary one) on ``origin`` or waiting."""
    if origin == OFF:
        if leader and p["leader"] != OFF:
            raise IllegalAction("Your leader is already on the board.")
        if not leader and p["waiting"] <= 0:
            if p["resting"]:
                raise IllegalAction("Your other figures sit out this round: figures removed in a round "
                                    "may enter again only from the round after next.")
            raise IllegalAction("You have no figure waiting off the board.")
        return
    n = p["on"].get(origin, 0)
    if leader and p["leader"] != origin:
        raise IllegalAction(f"Your leader is not on {origin}.")
    if not leader and n - (1 if p["leader"] == origin else 0) <= 0:
        raise IllegalAction(f"You have no ordinary figure on {origin}." if n else
                            f"You have no figure on {origin}.")


class HexTriEngine(BaseEngine):
    key = "hextri"
    title = "HEX-TRI"
    min_players = 2
    max_players = 6
    #: 2: encirclement per the book (the board's edge gives no protection), figures stay encircled on the
    #: rim; games begun under 1 keep its rim rule (see :func:`_rule`)
    rules_version = 2
    #: undo within a turn (issue 25): a move and a pass after which the same player moves on (nothing is hidden
    #: in HEX-TRI); one that hands the decision to others (a battle's losses, the next go) is not (reversible)
    take_back = frozenset({"move", "pass"})
    versions = (1, 2)
    _resolved: tuple | None = None  # (state, action, _resolve_move's answer) from validate, for _do_move

    # ----------------------------------------------------------------- setup
    def options_spec(self) -> dict:
        """Engine options: name -> {"type", "default", and "min"/"max" or "choices"} (from data/hextri)."""
        return copy.deepcopy(RULES["options"])

    def _options(self, options: dict | None) -> dict:
        spec = RULES["options"]
        out = {name: s["default"] for name, s in spec.items()}
        for name, value in (options or {}).items():
            if name not in spec:
                raise ValueError(f"Unknown HEX-TRI option '{name}'; known: {', '.join(sorted(spec))}.")
            s = spec[name]
            if s["type"] == "bool":
                if not isinstance(value, bool):
                    raise ValueError(f"Option {name} must be true or false.")
            elif s["type"] == "int":
                if not isinstance(value, int) or isinstance(value, bool) or not s["min"] <= value <= s["max"]:
                    raise ValueError(f"Option {name} must be a whole number from {s['min']} to {s['max']}.")
            elif value not in s["choices"]:
                raise ValueError(f"Option {name} must be one of: {', '.join(s['choices'])}.")
            out[name] = value
        return out

    def new_game(self, num_players: int, seed: int, options: dict | None = None) -> dict:
        """A board with every field empty and every figure off the board; round 1's first player is drawn."""
        if not isinstance(num_players, int) or not self.min_players <= num_players <= self.max_players:
            raise ValueError("HEX-TRI is played by 2 to 6 players.")
        opts = self._options(options)
        rng = Rng(seed)
        first = rng.below(num_players)
        state: dict[str, Any] = {
            "rules_version": self.rules_version,
            "num_players": num_players,
            "options": opts,
            "rng": rng.state,
            "round": 0,
            "phase": "move",
            "first": (first - 1) % num_players,
            "turn": None,
            "passes": 0,
            "players": [{
                "on": {},               # field -> own figures there (the leader included)
                "leader": OFF,          # field, "off" (not entered yet) or None (fallen: the player is out)
                "waiting": FIGURES - 1,  # ordinary figures off the board, free to enter
                "resting": [],          # [[round they may enter again, count], ...] figures sitting out
                "free_used": False,
                "stuck": False,         # told this phase that he cannot move
                "out_round": None,
            } for _ in range(num_players)],
            "mana": {},
            "moves": [],                # this round's moves, for drawing
            "last": None,
            "last_round": None,         # what the previous round's production and combat did
            "battle": None,             # pending loss choices
            "result": None,
        }
        events: list[dict] = []
        self._begin_round(state, events)
        self._proceed(state, events, state["first"])
        return state

    def conformance_configs(self) -> list[tuple[int, dict]]:
        return [
            (2, {"round_limit": 25}),
            (2, {"radius": 2, "leader_escape": True, "round_limit": 25}),
            (3, {"round_limit": 14}),
            (4, {"victory": "last_leader", "radius": 2, "round_limit": 12}),
            (4, {"victory": "first_blood_play_on", "radius": 2, "round_limit": 12}),
            (6, {"radius": 5, "round_limit": 6}),
        ]

    def max_playout_steps(self) -> int:
        return 60_000

    # ----------------------------------------------------------------- protocol
    def seat_count(self, state: dict) -> int:
        return state["num_players"]

    def to_act(self, state: dict) -> list[int]:
        if state["result"] is not None:
            return []
        if state["phase"] == "losses":
            return sorted(int(s) for s, choice in state["battle"]["choices"].items() if choice is None)
        return [state["turn"]]

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        if state["phase"] == "losses":
            b = state["battle"]
            field = b["field_of"][str(seat)]
            count = next(x["losses"][str(seat)] for x in b["battles"] if x["field"] == field)
            return [{"type": "losses", "field": field, "count": count, "leader": False},
                    {"type": "losses", "field": field, "count": count, "leader": True}]
        actions: list[dict] = []
        add = actions.append
        bd = board(state["options"]["radius"])
        occ = self._occ(state)
        memo = self._memo(state)
        counts = self._facts(state, bd, occ, seat)
        # no mana on the seat's peaceful fields: only the leader's free step moves anyone (plan would search
        # nothing: the lone mover's own mana would be in that pool)
        unfunded = not counts.pool
        free_left = not state["players"][seat]["free_used"]
        for origin, leader in self._groups(state, seat):
            if unfunded and not (leader and free_left):
                continue
            mover = Mover(state, bd, occ, seat, origin, leader, counts)
            routes = plan(mover)
            if not routes:
                continue
            kind = mover.plain
            memo[("routes", seat, origin, leader)] = (kind, routes)  # for _resolve_listed and variants
            # copying a template is cheaper than building a seven-key dict (same keys, same order)
            template: dict[str, Any] = {"type": "move", "from": origin, "to": None, "leader": leader, "cost": 0,
                                        "sources": None, "other_ways": False}
            copy_ = template.copy
            pool = mover.pool_fields()
            payers = len(pool)
            # whether a move of k paid steps has another way to pay (moves.has_choice), per k: without the
            # lone mover's own mana it depends on k alone; LOCAL_FIRST adds the origin's one mana
            spot = 1 if kind == LOCAL_FIRST else 0
            choice_of: dict[int, bool] = {}
            local_steps = mover.local_steps if kind is None else None
            mana = state["mana"]
            for dest, (path, sources) in routes.items():
                free = FREE in sources
                cost = len(sources) - free
                a = copy_()
                a["to"] = dest
                a["cost"] = cost
                a["sources"] = sources
                locs = local_steps.get(dest) if local_steps else None
                if locs is None:
                    other = choice_of.get(cost)
                    if other is None:
                        other = choice_of[cost] = has_choice(cost, fields=payers + spot,
                                                             total=mover.pool_reach(cost) + spot)
                else:
                    # the steps paid from under the lone mover (on empty fields, never pool fields): each
                    # such field can give one mana per step it pays, at most what lies there
                    spots: dict[str, int] = {}
                    for i in locs:
                        spots[path[i]] = spots.get(path[i], 0) + 1
                    other = has_choice(cost, fields=payers + len(spots), total=mover.pool_reach(cost) + sum(
                        min(n, mana.get(f, 0)) for f, n in spots.items()))
                a["other_ways"] = other
                add(a)
        actions.append({"type": "pass"})
        return actions

    def legal_copy(self, state: dict, seat: int) -> list[dict]:
        """:meth:`BaseEngine.legal_copy`: an action's only nested value is a move's list of sources, so a
        flat copy and a copy of that list will do (a panel of thousands of moves copies them all)."""
        out = []
        for a in self.legal_actions(state, seat):
            a = dict(a)
            if "sources" in a:
                a["sources"] = list(a["sources"])
            out.append(a)
        return out

    def _occ(self, state: dict) -> dict[str, dict[int, int]]:
        """The occupancy of ``state``, computed once per state (read-only: shared through the memo)."""
        memo = self._memo(state)
        occ = memo.get("occ")
        if occ is None:
            occ = memo["occ"] = _occupancy(state)
        return occ

    def _facts(self, state: dict, bd, occ: dict, seat: int) -> SeatFacts:
        """The move facts of ``seat`` in ``state``, computed once per state (legal_actions, then validate)."""
        memo = self._memo(state)
        facts = memo.get(("facts", seat))
        if facts is None:
            facts = memo[("facts", seat)] = SeatFacts(state, bd, occ, seat)
        return facts

    def variants(self, state: dict, seat: int, action: dict, limit: int = 25) -> list[dict]:
        """The ways to pay the listed move ``action`` (the one ``legal_actions`` lists for its figure and
        destination): that listed action first (the default way), then up to ``limit - 1`` others, each
        taking different mana from the fields, the most useful first (see :meth:`moves.Payment.ways`);
        every one of them ``apply`` takes. Only as many are worked out as are returned, so a move that can
        be paid in millions of ways costs no more than one that cannot. A move whose ``other_ways`` is
        false, and a pass or loss choice, has itself alone. IllegalAction for an action not listed now."""
        listed = self._listed_move(state, seat, action)
        if listed["type"] != "move" or not listed["other_ways"] or limit <= 1:
            return [listed][:max(limit, 0)]
        origin, dest, leader = listed["from"], listed["to"], listed["leader"]
        bd = board(state["options"]["radius"])
        occ = self._occ(state)
        mover = Mover(state, bd, occ, seat, origin, leader, self._facts(state, bd, occ, seat))
        kept = self._memo(state).get(("routes", seat, origin, leader))
        # (a list listed elsewhere, remember_legal, comes without the routes: the figure's are planned again)
        routes = kept[1] if kept is not None else plan(mover)
        path, sources = routes[dest]
        ways = payment(mover, path, sources).ways(limit)
        return [listed] + [{**listed, "sources": way} for way in ways[1:]]

    def _listed_move(self, state: dict, seat: int, action: dict) -> dict:
        """The listed action that ``action`` names: itself, or the move of the same figure (field, leader)
        to the same destination (fields as typed are accepted)."""
        legal = self.legal_actions(state, seat)
        for a in legal:
            if a is action:
                return a
        if not isinstance(action, dict):
            raise IllegalAction("That is not a valid action.")
        if action.get("type") == "move":
            try:
                key = (self.parse_field(state, action.get("from")), self.parse_field(state, action.get("to")),
                       action.get("leader"))
            except IllegalAction:
                key = None
            for a in legal:
                if a["type"] == "move" and (a["from"], a["to"], a["leader"]) == key:
                    return a
        elif action in legal:
            return legal[legal.index(action)]
        raise IllegalAction("That move is not one of your moves now.")

    def validate(self, state: dict, seat: int, action: dict) -> None:
        kind = action["type"]
        if state["phase"] == "losses":
            if kind != "losses":
                raise IllegalAction("Choose your battle losses first.")
            self._check_losses(state, seat, action)
            return
        if kind == "pass":
            if set(action) != {"type"}:
                raise IllegalAction("A pass carries nothing else.")
            return
        if kind == "move":
            # _do_move, right after, takes this resolution instead of working the path out again
            if self._listed(state, seat, action):
                resolved = self._resolve_listed(state, seat, action)
            else:
                resolved = self._resolve_move(state, seat, action)
            self._resolved = (state, action, resolved)
            return
        if kind == "losses":
            raise IllegalAction("There is no battle to choose losses for now.")
        raise IllegalAction("That is not a HEX-TRI action.")

    def _apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        events: list[dict] = []
        self._ACTIONS[action["type"]](self, state, seat, action, events)
        return events

    def _apply_losses(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        """A player's choice of losses in a battle; the last choice resolves the combat."""
        b = state["battle"]
        b["choices"][str(seat)] = bool(action["leader"])
        events.append({"type": "losses_chosen", "seat": seat})
        state["last"] = {"type": "losses_chosen", "seat": seat}
        if all(c is not None for c in b["choices"].values()):
            _, fallen, killers = self._resolve_combat(state, events)
            if not self._finish_round(state, events, fallen, killers):
                self._begin_round(state, events)
                self._proceed(state, events, state["first"], keep=True)

    def _apply_pass(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        state["passes"] += 1
        events.append({"type": "pass", "seat": seat})
        state["last"] = {"type": "pass", "seat": seat}
        self._proceed(state, events, self._next_seat(state, seat), keep=True,
                      occ=self._memo(state).get("occ"))  # a pass moves no figure

    def _apply_move(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        before = self._memo(state).get("occ")  # the occupancy validate's questions needed
        event = self._do_move(state, seat, action)
        events.append(event)
        state["passes"] = 0
        occ = None if before is None else _moved(before, seat, event["from"], event["to"])
        self._proceed(state, events, self._next_seat(state, seat), keep=True, occ=occ)

    #: action type -> the method that plays it
    _ACTIONS: dict[str, Callable[[HexTriEngine, dict, int, dict, list[dict]], None]] = {
        "losses": _apply_losses,
        "pass": _apply_pass,
        "move": _apply_move,
    }

    def result(self, state: dict) -> dict | None:
        return copy.deepcopy(state["result"])

    plain_json = True  # (to_json: a plain copy)

    def to_json(self, state: dict) -> dict:
        # (a plain copy of plain data: copy.deepcopy took four times as long, once per move - issue 29)
        return _copy(state)

    def from_json(self, data: dict) -> dict:
        return _copy(self._adopt(data))

    def _adopt(self, data: dict) -> dict:
        if data.get("rules_version") not in self.versions:
            raise ValueError(f"HEX-TRI state of rules version {data.get('rules_version')}, "
                             f"this engine plays {', '.join(map(str, self.versions))}.")
        return data

    def secrets(self, state: dict, seat: int | None) -> set[str]:
        # perfect information; the only hidden thing, a pending loss choice, is a bool kept out of views
        return set()

    def parse_field(self, state: dict, text: object) -> str:
        """The canonical name of a typed field (``"h-c4"`` -> ``"H-C4"``, ``"off"`` -> ``"off"``);
        IllegalAction with a player-facing message when there is no such field on this board."""
        bd = board(state["options"]["radius"])
        if isinstance(text, str) and text in bd.kind:
            return text  # already a canonical name (every listed action's fields are)
        if isinstance(text, str) and text.strip().lower() in ("off", "off-board", "offboard", "outside"):
            return OFF
        try:
            return bd.parse(text)
        except ValueError as exc:
            raise IllegalAction(str(exc)) from None

    def explain_illegal(self, state: dict, seat: int, action: dict) -> str:
        try:
            self.validate(state, seat, action)
        except IllegalAction as exc:
            return str(exc)
        return "That move is not allowed now."

    # ----------------------------------------------------------------- views
    def view(self, state: dict, seat: int | None) -> dict:
        """Everything is public except the loss choices of seats still deciding."""
        bd = board(state["options"]["radius"])
        occ = _occupancy(state)
        players = []
        for s, p in enumerate(state["players"]):
            players.append({
                "seat": s,
                "letter": LETTERS[s],
                "alive": p["leader"] is not None,
                "leader": p["leader"],
                "on_board": sum(p["on"].values()),
                "waiting": p["waiting"] + (1 if p["leader"] == OFF else 0),
                "resting": sum(n for _, n in p["resting"]),
                "resting_until": min((r for r, _ in p["resting"]), default=None),
                "mana": self._usable_mana(state, occ, s),
                "free_step": p["leader"] is not None and not p["free_used"],
                "out_round": p["out_round"],
                "won": p.get("won"),     # the round he won in (victory "first_blood_play_on"), else None
            })
        # the occupied fields and the fields with mana, in the board's order: a board has hundreds of fields, a
        # game a few dozen figures and mana tokens, so only those are visited (in the order of a walk over all)
        order = bd.order
        occupied = sorted((f for f in occ if f in order), key=order.__getitem__)
        pieces = []
        for field in occupied:
            for s, n in sorted(occ[field].items()):
                pieces.append({"field": field, "seat": s, "count": n,
                               "leader": state["players"][s]["leader"] == field})
        contested = [f for f in occupied if bd.kind[f] == HEX and len(occ[f]) > 1]
        mana = state["mana"]
        battle = None
        if state["battle"] is not None:
            b = state["battle"]
            battle = {
                "battles": _copy(b["battles"]),
                "deciding": sorted(int(s) for s, c in b["choices"].items() if c is None),
                "decided": sorted(int(s) for s, c in b["choices"].items() if c is not None),
            }
        out = {
            "game": self.key,
            "seat": seat,
            "to_act": self.to_act(state),
            "num_players": state["num_players"],
            "options": dict(state["options"]),
            "radius": state["options"]["radius"],
            "round": state["round"],
            "round_limit": state["options"]["round_limit"],
            "phase": state["phase"],
            "first": state["first"],
            "turn": state["turn"],
            "passes": state["passes"],
            "players": players,
            "pieces": pieces,
            "mana": {f: mana[f] for f in sorted((f for f in mana if mana[f] and f in order), key=order.__getitem__)},
            "contested": contested,
            "moves": _copy(state["moves"]),
            "battle": battle,
            "last": _copy(state["last"]),
            "last_round": _copy(state["last_round"]),
            "result": _copy(state["result"]),
            "rules_version": state.get("rules_version", 1),
        }
        if seat is not None and seat in out["to_act"]:
            out["legal"] = self.legal_copy(state, seat)
        return out

    # ----------------------------------------------------------------- movement
    def _groups(self, state: dict, seat: int) -> list[tuple[str, bool]]:
        """(origin, is the leader) for every distinct figure that could move: off-board first."""
        p = state["players"][seat]
        out = []
        if p["waiting"] > 0:
            out.append((OFF, False))
        if p["leader"] == OFF:
            out.append((OFF, True))
        bd = board(state["options"]["radius"])
        for field in sorted(p["on"], key=bd.order.__getitem__):
            n = p["on"][field]
            is_leader_here = p["leader"] == field
            if n - (1 if is_leader_here else 0) > 0:
                out.append((field, False))
            if is_leader_here:
                out.append((field, True))
        return out

    def _can_move(self, state: dict, seat: int, occ: dict | None = None) -> bool:
        """Whether ``seat`` has at least one legal step (cheap: only first steps are examined; the same
        tests as :class:`Mover`'s ``can_leave`` and ``can_enter``)."""
        p = state["players"][seat]
        if p["leader"] is None or p.get("won"):  # not _playing
            return False
        if occ is None:
            occ = _occupancy(state)
        mana = state["mana"]
        funded = any(mana.get(f, 0) > 0 and len(occ[f]) == 1 for f in p["on"])
        if not funded and p["free_used"]:
            return False
        bd = board(state["options"]["radius"])
        return any(self._first_step(state, seat, occ, bd, origin, leader)
                   for origin, leader in self._stepping_groups(p, funded))

    @staticmethod
    def _stepping_groups(p: dict, funded: bool) -> list[tuple[str, bool]]:
        """The groups that might step (any order): without the ordinary figures when only the leader's free
        step could pay."""
        at = p["leader"]
        groups = [(OFF, False)] if funded and p["waiting"] > 0 else []
        if at == OFF:
            groups.append((OFF, True))
        for field, n in p["on"].items():
            if field == at:
                if funded and n > 1:
                    groups.append((field, False))
                groups.append((field, True))
            elif funded and n > 0:
                groups.append((field, False))
        return groups

    @staticmethod
    def _first_step(state: dict, seat: int, occ: dict, bd: Board, origin: str, leader: bool) -> bool:
        """Whether the group on ``origin`` (OFF: waiting) can take a first step."""
        if origin == OFF:
            # every entry TRI touches one HEX: one that is empty lets a figure in
            return any(not occ.get(nb) for nb in bd.outer)
        here = occ[origin]
        if bd.kind[origin] == HEX and len(here) > 1 and state["players"][seat]["on"][origin] == 1:
            # alone beside enemies: only the leader-escape rule lets him go
            if not (leader and state["options"]["leader_escape"]
                    and sum(here.values()) - here[seat] == 1
                    and not any(s != seat and q["leader"] == origin
                                for s, q in enumerate(state["players"]))):
                return False
        return any(bd.kind[nb] == HEX or not occ.get(nb) for nb in bd.adj[origin])

    def _why_stuck(self, state: dict, seat: int, occ: dict | None = None) -> str:
        """Why ``seat`` cannot move: "no_mana" (no mana on a field where only his figures stand, and no free
        step left), "leader_blocked" (no such mana, and the leader has nowhere to take his free step) or
        "blocked" (mana there, but every step is barred: occupied TRIs, a HEX he may
        not leave)."""
        p = state["players"][seat]
        if occ is None:
            occ = _occupancy(state)
        funded = any(state["mana"].get(f, 0) > 0 and len(occ[f]) == 1 for f in p["on"])
        if funded:
            return "blocked"
        return "no_mana" if p["free_used"] else "leader_blocked"

    def _listed(self, state: dict, seat: int, action: dict) -> bool:
        """Whether ``action`` is one of the very action objects ``legal_actions`` listed for this state
        (they are read-only), so that it needs no checking beyond finding its path."""
        for a in self._memo(state).get(("legal", seat), ()):
            if a is action:
                return True
        return False

    def _resolve_listed(self, state: dict, seat: int, action: dict) -> tuple:
        """:meth:`_resolve_move` of a listed action: its fields are canonical and it is legal."""
        origin, dest, leader = action["from"], action["to"], action["leader"]
        sources = list(action["sources"])
        # the default way of a breadth-first move (POOL_ONLY, LOCAL_FIRST): every step's source can pay
        # wherever the figure stands, so check's layers are plain breadth-first layers and the first path it
        # finds is the one plan found (same neighbour order, same barred fields)
        kept = self._memo(state).get(("routes", seat, origin, leader))
        if kept is not None and kept[0] in (POOL_ONLY, LOCAL_FIRST):
            route = kept[1].get(dest)
            if route is not None and route[1] is action["sources"]:
                return origin, leader, dest, sources, list(route[0])
        bd = board(state["options"]["radius"])
        occ = self._occ(state)
        mover = Mover(state, bd, occ, seat, origin, leader, self._facts(state, bd, occ, seat))
        return origin, leader, dest, sources, check(mover, dest, sources, listed=True)

    def _resolve_move(self, state: dict, seat: int, action: dict) -> tuple:
        """Check a move action and return (origin, leader, dest, sources, path); IllegalAction otherwise."""
        _check_move_shape(action)
        origin = self.parse_field(state, action["from"])
        dest = self.parse_field(state, action["to"])
        if dest == OFF:
            raise IllegalAction("Figures never leave the board by moving.")
        p = state["players"][seat]
        leader = action.get("leader")
        if leader is None:
            own = p["on"].get(origin, 0) if origin != OFF else p["waiting"] + (p["leader"] == OFF)
            leader = p["leader"] == origin and own == 1
        if not isinstance(leader, bool):
            raise IllegalAction("Say whether the leader moves (true or false).")
        _check_mover(p, origin, leader)
        if dest == origin:
            raise IllegalAction("A move must end on another field.")
        bd = board(state["options"]["radius"])
        occ = self._occ(state)
        mover = Mover(state, bd, occ, seat, origin, leader, self._facts(state, bd, occ, seat))
        if not mover.can_leave(origin):
            raise IllegalAction(f"You may not leave {origin} while enemy figures stand there unless one of "
                                f"your figures stays.")
        sources = action.get("sources")
        if sources is None:
            path, sources = self._default_route(mover, bd, dest)
        else:
            sources, path = self._typed_route(state, mover, bd, dest, sources)
        cost = sum(1 for s in sources if s != FREE)
        if "cost" in action and action["cost"] != cost:
            raise IllegalAction(f"That move costs {cost} mana, not {action['cost']}.")
        return origin, leader, dest, sources, path

    @staticmethod
    def _default_route(mover: Mover, bd: Board, dest: str) -> tuple[list[str], list[str]]:
        """(path, sources) of the default way to ``dest``; IllegalAction when there is none."""
        options = plan(mover)
        if dest not in options:
            if bd.kind[dest] != HEX and not mover.can_enter(dest):
                raise IllegalAction(f"{dest} is occupied: a triangle holds only one figure.")
            raise IllegalAction(f"Your figure cannot reach {dest} with the mana it can use now.")
        return options[dest]

    def _typed_route(self, state: dict, mover: Mover, bd: Board, dest: str,
                     sources: object) -> tuple[list[str], list[str]]:
        """(sources, path) of a move paid from the sources the player typed; IllegalAction if they cannot."""
        if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
            raise IllegalAction("Mana sources are a list of field names (or \"free\").")
        fields = [FREE if s.strip().lower() == FREE else self.parse_field(state, s) for s in sources]
        if OFF in fields:
            raise IllegalAction("Mana is taken from fields on the board.")
        if bd.kind[dest] != HEX and not mover.can_enter(dest):
            raise IllegalAction(f"{dest} is occupied: a triangle holds only one figure.")
        return self._fit(mover, dest, fields)

    @staticmethod
    def _fit(mover: Mover, dest: str, sources: list[str]) -> tuple[list[str], list[str]]:
        """(sources, path) of a move paid from the player's own ``sources``: as given when a path fits them
        (:func:`moves.check`), else the same fields giving the same mana in the order the default path
        needs (a field under the lone mover pays only the step that leaves it, so a typed order may not fit
        where another does); IllegalAction, check's reason, when neither does."""
        try:
            return sources, check(mover, dest, sources)
        except IllegalAction:
            route = plan(mover).get(dest)
            if route is None or sources.count(FREE) != route[1].count(FREE):
                raise
            pay = payment(mover, route[0], route[1])
            amounts = pay.amounts(sources)
            if sum(amounts.values()) != len(pay.steps) or any(pay.caps.get(f, 0) < n for f, n in amounts.items()):
                raise
            fitted = pay.sources_of(amounts)
            return fitted, check(mover, dest, fitted)

    def _do_move(self, state: dict, seat: int, action: dict) -> dict:
        resolved, self._resolved = self._resolved, None
        if resolved is not None and resolved[0] is state and resolved[1] is action:
            origin, leader, dest, sources, path = resolved[2]
        else:
            origin, leader, dest, sources, path = self._resolve_move(state, seat, action)
        p = state["players"][seat]
        mana = state["mana"]
        for s in sources:
            if s == FREE:
                p["free_used"] = True
            else:
                mana[s] -= 1
                if not mana[s]:
                    del mana[s]
        if origin == OFF:
            if leader:
                p["leader"] = dest
            else:
                p["waiting"] -= 1
        else:
            p["on"][origin] -= 1
            if not p["on"][origin]:
                del p["on"][origin]
            if leader:
                p["leader"] = dest
        p["on"][dest] = p["on"].get(dest, 0) + 1
        cost = sum(1 for s in sources if s != FREE)
        move = {"seat": seat, "from": origin, "to": dest, "leader": leader, "path": path, "cost": cost,
                "sources": sources}
        state["moves"].append(move)
        state["last"] = {"type": "move", **move}
        return {"type": "move", **move}

    def _next_seat(self, state: dict, seat: int) -> int:
        n = state["num_players"]
        players = state["players"]
        for k in range(1, n + 1):
            s = (seat + k) % n
            p = players[s]
            if p["leader"] is not None and not p.get("won"):  # _playing, inlined: asked after every action
                return s
        return seat

    @staticmethod
    def _playing(p: dict) -> bool:
        """Still in play: the leader stands and the player has not already won and left the table."""
        return p["leader"] is not None and not p.get("won")

    def _alive(self, state: dict) -> list[int]:
        # _playing, inlined: asked after every action
        return [s for s, p in enumerate(state["players"]) if p["leader"] is not None and not p.get("won")]

    def _proceed(self, state: dict, events: list[dict], seat: int, keep: bool = False,
                 occ: dict | None = None) -> None:
        """Hand the go to the next player who can move, or run production, combat and new rounds until
        somebody has a decision to make or the game is over. ``keep`` (inside ``apply`` only): remember the
        final occupancy for the questions about the new state. ``occ``: the occupancy of ``state``, if
        known."""
        idle_rounds = 0
        while True:
            alive = self._alive(state)
            if occ is None:
                occ = _occupancy(state)  # passing over players changes no figure
            while state["passes"] < len(alive):
                if self._can_move(state, seat, occ):
                    state["turn"] = seat
                    if keep:
                        self._fresh_memo(state)["occ"] = occ
                    return
                state["passes"] += 1
                p = state["players"][seat]
                if not p["stuck"]:
                    p["stuck"] = True
                    events.append({"type": "cannot_move", "seat": seat, "why": self._why_stuck(state, seat, occ)})
                seat = self._next_seat(state, seat)
            state["turn"] = None
            moved = bool(state["moves"])
            produced = self._production(state, events, occ)
            if self._prepare_combat(state, events, occ):
                return
            removed, fallen, killers = self._resolve_combat(state, events, occ)
            if self._finish_round(state, events, fallen, killers):
                return
            # nobody could move and nothing changed: the board is frozen for good (only without round limit)
            idle_rounds = 0 if (moved or produced or removed) else idle_rounds + 1
            if idle_rounds >= 2:
                self._finish(state, events, "stalemate")
                return
            self._begin_round(state, events)
            seat = state["first"]
            occ = None  # production and combat may have changed the board

    def _begin_round(self, state: dict, events: list[dict]) -> None:
        state["round"] += 1
        rnd = state["round"]
        state["phase"] = "move"
        state["first"] = self._next_seat(state, state["first"])
        state["passes"] = 0
        state["moves"] = []
        for p in state["players"]:
            p["free_used"] = False
            p["stuck"] = False
        # the round's own line first, then who comes back from sitting out
        events.append({"type": "round", "round": rnd, "first": state["first"]})
        for seat, p in enumerate(state["players"]):
            back = sum(n for r, n in p["resting"] if r <= rnd)
            if back:
                p["waiting"] += back
                p["resting"] = [[r, n] for r, n in p["resting"] if r > rnd]
                events.append({"type": "figures_return", "seat": seat, "count": back})
        state["last"] = {"type": "round", "round": rnd, "first": state["first"]}

    # ----------------------------------------------------------------- production and combat
    def _production(self, state: dict, events: list[dict], occ: dict | None = None) -> int:
        """Peaceful HEXes produce as much mana as the owner has figures there, at most the HEX's value.

        The round record takes this round's move list itself: no move is added to it after production, and
        the next round starts a new list."""
        bd = board(state["options"]["radius"])
        if occ is None:
            occ = _occupancy(state)
        produced: list[dict] = []
        kind = bd.kind
        # the peaceful HEXes in board order (from the occupied fields: far fewer than the board's HEXes)
        peaceful = [f for f, here in occ.items() if len(here) == 1 and kind[f] == HEX]
        peaceful.sort(key=bd.order.__getitem__)
        for field in peaceful:
            (seat, n), = occ[field].items()
            amount = min(n, bd.value[field])
            state["mana"][field] = state["mana"].get(field, 0) + amount
            produced.append({"field": field, "seat": seat, "mana": amount})
        total = sum(x["mana"] for x in produced)
        events.append({"type": "production", "round": state["round"], "fields": produced, "total": total})
        state["last_round"] = {"round": state["round"], "moves": state["moves"],
                               "production": produced, "battles": [], "encircled": [], "fallen": []}
        return total

    def _prepare_combat(self, state: dict, events: list[dict], occ: dict | None = None) -> bool:
        """Work out every battle; True when some players must first choose whether their leader is among
        their losses (a simultaneous decision)."""
        bd = board(state["options"]["radius"])
        if occ is None:
            occ = _occupancy(state)
        battles = []
        choices: dict[str, None] = {}
        field_of: dict[str, str] = {}
        kind = bd.kind
        contested = [f for f, here in occ.items() if len(here) > 1 and kind[f] == HEX]
        contested.sort(key=bd.order.__getitem__)  # board order, as the battles are listed
        for field in contested:
            here = occ[field]
            lost = combat.battle_losses(here)
            battles.append({"field": field, "before": {str(s): n for s, n in sorted(here.items())},
                            "losses": {str(s): k for s, k in sorted(lost.items())}})
            for s, k in lost.items():
                if state["players"][s]["leader"] == field and 0 < k < here[s]:
                    choices[str(s)] = None
                    field_of[str(s)] = field
        state["battle"] = {"battles": battles, "choices": choices, "field_of": field_of}
        if choices:
            state["phase"] = "losses"
            events.append({"type": "choose_losses", "seats": sorted(int(s) for s in choices),
                           "battles": _copy(battles), "fields": dict(field_of)})
            state["last"] = {"type": "choose_losses", "seats": sorted(int(s) for s in choices)}
            return True
        return False

    def _check_losses(self, state: dict, seat: int, action: dict) -> None:
        b = state["battle"]
        if str(seat) not in b["field_of"]:
            raise IllegalAction("You have no battle losses to choose.")
        if set(action) - {"type", "field", "count", "leader"}:
            raise IllegalAction("A loss choice takes only field, count and leader.")
        field = b["field_of"][str(seat)]
        if "field" in action and self.parse_field(state, action["field"]) != field:
            raise IllegalAction(f"Your leader fights on {field}.")
        count = next(x["losses"][str(seat)] for x in b["battles"] if x["field"] == field)
        if "count" in action and action["count"] != count:
            raise IllegalAction(f"You lose {count} figure(s) on {field}.")
        if not isinstance(action.get("leader"), bool):
            raise IllegalAction("Say whether your leader is among the losses (true or false).")

    def _remove(self, state: dict, seat: int, field: str, count: int, leader: bool, comeback: int) -> None:
        """Take ``count`` of ``seat``'s figures off ``field`` (the leader among them if ``leader``),
        leaving 1 mana each; ordinary figures sit out until round ``comeback``."""
        p = state["players"][seat]
        p["on"][field] -= count
        if not p["on"][field]:
            del p["on"][field]
        state["mana"][field] = state["mana"].get(field, 0) + count * MANA_PER_LOSS
        ordinary = count - (1 if leader else 0)
        if leader:
            p["leader"] = None
            p["out_round"] = state["round"]
        if ordinary and p["leader"] is not None:
            for entry in p["resting"]:
                if entry[0] == comeback:
                    entry[1] += ordinary
                    break
            else:
                p["resting"].append([comeback, ordinary])

    def _fall(self, state: dict, events: list[dict], fallen: list[int], killers: dict[int, set[int]]) -> None:
        """A fallen leader's whole team leaves the board (1 mana per figure) and the player is out."""
        for seat in fallen:
            p = state["players"][seat]
            left = sum(p["on"].values())
            for field, n in sorted(p["on"].items()):
                state["mana"][field] = state["mana"].get(field, 0) + n * MANA_PER_LOSS
            p["on"] = {}
            p["waiting"] = 0
            p["resting"] = []
            events.append({"type": "eliminated", "seat": seat, "figures_removed": left,
                           "by": sorted(killers.get(seat, ()))})
            state["last_round"]["fallen"].append({"seat": seat, "by": sorted(killers.get(seat, ()))})

    def _resolve_combat(self, state: dict, events: list[dict],
                        occ: dict | None = None) -> tuple[int, list[int], dict[int, set[int]]]:
        """All battles at once, then fallen teams, then encirclement of HEXes and then of TRIs. ``occ``: the
        occupancy before the battles, if known."""
        bd = board(state["options"]["radius"])
        b = state["battle"]
        comeback = state["round"] + 1 + int(RULES["sit_out_rounds"])
        killers: dict[int, set[int]] = {}
        removed = 0
        fallen: list[int] = []
        for battle in b["battles"]:
            field = battle["field"]
            before = {int(s): n for s, n in battle["before"].items()}
            leaders_lost = []
            for s, k in battle["losses"].items():
                seat = int(s)
                if not k:
                    continue
                lead = state["players"][seat]["leader"] == field and (k == before[seat] or b["choices"].get(s))
                self._remove(state, seat, field, k, bool(lead), comeback)
                removed += k
                if lead:
                    leaders_lost.append(seat)
                    fallen.append(seat)
                    killers[seat] = {x for x in before if x != seat}
            event = {"type": "battle", "field": field, "before": battle["before"], "losses": battle["losses"],
                     "leaders_lost": leaders_lost}
            events.append(event)
            state["last_round"]["battles"].append({k: v for k, v in event.items() if k != "type"})
        state["battle"] = None
        self._fall(state, events, fallen, killers)
        if removed:
            occ = None
        # each seat's regions found open or closed, kept while no figure leaves the board
        regions: dict[int, tuple[set, set]] = {}
        for kind in ("hex", "tri"):
            if occ is None:
                occ = _occupancy(state)
                regions = {}
            caught = []
            rule = _rule(state)
            for seat in self._alive(state):
                known = regions.setdefault(seat, (set(), set()))
                on = state["players"][seat]["on"]
                for field in combat.encircled(bd, occ, seat, kind, rule, known, on):
                    caught.append((seat, field, occ[field][seat]))
            newly = []
            for seat, field, n in caught:
                p = state["players"][seat]
                lead = p["leader"] == field
                if lead:
                    killers[seat] = combat.encirclers(bd, occ, seat, field)
                    newly.append(seat)
                self._remove(state, seat, field, n, lead, comeback)
                removed += n
                event = {"type": "encircled", "seat": seat, "field": field, "count": n, "leader": lead}
                events.append(event)
                state["last_round"]["encircled"].append({k: v for k, v in event.items() if k != "type"})
            self._fall(state, events, newly, killers)
            fallen += newly
            if caught:
                occ = None
        state["last_round"]["killers"] = {str(s): sorted(k) for s, k in killers.items()}
        return removed, fallen, killers

    # ----------------------------------------------------------------- the end
    def _finish_round(self, state: dict, events: list[dict], fallen: list[int],
                      killers: dict[int, set[int]]) -> bool:
        """Decide whether the game ends after this combat phase; True if it did."""
        alive = self._alive(state)
        n = state["num_players"]
        victory = state["options"]["victory"]
        champions = [s for s, p in enumerate(state["players"]) if p.get("won")]
        if fallen:
            if n > 2 and victory in ("first_blood", "first_blood_play_on") and not champions:
                winners = sorted({k for s in fallen for k in killers.get(s, ())} & set(alive))
                if winners and victory == "first_blood":
                    self._finish(state, events, "first_blood", winners)
                    return True
                if winners:
                    self._crown(state, events, winners)
                    champions, alive = winners, self._alive(state)
            if len(alive) <= 1:
                if champions:
                    reason = "first_blood_play_on"
                else:
                    reason = "leaders_fell_together" if not alive else ("leader_down" if n == 2 else "last_leader")
                self._finish(state, events, reason, alive)
                return True
        limit = state["options"]["round_limit"]
        if limit and state["round"] >= limit:
            self._finish(state, events, "round_limit")
            return True
        return False

    def _crown(self, state: dict, events: list[dict], winners: list[int]) -> None:
        """Victory "first_blood_play_on": the players who brought the first leader down have won; their
        figures leave the board (they take no further part) and the others play on for the places."""
        for seat in winners:
            p = state["players"][seat]
            left = sum(p["on"].values())
            p.update(on={}, waiting=0, resting=[], won=state["round"])
            if p["leader"] not in (None, OFF):
                p["leader"] = OFF
            events.append({"type": "champion", "seat": seat, "figures_removed": left,
                           "playing_on": self._alive(state)})

    def _usable_mana(self, state: dict, occ: dict, seat: int) -> int:
        return sum(state["mana"].get(f, 0) for f in state["players"][seat]["on"] if len(occ.get(f, {})) == 1)

    def _finish(self, state: dict, events: list[dict], reason: str, winners: list[int] | None = None) -> None:
        if any(p.get("won") for p in state["players"]):
            reason = "first_blood_play_on"  # whatever ended the play-on, the winners were decided earlier
        occ = _occupancy(state)
        n = state["num_players"]
        figures = [sum(p["on"].values()) for p in state["players"]]
        mana = [self._usable_mana(state, occ, s) for s in range(n)]
        keys = []
        for s, p in enumerate(state["players"]):
            if p.get("won"):
                keys.append((3, 0, 0))
            elif p["leader"] is None:
                keys.append((0, p["out_round"] or 0, 0))
            elif winners is not None:
                keys.append((2 if s in winners else 1, 0, 0))
            else:
                keys.append((1, figures[s], mana[s]))
        places = [1 + sum(1 for other in keys if other > mine) for mine in keys]
        state["result"] = {"places": places, "scores": figures, "reason": reason, "mana": mana,
                           "round": state["round"],
                           "winners": [s for s in range(n) if places[s] == 1]}
        state["phase"] = "over"
        state["turn"] = None
        events.append({"type": "game_over", "reason": reason, "places": places,
                       "winners": state["result"]["winners"]})
        state["last"] = {"type": "game_over", "reason": reason}


ENGINE = HexTriEngine()
