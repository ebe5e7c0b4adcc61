"""All SQL of the project, one store per dialect over shared SQL:

- store/base.py: :class:`Store`, every query and write in the SQL both backends accept, over a few abstract
  dialect methods; store/rows.py: the typed rows it returns (games, seats, tournaments, matches, outbox entries);
- store/sqlite.py: :class:`SqliteStore` (aiosqlite, WAL, checkpoints out of the commit path);
- store/postgres.py: :class:`PostgresStore` (asyncpg pool, numbered placeholders, row locks);
- store/migrations.py: the one schema of both; store/migrate_sqlite.py: copying an SQLite file to PostgreSQL.

``await connect(DATABASE_URL or DATABASE_PATH)`` picks the backend. It lives here, above both, so that neither
backend imports the other (no import circle)."""

import sqlite3
from pathlib import Path

import asyncpg

from store.base import DamagedRow, StorageError, Store, VersionConflict
from store.postgres import PostgresStore, is_postgres_url
from store.rows import DeadLetter, GameRow, MatchRow, OutboxEntry, PublicationTrouble, SeatRow, Tournament
from store.sqlite import SqliteStore


async def connect(target: str | Path) -> Store:
    """The store at ``target``: a PostgreSQL URL (``postgresql://…``, see store/postgres.py) or else the path of
    an SQLite file (store/sqlite.py)."""
    if is_postgres_url(target):
        return await PostgresStore.open(str(target))
    return await SqliteStore.open(target)


#: what a write that breaks a constraint (a seat that is neither a person nor an AI, …) raises, on either backend
IntegrityError = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)

__all__ = ["DamagedRow", "DeadLetter", "GameRow", "IntegrityError", "MatchRow", "OutboxEntry", "PostgresStore",
           "PublicationTrouble", "SeatRow", "SqliteStore", "StorageError", "Store", "Tournament", "VersionConflict",
           "connect"]
