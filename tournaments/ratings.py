"""Elo ratings from finished games, for the leaderboards.

Every game is a set of pairwise duels between its people: for each pair, the one placed better scores 1, a
shared place 0.5 each. Expected scores follow Elo (400-point scale); a game of n people moves each rating by
``K / (n - 1)`` per duel, so a four-player game weighs no more than a two-player one. AI seats take no part
(ratings compare people). Games are counted in the order they ended, so the same history always gives the
same table.
"""

from __future__ import annotations

from dataclasses import dataclass

START = 1500.0
K = 32.0


@dataclass
class Rating:
    player: int
    rating: float = START
    games: int = 0
    wins: int = 0
    draws: int = 0


def expected(a: float, b: float) -> float:
    """Expected score of a player rated ``a`` against one rated ``b``."""
    return 1.0 / (1.0 + 10 ** ((b - a) / 400.0))


def rate(games: list[list[tuple[int, int]]]) -> dict[int, Rating]:
    """Ratings after ``games``, each a list of (player, place) with place 1 = best (ties share a place), in the
    order the games ended. Games with fewer than two players are ignored."""
    table: dict[int, Rating] = {}
    for game in games:
        if len({p for p, _ in game}) < 2:
            continue
        for player, _ in game:
            table.setdefault(player, Rating(player))
        before = {player: table[player].rating for player, _ in game}
        k = K / (len(game) - 1)
        for player, place in game:
            change = 0.0
            for other, other_place in game:
                if other == player:
                    continue
                score = 1.0 if place < other_place else 0.5 if place == other_place else 0.0
                change += k * (score - expected(before[player], before[other]))
            entry = table[player]
            entry.rating += change
            entry.games += 1
            best = min(p for _, p in game)
            if place == best:
                if sum(1 for _, p in game if p == best) > 1:
                    entry.draws += 1
                else:
                    entry.wins += 1
    return table


def leaderboard(games: list[list[tuple[int, int]]]) -> list[Rating]:
    """The ratings, best first (ties: more games, then player id, so the order is stable)."""
    return sorted(rate(games).values(), key=lambda r: (-round(r.rating, 6), -r.games, r.player))
