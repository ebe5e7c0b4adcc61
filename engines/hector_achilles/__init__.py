"""Hector and Achilles (Phalanx Games): a two-player card game of battles between Achaeans and Trojans.

``ENGINE`` is the rules engine registered under the key ``"hector-achilles"``; components live in
``data/hector_achilles/`` and are loaded by :mod:`engines.hector_achilles.data`.
"""

from .engine import ENGINE, HectorAchillesEngine, battle_score, facing_colours, rotate, strength_total

__all__ = ["ENGINE", "HectorAchillesEngine", "battle_score", "facing_colours", "rotate", "strength_total"]
