"""The bot's CPU work off the event loop, each job with a time budget.

Pictures, a seat's choices (listing, describing and digesting them: ``host/seatwork.py``) and the AI's decisions
are plain functions of plain data that :class:`Workers` runs while the event loop only waits:

- ``processes > 0`` (the bot: ``RENDER_PROCESSES``, 2 by default): a pool of spawned worker processes (pebble's
  ``ProcessPool``). A job past its budget is stopped - its process is killed and a fresh one takes its place -
  and :class:`Overrun` is raised. Neither the loop, nor the GIL, nor the bot's memory is held by a job, however
  large the position it works on.
- ``processes == 0`` (tests and scripts; ``RENDER_PROCESSES=0`` on a small machine): worker threads. The budget
  ends the waiting, not the work, and a thread shares the GIL with the event loop, so a long job in a thread
  still slows the loop down (every wake-up of the loop waits for the GIL): threads suit small jobs only.

Budgets are wall-clock seconds per job (``BUDGETS``); what a player is told when one runs out is the caller's
(``host/service.py``): the move was not made, or the choices are not shown, and when to try again.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import logging
import multiprocessing
import os
import queue
import threading
from collections.abc import Callable

import pebble

log = logging.getLogger(__name__)

#: seconds a job of each kind may take: far above what any game's normal position needs (milliseconds; a hard AI
#: decision about a second of CPU, capped at 3 s by its own clock), far below Discord's 15 minutes for a
#: deferred answer
BUDGETS = {
    "picture": 15.0,  # one board or hand (5-20 ms normally)
    "turn": 8.0,  # a seat's choices: list, describe, digest (a few ms normally; HEX-TRI's 200,000 moves: 1-5 s)
    "ai": 10.0,  # an easy or normal AI decision (milliseconds normally)
    "search": 8.0,  # a hard AI decision (about a second of CPU; its own clock stops it at 3 s)
    "replay": 180.0,  # an animated replay (5 s for 500 steps; the longest games sampled to 120 frames)
    "replay_step": 20.0,  # one step of a replay: the game played again up to it, one picture (under a second)
}


#: how much lower than the bot's process the worker processes run (``os.nice``)
WORKER_NICENESS = 10


class Overrun(Exception):
    """A job ran past its budget and was stopped (in threads: no longer waited for)."""

    def __init__(self, job: str, budget: float) -> None:
        super().__init__(f"{job} took longer than {budget:g} s")
        self.job, self.budget = job, budget


def exit_with_parent() -> None:
    """In a worker process (an initializer): exit as soon as the process that started it is gone, even if it was
    killed without stopping its pools (kill -9, the OOM killer). A worker waiting for its next job would otherwise
    wait forever (its job queue's pipe is held open by the worker itself), and so would the resource tracker that
    waits for it: before the tournaments' pairing worker did this, each hard kill of the bot left both behind."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def wait() -> None:
        parent.join()  # (its sentinel: a pipe that closes when the parent's process ends)
        os._exit(0)

    threading.Thread(target=wait, name="exit-with-parent", daemon=True).start()


def settle_heap() -> None:
    """Collect the garbage of start-up, then freeze what is left (``gc.freeze``): the modules, data and caches a
    process holds for its whole life are no longer walked by the cyclic garbage collector. A full collection of
    the bot's start-up heap (about 95,000 objects) took 50 ms, in whichever click it happened to fall (one in a
    few hundred moves: the largest pause of a move's p99); after the freeze it walks only what came since. Then
    the memory a job frees is kept for the next (:func:`keep_freed_memory`). Called
    once a process has set up (the bot after ``setup_hook``, each worker process after its imports); never in a
    test's process, whose garbage would then stay for the rest of the run."""
    gc.collect()
    gc.freeze()
    keep_freed_memory()


#: glibc's malloc, once a process has set up: blocks up to this size come from the heap, not from a mapping of
#: their own (32 MiB: glibc's largest on 64-bit; a HEX-TRI board's canvas is 6 MB, a folded one's 15 MB) ...
MMAP_THRESHOLD = 32 * 1024 * 1024
#: ... and the heap keeps up to this much freed memory for the next job instead of handing it back to the kernel
TRIM_THRESHOLD = 128 * 1024 * 1024
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # (mallopt's parameter numbers, malloc.h)


def keep_freed_memory() -> bool:
    """Keep the memory a picture frees for the next picture (glibc only: ``mallopt``; elsewhere nothing, False).

    By default glibc gives a freed block of more than 128 KiB back to the kernel (and raises that bound only
    slowly), so each board's canvas, its copies and its PNG came in fresh pages that the kernel faulted in and
    zeroed one by one: a new worker process paid about 2,000-3,000 page faults a HEX-TRI board, twice its
    drawing time (15 against 7 ms), for its first eighty boards or so (issue 29). With the bounds fixed the
    heap grows to what a picture needs once and is reused. Memory a process held at its peak is kept (up to
    :data:`TRIM_THRESHOLD` of it free)."""
    try:
        mallopt = ctypes.CDLL(None).mallopt  # (the process's own C library)
    except (OSError, AttributeError, TypeError):  # not glibc's (macOS has no mallopt; Windows no CDLL(None))
        return False
    # (musl has mallopt but ignores it: 0)
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


def _start_worker(memory: int | None = None, warm: bool = False) -> None:
    """In a new worker process: run at a lower priority than the bot, exit when the bot's process is gone (even if it was killed without closing the
    pool), cap its memory at ``memory`` bytes of address space (a job that needs more fails with MemoryError
    instead of pushing the machine into swap), and import what the jobs need now, so that a job does not wait
    for it; with ``warm``, draw a board of every game too (host/warm_pictures.py). Then frozen:
    :func:`settle_heap`."""
    try:
        # below the bot's own process: on a busy machine the scheduler then runs the event loop first, and jobs
        # take the CPU it leaves (with both workers busy on two cores the loop otherwise woke 0.2-0.5 s late)
        os.nice(WORKER_NICENESS)
    except OSError:  # not allowed here: the same priority as the bot
        pass
    exit_with_parent()
    if memory:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    import host.seatwork  # noqa: F401
    import render  # noqa: F401

    if warm:
        from host.warm_pictures import warm_pictures

        keep_freed_memory()  # (first: the heap the samples grow is kept for the jobs)
        warm_pictures()
    settle_heap()  # (the samples' garbage collected, the caches they filled frozen with the imports)


def _draw(key: str, method: str, args: tuple):
    from render import RENDERERS

    return getattr(RENDERERS[key], method)(*args)


def _ready() -> bool:
    return True


def retrieved(job: asyncio.Future) -> None:
    """A done callback: the job's error (if any) counts as retrieved (nobody need wait for the job)."""
    if not job.cancelled():
        job.exception()


def _settle(future: asyncio.Future, result: object, error: BaseException | None) -> None:
    if future.done():  # (past its budget, or its caller was cancelled: nobody waits for it)
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class _Threads:
    """Worker threads for small jobs, each job handed over with one queue put and answered with one
    ``call_soon_threadsafe`` (a ``ThreadPoolExecutor`` behind ``run_in_executor`` and ``wait_for`` cost more per
    job than a seat's choices in most positions: issue 29). Daemon threads: a job still running when the bot
    exits does not hold the exit up."""

    def __init__(self, count: int, name: str) -> None:
        self._count, self._name = count, name
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._started: list[threading.Thread] = []
        self._busy = 0
        self._lock = threading.Lock()

    def put(self, loop: asyncio.AbstractEventLoop, future: asyncio.Future, fn: Callable, args: tuple) -> None:
        with self._lock:
            # another thread only when every one is busy (as ThreadPoolExecutor: idle threads take the job)
            if self._busy >= len(self._started) and len(self._started) < self._count:
                thread = threading.Thread(target=self._work, name=f"{self._name}_{len(self._started)}", daemon=True)
                self._started.append(thread)
                thread.start()
            self._busy += 1
        self._queue.put((loop, future, fn, args))

    def _work(self) -> None:
        while (item := self._queue.get()) is not None:
            loop, future, fn, args = item
            try:
                if future.done():  # cancelled or past its budget before it started
                    continue
                try:
                    result, error = fn(*args), None
                except BaseException as exc:  # noqa: BLE001 - handed to the caller, as run_in_executor does
                    result, error = None, exc
                try:
                    loop.call_soon_threadsafe(_settle, future, result, error)
                except RuntimeError:  # the loop is closed: nobody waits any more
                    pass
            finally:
                with self._lock:
                    self._busy -= 1
                item = result = error = None  # (no reference kept while waiting for the next job)

    def shutdown(self) -> None:
        """Stop the threads once the jobs queued are done with; jobs not started are cancelled."""
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                loop, future = item[0], item[1]
                try:
                    loop.call_soon_threadsafe(future.cancel)
                except RuntimeError:
                    pass
        for _ in self._started:
            self._queue.put(None)


class Workers:
    """Runs job functions off the event loop with a budget: ``await workers.run("turn", fn, *args)``.

    ``processes``: worker processes (0: threads). Jobs of one pool queue for a free worker; a queued job's budget
    counts from its start, not from its queueing."""

    def __init__(self, processes: int = 0, *, threads: int = 4, name: str = "workers", max_tasks: int = 0,
                 memory: int | None = None, warm: bool = False) -> None:
        self.processes = processes
        self.name = name
        self._threads = threads
        #: a process is replaced after this many jobs (0: never), which gives its memory back to the machine
        self.max_tasks = max_tasks
        #: bytes of address space each worker process may use (None: no cap)
        self.memory = memory
        #: each worker process draws a board of every game before its first job (host/warm_pictures.py)
        self.warm = warm
        self._pool: pebble.ProcessPool | None = None
        self._thread_pool: _Threads | None = None
        #: jobs stopped for running past their budget (tests and metrics read it)
        self.overruns = 0

    def _process_pool(self) -> pebble.ProcessPool:
        if self._pool is None:
            # spawn, not fork: the bot's process has threads (aiosqlite, asyncio) that fork would copy half-way
            self._pool = pebble.ProcessPool(max_workers=self.processes, max_tasks=self.max_tasks,
                                            initializer=_start_worker, initargs=(self.memory, self.warm),
                                            context=multiprocessing.get_context("spawn"))
        return self._pool

    def _threads_pool(self) -> _Threads:
        if self._thread_pool is None:
            self._thread_pool = _Threads(self._threads, self.name)
        return self._thread_pool

    async def run(self, job: str, fn: Callable, *args, budget: float | None = None):
        """``fn(*args)`` in a worker; :class:`Overrun` when it takes longer than ``budget`` (default: the job
        kind's ``BUDGETS`` entry). ``fn`` must be a module-level function and its arguments and result plain
        data (they cross a process boundary)."""
        budget = BUDGETS[job] if budget is None else budget
        if self.processes <= 0:
            future = self._in_thread(job, fn, args, budget)
            try:
                return await future
            finally:
                if not future.done():  # (the caller was cancelled: a job not started yet is skipped)
                    future.cancel()
        scheduled = self._process_pool().schedule(fn, args=args, timeout=budget)
        try:
            return await asyncio.wrap_future(scheduled)
        except TimeoutError:
            self.overruns += 1
            log.warning("%s job %s stopped after %g s (its worker process was replaced)", job, fn.__name__,
                        budget)
            raise Overrun(job, budget) from None
        except pebble.ProcessExpired as exc:  # killed from outside, or out of memory: a new worker is started
            log.error("a worker process died during a %s job (%s): %s", job, fn.__name__, exc)
            raise

    def start(self, job: str, fn: Callable, *args) -> asyncio.Future:
        """``run(job, fn, *args)`` started now, as a future (whose error nobody need retrieve): in threads the
        job's own future, without a task around it."""
        if self.processes <= 0:
            future = self._in_thread(job, fn, args, BUDGETS[job])
        else:
            future = asyncio.ensure_future(self.run(job, fn, *args))
        future.add_done_callback(retrieved)
        return future

    def _in_thread(self, job: str, fn: Callable, args: tuple, budget: float) -> asyncio.Future:
        """``fn(*args)`` handed to a worker thread: its future, set to :class:`Overrun` past ``budget``."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._threads_pool().put(loop, future, fn, args)
        timer = loop.call_later(budget, self._expire, future, job, fn.__name__, budget)
        future.add_done_callback(lambda _: timer.cancel())
        return future

    def _expire(self, future: asyncio.Future, job: str, name: str, budget: float) -> None:
        if future.done():
            return
        self.overruns += 1
        log.warning("%s job %s stopped after %g s (it runs on in its thread)", job, name, budget)
        future.set_exception(Overrun(job, budget))

    async def draw(self, key: str, method: str, *args):
        """A picture: ``render.RENDERERS[key].<method>(*args)`` (PNG bytes)."""
        return await self.run("picture", _draw, key, method, args)

    async def warm_up(self) -> None:
        """Start the worker processes now (each imports the engines, presenters, Pillow and the renderers: about
        a second), so that the first click after start-up does not wait for it."""
        if self.processes > 0:
            await asyncio.gather(*(self.run("picture", _ready, budget=60) for _ in range(self.processes)))

    def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.stop()
            pool.join(timeout=5)
        if self._thread_pool is not None:
            threads, self._thread_pool = self._thread_pool, None
            threads.shutdown()
