"""Maneuvers ("manőverek": siege, quest, capture): declaring one, forming teams and blocks, the steps and
their threads, combat rounds and the result, solving quests, the outcome, the teams going home.
"""

from __future__ import annotations

from collections.abc import Callable

from . import common as C
from . import state as S
from .cards import BUILDING_LIMIT, SIEGE_COST
from .thread import open_phase_thread
from .zones import pub, to_past


def declare_maneuver(state: dict, seat: int, kind: str, target: str | None, ev: list,
                      free: bool = False) -> None:
    """Start a maneuver (free: started by an effect, nothing to pay); the initiator then forms his team."""
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
        assert target is not None  # a capture names its building
        cost = S.cdef(state, target)["dp"]
    assert target is not None  # a siege besieges the lowest level; quests and captures name their card
    state["maneuver"] = {"kind": kind, "init": seat, "target": target, "step": "form_init",
                         "cost": 0 if free else cost, "front": [], "prep_acted": [], "acted": False,
                         "round": 0, "winner": None, "combat": False, "solver": seat,
                         "was_hidden": kind == "siege" and not state["cards"][target]["up"], "free": free}
    state["prio"] = None
    state["passes"] = 0
    ev.append({"type": "maneuver_declared", "seat": seat, "kind": kind,
               "target": pub(state, target), "cost": 0 if free else cost})
    state["pending"].insert(0, {"kind": "team", "seat": seat, "role": "init"})


def team_decide(state: dict, seat: int, dec: dict, action: dict, ev: list) -> None:
    """Apply an answer while forming a team: add a member, equip one, or close the team (which opens the step's thread)."""
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
        after_block(state, ev)
        return
    # team_done
    if dec["role"] == "init":
        p["mp"] -= m["cost"]
        ev.append({"type": "team_left_row", "seat": seat, "team": list(p["team"]), "cost": m["cost"]})
        m["step"] = "init_thread"
    else:
        ev.append({"type": "team_left_row", "seat": seat, "team": list(p["team"]), "cost": 0})
        m["step"] = "block_thread"
    open_phase_thread(state)


def form_block(state: dict, ev: list) -> None:
    """The defender forms a blocking team if he has an alert Row adventurer; else there is no block."""
    m = state["maneuver"]
    m["step"] = "form_block"
    d = 1 - m["init"]
    if any(state["cards"][a]["state"] == "alert" for a in state["p"][d]["row"]):
        state["pending"].insert(0, {"kind": "team", "seat": d, "role": "block"})
    else:
        ev.append({"type": "no_block", "seat": d})
        after_block(state, ev)


def after_block(state: dict, ev: list) -> None:
    """No blocking team: no combat; the maneuver goes on as if its team had won."""
    m = state["maneuver"]
    m["step"] = "block_thread"
    if C.v2(state):
        # Rulebook l.301: the blocking phase ends with a thread, blocker or not
        open_phase_thread(state)
    else:
        maneuver_next(state, ev)


def teams_empty(state: dict) -> bool:
    """Have both teams left the maneuver (dead or gone home)?"""
    return not state["p"][0]["team"] and not state["p"][1]["team"]


def _after_init_thread(state: dict, ev: list) -> None:
    """The declaration's thread closed: a siege reveals the besieged level, a capture meets its obstacles, a
    quest waits for a blocker."""
    m = state["maneuver"]
    if m["kind"] == "siege":
        tower = state["cards"][m["target"]]
        tower["up"] = True
        m["step"] = "reveal"
        ev.append({"type": "tower_revealed", "seat": 1 - m["init"], "card": m["target"],
                   "name": S.cdef(state, m["target"])["name_en"], "wall": S.cdef(state, m["target"])["wall"]})
        open_phase_thread(state)
    elif m["kind"] == "capture":
        m["step"] = "obstacles"
        open_phase_thread(state)
    else:
        form_block(state, ev)


def _after_reveal(state: dict, ev: list) -> None:
    state["maneuver"]["step"] = "obstacles"
    open_phase_thread(state)


def _after_obstacles(state: dict, ev: list) -> None:
    """Past the obstacles: a quest's conditions, a siege against the WALL (the defender may end it there if
    the WALL is not lower than the team), else the block."""
    m = state["maneuver"]
    init = m["init"]
    if not state["p"][m["solver"]]["team"]:
        end_maneuver(state, ev)
        return
    if m["kind"] == "quest":
        m["step"] = "condition"
        state["pending"].insert(0, {"kind": "solve", "seat": m["solver"]})
    elif m["kind"] == "siege":
        wall = tower_wall(state)
        team_level = sum(S.level(state, a) for a in state["p"][init]["team"])
        if wall >= team_level:
            m["step"] = "wall"
            state["pending"].insert(0, {"kind": "wall_choice", "seat": 1 - init})
        else:
            form_block(state, ev)
    else:
        form_block(state, ev)


