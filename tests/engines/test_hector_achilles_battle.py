"""Hector and Achilles rules, part 2: the victory check (with the rulebook's example), hero saving, ties,
retreat and shame, the closing phase and the end of the game."""

from __future__ import annotations

import pytest

from engines import IllegalAction
from engines.hector_achilles import battle_score, rotate
from engines.hector_achilles.data import TILES
from tests.engines.test_hector_achilles_support import (
    ENGINE,
    act,
    arrange,
    check_conservation,
    deck_total,
    event,
    hero,
    new,
    position,
    set_deck,
    troop,
    types,
)


def finish(state: dict, card: str | None, seat0_facing: str, direction: str = "cw") -> list[dict]:
    """Play the defender's last card of round 4; if the fate tile must turn, turn it so that
    ``seat0_facing`` faces seat 0 for the victory check. Returns all events."""
    b = state["battle"]
    seat = b["turn"]
    events = act(state, seat, {"type": "play", "card": card} if card else {"type": "pass"})
    if state["phase"] == "rotate":
        target = TILES[b["tile"]].index(seat0_facing)
        b["orientation"] = rotate(target, "ccw" if direction == "cw" else "cw")
        events += act(state, b["rotator"], {"type": "rotate_fate", "direction": direction})
    return events


# ------------------------------------------------------------------------------------------- rulebook example

TOM = [troop(0, "yellow", 3), troop(0, "yellow", 4), troop(0, "yellow", 2), troop(0, "red", 1), troop(0, "blue", 2)]
LIN = [troop(1, "blue", 1), troop(1, "purple", 3), troop(1, "green", 1), troop(1, "red", 4), troop(1, "blue", 3)]


def _card(cid: str, token: bool = False, covered: bool = False) -> dict:
    _, _, colour, rest = cid.split("-")
    return {"colour": colour, "strength": int(rest[0]), "token": token, "covered": covered}


def test_rulebook_scoring_example_9_against_11():
    """Rulebook 5.4: Tom (yellow facing, unplayed Aias) scores 9; Lin (blue facing, Acamas played on a blue
    slinger, tokens on the purple spearman and the red hoplite) scores 11; the red token does not count."""
    tom = [_card(c) for c in TOM]
    lin = [_card(LIN[0], covered=True), _card(LIN[1], token=True), _card(LIN[2]), _card(LIN[3], token=True),
           _card(LIN[4])]
    aias = {"colour": "green", "value": 5}
    acamas = {"colour": "purple", "value": 4}
    assert battle_score(tom, aias, False, "yellow") == 9
    assert battle_score(lin, acamas, True, "blue") == 11


def _example_battle(seat0_facing_before: str) -> dict:
    state = new(11)
    return position(state, rnd=4, turn=1, tile="HA-FATE-3", seat0_facing=seat0_facing_before,
                    played=(TOM, LIN[:4]), hand=((), (LIN[4],)), hand_hero=(hero(0, "Aias"), None),
                    hero_on=(None, (hero(1, "Acamas"), 0)), tokens=((), (1, 3)))


def test_rulebook_example_tom_scores_9_in_a_real_battle():
    state = _example_battle("brown")
    events = finish(state, LIN[4], "yellow")
    revealed = event(events, "heroes_revealed")["heroes"]
    assert revealed == [{"name": "Aias", "colour": "green", "value": 5}, None]
    scored = event(events, "battle_scored")
    # the decision tiles put red opposite yellow, so Lin faces red here: Acamas 4 + purple 3+1 + red 4+1
    assert scored["scores"] == [9, 13] and scored["winner"] == 1
    assert scored["scoring_colours"] == [["yellow", "green"], ["red", "purple"]]


def test_rulebook_example_lin_scores_11_in_a_real_battle():
    state = _example_battle("brown")
    events = finish(state, LIN[4], "brown")  # blue faces Lin; Tom faces brown and scores nothing
    scored = event(events, "battle_scored")
    assert scored["scores"] == [0, 11] and scored["winner"] == 1


