"""The store's queries for a round held for the organizer and for corrected results, on both backends: a held
round is replaced whole (refused once one of its matches has a game), its deadline set when it starts, and the
corrected places of match games are found per server and game for the ratings."""

from datetime import UTC, datetime, timedelta

from store import connect

GUILD = 1_234_567_890_123_456_789
CHANNEL = GUILD + 1


async def test_held_rounds_and_corrections(database):
    store = await connect(database)
    try:
        tid = await store.create_event(engine="troja", lang="en", guild_id=GUILD, channel_id=CHANNEL,
                                       organizer_id=7, organizer_name="O", format="swiss", settings={"rounds": 3})
        await store.add_round(tid, 1, [(0, [7, 8], None, None), (1, [9], [1], "bye")])
        await store.replace_round(tid, 1, [(0, [7, 9], None, None), (1, [8], [1], "bye")])
        assert [(m.slot, m.players, m.how) for m in await store.matches(tid, 1)] == [
            (0, [7, 9], None), (1, [8], "bye")]
        assert all(m.deadline is None for m in await store.matches(tid, 1))
        due = datetime.now(UTC) + timedelta(hours=2)
        await store.set_round_deadline(tid, 1, due)
        played, bye = await store.matches(tid, 1)
        assert played.deadline is not None and bye.deadline is None, "only the unsettled matches"
        game = await store.open_match_game(played.id, tournament_id=tid, engine="troja", options={}, seed=1,
                                           guild_id=GUILD, channel_id=CHANNEL, seats=[(7, "O"), (9, "N")])
        assert not await store.replace_round(tid, 1, [(0, [7, 8], None, None)]), "a game is open: refused"
        assert [m.players for m in await store.matches(tid, 1)] == [[7, 9], [8]]
        await store.set_status(game, "finished", {"places": [1, 2]})
        await store.settle_match(played.id, [1, 2], "played")
        assert await store.corrected_places(GUILD, "troja") == {}
        await store.settle_match(played.id, [2, 1], "corrected", overwrite=True)
        assert await store.corrected_places(GUILD, "troja") == {game: [2, 1]}
        assert await store.corrected_places(GUILD + 5, "troja") == {}
        assert await store.corrected_places(GUILD, "hextri") == {}
    finally:
        await store.close()
