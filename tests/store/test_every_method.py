"""Every store method on both backends (SQLite and PostgreSQL): the same results from the same calls, Discord's
64-bit ids kept exactly, the version guard holding between concurrent writers, and the outbox."""

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from store import Store, VersionConflict, connect

GUILD = 1_234_567_890_123_456_789  # Discord ids need 64 bits
USER = 987_654_321_098_765_432


async def _running(store: Store, *, guild_id=GUILD) -> int:
    gid = await store.create_game(engine="troja", options={"lang": "hu"}, seed=2**31 - 1, num_players=2,
                                  guild_id=guild_id, channel_id=GUILD + 1, host_user_id=USER)
    await store.set_seat(gid, 0, user_id=USER, name="Ann")
    await store.set_seat(gid, 1, ai_level="hard", name="AI")
    await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=3, publish=["opening"])
    return gid


async def test_games_ids_and_json_options(database):
    store = await connect(database)
    try:
        first = await _running(store)
        second = await _running(store)
        assert second == first + 1
        await store.set_places(first, thread_id=GUILD + 2, board_message_id=GUILD + 3)
        await store.set_announcement(first, GUILD + 4)
        await store.set_dm_closed(first, 0, True)
        game = await store.get_game(first)
        assert (game.guild_id, game.thread_id, game.board_message_id) == (GUILD, GUILD + 2, GUILD + 3)
        assert game.options == {"lang": "hu", "announcement": GUILD + 4} and game.lang == "hu"
        assert game.seats[0].dm_closed and not game.seats[1].dm_closed and game.seed == 2**31 - 1
        assert game.rules_version == 3 and game.snapshot == {"turn": 0}
        assert await store.snapshot(first) == (0, {"turn": 0})

        rematch = await store.create_game(engine="troja", options={"rematch_of": first}, seed=1, num_players=2,
                                          guild_id=GUILD, channel_id=1, host_user_id=USER)
        assert (await store.rematch_of(first)).id == rematch
        await store.set_status(rematch, "abandoned")
        assert await store.rematch_of(first) is None

        assert [g.id for g in await store.list_games(guild_id=GUILD)] == [second, first]
        assert [g.id for g in await store.list_games(user_id=USER, limit=1)] == [second]
        assert [g.id for g in await store.list_games(thread_id=GUILD + 2)] == [first]
        await store.set_status(second, "finished", {"places": [1, 2]})
        assert (await store.get_game(second)).result == {"places": [1, 2]}
        assert [g.id for g in await store.finished_games(engine="troja", guild_id=GUILD)] == [second]
        assert await store.finished_games(engine="troja", guild_id=None) == []
    finally:
        await store.close()


async def test_finished_games_outside_a_server(database):
    store = await connect(database)
    try:
        gid = await _running(store, guild_id=None)
        await store.commit_action(gid, expected_version=0, seat=0, user_id=USER, action={}, events=[],
                                  snapshot={}, result={"places": [1, 2]})
        assert [g.id for g in await store.finished_games(engine="troja", guild_id=None)] == [gid]
    finally:
        await store.close()


async def test_concurrent_writers_of_one_version_only_one_lands(database):
    store = await connect(database)
    other = await connect(database)  # a second connection (on PostgreSQL: could be another process)
    try:
        gid = await _running(store)

        async def move(s: Store, n: int):
            return await s.commit_action(gid, expected_version=0, seat=0, user_id=USER, action={"n": n},
                                         events=[], snapshot={"n": n}, result=None)

        results = await asyncio.gather(*(move(store if n % 2 else other, n) for n in range(8)),
                                       return_exceptions=True)
        assert sum(r == 1 for r in results) == 1
        assert all(isinstance(r, VersionConflict) for r in results if r != 1)
        winner = next(n for n, r in enumerate(results) if r == 1)
        assert [a["action"] for a in await store.actions(gid)] == [{"n": winner}]
        assert await other.snapshot(gid) == (1, {"n": winner})
    finally:
        await other.close()
        await store.close()


async def test_a_failed_transaction_leaves_nothing_behind(database):
    store = await connect(database)
    try:
        gid = await _running(store)
        with pytest.raises(Exception):  # noqa: B017 - the second insert repeats the first's key
            await store._transaction([
                ("INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
                 " VALUES (?, 1, 0, NULL, '{}', '[]', 'x')", (gid,)),
                ("INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
                 " VALUES (?, 1, 0, NULL, '{}', '[]', 'x')", (gid,)),
            ])
        assert await store.actions(gid) == []
    finally:
        await store.close()


