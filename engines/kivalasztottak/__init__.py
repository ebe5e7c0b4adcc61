"""Kiválasztottak (The Chosen): the two-player card game of rival mages, "Vadászháború" starter rules."""

from .engine import ENGINE, KivalasztottakEngine

__all__ = ["ENGINE", "KivalasztottakEngine"]
