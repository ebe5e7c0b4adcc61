"""AI levels: ``easy`` (the heuristic, with mistakes), ``normal`` (the heuristic) and ``hard`` (a search,
``ai/search/``, within its budget: at most 1 CPU second per decision on average and 2.5 at the 99th
percentile on the project's machine, checked by ``python -m bench.ai_budget``)."""

from __future__ import annotations

LEVELS = ("easy", "normal", "hard")
DEFAULT = "normal"
#: how often the easy AI takes a random legal action instead of the heuristic's
EASY_MISTAKES = 0.5
#: the hard AI's budget per decision, in search iterations: per game, under a CPU second on average on the
#: machine the figures in docs/ai.md come from (``bench/ai_budget.py``). Iterations, not seconds, so the same game and seed give the
#: same moves on any machine and under any load (the arena's figures can be re-run exactly). HEX-TRI counts
#: the actions its playouts play (``ai/hextri_search.py``): a turn's cost grows with its list of moves.
#: Troja and Ave Caesar count playouts (``search.paired``: one candidate played out each).
HARD_ITERATIONS = {"hector-achilles": 700, "troja": 255, "kivalasztottak": 50, "ave-caesar": 120, "hextri": 300}
DEFAULT_HARD_ITERATIONS = 200
#: for the paired searches (Troja, Ave Caesar) also a budget in actions played out: their playouts run to the
#: end of the game or race, so a decision early on would take several times the mean; this bounds it
#: (~80-110 us an action on this machine: Troja's first decisions played ~25,000 actions in 150 playouts, 2 CPU s;
#: Ave Caesar's first of a race ~17,000 in 120, 1.9 s). Troja's rollouts cost about half that since issue 30's
#: second round (``ai.troja.rollout_choose``: a lean view, each fight priced once per table), so its budget grew
#: from 150 playouts / 10,000 actions to 255 / 17,000 within the same CPU second
HARD_ACTIONS = {"troja": 17_000, "ave-caesar": 9_000}
#: (Kiválasztottak: a game asks each seat ~2,000 decisions, so its hard AI thinks ~0.2 s each, not a second)
#: a wall-clock cap on top: a loaded bot host still answers within a few seconds (the search then stops early);
#: on an idle host the budget ends every search well before it, so the cap never decides the strength
HARD_SECONDS = 3.0


def check(level: str | None) -> str:
    """The level itself, ``normal`` for None; ValueError for an unknown level."""
    if level is None:
        return DEFAULT
    if level not in LEVELS:
        raise ValueError(f"Unknown AI level {level!r}; choose one of {', '.join(LEVELS)}.")
    return level
