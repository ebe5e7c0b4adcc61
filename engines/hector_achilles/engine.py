"""Hector and Achilles: the rules engine (Phalanx Games rulebook, Hungarian edition; see
``shared/rules/hector-achilles.md`` for the English digest).

The state is one JSON-compatible dict. A game is a series of battles; each battle runs through the phases

``vanguard`` (attacker takes a vanguard) -> ``choose_active`` (only after a 4) -> ``orient`` (attacker lays the
fate tile) -> ``turn`` (four individual rounds, attacker first) with ``rotate`` after a round whose strength
totals differ -> victory check -> ``save_hero`` (only when the loser may spend a favour token on a played hero)
-> closing, and the next battle starts, until one side has lost its front decks or its home deck ("over").

Decisions the rulebook leaves open (all documented where they are implemented):

* A turned-up hero's own value never counts; a played hero always counts its value (its colour scores).
* Retreat Shame losses (book 5.4): the hand goes back to the active deck first, then the losses are taken
  from the top of the active deck, then of the home deck. The hand goes *under* the active deck, so the
  cards lost are the deck's own while it has enough (4.0: the retreating player keeps his hand); only "the
  top cards" is our decision. (Rules version 1 took the losses before the hand went back.)
* A home deck that was used in a battle - as the active deck, or drawn from for a vanguard, a hand card, a
  replacement card or a Shame loss - and ran out or holds fewer than 5 cards at the closing loses the war
  (book 4.0 note, 5.5; rules version 1 checked it only as the active deck).
* Fate tiles (data/hector_achilles/fate_tiles.json): opposite edges give 12 different colour pairs; games
  begun under rules version 1 keep its layout (fate_tiles_v1.json).
* A retreat reveals no hero still in hand (the book reveals heroes only at the victory check).
* Swapped-out troops are discarded face down (hidden): bluffing is central to the game.
* A player without a troop card in hand (only possible with nearly empty decks) ends his individual round
  with ``pass``; an army with no troop card left anywhere loses the game at the closing (``no_troops``).
* Both players losing in the same closing: the battle's winner wins the game; after a tied battle it is a draw.
"""

from __future__ import annotations

from collections.abc import Callable

from engines.base import BaseEngine, _copy
from engines.protocol import IllegalAction
from engines.rng import Rng

from .data import (
    DECK_KEYS,
    FRONT_DECKS,
    HEROES,
    HOME,
    RULES,
    SIDES,
    TILES,
    TILES_BY_VERSION,
    TROOPS,
    hero_face,
    side_heroes,
    side_troops,
    troop_face,
)

GAME_KEY = "hector-achilles"

VANGUARD, CHOOSE_ACTIVE, ORIENT, TURN, ROTATE, SAVE_HERO, OVER = (
    "vanguard", "choose_active", "orient", "turn", "rotate", "save_hero", "over")

OPTIONAL_TYPES = ("swap_card", "swap_hero", "play_hero", "reinforce", "retreat")
ACTION_TYPES = ("take_vanguard", "choose_active", "orient_fate", *OPTIONAL_TYPES, "play", "pass",
                "rotate_fate", "save_hero", "abandon_hero")

DECISION_KIND = {VANGUARD: "take_vanguard", CHOOSE_ACTIVE: "choose_active", ORIENT: "orient_fate",
                 ROTATE: "rotate_fate", SAVE_HERO: "save_hero"}

MIN_DECK = RULES["min_deck_after_battle"]
ROUNDS = RULES["rounds"]
HAND_TROOPS = RULES["hand_troops"]
MAX_SHAME = RULES["max_shame_per_player"]


# ---------------------------------------------------------------------------------------------- pure helpers

def facing_colours(tile_id: str, orientation: int, tiles: dict[str, list[str]] | None = None) -> list[str]:
    """[colour facing seat 0, colour facing seat 1]. ``orientation`` is the index (into the tile's clockwise
    colour list) of the edge facing seat 0; the opposite edge (index + 2) faces seat 1. ``tiles``: the layout
    (default: the current rules'; a game of an older rules version passes its own)."""
    colours = (TILES if tiles is None else tiles)[tile_id]
    return [colours[orientation % 4], colours[(orientation + 2) % 4]]


def _tiles(state: dict) -> dict[str, list[str]]:
    """The fate-tile layout of the rules the game began with."""
    return TILES_BY_VERSION[state.get("rules_version", 1)]


def _book_order(state: dict) -> bool:
    """Rules version 2 on: the home deck loses whenever it was used, and Shame losses follow the hand's return
    (book 4.0 note, 5.4, 5.5). Games begun under version 1 finish with the rules they started with."""
    return state.get("rules_version", 1) >= 2


def rotate(orientation: int, direction: str) -> int:
    """Orientation after turning the tile 90 degrees, seen from above with seat 0 at the bottom: clockwise
    brings the edge on seat 0's right (the next-but-two in clockwise order) in front of seat 0."""
    return (orientation - 1) % 4 if direction == "cw" else (orientation + 1) % 4