async def test_the_outbox(database):
    store = await connect(database)
    try:
        gid = await _running(store)
        other = await _running(store, guild_id=GUILD + 9)
        await store.commit_action(gid, expected_version=0, seat=0, user_id=USER, action={"a": 1}, events=[],
                                  snapshot={"turn": 1}, result=None, publish=["Ann moved"])
        entries = await store.outbox(gid)
        assert [(e.version, e.seq, e.lines, e.posted) for e in entries] == [
            (0, None, ["opening"], False), (1, 1, ["Ann moved"], False)]
        assert await store.pending_publications() == [gid, other]
        assert await store.pending_publications(guild_ids={GUILD + 9}) == [other]

        later = datetime.now(UTC) + timedelta(hours=1)
        await store.outbox_failed(gid, entries[-1].id, "HTTP 503", later)
        assert await store.pending_publications(datetime.now(UTC)) == [other]
        assert await store.pending_publications(later + timedelta(seconds=1)) == [gid, other]
        assert [e.attempts for e in await store.outbox(gid)] == [1, 1]

        await store.outbox_posted(gid, entries[0].id, GUILD + 5)
        assert [e.posted for e in await store.outbox(gid)] == [True, False]
        assert (await store.get_game(gid)).board_message_id == GUILD + 5

        await store.outbox_done(gid, entries[-1].id, retry_at=later)
        (marker,) = await store.outbox(gid)
        assert marker.lines == [] and marker.version == 1 and marker.id > entries[-1].id
        await store.add_outbox(gid, ["the AI took over"])
        assert [e.lines for e in await store.outbox(gid)] == [[], ["the AI took over"]]
        await store.set_seat(gid, 0, ai_level="easy", name="AI 2", publish=["left"])
        assert (await store.outbox(gid))[-1].lines == ["left"]
        assert (await store.get_game(gid)).seats[0].is_ai
    finally:
        await store.close()


async def test_a_delivered_publication_is_recorded_in_one_transaction(database, monkeypatch):
    """``outbox_delivered``: the board's message and the end of the entries it showed (those set aside before
    too; a retry marker stays when asked) are one commit, and when part of it fails nothing of it is saved."""
    import store.base as base

    store = await connect(database)
    try:
        gid = await _running(store)
        await store.commit_action(gid, expected_version=0, seat=0, user_id=USER, action={"a": 1}, events=[],
                                  snapshot={"turn": 1}, result=None, publish=["Ann moved"])
        first, second = await store.outbox(gid)
        await store.outbox_setback(gid, "HTTP 403", [(first.id, None)])  # the opening board was set aside
        commits = []
        real = type(store)._transaction

        async def counted(self, statements, *args, **kwargs):
            commits.append(len(statements))
            return await real(self, statements, *args, **kwargs)
        monkeypatch.setattr(type(store), "_transaction", counted)
        later = datetime.now(UTC) + timedelta(hours=1)
        await store.outbox_delivered(gid, second.id, GUILD + 7, retry_at=later)
        assert len(commits) == 1, "one transaction"
        (marker,) = await store.outbox(gid)
        assert marker.lines == [] and marker.id > second.id, "only the retry marker is left"
        assert await store.dead_letters(gid) == [], "the board that is up replaces the one set aside"
        assert (await store.get_game(gid)).board_message_id == GUILD + 7

        await store.add_outbox(gid, ["Ann resigned"])
        owed = await store.outbox(gid)
        monkeypatch.setattr(base, "_done_statements", lambda *a: [("DELETE FROM no_such_table", ())])
        with pytest.raises(Exception):  # noqa: B017 - the DELETE fails (a different error per backend)
            await store.outbox_delivered(gid, owed[-1].id, GUILD + 8)
        assert (await store.get_game(gid)).board_message_id == GUILD + 7, "the board id was rolled back with it"
        assert await store.outbox(gid) == owed
    finally:
        await store.close()


