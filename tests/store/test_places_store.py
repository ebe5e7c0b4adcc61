"""The store's queries for games' places (cogs/places.py), on both backends: the queue of games waiting for their
thread (command games first, then matches, each in the order made) and the finished games' threads to archive."""

from datetime import UTC, datetime, timedelta

from store import Store, connect

GUILD = 1_234_567_890_123_456_789
CHANNEL = GUILD + 1


async def _game(store: Store, *, guild=GUILD, tournament=None) -> int:
    gid = await store.create_game(engine="troja", options={}, seed=1, num_players=2, guild_id=guild,
                                  channel_id=CHANNEL, host_user_id=7)
    if tournament is not None:
        await store.link_game(gid, tournament)
    return gid


async def test_the_queue_and_the_threads_to_archive(database):
    store = await connect(database)
    try:
        tid = await store.create_tournament(engine="troja", lang="en", guild_id=GUILD, channel_id=CHANNEL,
                                            organizer_id=7)
        match = await _game(store, tournament=tid)
        first, second = await _game(store), await _game(store)
        await _game(store, guild=None)  # a DM game never waits for a thread
        placed = await _game(store)
        await store.set_places(placed, thread_id=GUILD + 9)
        assert [g.id for g in await store.games_waiting_for_place()] == [first, second, match]
        await store.set_status(second, "abandoned")
        assert [g.id for g in await store.games_waiting_for_place()] == [first, match]
        # a place recorded with its first message still owed (a restart came between): it waits for that message
        await store.set_places(first, thread_id=GUILD + 8, opening_owed=True)
        assert [g.id for g in await store.games_waiting_for_place()] == [first, match]
        assert (await store.get_game(first)).options == {"opening_owed": 1}
        await store.set_places(first, board_message_id=GUILD + 10, opening_owed=False)
        assert [g.id for g in await store.games_waiting_for_place()] == [match]
        row = await store.get_game(first)
        assert (row.options, row.thread_id, row.board_message_id) == ({}, GUILD + 8, GUILD + 10)

        now = datetime.now(UTC)
        await store.set_status(placed, "finished", {"places": [1, 2]})
        window = {"ended_before": now + timedelta(minutes=1), "ended_after": now - timedelta(days=7)}
        assert [g.id for g in await store.threads_to_archive(**window)] == [placed]
        assert [g.id for g in await store.threads_to_archive(**window, guild_id=GUILD + 5)] == []
        assert await store.threads_to_archive(ended_before=now - timedelta(minutes=10),
                                              ended_after=now - timedelta(days=7)) == []  # still in its grace
        await store.set_thread_archived(placed)
        assert await store.threads_to_archive(**window) == []
        assert (await store.get_game(placed)).options == {"thread_archived": 1}
    finally:
        await store.close()