def strength_total(played: list[dict], hero: dict | None) -> int:
    """Fate-phase strength: every counting played card (uncovered troops with their +1 tokens and a played
    hero's value); colours are ignored. ``played`` items carry strength/token/covered, ``hero`` a value."""
    total = sum(c["strength"] + (1 if c["token"] else 0) for c in played if not c["covered"])
    return total + (hero["value"] if hero else 0)


def battle_score(played: list[dict], hero: dict | None, hero_played: bool, facing: str) -> int:
    """Victory-check score: counting played cards whose colour is the fate colour facing the side or its
    hero's colour; +1 tokens only on scoring cards. The hero's colour scores even when the hero was not
    played, but an unplayed hero's own value does not count (rulebook 5.4, Tom's Aias)."""
    scoring = {facing}
    if hero:
        scoring.add(hero["colour"])
    total = sum(c["strength"] + (1 if c["token"] else 0)
                for c in played if not c["covered"] and c["colour"] in scoring)
    if hero and hero_played:
        total += hero["value"]
    return total


#: how a removed troop card left the game, as seen at the table (``players[s]["removed_how"]``, one entry per
#: card of ``removed``): lost face up in a battle (seen by both), swapped out face down (seen by its owner
#: only), taken face down from the top of a deck as a Shame loss (seen by nobody); "unknown" for the cards of
#: a game saved before this was kept (``removed_how`` missing), to be treated as seen by nobody.
#: Bookkeeping of what each seat saw, not a rule: the determinizer (``determinize.py``) reads it.
REMOVED_HOW = ("battle", "swap", "shame", "unknown")


def removed_how(p: dict) -> list[str]:
    """How each card of ``p["removed"]`` left the game (see :data:`REMOVED_HOW`), oldest first."""
    how = p.get("removed_how") or []
    return ["unknown"] * (len(p["removed"]) - len(how)) + list(how)


def _remove(p: dict, cards: list[str], how: str) -> None:
    if "removed_how" in p:  # a game saved without it stays as it was: its removed troops count as unseen
        p["removed_how"] = removed_how(p) + [how] * len(cards)
    p["removed"].extend(cards)


