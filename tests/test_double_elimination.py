"""Double elimination (tournaments/double.py): a worked 4-player bracket and properties over random events of
2-40 players (random, drawn and one-sided results)."""

from __future__ import annotations

import random

import pytest

from tournaments import double
from tournaments.double import GRAND, LOSERS, RESET
from tournaments.elimination import Match, loser, rounds_for


def play(n: int, pick, seed: int = 0):
    """Every round until the bracket is over; ``pick(match, rng)`` gives the places."""
    rng = random.Random(seed)
    seeded = list(range(100, 100 + n))
    done, rounds = [], []
    for t in range(1, 4 * n + 4):
        matches = double.round_matches(seeded, done, t)
        if not matches:
            break
        assert double.final_places(seeded, done) == [], "not over while a round is still to come"
        rounds.append(matches)
        done += [(m, (1,) if len(m.players) == 1 else pick(m, rng)) for m in matches]
    return seeded, done, rounds


def random_places(m, rng):
    return (1, 1) if rng.random() < 0.1 else tuple(rng.sample([1, 2], 2))


def test_four_players_worked_example():
    """In the winners' bracket the lower number wins, in the losers' bracket (and the grand final) the higher:
    103 comes back through the losers' bracket, wins the grand final and its reset."""
    seeded = [100, 101, 102, 103]
    done = []

    def decide(t):
        out = []
        for m in double.round_matches(seeded, done, t):
            win = max(m.players) if m.slot >= LOSERS else min(m.players)
            done.append((m, tuple(1 if p == win else 2 for p in m.players)))
            out.append((m.slot, set(m.players)))
        return out

    assert decide(1) == [(0, {100, 103}), (1, {101, 102})]           # winners' semi-finals
    assert decide(2) == [(0, {100, 101}), (LOSERS, {102, 103})]       # winners' final; losers' round 1
    assert double.final_places(seeded, done) == []
    assert decide(3) == [(LOSERS, {101, 103})]                         # losers' final: 101 dropped in
    assert decide(4) == [(GRAND, {100, 103})]                          # 103 won the losers' final
    assert double.final_places(seeded, done) == [], "100 lost the grand final: its first loss, so a reset"
    assert decide(5) == [(RESET, {100, 103})]
    assert double.round_matches(seeded, done, 6) == []
    assert double.final_places(seeded, done) == [[103], [100], [101], [102]]


def test_the_losers_champion_winning_the_grand_final_forces_a_reset():
    seeded = [1, 2]
    done = [(Match(1, 0, (1, 2)), (1, 2)), (Match(2, GRAND, (2, 1)), (1, 2))]  # 2 wins the grand final
    assert double.final_places(seeded, done) == [], "both have lost once: not over"
    (reset,) = double.round_matches(seeded, done, 3)
    assert reset.slot == RESET and set(reset.players) == {1, 2}
    done.append((reset, (2, 1) if reset.players[0] == 1 else (1, 2)))
    assert double.final_places(seeded, done) == [[2], [1]]
    assert double.round_matches(seeded, done, 4) == []


@pytest.mark.parametrize("pick", [random_places, lambda m, rng: (1, 2), lambda m, rng: (2, 1)],
                         ids=["random", "seat0-wins", "seat1-wins"])
def test_properties_over_random_brackets(pick):
    for n in range(2, 41):
        for seed in range(3):
            seeded, done, rounds = play(n, pick, seed)
            rank = {p: i for i, p in enumerate(seeded)}
            k = rounds_for(n)
            assert len(rounds) in (2 * k, 2 * k + 1), (n, len(rounds))
            losses: dict[int, int] = {}
            for matches in rounds:
                seen = [p for m in matches for p in m.players]
                assert len(seen) == len(set(seen)), "nobody plays twice in a round"
                assert all(losses.get(p, 0) < 2 for p in seen), "nobody plays after a second loss"
                for m in matches:
                    places = next(pl for mm, pl in done if mm == m)
                    lost = loser(m.players, places, rank)
                    if lost is not None:
                        losses[lost] = losses.get(lost, 0) + 1
            places = double.final_places(seeded, done)
            order = [p for group in places for p in group]
            assert sorted(order) == seeded, "everybody placed once"
            champion = places[0][0]
            assert losses.get(champion, 0) <= 1
            assert all(losses.get(p, 0) == 2 for p in seeded if p != champion), "out after exactly two losses"
            reset = any(m.slot == RESET for m, _ in done)
            grand = next((m, pl) for m, pl in done if m.slot == GRAND)
            first_loss = {p for p in grand[0].players if any(
                loser(m.players, pl, rank) == p for m, pl in done if m.round < grand[0].round)}
            grand_winner = next(p for p in grand[0].players if p != loser(grand[0].players, grand[1], rank))
            assert reset == (grand_winner in first_loss), \
                "a reset exactly when the losers' champion won the grand final"


def test_a_bracket_of_64_lasts_twelve_rounds_or_thirteen():
    seeded, done, rounds = play(64, random_places, 4)
    assert len(rounds) in (12, 13)
    assert [len(r) for r in rounds[:3]] == [32, 16 + 16, 8 + 16]
