"""All SQL of the project: :class:`store.db.Store` on SQLite (aiosqlite) or PostgreSQL (asyncpg,
store/postgres.py); ``await Store.connect(DATABASE_URL or DATABASE_PATH)`` picks the backend."""

import sqlite3

import asyncpg

from store.db import DamagedRow, GameRow, SeatRow, StorageError, Store, Tournament, VersionConflict

#: what a write that breaks a constraint (a seat that is neither a person nor an AI, …) raises, on either backend
IntegrityError = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)

__all__ = ["DamagedRow", "GameRow", "IntegrityError", "SeatRow", "StorageError", "Store", "Tournament",
           "VersionConflict"]
