"""Operations: the Prometheus metrics of one bot process and the HTTP endpoints a deployment watches.

``/healthz`` (on ``HEALTH_PORT``) answers 200 only while the process can take a click (the bot says when:
gateway connected, store open), else 503; the Docker HEALTHCHECK asks it through :func:`healthcheck`.
``/metrics`` (on ``METRICS_PORT``) is the Prometheus text format of :class:`Metrics`. Both may share a port.
No discord here: the bot hands in a ``ready()`` callable and wires the counters (bot.py, cogs/views.py).
"""

from __future__ import annotations

import logging
import urllib.error
import urllib.request
from collections.abc import Callable

from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

log = logging.getLogger(__name__)

#: every status a game row can have (store/migrations.py), so a status with no game is reported as 0
STATUSES = ("lobby", "running", "finished", "abandoned")
#: "no limit" for ``Store.list_games`` that both SQL dialects accept
_ALL = 2**53
#: seconds; Discord wants a first answer within 3 s, the rest is deferred work (applying, AI, pictures)
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)


class Metrics:
    """The figures of one process, in their own registry (several bots in one test process do not mix)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter("gamehost_moves", "Actions committed to the store (people, AI seats, automatic "
                             "passes), by game", ["game"], registry=self.registry)
        self.errors = Counter("gamehost_errors", "Errors logged (unexpected exceptions in commands, clicks and "
                              "background jobs), by the top-level logger", ["logger"], registry=self.registry)
        self.latency = Histogram("gamehost_interaction_seconds", "Time the bot spends on one slash command or "
                                 "click, from the start of its handling to its last answer", ["handler"],
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.backlog = Gauge("gamehost_publish_backlog_games", "Games whose outbox still holds entries to deliver "
                             "(boards, DMs, AI turns)", registry=self.registry)
        self.games = Gauge("gamehost_games", "Games in the store, by status", ["status"], registry=self.registry)
        # exposed as gamehost_publish_failed_total (the client adds _total to counters)
        self.publish_failed = Counter(
            "gamehost_publish_failed", "Failed tries to publish what a game owes (its board, DMs), by cause: "
            "unavailable (Discord failing or unreachable; tried again without limit), refused (Discord refused "
            "it), no_thread (thread and channel deleted), unreadable (the game cannot be read: damaged, or saved "
            "by a newer version), internal (the board could not be built)", ["cause"], registry=self.registry)
        for cause in ("unavailable", "refused", "no_thread", "unreadable", "internal"):
            self.publish_failed.labels(cause)  # shown as 0 before the first failure
        self.publish_set_aside = Counter(
            "gamehost_publish_set_aside", "Publications set aside after failing too often (dead letters: the "
            "game's thread is told, /game status shows it)", registry=self.registry)
        self.dead_letters = Gauge("gamehost_publish_set_aside_games", "Games whose publication is set aside now "
                                  "(dead letters in the store)", registry=self.registry)

    def observe_move(self, game, state, events) -> None:
        """A ``GameService.observers`` callable: one committed action of ``game``."""
        self.moves.labels(game.engine).inc()

    def observe_interaction(self, handler: str, seconds: float) -> None:
        self.latency.labels(handler).observe(seconds)

    async def refresh(self, store) -> None:
        """Read the gauges from the store (at each scrape: the figures are the store's, not this process's)."""
        self.backlog.set(len(await store.pending_publications()))
        self.dead_letters.set(len(await store.dead_letters()))
        for status in STATUSES:
            # no counting query in the store interface yet: the rows (without snapshots) are listed
            self.games.labels(status).set(len(await store.list_games(statuses=(status,), limit=_ALL)))

    def log_handler(self) -> logging.Handler:
        """A handler for the root logger that counts every ERROR (and worse) record into ``errors``."""
        return _ErrorCounter(self.errors)


class _ErrorCounter(logging.Handler):
    def __init__(self, counter: Counter) -> None:
        super().__init__(logging.ERROR)
        self.counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        self.counter.labels(record.name.split(".")[0]).inc()


class OpsServer:
    """``/healthz`` on ``health_port`` and ``/metrics`` on ``metrics_port`` (either None: not served; equal
    ports: one listener with both routes). ``ready()`` decides readiness; ``refresh()`` runs before a scrape."""

    def __init__(self, metrics: Metrics, ready: Callable[[], bool], refresh: Callable | None = None, *,
                 health_port: int | None, metrics_port: int | None, host: str = "0.0.0.0") -> None:
        self.metrics, self.ready, self.refresh = metrics, ready, refresh
        self.host = host
        self.routes: dict[int, list[tuple[str, Callable]]] = {}
        if health_port is not None:
            self.routes.setdefault(health_port, []).append(("/healthz", self._healthz))
        if metrics_port is not None:
            self.routes.setdefault(metrics_port, []).append(("/metrics", self._metrics))
        self._runners: list[web.AppRunner] = []

    async def start(self) -> None:
        for port, routes in self.routes.items():
            app = web.Application()
            for path, handler in routes:
                app.router.add_get(path, handler)
            runner = web.AppRunner(app, access_log=None)
            await runner.setup()
            await web.TCPSite(runner, self.host, port).start()
            self._runners.append(runner)
            log.info("serving %s on %s:%d", ", ".join(path for path, _ in routes), self.host, port)

    async def stop(self) -> None:
        runners, self._runners = self._runners, []
        for runner in runners:
            await runner.cleanup()

    async def _healthz(self, request: web.Request) -> web.Response:
        ok = self.ready()
        return web.Response(status=200 if ok else 503, text="ready\n" if ok else "not ready\n")

    async def _metrics(self, request: web.Request) -> web.Response:
        if self.refresh is not None:
            try:
                await self.refresh()
            except Exception:  # the counters are still worth serving when the store cannot be read
                log.exception("could not read the gauges from the store")
        return web.Response(body=generate_latest(self.metrics.registry),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})


def healthcheck(port: int | None, host: str = "127.0.0.1", timeout: float = 5.0) -> int:
    """Exit status for a container HEALTHCHECK: 0 when ``/healthz`` answers 200, else 1 (with the reason)."""
    if port is None:
        print("HEALTH_PORT is not set: the bot serves no readiness endpoint")
        return 1
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=timeout) as answer:
            print(answer.read().decode().strip())
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode().strip() or f"HTTP {exc.code}")
    except OSError as exc:
        print(f"no answer on {host}:{port}: {exc}")
    return 1
