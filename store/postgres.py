"""The PostgreSQL backend: :class:`PostgresStore`, store/base.py's SQL and methods over an asyncpg pool.

Only the dialect lives here: ``?`` placeholders become ``$1, $2, …``; a transaction is ``BEGIN`` … ``COMMIT`` on
one pooled connection (PostgreSQL's row locks serialise writers, so the version guard of a move works across
processes, not only across coroutines); ``RETURNING id`` replaces ``lastrowid``; the JSON fragments use jsonb
operators; the schema version is a ``schema_version`` table (SQLite's is ``PRAGMA user_version``); there is no
WAL to checkpoint. The schema is the one migration list of store/migrations.py.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import asyncpg

from store.base import FIRST_ID, Statement, StorageError, Store, VersionConflict, _forget_written
from store.migrations import MIGRATIONS, steps

#: tables whose rows get an id from an identity column (an INSERT into them returns it)
_ID_TABLES = re.compile(r"^\s*INSERT INTO (games|tournaments|outbox|tournament_matches)\b")
#: any number: taken by every process that migrates, so two processes starting at once migrate one after the other
_MIGRATION_LOCK = 7_310_012


def is_postgres_url(target: object) -> bool:
    return str(target).startswith(("postgresql://", "postgres://"))


@lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    """``?`` placeholders -> ``$1, $2, …`` (the store's SQL has no ``?`` inside string literals)."""
    count = 0

    def number(_match: re.Match) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def _rowcount(status: str) -> int:
    """The row count of a command status such as ``UPDATE 1``."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresStore(Store):
    """:class:`Store` on PostgreSQL. Open with ``await PostgresStore.open("postgresql://…")``."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        super().__init__()
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresStore:
        where = url.split("@")[-1]  # (never the password)
        try:
            pool = await asyncpg.create_pool(url, min_size=min_size, max_size=max_size)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(f"cannot connect to PostgreSQL at {where}: {' '.join(str(exc).split())}") from exc
        store = cls(pool)
        try:
            await store._migrate()
            await store._columns()  # now, not in the middle of the first listing
        except asyncpg.PostgresError as exc:
            await pool.close()
            raise StorageError(f"PostgreSQL at {where} refused the schema: {' '.join(str(exc).split())}") from exc
        except BaseException:
            await pool.close()
            raise
        return store

    async def close(self) -> None:
        await self._pool.close()

    async def checkpoint(self) -> None:
        """Nothing to do: PostgreSQL checkpoints by itself, outside the commits."""

    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
            current = await conn.fetchval("SELECT version FROM schema_version")
            if current is None:
                current = 0
                await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
            if current > len(MIGRATIONS):
                raise StorageError(f"the database has schema version {current}, newer than this bot's "
                                   f"{len(MIGRATIONS)}: it was used by a newer version of the bot")
            # DDL is transactional in PostgreSQL: the migrations and their version number commit together
            for number, entry in enumerate(MIGRATIONS[current:], start=current + 1):
                for statement in steps(entry, "postgres"):
                    await conn.execute(statement)
                await conn.execute("UPDATE schema_version SET version = $1", number)

    async def schema_version(self) -> int:
        return await self._pool.fetchval("SELECT version FROM schema_version")

    async def journal_mode(self) -> str:
        raise NotImplementedError("journal_mode is SQLite's; PostgreSQL has no journal mode to report")

    # -- the dialect ----------------------------------------------------------------------------------

    async def _rows(self, sql: str, params: tuple = ()) -> list:
        return await self._pool.fetch(_numbered(sql), *params)

    @staticmethod
    def _raw(column: str) -> str:
        # the bytes as stored, in the database's encoding: no conversion to the client's UTF-8, which is where
        # bytes that are not text (in an SQL_ASCII database) fail the whole query
        return f"convert_to({column}, getdatabaseencoding())"

    async def _column_names(self, table: str) -> list[str]:
        return [r["column_name"] for r in await self._rows(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ? ORDER BY ordinal_position", (table,))]

    async def _text_columns(self, table: str) -> set[str]:
        return {r["column_name"] for r in await self._rows(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()"
            " AND table_name = ? AND data_type = 'text'", (table,))}

    @staticmethod
    def _undecodable(exc: BaseException) -> bool:
        return isinstance(exc, UnicodeDecodeError | asyncpg.CharacterNotInRepertoireError
                          | asyncpg.UntranslatableCharacterError)

    @staticmethod
    def _json_set(column: str, key: str) -> str:
        return f"({column}::jsonb || jsonb_build_object('{key}', ?::bigint))::text"

    @staticmethod
    def _json_int(column: str, key: str) -> str:
        return f"({column}::jsonb ->> '{key}')::bigint"

    @staticmethod
    def _json_remove(column: str, key: str) -> str:
        return f"({column}::jsonb - '{key}')::text"

    async def _transaction(self, statements: list[Statement], guard: Statement | None = None,
                           *, first_id: bool = False) -> Any:
        """Run statements atomically; ``guard`` (an UPDATE) must change exactly one row, else VersionConflict.
        Returns the id of the row the last statement inserted (games, tournaments, outbox), else None; with
        ``first_id``, of the row the first one inserted, which later statements may use as ``FIRST_ID``."""
        _forget_written(statements, guard)
        async with self._pool.acquire() as conn, conn.transaction():
            if guard is not None:
                # a concurrent writer of the same game holds its row lock until it commits; then the WHERE is
                # re-checked against its new version, so the loser sees 0 rows
                if _rowcount(await conn.execute(_numbered(guard[0]), *guard[1])) != 1:
                    raise VersionConflict("the game has moved on")
            last_id = first = None
            for i, (sql, params) in enumerate(statements):
                params = tuple(first if p is FIRST_ID else p for p in params)
                if (i == len(statements) - 1 or (first_id and i == 0)) and _ID_TABLES.match(sql):
                    last_id = await conn.fetchval(_numbered(sql) + " RETURNING id", *params)
                    first = last_id if i == 0 else first
                else:
                    await conn.execute(_numbered(sql), *params)
        return first if first_id else last_id
