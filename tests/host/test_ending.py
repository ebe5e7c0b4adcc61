"""How a game ended (host/ending.py): places by the order of leaving, the JSON form and the results saved before
endings were typed; and on both store backends, the departures recorded as players leave a running game."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from host.ending import Departure, Ending, How, decided, natural, places_after, walked_out
from host.service import GameError, GameService
from host.tournaments import deadline_places
from store import Store

ANN, BOB, CY, DEE = 11, 22, 33, 44


def test_the_first_to_leave_is_last_and_who_stayed_keep_the_rules_order():
    left = [Departure(2, How.RESIGNED, 5), Departure(0, How.TIMEOUT, 9)]
    # the engine had 2 first (it left), then 1 and 3 level, then 0
    assert places_after(4, left, [4, 2, 1, 2]) == (3, 1, 4, 1)
    assert places_after(4, left) == (3, 1, 4, 1), "without the rules' places those who stayed are level"
    assert places_after(2, [Departure(1, How.RESIGNED)]) == (1, 2)


def test_an_ending_round_trips_and_says_who_won():
    e = natural(3, {"places": [1, 2, 3], "scores": [9, 5, 1], "reason": "glory"}, [Departure(0, How.RESIGNED, 3)], 40)
    assert e.places == (3, 1, 2) and e.winners == [1] and not e.draw and not e.plain
    assert Ending.from_json(e.to_json()) == e
    assert e.to_json()["details"]["reason"] == "glory" and e.to_json()["places"] == [3, 1, 2]
    out = walked_out(2, [Departure(0, How.TIMEOUT, 7)], 7)
    assert out.how is How.TIMEOUT and out.places == (2, 1) and out.details is None
    level = decided(How.ADJUDICATED, [1, 1], tournament=1, match=2)
    assert level.draw and level.winners == [] and level.rated_seats() == [] and level.note == {"tournament": 1,
                                                                                                "match": 2}


def test_ratings_count_what_the_table_decided_and_never_a_dropped_seat():
    assert natural(2, {"places": [1, 2]}).rated_seats() == [0, 1]
    assert walked_out(2, [Departure(1, How.RESIGNED)]).rated_seats() == [0, 1]
    assert natural(3, {"places": [1, 2, 3]}, [Departure(0, How.DROPPED)]).rated_seats() == [1, 2]
    assert walked_out(2, [Departure(0, How.DROPPED)]).rated_seats() == [1], "one person: nothing to rate"
    assert decided(How.DEADLINE, [2, 1], [Departure(0, How.TIMEOUT)]).rated_seats() == []
    assert Ending.from_json(None, abandoned=True).rated_seats() == []


@pytest.mark.parametrize(("saved", "how", "places", "left", "details"), [
    # the rules ended it
    ({"places": [2, 1], "scores": [3, 4], "reason": "battles", "winner": 1}, How.NATURAL, (2, 1), [], True),
    # a forfeit that ended a game of two (the engine had no result)
    ({"places": [2, 1], "scores": [0, 0], "forfeited": [0]}, How.FORFEIT, (2, 1), [0], False),
    # a game of three the AI finished for a forfeited seat, placed last
    ({"places": [1, 3, 2], "scores": [5, 9, 1], "reason": "glory", "forfeited": [1]}, How.NATURAL, (1, 3, 2), [1],
     True),
    # everybody but one forfeited, the worst placed first to go
    ({"places": [2, 3, 1], "scores": [0, 0, 0], "forfeited": [0, 1]}, How.FORFEIT, (2, 3, 1), [1, 0], False),
])
def test_results_saved_before_endings_were_typed_still_read(saved, how, places, left, details):
    e = Ending.from_json(saved)
    assert e.how is how and e.places == places and [d.seat for d in e.left] == left
    assert (e.details is not None) == details and "forfeited" not in (e.details or {})
    assert Ending.from_json(None).places is None and Ending.from_json(None, abandoned=True).how is How.ABANDONED


class Clock:
    """A test clock a minute on at every reading: each leaving has its own time (the order of going out)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


async def _table_of_three(store: Store) -> tuple[GameService, int]:
    service = GameService(store, seed_source=lambda: 5, render=False, clock=Clock())
    game, _ = await service.create("hextri", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   options={"players": 3, "radius": 2, "round_limit": 2})
    await service.join(game.id, BOB, "Bob")
    await service.join(game.id, CY, "Cy")
    return service, game.id


async def test_departures_are_kept_in_order_and_decide_the_places(database):
    store = await Store.connect(database)
    try:
        service, game_id = await _table_of_three(store)
        game = await service.resign(game_id, BOB)
        assert game.status == "running", "two players are left: they play on"
        with pytest.raises(GameError, match="already out"):
            await service.resign(game_id, BOB)
        game = await service.drop(game_id, ANN)
        assert game.status == "finished", "one player left: the game ends"
        assert await store.departures(game_id) == [{"seat": 1, "how": "resigned", "step": 0},
                                                   {"seat": 0, "how": "dropped", "step": 0}]
        ended = Ending.from_json(game.result)
        assert ended.how is How.DROPPED and ended.places == (2, 3, 1) and ended.winners == [2]
        assert ended.rated_seats() == [1, 2], "the dropped player is not rated"
    finally:
        await store.close()


async def test_a_seat_forfeited_before_departures_were_recorded_counts_as_the_first_to_leave(database):
    store = await Store.connect(database)
    try:
        service, game_id = await _table_of_three(store)
        game = await service.game(game_id)
        # an older version marked the forfeit on the seat's clock only
        from host.clock import SeatClock
        await store.set_clocks(game_id, [SeatClock(2, stand_in=True, forfeited=True)])
        game = await service.resign(game_id, ANN)
        assert game.status == "finished"
        ended = Ending.from_json(game.result)
        assert [(d.seat, d.how) for d in ended.left] == [(2, How.FORFEIT), (0, How.RESIGNED)]
        assert ended.places == (2, 1, 3)
    finally:
        await store.close()


async def test_an_abandoned_game_keeps_who_called_it_off(database):
    store = await Store.connect(database)
    try:
        service, game_id = await _table_of_three(store)
        game = await service.abandon(game_id, ANN, by="Ann", publish=["Game #1 was abandoned by Ann."])
        ended = service.how_it_ended(game)
        assert game.status == "abandoned" and ended.how is How.ABANDONED and ended.places is None
        assert ended.note == {"by": "Ann"} and not ended.has_result
    finally:
        await store.close()


async def test_resigning_against_ai_seats_only_ends_the_game_at_once(database):
    """Nobody but AI seats would be left to play: the game ends (the AI seats share the first place)."""
    store = await Store.connect(database)
    try:
        service = GameService(store, seed_source=lambda: 5, render=False)
        game, _ = await service.create("troja", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                       opponent="ai", options={"players": 3})
        assert game.status == "running"
        game = await service.resign(game.id, ANN)
        ended = Ending.from_json(game.result)
        assert game.status == "finished" and ended.how is How.RESIGNED and ended.places == (3, 1, 1)
    finally:
        await store.close()


def test_a_rounds_deadline_places_those_it_waited_for_last_together_and_never_wins_by_seat_order():
    assert deadline_places(2, {0}) == [2, 1]
    assert deadline_places(3, {1}) == [1, 3, 1]
    assert deadline_places(3, {0, 2}) == [2, 1, 2], "late at the same moment: they share the last place"
    assert deadline_places(2, {0, 1}) == [1, 1], "everybody was to move: a draw, not a win for the higher seat"
    assert deadline_places(3, set()) == [1, 1, 1], "nobody to move: a draw"
