"""Troja: the rules engine (2-4 players).

A round is four phases: draw (3 cards, never above the hand limit), camp (in turn order each attaches
items and Achaean units, paying Glory), battlefield (each player's turn: roaming Trojan heroes and beasts
attack first, then once per turn a duel or a challenge on himself, and any number of challenges on others)
and end (each may discard up to 2 cards, then undefeated Trojan heroes and beasts move clockwise).

Reaction windows are simultaneous decisions: ``to_act`` lists every seat that may still respond and each
one plays or passes; any play reopens the window for everyone (a priority loop that ends because every
play spends a card or a wrath token).

* ``join``: after a challenge is launched, every other player may add one card: a challenge card (not the
  target himself) or a modifier (anyone, the target included: the original rulebook only forbids the target
  to add *challenge* cards; the English digest bars him entirely). Joined cards are ordered by turn order
  from the challenger's left, as if they had been added one by one around the table.
* ``fate``: after both fate cards of a fight are shown, every player may play interventions and spend
  wrath tokens, until everybody passes; then the fight is resolved.
* ``start``: at the start of a turn in which roaming Trojan heroes/beasts will attack, every player may
  play interventions (banish or move them, draw, ...). A turn without such attackers has no start window,
  a public condition, so skipping it reveals nothing.

Decisions where the rulebook is silent are marked "Decision" in the docstrings below and listed in
``docs/troja.md``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from engines.base import BaseEngine, _copy
from engines.protocol import IllegalAction
from engines.rng import Rng

from . import rules
from .cards import (
    ATTACHMENT_KINDS,
    CHALLENGE_KINDS,
    DECK,
    FIGHT_OPS,
    HEROES,
    PATRONS,
    PHYSICAL,
    V1_IDS,
    card_type,
    face,
)

START_GP = 12
WIN_GP = 24
WRATH_TOKENS = 2
DRAW_PER_ROUND = 3
END_DISCARDS = 2
DUEL_GLORY = 3
OPTIONS = {"max_rounds": (30, 5, 200)}  # name: (default, min, max); max_rounds 0 = no limit (the book's game)
NO_LIMIT = {"max_rounds": 0}  # an option value allowed outside its range: the option turned off
BOOL_OPTIONS = {"rotate_first": False}  # name: default
LAST_EVENTS = 40


class _GameOver(Exception):
    """Raised from deep inside a resolution when someone reaches 24 GP: the game stops at once."""


class _Ctx:
    """One mutation in progress: the state, its RNG and the events it emits."""

    def __init__(self, state: dict):
        self.s = state
        self.rng = Rng(state["rng"])
        self.events: list[dict] = []

    def emit(self, type_: str, **fields) -> None:
        self.events.append({"type": type_, **fields})

    def close(self) -> list[dict]:
        self.s["rng"] = self.rng.state
        self.s["last"] = self.events[-LAST_EVENTS:]
        return self.events


def _key(cid: str) -> str:
    return PHYSICAL[cid]["key"]


def _order_from(n: int, start: int) -> list[int]:
    return [(start + i) % n for i in range(n)]


# --------------------------------------------------------------------------------------------- cards, glory

def _take_top(ctx: _Ctx) -> str | None:
    """Top card of the deck; an empty deck is replaced by the shuffled discard pile."""
    s = ctx.s
    if not s["deck"] and s["discard"]:
        s["deck"] = s["discard"]
        s["discard"] = []
        ctx.rng.shuffle(s["deck"])
        ctx.emit("reshuffle", size=len(s["deck"]))
    return s["deck"].pop() if s["deck"] else None


def _draw_up(ctx: _Ctx, seat: int, count: int, reason: str = "round") -> int:
    """Draw up to ``count`` cards without exceeding the hand limit. Decision: the limit of 6 (Nestor 7)
    holds for every draw, not only the draw phase, so no effect lets a hand grow past it. ``reason`` (round,
    card, reward, ability) goes into the event, so the narration can say why someone draws."""
    p = ctx.s["players"][seat]
    drawn = 0
    while drawn < count and len(p["hand"]) < rules.hand_limit(p):
        cid = _take_top(ctx)
        if cid is None:
            break
        p["hand"].append(cid)
        drawn += 1
    if drawn:
        ctx.emit("draw", seat=seat, count=drawn, reason=reason)
    return drawn


def _fate(ctx: _Ctx, by: int, reason: str) -> dict:
    """Draw a fate card (its die face is read); the caller discards it. Decision: with the deck and the
    discard pile both empty the fate counts 0."""
    cid = _take_top(ctx)
    if cid is None:
        ctx.emit("fate", seat=by, card=None, face=0, reason=reason)
        return {"card": None, "face": 0}
    ctx.emit("fate", seat=by, card=_key(cid), face=face(cid), reason=reason)
    return {"card": cid, "face": face(cid)}


def _discard_fates(ctx: _Ctx, cards: list[dict]) -> None:
    for c in cards:
        if c["card"] is not None:
            ctx.s["discard"].append(c["card"])


def _fate_now(ctx: _Ctx, by: int, reason: str) -> int:
    """A fate card read at once and discarded (events, escapes, the start tiebreak)."""
    c = _fate(ctx, by, reason)
    _discard_fates(ctx, [c])
    return c["face"]


def _finish(ctx: _Ctx, reason: str, winner: int | None = None) -> None:
    s = ctx.s
    scores = [p["gp"] for p in s["players"]]
    if winner is None:
        places = [1 + sum(1 for other in scores if other > mine) for mine in scores]
    else:
        places = []
        for seat, mine in enumerate(scores):
            if seat == winner:
                places.append(1)
            else:
                places.append(2 + sum(1 for o, other in enumerate(scores) if o != winner and other > mine))
    s["result"] = {"places": places, "scores": scores, "reason": reason,
                   "winner": winner if winner is not None else (places.index(1) if places.count(1) == 1 else None),
                   "heroes": [p["hero"] for p in s["players"]], "rounds": s["round"]}
    s["step"] = "over"
    s["window"] = None
    ctx.emit("game_over", reason=reason, winner=s["result"]["winner"], scores=scores)
    raise _GameOver


def _gain(ctx: _Ctx, seat: int, amount: int, reason: str) -> None:
    """Glory changes apply at once; reaching 24 wins immediately, even in another player's turn."""
    if amount <= 0:
        return
    p = ctx.s["players"][seat]
    p["gp"] += amount
    ctx.emit("glory", seat=seat, delta=amount, gp=p["gp"], reason=reason)
    if p["gp"] >= WIN_GP:
        _finish(ctx, "glory", seat)


def _lose(ctx: _Ctx, seat: int, amount: int, reason: str) -> None:
    """The event states the Glory actually lost (a hero at 4 who loses 6 loses 4) and, in ``due``, the loss
    the rules asked for."""
    if amount <= 0:
        return
    p = ctx.s["players"][seat]
    lost = min(amount, p["gp"])
    p["gp"] -= lost
    ctx.emit("glory", seat=seat, delta=-lost, due=amount, gp=p["gp"], reason=reason)
    if p["gp"] == 0:
        _disgrace(ctx, seat)


