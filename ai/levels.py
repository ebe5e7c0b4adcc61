"""AI levels: ``easy`` (the heuristic, with mistakes), ``normal`` (the heuristic) and ``hard`` (IS-MCTS
search, ``ai/search.py``, within about a second per decision)."""

from __future__ import annotations

LEVELS = ("easy", "normal", "hard")
DEFAULT = "normal"
#: how often the easy AI takes a random legal action instead of the heuristic's
EASY_MISTAKES = 0.5
#: the hard AI's budget per decision: wall time, and an iteration cap so a quick game does not idle
HARD_SECONDS = 1.0
HARD_ITERATIONS = 400


def check(level: str | None) -> str:
    """The level itself, ``normal`` for None; ValueError for an unknown level."""
    if level is None:
        return DEFAULT
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level {level!r}; choose one of {', '.join(LEVELS)}.")
    return level
