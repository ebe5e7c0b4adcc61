"""Benchmark of every implemented game (``make bench``).

Per game: the pipeline time of one player action through the real game service, set up as the bot sets it up
(pictures drawn by ``RENDER_PROCESSES`` worker processes, 2 by default) — validate, apply, commit (SQLite,
WAL, one transaction), render the public board and the private view of the next seat to act —
p50/p99 in ms; the public render alone (p50); the public PNG size (KB, mean); and the bare engine speed
(random legal actions per second). The last line printed is one JSON object with those figures.

``--split``: the p50/p99 of an action as the bot runs it (pictures in worker processes), then where the time of an
action goes, per game (engine, presenter, the store's commit and its other reads, drawing, PNG encoding, the rest:
pictures in one thread of the benchmark's process, so that each part can be timed), against its floor (a bare
INSERT+COMMIT of the same bytes and the fastest encode of the same pictures), and moves/s through the service with
pictures off (1 and 10 games), with the process's CPU time per move (all threads), which a loaded machine blurs far
less than moves/s. Each part is wall time in the thread that ran it: the board's picture is drawn in a worker
thread while the event loop works out the seats' choices and words, so the parts can add up to more than the
action, and "other" (the action's time less its parts) is then negative by that overlap (and a picture's time
includes its waits for the GIL).
``--against COMMIT``: the same on COMMIT's code (a temporary git worktree), side by side (issue 29).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import aiosqlite
from PIL import Image

import store as store_package
from engines import ENGINES
from engines.rng import Rng
from host.service import GameService
from render import RENDERERS
from settings import Settings

if TYPE_CHECKING:
    from cogs.gamebot import GameBot

#: the SQLite store (an older commit's tree, run by ``--against``, has one Store class: SQLite's)
SqliteStore = vars(store_package).get("SqliteStore") or vars(store_package)["Store"]

ACTIONS_PER_GAME = 300
ENGINE_SECONDS = 2.0


def _run(main):
    """Run ``main`` on the event loop the bot of the tree being measured runs on (host/eventloop.py; a tree older
    than it ran on asyncio's own)."""
    try:
        from host import eventloop
    except ImportError:
        return asyncio.run(main)
    return eventloop.run(main)


def _settle_heap() -> None:
    """What the bot does once it is set up (host.workers.settle_heap: start-up's objects frozen, out of the
    garbage collector's walks); nothing on an older tree, which has no such step."""
    try:
        from host.workers import settle_heap
    except ImportError:
        return
    settle_heap()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def engine_speed(engine) -> float:
    """Random legal actions applied per second (legal_actions + apply), over whole games."""
    rng = Rng(1)
    count, seed, start = 0, 0, time.perf_counter()
    state = engine.new_game(engine.min_players, seed, {})
    while time.perf_counter() - start < ENGINE_SECONDS:
        acting = engine.to_act(state)
        if not acting:
            seed += 1
            state = engine.new_game(engine.min_players, seed, {})
            continue
        seat = acting[0]
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        count += 1
    return count / (time.perf_counter() - start)


async def open_table(service: GameService, key: str, users: list[int]):
    """A running game of ``key`` between ``users`` (who never pass automatically: one action per call)."""
    for user in users:
        await service.settings(user, auto_pass=False)
    game, _ = await service.create(key, user_id=users[0], user_name="P0", guild_id=1, channel_id=1)
    for i, user in enumerate(users[1:], start=1):
        game, _ = await service.join(game.id, user, f"P{i}")
    if game.status == "lobby":
        await service.start(game.id, users[0])
    return game


async def timed_random_action(service: GameService, game_id: int, users: list[int], rng: Rng) -> float | None:
    """One random legal action of whoever is to act, through the service: its time in ms (None: game over)."""
    game = await service.game(game_id)
    if game.status != "running":
        return None
    engine = ENGINES[game.engine]
    state = await service._state(game)
    seat = engine.to_act(state)[0]
    index = rng.below(len(engine.legal_actions(state, seat)))
    start = time.perf_counter()
    await service.act(game.id, users[seat], game.version, index)
    return (time.perf_counter() - start) * 1000


async def pipeline(key: str, folder: Path) -> dict:
    engine = ENGINES[key]
    store = await SqliteStore.open(folder / f"{key}.db")
    service = GameService(store, seed_source=lambda: 4242, render_processes=Settings.from_env().render_processes)
    await service.painter.warm_up()
    _settle_heap()
    rng = Rng(7)
    timings: list[float] = []
    try:
        game_no = 0
        while len(timings) < ACTIONS_PER_GAME:
            users = [10_000 * (game_no + 1) + i for i in range(engine.min_players)]
            game = await open_table(service, key, users)
            game_no += 1
            while len(timings) < ACTIONS_PER_GAME:
                took = await timed_random_action(service, game.id, users, rng)
                if took is None:
                    break
                timings.append(took)
    finally:
        service.close()
        await store.close()
    return {"pipeline_p50_ms": round(statistics.median(timings), 2),
            "pipeline_p99_ms": round(percentile(timings, 0.99), 2)}


def render_figures(key: str) -> dict:
    """Public render time (p50, ms) and PNG size (mean KB) over positions of a random game."""
    engine = ENGINES[key]
    renderer = RENDERERS[key]
    rng = Rng(3)
    state = engine.new_game(engine.min_players, 3, {})
    times: list[float] = []
    sizes: list[float] = []
    step = 0
    while engine.to_act(state) and len(times) < 60:
        seat = engine.to_act(state)[0]
        engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        step += 1
        if step % 3:
            continue
        view = engine.view(state, None)
        start = time.perf_counter()
        png = renderer.render_public(view)
        times.append((time.perf_counter() - start) * 1000)
        sizes.append(len(png) / 1024)
    return {"render_p50_ms": round(statistics.median(times), 2), "png_kb": round(statistics.mean(sizes), 1)}


# -- the split (issue 29): where an action's time goes, and the same on another commit ------------------------

SPLIT_ACTIONS = 300
RATE_SECONDS = 4.0
PARTS = ("engine", "presenter", "commit", "reads", "render", "encode")


class Split:
    """Exclusive time per part: a part called inside another (an engine call inside the presenter, the PNG
    encode inside a renderer) counts for the inner one only. Per thread, since pictures are drawn in worker
    threads while the event loop waits."""

    def __init__(self) -> None:
        self.totals = dict.fromkeys(PARTS, 0.0)
        self._local = threading.local()

    def _stack(self) -> list:
        if not hasattr(self._local, "stack"):
            self._local.stack = []
        return self._local.stack

    def sync(self, part: str, fn):
        def timed(*args, **kwargs):
            stack, now = self._stack(), time.perf_counter()
            if stack:
                outer, since = stack[-1]
                self.totals[outer] += now - since
            stack.append([part, now])
            try:
                return fn(*args, **kwargs)
            finally:
                end = time.perf_counter()
                inner, since = stack.pop()
                self.totals[inner] += end - since
                if stack:
                    stack[-1][1] = end
        return timed

    def coroutine(self, part: str, fn):
        async def timed(*args, **kwargs):
            start = time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                self.totals[part] += time.perf_counter() - start
        return timed


def _instrument(split: Split, key: str, floor: dict) -> None:
    """Wrap the parts of one game's pipeline in place (this process only: the benchmark's)."""

    import render.kit as kit
    from host.presenters import presenter_for

    engine = type(ENGINES[key])
    for name in ("apply", "legal_actions", "to_act", "view", "result", "to_json", "from_json", "variants"):
        if name in vars(engine):
            setattr(engine, name, split.sync("engine", vars(engine)[name]))
    presenter = type(presenter_for(key))
    for name in ("narrate", "describe", "panel", "summary", "headline", "lines"):
        if callable(getattr(presenter, name, None)):
            setattr(presenter, name, split.sync("presenter", getattr(presenter, name)))
    renderer = RENDERERS[key]
    for name in ("render_public", "render_private"):
        if hasattr(renderer, name):
            setattr(renderer, name, split.sync("render", getattr(renderer, name)))
    if hasattr(kit, "_png_from_rows"):
        # a tree that writes every PNG from its rows (a picture may be put together in them: kit.encode_over), so
        # the encode is that writing and the floor's pictures are kept from the rows (copied, made pictures later)
        from_rows = kit._png_from_rows

        def write_and_keep(rows, coloured, *args):
            if len(floor["images"]) < 40 and floor["seen"] % 7 == 0:
                floor["images"].append((rows.copy(), bytes(coloured.getpalette() or [])))
            floor["seen"] += 1
            return from_rows(rows, coloured, *args)
        kit._png_from_rows = split.sync("encode", write_and_keep)
        return _instrument_reads(split, floor)
    encode = kit.encode

    def encode_and_keep(img, pal=None):
        if len(floor["images"]) < 40 and floor["seen"] % 7 == 0:
            floor["images"].append((img.copy(), pal))
        floor["seen"] += 1
        return encode(img, pal)
    kit.encode = split.sync("encode", encode_and_keep)
    _instrument_reads(split, floor)


def _instrument_reads(split: Split, floor: dict) -> None:
    """Time the store's commits and its other reads (and count the floor's bytes and transactions)."""
    # reads: every call to SQLite's worker thread outside a transaction (at the driver, so that any commit's
    # store is measured alike, whatever its own helpers are called)
    transaction, execute, writing = SqliteStore._transaction, aiosqlite.Connection._execute, [False]

    async def counted_transaction(self, statements, *args, **kwargs):
        floor["bytes"] += sum(len(p) for _, params in statements for p in params if isinstance(p, str | bytes))
        floor["transactions"] += 1
        writing[0] = True
        try:
            return await transaction(self, statements, *args, **kwargs)
        finally:
            writing[0] = False
    timed_read = split.coroutine("reads", execute)

    async def read_or_write(self, fn, *args, **kwargs):
        return await (execute if writing[0] else timed_read)(self, fn, *args, **kwargs)
    SqliteStore._transaction = split.coroutine("commit", counted_transaction)
    setattr(aiosqlite.Connection, "_execute", read_or_write)  # noqa: B010 - a method patched (mypy: method-assign)


def _png_isal(quantised: Image.Image, level: int) -> bytes:
    """The least a PNG writer can do with a palette image: its rows behind filter bytes, one deflate by ISA-L
    (the writer render/kit.py uses since issue 29, kept here so that every commit's floor is the same)."""
    import struct
    import zlib

    from isal import isal_zlib

    w, h = quantised.size
    rows = Image.new("L", (w + 1, h), 0)
    rows.im.paste(quantised.im, (1, 0, w + 1, h))
    encoder = Image._getencoder("L", "raw", "L")
    encoder.setimage(rows.im, (0, 0, w + 1, h))
    _, _, raw = encoder.encode((w + 1) * h + 16)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    return b"".join((b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)),
                     chunk(b"PLTE", bytes(quantised.getpalette() or [])), chunk(b"IDAT", isal_zlib.compress(raw, level)),
                     chunk(b"IEND", b"")))


