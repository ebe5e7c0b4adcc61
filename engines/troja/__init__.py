"""Troja (KGK / Kuźnia Gier): 2-4 Achaean heroes race to 24 Glory through challenges, duels and the gods.

``ENGINE`` is the rules engine registered under the key ``"troja"``. The card set lives in ``data/troja/``
and is loaded by :mod:`engines.troja.cards`; :mod:`engines.troja.rules` holds the fight arithmetic that the
engine, the renderer and the AI share.
"""

from .cards import HEROES, PATRONS, PHYSICAL, TYPES, card_type, face, name
from .engine import ENGINE, TrojaEngine

__all__ = ["ENGINE", "HEROES", "PATRONS", "PHYSICAL", "TYPES", "TrojaEngine", "card_type", "face", "name"]
