"""What the page-fault tests (test_settled_heap, test_warm_pictures) need of the machine, and the boards they draw.

The machine: glibc's malloc (its ``mallopt`` is what they test) and ordinary 4 KiB pages for a new block. Where the kernel gives every mapping
transparent huge pages (``enabled`` set to ``always``; Debian's default is ``madvise``) a 6 MB canvas faults in
three pieces, and a count of faults no longer tells fresh memory from memory kept."""

from __future__ import annotations

import platform
import random
from pathlib import Path

import pytest

from engines import ENGINES

THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")


def _huge_pages_always() -> bool:
    try:
        return "[always]" in THP.read_text()
    except OSError:
        return False


counts_page_faults = pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc" or _huge_pages_always(),
    reason="counts 4 KiB page faults of glibc's malloc (not glibc, or transparent huge pages always on)")


def hextri_boards(n: int, seed: int) -> list[dict]:
    """``n`` public views of a HEX-TRI game in play (random legal moves, one board every third move), as the
    host hands them to the renderer: each a different board, the largest picture of the five games."""
    engine, rng = ENGINES["hextri"], random.Random(seed)
    state = engine.new_game(engine.min_players, seed, {})
    views: list[dict] = []
    for step in range(400):
        acting = engine.to_act(state)
        if not acting or len(views) == n:
            break
        engine.apply(state, acting[0], rng.choice(engine.legal_actions(state, acting[0])))
        if step % 3 == 2:
            views.append({**engine.view(state, None), "player_names": ["Ann", "Bob"], "lang": "en",
                          "clock": [{"text": f"{step} min", "urgent": False}]})
    return views