def _after_block_thread(state: dict, ev: list) -> None:
    """Two teams fight (the preparation's thread first); one team alone wins without combat."""
    m = state["maneuver"]
    init = m["init"]
    if state["p"][init]["team"] and state["p"][1 - init]["team"]:
        m["combat"] = True
        m["step"] = "prep"
        ev.append({"type": "combat_started"})
        open_phase_thread(state)
    else:
        outcome_without_combat(state, ev)


def _after_round_thread(state: dict, ev: list) -> None:
    """A thread opened by a combat-round action has closed: the round goes on (or ends with a team gone)."""
    front_fix(state)
    if not state["p"][0]["team"] or not state["p"][1]["team"]:
        combat_result(state, ev)
        return
    state["prio"] = S.active(state)
    state["passes"] = 0


def maneuver_next(state: dict, ev: list) -> None:
    """The thread of a maneuver step has closed (or a step needs none): go to the next step."""
    m = state["maneuver"]
    if teams_empty(state) and m["step"] not in ("form_init",):
        ev.append({"type": "maneuver_no_teams"})
        end_maneuver(state, ev)
        return
    _NEXT_STEP[m["step"]](state, ev)


def tower_wall(state: dict) -> int:
    """The WALL of the besieged tower level."""
    m = state["maneuver"]
    return S.cdef(state, m["target"])["wall"]


def outcome_without_combat(state: dict, ev: list) -> None:
    """Nobody blocked: the initiator's team wins without a fight (a quest goes on to its obstacles)."""
    m = state["maneuver"]
    init = m["init"]
    if not state["p"][init]["team"]:
        end_maneuver(state, ev)
        return
    m["winner"] = init
    if m["kind"] == "quest":
        m["solver"] = init
        quest_obstacles(state, ev)
    else:
        apply_outcome(state, ev)
        end_maneuver(state, ev)


def quest_obstacles(state: dict, ev: list) -> None:
    """The quest's obstacle step: a thread in which face-down obstacles there may be revealed."""
    m = state["maneuver"]
    m["step"] = "obstacles"
    open_phase_thread(state)


def ask_ranks(state: dict, ev: list) -> None:
    """Both players set their front and back ranks (the initiator first) before the combat rounds."""
    m = state["maneuver"]
    m["step"] = "ranks"
    init = m["init"]
    # the initiator sets his ranks first, then the blocker
    state["pending"] = [{"kind": "ranks", "seat": s} for s in (init, 1 - init) if state["p"][s]["team"]]
    if not state["pending"]:
        end_maneuver(state, ev)


def front_fix(state: dict) -> None:
    """A team left without a front rank moves its back rank to the front."""
    m = state["maneuver"]
    if m is None:
        return
    for s in range(2):
        team = state["p"][s]["team"]
        m["front"] = [f for f in m["front"] if state["cards"][f]["zone"] == "team"]
        if team and not any(a in m["front"] for a in team):
            m["front"].extend(team)


def new_combat_round(state: dict, ev: list) -> None:
    """A new combat round: front ranks fixed, every team member alert, the active player acts first."""
    m = state["maneuver"]
    m["step"] = "rounds"
    m["round"] += 1
    m["acted"] = False
    front_fix(state)
    for s in range(2):
        for a in state["p"][s]["team"]:
            state["cards"][a]["state"] = "alert"  # every combat round starts with everyone alert
    ev.append({"type": "combat_round", "round": m["round"]})
    state["prio"] = S.active(state)
    state["passes"] = 0


def team_strength(state: dict, seat: int) -> int:
    """The sum of the team's levels (none counted below 0)."""
    return sum(max(0, S.level(state, a)) for a in state["p"][seat]["team"])


def combat_result(state: dict, ev: list) -> None:
    """Compare the teams' levels (a besieged tower's WALL joins the defenders) and open the result's thread."""
    m = state["maneuver"]
    init = m["init"]
    lv = [team_strength(state, s) for s in range(2)]
    if m["kind"] == "siege":
        lv[1 - init] += tower_wall(state)  # the tower's WALL joins the defenders
    if lv[init] > lv[1 - init]:
        m["winner"] = init
    elif lv[init] < lv[1 - init]:
        m["winner"] = 1 - init
    else:
        m["winner"] = -1
    ev.append({"type": "combat_result", "levels": lv, "winner": None if m["winner"] < 0 else m["winner"]})
    m["step"] = "result"
    open_phase_thread(state)