def test_winner_takes_back_everything_and_loser_loses_played_troops():
    state = _example_battle("brown")
    lin_active = len(state["players"][1]["decks"]["1"])
    finish(state, LIN[4], "yellow")
    tom, lin = state["players"]
    # Lin won: five troops (vanguard included) back to her active deck, Acamas and both tokens back
    assert len(lin["decks"]["1"]) == lin_active + 5 and set(LIN) <= set(lin["decks"]["1"])
    assert hero(1, "Acamas") in lin["heroes"] and lin["favour"] == 3 and lin["battles_won"] == 1
    # Tom lost: his five played troops are out of the game, his unplayed Aias returns to the hero deck
    assert set(TOM) <= set(tom["removed"]) and hero(0, "Aias") in tom["heroes"]
    assert len(tom["heroes"]) == 6
    assert state["last_battle"]["troops_lost"] == [5, 0]
    check_conservation(state)


def test_battle_winner_attacks_next():
    state = _example_battle("brown")
    events = finish(state, LIN[4], "yellow")
    assert event(events, "battle_started")["attacker"] == 1
    assert ENGINE.to_act(state) == [1] and state["phase"] == "vanguard"


# ------------------------------------------------------------------------------------------- hero of the loser

A_PLAYED = [troop(0, "red", 1), troop(0, "red", 2), troop(0, "green", 1), troop(0, "green", 2), troop(0, "blue", 1)]
T_PLAYED = [troop(1, "yellow", 4), troop(1, "yellow", 3), troop(1, "yellow", 2), troop(1, "red", 4)]
T_LAST = troop(1, "yellow", 1)


def _achaeans_lose(favour_placed=(1,), spare_favour=True) -> dict:
    """Round 4, the Trojans play last; yellow faces them, the Achaeans played Achilles (red) on slot 0."""
    state = new(4)
    position(state, rnd=4, turn=1, played=(A_PLAYED, T_PLAYED), hand=((), (T_LAST,)),
             hero_on=((hero(0, "Achilles"), 0), None), hand_hero=(None, hero(1, "Paris")),
             tokens=(favour_placed, ()))
    if not spare_favour:
        p = state["players"][0]
        p["favour_lost"] += p["favour"]
        p["favour"] = 0
    return state


def test_loser_chooses_whether_to_spend_a_favour_token_on_his_played_hero():
    state = _achaeans_lose()
    events = finish(state, T_LAST, "red")  # Achaeans red: Achilles 6 + red 2+1 = 9; Trojans 4+3+2+1 = 10
    assert event(events, "battle_scored")["scores"] == [9, 10]
    assert event(events, "hero_in_danger") == {"type": "hero_in_danger", "seat": 0,
                                               "hero": {"name": "Achilles", "colour": "red", "value": 6}}
    assert state["phase"] == "save_hero" and ENGINE.to_act(state) == [0]
    assert ENGINE.legal_actions(state, 0) == [{"type": "save_hero"}, {"type": "abandon_hero"}]
    assert ENGINE.view(state, None)["decision"] == {"seat": 0, "kind": "save_hero"}
    with pytest.raises(IllegalAction, match="save your hero"):
        act(state, 0, {"type": "retreat"})
    events = act(state, 0, {"type": "save_hero"})
    p = state["players"][0]
    assert event(events, "hero_saved")["hero"]["name"] == "Achilles"
    assert hero(0, "Achilles") in p["heroes"] and p["lost_heroes"] == []
    # one token spent on the rescue, the placed one lost: 1 of 3 left
    assert (p["favour"], p["favour_lost"]) == (1, 2)
    assert state["last_battle"]["heroes"][0]["saved"] is True
    check_conservation(state)


