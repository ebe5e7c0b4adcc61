"""Settings from the environment (see the README's Settings section)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from host.cache import DEFAULT_LIVE_GAMES
from host.shards import parse_ids


@dataclass(frozen=True)
class Settings:
    token: str | None = None
    database_path: str = "var/gamehost.db"
    #: ``postgresql://…``: keep the games in PostgreSQL instead of the SQLite file at ``database_path``
    database_url: str | None = None
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    #: push the slash commands to Discord at start-up (off in offline tests that never connect)
    sync_commands: bool = True
    #: remind the players a game waits for after this many hours without a move (0: never)
    remind_after_hours: float = 24.0
    #: worker processes that draw the pictures (0: worker threads in the bot's own process)
    render_processes: int = 2
    #: game states kept in memory (the least recently played beyond this are reloaded from the store when needed)
    live_games: int = DEFAULT_LIVE_GAMES
    #: port of the readiness endpoint ``/healthz`` (None: not served); the Docker HEALTHCHECK asks it
    health_port: int | None = None
    #: port of the Prometheus ``/metrics`` endpoint (None: not served); may equal ``health_port``
    metrics_port: int | None = None
    #: address the two endpoints listen on
    ops_host: str = "0.0.0.0"
    #: minutes a finished game's thread stays active before it is archived (0: at once; cogs/places.py)
    archive_after_minutes: float = 10.0
    #: Discord shards in all (None: not sharded, one process); with it the bot is an ``AutoShardedBot``
    shard_count: int | None = None
    #: the shards this process runs (None: all ``shard_count``); each process handles its shards' games only
    shard_ids: tuple[int, ...] | None = None
    #: serve the web companion (web/) on this port inside the bot's process (None: not served here)
    web_port: int | None = None
    #: the address the web companion listens on (default: ``ops_host``)
    web_host: str | None = None
    #: the address people reach the web companion at (``https://games.example.org``): the links the bot posts
    public_url: str | None = None
    #: the web companion is behind a reverse proxy: the client is the last address of X-Forwarded-For
    web_trust_proxy: bool = False
    #: requests a minute one client may make to the web companion (0: no limit)
    web_rate_limit: int = 240

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not guild.isdigit():
            raise SystemExit(f"DEV_GUILD_ID must be a server id (digits), not {guild!r}.")
        remind = env.get("REMIND_AFTER_HOURS", "").strip() or "24"
        try:
            remind_hours = float(remind)
        except ValueError:
            raise SystemExit(f"REMIND_AFTER_HOURS must be a number of hours (0 turns reminders off), "
                             f"not {remind!r}.") from None
        if remind_hours < 0:
            raise SystemExit("REMIND_AFTER_HOURS cannot be negative (0 turns reminders off).")
        processes = env.get("RENDER_PROCESSES", "").strip() or "2"
        if not processes.isdigit():
            raise SystemExit(f"RENDER_PROCESSES must be a whole number (0: draw in threads), not {processes!r}.")
        live = env.get("LIVE_GAMES", "").strip() or str(DEFAULT_LIVE_GAMES)
        if not live.isdigit() or int(live) < 1:
            raise SystemExit(f"LIVE_GAMES must be a whole number of games, at least 1, not {live!r}.")
        url = env.get("DATABASE_URL", "").strip() or None
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise SystemExit(f"DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:port/db), "
                             f"not {url.split('@')[-1]!r}; leave it unset to use the SQLite file at DATABASE_PATH.")
        archive = env.get("ARCHIVE_AFTER_MINUTES", "").strip() or "10"
        try:
            archive_minutes = float(archive)
        except ValueError:
            raise SystemExit(f"ARCHIVE_AFTER_MINUTES must be a number of minutes (0: at once), not {archive!r}.") \
                from None
        if not 0 <= archive_minutes <= 10080:
            raise SystemExit("ARCHIVE_AFTER_MINUTES must be between 0 and 10080 (a week).")
        ports = {name: _port(env, name) for name in ("HEALTH_PORT", "METRICS_PORT", "WEB_PORT")}
        public_url = env.get("PUBLIC_URL", "").strip().rstrip("/") or None
        if public_url and not public_url.startswith(("https://", "http://")):
            raise SystemExit(f"PUBLIC_URL must be the web address people open, starting with https:// (or http://), "
                             f"not {public_url!r}.")
        rate = env.get("WEB_RATE_LIMIT", "").strip() or "240"
        if not rate.isdigit():
            raise SystemExit(f"WEB_RATE_LIMIT must be a whole number of requests a minute (0: no limit), not {rate!r}.")
        shard_count, shard_ids = _shards(env)
        return cls(
            token=env.get("DISCORD_TOKEN", "").strip() or None,
            database_path=env.get("DATABASE_PATH", "").strip() or "var/gamehost.db",
            database_url=url,
            log_level=env.get("LOG_LEVEL", "").strip().upper() or "INFO",
            dev_guild_id=int(guild) if guild else None,
            sync_commands=env.get("SYNC_COMMANDS", "1").strip() not in ("0", "false", "no"),
            remind_after_hours=remind_hours,
            archive_after_minutes=archive_minutes,
            render_processes=int(processes),
            live_games=int(live),
            health_port=ports["HEALTH_PORT"],
            metrics_port=ports["METRICS_PORT"],
            ops_host=env.get("OPS_HOST", "").strip() or "0.0.0.0",
            shard_count=shard_count,
            shard_ids=shard_ids,
            web_port=ports["WEB_PORT"],
            web_host=env.get("WEB_HOST", "").strip() or None,
            public_url=public_url,
            web_trust_proxy=env.get("WEB_TRUST_PROXY", "").strip().lower() in ("1", "true", "yes"),
            web_rate_limit=int(rate),
        )


def _port(env: dict[str, str], name: str) -> int | None:
    value = env.get(name, "").strip()
    if not value:
        return None
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise SystemExit(f"{name} must be a TCP port (1-65535), or unset to turn it off, not {value!r}.")
    return int(value)


def _shards(env: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise SystemExit(f"SHARD_IDS={ids_text!r} needs SHARD_COUNT, the number of shards in all processes "
                             f"together (e.g. SHARD_COUNT=4 SHARD_IDS=0-1).")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise SystemExit(f"SHARD_COUNT must be a whole number of shards, at least 1, not {count_text!r}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    try:
        ids = parse_ids(ids_text, count)
    except ValueError as exc:
        raise SystemExit(f"SHARD_IDS={ids_text!r} is not valid: {exc}. List this process's shards as ids and "
                         f"ranges (e.g. 0-3 or 0,2), each below SHARD_COUNT={count}.") from None
    return count, ids


NO_TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in.

Get a token:
  1. Open https://discord.com/developers/applications and create an application (New Application).
  2. In "Bot", press "Reset Token" and copy the token.
  3. Run:  DISCORD_TOKEN=<your token> make run
     (or put DISCORD_TOKEN=... in your environment; optional: DEV_GUILD_ID=<your test server id>).
The README's "Run it on your server" section explains inviting the bot.
"""
