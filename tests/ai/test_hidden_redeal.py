"""The hard AI never uses what its seat did not see: hidden cards re-dealt from the rules change nothing.

For every game with hidden cards, positions along games are taken, and the cards the searching seat cannot
see are re-dealt by this file's own code, written from each game's rules (``shared/rules/<game>.md``: what is
face down, in which piles, who saw it) - not by the engines' determinizers. The re-dealt game must look the
same to the seat (same view, same legal actions) and hold different hidden cards; the hard AI must then make
the same choice with the same search trace (every sample it drew, every path and reward). A search that reads
hidden cards (a determinizer that copies the real state, or the ones that kept what nobody saw) must be caught
by the same check, so the check can fail.
"""

from __future__ import annotations

import json

import pytest

import ai
from ai import search
from ai.search import ismcts, paired_playouts
from engines import ENGINES
from engines.hector_achilles import determinize as ha_determinize
from engines.hidden import redeal, reseed
from engines.kivalasztottak import determinize as kiv_determinize
from engines.kivalasztottak.cards import card_defs
from engines.rng import Rng

# ------------------------------------------------------------------------------------------ re-deals by the rules


def _permute(slots: list[tuple], rng, fits=None) -> None:
    """Random transpositions over ``slots`` ((container, index) pairs): a few passes in which every slot swaps
    its value with a random slot where the swap fits (``fits(value, slot)`` allows both values in their new
    slots)."""
    n = len(slots)
    for _ in range(4 if n > 1 else 0):
        for i in range(n):
            ci, ki = slots[i]
            partners = [j for j in range(n) if fits is None or (fits(slots[j][0][slots[j][1]], slots[i])
                                                                and fits(ci[ki], slots[j]))]
            cj, kj = slots[partners[rng.below(len(partners))]]
            ci[ki], cj[kj] = cj[kj], ci[ki]


def _all(pile: list) -> list[tuple]:
    return [(pile, i) for i in range(len(pile))]


def _redeal_hector_achilles(engine, state, seat, rng, removal):
    """Rules: a side's 48 troops lie in four face-down decks (its own player does not know their order or
    split either); the hand and the hero in hand are seen by their owner only; the hero deck and the fate
    stack are face down; a swapped-out troop is discarded face down (its owner saw it), a Shame loss is the
    top card of a face-down deck (nobody saw it), troops lost in a battle were played face up. ``removal``:
    per side, card -> how it left, recorded by this file from the actions played (not the engine's record)."""
    s = engine.from_json(engine.to_json(state))
    b = s["battle"]
    for side in (0, 1):
        p = s["players"][side]
        troops = [slot for k in sorted(p["decks"]) for slot in _all(p["decks"][k])]
        unseen = ("shame",) if side == seat else ("shame", "swap")
        troops += [(p["removed"], i) for i, c in enumerate(p["removed"]) if removal[side][c] in unseen]
        heroes = _all(p["heroes"])
        if side != seat and b is not None:
            troops += _all(b["hand"][side])
            if b["hand_hero"][side] is not None:
                heroes.append((b["hand_hero"], side))
        _permute(troops, rng)
        _permute(heroes, rng)
    _permute(_all(s["fate_stack"]), rng)
    s["rng"] = rng.next64()
    return s


def _redeal_troja(engine, state, seat, rng, removal):
    """Rules: hidden are the hands (each seen by its owner) and the deck's order; the discard pile, attached
    cards, heroes and the unused heroes are public."""
    s = engine.from_json(engine.to_json(state))
    slots = _all(s["deck"])
    for i, p in enumerate(s["players"]):
        if i != seat:
            slots += _all(p["hand"])
    _permute(slots, rng)
    s["rng"] = rng.next64()
    return s


def _redeal_kivalasztottak(engine, state, seat, rng, removal):
    """Rules: hidden are the hands, the Future (its owner does not see it either), the mulligan set-aside,
    face-down tower levels and face-down obstacles (their owner sees his own). A face-down card shows what it
    is (a tower level, an obstacle), so it may hold any unseen card of that type; the seat's own Future may
    hold any card of its own Future."""
    s = engine.from_json(engine.to_json(state))
    cards, defs = s["cards"], card_defs()
    own = [(cards[cid], "k") for cid in sorted(s["p"][seat]["future"])]
    _permute(own, rng)
    other = 1 - seat
    # the reserve deck (rules version 3) is hidden from the opponent like the hand
    loose = [(cards[cid], "k") for z in ("future", "hand", "setaside", "reserve")
             for cid in sorted(s["p"][other].get(z, ()))]
    down = {"tower": [], "obstacle": []}
    for cid in sorted(cards):
        c = cards[cid]
        if c["owner"] == other and not c["up"] and c["zone"] not in ("future", "hand", "setaside", "reserve"):
            kind = "tower" if defs[c["k"]]["type"] == "tower" else "obstacle"
            down[kind].append((c, "k"))
    # a face-down card shows its type (tower level or obstacle): whatever it holds after must be of that type
    shown = {id(c): defs[c["k"]]["type"] for slots in down.values() for c, _ in slots}

    def fits_shown(key, slot):
        return id(slot[0]) not in shown or defs[key]["type"] == shown[id(slot[0])]

    _permute(down["tower"], rng)
    _permute(loose + down["obstacle"], rng, fits_shown)
    s["rng"] = rng.next64()
    return s