def test_loser_may_let_the_hero_go():
    state = _achaeans_lose()
    finish(state, T_LAST, "red")
    events = act(state, 0, {"type": "abandon_hero"})
    p = state["players"][0]
    assert event(events, "hero_lost")["hero"]["name"] == "Achilles"
    assert p["lost_heroes"] == [hero(0, "Achilles")] and len(p["heroes"]) == 5
    assert (p["favour"], p["favour_lost"]) == (2, 1)
    assert ENGINE.view(state, None)["sides"][0]["lost_heroes"] == [
        {"name": "Achilles", "colour": "red", "value": 6}]


def test_loser_without_a_spare_token_loses_his_played_hero_at_once():
    state = _achaeans_lose(spare_favour=False)
    events = finish(state, T_LAST, "red")
    assert "hero_in_danger" not in types(events)
    assert event(events, "hero_lost")["seat"] == 0 and state["phase"] == "vanguard"
    assert state["players"][0]["lost_heroes"] == [hero(0, "Achilles")]


def test_unplayed_hero_colour_scores_but_its_value_does_not():
    state = new(4)
    position(state, rnd=4, turn=1, played=(A_PLAYED, T_PLAYED), hand=((), (T_LAST,)),
             hand_hero=(hero(0, "Aias"), hero(1, "Paris")))
    events = finish(state, T_LAST, "red")
    # Achaeans: red 1 + red 2 (fate) + green 1 + green 2 (Aias's colour) = 6; Aias's 5 does not count
    # Trojans: yellow faces them: 4 + 3 + 2 + 1 = 10; Paris (brown) is not played
    assert event(events, "battle_scored")["scores"] == [6, 10]


def test_favour_tokens_count_only_on_scoring_cards():
    state = new(4)
    position(state, rnd=4, turn=1, played=(A_PLAYED, T_PLAYED), hand=((), (T_LAST,)),
             hero_on=((hero(0, "Achilles"), 4), None), hand_hero=(None, hero(1, "Paris")), tokens=((1, 2), ()))
    events = finish(state, T_LAST, "red")
    # red 1 + red 2+1 + Achilles 6; the token on the green slinger does not score
    assert event(events, "battle_scored")["scores"][0] == 10


# ------------------------------------------------------------------------------------------- tie


def test_tie_returns_everything_and_the_defender_attacks_next():
    state = new(4)
    a_played = [troop(0, "red", 4), troop(0, "red", 3), troop(0, "red", 2), troop(0, "blue", 1),
                troop(0, "blue", 2)]
    t_played = [troop(1, "yellow", 4), troop(1, "yellow", 3), troop(1, "yellow", 2), troop(1, "green", 1)]
    last = troop(1, "yellow", 1)
    position(state, rnd=4, turn=1, played=(a_played, t_played), hand=((), (last,)),
             hero_on=((hero(0, "Odysseus"), 3), (hero(1, "Paris"), 3)), hand_hero=(None, None), tokens=((4,), ()))
    before = [deck_total(state, s) for s in (0, 1)]
    events = finish(state, last, "red")
    # Achaeans (red): 4+3+2 + Odysseus 4 = 13, the token sits on a blue card; Trojans (yellow): 4+3+2+1 + Paris 3
    scored = event(events, "battle_scored")
    assert scored == {"type": "battle_scored", "scores": [13, 13], "winner": None,
                      "scoring_colours": [["red", "brown"], ["yellow", "brown"]]}
    assert [deck_total(state, s) for s in (0, 1)] == [before[0] + 5, before[1] + 5]
    for seat, name in ((0, "Odysseus"), (1, "Paris")):
        p = state["players"][seat]
        assert hero(seat, name) in p["heroes"] and p["favour"] == 3 and p["removed"] == []
        assert p["battles_won"] == 0
    assert event(events, "battle_ended")["kind"] == "tie"
    assert event(events, "battle_started")["attacker"] == 1  # the tied battle's defender
    check_conservation(state)


