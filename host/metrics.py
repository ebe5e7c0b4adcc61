"""Operations: the Prometheus metrics of one bot process (served by the ops port, ``host/ops.py``).

``/metrics`` (on ``METRICS_PORT``) is the Prometheus text format of :class:`Metrics`: counters this process
keeps, gauges read from counters the store keeps (never a count of the games), and the event loop's lateness.
No discord here: the bot wires the counters (bot.py, cogs/views.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
)

log = logging.getLogger(__name__)

#: every status a game row can have (store/migrations.py), so a status with no game is reported as 0
STATUSES = ("lobby", "running", "finished", "abandoned")
#: seconds; Discord wants a first answer within 3 s, the rest is deferred work (applying, AI, pictures)
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)
#: seconds the event loop woke up late for a timer: a loop that is never held stays in the first buckets
LAG_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: the loop's lateness is sampled this often (seconds), and its largest in the last ``LAG_WINDOW`` is a gauge
LAG_EVERY, LAG_WINDOW = 0.25, 60.0


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
        self.loop_lag = Histogram("gamehost_event_loop_lag_seconds", "How late the event loop woke up for a "
                                  f"timer, sampled every {LAG_EVERY} s (work held on the loop delays every "
                                  "click and heartbeat by as much)", buckets=LAG_BUCKETS, registry=self.registry)
        self.loop_lag_max = Gauge("gamehost_event_loop_lag_max_seconds", "The largest event loop lateness of the "
                                  f"last {LAG_WINDOW:g} s", registry=self.registry)
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

    async def watch_loop(self) -> None:
        """Sample the event loop's lateness for ever (a task of the bot's): sleep ``LAG_EVERY`` and see how much
        later than that the loop came back."""
        loop = asyncio.get_running_loop()
        recent: deque[tuple[float, float]] = deque()
        while True:
            start = loop.time()
            await asyncio.sleep(LAG_EVERY)
            now = loop.time()
            late = max(0.0, now - start - LAG_EVERY)
            self.loop_lag.observe(late)
            recent.append((now, late))
            while recent and recent[0][0] < now - LAG_WINDOW:
                recent.popleft()
            self.loop_lag_max.set(max(x for _, x in recent))

    async def refresh(self, store) -> None:
        """Read the gauges from the store (before a scrape: the figures are the store's, not this process's): two
        small reads of counters the database keeps (``Store.gauges``), never a count of the games."""
        counts, owed, set_aside = await store.gauges()
        self.backlog.set(owed)
        self.dead_letters.set(set_aside)
        for status in STATUSES:
            self.games.labels(status).set(counts.get(status, 0))

    def log_handler(self) -> logging.Handler:
        """A handler for the root logger that counts every ERROR (and worse) record into ``errors``."""
        return _ErrorCounter(self.errors)


class _ErrorCounter(logging.Handler):
    def __init__(self, counter: Counter) -> None:
        super().__init__(logging.ERROR)
        self.counter = counter

    def emit(self, record: logging.LogRecord) -> None:
        self.counter.labels(record.name.split(".")[0]).inc()
