"""The event loop the bot runs on: uvloop's where it is installed (Linux and macOS), asyncio's own elsewhere.

A move makes several hand-overs between the loop and other threads (SQLite's connection, the worker that lists the
next seat's choices) and schedules dozens of callbacks; under asyncio's own loop that bookkeeping was about a
quarter of the loop thread's busy time in a move, and uvloop's costs less: 2-15% less CPU per move (issue 29; the
README's Dependencies table has the figures). The setting ``EVENT_LOOP=asyncio`` keeps asyncio's loop, to rule
the loop out when hunting a bug.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

#: the loops the setting ``EVENT_LOOP`` may name; the first is the default
LOOPS = ("uvloop", "asyncio")


def kind(wanted: str = LOOPS[0]) -> str:
    """The loop :func:`run` starts for ``wanted``: uvloop's only where it is installed (it has no Windows build)."""
    if wanted not in LOOPS:
        raise ValueError(f"the event loop must be one of {', '.join(LOOPS)}, not {wanted!r}")
    if wanted == "uvloop":
        try:
            import uvloop  # noqa: F401
        except ImportError:
            return "asyncio"
    return wanted


def run(main: Coroutine[Any, Any, T], wanted: str = LOOPS[0]) -> T:
    """Run ``main`` to its end on a new event loop of the :func:`kind` ``wanted``, as ``asyncio.run`` does."""
    if kind(wanted) == "uvloop":
        import uvloop

        return uvloop.run(main)
    return asyncio.run(main)
