"""``python bot.py web``: the web companion as its own process over the bot's database (no Discord token), ready
for a load balancer's health check, stopping cleanly on SIGTERM; and its settings refused in plain words."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from host.weblinks import WebLinks
from settings import Settings
from store import SqliteStore
from tests.web.world import GUILD, PEOPLE, play_game

ROOT = Path(__file__).resolve().parents[2]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_the_web_process_serves_the_bots_database_and_stops_on_sigterm(tmp_path):
    db = tmp_path / "bot.db"
    store = await SqliteStore.open(db)
    game = await play_game(store, "troja", seed=4, people=PEOPLE[:2])
    url = await WebLinks(store, "http://x").replay(GUILD, game)
    await store.close()
    port = _port()
    env = {**os.environ, "DATABASE_PATH": str(db), "WEB_PORT": str(port), "WEB_HOST": "127.0.0.1",
           "RENDER_PROCESSES": "1"}
    env.pop("DISCORD_TOKEN", None)
    process = subprocess.Popen([sys.executable, str(ROOT / "bot.py"), "web"], env=env, cwd=ROOT,
                               stderr=subprocess.PIPE, text=True)
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(200):
                try:
                    async with http.get(f"http://127.0.0.1:{port}/healthz") as r:
                        if r.status == 200:
                            break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            else:
                pytest.fail("the web process did not answer")
            page = url.replace("http://x", f"http://127.0.0.1:{port}")
            async with http.get(page) as r:
                assert r.status == 200 and "Troja" in await r.text()
            async with http.get(page + "/step/3.png") as r:  # drawn in the process's render worker
                assert r.status == 200 and (await r.read())[:4] == b"\x89PNG"
        process.send_signal(signal.SIGTERM)
        assert process.wait(30) == 0
        assert "Traceback" not in process.stderr.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_web_without_a_port_says_what_it_needs(tmp_path):
    env = {**os.environ, "DATABASE_PATH": str(tmp_path / "x.db")}
    env.pop("WEB_PORT", None)
    done = subprocess.run([sys.executable, str(ROOT / "bot.py"), "web"], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "WEB_PORT" in done.stderr


def test_web_settings_from_the_environment():
    found = Settings.from_env({"WEB_PORT": "8000", "PUBLIC_URL": "https://games.example.org/", "WEB_TRUST_PROXY": "1",
                               "WEB_RATE_LIMIT": "60", "WEB_HOST": "127.0.0.1"})
    assert (found.web_port, found.public_url, found.web_trust_proxy, found.web_rate_limit, found.web_host) == \
        (8000, "https://games.example.org", True, 60, "127.0.0.1")
    default = Settings.from_env({})
    assert default.web_port is None and default.public_url is None and default.web_rate_limit == 240
    for env, words in (({"PUBLIC_URL": "games.example.org"}, "https://"), ({"WEB_PORT": "http"}, "WEB_PORT"),
                       ({"WEB_RATE_LIMIT": "-1"}, "WEB_RATE_LIMIT")):
        with pytest.raises(SystemExit, match=words):
            Settings.from_env(env)
