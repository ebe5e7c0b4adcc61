"""The hardened ops port (issue 22, host/ops.py): slow clients are cut off and pushed out, the health check keeps
answering, malformed requests are refused without counting as the bot's errors, and /metrics reads counters."""

from __future__ import annotations

import asyncio
import logging
import time

import aiohttp
import pytest

from host.metrics import Metrics
from host.ops import OpsServer
from settings import Settings
from tests.test_docker_image import free_port


async def _started(**kwargs) -> tuple[OpsServer, Metrics, int]:
    metrics = Metrics()
    port = free_port()
    server = OpsServer(metrics, lambda: True, None, health_port=port, metrics_port=port, **kwargs)
    await server.start()
    return server, metrics, port


async def _raw(port: int, data: bytes, *, timeout: float = 5.0) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        return await asyncio.wait_for(reader.read(), timeout)
    finally:
        writer.close()


async def _slow(port: int, stop: asyncio.Event, dropped: list[int]) -> None:
    """A client that sends its request head one byte a second (and never finishes it)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        dropped.append(1)
        return
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 200
    try:
        for byte in head:
            if stop.is_set():
                break
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(1.0)
    except (ConnectionError, OSError):
        dropped.append(1)
    finally:
        writer.close()


def test_the_ops_port_listens_on_this_machine_only_by_default():
    assert Settings.from_env({}).ops_host == "127.0.0.1"
    assert Settings.from_env({"OPS_HOST": "0.0.0.0"}).ops_host == "0.0.0.0"


async def test_three_hundred_slow_clients_do_not_keep_the_health_check_out(caplog):
    caplog.set_level(logging.DEBUG, logger="host.ops")
    server, _, port = await _started(head_timeout=2.0)
    stop = asyncio.Event()
    dropped: list[int] = []
    slow = [asyncio.create_task(_slow(port, stop, dropped)) for _ in range(300)]
    answers = []
    try:
        await asyncio.sleep(1.0)
        async with aiohttp.ClientSession() as http:
            for _ in range(10):  # over four seconds: past the head timeout, while the slow clients come back
                began = time.perf_counter()
                async with http.get(f"http://127.0.0.1:{port}/healthz") as answer:
                    answers.append((answer.status, await answer.text(), time.perf_counter() - began))
                await asyncio.sleep(0.4)
        open_now = len(server._open[port])
    finally:
        stop.set()
        await asyncio.gather(*slow)
        await server.stop()
    print(f"\n/healthz among 300 slow clients: {max(a[2] for a in answers) * 1000:.0f} ms at most; "
          f"{server.evicted} pushed out, {server.timed_out} timed out")
    assert [a[:2] for a in answers] == [(200, "ready\n")] * 10
    assert max(a[2] for a in answers) < 1.0
    assert open_now <= server.max_connections  # never more sockets than the cap
    assert server.evicted >= 300 - server.max_connections  # the crowd beyond the cap was pushed out
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_request_head_trickling_in_is_cut_off_at_the_head_timeout():
    server, _, port = await _started(head_timeout=1.0)
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        began = time.perf_counter()
        closed = None
        for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 50:
            try:
                writer.write(bytes([byte]))
                await writer.drain()
                if await asyncio.wait_for(reader.read(100), 0.2) == b"":
                    closed = time.perf_counter() - began
                    break
            except TimeoutError:
                pass
            except ConnectionError:
                closed = time.perf_counter() - began
                break
        writer.close()
    finally:
        await server.stop()
    assert closed is not None and 0.9 < closed < 2.0, closed
    assert server.timed_out == 1


@pytest.mark.parametrize("request_bytes", [
    b"NOT HTTP AT ALL\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\n\r\n",  # HTTP/1.1 without a Host header
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n",
    b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",  # a head larger than the limit
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS hello on the plain port
])
async def test_a_malformed_request_is_refused_logged_quietly_and_not_an_error(request_bytes, caplog):
    caplog.set_level(logging.DEBUG)
    server, metrics, port = await _started()
    counter = metrics.log_handler()
    logging.getLogger().addHandler(counter)
    try:
        answer = await _raw(port, request_bytes)
        status, body = await _raw(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"), None
    finally:
        logging.getLogger().removeHandler(counter)
        await server.stop()
    assert answer.startswith(b"HTTP/1.1 4"), answer[:80]
    assert status.startswith(b"HTTP/1.1 200") and status.endswith(b"ready\n")
    assert server.malformed == 1
    assert metrics.registry.get_sample_value("gamehost_errors_total", {"logger": "host"}) is None
    said = [r for r in caplog.records if r.name == "host.ops" and "serving" not in r.getMessage()]
    assert said and all(r.levelno == logging.DEBUG for r in said)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert body is None


async def test_methods_paths_and_bodies():
    server, _, port = await _started()
    try:
        head = await _raw(port, b"HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        post = await _raw(port, b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        missing = await _raw(port, b"GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n")
        large = await _raw(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n"
                           + b"x" * 100_000)
        metrics = await _raw(port, b"GET /metrics?x=1 HTTP/1.0\r\n\r\n")
    finally:
        await server.stop()
    assert head.startswith(b"HTTP/1.1 200") and head.endswith(b"\r\n\r\n")  # no body to a HEAD
    assert post.startswith(b"HTTP/1.1 405")
    assert missing.startswith(b"HTTP/1.1 404")
    assert large.startswith(b"HTTP/1.1 413")
    assert metrics.startswith(b"HTTP/1.1 200") and b"gamehost_moves_total" in metrics


async def test_metrics_scrapes_read_the_counters_once_a_second_at_most():
    reads = []

    async def refresh():
        reads.append(time.monotonic())
        await asyncio.sleep(0.05)

    metrics = Metrics()
    port = free_port()
    server = OpsServer(metrics, lambda: True, refresh, health_port=None, metrics_port=port)
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            async def scrape():
                async with http.get(f"http://127.0.0.1:{port}/metrics") as answer:
                    return answer.status

            assert await asyncio.gather(*(scrape() for _ in range(20))) == [200] * 20
            assert len(reads) == 1  # twenty scrapes at once: one read of the store
            await asyncio.sleep(1.05)
            assert await scrape() == 200
            assert len(reads) == 2
    finally:
        await server.stop()