def _encoders() -> list:
    """The ways the floor tries to save a palette image: Pillow's PNG at level 0 and 1, and where ISA-L is
    installed, :func:`_png_isal` at its levels 0 and 1."""
    import io

    ways: list = [lambda q, level=level: q.save(io.BytesIO(), "PNG", compress_level=level) for level in (0, 1)]
    try:
        import isal  # noqa: F401
    except ImportError:
        return ways
    return ways + [lambda q, level=level: _png_isal(q, level) for level in (0, 1)]


def _floor_picture(kept: tuple) -> tuple[Image.Image, Image.Image | None]:
    """A picture kept for the floor as ``(picture, its palette or None)``: kept from a PNG's rows (``(rows,
    palette colours)``: each row behind its filter byte), the palette picture they hold."""
    img, pal = kept
    if not isinstance(pal, bytes):
        return img, pal
    picture = Image.frombytes("P", (img.width - 1, img.height), img.crop((1, 0, img.width, img.height)).tobytes())
    picture.putpalette(pal)
    palette = Image.new("P", (1, 1))
    palette.putpalette(pal)
    return picture, palette


def _floor_ms(floor: dict, actions: int, folder: Path) -> float:
    """The floor of one action: a bare INSERT and COMMIT of the action's bytes (SQLite, WAL, synchronous=FULL,
    as the store) plus the fastest PNG encode of the same pictures (their palette image saved by Pillow at level 0
    or 1, or by ISA-L at its level 0 or 1, whichever is fastest; the quantising itself not counted)."""
    import sqlite3

    conn = sqlite3.connect(folder / f"floor-{floor['key']}.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE t (b TEXT)")
    payload = "x" * max(1, floor["bytes"] // max(1, floor["transactions"]))
    start = time.perf_counter()
    for _ in range(50):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t VALUES (?)", (payload,))
        conn.execute("COMMIT")
    commit_ms = (time.perf_counter() - start) / 50 * 1000 * floor["transactions"] / actions
    conn.close()
    encode_ms = 0.0
    if floor["images"]:
        best = []
        for img, pal in map(_floor_picture, floor["images"]):
            rgb_img = img if img.mode == "RGB" else img.convert("RGB")
            quantised = rgb_img.quantize(palette=pal, dither=Image.Dither.NONE) if pal else rgb_img.quantize()
            ways = []
            for save in _encoders():
                start = time.perf_counter()
                save(quantised)
                ways.append(time.perf_counter() - start)
            best.append(min(ways))
        encode_ms = statistics.mean(best) * 1000 * floor["seen"] / actions
    floor["commit_ms"], floor["encode_ms"] = commit_ms, encode_ms
    return commit_ms + encode_ms


async def _rate(key: str, folder: Path, games: int) -> tuple[float, float]:
    """(actions per second, CPU ms per action) through the service with pictures off, ``games`` tables played at
    once. The CPU time is the whole process's (every thread: the loop, SQLite's, the workers'), so it tells the
    cost of a move apart from the waits for the disk and from other programs on a shared machine."""
    engine, done, failed = ENGINES[key], [0], []  # (an unknown game fails here, before a store needs closing)
    store = await SqliteStore.open(folder / f"{key}-rate{games}.db")
    service = GameService(store, seed_source=lambda: 4242, render=False)
    _settle_heap()
    deadline = time.perf_counter() + RATE_SECONDS

    async def table(n: int) -> None:
        rng = Rng(n)
        while time.perf_counter() < deadline:
            users = [100_000 * (n + 1) + 1000 * done[0] + i for i in range(engine.min_players)]
            game = await open_table(service, key, users)
            while time.perf_counter() < deadline:
                try:
                    if await timed_random_action(service, game.id, users, rng) is None:
                        break
                except Exception as exc:  # an older commit's store may fail under concurrency: count it, go on
                    failed.append(repr(exc))
                    break
                done[0] += 1

    start, cpu = time.perf_counter(), time.process_time()
    try:
        await asyncio.gather(*(table(n) for n in range(games)))
    finally:
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        service.close()
        await store.close()
    if failed:
        print(f"{key}, {games} games: {len(failed)} actions failed, e.g. {failed[0]}", file=sys.stderr, flush=True)
    return done[0] / elapsed, cpu * 1000 / max(1, done[0])


class _Place:
    """A Discord thread, DM channel and message that take every post and edit at once (no network)."""

    def __init__(self) -> None:
        self.posted = 0

    async def send(self, *args, **kwargs) -> _Place:
        self.posted += 1
        self.id = self.posted
        return self

    def get_partial_message(self, message_id: int) -> _Place:
        return self

    async def edit(self, **kwargs) -> _Place:
        return self


class _Bot:
    """What cogs/publish.py needs of the bot, with Discord answering at once: what is left of a publication is its
    own work (the outbox's reads and commits, the DMs' settings) - as the tree under test does it."""

    def __init__(self, service: GameService) -> None:
        from host.outbox import Outbox

        self.service, self.outbox = service, Outbox(service)
        self.publish_locks: dict[int, asyncio.Lock] = {}
        self.place = _Place()

    def dispatch(self, *args) -> None:
        return None

    def get_channel(self, channel_id: int) -> _Place:
        return self.place

    def get_partial_messageable(self, channel_id: int, **kwargs) -> _Place:
        return self.place

    async def create_dm(self, user) -> _Place:
        return self.place


async def _published(key: str, folder: Path, games: int) -> dict:
    """Moves per second with pictures off when each move's board is also published as the bot does it
    (cogs/publish.py: the outbox's reads and bookkeeping, the DM settings; Discord itself answers at once), the
    publication's own time per move and the store commits per move."""
    import cogs.publish as publish

    async def post_board(bot, game, publication):
        return await bot.place.send()
    publish._post_board = post_board  # this process only: the benchmark's
    store = await SqliteStore.open(folder / f"{key}-published{games}.db")
    service = GameService(store, seed_source=lambda: 4242, render=False)
    _settle_heap()
    bot, engine, done, spent = _Bot(service), ENGINES[key], [0], [0.0]
    as_bot = cast("GameBot", bot)  # (a stand-in with what cogs/publish.py uses of the bot: see _Bot)
    transaction, commits = type(store)._transaction, [0]

    async def counted(self, *args, **kwargs):
        commits[0] += 1
        return await transaction(self, *args, **kwargs)
    type(store)._transaction = counted
    deadline = time.perf_counter() + RATE_SECONDS

    async def table(n: int) -> None:
        rng = Rng(n)
        while time.perf_counter() < deadline:
            users = [200_000 * (n + 1) + 1000 * done[0] + i for i in range(engine.min_players)]
            game = await open_table(service, key, users)
            await store.set_places(game.id, thread_id=10**9 + game.id)
            await publish.publish(as_bot, game_id=game.id)
            while time.perf_counter() < deadline:
                game = await service.game(game.id)
                if game.status != "running":
                    break
                state = await service._state(game)
                seat = engine.to_act(state)[0]
                index = rng.below(len(engine.legal_actions(state, seat)))
                outcome = await service.act(game.id, users[seat], game.version, index)
                start = time.perf_counter()
                await publish.publish(as_bot, outcome)
                spent[0] += time.perf_counter() - start
                done[0] += 1

    start, before = time.perf_counter(), commits[0]
    try:
        await asyncio.gather(*(table(n) for n in range(games)))
    finally:
        type(store)._transaction = transaction
        service.close()
        await store.close()
    moves = max(1, done[0])
    return {"per_s": done[0] / (time.perf_counter() - start), "publish_ms": spent[0] / moves * 1000,
            "commits": (commits[0] - before) / moves}


async def _split(key: str, folder: Path, actions: int) -> dict:
    split = Split()
    floor: dict[str, Any] = {"key": key, "images": [], "seen": 0, "bytes": 0, "transactions": 0}
    _instrument(split, key, floor)
    # one drawing thread: the parts add up to the action, and no picture runs on a second core
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(1))
    store = await SqliteStore.open(folder / f"{key}-split.db")
    service = GameService(store, seed_source=lambda: 4242)  # pictures drawn in a worker thread of this process
    _settle_heap()
    rng, game_no = Rng(7), 0
    timings: list[float] = []
    spent = dict.fromkeys(PARTS, 0.0)
    engine = ENGINES[key]
    try:
        while len(timings) < actions:
            users = [10_000 * (game_no + 1) + i for i in range(engine.min_players)]
            game = await open_table(service, key, users)
            game_no += 1
            while len(timings) < actions:
                game = await service.game(game.id)
                if game.status != "running":
                    break
                state = await service._state(game)
                seat = engine.to_act(state)[0]
                index = rng.below(len(engine.legal_actions(state, seat)))
                before = dict(split.totals)
                start = time.perf_counter()
                await service.act(game.id, users[seat], game.version, index)
                timings.append((time.perf_counter() - start) * 1000)
                for part in PARTS:
                    spent[part] += split.totals[part] - before[part]
    finally:
        service.close()
        await store.close()
    per = {part: round(spent[part] / len(timings) * 1000, 2) for part in PARTS}
    pipeline_ms = statistics.mean(timings)
    per["other"] = round(pipeline_ms - sum(per.values()), 2)
    out: dict[str, float | None] = {"p50_ms": round(statistics.median(timings), 2), "p99_ms": round(percentile(timings, 0.99), 2),
           "mean_ms": round(pipeline_ms, 2), **per}
    floor_ms = _floor_ms(floor, len(timings), folder)
    out["floor_ms"] = round(floor_ms, 2)
    out["floor_commit_ms"], out["floor_encode_ms"] = round(floor["commit_ms"], 2), round(floor["encode_ms"], 2)
    out["x_floor"] = round(pipeline_ms / floor_ms, 1) if floor_ms else None
    return out


