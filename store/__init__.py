"""All SQL of the project: aiosqlite persistence behind :class:`store.db.Store`."""

from store.db import GameRow, SeatRow, Store, Tournament, VersionConflict

__all__ = ["GameRow", "SeatRow", "Store", "Tournament", "VersionConflict"]