def _disgrace(ctx: _Ctx, seat: int) -> None:
    """At 0 GP the hero leaves in disgrace: items and units are shuffled back into the deck, the player keeps
    his hand, draws a new hero from the unused ones with 2 fresh wrath tokens and (decision: the rulebook is
    silent) 12 GP; his turn ends. Decision: when no unused hero is left, earlier disgraced heroes return."""
    s = ctx.s
    p = s["players"][seat]
    old = p["hero"]
    returned = [_key(c) for c in p["attached"]]
    s["deck"].extend(p["attached"])
    p["attached"] = []
    ctx.rng.shuffle(s["deck"])
    if not s["pool"]:
        s["pool"], s["aside"] = s["aside"], []
    new = s["pool"].pop(ctx.rng.below(len(s["pool"])))
    s["aside"].append(old)
    p["hero"] = new
    p["gp"] = START_GP
    p["wrath"] = WRATH_TOKENS
    p["heroes"].append(new)
    ctx.emit("disgrace", seat=seat, old=old, new=new, returned=returned)
    if s["phase"] == "battle" and s["turn"] == seat:
        s["turn_over"] = True
    assault = s["assault"]
    if assault is not None and seat == assault["target"]:
        assault["broken"] = True


# ------------------------------------------------------------------------------------------------- flow

def _start_round(ctx: _Ctx) -> None:
    """The book: the hero with the highest POWER begins and play goes clockwise from him, every round (a
    fixed order, the default). Option ``rotate_first`` (a decision, not the book): the first seat passes
    clockwise each round, because a fixed first seat faces every opponent's full hand in the join windows of
    every round (see docs/troja.md for the simulated effect)."""
    s = ctx.s
    s["round"] += 1
    limit = s["options"]["max_rounds"]
    if limit and s["round"] > limit:  # 0: no limit, the book's game (it ends only at 24 Glory)
        s["round"] -= 1
        _finish(ctx, "round_limit")
    if s["round"] > 1 and s["options"].get("rotate_first"):
        s["first"] = (s["first"] + 1) % s["n"]
    ctx.emit("round", round=s["round"], first=s["first"])
    s["phase"] = "draw"
    for seat in _order_from(s["n"], s["first"]):
        _draw_up(ctx, seat, DRAW_PER_ROUND)
    s["phase"] = "camp"
    s["step"] = "camp"
    s["camp_seat"] = s["first"]


def _camp_done(ctx: _Ctx, seat: int) -> None:
    s = ctx.s
    nxt = (seat + 1) % s["n"]
    if nxt == s["first"]:
        s["phase"] = "battle"
        s["camp_seat"] = None
        _start_turn(ctx, s["first"])
    else:
        s["camp_seat"] = nxt


def _start_turn(ctx: _Ctx, seat: int) -> None:
    s = ctx.s
    s["turn"] = seat
    s["turn_used"] = False
    s["turn_over"] = False
    ctx.emit("turn", seat=seat)
    waiting = sorted(r["order"] for r in s["players"][seat]["roamers"] if r["arrived"])
    if waiting:
        s["roam_queue"] = waiting
        _open_window(ctx, "start", list(range(s["n"])))
    else:
        s["step"] = "main"


def _end_turn(ctx: _Ctx) -> None:
    s = ctx.s
    s["roam_queue"] = []
    s["assault"] = None
    nxt = (s["turn"] + 1) % s["n"]
    if nxt == s["first"]:
        s["phase"] = "end"
        s["step"] = "discard"
        s["turn"] = None
        for p in s["players"]:
            p["discarded"] = 0
            p["done"] = not p["hand"]
        _maybe_end_round(ctx)
    else:
        _start_turn(ctx, nxt)


def _maybe_end_round(ctx: _Ctx) -> None:
    s = ctx.s
    if not all(p["done"] for p in s["players"]):
        return
    moved = 0
    n = s["n"]
    new_lists: list[list[dict]] = [[] for _ in range(n)]
    for seat, p in enumerate(s["players"]):
        for r in p["roamers"]:
            r["arrived"] = True
            new_lists[(seat + 1) % n].append(r)
            moved += 1
    for seat, p in enumerate(s["players"]):
        p["roamers"] = sorted(new_lists[seat], key=lambda r: r["order"])
    if moved:
        ctx.emit("roamers_move", count=moved)
    _start_round(ctx)


def _open_window(ctx: _Ctx, kind: str, eligible: list[int]) -> None:
    s = ctx.s
    s["window"] = {"kind": kind, "eligible": eligible, "passed": []}
    s["step"] = kind
    if not eligible:
        _close_window(ctx)


def _close_window(ctx: _Ctx) -> None:
    s = ctx.s
    kind = s["window"]["kind"]
    s["window"] = None
    if kind == "start":
        _next_roam(ctx)
    elif kind == "join":
        _form_fights(ctx)
        _run_fight(ctx)
    else:
        _resolve_fight(ctx)
        _after_fight(ctx)


def _next_roam(ctx: _Ctx) -> None:
    """Roaming Trojan heroes and beasts attack at the start of the turn, one by one, in the order they were
    first played."""
    s = ctx.s
    if s["turn_over"]:
        _end_turn(ctx)
        return
    seat = s["turn"]
    p = s["players"][seat]
    while s["roam_queue"]:
        order = s["roam_queue"].pop(0)
        found = next((r for r in p["roamers"] if r["order"] == order and r["arrived"]), None)
        if found is None:  # banished or moved away by an intervention meanwhile
            continue
        p["roamers"].remove(found)
        entry = {"card": found["card"], "by": found["by"], "order": found["order"], "grow": found["grow"]}
        fight = _new_fight(rules.single_kind(_key(found["card"])), [entry], seat)
        fight["roaming"] = True
        s["assault"] = {"origin": "roam", "by": found["by"], "target": seat, "cards": [entry], "mods": [],
                        "joined": [], "fights": [fight], "index": 0, "broken": False}
        ctx.emit("roam_attack", card=_key(found["card"]), target=seat, kind=fight["kind"])
        _run_fight(ctx)
        return
    s["step"] = "main"


def _new_fight(kind: str, cards: list[dict], defender: int) -> dict:
    # copies: a state must never share dicts between places, or a JSON round trip would change its behaviour
    return {"kind": kind, "cards": copy.deepcopy(cards), "defender": defender, "duel": False, "attacker": None,
            "roaming": False, "cancelled": False,
            "fate": {"attacker": [], "defender": []}, "extra": {"attacker": [], "defender": []},
            "mod": {"attacker": 0, "defender": 0}, "fate_by": {"attacker": None, "defender": defender}}


