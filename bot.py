"""Entry point: settings from the environment, logging, the store, the cogs; then run.

The database is opened and checked before logging in to Discord: a damaged, read-only, locked or newer-schema
file ends ``python bot.py`` with one line on stderr and exit code 1 (so a restart policy sees the failure).

``create_bot(settings)`` builds the bot without connecting (tests use it): a ``commands.Bot``, or with
``SHARD_COUNT`` (and ``SHARD_IDS``) an ``AutoShardedBot`` running those shards, which handles the games of its
shards' servers only (host/shards.py). ``python bot.py healthcheck`` asks
the running bot's ``/healthz`` (on ``HEALTH_PORT``) and exits 0 when it is ready (the Docker HEALTHCHECK).

The web companion (web/) runs inside the bot when ``WEB_PORT`` is set, or alone as ``python bot.py web`` (no
Discord connection: it reads the same database, so several of them can run behind a load balancer).
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import time
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.actions import ClickActions
from cogs.contexts import GUILD_INSTALL, SERVERS
from cogs.gamebot import GameBot as DeclaredBot
from cogs.translator import Translator
from host import eventloop
from host.cache import Locks
from host.locale import t
from host.metrics import Metrics
from host.ops import OpsServer, healthcheck
from host.outbox import Outbox
from host.service import GameService
from host.shards import Shards
from host.tournaments import TournamentService, tournaments_of
from host.weblinks import WebLinks
from host.workers import settle_heap
from settings import NO_TOKEN_HELP, Settings
from store import StorageError, Store, connect
from web.app import WebServer, make_context

log = logging.getLogger("gamehost")

COGS = ["cogs.games", "cogs.newgame", "cogs.rules", "cogs.reminders", "cogs.leaderboard", "cogs.tournaments",
        "cogs.publisher", "cogs.clocks", "cogs.places", "cogs.permissions", "cogs.limits", "cogs.decks", "cogs.settings"]
#: what a client with an old shape of the command tree sends (Discord caches global commands for up to an
#: hour): a command or subcommand that is gone, options that no longer fit, a value of the wrong type
STALE = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch, app_commands.TransformerError)


class GameBot(DeclaredBot):
    """The bot: one store, one game service, the game cogs and the persistent DynamicItems. Its attributes are
    declared in cogs/gamebot.py (what the cogs see of it); here they are made."""

    def __init__(self, settings: Settings, *, store: Store | None = None,
                 service: GameService | None = None, settle_heap: bool = False) -> None:
        intents = discord.Intents.default()  # no privileged intents: slash commands and components only
        sharding: dict[str, Any] = {}  # (AutoShardedBot's options: ShardedGameBot below)
        if settings.shard_count:
            sharding = {"shard_count": settings.shard_count,
                        "shard_ids": list(settings.shard_ids) if settings.shard_ids is not None else None}
        # a rate limit longer than 30 s raises RateLimited instead of holding the request (and its caller) that
        # long: the thread opener parks that channel (cogs/places.py), a board stays owed (cogs/publish.py)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         max_ratelimit_timeout=30.0, tree_cls=GameTree, **sharding)
        self.settings = settings
        self.owned = Shards.of(settings.shard_ids, settings.shard_count)
        self._store = store
        self._service = service
        # (the bot's own process only - ``main`` - never a test's: see host.workers.settle_heap)
        self._settle_heap = settle_heap
        # one publication per game at a time (cogs/publish.py); a lock lives while held or awaited (host/cache.py)
        self.publish_locks = Locks()
        self.clicks = ClickActions()
        self.metrics = Metrics()
        self.ops: OpsServer | None = None
        self._error_counter: logging.Handler | None = None
        self.web: WebServer | None = None
        self._loop_watch: asyncio.Task | None = None

    def ready_to_serve(self) -> bool:
        """Readiness (``/healthz``): the store is open and the gateway connected, so a click gets an answer."""
        return self._store is not None and self.is_ready() and not self.is_closed() and self._gateway_open()

    def _gateway_open(self) -> bool:
        ws = self.ws
        return ws is not None and ws.open

    async def setup_hook(self) -> None:
        settings = self.settings
        if settings.health_port is not None or settings.metrics_port is not None:
            # up before the store and the gateway, so that "not ready yet" is an answer, not a refused connection
            self.ops = OpsServer(self.metrics, self.ready_to_serve, self._refresh_gauges,
                                 health_port=settings.health_port, metrics_port=settings.metrics_port,
                                 host=settings.ops_host)
            await self.ops.start()
        if settings.metrics_port is not None:
            self._error_counter = self.metrics.log_handler()
            logging.getLogger().addHandler(self._error_counter)
        if self._store is None:
            self._store = await connect(self.settings.database_url or self.settings.database_path)
        if self._service is None:
            self._service = GameService(self._store, render_processes=self.settings.render_processes,
                                        live_games=self.settings.live_games, limits=self.settings.default_limits)
            await self._service.painter.warm_up()
        self._service.observers.append(self.metrics.observe_move)
        self._outbox = Outbox(self._service)
        self.weblinks = WebLinks(self._store, settings.public_url)
        if settings.web_port is not None:
            self.web = WebServer(make_context(self.service, tournaments_of(self), trust_proxy=settings.web_trust_proxy),
                                 host=settings.web_host or settings.ops_host, port=settings.web_port,
                                 rate_per_minute=settings.web_rate_limit or None)
            await self.web.start()
        await self.tree.set_translator(Translator())
        # commands that do not say otherwise: servers only, and the bot is installed on servers, not on users
        self.tree.allowed_contexts = SERVERS
        self.tree.allowed_installs = GUILD_INSTALL
        for name in COGS:
            await self.load_extension(name)
        if self.settings.sync_commands:
            await self.sync_commands()
        if self._settle_heap:  # everything of start-up is loaded: the collector need not walk it again
            settle_heap()

    async def _refresh_gauges(self) -> None:
        if self._store is not None:
            await self.metrics.refresh(self._store)

    async def _command_started(self, interaction: discord.Interaction) -> bool:
        interaction.extras["started"] = time.perf_counter()
        return True

    def _command_done(self, interaction: discord.Interaction) -> None:
        started = interaction.extras.get("started")
        if started is not None:
            name = getattr(interaction.command, "qualified_name", "?")
            self.metrics.observe_interaction("/" + name, time.perf_counter() - started)

    async def on_app_command_completion(self, interaction: discord.Interaction, command) -> None:
        self._command_done(interaction)

    async def on_app_command_error(self, interaction: discord.Interaction,
                                   error: discord.app_commands.AppCommandError) -> None:
        """Errors in slash commands. A stale command (an old shape of the tree, still cached by the client) gets
        "this command has changed, try again in a minute" and an INFO line; anything else is unexpected: logged
        as an ERROR, and the user gets a short apology, not silence."""
        stale = isinstance(error, STALE)
        if stale:
            log.info("stale command /%s from user %s: %s", _command_path(interaction), interaction.user.id, error)
        else:
            log.error("error in /%s", getattr(interaction.command, "qualified_name", "?"), exc_info=error)
        message = t("command_changed" if stale else "error_generic", str(interaction.locale))
        try:
            if interaction.type is discord.InteractionType.autocomplete:
                if not interaction.response.is_done():
                    await interaction.response.autocomplete([])
            elif interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            pass
        self._command_done(interaction)

    async def sync_commands(self) -> None:
        """Register the slash commands: instantly on DEV_GUILD_ID, else globally (may take up to an hour)."""
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))

    async def on_ready(self) -> None:
        if self.settings.metrics_port is not None and self._loop_watch is None:  # (READY comes again on resumes)
            self._loop_watch = asyncio.create_task(self.metrics.watch_loop())
        log.info("logged in as %s (%s) in %d servers%s", self.user, getattr(self.user, "id", "?"),
                 len(self.guilds), f", shards {self.owned.label()}" if self.owned else "")

    async def close(self) -> None:
        try:
            await super().close()
        finally:
            if self._loop_watch is not None:
                self._loop_watch.cancel()
                self._loop_watch = None
            if self.ops is not None:
                ops, self.ops = self.ops, None
                await ops.stop()
            if self.web is not None:
                web, self.web = self.web, None
                await web.stop()
            if self._error_counter is not None:
                logging.getLogger().removeHandler(self._error_counter)
                self._error_counter = None
            if self.replay_queue is not None:
                self.replay_queue.close()
            if self._service is not None:
                self._service.close()
            if self._store is not None:
                store, self._store = self._store, None
                await store.close()


class GameTree(app_commands.CommandTree["GameBot"]):
    """The bot's command tree: every slash command is timed from its start (the bot's metrics), and its errors
    go to :meth:`GameBot.on_app_command_error`."""

    async def interaction_check(self, interaction: discord.Interaction[GameBot], /) -> bool:
        return await self.client._command_started(interaction)

    async def on_error(self, interaction: discord.Interaction[GameBot], error: app_commands.AppCommandError,
                       /) -> None:
        await self.client.on_app_command_error(interaction, error)


def _command_path(interaction: discord.Interaction) -> str:
    """The command as the client sent it ("game new troja"), also when this bot no longer has it."""
    data: Mapping[str, Any] = interaction.data or {}
    parts = [str(data.get("name", "?"))]
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        parts.append(str(options[0].get("name")))
        options = options[0].get("options") or []
    return " ".join(parts)[:100]


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """The bot as discord.py's ``AutoShardedBot``: one gateway connection per shard of ``SHARD_IDS``."""

    def _gateway_open(self) -> bool:
        # an AutoShardedBot has no single ``ws``: ready when every one of its shards is connected
        shards = self.shards
        return bool(shards) and not any(shard.is_closed() for shard in shards.values())