async def _as_the_bot(key: str, folder: Path) -> dict:
    """p50/p99 of an action as the bot runs it: pictures and choices in ``RENDER_PROCESSES`` worker processes, so
    that the board's picture is drawn while the commit waits for the disk (which the split's one drawing thread,
    sharing the GIL, cannot show). Nothing for a tree whose service has no worker processes."""
    try:
        timed = await pipeline(key, folder)
    except (TypeError, AttributeError) as exc:  # (an older tree's service: no processes to draw in)
        print(f"{key}: no worker processes here ({exc!r})", file=sys.stderr, flush=True)
        return {}
    return {"bot_p50_ms": timed["pipeline_p50_ms"], "bot_p99_ms": timed["pipeline_p99_ms"]}


def split_figures(actions: int = SPLIT_ACTIONS, games: list[str] | None = None) -> dict:
    """Per game (``games``, or every game with pictures): the split of an action's mean time, p50/p99, the floor,
    and moves/s with pictures off."""
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for key in ENGINES:
            if key not in RENDERERS or (games and key not in games):
                continue
            folder = Path(tmp)
            (rate1, cpu1), (rate10, cpu10) = _run(_rate(key, folder, 1)), _run(_rate(key, folder, 10))
            result = {"moves_per_s_1": round(rate1), "moves_per_s_10": round(rate10),
                      "cpu_ms_1": round(cpu1, 2), "cpu_ms_10": round(cpu10, 2)}
            # (a commit older than the outbox, 005ca27 among them, publishes otherwise: not measured there; its
            # own tree is checked, since the project installed in the environment would answer the import)
            if (Path(__file__).resolve().parent.parent / "host" / "outbox.py").exists():
                one, ten = _run(_published(key, folder, 1)), _run(_published(key, folder, 10))
                result.update(published_per_s_1=round(one["per_s"]), published_per_s_10=round(ten["per_s"]),
                              publish_ms=round(one["publish_ms"], 2), commits_per_move=round(one["commits"], 2))
            result.update(_run(_split(key, folder, actions)))
            result.update(_run(_as_the_bot(key, folder)))
            figures[key] = result
            print(f"{key}: {json.dumps(result)}", file=sys.stderr, flush=True)
    return figures


