"""Once set up, the bot's process and each worker process freeze what start-up left (host/workers.settle_heap),
so the garbage collector no longer walks it in a player's click: a full collection of the bot's start-up heap
took about 50 ms, the largest single pause in a move's p99. Tests run the bot in a separate process: a frozen test
process would keep every later test's garbage."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
from pathlib import Path

from host.workers import Workers

ROOT = Path(__file__).resolve().parents[2]

#: the real bot, set up (no gateway) with or without ``settle_heap``: how many objects were frozen, and how many
#: the collector still walks
BOT = """
import asyncio, gc, json, sys
from bot import create_bot
from settings import Settings

async def main(settle, path):
    bot = create_bot(Settings(token=None, database_path=path, sync_commands=False, render_processes=0),
                     settle_heap=settle)
    async with bot:
        await bot.setup_hook()
        print(json.dumps({"frozen": gc.get_freeze_count(), "walked": len(gc.get_objects()),
                          "service": bot.service is not None}))

asyncio.run(main(sys.argv[1] == "settle", sys.argv[2]))
"""


def _set_up_bot(tmp_path: Path, settle: bool) -> dict:
    run = subprocess.run([sys.executable, "-c", BOT, "settle" if settle else "plain", str(tmp_path / "bot.db")],
                         cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_the_bot_freezes_its_start_up_once_set_up(tmp_path):
    settled, plain = _set_up_bot(tmp_path, True), _set_up_bot(tmp_path, False)
    assert settled["service"] and plain["service"]  # set up in full both times
    assert plain["frozen"] == 0  # (how a test builds it: nothing frozen)
    # the modules, data and services of start-up are out of the collector's walks
    assert settled["frozen"] > 50_000
    assert settled["walked"] < plain["walked"] / 10


async def test_a_worker_process_freezes_its_imports():
    workers = Workers(1)
    try:
        frozen = await workers.run("picture", gc.get_freeze_count, budget=60)
    finally:
        workers.close()
    assert frozen > 10_000  # the engines, renderers and Pillow it imported on start


async def test_worker_threads_leave_the_test_process_alone():
    workers = Workers(0)  # (tests and small machines: threads in the caller's process)
    try:
        await workers.run("picture", gc.get_freeze_count, budget=60)
    finally:
        workers.close()
    assert gc.get_freeze_count() == 0