def create_bot(settings: Settings | None = None, **kwargs) -> GameBot:
    """Build the bot without connecting (sharded when ``SHARD_COUNT`` is set)."""
    settings = settings or Settings.from_env()
    return (ShardedGameBot if settings.shard_count else GameBot)(settings, **kwargs)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    settings = Settings.from_env()
    if argv[:1] == ["healthcheck"]:
        # the endpoint listens on OPS_HOST: every interface (0.0.0.0, ::) includes this machine's loopback
        probe = "127.0.0.1" if settings.ops_host in ("0.0.0.0", "::", "") else settings.ops_host
        return healthcheck(settings.health_port, probe)
    if argv and argv != ["web"]:
        print(f"usage: python bot.py [healthcheck | web]  (unknown arguments: {' '.join(argv)})", file=sys.stderr)
        return 2
    # discord.py's handler and format on the root logger: one style for every log line. Its colours only on
    # a terminal: discord.py would colour inside any Docker container too, and log collectors want plain text
    plain = logging.Formatter("[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{")
    discord.utils.setup_logging(level=getattr(logging, settings.log_level, logging.INFO), root=True,
                                formatter=discord.utils.MISSING if sys.stderr.isatty() else plain)
    if argv == ["web"]:
        return web_main(settings)
    token = settings.token
    if not token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2

    async def runner() -> None:
        # (closes what it opened if it raises)
        store = await connect(settings.database_url or settings.database_path)
        log.info("event loop: %s", type(asyncio.get_running_loop()).__module__.split(".")[0])
        # `docker stop` sends SIGTERM, and as PID 1 in a container the process would ignore it (no default
        # action there) until the SIGKILL 10 s later: close properly instead (the store checkpoints its WAL)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        async with create_bot(settings, store=store, settle_heap=True) as bot:  # closes the store on every way out
            start = asyncio.create_task(bot.start(token))
            waiting = asyncio.create_task(stop.wait())
            await asyncio.wait({start, waiting}, return_when=asyncio.FIRST_COMPLETED)
            waiting.cancel()
            if not start.done():
                await bot.close()
            await start  # (its errors, e.g. a refused token)
        log.info("stopped")

    try:
        eventloop.run(runner(), settings.event_loop)
    except StorageError as exc:
        where = settings.database_url.split("@")[-1] if settings.database_url else settings.database_path
        print(f"Cannot use the database {where}: {exc}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("Discord refused the token (DISCORD_TOKEN): reset it in the Developer Portal and try again.",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


def web_main(settings: Settings) -> int:
    """``python bot.py web``: the web companion alone, over the bot's database (no Discord token needed)."""
    port = settings.web_port
    if port is None:
        print("python bot.py web needs WEB_PORT, the port to serve the pages on (e.g. WEB_PORT=8000).",
              file=sys.stderr)
        return 2

    async def runner() -> None:
        store = await connect(settings.database_url or settings.database_path)
        service = GameService(store, render_processes=settings.render_processes, live_games=settings.live_games)
        try:
            await service.painter.warm_up()
            settle_heap()
            context = make_context(service, TournamentService(service), trust_proxy=settings.web_trust_proxy)
            server = WebServer(context, host=settings.web_host or settings.ops_host, port=port,
                               rate_per_minute=settings.web_rate_limit or None)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stop.set)
            await server.start()
            try:
                await stop.wait()
            finally:
                await server.stop()
        finally:
            service.close()
            await store.close()
        log.info("web companion stopped")

    try:
        eventloop.run(runner(), settings.event_loop)
    except StorageError as exc:
        where = settings.database_url.split("@")[-1] if settings.database_url else settings.database_path
        print(f"Cannot use the database {where}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"Cannot serve the web companion on port {settings.web_port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
