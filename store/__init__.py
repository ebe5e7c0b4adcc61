"""All SQL of the project: :class:`store.db.Store` on SQLite (aiosqlite) or PostgreSQL (asyncpg,
store/postgres.py); ``await connect(DATABASE_URL or DATABASE_PATH)`` picks the backend.

``connect`` lives here, above both backends, so that the SQLite store never imports the PostgreSQL one that
builds on it (no import circle)."""

import sqlite3
from pathlib import Path

import asyncpg

from store.db import DamagedRow, GameRow, SeatRow, StorageError, Store, Tournament, VersionConflict
from store.postgres import PostgresStore, is_postgres_url


async def connect(target: str | Path) -> Store:
    """The store at ``target``: a PostgreSQL URL (``postgresql://…``, see store/postgres.py) or else the path of
    an SQLite file."""
    if is_postgres_url(target):
        return await PostgresStore.open(str(target))
    return await Store.open(target)


#: what a write that breaks a constraint (a seat that is neither a person nor an AI, …) raises, on either backend
IntegrityError = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)

__all__ = ["DamagedRow", "GameRow", "IntegrityError", "SeatRow", "StorageError", "Store", "Tournament",
           "VersionConflict", "connect"]
