"""Ratings (openskill, Plackett-Luce) for the leaderboards: winners rise, losers fall, draws pull together,
several players are ranked by their places, and the same history gives the same table."""

from __future__ import annotations

import pytest

from tournaments.ratings import MODEL, leaderboard, rate


def test_a_win_moves_the_winner_up_and_the_loser_down():
    table = rate([[(1, 1), (2, 2)]])
    assert table[1].mu > MODEL.mu > table[2].mu
    assert table[1].mu - MODEL.mu == pytest.approx(MODEL.mu - table[2].mu)
    assert table[1].sigma < MODEL.sigma  # one game makes the rating surer
    assert (table[1].wins, table[1].games, table[2].wins) == (1, 1, 0)


def test_beating_a_stronger_player_is_worth_more_than_beating_a_weaker_one():
    history = [[(1, 1), (2, 2)]] * 5  # 1 is now much stronger than 2
    before = rate(history)
    upset = rate([*history, [(2, 1), (1, 2)]])
    expected = rate([*history, [(1, 1), (2, 2)]])
    assert upset[2].mu - before[2].mu > expected[1].mu - before[1].mu > 0


def test_a_draw_pulls_ratings_together():
    history = [[(1, 1), (2, 2)]] * 3
    before = rate(history)
    after = rate([*history, [(1, 1), (2, 1)]])
    assert after[1].mu < before[1].mu and after[2].mu > before[2].mu
    assert after[1].draws == 1 and after[1].wins == 3


def test_several_players_are_ranked_by_their_places():
    table = rate([[(1, 1), (2, 2), (3, 3), (4, 4)]])
    ratings = [table[p].mu for p in (1, 2, 3, 4)]
    assert ratings == sorted(ratings, reverse=True) and len(set(ratings)) == 4
    assert table[1].wins == 1 and table[2].wins == 0


def test_the_conservative_rating_grows_with_certainty():
    one = rate([[(1, 1), (2, 2)]])[1]
    five = rate([[(1, 1), (2, 2)], [(1, 1), (3, 2)], [(1, 1), (4, 2)], [(1, 1), (5, 2)], [(1, 1), (6, 2)]])[1]
    assert one.rating == pytest.approx(one.mu - 3 * one.sigma)
    assert five.rating > one.rating


def test_the_leaderboard_is_ordered_and_stable():
    games = [[(3, 1), (1, 2)], [(2, 1), (1, 2)], [(1, 1), (4, 2)], [(5, 1)]]  # a one-person game is ignored
    board = leaderboard(games)
    assert [r.player for r in board] == [r.player for r in leaderboard(games)]
    assert 5 not in {r.player for r in board}
    assert board[-1].player == 4 and board[0].rating >= board[1].rating
