"""A bot killed without closing anything (kill -9, the OOM killer) leaves no worker process behind: its picture
and choice workers (host/workers.py) and its tournaments' pairing worker (host/tournaments.py) exit with it.
Before, the pairing worker - and the resource tracker that waits for it - stayed forever after each hard kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: a stand-in for the bot: both kinds of worker pool started and busy once, then it waits to be killed
BOT = """
import asyncio, os, sys
from host.tournaments import PairingWorker
from host.workers import Workers

async def main():
    workers, pairing = Workers(2), PairingWorker(processes=1)
    await workers.run("picture", os.getpid, budget=60)
    plan = await pairing.plan([1, 2, 3, 4], [], 1)
    assert len(plan.tables) == 2
    print("ready", flush=True)
    await asyncio.sleep(600)

if __name__ == "__main__":
    asyncio.run(main())
"""


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_a_killed_bot_leaves_no_worker_process_behind():
    bot = subprocess.Popen([sys.executable, "-c", BOT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None and bot.stdout.readline().strip() == "ready"
        workers = _children(bot.pid)
        # two picture workers, the pairing worker and the resource trackers of the two pools
        assert len(workers) >= 3, workers
        os.kill(bot.pid, signal.SIGKILL)
        bot.wait(10)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(p) for p in workers):
            time.sleep(0.2)
        left = [p for p in workers if _alive(p)]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, [Path(f"/proc/{p}/cmdline").read_bytes().replace(b"\0", b" ")[:200] for p in left]
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.wait()
