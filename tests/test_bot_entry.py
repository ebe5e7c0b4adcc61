"""`python bot.py` (what `make run` runs) and the settings it reads."""

import asyncio
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def test_without_a_token_the_bot_exits_and_says_how_to_get_one():
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    run = subprocess.run([sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=60)
    assert run.returncode == 2
    assert "DISCORD_TOKEN" in run.stderr and "discord.com/developers/applications" in run.stderr


def test_settings_defaults_and_values():
    assert Settings.from_env({}) == Settings(token=None, database_path="var/gamehost.db", log_level="INFO",
                                             dev_guild_id=None)
    s = Settings.from_env({"DISCORD_TOKEN": " abc ", "DATABASE_PATH": "/data/g.db", "LOG_LEVEL": "debug",
                           "DEV_GUILD_ID": "123"})
    assert (s.token, s.database_path, s.log_level, s.dev_guild_id) == ("abc", "/data/g.db", "DEBUG", 123)
    with pytest.raises(SystemExit, match="DEV_GUILD_ID"):
        Settings.from_env({"DEV_GUILD_ID": "my-server"})


def test_reminder_delay_setting():
    assert Settings.from_env({}).remind_after_hours == 24
    assert Settings.from_env({"REMIND_AFTER_HOURS": "0"}).remind_after_hours == 0
    assert Settings.from_env({"REMIND_AFTER_HOURS": "1.5"}).remind_after_hours == 1.5
    with pytest.raises(SystemExit, match="REMIND_AFTER_HOURS"):
        Settings.from_env({"REMIND_AFTER_HOURS": "a day"})
    with pytest.raises(SystemExit, match="negative"):
        Settings.from_env({"REMIND_AFTER_HOURS": "-3"})


def test_render_processes_setting():
    assert Settings.from_env({}).render_processes == 2
    assert Settings.from_env({"RENDER_PROCESSES": "0"}).render_processes == 0
    with pytest.raises(SystemExit, match="RENDER_PROCESSES"):
        Settings.from_env({"RENDER_PROCESSES": "many"})


# -- a database the bot cannot use: one line on stderr, exit code 1, no hang, no login ----------------------

BAD_DB_TIMEOUT_S = 45  # busy_timeout (5 s) for the locked file, plus start-up; a hang fails the test


async def _make_database(path: Path, games: int = 60) -> None:
    """A real database written by the store, big enough to have many pages."""
    from store import SqliteStore

    store = await SqliteStore.open(path)
    try:
        for n in range(games):
            gid = await store.create_game(engine="troja", options={"lang": "en", "pad": "x" * 300}, seed=n,
                                          num_players=2, guild_id=1, channel_id=2, host_user_id=100)
            await store.set_seat(gid, 0, user_id=100 + n, name=f"Player {n}")
    finally:
        await store.close()


def _damage_pages(path: Path) -> None:
    """Overwrite the page of an index (seats_by_user): the file opens and its tables read fine, so only a
    check of its pages finds the damage."""
    with sqlite3.connect(path) as conn:
        ((root,),) = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'seats_by_user'")
        ((page,),) = conn.execute("PRAGMA page_size")
    conn.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page:root * page] = bytes([0x5A]) * page
    path.write_bytes(bytes(data))
    with sqlite3.connect(path) as conn:  # the damage the old start-up did not notice
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] > 0
    conn.close()


async def _run_bot_on(path: Path) -> tuple[int | None, str, int]:
    """Run the real bot (against the loopback fake Discord) on ``path``; (exit code, stderr, logins)."""
    from tests.fake_server import FakeDiscordServer

    server = await FakeDiscordServer().start()
    env = dict(os.environ, DISCORD_TOKEN="fake-token", DATABASE_PATH=str(path), LOG_LEVEL="INFO",
               FAKE_DISCORD_API=server.api_url, FAKE_DISCORD_GATEWAY=server.gateway_url, DEV_GUILD_ID="",
               RENDER_PROCESSES="0")
    proc = await asyncio.create_subprocess_exec(sys.executable, str(ROOT / "tests" / "run_bot.py"), env=env,
                                                cwd=str(ROOT), stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        _, err = await asyncio.wait_for(proc.communicate(), BAD_DB_TIMEOUT_S)
    except TimeoutError:
        proc.kill()
        _, err = await proc.communicate()
        return None, err.decode(errors="replace"), server.identify_count
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
    return proc.returncode, err.decode(errors="replace"), server.identify_count


def _assert_refused(code: int | None, err: str, logins: int, path: Path, reason: str) -> None:
    assert code is not None, f"the bot hung instead of exiting; stderr:\n{err[-3000:]}"
    assert code == 1, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"Cannot use the database {path}: ") and reason in lines[0], lines[0]
    assert logins == 0  # refused before logging in to Discord


@pytest.mark.e2e
async def test_a_damaged_database_is_refused_at_start(tmp_path):
    path = tmp_path / "g.db"
    await _make_database(path)
    _damage_pages(path)
    _assert_refused(*await _run_bot_on(path), path, "the database file is damaged (quick_check:")


@pytest.mark.e2e
async def test_a_file_that_is_not_a_database_is_refused_at_start(tmp_path):
    path = tmp_path / "g.db"
    path.write_bytes(bytes(range(256)) * 64)
    _assert_refused(*await _run_bot_on(path), path, "the database file is damaged (file is not a database)")


@pytest.mark.e2e
async def test_a_database_from_a_newer_version_is_refused_at_start(tmp_path):
    from store.migrations import MIGRATIONS

    path = tmp_path / "g.db"
    await _make_database(path, games=1)
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    _assert_refused(*await _run_bot_on(path), path,
                    f"schema version {len(MIGRATIONS) + 1}, newer than this code's {len(MIGRATIONS)}")


@pytest.mark.e2e
async def test_a_database_locked_by_another_process_is_refused_at_start(tmp_path):
    path = tmp_path / "g.db"
    await _make_database(path, games=1)
    holder = sqlite3.connect(path, isolation_level=None)  # another writer (a second bot) holding the lock
    try:
        holder.execute("BEGIN IMMEDIATE")
        holder.execute("UPDATE games SET seed = seed + 1")
        _assert_refused(*await _run_bot_on(path), path, "the database is locked by another process")
    finally:
        holder.close()


@pytest.mark.e2e
async def test_a_read_only_database_is_refused_at_start(tmp_path):
    path = tmp_path / "g.db"
    await _make_database(path, games=1)
    with _read_only(path):
        _assert_refused(*await _run_bot_on(path), path, "the database cannot be written")
    with sqlite3.connect(path) as conn:  # and nothing was changed in it
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone() == (1,)


@contextlib.contextmanager
def _read_only(path: Path):
    """Make ``path`` read-only even for root (who ignores file modes): the immutable attribute."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)]).returncode != 0:
        pytest.skip("running as root without chattr +i: cannot make a file read-only")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


async def test_the_store_refuses_the_same_bad_files_and_stops_its_thread(tmp_path):
    """SqliteStore.open itself: StorageError, and no aiosqlite worker thread left behind (it would hang exit)."""
    import threading

    from store import SqliteStore, StorageError

    path = tmp_path / "g.db"
    path.write_bytes(b"not a database" * 1000)
    before = threading.active_count()
    with pytest.raises(StorageError, match="damaged"):
        await SqliteStore.open(path)
    await asyncio.sleep(0.2)
    assert threading.active_count() == before