def _redeal_ave_caesar(engine, state, seat, rng, removal):
    """Rules: every chariot draws from its own face-down deck (nobody knows its order); a chariot's hand is
    seen by its owner only (a neutral chariot's by nobody)."""
    s = engine.from_json(engine.to_json(state))
    for c, car in enumerate(s["race"]["cars"]):
        slots = _all(car["deck"])
        if s["chariots"][c]["owner"] != seat:
            slots += _all(car["hand"])
        _permute(slots, rng)
    s["rng"] = rng.next64()
    return s


REDEALS = {"hector-achilles": _redeal_hector_achilles, "troja": _redeal_troja,
           "kivalasztottak": _redeal_kivalasztottak, "ave-caesar": _redeal_ave_caesar}

# ------------------------------------------------------------------------------------------ positions


class _Removals:
    """Hector and Achilles: how each removed troop left the game, read from the play itself (a swapped card
    is the one the swap named; a battle loss was on the table; any other is a Shame loss)."""

    def __init__(self) -> None:
        self.how: list[dict] = [{}, {}]

    def before(self, state) -> tuple:
        b = state["battle"]
        played = [{x["id"] for x in b["played"][s]} if b else set() for s in (0, 1)]
        return [list(p["removed"]) for p in state["players"]], played

    def after(self, state, seen: tuple, action: dict) -> None:
        removed, played = seen
        for side, p in enumerate(state["players"]):
            for c in p["removed"][len(removed[side]):]:
                if action["type"] == "swap_card" and c == action["card"]:
                    self.how[side][c] = "swap"
                elif c in played[side]:
                    self.how[side][c] = "battle"
                else:
                    self.how[side][c] = "shame"


def _positions(key: str, seeds, every: int, per_game: int, want=None):
    """(state copy, seat, removals) along games of the easy AI (random moves make swaps and retreats)."""
    engine = ENGINES[key]
    for seed in seeds:
        state = engine.new_game(engine.min_players, seed, {"races": 1} if key == "ave-caesar" else {})
        rng = Rng(seed * 31 + 5)
        removals = _Removals()
        step = found = 0
        while engine.to_act(state) and found < per_game:
            seat = engine.to_act(state)[0]
            if step % every == 0 and len(engine.legal_actions(state, seat)) > 1 and (
                    want is None or want(state, seat, removals.how)):
                found += 1
                how = [dict(h) for h in removals.how]
                yield engine.from_json(engine.to_json(state)), seat, how
            action = ai.choose(engine, state, seat, rng, "easy")
            seen = removals.before(state) if key == "hector-achilles" else None
            engine.apply(state, seat, action)
            if seen is not None:
                removals.after(state, seen, action)
            step += 1


def _own_shame(state, seat, how) -> bool:
    """The seat has lost troops to Shame (face down, nobody saw which)."""
    return "shame" in how[seat].values()


#: per game: seeds, every how many actions, positions per game, which positions (None: any), iterations
PLAN = {
    "hector-achilles": ((3, 6, 8, 11), 5, 3, _own_shame, 24),
    "troja": ((1, 2, 3), 23, 3, None, 12),
    "kivalasztottak": ((1, 2), 29, 4, None, 8),
    "ave-caesar": ((1, 2), 13, 4, None, 10),
}


def _dump(engine, state) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


def _check(key: str, limit: int | None = None) -> tuple[int, int, int]:
    """(positions compared, positions whose re-deal moved a hidden card, positions where the hard AI's choice
    or trace differed), over the game's positions (the first ``limit`` of them)."""
    engine = ENGINES[key]
    seeds, every, per_game, want, iterations = PLAN[key]
    budget = search.hard_budget(engine)
    budget.update(seconds=None, iterations=iterations)
    compared = moved = differed = 0
    for n, (state, seat, removal) in enumerate(_positions(key, seeds, every, per_game, want)):
        if limit is not None and n >= limit:
            break
        other = REDEALS[key](engine, state, seat, Rng(1000 + n), removal)
        assert engine.view(other, seat) == engine.view(state, seat), "the re-deal moved something the seat sees"
        assert engine.legal_actions(other, seat) == engine.legal_actions(state, seat)
        moved += _dump(engine, other) != _dump(engine, state)
        traces = ([], [])
        a = search.choose(engine, state, seat, Rng(7 + n), trace=traces[0], **budget)
        b = search.choose(engine, other, seat, Rng(7 + n), trace=traces[1], **budget)
        assert traces[0], "the search left no trace"
        differed += a != b or traces[0] != traces[1]
        compared += 1
    return compared, moved, differed


