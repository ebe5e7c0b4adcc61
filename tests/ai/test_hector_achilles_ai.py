"""The Hector and Achilles heuristic AI: strength against the random player, sensible single decisions on
hand-built positions, and decisions that depend only on what the seat may see."""

from __future__ import annotations

import copy

from ai import AI_PLAYERS, random_player
from ai import hector_achilles as H
from ai.arena import win_rate
from engines.hector_achilles import facing_colours
from engines.rng import Rng
from tests.engines.test_hector_achilles_support import ENGINE, act, arrange, hero, new, position, troop


def _choose(state, seat):
    action = H.choose(ENGINE, state, seat, Rng(1))
    assert action in ENGINE.legal_actions(state, seat)
    return action


def test_registered_for_the_game():
    assert AI_PLAYERS["hector-achilles"] is H.choose


def test_beats_the_random_player_at_least_four_games_in_five():
    rate = win_rate(ENGINE, H.choose, random_player, 200)
    assert rate >= 0.8, rate


def test_final_turn_of_the_fate_tile_goes_toward_its_own_colours():
    state = new(5)
    # the Achaeans hold a yellow army and Agamemnon (yellow); HA-FATE-3 is blue, yellow, brown, red
    position(state, rnd=4, turn=1, tile="HA-FATE-3", seat0_facing="blue",
             played=([troop(0, "yellow", 4), troop(0, "yellow", 3), troop(0, "red", 4), troop(0, "red", 3),
                      troop(0, "yellow", 2)],
                     [troop(1, "blue", 1), troop(1, "green", 1), troop(1, "brown", 1), troop(1, "purple", 1)]),
             hand=((), (troop(1, "purple", 2),)), hand_hero=(hero(0, "Menelaos"), None))
    act(state, 1, {"type": "play", "card": troop(1, "purple", 2)})
    assert state["phase"] == "rotate" and ENGINE.to_act(state) == [0]
    action = _choose(state, 0)
    act(state, 0, action)
    assert state["last_battle"]["fate"]["facing"][0] in ("yellow", "red")
    # red scores 7 and yellow 9 on the table: the AI turns yellow toward itself
    assert state["last_battle"]["fate"]["facing"][0] == "yellow"


def test_hero_covers_a_cheap_off_colour_card():
    state = new(5)
    position(state, rnd=2, turn=0, tile="HA-FATE-1", seat0_facing="red",
             played=([troop(0, "red", 4), troop(0, "blue", 1)], [troop(1, "yellow", 2), troop(1, "green", 1)]),
             hand=([troop(0, "red", 3), troop(0, "green", 4), troop(0, "green", 2)],
                   [troop(1, "purple", 2), troop(1, "yellow", 3), troop(1, "red", 1)]),
             hand_hero=(hero(0, "Achilles"), hero(1, "Paris")))
    assert _choose(state, 0) == {"type": "play_hero", "on": troop(0, "blue", 1)}


def test_never_discards_troops_and_plays_off_colour_cards_first():
    state = new(5)
    position(state, rnd=1, turn=0, tile="HA-FATE-1", seat0_facing="red",
             played=([troop(0, "red", 4)], [troop(1, "yellow", 2)]),
             hand=([troop(0, "red", 3), troop(0, "blue", 1), troop(0, "green", 4), troop(0, "red", 2)],
                   [troop(1, "purple", 2), troop(1, "yellow", 3), troop(1, "red", 1), troop(1, "red", 2)]),
             hand_hero=(hero(0, "Achilles"), hero(1, "Paris")))
    assert _choose(state, 0) == {"type": "play", "card": troop(0, "blue", 1)}


def test_lays_the_fate_tile_with_the_vanguard_colour_toward_itself():
    state = new(5)
    arrange(state, 0, d1=[troop(0, "purple", 1)])
    state["fate_stack"].remove("HA-FATE-2")
    state["fate_stack"].insert(0, "HA-FATE-2")  # green, blue, purple, brown
    act(state, 0, {"type": "take_vanguard", "deck": "1"})
    assert _choose(state, 0) == {"type": "orient_fate", "colour": "purple"}