def after_result(state: dict, ev: list) -> None:
    """After the combat result: combat cards and modifiers end, the loser goes home, the winner goes on."""
    m = state["maneuver"]
    # cards with Combat duration leave at the end of the combat-result phase
    for s in range(2):
        for cid in list(state["p"][s]["events"]):
            if S.cdef(state, cid)["duration"] == "combat":
                to_past(state, cid, ev)
        for a in S.adventurers(state, s):
            state["cards"][a]["mods"] = [x for x in state["cards"][a].get("mods", ()) if x["until"] != "combat"]
    w = m["winner"]
    for s in range(2):
        if s != w:
            return_team(state, s, ev)  # the non-winner returns to the Row
    if w is None or w < 0 or not state["p"][w]["team"]:
        end_maneuver(state, ev)
        return
    if m["kind"] == "quest":
        # the winner may go on with the quest (even the blocker) or return
        state["pending"].insert(0, {"kind": "continue_quest", "seat": w})
        return
    apply_outcome(state, ev)
    end_maneuver(state, ev)


def apply_outcome(state: dict, ev: list) -> None:
    """A won siege destroys the tower level; a won capture takes the building."""
    m = state["maneuver"]
    init = m["init"]
    tgt = m["target"]
    if m["winner"] != init:
        return
    if m["kind"] == "siege":
        ev.append({"type": "tower_destroyed", "seat": 1 - init, "card": tgt, "name": S.cdef(state, tgt)["name_en"]})
        to_past(state, tgt, ev)
        m["target"] = None
    elif m["kind"] == "capture":
        for att in list(state["cards"][tgt].get("att", ())):
            to_past(state, att, ev)  # attached cards fall off when control changes
        S.move(state, tgt, "buildings", init)
        state["cards"][tgt]["ctrl"] = init
        ev.append({"type": "building_captured", "seat": init, "card": tgt, "name": S.cdef(state, tgt)["name_en"]})
        if len(state["p"][init]["buildings"]) > BUILDING_LIMIT:
            state["pending"].insert(0, {"kind": "destroy_building", "seat": init})


def solve_quest(state: dict, seat: int, cond: int, ev: list) -> None:
    """Solve the quest by condition ``cond``: pay, take the reward, the quest goes to the solver's solved pile."""
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
            to_past(state, att, ev)
    S.move(state, q, "solved", seat)
    state["cards"][q]["ctrl"] = seat
    ev.append({"type": "quest_solved", "seat": seat, "card": q, "name": d["name_en"], "condition": cond,
               "dp": d["dp"], "mp": d["mp"]})
    m["step"] = "solve_thread"
    open_phase_thread(state)
    for i, ab in enumerate(d["abilities"]):
        if ab["kind"] == "trigger" and ab["on"] == "solve":
            state["trig"].append({"seat": seat, "card": q, "ab": i})


def return_team(state: dict, seat: int, ev: list) -> None:
    """The seat's team goes back to the Row: resting, or injured if it took damage (the damage itself goes)."""
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


def end_maneuver(state: dict, ev: list) -> None:
    """End the maneuver: teams home, combat cards gone, a besieged level face down again."""
    m = state["maneuver"]
    for s in range(2):
        return_team(state, s, ev)
        for cid in list(state["p"][s]["events"]):
            if S.cdef(state, cid)["duration"] == "combat":
                to_past(state, cid, ev)
    if m["kind"] == "siege" and m["target"] is not None and m["was_hidden"]:
        if state["cards"][m["target"]]["zone"] == "towers":
            state["cards"][m["target"]]["up"] = False  # the level turns face down again
    ev.append({"type": "maneuver_ended", "kind": m["kind"], "winner": m["winner"]})
    state["maneuver"] = None
    state["prio"] = None
    state["passes"] = 0
    state["pending"] = [d for d in state["pending"] if d["kind"] in ("destroy_building",)]


#: maneuver step whose thread has closed -> what comes next
_NEXT_STEP: dict[str, Callable[[dict, list], None]] = {
    "init_thread": _after_init_thread,
    "reveal": _after_reveal,
    "obstacles": _after_obstacles,
    "block_thread": _after_block_thread,
    "prep": ask_ranks,
    "result": after_result,
    "solve_thread": end_maneuver,
    "rounds": _after_round_thread,
}
