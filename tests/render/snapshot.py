"""Golden-image comparison: the same view must give the same PNG bytes as the stored snapshot.

Set UPDATE_SNAPSHOTS=1 to (re)write the snapshots, then look at them before committing.
"""

from __future__ import annotations

import os
from pathlib import Path

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


def assert_snapshot(name: str, png: bytes) -> None:
    assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    path = SNAPSHOTS / f"{name}.png"
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        SNAPSHOTS.mkdir(parents=True, exist_ok=True)
        path.write_bytes(png)
        if not os.environ.get("UPDATE_SNAPSHOTS"):
            raise AssertionError(f"snapshot {path.name} was missing and has been written; look at it and rerun")
        return
    assert path.read_bytes() == png, f"{name} differs from {path}; if intended, rerun with UPDATE_SNAPSHOTS=1"
