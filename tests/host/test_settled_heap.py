"""Once set up, the bot's process and each worker process freeze what start-up left (host/workers.settle_heap),
so the garbage collector no longer walks it in a player's click: a full collection of the bot's start-up heap
took about 50 ms, the largest single pause in a move's p99. Tests run the bot in a separate process: a frozen test
process would keep every later test's garbage. A settled worker process also keeps the memory a picture frees for
the next picture (host/workers.keep_freed_memory): a fresh one otherwise drew its first boards at twice the cost,
the kernel faulting in and zeroing each board's canvas page by page."""

from __future__ import annotations

import gc
import json
import multiprocessing
import resource
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from host.workers import Workers
from tests.host.paging import counts_page_faults, hextri_boards

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


def faults_per_board(views: list[dict]) -> float:
    """(A job, in the process that runs it) the page faults of drawing each of ``views`` after the first (whose
    cached layers are drawn once whatever the heap does)."""
    from render import RENDERERS

    draw = RENDERERS["hextri"].render_public
    draw(views[0])
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for view in views[1:]:
        draw(view)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / (len(views) - 1)


@counts_page_faults
async def test_a_worker_process_draws_its_first_boards_in_memory_it_already_has():
    views = hextri_boards(12, seed=5)
    workers = Workers(1)
    try:
        faults = await workers.run("picture", faults_per_board, views, budget=60)
    finally:
        workers.close()
    # a board's canvas alone is ~1,500 pages (6 MB): none of it is faulted in again for the next board (13 a
    # board here, against 175 in a process left as it starts: below)
    assert faults < 50


@counts_page_faults
def test_a_process_left_as_it_starts_pays_for_fresh_pages_on_each_board():
    # (what the worker process above is spared: the same boards in a new process with glibc's defaults. Since a
    # board, its quantised places and its clock strip are written straight into the PNG's rows, without two
    # whole copies of the board, such a process pays 175 fresh pages a board, not over 500: still ten times
    # what a settled one pays)
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        faults = pool.submit(faults_per_board, hextri_boards(12, seed=5)).result(timeout=120)
    assert faults > 100
