"""A loopback fake Discord: REST + websocket gateway on 127.0.0.1, so an unmodified ``bot.start(token)``
runs against it (only ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` are redirected,
by ``tests/run_bot.py``). Answers come from the same ``FakeDiscord`` the in-process harness uses.

JSON answers carry the exact content type ``application/json``: discord.py parses nothing else.
"""

from __future__ import annotations

import asyncio
import json

from aiohttp import WSMsgType, web

from tests.discord_harness import (
    APP_ID,
    BOT_USER,
    GUILD_ID,
    FakeDiscord,
    FakeHTTPError,
    Payloads,
    match_route,
)

API = "/api/v10"


def _json(data, status: int = 200) -> web.Response:
    if data is None:
        return web.Response(status=204)
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


class FakeDiscordServer:
    def __init__(self) -> None:
        self.fake = FakeDiscord()
        self.payloads = Payloads(self.fake)
        self.app = web.Application(client_max_size=50 * 1024 * 1024)
        self.app.router.add_route("GET", "/gateway", self._gateway)
        self.app.router.add_route("*", API + "/{tail:.*}", self._api)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.ws: web.WebSocketResponse | None = None
        self.identified = asyncio.Event()
        self.identify_count = 0
        self._seq = 0

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> FakeDiscordServer:
        self._runner = web.AppRunner(self.app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- REST -----------------------------------------------------------------------------------------

    async def _api(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        found = match_route(path)
        if found is None:
            return _json({"code": 0, "message": f"fake Discord has no route {request.method} {path}"}, 404)
        via, template, params = found
        payload, files = None, {}
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()
                if part.name == "payload_json":
                    payload = json.loads(data)
                elif part.filename:
                    files[part.filename] = bytes(data)
        elif request.can_read_body:
            body = await request.read()
            payload = json.loads(body) if body else None
        handler = self.fake.webhook if via == "webhook" else self.fake.rest
        try:
            return _json(await handler(request.method, template, params, payload, files))
        except FakeHTTPError as exc:
            return _json({"code": exc.code, "message": exc.message}, exc.status)

    # -- gateway --------------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self.ws = ws
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                self.identify_count += 1
                await self.dispatch("READY", {
                    "v": 10, "user": BOT_USER, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
                    "session_id": f"session{self.identify_count}", "resume_gateway_url": self.gateway_url,
                    "application": {"id": str(APP_ID), "flags": 0}, "shard": [0, 1],
                })
                await self.dispatch("GUILD_CREATE", Payloads.guild_create())
                self.identified.set()
        if self.ws is ws:
            self.ws = None
        return ws

    async def dispatch(self, event: str, data: dict) -> None:
        """Send a gateway event to the connected bot."""
        assert self.ws is not None, "no bot connected"
        self._seq += 1
        await self.ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))


class RemoteBot:
    """The harness interface (``click``, ``slash``, ``messages_in``...) for a bot in another process,
    reached through the fake server's gateway; waits until the bot has stopped sending after each input."""

    def __init__(self, server: FakeDiscordServer) -> None:
        self.server = server
        self.fake = server.fake

    async def _settle(self, before: int, timeout: float = 30.0, quiet: float = 0.12) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while len(self.fake.sent) == before:
            if loop.time() > deadline:
                raise AssertionError("the bot did not answer")
            await asyncio.sleep(0.02)
        last = len(self.fake.sent)
        while True:
            await asyncio.sleep(quiet)
            if len(self.fake.sent) == last and not self._deferred_only():
                return
            last = len(self.fake.sent)
            if loop.time() > deadline:
                raise AssertionError("the bot did not settle")

    def _deferred_only(self) -> bool:
        """True while the newest request is a deferral: the bot still owes its real answer (it may be
        busy applying, letting the AI move and rendering, with nothing to send meanwhile)."""
        sent = self.fake.sent[-1]
        return (sent.via == "webhook" and sent.path.endswith("/callback")
                and (sent.json or {}).get("type") in (5, 6))

    async def slash(self, user_id: int, path: str, channel_id: int | None = None, **kwargs) -> None:
        before = len(self.fake.sent)
        args = (user_id, path) if channel_id is None else (user_id, path, channel_id)
        await self.server.dispatch("INTERACTION_CREATE", self.server.payloads.slash(*args, **kwargs))
        await self._settle(before)

    async def click(self, user_id: int, message: dict, custom_id: str, **kwargs) -> None:
        before = len(self.fake.sent)
        await self.server.dispatch("INTERACTION_CREATE",
                                   self.server.payloads.click(user_id, message, custom_id, **kwargs))
        await self._settle(before)

    def messages_in(self, channel_id: int) -> list[dict]:
        return [m for m in self.fake.messages.values() if int(m["channel_id"]) == channel_id]

    def dm_messages(self, user_id: int) -> list[dict]:
        channels = {c for c, u in self.fake.dm_channels.items() if u == user_id}
        return [m for m in self.fake.messages.values() if int(m["channel_id"]) in channels]

    def assert_no_errors(self) -> None:
        """Errors of the remote bot are checked in its log by the test."""
