"""`python bot.py` (what `make run` runs) and the settings it reads."""

import os
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
