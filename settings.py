"""Settings from the environment (see the README's Settings section)."""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass, field

from host.cache import DEFAULT_LIVE_GAMES
from host.eventloop import LOOPS
from host.limits import parse_defaults
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
    #: worker processes that draw the pictures and work out choices and AI moves (0: worker threads in the bot's
    #: own process)
    render_processes: int = 2
    #: worker processes that draw animated replays, one at a time each (0: a worker thread)
    replay_processes: int = 1
    #: every server's limits until its admins set their own (``/limits``; host/limits.py)
    default_limits: dict = field(default_factory=dict)
    #: game states kept in memory (the least recently played beyond this are reloaded from the store when needed)
    live_games: int = DEFAULT_LIVE_GAMES
    #: port of the readiness endpoint ``/healthz`` (None: not served); the Docker HEALTHCHECK asks it
    health_port: int | None = None
    #: port of the Prometheus ``/metrics`` endpoint (None: not served); may equal ``health_port``
    metrics_port: int | None = None
    #: address the two endpoints listen on (this machine only by default; the Docker image sets 0.0.0.0)
    ops_host: str = "127.0.0.1"
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
    #: the event loop: ``uvloop`` (the default, where installed) or ``asyncio``'s own (host/eventloop.py)
    event_loop: str = "uvloop"

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Settings:
        env = dict(os.environ if env is None else env)
        guild = env.get("DEV_GUILD_ID", "").strip()
        if guild and not _DIGITS.fullmatch(guild):
            raise SystemExit(f"DEV_GUILD_ID must be a server id (up to 20 digits), not {_shown(guild)}.")
        remind = env.get("REMIND_AFTER_HOURS", "").strip() or "24"
        try:
            remind_hours = float(remind) if len(remind) <= 20 else math.nan
        except ValueError:
            remind_hours = math.nan
        if not math.isfinite(remind_hours):
            raise SystemExit(f"REMIND_AFTER_HOURS must be a number of hours (0 turns reminders off), "
                             f"not {_shown(remind)}.")
        if remind_hours < 0:
            raise SystemExit("REMIND_AFTER_HOURS cannot be negative (0 turns reminders off).")
        if remind_hours > MAX_REMIND_HOURS:
            raise SystemExit(f"REMIND_AFTER_HOURS can be at most {MAX_REMIND_HOURS} (a year), not {_shown(remind)}.")
        processes = _whole(env, "RENDER_PROCESSES", "2", 0, 64, "(0: threads in the bot's process)")
        live = _whole(env, "LIVE_GAMES", str(DEFAULT_LIVE_GAMES), 1, 1_000_000, "of games kept in memory")
        replaying = _whole(env, "REPLAY_PROCESSES", "1", 0, 16, "(0: a thread in the bot's process)")
        try:
            default_limits = parse_defaults(env.get("DEFAULT_LIMITS", "")[:2000])
        except ValueError as exc:
            raise SystemExit(f"DEFAULT_LIMITS: {exc} (write name=value pairs with commas between them, e.g. "
                             f"cooldown_seconds=10,lobbies_per_member=5).") from None
        url = env.get("DATABASE_URL", "").strip() or None
        if url and not url.startswith(("postgresql://", "postgres://")):
            raise SystemExit(f"DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:port/db), "
                             f"not {url.split('@')[-1]!r}; leave it unset to use the SQLite file at DATABASE_PATH.")
        archive = env.get("ARCHIVE_AFTER_MINUTES", "").strip() or "10"
        try:
            archive_minutes = float(archive)
        except ValueError:
            raise SystemExit(f"ARCHIVE_AFTER_MINUTES must be a number of minutes (0: at once), "
                             f"not {_shown(archive)}.") from None
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
            render_processes=processes,
            replay_processes=replaying,
            default_limits=default_limits,
            live_games=live,
            health_port=ports["HEALTH_PORT"],
            metrics_port=ports["METRICS_PORT"],
            ops_host=env.get("OPS_HOST", "").strip() or "127.0.0.1",
            shard_count=shard_count,
            shard_ids=shard_ids,
            web_port=ports["WEB_PORT"],
            web_host=env.get("WEB_HOST", "").strip() or None,
            public_url=public_url,
            web_trust_proxy=env.get("WEB_TRUST_PROXY", "").strip().lower() in ("1", "true", "yes"),
            web_rate_limit=int(rate),
            event_loop=_event_loop(env),
        )


#: a setting's whole number: ASCII digits only, and few enough to read safely (Python refuses to read more than
#: 4,300 digits, and ``isdigit`` also accepts digits of other scripts and superscripts)
_DIGITS = re.compile(r"[0-9]{1,20}")
MAX_REMIND_HOURS = 24 * 366
#: Discord's own sharding stays far below this (a shard per 1,000-2,500 servers)
MAX_SHARDS = 10_000


def _event_loop(env: dict[str, str]) -> str:
    """``EVENT_LOOP``: one of host/eventloop.py's ``LOOPS`` (default: the first, uvloop)."""
    loop = env.get("EVENT_LOOP", "").strip().lower() or LOOPS[0]
    if loop not in LOOPS:
        raise SystemExit(f"EVENT_LOOP must be one of {', '.join(LOOPS)}, not {_shown(loop)}.")
    return loop


def _shown(value: str) -> str:
    """A bad value as an error message quotes it: clipped, so a page of digits does not fill the log."""
    return repr(value if len(value) <= 40 else value[:40] + "…")


def _whole(env: dict[str, str], name: str, default: str, low: int, high: int, meaning: str) -> int:
    """The whole number in ``env[name]`` (``default`` when unset), between ``low`` and ``high``; SystemExit with
    a message otherwise."""
    value = env.get(name, "").strip() or default
    if not _DIGITS.fullmatch(value) or not low <= int(value) <= high:
        raise SystemExit(f"{name} must be a whole number from {low} to {high} {meaning}, not {_shown(value)}.")
    return int(value)


def _port(env: dict[str, str], name: str) -> int | None:
    value = env.get(name, "").strip()
    if not value:
        return None
    if not _DIGITS.fullmatch(value) or not 1 <= int(value) <= 65535:
        raise SystemExit(f"{name} must be a TCP port (1-65535), or unset to turn it off, not {_shown(value)}.")
    return int(value)


def _shards(env: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise SystemExit(f"SHARD_IDS={_shown(ids_text)} needs SHARD_COUNT, the number of shards in all processes "
                             f"together (e.g. SHARD_COUNT=4 SHARD_IDS=0-1).")
        return None, None
    if not _DIGITS.fullmatch(count_text) or not 1 <= int(count_text) <= MAX_SHARDS:
        raise SystemExit(f"SHARD_COUNT must be a whole number of shards, at least 1 and at most {MAX_SHARDS}, "
                         f"not {_shown(count_text)}.")
    count = int(count_text)
    if not ids_text:
        return count, None
    try:
        ids = parse_ids(ids_text, count)
    except ValueError as exc:
        raise SystemExit(f"SHARD_IDS={_shown(ids_text)} is not valid: {exc}. List this process's shards as ids and "
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
