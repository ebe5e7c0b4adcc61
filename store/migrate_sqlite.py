"""Move an SQLite game database into PostgreSQL, nothing lost: ``python -m store.migrate_sqlite SQLITE_PATH
POSTGRES_URL``.

Stop the bot first. The SQLite file is brought to the newest schema (as the bot would on start), PostgreSQL gets
the same schema from the same migration list, and every table is copied row for row in one PostgreSQL
transaction, ids kept; the id sequences then continue after the highest id SQLite ever gave out, so no id is
reused. The target database must hold no games yet (a half-done or repeated run changes nothing there).
Afterwards, start the bot with ``DATABASE_URL=POSTGRES_URL``.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from pathlib import Path

from store.postgres import PostgresStore
from store.sqlite import SqliteStore

#: every table, parents before the tables that refer to them
TABLES = ("tournaments", "tournament_entries", "games", "seats", "actions", "outbox", "guild_settings",
          "user_settings", "clocks", "heartbeat", "away", "tournament_matches", "departures", "decks", "web_sites")
#: tables whose ``id`` comes from a sequence (AUTOINCREMENT in SQLite, an identity column in PostgreSQL)
ID_TABLES = ("games", "tournaments", "outbox", "tournament_matches", "decks")
#: tables not copied: what the database keeps itself (by triggers: PostgreSQL's own fill it as rows come in) and
#: caches (made again when asked for)
DERIVED = ("game_counts", "replay_cache")


class MigrationError(Exception):
    """The migration cannot go ahead (nothing was written to PostgreSQL)."""


def _read(path: Path) -> tuple[dict[str, tuple[list[str], list[tuple]]], dict[str, int]]:
    """Each table's columns and rows, and the highest id each sequence gave out."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        present = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        unknown = present - set(TABLES) - set(DERIVED) - {"sqlite_sequence"}
        if unknown:  # a table added by a newer migration that this command does not know yet
            raise MigrationError(f"tables this command does not know how to copy: {sorted(unknown)}")
        data = {}
        for table in TABLES:
            cur = conn.execute(f"SELECT * FROM {table} ORDER BY rowid")
            data[table] = ([c[0] for c in cur.description], cur.fetchall())
        issued = dict(conn.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
    return data, issued


async def migrate(sqlite_path: str | Path, postgres_url: str) -> dict[str, int]:
    """Copy the SQLite database at ``sqlite_path`` into the (empty) PostgreSQL database at ``postgres_url``;
    returns the number of rows copied per table."""
    path = Path(sqlite_path)
    if not path.is_file():
        raise MigrationError(f"{path} is not a file")
    source = await SqliteStore.open(path)  # the newest schema, and the WAL folded into the file on close
    version = await source.schema_version()
    await source.close()
    data, issued = _read(path)

    target = await PostgresStore.open(postgres_url)
    try:
        if await target.schema_version() != version:
            raise MigrationError(f"schema versions differ: SQLite {version}, PostgreSQL "
                                 f"{await target.schema_version()}")
        async with target._pool.acquire() as conn, conn.transaction():
            for table in TABLES:
                if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                    raise MigrationError(f"the PostgreSQL database is not empty (table {table} has rows); "
                                         "migrate into a new database")
            for table in TABLES:
                columns, rows = data[table]
                if rows:
                    await conn.copy_records_to_table(table, columns=columns, records=rows)
            for table in ID_TABLES:
                highest = max(issued.get(table, 0), await conn.fetchval(f"SELECT COALESCE(MAX(id), 0) FROM {table}"))
                # is_called=false: the next id handed out is exactly highest + 1
                await conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), $1, false)", highest + 1)
            copied = {table: await conn.fetchval(f"SELECT COUNT(*) FROM {table}") for table in TABLES}
        for table in TABLES:
            if copied[table] != len(data[table][1]):
                raise MigrationError(f"{table}: {len(data[table][1])} rows in SQLite, {copied[table]} copied")
    finally:
        await target.close()
    return copied


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m store.migrate_sqlite", description=__doc__.split("\n\n")[0])
    parser.add_argument("sqlite_path", help="the SQLite file (DATABASE_PATH), e.g. var/gamehost.db")
    parser.add_argument("postgres_url", help="an empty PostgreSQL database, postgresql://user:password@host:port/db")
    args = parser.parse_args(argv)
    try:
        copied = asyncio.run(migrate(args.sqlite_path, args.postgres_url))
    except MigrationError as e:
        print(f"migration stopped, nothing written to PostgreSQL: {e}", file=sys.stderr)
        return 1
    print("copied: " + ", ".join(f"{table} {n}" for table, n in copied.items()))
    print("now start the bot with DATABASE_URL set to the PostgreSQL URL")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