# ------------------------------------------------------------------------------------------- retreat

R_A_PLAYED = [troop(0, "red", 1), troop(0, "red", 2), troop(0, "red", 3)]
R_A_HAND = [troop(0, "blue", 3), troop(0, "blue", 4)]
R_T_PLAYED = [troop(1, "yellow", 1), troop(1, "yellow", 2), troop(1, "yellow", 3)]
R_T_HAND = [troop(1, "green", 1), troop(1, "green", 2)]


def _retreat_position(seed: int = 6, a_hero_on=None, a_hand_hero="HA-A-Aias") -> dict:
    state = new(seed)
    return position(state, rnd=3, turn=0, played=(R_A_PLAYED, R_T_PLAYED), hand=(R_A_HAND, R_T_HAND),
                     hand_hero=(a_hand_hero, None), hero_on=(a_hero_on, (hero(1, "Hector"), 2)),
                     tokens=((), (0,)))


def test_retreat_gives_the_battle_to_the_opponent():
    state = _retreat_position()
    a_deck, t_deck = (len(state["players"][s]["decks"]["1"]) for s in (0, 1))
    events = act(state, 0, {"type": "retreat"})
    assert types(events)[:4] == ["retreated", "shame_taken", "battle_ended", "battle_started"]
    assert event(events, "battle_ended") == {"type": "battle_ended", "kind": "retreat", "winner": 1,
                                             "troops_lost": [3, 0]}
    a, t = state["players"]
    # the winner: played and hand troops to his active deck, hero to the hero deck, token to the reserve
    assert len(t["decks"]["1"]) == t_deck + 5 and set(R_T_PLAYED + R_T_HAND) <= set(t["decks"]["1"])
    assert hero(1, "Hector") in t["heroes"] and t["favour"] == 3 and t["battles_won"] == 1
    # the retreating player: played troops lost, hand troops back, hand hero back, a shame token
    assert set(R_A_PLAYED) <= set(a["removed"]) and set(R_A_HAND) <= set(a["decks"]["1"])
    assert len(a["decks"]["1"]) == a_deck + 2
    assert hero(0, "Aias") in a["heroes"] and a["shame"] == 1 and state["shame_pool"] == 5
    record = state["last_battle"]
    assert record["kind"] == "retreat" and record["retreated"] == 0 and record["scores"] is None
    assert record["heroes"] == [None, {"name": "Hector", "colour": "blue", "value": 6, "played": True,
                                       "saved": None}]  # a hand hero is not revealed on a retreat
    assert event(events, "battle_started")["attacker"] == 1
    check_conservation(state)


def test_shame_costs_as_many_troops_as_shame_tokens_held():
    # the order (hand back first, then the active deck's top, then the home deck): test_hector_achilles_rules2
    state = _retreat_position()
    a = state["players"][0]
    a["shame"], state["shame_pool"] = 2, 4
    events = act(state, 0, {"type": "retreat"})
    assert event(events, "shame_losses") == {"type": "shame_losses", "seat": 0, "count": 2}
    assert not set(R_A_HAND) & set(a["removed"])  # the active deck had enough: he keeps the cards of his hand
    assert a["shame"] == 3 and state["shame_pool"] == 3
    assert state["last_battle"]["troops_lost"] == [5, 0]
    check_conservation(state)


def test_no_fourth_shame_token_but_the_losses_grow():
    state = _retreat_position()
    a = state["players"][0]
    a["shame"], state["shame_pool"] = 3, 3
    events = act(state, 0, {"type": "retreat"})
    assert event(events, "shame_losses")["count"] == 3
    assert "shame_taken" not in types(events)
    assert a["shame"] == 3 and state["shame_pool"] == 3 and len(a["removed"]) == 6


