"""All SQL of the project: aiosqlite persistence behind :class:`store.db.Store`."""

from store.db import DamagedRow, GameRow, SeatRow, StorageError, Store, Tournament, VersionConflict

__all__ = ["DamagedRow", "GameRow", "SeatRow", "StorageError", "Store", "Tournament", "VersionConflict"]
