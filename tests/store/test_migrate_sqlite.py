"""``python -m store.migrate_sqlite``: games of all five kinds, stopped mid-play in SQLite, are moved into
PostgreSQL with every row and id kept, and are then played to the end there."""

import asyncio
import sqlite3
import sys

import asyncpg
import pytest

from engines import ENGINES
from host.service import GameService
from host.tournaments import TournamentService
from store import SqliteStore, connect
from store.migrate_sqlite import TABLES, MigrationError, main, migrate
from tests.backends import fresh_postgres

ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222
CY = 444_444_444_444_444_444
DEE = 555_555_555_555_555_555
GUILD = 333_333_333_333_333_333


async def _dump(target: str) -> dict[str, list[tuple]]:
    """Every row of every table, in key order, read straight from either database."""
    keys = {"tournament_entries": "tournament_id, user_id", "seats": "game_id, seat", "actions": "game_id, seq",
            "guild_settings": "guild_id", "user_settings": "user_id", "clocks": "game_id, seat",
            "heartbeat": "name", "away": "user_id", "departures": "game_id, seat", "web_sites": "guild_id"}
    out = {}
    if target.startswith("postgresql://"):
        conn = await asyncpg.connect(target)
        try:
            for table in TABLES:
                out[table] = [tuple(r) for r in await conn.fetch(f"SELECT * FROM {table} ORDER BY {keys.get(table, 'id')}")]
        finally:
            await conn.close()
    else:
        with sqlite3.connect(target) as conn:
            for table in TABLES:
                out[table] = conn.execute(f"SELECT * FROM {table} ORDER BY {keys.get(table, 'id')}").fetchall()
    return out


async def _play(service: GameService, game_id: int, moves: int) -> None:
    """Ann (the only person; the AI answers inside each call) takes her first legal choice ``moves`` times."""
    for _ in range(moves):
        game = await service.game(game_id)
        if game.status != "running":
            return
        await service.act(game_id, ANN, game.version, 0)


async def test_games_of_every_kind_move_to_postgres_mid_play_and_finish_there(tmp_path):
    path = str(tmp_path / "g.db")
    store = await SqliteStore.open(path)
    service = GameService(store, seed_source=iter(range(100, 200)).__next__, render=False)
    ids = {}
    for key in ENGINES:
        game, _ = await service.create(key, user_id=ANN, user_name="Ann", guild_id=GUILD, channel_id=GUILD + 1,
                                       opponent="ai")
        await _play(service, game.id, 4)
        ids[key] = game.id
    # a game between two people, a lobby, a tournament, settings and a removed game (its id must not return)
    two, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=GUILD, channel_id=1)
    await service.join(two.id, BOB, "Bob")
    await service.act(two.id, ANN, 0, 0)
    # a Swiss event under way (its matches), a clock running (the two-person game's), a heartbeat, a vacation
    events = TournamentService(service)
    swiss = await events.create("hector-achilles", user_id=CY, user_name="Cy", guild_id=GUILD, channel_id=1,
                                format="swiss", rounds=2)
    await events.join(swiss.id, DEE, "Dee")
    await events.start(swiss.id, CY)
    await service.heartbeat()
    await service.set_away(BOB, 1)
    # a table of three that one player left (a departure: host/ending.py)
    three, _ = await service.create("hextri", user_id=ANN, user_name="Ann", guild_id=GUILD, channel_id=1,
                                    options={"players": 3})
    await service.join(three.id, BOB, "Bob")
    await service.join(three.id, CY, "Cy")
    await service.resign(three.id, ANN)
    lobby, _ = await service.create("troja", user_id=BOB, user_name="Bob", guild_id=GUILD, channel_id=1)
    gone, _ = await service.create("hextri", user_id=BOB, user_name="Bob", guild_id=GUILD, channel_id=1)
    tid = await store.create_tournament(engine="ave-caesar", lang="hu", guild_id=GUILD, channel_id=1,
                                        organizer_id=ANN)
    await store.add_entry(tid, BOB, "Bob")
    await store.set_user_settings(ANN, {"lang": "pl"})
    await store.save_deck(ANN, "kivalasztottak", "Medvék", "medvek", {"cards": [["vadasz", 43]], "reserve": []})
    await store.add_web_site(GUILD, slug="s1ug", secret="the server's own secret", mode="public", name="Ours")
    await store.add_outbox(two.id, ["still owed"])
    await store._transaction([("DELETE FROM games WHERE id = ?", (gone.id,))])
    service.close()
    await store.close()
    for key, gid in ids.items():
        with sqlite3.connect(path) as conn:
            status, version = conn.execute("SELECT status, version FROM games WHERE id = ?", (gid,)).fetchone()
        assert status == "running" and version >= 4, f"{key} is not mid-play"
    before = await _dump(path)
    assert all(before[t] for t in TABLES if t != "guild_settings")

    async with fresh_postgres() as url:
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "store.migrate_sqlite", path, url,
                                                    stdout=asyncio.subprocess.PIPE)
        out, _ = await proc.communicate()
        assert proc.returncode == 0
        assert out.decode().splitlines()[0] == "copied: " + ", ".join(f"{t} {len(r)}" for t, r in before.items())
        assert await _dump(url) == before  # every row, every id, every value

        pg = await connect(url)
        try:
            service = GameService(pg, render=False)
            for key, gid in ids.items():
                await _play(service, gid, 3000)
                game = await pg.get_game(gid)
                assert game.status == "finished", f"{key} did not finish on PostgreSQL"
                assert game.result["places"] and len(await pg.actions(gid)) == game.version
            game = await pg.get_game(two.id)
            (seat,) = ENGINES["hector-achilles"].to_act(await service._state(game))
            outcome = await service.act(two.id, game.seat_row(seat).user_id, game.version, 0)
            assert outcome.game.version == 2
            assert [e.lines for e in await pg.outbox(two.id)][-2] == ["still owed"]
            assert [s.name for s in (await pg.get_game(lobby.id)).seats] == ["Bob"]
            assert (await pg.tournament(tid)).entries == [(BOB, "Bob")]
            assert await pg.departures(three.id) == [{"seat": 0, "how": "resigned", "step": 0}]
            assert await pg.user_settings(ANN) == {"lang": "pl"}
            # new rows continue after the highest id SQLite ever gave out, the deleted game's included
            newer, _ = await service.create("kivalasztottak", user_id=ANN, user_name="Ann", guild_id=GUILD,
                                            channel_id=1)
            assert newer.id == gone.id + 1
            assert await pg.create_tournament(engine="troja", lang="en", guild_id=None, channel_id=None,
                                              organizer_id=ANN) == tid + 1
        finally:
            service.close()
            await pg.close()

        # a second run into the same (now filled) database writes nothing
        with pytest.raises(MigrationError, match="not empty"):
            await migrate(path, url)
        # the command line says so and fails
        proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "store.migrate_sqlite", path, url,
                                                    stderr=asyncio.subprocess.PIPE)
        _, err = await proc.communicate()
        assert proc.returncode == 1 and b"not empty" in err
        assert await _dump(url) != before  # (it holds the games finished above, untouched)


def test_a_missing_file_is_refused(tmp_path):
    assert main([str(tmp_path / "nothing.db"), "postgresql://nobody@127.0.0.1:1/x"]) == 1
