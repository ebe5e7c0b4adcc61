"""AI levels: ``easy`` (the heuristic, with mistakes), ``normal`` (the heuristic) and ``hard`` (IS-MCTS
search, ``ai/search.py``, within about a second per decision)."""

from __future__ import annotations

LEVELS = ("easy", "normal", "hard")
DEFAULT = "normal"
#: how often the easy AI takes a random legal action instead of the heuristic's
EASY_MISTAKES = 0.5
#: the hard AI's budget per decision, in search iterations: per game, about a second of one idle core on the
#: machine the figures in the README come from. Iterations, not seconds, so the same game and seed give the
#: same moves on any machine and under any load (the arena's figures can be re-run exactly). HEX-TRI counts
#: the actions its playouts play (``ai/hextri_search.py``): a turn's cost grows with its list of moves.
#: Troja and Ave Caesar count playouts (``search.paired``: one candidate played out each).
HARD_ITERATIONS = {"hector-achilles": 700, "troja": 150, "kivalasztottak": 50, "ave-caesar": 120, "hextri": 300}
DEFAULT_HARD_ITERATIONS = 200
#: for the paired searches (Troja, Ave Caesar) also a budget in actions played out: their playouts run to the
#: end of the game or race, so a decision early on would take several times the mean; this bounds it
#: (~80-110 us an action on this machine: Troja's first decisions played ~25,000 actions in 150 playouts, 2 CPU s;
#: Ave Caesar's first of a race ~17,000 in 120, 1.9 s)
HARD_ACTIONS = {"troja": 10_000, "ave-caesar": 9_000}
#: (Kiválasztottak: a game asks each seat ~2,000 decisions, so its hard AI thinks ~0.1 s each, not a second)
#: a wall-clock cap on top: a loaded bot host still answers within a few seconds (the search then stops early)
HARD_SECONDS = 3.0


def check(level: str | None) -> str:
    """The level itself, ``normal`` for None; ValueError for an unknown level."""
    if level is None:
        return DEFAULT
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level {level!r}; choose one of {', '.join(LEVELS)}.")
    return level
