"""Elo ratings for the leaderboards: winners rise, losers fall, draws pull together, several players count as
pairwise duels, and the same history gives the same table."""

from __future__ import annotations

import pytest

from tournaments.ratings import START, leaderboard, rate


def test_a_win_moves_both_ratings_by_the_same_amount():
    table = rate([[(1, 1), (2, 2)]])
    assert table[1].rating == pytest.approx(START + 16) and table[2].rating == pytest.approx(START - 16)
    assert (table[1].wins, table[1].games, table[2].wins) == (1, 1, 0)


def test_beating_a_stronger_player_is_worth_more_than_beating_a_weaker_one():
    history = [[(1, 1), (2, 2)]] * 5  # 1 is now much stronger than 2
    upset = rate([*history, [(2, 1), (1, 2)]])
    expected = rate([*history, [(1, 1), (2, 2)]])
    gain_upset = upset[2].rating - rate(history)[2].rating
    gain_expected = expected[1].rating - rate(history)[1].rating
    assert gain_upset > gain_expected > 0


def test_a_draw_pulls_ratings_together():
    history = [[(1, 1), (2, 2)]] * 3
    before = rate(history)
    after = rate([*history, [(1, 1), (2, 1)]])
    assert after[1].rating < before[1].rating and after[2].rating > before[2].rating
    assert after[1].draws == 1 and after[1].wins == 3


def test_several_players_are_ranked_by_their_places():
    table = rate([[(1, 1), (2, 2), (3, 3), (4, 4)]])
    ratings = [table[p].rating for p in (1, 2, 3, 4)]
    assert ratings == sorted(ratings, reverse=True)
    assert sum(ratings) == pytest.approx(4 * START)
    assert table[1].rating - START == pytest.approx(16, abs=0.01)  # no more than a two-player win


def test_the_leaderboard_is_ordered_and_stable():
    games = [[(3, 1), (1, 2)], [(2, 1), (1, 2)], [(1, 1), (4, 2)], [(5, 1)]]  # a one-person game is ignored
    board = leaderboard(games)
    assert [r.player for r in board] == [r.player for r in leaderboard(games)]
    assert 5 not in {r.player for r in board}
    assert board[-1].player == 4 and board[0].rating >= board[1].rating
