"""End to end: the real bot process against the loopback fake Discord, killed hard mid-game and started
again on the same database; a button posted before the kill still works and the game is finished. On both store
backends (SQLite, and PostgreSQL when TEST_DATABASE_URL names a server)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from engines.rng import Rng
from tests.backends import bot_env, fetch_row
from tests.cogs.driver import game_over, latest_board, take_turn
from tests.discord_harness import button, components
from tests.fake_server import FakeDiscordServer, RemoteBot

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222


async def start_bot(server: FakeDiscordServer, db: str | Path, log: Path, **extra_env: str) -> asyncio.subprocess.Process:
    env = {k: v for k, v in os.environ.items() if k != "CRASH_AT"}
    env.update(bot_env(str(db)))
    # without the members' cooldown and with room for more lobbies (host/limits.py): the tests open games by one
    # member faster, and more at once, than a person would (tests/e2e/test_bounded.py restores the defaults)
    env.update(DISCORD_TOKEN="fake-token", LOG_LEVEL="INFO", FAKE_DISCORD_API=server.api_url,
               FAKE_DISCORD_GATEWAY=server.gateway_url, DEV_GUILD_ID="",
               **{"DEFAULT_LIMITS": "cooldown_seconds=0,lobbies_per_member=50", **extra_env})
    identified = server.identify_count
    handle = open(log, "ab")  # noqa: SIM115 - the process writes into it until killed
    proc = await asyncio.create_subprocess_exec(sys.executable, str(ROOT / "tests" / "run_bot.py"), env=env,
                                                cwd=str(ROOT), stdout=handle, stderr=asyncio.subprocess.STDOUT)
    handle.close()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while server.identify_count == identified or "logged in as" not in log.read_text(errors="replace"):
        if proc.returncode is not None or loop.time() > deadline:
            raise AssertionError("the bot did not come up:\n" + log.read_text(errors="replace")[-3000:])
        await asyncio.sleep(0.05)
    return proc


async def stored_game(db: str | Path) -> tuple[str, int]:
    return await fetch_row(str(db), "SELECT status, version FROM games WHERE id = 1")


def thread_of(fake) -> int:
    return [cid for cid, c in fake.channels.items() if c["type"] == 11][-1]


async def test_game_survives_a_hard_kill_and_old_buttons_still_work(tmp_path, database):
    server = await FakeDiscordServer().start()
    db, log = database, tmp_path / "bot.log"
    remote = RemoteBot(server)
    proc = await start_bot(server, db, log)
    try:
        await remote.slash(ANN, "hector-achilles new", name="Ann")
        thread = thread_of(server.fake)
        lobby = remote.messages_in(thread)[0]
        await remote.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
        rng = Rng(11)
        while (await stored_game(db))[1] < 25:  # about half a game
            await take_turn(remote, thread, rng)
        # a DM panel for the current turn, posted before the kill
        status, version = await stored_game(db)
        board = latest_board(remote, thread)
        mentioned = next(u for u in (ANN, BOB) if f"<@{u}>" in board["content"])
        panel = [m for m in remote.dm_messages(mentioned) if components(m)][-1]
        assert f":{version}:" in components(panel)[0]["custom_id"]

        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        proc = await start_bot(server, db, log)
        assert server.identify_count == 2

        choice = next(c for c in components(panel) if c["custom_id"].startswith("gh:a:"))
        await remote.click(mentioned, panel, choice["custom_id"])
        assert (await stored_game(db))[1] == version + 1, "the pre-restart button did not act"
        # the panel is spent ("Done:"), or, while the same turn goes on, offers the next choices (issue 25)
        spent = server.fake.messages[int(panel["id"])]
        assert "Done:" in spent["content"] or f":{version + 1}:" in components(spent)[0]["custom_id"]

        for _ in range(2000):
            if game_over(latest_board(remote, thread)):
                break
            await take_turn(remote, thread, rng)
        assert game_over(latest_board(remote, thread))
        assert (await stored_game(db))[0] == "finished"
        text = log.read_text(errors="replace")
        assert "Traceback" not in text, text[text.index("Traceback") - 500:][:4000]
        # every request of both processes (the command sync at each start included) held to Discord's contract
        put = [s for s in server.fake.sent if s.method == "PUT" and s.path.endswith("/commands")]
        assert len(put) == 2 and server.fake.contract.checked > 100
        assert server.fake.contract.violations == []
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
