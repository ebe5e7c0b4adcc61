"""Golden-image comparison: the same view must give the same picture as the stored snapshot - the same pixels,
palette and size. (The stored files' bytes came from Pillow's own PNG writer; since issue 29 the kit writes the PNG
itself with ISA-L's deflate, which compresses the same pixels into other bytes. Whether a picture is the same is
a matter of its pixels; that the same view always gives the same bytes is tested apart, in test_encoding.py.)

Set UPDATE_SNAPSHOTS=1 to (re)write the snapshots, then look at them before committing.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from PIL import Image

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
    stored = path.read_bytes()
    if stored == png:
        return
    assert decoded(stored) == decoded(png), f"{name} differs from {path}; if intended, rerun with UPDATE_SNAPSHOTS=1"


def decoded(png: bytes) -> tuple:
    """What a PNG shows: its mode, size, palette and pixels (not how they were compressed)."""
    with Image.open(io.BytesIO(png)) as img:
        img.load()
        return img.mode, img.size, img.getpalette(), img.tobytes()
