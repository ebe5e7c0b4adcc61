"""The bot's picture workers draw a board and a hand of every game in the default language as they start
(host/warm_pictures.py), so that the first player of each game after a start does not wait for the renderer's
fonts, empty boards and sprites to be built (HEX-TRI's first board: 100 ms against 8). The replay and AI workers,
which start a process per job or seldom draw a board, do not."""

from __future__ import annotations

import logging
import resource

from host import warm_pictures as warm_module
from host.locale import DEFAULT
from host.replay_queue import ReplayQueue
from host.service import GameService
from host.warm_pictures import warm_pictures
from host.workers import Workers
from render import RENDERERS
from store.sqlite import SqliteStore
from tests.host.paging import counts_page_faults, hextri_boards


def warmed() -> list[tuple[str, str]]:
    """(A job) what the worker process running it drew as it started."""
    return sorted(warm_module.WARMED)


def first_board_faults(view: dict) -> int:
    """(A job) the page faults of the first HEX-TRI board the worker process running it draws."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    RENDERERS["hextri"].render_public(view)
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before


async def _run(workers: Workers, fn, *args):
    try:
        return await workers.run("picture", fn, *args, budget=120)
    finally:
        workers.close()


async def test_a_warm_worker_has_drawn_every_game_before_its_first_job():
    drawn = await _run(Workers(1, warm=True), warmed)
    assert drawn == sorted((key, DEFAULT) for key in RENDERERS)
    # (a worker of any other pool starts without them)
    assert await _run(Workers(1), warmed) == []


@counts_page_faults
async def test_the_first_board_after_a_start_is_drawn_with_what_the_samples_built():
    view = hextri_boards(10, seed=3)[-1]  # (a board some thirty moves in)
    warm, cold = await _run(Workers(1, warm=True), first_board_faults, view), \
        await _run(Workers(1), first_board_faults, view)
    # a cold worker builds the empty board, its labels and its fonts in this player's click, and grows its heap
    # for them (~7,000 pages, 120 ms); a warm one has them, and draws in memory it has but for one canvas
    # (~2,500 pages: the samples left the heap's free memory in pieces; 15 ms, then 5-9 ms a board)
    assert cold > 5_000
    assert warm < cold / 2


async def test_only_the_services_picture_workers_are_warmed(tmp_path):
    store = await SqliteStore.open(tmp_path / "warm.db")
    service = GameService(store, render=False)
    try:
        assert service.workers.warm and service.painter.warm
        assert not ReplayQueue(store, service.limits).workers.warm  # (a process per replay: it would pay each time)
    finally:
        service.close()
        await store.close()


def test_a_game_whose_sample_cannot_be_drawn_is_logged_and_the_others_are_drawn(monkeypatch, caplog):
    def broken(view):
        raise RuntimeError("no such font")

    monkeypatch.setattr(RENDERERS["troja"], "render_public", broken)
    monkeypatch.setattr(warm_module, "WARMED", {})
    with caplog.at_level(logging.ERROR, logger="host.warm_pictures"):
        drawn = warm_pictures()
    assert "troja" in caplog.text and "no such font" in caplog.text
    assert {key for key, _ in drawn} == set(RENDERERS) - {"troja"}