async def test_a_clock_warning_keeps_its_dm_in_the_outbox_with_the_clocks(database):
    """The DM a warning owes is saved with the warning (one transaction), so a restart before the next board
    cannot lose it; an entry owing only DMs is not mistaken for an empty retry marker."""
    from host.clock import SeatClock

    store = await connect(database)
    try:
        gid = await _running(store)
        await store.outbox_done(gid, (await store.outbox(gid))[-1].id)
        await store.set_clocks(gid, [SeatClock(0, started=10, deadline=3610, warned_half=True), SeatClock(1)],
                               publish=["Ann, half of your time is gone"], dms={0: "Half of your time: hurry"})
        (entry,) = await store.outbox(gid)
        assert entry.lines == ["Ann, half of your time is gone"]
        assert entry.dms == {0: "Half of your time: hurry"}, "seat numbers come back as numbers"
        assert [c["warned_half"] for c in await store.clocks(gid)] == [True, False]
        await store.set_clocks(gid, [SeatClock(0), SeatClock(1)], dms={1: "only a DM"})
        assert (await store.outbox(gid))[-1].dms == {1: "only a DM"}
        await store.add_outbox(gid, ["no DM owed"])
        assert (await store.outbox(gid))[-1].dms == {}
    finally:
        await store.close()


async def test_outages_vacations_and_going_out_move_the_clocks_with_a_note_per_game(database):
    """The clock SQL of issue 21 on both backends: an outage moves running clocks and the times seats went out,
    each game with a running clock owed a note; a vacation's pause and its end owe notes; a vacation that ended
    while the host was down resumes from the host's return; only the given shards' games are touched."""
    from host.clock import SeatClock
    from host.shards import Shards

    store = await connect(database)
    try:
        here, there = await _running(store), await _running(store, guild_id=None)
        mine = Shards((1,), 2)  # GUILD's shard of two; a game without a server is shard 0's
        assert mine.owns(GUILD) and not mine.owns(None)
        for gid in (here, there):
            await store.outbox_done(gid, (await store.outbox(gid))[-1].id)
            await store.set_clocks(gid, [SeatClock(0, started=100, deadline=3700),
                                         SeatClock(1, stand_in=True, out_since=50)])
        assert await store.clock_games(running=True) == [here, there]
        assert await store.clock_games(running=True, shards=mine) == [here]
        assert await store.clock_games(user_id=USER) == [here, there] and await store.clock_games(user_id=5) == []
        assert await store.last_beat("x") is None
        await store.beat(10, "x")
        assert await store.last_beat("x") == 10

        await store.shift_clocks(1000, shards=mine, publish={here: ["offline"]})
        moved, kept = await store.clocks(here), await store.clocks(there)
        assert (moved[0]["started"], moved[0]["deadline"], moved[1]["out_since"]) == (1100, 4700, 1050)
        assert (kept[0]["deadline"], kept[1]["out_since"]) == (3700, 50), "another shard's game is not touched"
        assert (await store.outbox(here))[-1].lines == ["offline"] and await store.outbox(there) == []

        await store.set_away(USER, since=2000, until=9000, month="2030-03", used_days=1,
                             publish={here: ["away"], there: ["away too"]})
        assert [c["paused_at"] for c in await store.clocks(here)] == [2000, None]
        assert (await store.outbox(there))[-1].lines == ["away too"]
        # the vacation ended while this shard's host was down: its clocks run again from the host's return
        await store.resume_clocks(USER, at=12000, shards=mine)
        assert (await store.clocks(here))[0]["deadline"] == 4700 + 10000
        assert (await store.clocks(there))[0]["paused_at"] == 2000
        await store.end_away(USER, at=9000, publish={there: ["back"]})
        assert (await store.clocks(there))[0]["deadline"] == 3700 + 7000
        assert (await store.clocks(here))[0]["deadline"] == 4700 + 10000, "resumed once"
        assert (await store.outbox(there))[-1].lines == ["back"]
        await store.set_status(here, "finished", {"places": [1, 2]}, publish=["over"], dms={0: "you lost"})
        assert (await store.outbox(here))[-1].dms == {0: "you lost"}
        assert await store.clock_games(running=True) == [there]
    finally:
        await store.close()


async def test_a_status_change_and_the_board_it_owes_are_one_save(database, monkeypatch):
    """``set_status(..., publish=...)`` (an abandoned tournament match and its last board): both are written
    together, and when the outbox entry cannot be written the status change is rolled back with it."""
    import store.base as db

    store = await connect(database)
    try:
        gid = await _running(store)
        await store.outbox_done(gid, (await store.outbox(gid))[-1].id)
        real = db._outbox_entry
        monkeypatch.setattr(db, "_outbox_entry", lambda *a, **k: ("INSERT INTO no_such_table VALUES (?)", (1,)))
        with pytest.raises(Exception):  # noqa: B017 - the outbox INSERT fails (a different error per backend)
            await store.set_status(gid, "abandoned", publish=["The organizer decided match #1"])
        assert (await store.get_game(gid)).status == "running", "the status change was rolled back with it"
        assert await store.outbox(gid) == []
        monkeypatch.setattr(db, "_outbox_entry", real)
        await store.set_status(gid, "abandoned", publish=["The organizer decided match #1", "Game #1 is over."])
        assert (await store.get_game(gid)).status == "abandoned"
        assert [e.lines for e in await store.outbox(gid)] == [["The organizer decided match #1",
                                                                 "Game #1 is over."]]
    finally:
        await store.close()