def _form_fights(ctx: _Ctx) -> None:
    a = ctx.s["assault"]
    n = ctx.s["n"]
    rank = {seat: i for i, seat in enumerate(_order_from(n, a["by"]))}
    entries = a["cards"] + sorted(a["joined"], key=lambda e: rank[e["by"]])
    a["cards"] = entries
    a["joined"] = []
    a["fights"] = [_new_fight(rules.group_kind(g), g, a["target"]) for g in rules.compose(entries)]
    a["index"] = 0


def _attacker_drawer(state: dict, fight: dict, assault: dict) -> int:
    """Who draws the challenge's fate card: the player who played its (first) card — the challenger, or the
    player who added it in the join window (book §2, "rzucający") — or the player on the target's left when
    the target played it on himself. Decision: for a roaming attacker, the player who first played it."""
    if fight["duel"]:
        return fight["attacker"]
    by = fight["cards"][0]["by"]
    return (fight["defender"] + 1) % state["n"] if by == fight["defender"] else by


def _side_fate(ctx: _Ctx, fight: dict, side: str) -> None:
    by = fight["fate_by"][side]
    count = 1
    if side == "attacker" and not fight["duel"]:
        for eff in rules.card_effects(fight):
            if eff["op"] == "fate_best_of":
                count = max(count, eff["count"])
    fight["fate"][side] = [_fate(ctx, by, side) for _ in range(count)]


def _run_fight(ctx: _Ctx) -> None:
    """Fate cards are drawn, the attacking side first, one per side however many cards were combined; then
    the fate window opens for every player."""
    s = ctx.s
    a = s["assault"]
    if a["index"] >= len(a["fights"]):
        _finish_assault(ctx)
        return
    fight = a["fights"][a["index"]]
    fight["fate_by"]["attacker"] = _attacker_drawer(s, fight, a)
    ctx.emit("fight", kind=fight["kind"], target=fight["defender"], duel=fight["duel"],
             attacker=fight["attacker"], cards=[_key(e["card"]) for e in fight["cards"]],
             roaming=fight["roaming"])
    _side_fate(ctx, fight, "attacker")
    _side_fate(ctx, fight, "defender")
    _open_window(ctx, "fate", list(range(s["n"])))


def _stay(ctx: _Ctx, entry: dict, seat: int, grow: bool) -> None:
    """An undefeated Trojan hero or beast stays on the field in front of the hero it fought."""
    if grow:
        for eff in card_type(entry["card"]).get("ability", []):
            if eff["op"] == "grows":
                entry["grow"] = entry.get("grow", 0) + eff["amount"]
                ctx.emit("grows", card=_key(entry["card"]), grow=entry["grow"])
    ctx.s["players"][seat]["roamers"].append({"card": entry["card"], "by": entry["by"], "order": entry["order"],
                                              "grow": entry.get("grow", 0), "arrived": False})


def _dispose(ctx: _Ctx, fight: dict, hero_won: bool, fought: bool) -> None:
    """Units are discarded whatever the result; Trojan heroes and beasts are discarded when beaten (Aeneas
    may escape) and otherwise stay on the field."""
    s = ctx.s
    seat = fight["defender"]
    for entry in fight["cards"]:
        card = card_type(entry["card"])
        if card["kind"] == "unit":
            s["discard"].append(entry["card"])
            continue
        if hero_won:
            escape = next((e for e in card.get("ability", []) if e["op"] == "escape"
                           and e.get("fight") in (None, fight["kind"])), None)
            if escape:
                roll = _fate_now(ctx, fight["fate_by"]["attacker"], "escape")
                if roll >= escape["min_face"]:
                    ctx.emit("escape", card=card["key"], target=seat)
                    _stay(ctx, entry, seat, grow=False)
                    continue
                ctx.emit("escape_failed", card=card["key"], target=seat, face=roll, need=escape["min_face"])
            s["discard"].append(entry["card"])
        else:
            _stay(ctx, entry, seat, grow=fought)


def _hero_loss(player: dict, fight: dict) -> int:
    return rules.hero_loss(player, fight)


def _win_bonus(player: dict, fight: dict) -> int:
    return rules.win_bonus(player, fight)


def _draw_on_win(ctx: _Ctx, seat: int, fight: dict) -> None:
    bonus = sum(e["amount"] for e in rules.hero_effects(ctx.s["players"][seat], False) if e["op"] == "draw_on_win")
    if bonus:
        _draw_up(ctx, seat, bonus, "ability")


def _resolve_fight(ctx: _Ctx) -> None:
    s = ctx.s
    a = s["assault"]
    fight = a["fights"][a["index"]]
    players = s["players"]
    for side in ("attacker", "defender"):
        _discard_fates(ctx, fight["fate"][side])
        _discard_fates(ctx, fight["extra"][side])
    if fight["cancelled"]:
        ctx.emit("fight_result", winner=None, cancelled=True, target=fight["defender"], duel=fight["duel"],
                 attacker=fight["attacker"])
        if not fight["duel"]:
            _dispose(ctx, fight, hero_won=False, fought=False)
        return
    tot = rules.totals(players, fight, a["mods"])
    winner: str | None
    if tot["defender"] > tot["attacker"]:
        winner = "defender"
    elif tot["attacker"] > tot["defender"]:
        winner = "attacker"
    else:
        winner = rules.tie_winner(players, fight)
    ctx.emit("fight_result", winner=winner, cancelled=False, target=fight["defender"], duel=fight["duel"],
             attacker=fight["attacker"], attacker_total=tot["attacker"], defender_total=tot["defender"])
    seat = fight["defender"]
    hero = players[seat]
    if fight["duel"]:
        if winner is None:
            return
        win_seat = fight["defender"] if winner == "defender" else fight["attacker"]
        lose_seat = fight["attacker"] if winner == "defender" else fight["defender"]
        _draw_on_win(ctx, win_seat, fight)
        loss = _hero_loss(players[lose_seat], fight)
        _gain(ctx, win_seat, DUEL_GLORY + _win_bonus(players[win_seat], fight), "duel_won")
        _lose(ctx, lose_seat, loss, "duel_lost")
        return
    if winner == "defender":
        effects = rules.card_effects(fight)
        gained = rules.glory_of(fight) + _win_bonus(hero, fight)
        _dispose(ctx, fight, hero_won=True, fought=True)
        reward = sum(e["amount"] for e in effects if e["op"] == "reward_draw")
        if reward:
            _draw_up(ctx, seat, reward, "reward")
        _draw_on_win(ctx, seat, fight)
        _gain(ctx, seat, gained, "challenge_won")
        return
    if winner is None:
        _dispose(ctx, fight, hero_won=False, fought=True)
        return
    loss = _hero_loss(hero, fight)
    for eff in rules.card_effects(fight):
        if eff["op"] == "discard_on_win":
            _discard_random(ctx, seat, eff["amount"])
        elif eff["op"] == "drain_wrath" and hero["wrath"]:
            hero["wrath"] = max(0, hero["wrath"] - eff["amount"])
            ctx.emit("wrath_lost", seat=seat, wrath=hero["wrath"])
        elif eff["op"] == "wreck_on_win" and hero["attached"]:
            best = max(hero["attached"], key=lambda c: card_type(c)["cost"])
            hero["attached"].remove(best)
            s["discard"].append(best)
            ctx.emit("wrecked", seat=seat, card=_key(best))
    _dispose(ctx, fight, hero_won=False, fought=True)
    _lose(ctx, seat, loss, "challenge_lost")


