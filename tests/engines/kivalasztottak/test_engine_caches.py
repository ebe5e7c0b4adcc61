"""The engine keeps facts about a game's zones between actions (for speed); a hand edit followed by ``forget``
must be seen, as the contract of ``BaseEngine.forget`` promises (searches that guess hidden cards rely on it)."""

from __future__ import annotations

from engines.kivalasztottak import state as S

from .helpers import E, act, add, blank, pass_


def test_towers_removed_by_hand_end_the_game_after_forget():
    st = blank()
    pass_(st)  # the immediate-win check has now looked at this position
    p = st["p"][1]
    for tid in p["towers"]:  # edited by hand, not through take/put
        st["cards"][tid]["zone"] = "past"
        p["past"].append(tid)
    p["towers"] = []
    E.forget(st)
    pass_(st)
    assert st["result"] is not None
    assert st["result"]["winner"] == 0 and st["result"]["reason"] == "towers"


def test_a_card_key_changed_by_hand_gets_its_number_after_forget():
    st = blank()
    add(st, 0, "vadasz", "row")
    other = add(st, 0, "csapdaallito", "row")
    act(st, 0, {"type": "maneuver", "kind": "siege"})  # the labels of this Row (none) are now known
    st["cards"][other]["k"] = "vadasz"  # a guess about a card, as a search would make
    E.forget(st)
    ev = act(st, 0, {"type": "team_add", "card": other})
    hunter = S.cdef(st, other)["name_en"]
    assert ev[0]["type"] == "team_joined" and ev[0]["card_name"] == f"{hunter} #2"