def test_retreating_player_may_save_his_played_hero_with_a_favour_token():
    state = _retreat_position(a_hero_on=(hero(0, "Aias"), 0), a_hand_hero=None)
    events = act(state, 0, {"type": "retreat"})
    assert event(events, "hero_in_danger")["seat"] == 0 and ENGINE.to_act(state) == [0]
    act(state, 0, {"type": "save_hero"})
    a = state["players"][0]
    assert hero(0, "Aias") in a["heroes"] and (a["favour"], a["favour_lost"]) == (2, 1)
    assert a["shame"] == 1
    check_conservation(state)


def test_retreat_is_possible_until_the_fourth_round_ends():
    state = new(2)
    position(state, rnd=4, turn=1, played=(A_PLAYED, T_PLAYED), hand=((), (T_LAST,)))
    assert {"type": "retreat"} in ENGINE.legal_actions(state, 1)
    events = act(state, 1, {"type": "retreat"})
    assert event(events, "battle_ended")["winner"] == 0


# ------------------------------------------------------------------------------------------- closing


def test_short_front_deck_is_eliminated_onto_the_home_deck():
    state = _example_battle("brown")
    rest = state["players"][0]["decks"]["1"][:3]
    set_deck(state, 0, "1", rest)
    home_before = len(state["players"][0]["decks"]["home"])
    events = finish(state, LIN[4], "yellow")
    tom = state["players"][0]
    assert event(events, "deck_eliminated") == {"type": "deck_eliminated", "seat": 0, "deck": "1"}
    assert tom["decks"]["1"] == [] and tom["eliminated"] == ["1"]
    assert set(rest) <= set(tom["decks"]["home"]) and len(tom["decks"]["home"]) == home_before + 3
    assert ENGINE.view(state, None)["sides"][0]["decks"]["1"] == {"size": 0, "eliminated": True}
    assert state["phase"] == "vanguard"  # the game goes on
    check_conservation(state)


def test_deck_with_five_cards_survives():
    state = _example_battle("brown")
    set_deck(state, 0, "1", state["players"][0]["decks"]["1"][:5])
    finish(state, LIN[4], "yellow")
    assert state["players"][0]["eliminated"] == []


def _eliminate(state: dict, seat: int, deck: str) -> None:
    p = state["players"][seat]
    p["decks"]["home"] += p["decks"][deck]
    p["decks"][deck] = []
    p["eliminated"].append(deck)


def test_losing_all_three_front_decks_loses_the_game():
    state = _example_battle("brown")
    _eliminate(state, 0, "2")
    _eliminate(state, 0, "3")
    set_deck(state, 0, "1", state["players"][0]["decks"]["1"][:2])
    events = finish(state, LIN[4], "yellow")
    assert event(events, "game_over") == {"type": "game_over", "winner": 1, "reason": "front_decks_lost"}
    assert ENGINE.to_act(state) == [] and state["phase"] == "over"
    result = ENGINE.result(state)
    assert result["places"] == [2, 1] and result["reason"] == "front_decks_lost"
    assert result["scores"] == [deck_total(state, 0), deck_total(state, 1)]
    assert result["battles_won"] == [0, 1]
    with pytest.raises(IllegalAction, match="game is over"):
        act(state, 1, {"type": "take_vanguard", "deck": "1"})
    check_conservation(state)


def test_home_deck_below_five_after_a_home_battle_loses_the_game():
    state = new(11)
    position(state, rnd=4, turn=1, active=("home", "1"), tile="HA-FATE-3", seat0_facing="brown",
             played=(TOM, LIN[:4]), hand=((), (LIN[4],)), hand_hero=(hero(0, "Aias"), None),
             hero_on=(None, (hero(1, "Acamas"), 0)), tokens=((), (1, 3)))
    set_deck(state, 0, "home", state["players"][0]["decks"]["home"][:4])
    events = finish(state, LIN[4], "yellow")
    assert event(events, "game_over") == {"type": "game_over", "winner": 1, "reason": "home_deck_exhausted"}
    assert ENGINE.result(state)["places"] == [2, 1]