class HectorAchillesEngine(BaseEngine):
    """Two seats: 0 = Achaeans (first attacker), 1 = Trojans. No options."""

    key = GAME_KEY
    title = "Hector and Achilles"
    min_players = 2
    max_players = 2
    #: 2: the fate tiles give 12 different opposite pairs; a home deck used in any way is checked at the closing;
    #: Shame losses are taken after the hand goes back. Version-1 games keep their rules (``_tiles``, ``_book_order``).
    rules_version = 2
    #: undo within a turn (issue 25): a Divine Favour token laid on a troop card and the turn of the fate tile
    #: show nothing hidden; a card played, swapped or drawn, a hero shown or a retreat are final
    take_back = frozenset({"reinforce", "rotate_fate"})

    # ------------------------------------------------------------------------------------------- set-up

    def new_game(self, num_players: int, seed: int, options: dict | None = None) -> dict:
        if num_players != 2:
            raise ValueError("Hector and Achilles is a game for exactly 2 players.")
        if options:
            raise ValueError(f"Hector and Achilles has no options; unknown: {', '.join(sorted(map(str, options)))}.")
        rng = Rng(seed)
        players = []
        size = RULES["deck_size"]
        for seat in (0, 1):
            troops = side_troops(seat)
            rng.shuffle(troops)
            heroes = side_heroes(seat)
            rng.shuffle(heroes)
            players.append({
                "decks": {k: troops[i * size:(i + 1) * size] for i, k in enumerate(DECK_KEYS)},
                "eliminated": [],
                "heroes": heroes,
                "lost_heroes": [],
                "removed": [],
                "removed_how": [],
                "favour": SIDES[seat]["favour_tokens"],
                "favour_lost": 0,
                "shame": 0,
                "battles_won": 0,
            })
        tiles = list(TILES)
        rng.shuffle(tiles)
        state = {
            "rules_version": self.rules_version,
            "rng": rng.state,
            "phase": VANGUARD,
            "battle_no": 0,
            "players": players,
            "shame_pool": RULES["shame_pool"],
            "fate_stack": tiles,
            "fate_used": [],
            "battle": None,
            "last": [],
            "last_battle": None,
            "outcome": None,
        }
        events: list[dict] = []
        self._start_battle(state, 0, events)
        state["last"] = events
        return state

    def _start_battle(self, state: dict, attacker: int, events: list[dict]) -> None:
        state["battle_no"] += 1
        state["phase"] = VANGUARD
        state["battle"] = {
            "attacker": attacker,
            "round": 0,
            "turn": attacker,
            "step": "optional",
            "called": None,
            "active": None,
            "vanguard_from": None,
            "tile": None,
            "orientation": 0,
            "played": [[], []],
            "hero": [None, None],
            "hand": [[], []],
            "hand_hero": [None, None],
            "rotator": None,
            "outcome": None,
        }
        if _book_order(state):
            # per seat: was the home deck used (vanguard, a draw or a Shame loss), and did it run out
            state["battle"].update({"home_used": [False, False], "home_ran_out": [False, False]})
        events.append({"type": "battle_started", "battle": state["battle_no"], "attacker": attacker,
                       "defender": 1 - attacker})

    # ------------------------------------------------------------------------------------------- protocol

    def seat_count(self, state: dict) -> int:
        return len(state["players"])

    def to_act(self, state: dict) -> list[int]:
        phase = state["phase"]
        b = state["battle"]
        if phase == OVER:
            return []
        if phase in (VANGUARD, CHOOSE_ACTIVE, ORIENT):
            return [b["attacker"]]
        if phase == TURN:
            return [b["turn"]]
        if phase == ROTATE:
            return [b["rotator"]]
        return [b["outcome"]["loser"]]  # SAVE_HERO

    def _legal_actions(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        phase = state["phase"]
        b = state["battle"]
        p = state["players"][seat]
        if phase == VANGUARD:
            return [{"type": "take_vanguard", "deck": k} for k in DECK_KEYS if p["decks"][k]]
        if phase == CHOOSE_ACTIVE:
            return [{"type": "choose_active", "deck": k} for k in DECK_KEYS]
        if phase == ORIENT:
            return [{"type": "orient_fate", "colour": c} for c in _tiles(state)[b["tile"]]]
        if phase == ROTATE:
            return [{"type": "rotate_fate", "direction": "cw"}, {"type": "rotate_fate", "direction": "ccw"}]
        if phase == SAVE_HERO:
            return [{"type": "save_hero"}, {"type": "abandon_hero"}]
        # TURN
        hand = b["hand"][seat]
        out: list[dict] = []
        if b["step"] == "optional":
            if self._draw_source(state, seat) is not None:
                out += [{"type": "swap_card", "card": c} for c in hand]
            if b["hand_hero"][seat] is not None and p["heroes"]:
                out.append({"type": "swap_hero"})
            if b["hand_hero"][seat] is not None:
                out += [{"type": "play_hero", "on": s["id"]} for i, s in enumerate(b["played"][seat])
                        if not self._covered(b, seat, i)]
            if b["hero"][seat] is not None and p["favour"] > 0:
                out += [{"type": "reinforce", "on": s["id"]} for i, s in enumerate(b["played"][seat])
                        if not s["token"] and not self._covered(b, seat, i)]
            out.append({"type": "retreat"})
        out += [{"type": "play", "card": c} for c in hand]
        if not hand:
            out.append({"type": "pass"})
        return out

    def explain_illegal(self, state: dict, seat: int, action: dict) -> str:
        kind = action.get("type")
        phase = state["phase"]
        b = state["battle"]
        p = state["players"][seat]
        if kind not in ACTION_TYPES:
            return "That is not an action of Hector and Achilles."
        if phase == VANGUARD:
            if kind == "take_vanguard":
                deck = action.get("deck")
                if deck not in DECK_KEYS:
                    return "Your decks are 1, 2, 3 and home."
                return f"Your deck {deck} has no cards; take your vanguard from a deck that has cards."
            return "First take your vanguard: the top card of one of your decks."
        if phase == CHOOSE_ACTIVE:
            return "Your vanguard is a 4: choose the deck that fights this battle (1, 2, 3 or home)."
        if phase == ORIENT:
            colours = ", ".join(_tiles(state)[b["tile"]])
            return f"Lay the fate tile: choose which of its colours ({colours}) faces you."
        if phase == ROTATE:
            return "Your army is stronger: turn the fate tile clockwise (cw) or counter-clockwise (ccw)."
        if phase == SAVE_HERO:
            return "Decide whether to spend a Divine Favour token to save your hero."
        hand = b["hand"][seat]
        if kind in ("take_vanguard", "choose_active", "orient_fate", "rotate_fate", "save_hero",
                    "abandon_hero"):
            return "The battle is under way: take an optional action or play a troop card."
        if kind in OPTIONAL_TYPES and b["step"] == "play":
            return "You have already taken an optional action this round; now play a troop card."
        if kind == "pass":
            return "You must play a troop card while you have one in hand."
        if kind in ("play", "swap_card") and action.get("card") not in hand:
            return "That card is not in your hand."
        if kind == "swap_card":
            return "You cannot swap a card: your active deck and your home deck are both empty."
        if kind == "swap_hero":
            if b["hand_hero"][seat] is None:
                return "You have no hero in hand to swap."
            return "Your hero deck is empty, so you cannot swap your hero."
        if kind == "play_hero":
            if b["hand_hero"][seat] is None:
                return "You have no hero in hand."
            return "Your hero must go on one of your own played troop cards that is not already covered."
        if kind == "reinforce":
            if b["hero"][seat] is None:
                return "You may only reinforce after your hero has been played."
            if p["favour"] <= 0:
                return "You have no Divine Favour token left."
            return "A favour token goes on one of your played troop cards that is not covered and has no token yet."
        return "That move is not allowed now."

    def _apply(self, state: dict, seat: int, action: dict) -> list[dict]:
        events: list[dict] = []
        kind = action["type"]
        self._ACTIONS[kind](self, state, seat, action, events)
        state["last"] = _copy(events)
        return events

    # ------------------------------------------------------------------------------------------- opening

    def _do_take_vanguard(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        b = state["battle"]
        deck = action["deck"]
        card = state["players"][seat]["decks"][deck].pop(0)
        if deck == HOME:
            self._home_touched(state, seat)
        b["vanguard_from"] = deck
        b["played"][seat].append({"id": card, "token": False, "vanguard": True})
        events.append({"type": "vanguard_taken", "seat": seat, "deck": deck, "card": troop_face(card)})
        strength = TROOPS[card]["strength"]
        if strength == 4:
            state["phase"] = CHOOSE_ACTIVE
        else:
            self._call_deck(state, str(strength), events)

    def _do_choose_active(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        events.append({"type": "deck_chosen", "seat": seat, "deck": action["deck"]})
        self._call_deck(state, action["deck"], events)

    def _call_deck(self, state: dict, called: str, events: list[dict]) -> None:
        """Fix both active decks (a deck that is eliminated or empty falls back to home) and turn up the
        fate tile for the attacker to lay."""
        b = state["battle"]
        b["called"] = called
        active = []
        for seat in (0, 1):
            p = state["players"][seat]
            usable = called != HOME and called not in p["eliminated"] and p["decks"][called]
            active.append(called if usable else HOME)
        b["active"] = active
        events.append({"type": "active_decks", "called": called, "decks": list(active)})
        b["tile"] = state["fate_stack"].pop(0)
        state["phase"] = ORIENT
        events.append({"type": "fate_revealed", "colours": list(_tiles(state)[b["tile"]])})

    def _do_orient_fate(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        b = state["battle"]
        idx = _tiles(state)[b["tile"]].index(action["colour"])
        # the orientation is stored as seen by seat 0; the attacker's colour is opposite when he is seat 1
        b["orientation"] = idx if seat == 0 else (idx + 2) % 4
        events.append({"type": "fate_oriented", "seat": seat,
                       "facing": facing_colours(b["tile"], b["orientation"], _tiles(state))})
        defender = 1 - b["attacker"]
        card = self._draw(state, defender)
        if card is not None:
            b["played"][defender].append({"id": card, "token": False, "vanguard": True})
        events.append({"type": "vanguard_revealed", "seat": defender,
                       "card": troop_face(card) if card else None})
        for s in (b["attacker"], defender):
            p = state["players"][s]
            for _ in range(HAND_TROOPS):
                card = self._draw(state, s)
                if card is None:
                    break
                b["hand"][s].append(card)
            if p["heroes"]:
                b["hand_hero"][s] = p["heroes"].pop(0)
            events.append({"type": "hand_drawn", "seat": s, "troops": len(b["hand"][s]),
                           "hero": b["hand_hero"][s] is not None})
        b["round"] = 1
        b["turn"] = b["attacker"]
        b["step"] = "optional"
        state["phase"] = TURN

    # ------------------------------------------------------------------------------------------- rounds

    def _do_swap_card(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        b = state["battle"]
        p = state["players"][seat]
        source = self._draw_source(state, seat)
        b["hand"][seat].remove(action["card"])
        # removed for good whatever the battle's result; face down, so the view only counts it
        _remove(p, [action["card"]], "swap")
        b["hand"][seat].append(self._draw(state, seat))
        b["step"] = "play"
        events.append({"type": "card_swapped", "seat": seat, "deck": source})

    def _do_swap_hero(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        b = state["battle"]
        p = state["players"][seat]
        p["heroes"].append(b["hand_hero"][seat])  # face down to the bottom of the hero deck
        b["hand_hero"][seat] = p["heroes"].pop(0)
        b["step"] = "play"
        events.append({"type": "hero_swapped", "seat": seat})

    def _do_play_hero(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        b = state["battle"]
        slot = self._slot(b, seat, action["on"])
        hero = b["hand_hero"][seat]
        b["hand_hero"][seat] = None
        b["hero"][seat] = {"id": hero, "on": slot}
        b["step"] = "play"
        events.append({"type": "hero_played", "seat": seat, "hero": hero_face(hero), "slot": slot,
                       "on": troop_face(action["on"])})

    def _do_reinforce(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        b = state["battle"]
        slot = self._slot(b, seat, action["on"])
        b["played"][seat][slot]["token"] = True
        state["players"][seat]["favour"] -= 1
        b["step"] = "play"
        events.append({"type": "reinforced", "seat": seat, "slot": slot, "on": troop_face(action["on"])})

    def _do_play(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        b = state["battle"]
        b["hand"][seat].remove(action["card"])
        b["played"][seat].append({"id": action["card"], "token": False, "vanguard": False})
        events.append({"type": "card_played", "seat": seat, "slot": len(b["played"][seat]) - 1,
                       "card": troop_face(action["card"])})
        self._end_individual_round(state, seat, events)

    def _do_pass(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        events.append({"type": "passed", "seat": seat})
        self._end_individual_round(state, seat, events)

    def _end_individual_round(self, state: dict, seat: int, events: list[dict]) -> None:
        b = state["battle"]
        if seat == b["attacker"]:
            b["turn"] = 1 - seat
            b["step"] = "optional"
            return
        totals = [self._total(state, s) for s in (0, 1)]
        rotator = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        events.append({"type": "fate_phase", "round": b["round"], "totals": totals, "rotator": rotator})
        if rotator is None:
            self._next_round(state, events)
        else:
            b["rotator"] = rotator
            state["phase"] = ROTATE

    def _do_rotate_fate(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        b = state["battle"]
        b["orientation"] = rotate(b["orientation"], action["direction"])
        b["rotator"] = None
        events.append({"type": "fate_rotated", "seat": seat, "direction": action["direction"],
                       "facing": facing_colours(b["tile"], b["orientation"], _tiles(state))})
        self._next_round(state, events)

    def _next_round(self, state: dict, events: list[dict]) -> None:
        b = state["battle"]
        if b["round"] < ROUNDS:
            b["round"] += 1
            b["turn"] = b["attacker"]
            b["step"] = "optional"
            state["phase"] = TURN
        else:
            self._victory_check(state, events)

    # ------------------------------------------------------------------------------------------- battle end

    def _victory_check(self, state: dict, events: list[dict]) -> None:
        b = state["battle"]
        revealed = [hero_face(b["hand_hero"][s]) if b["hand_hero"][s] else None for s in (0, 1)]
        events.append({"type": "heroes_revealed", "heroes": revealed})
        scores = [self._score(state, s) for s in (0, 1)]
        if scores[0] == scores[1]:
            winner = None
        else:
            winner = 0 if scores[0] > scores[1] else 1
        events.append({"type": "battle_scored", "scores": scores, "winner": winner,
                       "scoring_colours": [self._scoring_colours(state, s) for s in (0, 1)]})
        self._resolve(state, "tie" if winner is None else "victory", winner, scores, events)

    def _do_retreat(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        events.append({"type": "retreated", "seat": seat, "round": state["battle"]["round"]})
        self._resolve(state, "retreat", 1 - seat, None, events)

    def _resolve(self, state: dict, kind: str, winner: int | None, scores: list[int] | None,
                 events: list[dict]) -> None:
        b = state["battle"]
        loser = None if winner is None else 1 - winner
        b["outcome"] = {"kind": kind, "winner": winner, "loser": loser, "scores": scores}
        if loser is not None and b["hero"][loser] is not None and state["players"][loser]["favour"] > 0:
            state["phase"] = SAVE_HERO
            events.append({"type": "hero_in_danger", "seat": loser, "hero": hero_face(b["hero"][loser]["id"])})
            return
        self._settle(state, False, events)

    def _do_save_hero(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        self._settle(state, True, events)

    def _do_abandon_hero(self, state: dict, seat: int, action: dict, events: list[dict]) -> None:
        self._settle(state, False, events)

    #: action type -> the method that plays it
    _ACTIONS: dict[str, Callable[[HectorAchillesEngine, dict, int, dict, list[dict]], None]] = {
        "take_vanguard": _do_take_vanguard,
        "choose_active": _do_choose_active,
        "orient_fate": _do_orient_fate,
        "swap_card": _do_swap_card,
        "swap_hero": _do_swap_hero,
        "play_hero": _do_play_hero,
        "reinforce": _do_reinforce,
        "play": _do_play,
        "pass": _do_pass,
        "rotate_fate": _do_rotate_fate,
        "retreat": _do_retreat,
        "save_hero": _do_save_hero,
        "abandon_hero": _do_abandon_hero,
    }

    def _settle(self, state: dict, save_hero: bool, events: list[dict]) -> None:
        """Move every card and token after the battle, then run the closing phase."""
        b = state["battle"]
        out = b["outcome"]
        kind, winner, loser = out["kind"], out["winner"], out["loser"]
        record = self._battle_record(state)
        lost = [0, 0]
        for seat in (0, 1):
            p = state["players"][seat]
            active = p["decks"][b["active"][seat]]
            played_ids = [s["id"] for s in b["played"][seat]]
            tokens = sum(1 for s in b["played"][seat] if s["token"])
            hero = b["hero"][seat]["id"] if b["hero"][seat] else None
            if seat != loser:  # the winner, or both after a tie: everything goes back
                active[:0] = played_ids + b["hand"][seat]
                p["favour"] += tokens
                for h in (hero, b["hand_hero"][seat]):
                    if h:
                        p["heroes"].append(h)
                continue
            _remove(p, played_ids, "battle")
            lost[seat] += len(played_ids)
            p["favour_lost"] += tokens
            if hero:
                if save_hero:
                    p["favour"] -= 1
                    p["favour_lost"] += 1
                    p["heroes"].append(hero)
                    events.append({"type": "hero_saved", "seat": seat, "hero": hero_face(hero)})
                else:
                    p["lost_heroes"].append(hero)
                    events.append({"type": "hero_lost", "seat": seat, "hero": hero_face(hero)})
                record["heroes"][seat]["saved"] = save_hero
            if b["hand_hero"][seat]:
                p["heroes"].append(b["hand_hero"][seat])
            book = _book_order(state)
            if kind == "retreat" and book:
                # book 5.4: the hand goes back first, then the Shame losses; the hand goes under the active deck
                # so the top cards lost are the deck's own while it has enough (4.0: he keeps his hand)
                active.extend(b["hand"][seat])
                b["hand"][seat] = []
            if kind == "retreat":
                # rules version 1 took the losses before the hand went back (on top of the active deck)
                owed = p["shame"]
                paid = 0
                for deck in (b["active"][seat], HOME):
                    while paid < owed and p["decks"][deck]:
                        _remove(p, [p["decks"][deck].pop(0)], "shame")
                        paid += 1
                        if deck == HOME:
                            self._home_touched(state, seat)
                if owed:
                    events.append({"type": "shame_losses", "seat": seat, "count": paid})
                lost[seat] += paid
                if p["shame"] < MAX_SHAME and state["shame_pool"] > 0:
                    p["shame"] += 1
                    state["shame_pool"] -= 1
                    events.append({"type": "shame_taken", "seat": seat, "shame": p["shame"]})
            active[:0] = b["hand"][seat]
        if winner is not None:
            state["players"][winner]["battles_won"] += 1
        record["troops_lost"] = lost
        state["last_battle"] = record
        events.append({"type": "battle_ended", "kind": kind, "winner": winner, "troops_lost": lost})
        self._closing(state, events)

    def _closing(self, state: dict, events: list[dict]) -> None:
        b = state["battle"]
        rng = Rng(state["rng"])
        loses: list[str | None] = [None, None]
        for seat in (0, 1):
            p = state["players"][seat]
            used = b["active"][seat]
            if used == HOME:
                if len(p["decks"][HOME]) < MIN_DECK:
                    loses[seat] = "home_deck_exhausted"
            elif len(p["decks"][used]) < MIN_DECK:
                p["decks"][HOME][:0] = p["decks"][used]
                p["decks"][used] = []
                p["eliminated"].append(used)
                rng.shuffle(p["decks"][HOME])
                events.append({"type": "deck_eliminated", "seat": seat, "deck": used})
                if len(p["eliminated"]) == len(FRONT_DECKS):
                    loses[seat] = "front_decks_lost"
            if loses[seat] is None and _book_order(state) and b["home_used"][seat] and (
                    b["home_ran_out"][seat] or len(p["decks"][HOME]) < MIN_DECK):
                # book 4.0 note, 5.5: a home deck drawn from in this battle (not only as the active deck) that
                # ran out, or holds fewer than 5 cards after the closing's front-deck step, loses the war
                loses[seat] = "home_deck_exhausted"
            if loses[seat] is None and not any(p["decks"].values()):
                loses[seat] = "no_troops"
            rng.shuffle(p["decks"][used])
            rng.shuffle(p["heroes"])
        state["fate_used"].append(b["tile"])
        if not state["fate_stack"]:
            state["fate_stack"] = list(_tiles(state))
            state["fate_used"] = []
            rng.shuffle(state["fate_stack"])
            events.append({"type": "fate_reshuffled"})
        state["rng"] = rng.state
        winner = b["outcome"]["winner"]
        if loses[0] or loses[1]:
            if loses[0] and loses[1]:
                game_winner = winner  # None after a tied battle: a draw
                reason = "draw" if winner is None else loses[1 - winner]
            else:
                game_winner = 1 if loses[0] else 0
                reason = loses[1 - game_winner]
            state["phase"] = OVER
            state["outcome"] = {"winner": game_winner, "reason": reason}
            state["battle"] = None
            events.append({"type": "game_over", "winner": game_winner, "reason": reason})
            return
        next_attacker = winner if winner is not None else 1 - b["attacker"]
        self._start_battle(state, next_attacker, events)

    def _battle_record(self, state: dict) -> dict:
        """The public summary of the battle that just ended (no ids: the cards go back into hidden decks)."""
        b = state["battle"]
        out = b["outcome"]
        heroes: list[dict | None] = []
        for seat in (0, 1):
            if b["hero"][seat]:
                heroes.append({**hero_face(b["hero"][seat]["id"]), "played": True, "saved": None})
            elif b["hand_hero"][seat] and out["kind"] != "retreat":
                heroes.append({**hero_face(b["hand_hero"][seat]), "played": False, "saved": None})
            else:
                heroes.append(None)  # no hero, or a retreat: the hand hero is never revealed
        return {
            "battle": state["battle_no"],
            "kind": out["kind"],
            "winner": out["winner"],
            "retreated": out["loser"] if out["kind"] == "retreat" else None,
            "scores": out["scores"],
            "round": b["round"],
            "attacker": b["attacker"],
            "active": list(b["active"]),
            "fate": {"colours": list(_tiles(state)[b["tile"]]), "orientation": b["orientation"],
                     "facing": facing_colours(b["tile"], b["orientation"], _tiles(state))},
            "heroes": heroes,
            "played": [self._public_played(b, s, with_ids=False) for s in (0, 1)],
            "scoring_colours": ([self._scoring_colours(state, s) for s in (0, 1)]
                                if out["kind"] != "retreat" else None),
        }

    # ------------------------------------------------------------------------------------------- queries

    @staticmethod
    def _covered(b: dict, seat: int, slot: int) -> bool:
        hero = b["hero"][seat]
        return hero is not None and hero["on"] == slot

    @staticmethod
    def _slot(b: dict, seat: int, card: str) -> int:
        for i, s in enumerate(b["played"][seat]):
            if s["id"] == card:
                return i
        raise IllegalAction("That card is not one of your played troop cards.")

    def _cards(self, b: dict, seat: int) -> tuple[list[dict], dict | None]:
        played = [{"colour": TROOPS[s["id"]]["colour"], "strength": TROOPS[s["id"]]["strength"],
                   "token": s["token"], "covered": self._covered(b, seat, i)}
                  for i, s in enumerate(b["played"][seat])]
        hero = b["hero"][seat]
        return played, (HEROES[hero["id"]] if hero else None)

    def _total(self, state: dict, seat: int) -> int:
        played, hero = self._cards(state["battle"], seat)
        return strength_total(played, hero)

    def _hero_of(self, b: dict, seat: int) -> dict | None:
        if b["hero"][seat]:
            return HEROES[b["hero"][seat]["id"]]
        if b["hand_hero"][seat]:
            return HEROES[b["hand_hero"][seat]]
        return None

    def _scoring_colours(self, state: dict, seat: int) -> list[str]:
        b = state["battle"]
        colours = [facing_colours(b["tile"], b["orientation"], _tiles(state))[seat]]
        hero = self._hero_of(b, seat)
        if hero and hero["colour"] not in colours:
            colours.append(hero["colour"])
        return colours

    def _score(self, state: dict, seat: int) -> int:
        b = state["battle"]
        played, _ = self._cards(b, seat)
        facing = facing_colours(b["tile"], b["orientation"], _tiles(state))[seat]
        return battle_score(played, self._hero_of(b, seat), b["hero"][seat] is not None, facing)

    def _draw_source(self, state: dict, seat: int) -> str | None:
        """The deck the next draw comes from: the active deck, else the home deck, else none."""
        p = state["players"][seat]
        active = state["battle"]["active"][seat]
        for deck in (active, HOME):
            if p["decks"][deck]:
                return deck
        return None

    def _draw(self, state: dict, seat: int) -> str | None:
        deck = self._draw_source(state, seat)
        if deck is None:
            if state["battle"]["active"][seat] == HOME:
                self._home_touched(state, seat)  # the active home deck had no card left to give
            return None
        card = state["players"][seat]["decks"][deck].pop(0)
        if deck == HOME:
            self._home_touched(state, seat)
        return card

    @staticmethod
    def _home_touched(state: dict, seat: int) -> None:
        """A card was taken from the home deck (or it had none to give): the closing checks it (book 4.0, 5.5)."""
        b = state["battle"]
        if "home_used" not in b:  # a battle begun under rules version 1
            return
        b["home_used"][seat] = True
        if not state["players"][seat]["decks"][HOME]:
            b["home_ran_out"][seat] = True

    def _public_played(self, b: dict, seat: int, with_ids: bool = True) -> list[dict]:
        out = []
        for i, s in enumerate(b["played"][seat]):
            card = troop_face(s["id"])
            if with_ids:
                card["id"] = s["id"]
            card.update({"vanguard": s["vanguard"], "token": s["token"], "covered": self._covered(b, seat, i)})
            out.append(card)
        return out

    # ------------------------------------------------------------------------------------------- views

    def view(self, state: dict, seat: int | None) -> dict:
        b = state["battle"]
        phase = state["phase"]
        acting = self.to_act(state)
        sides = []
        for s in (0, 1):
            p = state["players"][s]
            side = {
                "seat": s,
                "side": SIDES[s]["key"],
                "name": SIDES[s]["en"],
                "decks": {k: {"size": len(p["decks"][k]), "eliminated": k in p["eliminated"]} for k in DECK_KEYS},
                "troops_left": sum(len(d) for d in p["decks"].values()),
                "hero_deck": len(p["heroes"]),
                "lost_heroes": [hero_face(h) for h in p["lost_heroes"]],
                "removed": len(p["removed"]),
                "favour": p["favour"],
                "favour_lost": p["favour_lost"],
                "shame": p["shame"],
                "battles_won": p["battles_won"],
                "active_deck": None, "played": [], "hero": None, "total": 0,
                "hand_size": 0, "has_hero": False,
            }
            if b is not None:
                side["active_deck"] = b["active"][s] if b["active"] else None
                side["played"] = self._public_played(b, s)
                if b["hero"][s]:
                    side["hero"] = {**hero_face(b["hero"][s]["id"]), "on": b["hero"][s]["on"]}
                side["total"] = self._total(state, s)
                side["hand_size"] = len(b["hand"][s])
                side["has_hero"] = b["hand_hero"][s] is not None
            sides.append(side)
        fate = None
        if b is not None and b["tile"] is not None:
            o = b["orientation"]
            fate = {"tile": b["tile"], "colours": list(_tiles(state)[b["tile"]]),
                    "oriented": phase != ORIENT, "orientation": o,
                    "facing": facing_colours(b["tile"], o, _tiles(state)) if phase != ORIENT else None,
                    "after_cw": facing_colours(b["tile"], rotate(o, "cw"), _tiles(state)),
                    "after_ccw": facing_colours(b["tile"], rotate(o, "ccw"), _tiles(state))}
        decision = None
        if acting:
            kind = DECISION_KIND.get(phase)
            if phase == TURN:
                kind = "optional_or_play" if b["step"] == "optional" else "play"
            decision = {"seat": acting[0], "kind": kind}
        v = {
            "game": GAME_KEY,
            "seat": seat,
            "to_act": acting,
            "phase": phase,
            "decision": decision,
            "battle": state["battle_no"],
            "attacker": b["attacker"] if b else None,
            "round": b["round"] if b and b["round"] else None,
            "called_deck": b["called"] if b else None,
            "vanguard_from": b["vanguard_from"] if b else None,
            "sides": sides,
            "fate": fate,
            "fate_stack": len(state["fate_stack"]),
            "fate_used": len(state["fate_used"]),
            "shame_pool": state["shame_pool"],
            "outcome": _copy(b["outcome"]) if b and b["outcome"] else None,
            "last": _copy(state["last"]),
            "last_battle": _copy(state["last_battle"]),
            "result": self.result(state),
        }
        if seat in (0, 1) and b is not None:
            v["hand"] = [{"id": c, **troop_face(c)} for c in b["hand"][seat]]
            hh = b["hand_hero"][seat]
            v["hand_hero"] = {"id": hh, **hero_face(hh)} if hh else None
            v["scoring_colours"] = self._scoring_colours(state, seat) if fate and fate["oriented"] else None
        if seat in acting:
            v["legal"] = self.legal_copy(state, seat)
        return v

    def result(self, state: dict) -> dict | None:
        """Places; scores = troop cards each army has left in its decks; also battles won."""
        if state["phase"] != OVER:
            return None
        winner = state["outcome"]["winner"]
        places = [1, 1] if winner is None else [1 if s == winner else 2 for s in (0, 1)]
        return {
            "places": places,
            "scores": [sum(len(d) for d in p["decks"].values()) for p in state["players"]],
            "reason": state["outcome"]["reason"],
            "winner": winner,
            "battles_won": [p["battles_won"] for p in state["players"]],
            "battles": state["battle_no"],
        }

    def secrets(self, state: dict, seat: int | None) -> set[str]:
        if seat is None:
            out: set[str] = set(state["fate_stack"])
            for p in state["players"]:
                for deck in p["decks"].values():
                    out.update(deck)
                out.update(p["heroes"])
                out.update(c for c, how in zip(p["removed"], removed_how(p)) if how in ("shame", "unknown"))
            return out
        p = state["players"][seat]
        out = {c for c, how in zip(p["removed"], removed_how(p)) if how == "swap"}  # discarded face down
        b = state["battle"]
        if b is None:
            return out
        out.update(b["hand"][seat])
        if b["hand_hero"][seat]:
            out.add(b["hand_hero"][seat])
        return out

    plain_json = True  # (to_json: a plain copy)

    def to_json(self, state: dict) -> dict:
        return _copy(state)

    def from_json(self, data: dict) -> dict:
        """A saved game; one begun under rules version 1 loads as it is and finishes with version 1's rules."""
        return _copy(self._adopt(data))

    def _adopt(self, data: dict) -> dict:
        if data.get("rules_version") not in TILES_BY_VERSION:
            raise ValueError(f"Saved game has rules version {data.get('rules_version')}, "
                             f"this engine plays version {self.rules_version}.")
        return data

    def max_playout_steps(self) -> int:
        return 5_000


ENGINE = HectorAchillesEngine()
