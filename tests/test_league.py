"""Round-robin leagues: every pair meets once, first seats are shared out, and the table counts wins and draws."""

from __future__ import annotations

import itertools

import pytest

from tournaments.league import round_robin, table


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_everybody_meets_everybody_once(n):
    players = list(range(10, 10 + n))
    matches = round_robin(players)
    assert sorted(tuple(sorted(m)) for m in matches) == sorted(itertools.combinations(players, 2))
    firsts = [sum(1 for a, _ in matches if a == p) for p in players]
    assert max(firsts) - min(firsts) <= 2, firsts  # nobody always has (or never has) the first seat


def test_the_table_counts_wins_draws_and_orders_by_points():
    rows = table([1, 2, 3], [(1, 1, 2, 2), (2, 1, 3, 1), (3, 1, 1, 2)])
    assert [(r.player, r.points, r.wins, r.draws, r.losses) for r in rows] == [
        (3, 1.5, 1, 1, 0), (1, 1.0, 1, 0, 1), (2, 0.5, 0, 1, 1)]


def test_ties_keep_the_order_of_joining():
    rows = table([5, 4], [])
    assert [r.player for r in rows] == [5, 4] and all(r.played == 0 for r in rows)


def test_a_match_finished_by_the_ai_counts_for_the_player_who_stayed():
    rows = table([1, 2], [(1, 1, None, 2)])
    assert [(r.player, r.points, r.played) for r in rows] == [(1, 1.0, 1), (2, 0.0, 0)]
