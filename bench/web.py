"""The web companion's figures: page weight, time to first byte and time to render of a 256-player tournament's
page and of a 700-step replay, and how many live viewers (server-sent event streams) one web process serves.

    python -m bench.web [--viewers 250,1000,2000]

It builds a database (a 256-player elimination tournament after four rounds, a finished Kiválasztottak game of
about 700 steps, a game being played), starts the web companion as its own process (``python bot.py web``, as a
large deployment runs it) on a free loopback port, and measures it from this process: time to first byte with an
HTTP client (cold: the first request, which builds the page's data; warm: the median of the next five), page
weight and time to render in headless Chromium (Debian's, through Playwright; skipped with a note where it is
missing), then the fan-out: N event streams open on one game (from distinct loopback addresses, 16 per address
as the per-client limit allows), one move committed by "the bot" (this process, on the same database), and the
time until every viewer has it; the web process's memory (RSS) with the streams open.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

import ai
from engines import ENGINES
from engines.rng import Rng
from host import replays
from host.service import GameService
from host.tournaments import TournamentService
from host.weblinks import WebLinks
from store import SqliteStore, Store

ROOT = Path(__file__).resolve().parent.parent
GUILD = 1_234_567_890_123_456_789
PUBLIC = "http://bench"
STREAMS_PER_ADDRESS = 16
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-quic"]


async def play(store: Store, key: str, seed: int, people: list[tuple[int, str]], *, steps: int | None = None,
               num: int = 2) -> int:
    engine = ENGINES[key]
    game_id = await store.create_game(engine=key, options={"engine": {}, "players": num, "lang": "en"}, seed=seed,
                                      num_players=num, guild_id=GUILD, channel_id=1, host_user_id=people[0][0])
    for seat, (user, name) in enumerate(people[:num]):
        await store.set_seat(game_id, seat, user_id=user, name=name)
    state = replays.start_state(replays.Record(key, seed, num, {}, engine.rules_version, [], [], "en"))
    await store.start_game(game_id, num_players=num, snapshot=engine.to_json(state), rules_version=engine.rules_version)
    rng, version = Rng(seed), 0
    while engine.result(state) is None and (steps is None or version < steps):
        seat = engine.to_act(state)[0]
        action = ai.random_player(engine, state, seat, rng)
        events = engine.apply(state, seat, action)
        version = await store.commit_action(game_id, expected_version=version, seat=seat, user_id=None, action=action,
                                            events=events, snapshot=engine.to_json(state), result=engine.result(state))
    return game_id


def seed_of_length(key: str, low: int, high: int) -> tuple[int, int]:
    """The first seed whose random game of ``key`` lasts between ``low`` and ``high`` steps."""
    engine = ENGINES[key]
    for seed in range(10_000):
        state = replays.start_state(replays.Record(key, seed, 2, {}, engine.rules_version, [], [], "en"))
        rng, n = Rng(seed), 0
        while engine.result(state) is None and n <= high:
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, ai.random_player(engine, state, seat, rng))
            n += 1
        if low <= n <= high:
            return seed, n
    raise RuntimeError("no such game")


async def build(path: Path) -> dict:
    """The database the benchmark reads; the paths of its pages."""
    store = await SqliteStore.open(path, synchronous="NORMAL")
    service = GameService(store, render=False)
    tournaments = TournamentService(service)
    people = [(900_000_000_000_000_000 + i, f"Player {i + 1:03d}") for i in range(256)]
    started = time.perf_counter()
    event = await tournaments.create("troja", user_id=people[0][0], user_name=people[0][1], guild_id=GUILD,
                                     channel_id=1, format="elimination")
    for user, name in people[1:]:
        await tournaments.join(event.id, user, name)
    await tournaments.start(event.id, people[0][0])
    for _ in range(4):
        event = await tournaments.tournament(event.id)
        for match in await store.matches(event.id, event.round):
            if match.places is None and len(match.players) == 2:
                await tournaments.adjudicate(event.id, people[0][0], match.id, [1, 2])
    seed, steps = seed_of_length("kivalasztottak", 690, 710)
    replay = await play(store, "kivalasztottak", seed, people[:2])
    running = await play(store, "troja", 5, people[2:4], steps=6)
    links = WebLinks(store, PUBLIC)
    out = {"tournament": await links.tournament(GUILD, event.id), "replay": await links.replay(GUILD, replay),
           "game": await links.game(GUILD, running), "running": running, "steps": steps,
           "built_s": time.perf_counter() - started}
    service.close()
    await store.close()
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def start_web(db: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_PATH": str(db), "WEB_PORT": str(port), "WEB_HOST": "127.0.0.1",
           "WEB_RATE_LIMIT": "0", "LOG_LEVEL": "WARNING"}
    process = subprocess.Popen([sys.executable, str(ROOT / "bot.py"), "web"], env=env, cwd=ROOT)
    async with aiohttp.ClientSession() as http:
        for _ in range(300):
            try:
                async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                    if r.status == 200:
                        return process
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.1)
    process.kill()
    raise RuntimeError("the web process did not start")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def ttfb(http: aiohttp.ClientSession, url: str) -> tuple[float, int]:
    started = time.perf_counter()
    async with http.get(url) as r:
        first = time.perf_counter() - started  # (the headers are in: the first byte came)
        body = await r.read()
        assert r.status == 200, (url, r.status)
    return first, len(body)


async def in_browser(url: str) -> dict | None:
    """Page weight (every response's body, as sent) and the times to first byte, first paint and load (every
    picture drawn) in headless Chromium, for a first visit (nothing cached)."""
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        return None
    if not Path(CHROMIUM).exists():
        return None
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = await browser.new_context(viewport={"width": 1280, "height": 900})
        page = await context.new_page()
        sizes: list[int] = []

        async def finished(request):
            response = await request.response()
            if response is not None:
                sizes.append(len(await response.body()))

        page.on("requestfinished", lambda r: asyncio.ensure_future(finished(r)))
        await page.goto(url, wait_until="load")
        await asyncio.sleep(0.3)
        timing = await page.evaluate("""() => {
            const n = performance.getEntriesByType('navigation')[0];
            const paint = performance.getEntriesByName('first-contentful-paint')[0];
            return {ttfb: n.responseStart - n.startTime, paint: paint ? paint.startTime : null,
                    load: n.loadEventEnd - n.startTime, html: n.encodedBodySize};
        }""")
        await browser.close()
    return {**timing, "weight": sum(sizes), "requests": len(sizes)}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


async def page_figures(base: str, name: str, path: str) -> None:
    url = base + path
    async with aiohttp.ClientSession() as http:
        cold, size = await ttfb(http, url)
        warm = statistics.median([(await ttfb(http, url))[0] for _ in range(5)])
    print(f"{name}: HTML {size / 1024:.0f} KiB; time to first byte cold {ms(cold)}, warm {ms(warm)} (median of 5)")
    seen = await in_browser(url)
    if seen is None:
        print("  (no Chromium here: no page weight or render time)")
        return
    print(f"  in Chromium: {seen['requests']} requests, {seen['weight'] / 1024:.0f} KiB in all; first byte "
          f"{seen['ttfb']:.0f} ms, first paint {seen['paint']:.0f} ms, loaded (pictures drawn) {seen['load']:.0f} ms")


async def fan_out(base: str, db: Path, game_path: str, game_id: int, viewers: int, pid: int) -> None:
    """``viewers`` streams on one game; one move committed; when each viewer has it."""
    connectors = [aiohttp.TCPConnector(limit=0, local_addr=(f"127.0.{1 + i // 250}.{1 + i % 250}", 0))
                  for i in range(-(-viewers // STREAMS_PER_ADDRESS))]
    sessions = [aiohttp.ClientSession(connector=c, timeout=aiohttp.ClientTimeout(total=None)) for c in connectors]
    received: list[float] = []
    ready = 0
    all_ready = asyncio.Event()

    async def viewer(session: aiohttp.ClientSession) -> None:
        nonlocal ready
        async with session.get(base + game_path + "/events") as r:
            assert r.status == 200, r.status
            ready += 1
            if ready == viewers:
                all_ready.set()
            async for line in r.content:
                if line.startswith(b"data:"):
                    received.append(time.perf_counter())
                    return

    rss_before = rss_mib(pid)
    tasks = [asyncio.create_task(viewer(sessions[i // STREAMS_PER_ADDRESS])) for i in range(viewers)]
    opened = time.perf_counter()
    await asyncio.wait_for(all_ready.wait(), 120)
    connect_s = time.perf_counter() - opened
    await asyncio.sleep(1.5)
    rss_open = rss_mib(pid)
    store = await SqliteStore.open(db)
    engine = ENGINES["troja"]
    version, snapshot = await store.snapshot(game_id)
    state = engine.from_json(snapshot)
    seat = engine.to_act(state)[0]
    action = ai.random_player(engine, state, seat, Rng(version))
    events = engine.apply(state, seat, action)
    committed = time.perf_counter()
    await store.commit_action(game_id, expected_version=version, seat=seat, user_id=None, action=action,
                              events=events, snapshot=engine.to_json(state), result=engine.result(state))
    await store.close()
    await asyncio.wait_for(asyncio.gather(*tasks), 120)
    delays = sorted(t - committed for t in received)
    print(f"{viewers} viewers: all connected in {connect_s:.1f} s; the move reached the first in {ms(delays[0])}, "
          f"half in {ms(delays[len(delays) // 2])}, 95% in {ms(delays[int(len(delays) * 0.95) - 1])}, "
          f"all {len(delays)} in {ms(delays[-1])}; web process {rss_before:.0f} MiB before, {rss_open:.0f} MiB "
          f"with the streams open")
    for s in sessions:
        await s.close()
    await asyncio.sleep(1.0)


async def main(viewers: list[int]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-web-"))
    try:
        db = folder / "bench.db"
        paths = await build(db)
        print(f"database: a 256-player elimination tournament after 4 rounds, a {paths['steps']}-step "
              f"Kiválasztottak replay, a game being played (built in {paths['built_s']:.0f} s)")
        port = free_port()
        process = await start_web(db, port)
        base = f"http://127.0.0.1:{port}"
        try:
            for name, key in (("256-player tournament", "tournament"), (f"{paths['steps']}-step replay", "replay")):
                await page_figures(base, name, paths[key][len(PUBLIC):])
            replay = paths["replay"][len(PUBLIC):]
            async with aiohttp.ClientSession() as http:
                far = [paths["steps"] - 1 - i * 37 for i in range(5)]  # steps away from the kept states
                cold = [(await ttfb(http, f"{base}{replay}/step/{s}.png"))[0] for s in far]
                warm = [(await ttfb(http, f"{base}{replay}/step/{s}.png"))[0] for s in far]
            print(f"  a replay step's picture: first time {ms(statistics.median(cold))}, again {ms(statistics.median(warm))}"
                  f" (medians of 5 steps)")
            for n in viewers:
                await fan_out(base, db, paths["game"][len(PUBLIC):], paths["running"], n, process.pid)
        finally:
            process.send_signal(signal.SIGTERM)
            process.wait(30)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", default="250,1000,2000", help="numbers of live viewers, comma-separated")
    args = parser.parse_args()
    asyncio.run(main([int(n) for n in args.viewers.split(",")]))