def _after_fight(ctx: _Ctx) -> None:
    s = ctx.s
    a = s["assault"]
    a["index"] += 1
    if a["broken"]:
        # the target left in disgrace: the remaining fights of this challenge do not happen
        for fight in a["fights"][a["index"]:]:
            _dispose(ctx, fight, hero_won=False, fought=False)
        a["index"] = len(a["fights"])
    _run_fight(ctx)


def _finish_assault(ctx: _Ctx) -> None:
    s = ctx.s
    origin = s["assault"]["origin"]
    s["assault"] = None
    if origin == "roam":
        _next_roam(ctx)
    elif s["turn_over"]:
        _end_turn(ctx)
    else:
        s["step"] = "main"


def _discard_random(ctx: _Ctx, seat: int, amount: int) -> None:
    hand = ctx.s["players"][seat]["hand"]
    lost = []
    for _ in range(min(amount, len(hand))):
        cid = hand.pop(ctx.rng.below(len(hand)))
        ctx.s["discard"].append(cid)
        lost.append(_key(cid))
    if lost:
        ctx.emit("discard", seat=seat, cards=lost, random=True)


# ------------------------------------------------------------------------------------------ active effects

def _find_roamer(state: dict, cid: str) -> tuple[int, dict] | None:
    for seat, p in enumerate(state["players"]):
        for r in p["roamers"]:
            if r["card"] == cid:
                return seat, r
    return None


def _fight_now(s: dict) -> dict:
    """The fight whose fate cards lie out (effects that act on a fight are listed only while one does)."""
    fight = _current_fight(s)
    assert fight is not None
    return fight