async def test_reminders_tournaments_and_settings(database):
    store = await connect(database)
    try:
        a, b = await _running(store), await _running(store)
        future = datetime.now(UTC) + timedelta(minutes=5)
        assert await store.waiting_games(future) == [(a, 0), (b, 0)]
        assert await store.waiting_games(future, after_id=a, limit=5) == [(b, 0)]
        await store.set_reminded_many([(a, 0)])
        assert await store.waiting_games(future) == [(b, 0)]
        assert await store.waiting_games(datetime.now(UTC) - timedelta(minutes=5)) == []

        tid = await store.create_tournament(engine="hex-tri", lang="pl", guild_id=GUILD, channel_id=3,
                                            organizer_id=USER)
        await store.add_entry(tid, USER, "Ann")
        await store.add_entry(tid, USER + 1, "Bob")
        await store.set_tournament_status(tid, "running")
        await store.link_game(a, tid)
        t = await store.tournament(tid)
        assert (t.engine, t.lang, t.status, t.entries) == ("hex-tri", "pl", "running", [(USER, "Ann"), (USER + 1, "Bob")])
        assert [g.id for g in await store.tournament_games(tid)] == [a]
        assert (await store.get_game(a)).tournament_id == tid
        assert await store.tournament(tid + 100) is None

        await store.set_user_settings(USER, {"lang": "pl"})
        await store.set_user_settings(USER, {"lang": "hu", "dm": True})
        assert await store.user_settings(USER) == {"lang": "hu", "dm": True}
        assert await store.guild_settings(GUILD) == {}
        await store.set_guild_settings(GUILD, {"permission_notices": {"0": "attach_files"}})
        await store.set_guild_settings(GUILD, {"permission_notices": {"0": "", str(2**63 - 1): "embed_links"}})
        assert await store.guild_settings(GUILD) == {"permission_notices": {"0": "", str(2**63 - 1): "embed_links"}}
        await store.set_guild_settings(GUILD, {"ai_level": "hard"})
        assert await store.guild_settings(GUILD) == {"ai_level": "hard"}
        assert await store.guild_settings(GUILD + 1) == {}
        assert await store.get_game(9999) is None
    finally:
        await store.close()


async def test_an_unreachable_postgres_is_one_clear_line(unused_tcp_port):
    """No server on the port: StorageError with where it looked (never the password), not asyncpg's traceback."""
    from store import StorageError

    url = f"postgresql://bot:secret@127.0.0.1:{unused_tcp_port}/games"
    with pytest.raises(StorageError) as caught:
        await connect(url)
    assert f"127.0.0.1:{unused_tcp_port}/games" in str(caught.value) and "secret" not in str(caught.value)


async def test_departures_and_a_slice_of_the_action_log(database):
    """Players leaving a game are recorded once each, in order, with the save that made them leave (host/ending.py);
    the action log can be read a slice at a time (a page of /game log)."""
    from host.clock import SeatClock

    store = await connect(database)
    try:
        gid = await _running(store)
        for version in range(5):
            await store.commit_action(gid, expected_version=version, seat=version % 2, user_id=USER,
                                      action={"type": "x", "n": version}, events=[{"type": "e", "n": version}],
                                      snapshot={"turn": version + 1}, result=None)
        assert [a["seq"] for a in await store.actions(gid, after=1, upto=3)] == [2, 3]
        assert [a["seq"] for a in await store.actions(gid, after=3)] == [4, 5]
        await store.set_clocks(gid, [SeatClock(1, stand_in=True, forfeited=True)], depart=(1, "resigned", 5))
        await store.set_clocks(gid, [SeatClock(1, stand_in=True, forfeited=True)], depart=(1, "timeout", 6))
        await store.set_status(gid, "finished", {"places": [1, 2]}, depart=(0, "dropped", 6))
        assert await store.departures(gid) == [{"seat": 1, "how": "resigned", "step": 5},
                                               {"seat": 0, "how": "dropped", "step": 6}], "once each, in order"
    finally:
        await store.close()