def _run_split(tree: Path, module: str, key: str, actions: int) -> dict:
    """One game's split measured by ``module`` (this benchmark) in a separate process on the code of ``tree``."""
    import subprocess
    import sysconfig

    # -S: no site module, so no .pth file runs - the project's editable install would otherwise answer for a
    # module the older tree lacks; the libraries' folder is named instead
    libraries = [sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    run = subprocess.run([sys.executable, "-S", "-m", module, "--split", "--actions", str(actions), f"--game={key}"],
                         cwd=tree, env={**os.environ, "PYTHONPATH": os.pathsep.join(
                             [str(tree), *libraries, *filter(None, [os.environ.get("PYTHONPATH")])])}, check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return json.loads(run.stdout.strip().splitlines()[-1])[key]


def against(commit: str, actions: int, games: list[str] | None = None, repeat: int = 3) -> tuple[dict, dict, dict]:
    """The same measurement on ``commit`` and here, side by side: (there, here, ratios). This file runs in a
    temporary worktree of that commit (its code, this benchmark). Each game is measured ``repeat`` times on
    each side, the two sides one after the other, each in a fresh process: a machine whose speed drifts
    (a shared VM's can move by 1.5x within minutes) then drifts for both alike. Each figure is the median of its
    runs; ``ratios`` has each figure's lowest and highest ratio of a run here to the run there beside it."""
    import shutil
    import subprocess

    root = Path(__file__).resolve().parent.parent
    keys = [key for key in ENGINES if key in RENDERERS and (not games or key in games)]
    runs: dict[str, dict[str, list[dict]]] = {key: {"there": [], "here": []} for key in keys}
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "-q", str(tree), commit], check=True)
        try:
            shutil.copy(Path(__file__), tree / "bench" / "_pipeline_now.py")
            for key in keys:
                for n in range(repeat):
                    runs[key]["there"].append(_run_split(tree, "bench._pipeline_now", key, actions))
                    runs[key]["here"].append(_run_split(root, "bench.pipeline", key, actions))
                    print(f"{key} run {n + 1}: {commit} {json.dumps(runs[key]['there'][-1])}\n"
                          f"{key} run {n + 1}: here {json.dumps(runs[key]['here'][-1])}", file=sys.stderr, flush=True)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], check=False)

    def median(measured: list[dict]) -> dict:
        return {f: statistics.median(m[f] for m in measured) for f in measured[0]
                if all(isinstance(m.get(f), int | float) for m in measured)}

    ratios: dict[str, dict[str, tuple[float, float]]] = {}
    for key in keys:
        pairs = list(zip(runs[key]["there"], runs[key]["here"]))
        ratios[key] = {f: (min(r := [h[f] / t[f] for t, h in pairs]), max(r)) for f in pairs[0][1]
                       if all(isinstance(t.get(f), int | float) and t[f] and isinstance(h.get(f), int | float)
                              for t, h in pairs)}
    return ({key: median(runs[key]["there"]) for key in keys}, {key: median(runs[key]["here"]) for key in keys},
            ratios)


