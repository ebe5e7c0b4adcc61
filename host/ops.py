"""The ops port: ``/healthz`` and ``/metrics`` over plain HTTP/1.1, hardened against slow and malformed clients.

A small server on asyncio streams with h11 (the HTTP/1.1 state machine of python-hyper) reading the requests:

- it listens on ``127.0.0.1`` unless told otherwise (``OPS_HOST``; the Docker image sets ``0.0.0.0``);
- a request's head must arrive within ``head_timeout`` seconds and any body within ``body_timeout`` (however
  slowly it trickles in: one byte a second does not keep a connection open), heads and bodies are capped in size,
  and each connection serves one request (``Connection: close``);
- at most ``max_connections`` at a time per port: a new connection beyond that pushes out the oldest one still
  waiting for its request head, so a crowd of slow clients cannot keep the health check out, and the bot never
  runs out of file descriptors because of this port;
- a malformed request is answered 400 and logged at DEBUG: it is the client's fault, not the bot's, so it is not
  counted in ``gamehost_errors_total``.

``ready()`` decides readiness; ``refresh()`` (the store's counters, see host/metrics.py) runs before a scrape.
"""

from __future__ import annotations

import asyncio
import logging
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import h11
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

log = logging.getLogger(__name__)

HEAD_TIMEOUT = 5.0
BODY_TIMEOUT = 5.0
WRITE_TIMEOUT = 10.0
MAX_CONNECTIONS = 64
MAX_HEAD = 8 * 1024
MAX_BODY = 64 * 1024

Handler = Callable[[], Awaitable[tuple[int, bytes, str]]]


@dataclass(eq=False)
class _Connection:
    writer: asyncio.StreamWriter
    opened: float
    reading_head: bool = True


