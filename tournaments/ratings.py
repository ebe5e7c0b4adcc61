"""Ratings from finished games, for the leaderboards and for seeding: openskill's Plackett-Luce model (made for
games of many players; a shared place is a tie).

Every person starts at mu 25, sigma 25/3; each finished game updates everybody at the table at once from their
places. The rating is the conservative one, openskill's ordinal (mu - 3 sigma): a newcomer starts at 0 and climbs
as results make the rating surer - and it can fall below 0, which players read as "negative skill". So people
are shown it on a scale of their own (:func:`shown`): 1500 + 40 × (mu - 3 sigma), never below 0; a newcomer
stands at 1500. AI seats take no part (ratings compare people). Games are counted
in the order they ended, so the same history always gives the same table; nothing is stored, so no result can be
lost: the ratings are recomputed from the games.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
#: the scale people see: a newcomer's conservative rating (0) at 1500, 40 points per unit of it
SHOWN_BASE = 1500
SHOWN_STEP = 40


def shown(rating: float) -> int:
    """A conservative rating as people are shown it: 1500 + 40 × rating, rounded, never below 0."""
    return max(0, round(SHOWN_BASE + SHOWN_STEP * rating))


@dataclass
class Rating:
    player: int
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    draws: int = 0

    @property
    def rating(self) -> float:
        """The conservative rating shown: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def rate(games: list[list[tuple[int, int]]]) -> dict[int, Rating]:
    """Ratings after ``games``, each a list of (player, place) with place 1 = best (ties share a place), in the
    order the games ended. Games with fewer than two different players are ignored."""
    table: dict[int, Rating] = {}
    for game in games:
        _rate_one(table, game)
    return table


def course(games: list[list[tuple[int, int]]], player: int) -> list[float]:
    """``player``'s conservative rating after each of their games (the games as for :func:`rate`)."""
    table: dict[int, Rating] = {}
    out = []
    for game in games:
        if _rate_one(table, game) and any(p == player for p, _ in game):
            out.append(table[player].rating)
    return out


def _rate_one(table: dict[int, Rating], game: list[tuple[int, int]]) -> bool:
    """Update ``table`` by one game; False (nothing changed) for a game of fewer than two different players."""
    if len({p for p, _ in game}) < 2:
        return False
    entries = [table.setdefault(player, Rating(player)) for player, _ in game]
    teams = [[MODEL.rating(mu=e.mu, sigma=e.sigma)] for e in entries]
    after = MODEL.rate(teams, ranks=[float(place) for _, place in game])
    best = min(place for _, place in game)
    shared = sum(1 for _, place in game if place == best) > 1
    for entry, (_, place), (new,) in zip(entries, game, after):
        entry.mu, entry.sigma = new.mu, new.sigma
        entry.games += 1
        if place == best:
            if shared:
                entry.draws += 1
            else:
                entry.wins += 1
    return True


def leaderboard(games: list[list[tuple[int, int]]]) -> list[Rating]:
    """The ratings, best (conservative) first; ties: more games, then player id, so the order is stable."""
    return sorted(rate(games).values(), key=lambda r: (-round(r.rating, 9), -r.games, r.player))
