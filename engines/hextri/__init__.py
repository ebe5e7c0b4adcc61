"""HEX-TRI: the trihexagonal tactics game (basic rules). ``ENGINE`` is the rules engine; the board geometry
is in :mod:`engines.hextri.board`."""

from .engine import ENGINE, HexTriEngine

__all__ = ["ENGINE", "HexTriEngine"]
