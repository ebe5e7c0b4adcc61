"""``make demo`` as the test run's smoke test: the real command (``python -m bench.demo --short``) plays a short
AI-vs-AI game of every game through the game service, draws every board and writes each game's result and its
whole narration (read page by page, as ``/game log`` does: the demo once failed on its first game, asking for
more moves than one page allowed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from engines import ENGINES

ROOT = Path(__file__).resolve().parent.parent


def test_the_demo_plays_every_game_to_its_end(tmp_path):
    out = tmp_path / "demo"
    done = subprocess.run([sys.executable, "-m", "bench.demo", "--short", "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    printed = done.stdout.splitlines()
    assert len(printed) == len(ENGINES)
    for key, engine in ENGINES.items():
        folder = out / key
        summary = json.loads((folder / "result.json").read_text(encoding="utf-8"))
        assert summary["game"] == key and summary["actions"] > 0
        assert summary["result"]["ending"]["how"] == "natural", "an AI game ends by its rules"
        assert summary["summary"] and any(line.startswith(engine.title) for line in printed)
        pictures = sorted(folder.glob("*.png"))
        assert len(pictures) == summary["actions"], "a picture of every move"
        assert all(p.stat().st_size > 1000 for p in pictures[:: max(1, len(pictures) // 5)])
        told = (folder / "narration.txt").read_text(encoding="utf-8").splitlines()
        assert len(told) >= 3 and all(line.strip() for line in told[:-1])
