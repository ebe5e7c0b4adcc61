"""The round ("kör"): what happens when nobody holds priority and nothing is pending. Resource phase, card
adjustment, the omen's bottom card, turning back, the maneuver phase, the end of the round.
"""

from __future__ import annotations

from collections.abc import Callable

from . import state as S
from .cards import HAND_SIZE, ROUND_END_DP, ROUND_MP
from .maneuvers import declare_maneuver, maneuver_next
from .victory import draw_game, finish_by_dp, win
from .zones import controlled_present, draw_cards


def _towers_set(state: dict, ev: list) -> None:
    state["stage"] = "mulligan"
    state["pending"] = [{"kind": "mulligan", "seat": s, "simul": True} for s in range(2)]


def _maneuver_phase(state: dict, ev: list) -> None:
    """A maneuver an effect started, the running maneuver's next step, or the active player's priority."""
    if state["free_maneuver"] is not None:
        fm = state["free_maneuver"]
        state["free_maneuver"] = None
        declare_maneuver(state, fm["seat"], fm["kind"], fm.get("target"), ev, free=True)
    elif state["maneuver"] is not None:
        maneuver_next(state, ev)
    else:
        state["prio"] = S.active(state)
        state["passes"] = 0


def flow(state: dict, ev: list) -> None:
    """Nobody holds priority and nothing is pending: move the game on to its next decision."""
    step = _FLOW.get(state["stage"])
    if step is not None:
        step(state, ev)


def begin_round(state: dict, ev: list) -> None:
    """A new round (or the end at the round limit): round-long modifiers end, round-start triggers wait."""
    state["round"] += 1
    limit = state["options"]["round_limit"]
    if limit and state["round"] > limit:
        finish_by_dp(state, "round_limit", ev)
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
        for cid in controlled_present(state, seat):
            d = S.cdef(state, cid)
            for i, ab in enumerate(d["abilities"]):
                if ab["kind"] == "trigger" and ab["on"] == "round_start":
                    if "ONCE_PLAYER" in ab["sym"]:
                        # ONCE PER PLAYER: one such effect applies per player
                        if d["key"] in seen_once:
                            continue
                        seen_once.add(d["key"])
                    state["trig"].append({"seat": seat, "card": cid, "ab": i})


def resource(state: dict, ev: list) -> None:
    """The resource phase (not in round 1): MP for both, hands filled up, then discards down to the hand size."""
    if state["round"] == 1:  # the resource phase is skipped in the first round
        start_maneuvers(state, ev)
        return
    for seat in range(2):
        state["p"][seat]["mp"] += ROUND_MP
    ev.append({"type": "resources", "mp": [state["p"][0]["mp"], state["p"][1]["mp"]]})
    state["stage"] = "adjust"
    for seat in range(2):
        p = state["p"][seat]
        if len(p["hand"]) < HAND_SIZE:
            draw_cards(state, seat, HAND_SIZE - len(p["hand"]), ev)
    state["pending"] = [{"kind": "adjust_discard", "seat": s, "simul": True}
                        for s in range(2) if len(state["p"][s]["hand"]) > HAND_SIZE]


def after_adjust(state: dict, ev: list) -> None:
    """After the first card adjustment the omen's player puts a card at the bottom of his Future."""
    state["stage"] = "omen_bottom"
    if not state["adjusted_once"]:
        state["adjusted_once"] = True
        # Rulebook: after the game's first card-adjustment step the omen's player puts one card from his
        # hand at the bottom of his Future (the first adjustment is in round 2: round 1 has none).
        state["pending"] = [{"kind": "omen_bottom", "seat": s, "simul": True} for s in range(2)
                            if state["p"][s]["omen_due"] and state["p"][s]["hand"]]
        for p in state["p"]:
            p["omen_due"] = False


def turn_back(state: dict, ev: list) -> None:
    """Resting Row adventurers turn alert, injured ones resting; then the maneuver phase."""
    for seat in range(2):
        for cid in state["p"][seat]["row"]:
            c = state["cards"][cid]
            if c["state"] == "resting":
                c["state"] = "alert"
            elif c["state"] == "injured":
                c["state"] = "resting"
    ev.append({"type": "turned_back"})
    start_maneuvers(state, ev)


def start_maneuvers(state: dict, ev: list) -> None:
    """The maneuver phase: the active player holds priority."""
    state["stage"] = "maneuvers"
    state["prio"] = S.active(state)
    state["passes"] = 0
    ev.append({"type": "phase", "phase": "maneuvers", "active": state["prio"]})


def round_end(state: dict, ev: list) -> None:
    """The end of the round: omens lose a point; 11+ DP and more than the other wins; an empty Future ends the
    game; else the next round."""
    for seat in range(2):
        for cid in state["p"][seat]["omen"]:
            c = state["cards"][cid]
            if c["op"] > 0:
                c["op"] -= 1  # the omen loses 1 omen point at the end of every round
                ev.append({"type": "omen_point_lost", "seat": seat, "card": cid, "left": c["op"]})
    d = [S.dp(state, 0), S.dp(state, 1)]
    for seat in range(2):
        if d[seat] >= ROUND_END_DP and d[seat] > d[1 - seat]:
            win(state, seat, "dp11", ev)
            return
    empty = [not state["p"][s]["future"] for s in range(2)]
    if empty[0] and empty[1]:
        draw_game(state, "future_draw", ev)
        return
    if empty[0] or empty[1]:
        win(state, 1 if empty[0] else 0, "future", ev)
        return
    begin_round(state, ev)


#: stage -> what moves the game on from it when nobody holds priority and nothing is pending
_FLOW: dict[str, Callable[[dict, list], None]] = {
    "towers": _towers_set,
    "mulligan": begin_round,
    "open": resource,
    "adjust": after_adjust,
    "omen_bottom": turn_back,
    "maneuvers": _maneuver_phase,
    "close": round_end,
}