def _op_fight_mod(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    me = ctx.s["players"][seat]
    amount = effect.get("by_patron", {}).get(rules.patron(me), effect["amount"])
    _fight_now(ctx.s)["mod"][action["side"]] += amount
    ctx.emit("fight_mod", seat=seat, side=action["side"], amount=amount)


def _op_redraw_fate(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    fight = _fight_now(ctx.s)
    side = action["side"]
    _discard_fates(ctx, fight["fate"][side])
    _side_fate(ctx, fight, side)
    ctx.emit("fate_redrawn", seat=seat, side=side, face=rules.fate_value(fight, side))


def _op_extra_fate(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    _fight_now(ctx.s)["extra"][action["side"]].append(_fate(ctx, seat, "extra"))


def _op_cancel_fight(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    _fight_now(ctx.s)["cancelled"] = True
    ctx.emit("fight_cancelled", seat=seat)


def _take_roamer(s: dict, cid: str) -> tuple[int, dict]:
    found = _find_roamer(s, cid)
    assert found is not None, cid  # the effect's parameters were listed from the roamers in play
    holder, roamer = found
    s["players"][holder]["roamers"].remove(roamer)
    return holder, roamer


def _op_banish(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    s = ctx.s
    holder, roamer = _take_roamer(s, action["target"])
    s["discard"].append(roamer["card"])
    ctx.emit("banished", seat=seat, card=_key(roamer["card"]), holder=holder)


def _op_move_roamer(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    s = ctx.s
    holder, roamer = _take_roamer(s, action["target"])
    # decision: a moved attacker waits for the end of the round before it attacks anyone
    roamer["arrived"] = False
    dest = s["players"][action["to"]]["roamers"]
    dest.append(roamer)
    dest.sort(key=lambda r: r["order"])
    ctx.emit("moved", seat=seat, card=_key(roamer["card"]), holder=holder, to=action["to"])


def _op_draw(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    _draw_up(ctx, seat, effect["amount"], "card")


def _op_gain(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    me = ctx.s["players"][seat]
    _gain(ctx, seat, effect.get("by_patron", {}).get(rules.patron(me), effect["amount"]), "favour")


def _op_discard_random(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    _discard_random(ctx, action["target"], effect["amount"])


def _op_fate_table(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    """each_fate (every hero in turn order) and omen (the player only): a fate card read off the table."""
    op = effect["op"]
    seats = _order_from(ctx.s["n"], seat) if op == "each_fate" else [seat]
    for who in seats:
        value = _fate_now(ctx, who, op)
        for row in effect["table"]:
            if value in row["faces"]:
                if row["gain"] > 0:
                    _gain(ctx, who, row["gain"], op)
                else:
                    _lose(ctx, who, -row["gain"], op)


def _op_contest(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    values = {who: _fate_now(ctx, who, "contest") for who in _order_from(ctx.s["n"], seat)}
    best = max(values.values())
    winners = [w for w, v in values.items() if v == best]
    ctx.emit("contest", best=best, seats=winners, amount=effect["amount"])
    if len(winners) == 1:
        _gain(ctx, winners[0], effect["amount"], "contest")


def _op_each_draw(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    for who in _order_from(ctx.s["n"], seat):
        _draw_up(ctx, who, effect["amount"], "card")


def _op_wreck(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    s = ctx.s
    for who, p in enumerate(s["players"]):
        if action["target"] in p["attached"]:
            p["attached"].remove(action["target"])
            s["discard"].append(action["target"])
            ctx.emit("wrecked", seat=who, card=_key(action["target"]), by=seat)


def _op_take_wrath(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    other = ctx.s["players"][action["target"]]
    other["wrath"] = max(0, other["wrath"] - effect["amount"])
    ctx.emit("wrath_lost", seat=action["target"], wrath=other["wrath"])


def _op_restore_wrath(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    """Version-1 Divine Anger only (games begun under rules version 1)."""
    me = ctx.s["players"][seat]
    me["wrath"] = min(WRATH_TOKENS, me["wrath"] + effect["amount"])
    ctx.emit("wrath_restored", seat=seat, wrath=me["wrath"])


_EFFECT_OPS: dict[str, Callable[[_Ctx, int, dict, dict], None]] = {
    "fight_mod": _op_fight_mod,
    "redraw_fate": _op_redraw_fate,
    "extra_fate": _op_extra_fate,
    "cancel_fight": _op_cancel_fight,
    "banish": _op_banish,
    "move_roamer": _op_move_roamer,
    "draw": _op_draw,
    "gain": _op_gain,
    "discard_random": _op_discard_random,
    "each_fate": _op_fate_table,
    "omen": _op_fate_table,
    "contest": _op_contest,
    "each_draw": _op_each_draw,
    "wreck": _op_wreck,
    "take_wrath": _op_take_wrath,
    "restore_wrath": _op_restore_wrath,
}


def _apply_effect(ctx: _Ctx, seat: int, effect: dict, action: dict) -> None:
    """Interpret one active effect (intervention, event or wrath)."""
    handler = _EFFECT_OPS.get(effect["op"])
    if handler is None:  # pragma: no cover - the loader rejects unknown ops
        raise ValueError(effect["op"])
    handler(ctx, seat, effect, action)

def _current_fight(state: dict) -> dict | None:
    a = state["assault"]
    if state["step"] != "fate" or a is None or a["index"] >= len(a["fights"]):
        return None
    return a["fights"][a["index"]]


def _effect_params(state: dict, seat: int, effect: dict) -> list[dict] | None:
    """Every parameter choice of an active effect that is usable now ([] entries mean 'no parameters');
    None when the effect can do nothing now."""
    op = effect["op"]
    me = state["players"][seat]
    if op in FIGHT_OPS:
        fight = _current_fight(state)
        if fight is None or fight["cancelled"]:
            return None
        if effect.get("fight") not in (None, fight["kind"]):
            return None
        if op == "cancel_fight":
            return [{}]
        return [{"side": "attacker"}, {"side": "defender"}]
    if op in ("banish", "move_roamer"):
        out = []
        for holder, p in enumerate(state["players"]):
            for r in p["roamers"]:
                if op == "banish":
                    out.append({"target": r["card"]})
                else:
                    out.extend({"target": r["card"], "to": to} for to in range(state["n"]) if to != holder)
        return out or None
    if op == "discard_random":
        out = [{"target": t} for t in range(state["n"]) if t != seat and state["players"][t]["hand"]]
        return out or None
    if op == "wreck":
        out = [{"target": c} for p in state["players"] for c in p["attached"]]
        return out or None
    if op == "take_wrath":
        out = [{"target": t} for t in range(state["n"]) if t != seat and state["players"][t]["wrath"]]
        return out or None
    if op == "restore_wrath":
        return [{}] if me["wrath"] < WRATH_TOKENS else None
    return [{}]


def _playable_intervention(state: dict, seat: int, cid: str) -> bool:
    card = card_type(cid)
    me = state["players"][seat]
    if rules.power(me) < card["power"]:
        return False
    return "patrons" not in card or rules.patron(me) in card["patrons"]


# ------------------------------------------------------------------------------------------------ engine

def _camp_actions(state: dict, seat: int) -> list[dict]:
    p = state["players"][seat]
    out: list[dict] = []
    for cid in p["hand"]:
        card = card_type(cid)
        if card["kind"] in ATTACHMENT_KINDS and rules.attach_cost(p, card["key"]) < p["gp"]:
            out.append({"type": "attach", "card": cid})
    out.append({"type": "done"})
    return out


def _challenge_actions(state: dict, seat: int) -> list[dict]:
    p = state["players"][seat]
    power = rules.power(p)
    targets = [t for t in range(state["n"]) if t != seat or not state["turn_used"]]
    out: list[dict] = []
    for cid in p["hand"]:
        card = card_type(cid)
        if card["kind"] not in CHALLENGE_KINDS or (card["kind"] == "beast" and card["power"] > power):
            continue
        out.extend({"type": "challenge", "card": cid, "target": t} for t in targets)
    return out


def _intervention_actions(state: dict, seat: int) -> list[dict]:
    out: list[dict] = []
    for cid in state["players"][seat]["hand"]:
        card = card_type(cid)
        if card["kind"] != "intervention" or not _playable_intervention(state, seat, cid):
            continue
        params = _effect_params(state, seat, card["effect"])
        out.extend({"type": "intervene", "card": cid, **extra} for extra in params or [])
    return out


def _main_actions(state: dict, seat: int) -> list[dict]:
    out = _challenge_actions(state, seat)
    if not state["turn_used"]:
        out.extend({"type": "duel", "target": t} for t in range(state["n"]) if t != seat)
    out.extend(_intervention_actions(state, seat))
    for cid in state["players"][seat]["hand"]:
        card = card_type(cid)
        if card["kind"] == "event":
            params = _effect_params(state, seat, card["effect"])
            out.extend({"type": "event", "card": cid, **extra} for extra in params or [])
    out.append({"type": "end_turn"})
    return out


def _build_actions(state: dict, seat: int) -> list[dict]:
    p = state["players"][seat]
    power = rules.power(p)
    out: list[dict] = []
    for cid in p["hand"]:
        card = card_type(cid)
        if card["kind"] in CHALLENGE_KINDS and (card["kind"] != "beast" or card["power"] <= power):
            out.append({"type": "combine", "card": cid})
    out.append({"type": "launch"})
    return out


def _join_actions(state: dict, seat: int) -> list[dict]:
    p = state["players"][seat]
    a = state["assault"]
    power = rules.power(p)
    kinds = {rules.group_kind(g) for g in rules.compose(a["cards"] + a["joined"])}
    out: list[dict] = []
    for cid in p["hand"]:
        card = card_type(cid)
        if card["kind"] in CHALLENGE_KINDS and seat != a["target"]:
            if card["kind"] != "beast" or card["power"] <= power:
                out.append({"type": "add", "card": cid})
        elif card["kind"] == "modifier" and (card.get("fight") is None or card["fight"] in kinds):
            out.append({"type": "add", "card": cid})
    out.append({"type": "pass"})
    return out


def _fate_window_actions(state: dict, seat: int) -> list[dict]:
    """The windows before and during a fight: interventions, wrath (while fate cards lie out), pass."""
    p = state["players"][seat]
    out = _intervention_actions(state, seat)
    if state["step"] == "fate" and p["wrath"] > 0:
        wrath = PATRONS[rules.patron(p)]["wrath"]
        out.extend({"type": "wrath", **extra} for extra in _effect_params(state, seat, wrath) or [])
    out.append({"type": "pass"})
    return out


def _discard_actions(state: dict, seat: int) -> list[dict]:
    p = state["players"][seat]
    out: list[dict] = []
    if p["discarded"] < END_DISCARDS:
        out.extend({"type": "discard", "card": cid} for cid in p["hand"])
    out.append({"type": "done"})
    return out


_LEGAL_BY_STEP: dict[str, Callable[[dict, int], list[dict]]] = {
    "camp": _camp_actions,
    "main": _main_actions,
    "build": _build_actions,
    "join": _join_actions,
    "fate": _fate_window_actions,
    "start": _fate_window_actions,
    "discard": _discard_actions,
}


# ---------------------------------------------------------------- why an action is refused, per action kind
_SELF_ONCE = "You may duel or challenge yourself only once per turn."


def _why_attach(state: dict, seat: int, action: dict, card: dict | None) -> str | None:
    if state["step"] != "camp" or card is None:
        return None
    if card["kind"] not in ATTACHMENT_KINDS:
        return "Only items and Achaean units can be attached in the camp."
    return f"You need more than {rules.attach_cost(state['players'][seat], card['key'])} Glory to pay for that."


def _why_intervene(state: dict, seat: int, action: dict, card: dict | None) -> str | None:
    if card is None:
        return None
    p = state["players"][seat]
    if state["step"] == "camp":
        return "Interventions may not be played in the camp phase."
    if card["kind"] == "intervention" and rules.power(p) < card["power"]:
        return f"That intervention needs POWER {card['power']}; your hero has {rules.power(p)}."
    if card["kind"] == "intervention" and "patrons" in card and rules.patron(p) not in card["patrons"]:
        return "Only heroes of " + " or ".join(PATRONS[k]["names"]["en"] for k in card["patrons"]) + " may play that."
    return "That intervention has nothing to act on now."


def _why_beast(state: dict, seat: int, action: dict, card: dict | None) -> str | None:
    power = rules.power(state["players"][seat])
    if card is not None and card["kind"] == "beast" and power < card["power"]:
        return f"That beast needs POWER {card['power']}; your hero has {power}."
    return None


def _why_challenge(state: dict, seat: int, action: dict, card: dict | None) -> str | None:
    why = _why_beast(state, seat, action, card)
    if why is None and action.get("target") == seat and state["turn_used"]:
        return _SELF_ONCE
    return why


def _why_duel(state: dict, seat: int, action: dict, card: dict | None) -> str | None:
    return _SELF_ONCE if state["turn_used"] else None


def _why_add(state: dict, seat: int, action: dict, card: dict | None) -> str | None:
    why = _why_beast(state, seat, action, card)
    a = state["assault"]
    if why is None and a is not None and seat == a["target"] and card is not None and card["kind"] in CHALLENGE_KINDS:
        return "You may not add challenges against your own hero."
    return why


def _why_wrath(state: dict, seat: int, action: dict, card: dict | None) -> str | None:
    if state["players"][seat]["wrath"] == 0:
        return "You have no wrath tokens left."
    return "Wrath can be used only while a fight's fate cards are on the table."


def _why_discard(state: dict, seat: int, action: dict, card: dict | None) -> str | None:
    if state["step"] == "discard" and state["players"][seat]["discarded"] >= END_DISCARDS:
        return "You may discard at most 2 cards."
    return None


_WHY: dict[str, Callable[[dict, int, dict, dict | None], str | None]] = {
    "attach": _why_attach,
    "intervene": _why_intervene,
    "challenge": _why_challenge,
    "combine": _why_beast,
    "add": _why_add,
    "duel": _why_duel,
    "wrath": _why_wrath,
    "discard": _why_discard,
}


class TrojaEngine(BaseEngine):
    """The Troja rules behind the engine protocol."""

    key = "troja"
    title = "Troja"
    min_players = 2
    max_players = 4
    #: 2: the card set keeps the book's "always" rules (Cerberus, Hector, the Chimera, Bronze Armour, Divine
    #: Anger redesigned), the first player is fixed unless ``rotate_first``. Version-1 games load migrated.
    rules_version = 2
    #: undo within a turn (issue 25): a pass and the end of a turn after which the same player is to act
    #: again; every card played from the hand is shown (and fate cards are drawn), so it is final
    take_back = frozenset({"pass", "end_turn"})

    # -------------------------------------------------------------------------------------------- setup
    def new_game(self, num_players: int, seed: int, options: dict | None = None) -> dict:
        if not isinstance(num_players, int) or not self.min_players <= num_players <= self.max_players:
            raise ValueError("Troja is played by 2 to 4 players.")
        opts = self._options(options)
        rng = Rng(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        heroes = sorted(HEROES)
        rng.shuffle(heroes)
        players = [{"hero": heroes[i], "gp": START_GP, "wrath": WRATH_TOKENS, "hand": [], "attached": [],
                    "roamers": [], "discarded": 0, "done": False, "heroes": [heroes[i]]}
                   for i in range(num_players)]
        state = {"game": "troja", "rules_version": self.rules_version, "n": num_players, "seed": seed,
                 "options": opts, "rng": rng.state, "round": 0, "phase": "setup", "step": "setup", "first": 0,
                 "turn": None, "camp_seat": None, "turn_used": False, "turn_over": False,
                 "players": players, "pool": heroes[num_players:], "aside": [], "deck": deck, "discard": [],
                 "counter": 0, "assault": None, "window": None, "roam_queue": [], "last": [], "result": None}
        ctx = _Ctx(state)
        # the hero with the highest POWER starts; ties are broken by fate cards
        best = max(HEROES[p["hero"]]["power"] for p in players)
        tied = [i for i, p in enumerate(players) if HEROES[p["hero"]]["power"] == best]
        while len(tied) > 1:
            faces = {seat: _fate_now(ctx, seat, "start") for seat in tied}
            top = max(faces.values())
            tied = [seat for seat in tied if faces[seat] == top]
        state["first"] = tied[0]
        ctx.emit("first_player", seat=tied[0])
        try:
            _start_round(ctx)
        except _GameOver:  # pragma: no cover - nothing can end the game before the first round
            pass
        ctx.close()
        return state

    def _options(self, options: dict | None) -> dict:
        options = dict(options or {})
        out = {}
        for name, (default, lo, hi) in OPTIONS.items():
            value = options.pop(name, default)
            off = NO_LIMIT.get(name)
            if (not isinstance(value, int) or isinstance(value, bool)
                    or not (lo <= value <= hi or (off is not None and value == off))):
                also = f" (or {off}: no limit)" if off is not None else ""
                raise ValueError(f"Option {name} must be a whole number from {lo} to {hi}{also}.")
            out[name] = value
        for name, default in BOOL_OPTIONS.items():
            value = options.pop(name, default)
            if not isinstance(value, bool):
                raise ValueError(f"Option {name} must be true or false.")
            out[name] = value
        if options:
            raise ValueError(f"Unknown option(s) for Troja: {', '.join(sorted(options))}.")
        return out

    def conformance_configs(self) -> list[tuple[int, dict]]:
        return [(2, {}), (3, {"rotate_first": True}), (4, {"max_rounds": 12})]

    def max_playout_steps(self) -> int:
        return 20_000

    # --------------------------------------------------------------------------------------- protocol
    def seat_count(self, state: dict) -> int:
        return state["n"]

    def to_act(self, state: dict) -> list[int]:
        step = state["step"]
        if step in ("over", "setup"):
            return []
        if step == "camp":
            return [state["camp_seat"]]
        if step in ("main", "build"):
            return [state["turn"]]
        if step == "discard":
            return [seat for seat, p in enumerate(state["players"]) if not p["done"]]
        window = state["window"]
        return [seat for seat in window["eligible"] if seat not in window["passed"]]

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        listing = _LEGAL_BY_STEP.get(state["step"])
        return listing(state, seat) if listing is not None else []

    def explain_illegal(self, state: dict, seat: int, action: dict) -> str:
        cid = action.get("card")
        if cid is not None and cid not in state["players"][seat]["hand"]:
            return "You do not hold that card."
        card = card_type(cid) if isinstance(cid, str) and cid in PHYSICAL else None
        kind = action.get("type")
        why = _WHY.get(kind) if isinstance(kind, str) else None
        return (why(state, seat, action, card) if why is not None else None) or "That move is not allowed now."

    # ------------------------------------------------------------------------------------------ apply
    def _apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        ctx = _Ctx(state)
        try:
            self._dispatch(ctx, seat, action)
        except _GameOver:
            pass
        return ctx.close()

    def _dispatch(self, ctx: _Ctx, seat: int, action: dict) -> None:
        handler = self._ACTIONS.get(action["type"])
        if handler is None:  # pragma: no cover - validate() only lets legal actions through
            raise IllegalAction("That move is not allowed now.")
        handler(self, ctx, seat, action)

    def _act_attach(self, ctx: _Ctx, seat: int, action: dict) -> None:
        p = ctx.s["players"][seat]
        cid = action["card"]
        cost = rules.attach_cost(p, _key(cid))
        p["hand"].remove(cid)
        p["attached"].append(cid)
        p["gp"] -= cost
        ctx.emit("attach", seat=seat, card=_key(cid), cost=cost, gp=p["gp"])

    def _act_done(self, ctx: _Ctx, seat: int, action: dict) -> None:
        """"done" ends one's camp phase, or one's discarding at the end of the round."""
        s = ctx.s
        if s["step"] == "camp":
            ctx.emit("camp_done", seat=seat)
            _camp_done(ctx, seat)
        elif s["step"] == "discard":
            s["players"][seat]["done"] = True
            ctx.emit("discard_done", seat=seat)
            _maybe_end_round(ctx)
        else:  # pragma: no cover - validate() only lets legal actions through
            raise IllegalAction("That move is not allowed now.")

    def _act_challenge(self, ctx: _Ctx, seat: int, action: dict) -> None:
        s = ctx.s
        cid = action["card"]
        s["players"][seat]["hand"].remove(cid)
        s["counter"] += 1
        target = action["target"]
        if target == seat:
            s["turn_used"] = True
        entry = {"card": cid, "by": seat, "order": s["counter"], "grow": 0}
        s["assault"] = {"origin": "play", "by": seat, "target": target, "cards": [entry], "mods": [],
                        "joined": [], "fights": [], "index": 0, "broken": False}
        s["step"] = "build"
        ctx.emit("challenge", seat=seat, card=_key(cid), target=target)

    def _act_combine(self, ctx: _Ctx, seat: int, action: dict) -> None:
        s = ctx.s
        cid = action["card"]
        s["players"][seat]["hand"].remove(cid)
        s["counter"] += 1
        s["assault"]["cards"].append({"card": cid, "by": seat, "order": s["counter"], "grow": 0})
        ctx.emit("combine", seat=seat, card=_key(cid), target=s["assault"]["target"])

    def _act_launch(self, ctx: _Ctx, seat: int, action: dict) -> None:
        s = ctx.s
        ctx.emit("launch", seat=seat, target=s["assault"]["target"])
        others = [t for t in _order_from(s["n"], seat) if t != seat]
        _open_window(ctx, "join", others)

    def _act_duel(self, ctx: _Ctx, seat: int, action: dict) -> None:
        s = ctx.s
        s["turn_used"] = True
        fight = _new_fight("strength", [], action["target"])
        fight["duel"] = True
        fight["attacker"] = seat
        s["assault"] = {"origin": "duel", "by": seat, "target": action["target"], "cards": [], "mods": [],
                        "joined": [], "fights": [fight], "index": 0, "broken": False}
        ctx.emit("duel", seat=seat, target=action["target"])
        _run_fight(ctx)

    def _act_add(self, ctx: _Ctx, seat: int, action: dict) -> None:
        s = ctx.s
        cid = action["card"]
        a = s["assault"]
        s["players"][seat]["hand"].remove(cid)
        card = card_type(cid)
        if card["kind"] == "modifier":
            a["mods"].append({"card": cid, "by": seat})
        else:
            s["counter"] += 1
            a["joined"].append({"card": cid, "by": seat, "order": s["counter"], "grow": 0})
        ctx.emit("add", seat=seat, card=card["key"], target=a["target"])
        window = s["window"]
        window["eligible"].remove(seat)
        window["passed"] = []
        self._maybe_close(ctx)

    def _act_pass(self, ctx: _Ctx, seat: int, action: dict) -> None:
        s = ctx.s
        ctx.emit("pass", seat=seat, window=s["window"]["kind"])
        s["window"]["passed"].append(seat)
        self._maybe_close(ctx)

    def _act_card_effect(self, ctx: _Ctx, seat: int, action: dict) -> None:
        """An intervention or an event: played from the hand, its effect applied."""
        s = ctx.s
        kind = action["type"]
        cid = action["card"]
        s["players"][seat]["hand"].remove(cid)
        card = card_type(cid)
        ctx.emit(kind, seat=seat, card=card["key"],
                 **{k: v if k != "target" or isinstance(v, int) else _key(v)
                    for k, v in action.items() if k not in ("type", "card")})
        # the card goes to the discard pile first, so a reshuffle during its effect can include it
        s["discard"].append(cid)
        _apply_effect(ctx, seat, card["effect"], action)
        self._after_play(ctx)

    def _act_wrath(self, ctx: _Ctx, seat: int, action: dict) -> None:
        p = ctx.s["players"][seat]
        p["wrath"] -= 1
        patron = rules.patron(p)
        ctx.emit("wrath", seat=seat, patron=patron, **{k: v for k, v in action.items() if k != "type"})
        _apply_effect(ctx, seat, PATRONS[patron]["wrath"], action)
        self._after_play(ctx)

    def _act_discard(self, ctx: _Ctx, seat: int, action: dict) -> None:
        s = ctx.s
        p = s["players"][seat]
        cid = action["card"]
        p["hand"].remove(cid)
        s["discard"].append(cid)
        p["discarded"] += 1
        ctx.emit("discard", seat=seat, cards=[_key(cid)], random=False)
        if p["discarded"] >= END_DISCARDS or not p["hand"]:
            p["done"] = True
            _maybe_end_round(ctx)

    def _act_end_turn(self, ctx: _Ctx, seat: int, action: dict) -> None:
        ctx.emit("end_turn", seat=seat)
        _end_turn(ctx)

    #: action type -> what playing it does
    _ACTIONS: dict[str, Callable[[TrojaEngine, _Ctx, int, dict], None]] = {
        "attach": _act_attach,
        "done": _act_done,
        "challenge": _act_challenge,
        "combine": _act_combine,
        "launch": _act_launch,
        "duel": _act_duel,
        "add": _act_add,
        "pass": _act_pass,
        "intervene": _act_card_effect,
        "event": _act_card_effect,
        "wrath": _act_wrath,
        "discard": _act_discard,
        "end_turn": _act_end_turn,
    }

    def _after_play(self, ctx: _Ctx) -> None:
        s = ctx.s
        if s["window"] is not None:
            s["window"]["passed"] = []
            fight = _current_fight(s)
            if fight is not None and fight["cancelled"]:
                _close_window(ctx)
                return
        elif s["step"] == "main" and s["turn_over"]:
            _end_turn(ctx)

    def _maybe_close(self, ctx: _Ctx) -> None:
        window = ctx.s["window"]
        if all(seat in window["passed"] for seat in window["eligible"]):
            _close_window(ctx)

    # ----------------------------------------------------------------------------------------- reading
    def playable(self, state: dict, seat: int) -> bool:
        """Whether ``seat`` holds anything it could play now (any legal action besides passing), so the host
        can honour a player's "auto-pass when I hold nothing playable" setting in reaction windows."""
        return any(a["type"] not in ("pass", "done") for a in self.legal_actions(state, seat))

    def view(self, state: dict, seat: int | None) -> dict:
        s = state
        players = []
        for i, p in enumerate(s["players"]):
            hero = HEROES[p["hero"]]
            players.append({
                "seat": i, "hero": p["hero"], "patron": hero["patron"], "gp": p["gp"], "wrath": p["wrath"],
                "strength": rules.plain_stat(p, "strength"), "tactics": rules.plain_stat(p, "tactics"),
                "power": rules.power(p), "glory": hero["glory"], "hand_size": len(p["hand"]),
                "hand_limit": rules.hand_limit(p), "attached": list(p["attached"]),
                "roamers": _copy(p["roamers"]), "heroes": list(p["heroes"]),
                "done": p["done"] if s["phase"] == "end" else None,
                "discarded": p["discarded"] if s["phase"] == "end" else None,
            })
        out = {
            "game": "troja", "seat": seat, "to_act": self.to_act(s), "round": s["round"],
            "max_rounds": s["options"]["max_rounds"], "phase": s["phase"], "step": s["step"],
            "first": s["first"], "turn": s["turn"], "camp_seat": s["camp_seat"], "turn_used": s["turn_used"],
            "players": players, "pool": list(s["pool"]), "aside": list(s["aside"]),
            "deck_size": len(s["deck"]), "discard_size": len(s["discard"]), "discard_top": s["discard"][-5:],
            # once the game is over, a fight cut short by the winning Glory is no longer shown
            "assault": None if s["result"] else self._assault_view(s),
            "fight": None if s["result"] else self._fight_view(s),
            "window": _copy(s["window"]), "last": _copy(s["last"]),
            "result": _copy(s["result"]),
        }
        if seat is not None:
            out["hand"] = list(s["players"][seat]["hand"])
            legal = self.legal_copy(s, seat)
            if legal:
                out["legal"] = legal
            out["playable"] = sorted({a["card"] for a in legal if "card" in a})
            out["can_play"] = any(a["type"] not in ("pass", "done") for a in legal)
        return out

    def _assault_view(self, s: dict) -> dict | None:
        a = s["assault"]
        if a is None:
            return None
        players = s["players"]
        if a["fights"]:
            fights = a["fights"]
        else:  # still being built or joined: show the fights the cards would make
            entries = a["cards"] + a["joined"]
            fights = [_new_fight(rules.group_kind(g), g, a["target"]) for g in rules.compose(entries)]
        preview = []
        live: set[str] = set()
        for i, fight in enumerate(fights):
            base = rules.bases(players, fight, a["mods"])
            done = bool(a["fights"]) and i < a["index"]
            ids = [e["card"] for e in fight["cards"]]
            if not done:
                live.update(ids)
            # a resolved fight's cards may already be back in the deck: name them by key only
            preview.append({"kind": fight["kind"], "duel": fight["duel"], "cards": [] if done else ids,
                            "keys": [_key(c) for c in ids], "attacker": base["attacker"],
                            "defender": base["defender"], "glory": rules.glory_of(fight), "done": done})
        return {"origin": a["origin"], "by": a["by"], "target": a["target"],
                "cards": [_copy(e) for e in a["cards"] if not a["fights"] or e["card"] in live],
                "joined": _copy(a["joined"]), "mods": _copy(a["mods"]), "fights": preview,
                "index": a["index"] if a["fights"] else None}

    def _fight_view(self, s: dict) -> dict | None:
        a = s["assault"]
        if a is None or not a["fights"] or a["index"] >= len(a["fights"]):
            return None
        fight = a["fights"][a["index"]]
        out = _copy(fight)
        if fight["fate"]["defender"]:
            base = rules.bases(s["players"], fight, a["mods"])
            out["base"] = base
            out["totals"] = rules.totals(s["players"], fight, a["mods"])
            out["tie_to"] = rules.tie_winner(s["players"], fight)
            out["glory"] = rules.glory_of(fight) if not fight["duel"] else DUEL_GLORY
            out["loss"] = {side: rules.hero_loss(s["players"][seat], fight)
                           for side, seat in (("defender", fight["defender"]), ("attacker", fight["attacker"]))
                           if seat is not None}
        out["mods_cards"] = [m["card"] for m in a["mods"]]
        return out

    def result(self, state: dict) -> dict | None:
        return _copy(state["result"])

    plain_json = True  # (to_json: a plain copy)

    def to_json(self, state: dict) -> dict:
        return _copy(state)

    def from_json(self, data: dict) -> dict:
        """A saved state; one saved under rules version 1 is migrated so that it finishes as it began: its
        copies of the five redesigned cards become their retired version-1 copies (``cerberus#1`` ->
        ``cerberus_v1#1``, same face, the old ability) and its first seat keeps rotating."""
        if data.get("rules_version") == 1:
            return _migrate_v1(data)
        return _copy(self._adopt(data))

    def _adopt(self, data: dict) -> dict:
        version = data.get("rules_version")
        if version == 1:
            return _migrate_v1(data)
        if version != self.rules_version:
            raise ValueError(f"Troja rules version {version} is not {self.rules_version}.")
        return data

    def secrets(self, state: dict, seat: int | None) -> set[str]:
        if seat is None:
            return set(state["deck"])
        return set(state["players"][seat]["hand"])


def _migrate_v1(data: dict) -> dict:
    def walk(value):
        if isinstance(value, str):
            return V1_IDS.get(value, value)
        if isinstance(value, list):
            return [walk(v) for v in value]
        if isinstance(value, dict):
            return {k: walk(v) for k, v in value.items()}
        return value

    state = walk(copy.deepcopy(data))
    state["rules_version"] = TrojaEngine.rules_version
    state["card_set"] = 1  # the version-1 cards stay in this game
    state["options"] = {**state["options"], "rotate_first": True}
    return state


ENGINE = TrojaEngine()
