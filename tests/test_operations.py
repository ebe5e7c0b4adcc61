"""Operations: the readiness endpoint and the Prometheus metrics of a real bot process (tests/run_bot.py against
the loopback fake Discord), and the error counter and latency histogram in the in-process harness."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import create_bot
from engines.rng import Rng
from host.service import GameService
from settings import Settings
from store import SqliteStore
from tests.cogs.driver import take_turn
from tests.discord_harness import Harness, button
from tests.fake_server import RemoteBot
from tests.test_docker_image import HeldGateway, free_port

ROOT = Path(__file__).resolve().parent.parent
ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222


def samples(text: str) -> dict[tuple[str, tuple], float]:
    """Prometheus text -> {(sample name, sorted labels): value}."""
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def total(found: dict, name: str) -> float:
    return sum(v for (n, _), v in found.items() if n == name)


def _row_count(db: Path) -> int:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT COUNT(*) FROM actions").fetchone()[0]


async def get(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with session.get(url) as answer:
        return answer.status, await answer.text()


@pytest.mark.e2e
async def test_readiness_and_metrics_of_a_running_bot(tmp_path):
    server = await HeldGateway().start()
    health, metrics = free_port(), free_port()
    db, log = tmp_path / "bot.db", tmp_path / "bot.log"
    env = {k: v for k, v in os.environ.items() if k != "CRASH_AT"}
    env.update(DISCORD_TOKEN="fake-token", DATABASE_PATH=str(db), FAKE_DISCORD_API=server.api_url,
               FAKE_DISCORD_GATEWAY=server.gateway_url, DEV_GUILD_ID="", RENDER_PROCESSES="0",
               HEALTH_PORT=str(health), METRICS_PORT=str(metrics), OPS_HOST="127.0.0.1")
    interactions = 0
    dispatch = server.dispatch

    async def counting(event, data):
        nonlocal interactions
        interactions += event == "INTERACTION_CREATE"
        await dispatch(event, data)

    server.dispatch = counting
    with open(log, "wb") as handle:
        proc = await asyncio.create_subprocess_exec(sys.executable, str(ROOT / "tests" / "run_bot.py"), env=env,
                                                    cwd=str(ROOT), stdout=handle, stderr=asyncio.subprocess.STDOUT)
    try:
        async with aiohttp.ClientSession() as http:
            await asyncio.wait_for(server.identifying.wait(), 30)
            # logged in, the store open, the gateway not READY: up, but not ready to take a click
            assert await get(http, f"http://127.0.0.1:{health}/healthz") == (503, "not ready\n")
            server.release.set()
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 30
            while (await get(http, f"http://127.0.0.1:{health}/healthz"))[0] != 200:
                assert proc.returncode is None and loop.time() < deadline, log.read_text(errors="replace")[-3000:]
                await asyncio.sleep(0.1)
            status, _ = await get(http, f"http://127.0.0.1:{health}/metrics")
            assert status == 404, "metrics belong on METRICS_PORT only"

            remote = RemoteBot(server)
            await remote.slash(ANN, "hector-achilles new", name="Ann")
            thread = [cid for cid, c in server.fake.channels.items() if c["type"] == 11][-1]
            lobby = remote.messages_in(thread)[0]
            await remote.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
            rng = Rng(5)
            for _ in range(4):
                await take_turn(remote, thread, rng)
            # the thread becomes unwritable: the next move is saved, its board stays owed in the outbox
            server.fake.faults[thread] = (403, 50001)
            await take_turn(remote, thread, rng)

            status, text = await get(http, f"http://127.0.0.1:{metrics}/metrics")
            assert status == 200
            found = samples(text)
            with closing(sqlite3.connect(db)) as conn:
                engine = conn.execute("SELECT engine FROM games").fetchone()[0]
            actions = _row_count(db)
            assert actions >= 5
            assert found[("gamehost_moves_total", (("game", engine),))] == actions
            assert found[("gamehost_games", (("status", "running"),))] == 1
            assert found[("gamehost_games", (("status", "lobby"),))] == 0
            assert found[("gamehost_games", (("status", "finished"),))] == 0
            assert found[("gamehost_publish_backlog_games", ())] == 1
            assert total(found, "gamehost_interaction_seconds_count") == interactions
            assert found[("gamehost_interaction_seconds_count", (("handler", "/hector-achilles new"),))] == 1
            assert found[("gamehost_interaction_seconds_count", (("handler", "JoinButton"),))] == 1
            assert total(found, "gamehost_errors_total") == 0
        # `docker stop`: SIGTERM closes the bot properly (the database file holds everything, no WAL left)
        proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 10) == 0
        assert not Path(f"{db}-wal").exists()
        assert _row_count(db) == actions
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
    text = log.read_text(errors="replace")
    assert "gamehost: stopped" in text
    assert "Traceback" not in text, text[-4000:]
    # discord.py's plain format (no colour codes when the output is not a terminal)
    assert re.search(r"^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] \[INFO +\] gamehost: logged in as", text, re.M), text[:2000]
    assert "\x1b[" not in text


async def test_a_failing_click_is_counted_as_an_error_and_timed(tmp_path, monkeypatch):
    store = await SqliteStore.open(tmp_path / "bot.db")
    service = GameService(store, seed_source=iter(range(1000, 2000)).__next__)
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0, metrics_port=free_port(), ops_host="127.0.0.1"),
                     store=store, service=service)
    h = await Harness(bot, monkeypatch).start()
    try:
        assert not bot.ready_to_serve(), "no gateway in the harness: not ready"
        registry = bot.metrics.registry
        await h.slash(ANN, "hector-achilles new", name="Ann")
        thread = [cid for cid, c in h.fake.channels.items() if c["type"] == 11][-1]
        lobby = h.messages_in(thread)[0]
        assert registry.get_sample_value("gamehost_errors_total", {"logger": "cogs"}) is None

        async def broken(*args, **kwargs):
            raise RuntimeError("the store went away")

        monkeypatch.setattr(service, "join", broken)
        await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
        assert registry.get_sample_value("gamehost_errors_total", {"logger": "cogs"}) == 1
        assert registry.get_sample_value("gamehost_interaction_seconds_count", {"handler": "JoinButton"}) == 1
        assert registry.get_sample_value("gamehost_interaction_seconds_count", {"handler": "/hector-achilles new"}) == 1
    finally:
        h.errors.records.clear()  # the error was wanted
        await h.stop()
    # the handler that counts errors goes with the bot
    assert not any(type(x).__name__ == "_ErrorCounter" for x in logging.getLogger().handlers)


@pytest.mark.parametrize("value", ["http", "0", "70000", "-1"])
def test_ports_are_checked(value):
    with pytest.raises(SystemExit, match="HEALTH_PORT"):
        Settings.from_env({"HEALTH_PORT": value})
    assert Settings.from_env({"METRICS_PORT": " 9100 "}).metrics_port == 9100
    assert Settings.from_env({}).health_port is None
