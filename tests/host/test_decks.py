"""Players' own Kiválasztottak decks in the host (issue 26): kept per player on both backends, chosen for games
and tournaments, recorded with the game so that a replay deals the same decks."""

from __future__ import annotations

import pytest

from engines import ENGINES
from engines.kivalasztottak import decks as D
from host import replays
from host.decks import DeckError
from host.service import GameService
from host.tournaments import TournamentService
from store import Store

ANN, BOB, CY = 1, 2, 3
E = ENGINES["kivalasztottak"]
RESERVE = [["bardcsapas", 3], ["dobolandzsa", 3], ["ugra", 2], ["klanharcos", 3], ["menedek", 2], ["telihold", 2]]


def pigeons() -> dict:
    return {"cards": D.presets()["medveklan"]["cards"] + [["futargalamb", 2]], "reserve": RESERVE}


@pytest.fixture
async def backend_store(database):
    """A store on each backend (SQLite, and PostgreSQL when the test server is there)."""
    store = await Store.connect(database)
    yield store
    await store.close()


async def test_decks_are_kept_per_player_and_refused_with_reasons(backend_store):
    book = GameService(backend_store, render=False).decks
    await book.save(ANN, "Bears", pigeons(), "en", new=True)
    await book.save(BOB, "Bears", D.presets()["vadaszhaz"], "en", new=True)  # the same name, another player
    assert [d.name for d in await book.list(ANN)] == ["Bears"] and (await book.get(ANN, "bears", "en")).size == 49
    assert (await book.get(BOB, "BEARS", "en")).size == 50
    with pytest.raises(DeckError, match="already have a deck called Bears"):
        await book.save(ANN, "bears", pigeons(), "en", new=True)
    with pytest.raises(DeckError, match="1 to 40 characters"):
        await book.save(ANN, " ", pigeons(), "en")
    half = {"cards": [["vadasz", 10]], "reserve": [["kardcsapas", 3]]}
    await book.save(ANN, "Half", half, "hu")
    with pytest.raises(DeckError) as refused:
        await book.choose(ANN, "Half", "hu")
    assert "legalább 43 kell" in str(refused.value) and "pontosan 0 vagy 15" in str(refused.value)
    assert (await book.choose(ANN, "Bears", "en")).name == "Bears"
    assert (await book.chosen(ANN)).reserve_size == 15
    # a code is shared and read back; a damaged one is refused with what to do
    code = (await book.get(ANN, "Bears", "en")).code
    assert (await book.resolve(BOB, code, "en")).spec["reserve"] == (await book.get(ANN, "Bears", "en")).spec["reserve"]
    with pytest.raises(DeckError, match="not a deck code"):
        await book.resolve(BOB, code[:-3] + "zzz", "en")
    assert await book.delete(ANN, "Bears", "en") == "Bears" and await book.chosen(ANN) is None


async def test_a_tournament_match_deals_each_entrants_chosen_deck_and_replays_it(backend_store):
    service = GameService(backend_store, seed_source=lambda: 7, render=False)
    await service.decks.save(ANN, "Bears", pigeons(), "en")
    await service.decks.choose(ANN, "Bears", "en")
    await service.decks.choose(BOB, "vadaszhaz", "en")  # a starter deck, chosen by its id
    events = TournamentService(service)
    league = await events.create("kivalasztottak", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    await events.join(league.id, BOB, "Bob")
    await events.join(league.id, CY, "Cy")  # Cy chose nothing: the starter decks
    games = [await service.store.get_game(o.game.id) for o in (await events.start(league.id, ANN)).started]
    assert len(games) == 3
    for game in games:
        state = E.from_json(game.snapshot)
        for seat in (0, 1):
            user = game.seat_row(seat).user_id
            deck = state["p"][seat]
            if user == ANN:
                assert deck.get("deck_name") == "Bears" and len(deck["reserve"]) == 15
            elif user == BOB:
                assert deck["deck"] == "vadaszhaz"
            else:
                assert deck["deck"] in ("vadaszhaz", "medveklan") and not deck["reserve"]
        # the game's options hold the decks it was dealt: a replay deals them again, exactly
        record = replays.Record(game.engine, game.seed, game.num_players, dict(game.options["engine"]),
                                game.rules_version, [], ["a", "b"], "en")
        assert E.to_json(replays.start_state(record)) == game.snapshot