class OpsServer:
    """``/healthz`` on ``health_port`` and ``/metrics`` on ``metrics_port`` (either None: not served; equal
    ports: one listener with both routes)."""

    def __init__(self, metrics, ready: Callable[[], bool], refresh: Callable | None = None, *,
                 health_port: int | None, metrics_port: int | None, host: str = "127.0.0.1",
                 max_connections: int = MAX_CONNECTIONS, head_timeout: float = HEAD_TIMEOUT,
                 body_timeout: float = BODY_TIMEOUT) -> None:
        self.metrics, self.ready, self.refresh = metrics, ready, refresh
        self.host = host
        self.max_connections, self.head_timeout, self.body_timeout = max_connections, head_timeout, body_timeout
        self.routes: dict[int, dict[str, Handler]] = {}
        if health_port is not None:
            self.routes.setdefault(health_port, {})["/healthz"] = self._healthz
        if metrics_port is not None:
            self.routes.setdefault(metrics_port, {})["/metrics"] = self._metrics
        self._servers: list[asyncio.Server] = []
        self._open: dict[int, list[_Connection]] = {}
        #: requests refused as malformed, connections pushed out or timed out (tests read them)
        self.malformed = self.evicted = self.timed_out = 0
        self._scraped = 0.0
        self._refreshing: asyncio.Task | None = None

    async def start(self) -> None:
        for port, routes in self.routes.items():
            self._open[port] = []

            async def serve(reader, writer, port=port, routes=routes):
                await self._serve(port, routes, reader, writer)

            server = await asyncio.start_server(serve, self.host, port, limit=MAX_HEAD)
            self._servers.append(server)
            log.info("serving %s on %s:%d", ", ".join(routes), self.host, port)

    async def stop(self) -> None:
        servers, self._servers = self._servers, []
        for server in servers:
            server.close()
        for connections in self._open.values():
            for conn in list(connections):
                conn.writer.transport.abort()
        for server in servers:
            await server.wait_closed()

    # -- connections ------------------------------------------------------------------------------------

    def _admit(self, port: int, conn: _Connection) -> bool:
        """Make room for ``conn``: beyond the cap the oldest connection still reading its head goes."""
        connections = self._open[port]
        if len(connections) >= self.max_connections:
            waiting = [c for c in connections if c.reading_head]
            if not waiting:
                return False
            oldest = min(waiting, key=lambda c: c.opened)
            connections.remove(oldest)
            oldest.writer.transport.abort()
            self.evicted += 1
        connections.append(conn)
        return True

    async def _serve(self, port: int, routes: dict[str, Handler], reader: asyncio.StreamReader,
                     writer: asyncio.StreamWriter) -> None:
        conn = _Connection(writer, time.monotonic())
        if not self._admit(port, conn):
            writer.transport.abort()
            return
        peer = writer.get_extra_info("peername")
        http = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
        try:
            request = await self._read(http, reader, self.head_timeout, (h11.Request,))
            if request is None:
                return
            conn.reading_head = False
            if not await self._body(http, reader):
                await self._answer(http, writer, 413, b"request body too large\n")
                return
            status, body, kind = await self._route(routes, request)
            await self._answer(http, writer, status, body, kind, head_only=request.method == b"HEAD")
        except h11.RemoteProtocolError as exc:
            if writer.transport.is_closing():  # pushed out, or the client went away mid-request
                log.debug("ops port: connection from %s closed: %s", peer, exc)
                return
            self.malformed += 1
            log.debug("malformed request on the ops port from %s: %s", peer, exc)
            try:
                await self._answer(http, writer, exc.error_status_hint, b"bad request\n")
            except (ConnectionError, OSError, TimeoutError):
                pass
        except TimeoutError:
            self.timed_out += 1
            log.debug("ops port: %s was too slow to send its request", peer)
        except (ConnectionError, OSError) as exc:
            log.debug("ops port: connection from %s lost: %s", peer, exc)
        finally:
            if conn in self._open.get(port, ()):
                self._open[port].remove(conn)
            writer.close()

    async def _read(self, http: h11.Connection, reader: asyncio.StreamReader, timeout: float, kinds: tuple):
        """The next event of one of ``kinds`` (None: the client closed first), all within ``timeout``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = http.next_event()
            if event is h11.NEED_DATA:
                left = deadline - loop.time()
                if left <= 0:
                    raise TimeoutError
                data = await asyncio.wait_for(reader.read(4096), left)
                http.receive_data(data)
                continue
            if isinstance(event, h11.ConnectionClosed):
                return None
            if isinstance(event, kinds):
                return event

    async def _body(self, http: h11.Connection, reader: asyncio.StreamReader) -> bool:
        """Read (and drop) a request's body within ``body_timeout``; False when it is larger than ``MAX_BODY``."""
        size = 0
        while True:
            event = await self._read(http, reader, self.body_timeout, (h11.Data, h11.EndOfMessage))
            if event is None or isinstance(event, h11.EndOfMessage):
                return True
            size += len(event.data)
            if size > MAX_BODY:
                return False

    async def _answer(self, http: h11.Connection, writer: asyncio.StreamWriter, status: int, body: bytes,
                      kind: str = "text/plain; charset=utf-8", head_only: bool = False) -> None:
        if http.our_state not in (h11.IDLE, h11.SEND_RESPONSE):
            return
        headers = [("content-type", kind), ("content-length", str(len(body))), ("connection", "close")]
        try:
            data = http.send(h11.Response(status_code=status, headers=headers))
            if not head_only:
                data += http.send(h11.Data(data=body))
            data += http.send(h11.EndOfMessage())
        except h11.LocalProtocolError:  # (the request could not be answered at all: just close)
            return
        writer.write(data)
        await asyncio.wait_for(writer.drain(), WRITE_TIMEOUT)

    async def _route(self, routes: dict[str, Handler], request: h11.Request) -> tuple[int, bytes, str]:
        path = request.target.split(b"?", 1)[0].decode("ascii", "replace")
        handler = routes.get(path)
        if handler is None:
            return 404, b"not found\n", "text/plain; charset=utf-8"
        if request.method not in (b"GET", b"HEAD"):
            return 405, b"method not allowed\n", "text/plain; charset=utf-8"
        return await handler()

    # -- the endpoints ------------------------------------------------------------------------------------

    async def _healthz(self) -> tuple[int, bytes, str]:
        ok = self.ready()
        return (200 if ok else 503), (b"ready\n" if ok else b"not ready\n"), "text/plain; charset=utf-8"

    async def _metrics(self) -> tuple[int, bytes, str]:
        await self._refreshed()
        return 200, generate_latest(self.metrics.registry), CONTENT_TYPE_LATEST

    async def _refreshed(self) -> None:
        """The gauges read from the store at most once a second, however many scrapes come (one read serves
        the scrapes that arrive while it runs)."""
        if self.refresh is None:
            return
        if self._refreshing is None and time.monotonic() - self._scraped >= 1.0:
            self._refreshing = asyncio.create_task(self._refresh_once(self.refresh))
        if self._refreshing is not None:
            await asyncio.shield(self._refreshing)

    async def _refresh_once(self, refresh: Callable) -> None:
        try:
            await refresh()
        except Exception:  # the counters are still worth serving when the store cannot be read
            log.exception("could not read the gauges from the store")
        finally:
            self._scraped = time.monotonic()
            self._refreshing = None


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
