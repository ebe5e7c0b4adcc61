"""How a game ends: a win, a draw, a finish by triumph points (rulebook: "A játék vége").
"""

from __future__ import annotations

from . import state as S


def win(state: dict, seat: int, reason: str, ev: list) -> None:
    """``seat`` wins for ``reason``."""
    places = [1, 2] if seat == 0 else [2, 1]
    state["result"] = {"places": places, "scores": [S.dp(state, 0), S.dp(state, 1)], "reason": reason,
                       "winner": seat}
    game_over(state, ev)


def draw_game(state: dict, reason: str, ev: list) -> None:
    """The game is drawn for ``reason``."""
    state["result"] = {"places": [1, 1], "scores": [S.dp(state, 0), S.dp(state, 1)], "reason": reason,
                       "winner": None}
    game_over(state, ev)


def finish_by_dp(state: dict, reason: str, ev: list) -> None:
    """The game ends: more DP wins, equal DP draws."""
    d = [S.dp(state, 0), S.dp(state, 1)]
    if d[0] == d[1]:
        draw_game(state, reason, ev)
    else:
        win(state, 0 if d[0] > d[1] else 1, reason, ev)


def game_over(state: dict, ev: list) -> None:
    """Close the game: nothing pending, nobody to act, the result in the events."""
    state["stage"] = "over"
    state["pending"] = []
    state["prio"] = None
    state["trig"] = []
    ev.append({"type": "game_over", **{k: v for k, v in state["result"].items()}})