def test_after_a_four_it_attacks_where_the_enemy_is_weak():
    state = new(5)
    p1 = state["players"][1]
    p1["decks"]["home"] += p1["decks"]["3"][:6]
    p1["decks"]["3"] = p1["decks"]["3"][6:]  # the Trojan deck 3 holds only 6 cards
    arrange(state, 0, d1=[troop(0, "blue", 4)])
    act(state, 0, {"type": "take_vanguard", "deck": "1"})
    assert _choose(state, 0) == {"type": "choose_active", "deck": "3"}


def test_takes_the_vanguard_from_its_biggest_front_deck():
    state = new(5)
    p0 = state["players"][0]
    p0["decks"]["home"] += p0["decks"]["2"][:5] + p0["decks"]["3"][:3]
    p0["decks"]["2"], p0["decks"]["3"] = p0["decks"]["2"][5:], p0["decks"]["3"][3:]
    p0["decks"]["1"].append(p0["decks"]["home"].pop())
    assert _choose(state, 0) == {"type": "take_vanguard", "deck": "1"}


def test_saves_a_strong_hero():
    state = new(4)
    # the Trojans turn HA-FATE-3 clockwise: yellow (10 points) faces them, red faces the Achaeans (Achilles 6)
    position(state, rnd=4, turn=1, seat0_facing="blue",
             played=([troop(0, "blue", 1), troop(0, "blue", 2), troop(0, "green", 1), troop(0, "green", 2),
                      troop(0, "purple", 1)],
                     [troop(1, "yellow", 4), troop(1, "yellow", 3), troop(1, "yellow", 2), troop(1, "red", 4)]),
             hand=((), (troop(1, "yellow", 1),)), hero_on=((hero(0, "Achilles"), 0), None))
    act(state, 1, {"type": "play", "card": troop(1, "yellow", 1)})
    if state["phase"] == "rotate":
        act(state, 1, {"type": "rotate_fate", "direction": "cw"})
    assert state["phase"] == "save_hero"
    assert _choose(state, 0) == {"type": "save_hero"}


def test_retreats_from_a_hopeless_battle():
    state = new(4)
    tile, facing = "HA-FATE-3", "yellow"
    position(state, rnd=2, turn=0, tile=tile, seat0_facing=facing,
             played=([troop(0, "green", 1), troop(0, "purple", 1)],
                     [troop(1, "red", 4), troop(1, "red", 3)]),
             hand=([troop(0, "green", 2), troop(0, "purple", 2), troop(0, "brown", 1)],
                   [troop(1, "red", 4, "b"), troop(1, "red", 3, "b"), troop(1, "red", 2)]),
             hand_hero=(hero(0, "Odysseus"), None), hero_on=(None, (hero(1, "Sarpedon"), 1)))
    state["battle"]["played"][1][0]["token"] = True
    state["players"][1]["favour"] -= 1
    assert facing_colours(tile, state["battle"]["orientation"]) == ["yellow", "red"]
    assert _choose(state, 0) == {"type": "retreat"}


def test_decisions_use_only_what_the_seat_may_see():
    """Changing hidden things (the enemy hand and hero, every deck's order) never changes the choice."""
    for seed in range(8):
        state = new(seed)
        rng = Rng(seed)
        steps = 0
        while ENGINE.to_act(state) and steps < 120:
            seat = ENGINE.to_act(state)[0]
            choice = H.choose(ENGINE, state, seat, Rng(9))
            other = copy.deepcopy(state)
            b = other["battle"]
            enemy = 1 - seat
            for deck in other["players"][enemy]["decks"].values():
                deck.reverse()
            for deck in other["players"][seat]["decks"].values():
                deck.reverse()
            other["players"][enemy]["heroes"].reverse()
            if b and b["hand"][enemy]:
                # trade the enemy's hand for cards of his home deck (same number of cards)
                home = other["players"][enemy]["decks"]["home"]
                n = min(len(home), len(b["hand"][enemy]))
                b["hand"][enemy][:n], home[:n] = home[:n], b["hand"][enemy][:n]
            if b and b["hand_hero"][enemy] and other["players"][enemy]["heroes"]:
                heroes = other["players"][enemy]["heroes"]
                b["hand_hero"][enemy], heroes[0] = heroes[0], b["hand_hero"][enemy]
            assert H.choose(ENGINE, other, seat, Rng(9)) == choice
            ENGINE.apply(state, seat, random_player(ENGINE, state, seat, rng))
            steps += 1
