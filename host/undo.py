"""Undo within a player's own turn (issue 25): what the action log says about it, and the game played again
without the action taken back.

A person's action that the engine calls reversible (``engine.reversible``: it reveals nothing hidden and the same
seat alone acts next) is logged with a :data:`MARK` event. Taking it back appends an entry of its own to the log:
the action ``{"type": UNDO, "seq": <the entry taken back>}`` with one ``UNDO`` event (what the thread was told),
and the snapshot of the game as it was before the action, found by playing the game again from its seed without
it (the engines are deterministic). The log thus keeps every step (``/game log`` tells the undo), while
:func:`final_choices` gives the actions that stand, which replays play. Nothing here touches the store, Discord
or the event loop: :func:`replayed` is a job for a worker (host/workers.py).
"""

from __future__ import annotations

import json

from engines import ENGINES, IllegalAction
from host.locale import t

#: the action type of a log entry that takes an earlier entry back (never an engine's action)
UNDO = "undo"
#: the event that marks a logged action as one its player may take back (said by nobody)
MARK = "undoable"


def is_undo(entry: dict) -> bool:
    """Whether the log entry takes another back."""
    action = entry.get("action")
    return isinstance(action, dict) and action.get("type") == UNDO and "seq" in action


def undoable(entry: dict) -> bool:
    """Whether the log entry is a person's action that may be taken back (marked when it was made)."""
    return not is_undo(entry) and any(e.get("type") == MARK for e in entry.get("events") or [])


def final_choices(entries: list[dict]) -> list[dict]:
    """The entries of a whole log that stand: without the undos and the entries they took back, in order."""
    taken = {e["action"]["seq"] for e in entries if is_undo(e)}
    return [e for e in entries if not is_undo(e) and e.get("seq") not in taken]


def as_played(entries: list[dict]) -> list[dict]:
    """The moves of a whole log as a replay plays them: ``{"seat", "action", "events"}`` of the entries that
    stand (:func:`final_choices`), without the marks."""
    return [{"seat": e["seat"], "action": e["action"],
             "events": [ev for ev in e["events"] if ev.get("type") != MARK]} for e in final_choices(entries)]


def restepped(result: dict | None, entries: list[dict]) -> dict | None:
    """A stored result (host/ending.py) whose steps (versions: log entries) count the moves that stand instead,
    as a replay numbers its steps (the same result when nothing was taken back)."""
    if result is None or not any(is_undo(e) for e in entries):
        return result
    kept = {e["seq"] for e in final_choices(entries)}

    def step(version: object) -> object:
        return sum(1 for seq in kept if seq <= version) if isinstance(version, int) else version

    out = dict(result)
    ending = result.get("ending")
    if isinstance(ending, dict):
        out["ending"] = {**ending, "step": step(ending.get("step")),
                         "left": [{**d, "step": step(d.get("step"))} if isinstance(d, dict) else d
                                  for d in ending.get("left") or []]}
    return out


def last_standing(entries: list[dict], taken: set[int]) -> dict | None:
    """The newest entry of ``entries`` (a stretch of the log, oldest first) that stands, or None when every one
    was taken back or takes back; ``taken`` gathers the seqs taken back by the undos seen (pass the same set
    when going on with an older stretch)."""
    for entry in reversed(entries):
        if is_undo(entry):
            taken.add(entry["action"]["seq"])
        elif entry["seq"] not in taken:
            return entry
    return None


def replayed(engine_key: str, num_players: int, seed: int, options: dict, rules_version: int,
             actions: list[tuple[int, dict]], last: tuple[int, dict], current: str) -> str | None:
    """The snapshot (JSON text) of the game played from its seed with ``actions`` ((seat, action) pairs that
    stand), provided that ``last`` (seat, action) made on it gives the ``current`` snapshot and may be taken back;
    None when it does not (the log and the snapshot disagree, or the action reveals something): nothing is then
    taken back."""
    engine = ENGINES[engine_key]
    try:
        state = engine.new_game(num_players, seed, dict(options))
        if rules_version != engine.rules_version:  # (as replays do: the rules the game was played under)
            data = engine.to_json(state)
            data["rules_version"] = rules_version
            state = engine.from_json(data)
        for seat, action in actions:
            engine.apply(state, seat, action)
    except (ValueError, KeyError, IllegalAction):
        return None
    before = engine.to_json(state)
    seat, action = last
    if not engine.reversible(state, seat, action):
        return None
    try:
        engine.apply(state, seat, action)
    except IllegalAction:
        return None
    if engine.to_json(state) != json.loads(current):
        return None
    return json.dumps(before)


def tell_undo(presenter, event: dict, names: list[str]) -> str:
    """The line that tells an undo (``UNDO`` event): who took back what (the narration of the action taken
    back, which the thread showed anyway; nothing else of it is told)."""
    told = [line for e in event.get("events") or [] if (line := presenter.narrate(e, names))]
    who = presenter.who(event.get("seat"), names)
    return t("undo_told", who=who, what="; ".join(told)) if told else t("undo_told_silent", who=who)


def narrate(presenter, event: dict, names: list[str]) -> str | None:
    """``presenter.narrate``, and the undos the host logs."""
    if event.get("type") == UNDO and "seq" in event:
        return tell_undo(presenter, event, names)
    return presenter.narrate(event, names)
