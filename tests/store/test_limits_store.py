"""What the server limits and the replay queue ask of the store (issue 22), on both backends: a server's open
lobbies and tournaments per member and per channel, its limits kept in its settings, and the replay cache (bytes
kept exactly, used most recently kept longest, within its budget)."""

from store import Store

GUILD = 1_234_567_890_123_456_789  # Discord ids need 64 bits
ANN, BOB = 987_654_321_098_765_432, 987_654_321_098_765_433
HERE, THERE = GUILD + 1, GUILD + 2


async def _lobby(store: Store, host: int, channel: int, guild: int = GUILD) -> int:
    return await store.create_game(engine="troja", options={}, seed=1, num_players=2, guild_id=guild,
                                   channel_id=channel, host_user_id=host)


async def test_open_lobbies_and_tournaments_per_member_and_channel(database):
    store = await Store.connect(database)
    try:
        a1, a2 = await _lobby(store, ANN, HERE), await _lobby(store, ANN, THERE)
        b1 = await _lobby(store, BOB, HERE)
        await _lobby(store, ANN, HERE, guild=GUILD + 9)  # another server's
        started = await _lobby(store, ANN, HERE)
        await store.set_seat(started, 0, user_id=ANN, name="Ann")
        await store.set_seat(started, 1, user_id=BOB, name="Bob")
        await store.start_game(started, num_players=2, snapshot={}, rules_version=1)  # no longer a lobby
        assert await store.open_lobbies(GUILD, host_user_id=ANN) == [a1, a2]
        assert await store.open_lobbies(GUILD, channel_id=HERE) == [a1, b1]
        assert await store.open_lobbies(GUILD, host_user_id=ANN, limit=1) == [a1]
        assert await store.open_lobbies(GUILD, host_user_id=ANN + 5) == []

        t1 = await store.create_tournament(engine="troja", lang="en", guild_id=GUILD, channel_id=HERE,
                                           organizer_id=ANN)
        t2 = await store.create_tournament(engine="troja", lang="en", guild_id=GUILD, channel_id=THERE,
                                           organizer_id=ANN)
        t3 = await store.create_tournament(engine="troja", lang="en", guild_id=GUILD, channel_id=HERE,
                                           organizer_id=BOB)
        await store.set_tournament_status(t2, "running")
        assert await store.open_tournaments(GUILD, organizer_id=ANN) == [t1, t2]
        assert await store.open_tournaments(GUILD, channel_id=HERE) == [t1, t3]
        await store.set_tournament_status(t1, "finished")
        await store.update_tournament(t3, cancelled=1)
        assert await store.open_tournaments(GUILD, organizer_id=ANN) == [t2]
        assert await store.open_tournaments(GUILD, channel_id=HERE) == []

        await store.set_guild_settings(GUILD, {"limits": {"lobbies_per_member": 50, "cooldown_seconds": 0}})
        assert (await store.guild_settings(GUILD))["limits"] == {"lobbies_per_member": 50, "cooldown_seconds": 0}
    finally:
        await store.close()


async def test_the_replay_cache(database):
    store = await Store.connect(database)
    try:
        games = [await _lobby(store, ANN, HERE) for _ in range(3)]
        gif = bytes(range(256)) * 2  # every byte value, kept exactly
        assert await store.cached_replay(games[0], "public") is None
        await store.cache_replay(games[0], "public", gif, shown=5, steps=9, revealed=0, budget=1200)
        await store.cache_replay(games[1], "public", b"b" * 512, shown=1, steps=1, revealed=0, budget=1200)
        # read back (and so used more recently than games[1]'s)
        assert await store.cached_replay(games[0], "public") == {"data": gif, "shown": 5, "steps": 9,
                                                                 "revealed": 0}
        assert await store.cached_replay(games[0], "seat0") is None  # another kind of the same game
        await store.cache_replay(games[2], "public", b"c" * 512, shown=1, steps=1, revealed=0, budget=1200)
        # over the budget: the least recently used gave way, not the one just read
        assert await store.cached_replay(games[1], "public") is None
        assert (await store.cached_replay(games[0], "public"))["data"] == gif
        assert (await store.cached_replay(games[2], "public"))["data"] == b"c" * 512
        # drawn again: replaced, not added
        await store.cache_replay(games[2], "public", b"d" * 100, shown=2, steps=2, revealed=1, budget=1200)
        assert await store.cached_replay(games[2], "public") == {"data": b"d" * 100, "shown": 2, "steps": 2,
                                                                 "revealed": 1}
        # a replay larger than the whole cache is not kept
        await store.cache_replay(games[1], "public", b"e" * 2000, shown=1, steps=1, revealed=0, budget=1200)
        assert await store.cached_replay(games[1], "public") is None
        assert (await store.cached_replay(games[0], "public"))["data"] == gif  # and pushed nothing out
        assert (await store.cached_replay(games[2], "public"))["data"] == b"d" * 100
    finally:
        await store.close()