@pytest.mark.parametrize("key", sorted(REDEALS))
def test_hidden_cards_redealt_by_the_rules_change_no_choice_and_no_trace(key):
    compared, moved, differed = _check(key)
    assert compared >= 8 and moved == compared
    assert differed == 0, f"{key}: {differed} of {compared} decisions depended on cards the seat did not see"


def _copying(engine):
    """A "determinizer" that hands the search the real cards (only the future chance reseeded)."""
    def determinize(state, seat, rng):
        s = engine.from_json(engine.to_json(state))
        s["rng"] = reseed(rng)
        return s

    return determinize


def _use_determinizer(monkeypatch, make) -> None:
    """Both searches (the tree's and the paired playouts') draw their samples with ``make(engine)``."""
    for module in (ismcts, paired_playouts):
        monkeypatch.setattr(module, "determinizer", make)


@pytest.mark.parametrize("key", sorted(REDEALS))
def test_a_search_that_reads_the_real_cards_is_caught(key, monkeypatch):
    _use_determinizer(monkeypatch, _copying)
    compared, moved, differed = _check(key, limit=4)
    assert compared == 4 and differed >= 2


def _ha_old(state: dict, seat: int, rng) -> dict:
    """The determinizer before issue 30: removed troops pooled for the opponent only, so the search knew which
    of its own troops the Shame losses took."""
    engine = ENGINES["hector-achilles"]
    s = engine.from_json(engine.to_json(state))
    b = s["battle"]
    for side in (0, 1):
        p = s["players"][side]
        troops = [p["decks"][k] for k in sorted(p["decks"])]
        heroes = [p["heroes"]]
        if side != seat:
            if b is not None:
                troops.append(b["hand"][side])
                if b["hand_hero"][side] is not None:
                    heroes.append([b["hand_hero"][side]])
            troops.append(p["removed"])
        redeal(troops, rng)
        redeal(heroes, rng)
        if side != seat and b is not None and b["hand_hero"][side] is not None:
            b["hand_hero"][side] = heroes[-1][0]
    redeal([s["fate_stack"]], rng)
    s["rng"] = reseed(rng)
    return s


def _kiv_old(state: dict, seat: int, rng) -> dict:
    """The determinizer before issue 30: the opponent's face-down obstacles redealt among themselves only, so
    the search knew which of the opponent's obstacles lay face down rather than in his hand or Future."""
    engine = ENGINES["kivalasztottak"]
    s = engine.from_json(engine.to_json(state))
    cards = s["cards"]
    for owner in range(2):
        p = s["p"][owner]
        loose = list(p["future"]) + ([*p["hand"], *p["setaside"]] if owner != seat else [])
        towers: list[str] = []
        down: list[str] = []
        if owner != seat:
            for cid in sorted(cards):
                c = cards[cid]
                if c["owner"] == owner and not c["up"] and c["zone"] not in ("hand", "future", "setaside"):
                    (towers if c["zone"] == "towers" else down).append(cid)
        for ids in (loose, towers, down):
            ids = sorted(ids)
            keys = [[cards[cid]["k"] for cid in ids]]
            redeal(keys, rng)
            for cid, k in zip(ids, keys[0]):
                cards[cid]["k"] = k
    s["rng"] = reseed(rng)
    return s


@pytest.mark.parametrize("key,old", [("hector-achilles", _ha_old), ("kivalasztottak", _kiv_old)])
def test_the_determinizers_before_issue_30_are_caught(key, old, monkeypatch):
    _use_determinizer(monkeypatch, lambda engine: old)
    compared, moved, differed = _check(key)
    assert differed >= 1


def test_the_determinizers_in_use_are_the_engines_own():
    assert search.determinizer(ENGINES["hector-achilles"]) is ha_determinize.determinize
    assert search.determinizer(ENGINES["kivalasztottak"]) is kiv_determinize.determinize


def test_removal_records_read_from_play_match_the_engines_record():
    kinds = set()
    for state, _seat, removal in _positions("hector-achilles", (3, 6), 1, 400):
        for side, p in enumerate(state["players"]):
            assert [removal[side][c] for c in p["removed"]] == p["removed_how"]
            kinds.update(p["removed_how"])
    assert kinds == {"battle", "swap", "shame"}


def test_a_game_saved_before_removals_were_recorded_counts_its_removed_troops_unseen():
    """``removed_how`` missing (a game saved before issue 30): every removed troop may be any unseen one."""
    engine = ENGINES["hector-achilles"]
    state, seat, _ = next(_positions("hector-achilles", (3,), 5, 1, _own_shame))
    for p in state["players"]:
        del p["removed_how"]
    own = set(state["players"][seat]["removed"])
    moved = 0
    for k in range(8):
        sample = ha_determinize.determinize(state, seat, Rng(k))
        assert engine.view(sample, seat) == engine.view(state, seat)
        assert "removed_how" not in sample["players"][seat], "the saved game is not changed"
        moved += set(sample["players"][seat]["removed"]) != own
    assert moved >= 6