ROWS = (("moves/s, pictures off, 1 game", "moves_per_s_1"), ("moves/s, pictures off, 10 games", "moves_per_s_10"),
        ("  CPU ms per move (all threads), 1 game", "cpu_ms_1"), ("  CPU ms per move (all threads), 10 games", "cpu_ms_10"),
        ("moves/s published, pictures off, 1 game", "published_per_s_1"),
        ("moves/s published, pictures off, 10 games", "published_per_s_10"),
        ("  publication (outbox, DMs) ms per move", "publish_ms"), ("  store commits per move", "commits_per_move"),
        ("pipeline p50 ms, as the bot (pictures in worker processes)", "bot_p50_ms"),
        ("pipeline p99 ms, as the bot (pictures in worker processes)", "bot_p99_ms"),
        ("pipeline p50 ms", "p50_ms"), ("pipeline p99 ms", "p99_ms"), ("pipeline mean ms", "mean_ms"),
        ("  engine", "engine"), ("  presenter", "presenter"), ("  commit", "commit"), ("  other reads", "reads"),
        ("  render (drawing)", "render"), ("  encode", "encode"), ("  other (service, loop)", "other"),
        ("floor ms", "floor_ms"), ("  bare commit", "floor_commit_ms"), ("  fastest encode", "floor_encode_ms"),
        ("pipeline / floor", "x_floor"))


