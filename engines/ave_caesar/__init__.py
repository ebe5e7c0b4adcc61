"""Ave Caesar: the chariot race of the Circus Maximus (engine, tracks, validator)."""

from .engine import AveCaesarEngine

ENGINE = AveCaesarEngine()

__all__ = ["ENGINE", "AveCaesarEngine"]