def _both_short(t_played: list[str], seat0_facing: str) -> dict:
    """Both armies fight from an empty home deck; the Trojans have no card left to play in round 4."""
    state = new(12)
    position(state, rnd=4, turn=1, active=("home", "home"), tile="HA-FATE-3", seat0_facing=seat0_facing,
             played=(TOM[:3], t_played))
    set_deck(state, 0, "home", [])
    set_deck(state, 1, "home", [])
    return state


def test_both_armies_lost_the_battle_winner_wins_the_game():
    # Achaeans yellow 3+4+2 = 9 win the battle against red 4; both home decks end below five
    state = _both_short([troop(1, "red", 4), troop(1, "blue", 1), troop(1, "blue", 3)], "yellow")
    events = finish(state, None, "yellow")
    assert event(events, "battle_scored")["scores"] == [9, 4]
    assert event(events, "game_over")["winner"] == 0
    assert ENGINE.result(state)["places"] == [1, 2]


def test_both_armies_lost_after_a_tied_battle_is_a_draw():
    state = _both_short([troop(1, "red", 4), troop(1, "red", 3), troop(1, "red", 2)], "yellow")
    events = finish(state, None, "yellow")
    assert event(events, "battle_scored")["winner"] is None
    assert event(events, "game_over") == {"type": "game_over", "winner": None, "reason": "draw"}
    result = ENGINE.result(state)
    assert result["places"] == [1, 1] and result["reason"] == "draw"


def test_an_army_without_any_troop_card_loses():
    state = _example_battle("brown")
    p = state["players"][0]
    for deck in p["decks"].values():
        p["removed"] += deck
        deck.clear()
    events = finish(state, LIN[4], "yellow")
    assert event(events, "game_over") == {"type": "game_over", "winner": 1, "reason": "no_troops"}


def test_used_fate_tile_is_set_aside_and_the_stack_reshuffled_when_empty():
    state = _example_battle("brown")
    stack = len(state["fate_stack"])
    finish(state, LIN[4], "yellow")
    assert state["fate_used"] == ["HA-FATE-3"] and len(state["fate_stack"]) == stack
    state = _example_battle("brown")
    state["fate_used"], state["fate_stack"] = state["fate_stack"], []
    events = finish(state, LIN[4], "yellow")
    assert "fate_reshuffled" in types(events)
    assert len(state["fate_stack"]) == 6 and state["fate_used"] == []
    check_conservation(state)


def test_used_deck_and_hero_deck_are_shuffled():
    state = _example_battle("brown")
    lin = state["players"][1]
    unshuffled_deck = LIN + lin["decks"]["1"]
    unshuffled_heroes = lin["heroes"] + [hero(1, "Acamas")]
    finish(state, LIN[4], "yellow")
    assert sorted(lin["decks"]["1"]) == sorted(unshuffled_deck) and lin["decks"]["1"] != unshuffled_deck
    assert sorted(lin["heroes"]) == sorted(unshuffled_heroes) and lin["heroes"] != unshuffled_heroes


def test_vanguard_from_another_deck_goes_back_to_the_active_deck():
    state = new(3)
    vanguard = troop(0, "yellow", 1)
    arrange(state, 0, d3=[vanguard])
    act(state, 0, {"type": "take_vanguard", "deck": "3"})
    assert state["battle"]["active"] == ["1", "1"]
    act(state, 0, ENGINE.legal_actions(state, 0)[0])
    act(state, 0, {"type": "play", "card": state["battle"]["hand"][0][0]})
    act(state, 1, {"type": "retreat"})
    p = state["players"][0]
    # deck 1: 12 - 4 drawn + vanguard, one played troop and three hand troops back = 13; deck 3 keeps 11
    assert vanguard in p["decks"]["1"] and len(p["decks"]["1"]) == 13 and len(p["decks"]["3"]) == 11