def table(here: dict, there: dict | None, commit: str | None, ratios: dict | None = None) -> str:
    """A Markdown table per figure and game: here, or ``commit`` → here (the ratio of the medians; with
    ``ratios``, the range of the runs' ratios after it)."""
    games = list(here)
    head = "| figure | " + " | ".join(games) + " |"
    lines = [head, "|---" * (len(games) + 1) + "|"]
    for label, key in ROWS:
        cells = []
        for game in games:
            now = here[game].get(key)
            if there is None or game not in there:
                cells.append(f"{now}")
                continue
            before = there[game].get(key)
            ratio = f" ({now / before:.2f}×)" if isinstance(now, int | float) and before else ""
            spread = (ratios or {}).get(game, {}).get(key)
            if ratio and spread and len({round(x, 2) for x in spread}) > 1:
                ratio = f" ({now / before:.2f}×, runs {spread[0]:.2f}–{spread[1]:.2f}×)"
            cells.append(f"{before} → {now}{ratio}")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    if commit:
        lines.append(f"\n(each cell: {commit} → this tree)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", action="store_true", help="where an action's time goes, per game")
    parser.add_argument("--against", metavar="COMMIT", help="the split here and on COMMIT, side by side")
    parser.add_argument("--actions", type=int, default=SPLIT_ACTIONS, help="actions per game in the split")
    parser.add_argument("--game", action="append", choices=sorted(RENDERERS), help="only this game (repeatable)")
    parser.add_argument("--repeat", type=int, default=3, help="with --against: runs per game and side (medians)")
    args = parser.parse_args()
    if args.against:
        there, here, ratios = against(args.against, args.actions, args.game, max(1, args.repeat))
        print(table(here, there, args.against, ratios))
        print(json.dumps({"there": there, "here": here}, sort_keys=True))
        return 0
    if args.split:
        here = split_figures(args.actions, args.game)
        print(table(here, None, None), file=sys.stderr)
        print(json.dumps(here, sort_keys=True))
        return 0
    figures: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for key in ENGINES:
            if key not in RENDERERS:
                print(f"{key}: no renderer yet, skipped", flush=True)
                continue
            result = _run(pipeline(key, Path(tmp)))
            result.update(render_figures(key))
            result["engine_actions_per_s"] = round(engine_speed(ENGINES[key]))
            figures[key] = result
            print(f"{key}: pipeline p50 {result['pipeline_p50_ms']} ms, p99 {result['pipeline_p99_ms']} ms; "
                  f"render p50 {result['render_p50_ms']} ms; PNG {result['png_kb']} KB; "
                  f"engine {result['engine_actions_per_s']} actions/s", flush=True)
    print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
