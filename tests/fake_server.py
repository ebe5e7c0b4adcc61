"""A loopback fake Discord: REST + websocket gateway on 127.0.0.1, so an unmodified ``bot.start(token)``
runs against it (only ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` are redirected,
by ``tests/run_bot.py``). Answers come from the same ``FakeDiscord`` the in-process harness uses.

JSON answers carry the exact content type ``application/json``: discord.py parses nothing else.

It speaks Discord's sharding: an IDENTIFY with ``shard: [id, count]`` gets a READY for that shard and a
GUILD_CREATE for each of its servers (``(guild_id >> 22) % count == id``; an IDENTIFY without a shard is
shard 0 of 1, all servers); an event of a server goes to the connection of that server's shard, a DM event to
shard 0, as Discord does. ``FakeDiscordServer(guilds=[...])`` hosts several servers, each with one text channel
(``channel_of``); threads and messages carry the server of their channel.
"""

from __future__ import annotations

import asyncio
import contextvars
import json

from aiohttp import WSMsgType, web

from tests.discord import hook
from tests.discord.contract import Refusal
from tests.discord.limits import Limits
from tests.discord_harness import (
    APP_ID,
    BOT_USER,
    CHANNEL_ID,
    GUILD_ID,
    FakeDiscord,
    FakeHTTPError,
    Payloads,
    match_route,
)

API = "/api/v10"

#: the connection a gateway handler is answering (READY and GUILD_CREATE go to it, not to a server's shard)
_answering: contextvars.ContextVar = contextvars.ContextVar("answering", default=None)


def shard_of(guild_id: int | None, count: int) -> int:
    return 0 if guild_id is None else (int(guild_id) >> 22) % count


class GuildsFake(FakeDiscord):
    """FakeDiscord with several servers: a thread and a message belong to the server of their channel."""

    def __init__(self) -> None:
        super().__init__()
        self.guild_of: dict[int, int] = {CHANNEL_ID: GUILD_ID}  # channel or thread id -> server id

    def _message(self, channel_id: int, *args, **kwargs) -> dict:
        msg = super()._message(channel_id, *args, **kwargs)
        if channel_id in self.guild_of:
            msg["guild_id"] = str(self.guild_of[channel_id])
        return msg

    async def rest(self, method: str, path: str, p: dict, payload, recorded):
        result = await super().rest(method, path, p, payload, recorded)
        if method == "POST" and path == "/channels/{channel_id}/threads":
            guild = self.guild_of.get(int(p["channel_id"]), GUILD_ID)
            result["guild_id"] = str(guild)
            self.guild_of[int(result["id"])] = guild
        return result


class GuildsPayloads(Payloads):
    """Interactions in the server of their channel."""

    def interaction(self, user_id: int, channel_id: int, **kwargs) -> dict:
        payload = super().interaction(user_id, channel_id, **kwargs)
        guild = self.fake.guild_of.get(channel_id)
        if "guild_id" in payload and guild is not None:
            payload["guild_id"] = str(guild)
            payload["guild"] = dict(payload["guild"], id=str(guild))
            payload["channel"] = dict(payload["channel"], guild_id=str(guild))
        return payload


def _json(data, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    if data is None:
        return web.Response(status=204, headers=headers)
    return web.Response(status=status, body=json.dumps(data).encode(),
                        headers={**(headers or {}), "Content-Type": "application/json"})


class FakeDiscordServer:
    def __init__(self, guilds: list[int] | None = None, limits: Limits | None = None) -> None:
        self.fake = GuildsFake()
        #: Discord's load rules (tests/discord/limits.py), off unless a test sets them (also later: ``use``)
        self.limits: Limits | None = None
        self.use(limits)
        self.payloads = GuildsPayloads(self.fake)
        #: the servers the bot is in, and the text channel of each
        self.guilds = list(guilds or [GUILD_ID])
        self.channel_of = {g: CHANNEL_ID if g == GUILD_ID else self.fake.new_id() for g in self.guilds}
        self.fake.guild_of.update({c: g for g, c in self.channel_of.items()})
        #: shard id -> its open connection, and the shard count the bot identified with
        self.shards: dict[int, web.WebSocketResponse] = {}
        self.shard_count = 1
        #: (shard id, shard count) of every IDENTIFY, in order
        self.identifies: list[tuple[int, int]] = []
        self.app = web.Application(client_max_size=50 * 1024 * 1024)
        self.app.router.add_route("GET", "/gateway", self._gateway)
        self.app.router.add_route("*", API + "/{tail:.*}", self._api)
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.ws: web.WebSocketResponse | None = None
        self.identified = asyncio.Event()
        self.identify_count = 0
        self._seq = 0

    def use(self, limits: Limits | None) -> Limits | None:
        """Apply Discord's load rules from now on (None: none)."""
        self.limits = limits
        if limits is not None:
            limits.fake = self.fake
        return limits

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
        for ws in {id(w): w for w in [self.ws, *self.shards.values()] if w is not None}.values():
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- REST -----------------------------------------------------------------------------------------

    async def _api(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        payload, files, uploads = None, {}, []
        multipart = request.content_type.startswith("multipart/")
        if multipart:
            reader = await request.multipart()
            async for part in reader:
                data = await part.read()
                if part.name == "payload_json":
                    payload = json.loads(data)
                elif part.filename:
                    files[part.filename] = bytes(data)
                    uploads.append((part.name, part.filename, len(data)))
        elif request.can_read_body:
            body = await request.read()
            payload = json.loads(body) if body else None
        checked = hook.from_http(request.method, path, request.query, payload, uploads, multipart)
        found = match_route(path)
        if found is None:  # a route Discord does not have is a violation; one it has, a gap of this fake
            return self._refused(checked) or _json(
                {"code": 0, "message": f"fake Discord has no route {request.method} {path}"}, 404)
        via, template, params = found
        handler = self.fake.webhook if via == "webhook" else self.fake.rest
        limits = self.limits
        if limits is not None and (refusal := limits.check(via, request.method, template, params, payload)):
            return _json(refusal.body, refusal.status, refusal.headers)
        if (refused := self._refused(checked)) is not None:
            return refused
        try:
            result = await handler(request.method, template, params, payload, files)
        except FakeHTTPError as exc:
            return _json({"code": exc.code, "message": exc.message}, exc.status)
        headers = limits.passed(via, request.method, template, params, result) if limits is not None else None
        return _json(result, headers=headers)

    def _refused(self, request) -> web.Response | None:
        """Discord's contract (tests/discord/contract.py): a request Discord would refuse is refused like it does
        (and recorded: the test that caused it fails)."""
        try:
            self.fake.contract.check(request)
        except Refusal as refusal:
            return _json(refusal.body(), refusal.status)
        return None

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
                shard, count = (data["d"].get("shard") or [0, 1])
                self.identify_count += 1
                self.identifies.append((shard, count))
                self.shard_count = count
                self.shards[shard] = ws
                mine = [g for g in self.guilds if shard_of(g, count) == shard]
                _answering.set(ws)
                await self.dispatch("READY", {
                    "v": 10, "user": BOT_USER, "guilds": [{"id": str(g), "unavailable": True} for g in mine],
                    "session_id": f"session{self.identify_count}", "resume_gateway_url": self.gateway_url,
                    "application": {"id": str(APP_ID), "flags": 0}, "shard": [shard, count],
                })
                for guild in mine:
                    await self.dispatch("GUILD_CREATE", self.guild_create(guild))
                _answering.set(None)
                self.identified.set()
        if self.ws is ws:
            self.ws = None
        for shard in [s for s, w in self.shards.items() if w is ws]:
            del self.shards[shard]
        return ws

    def guild_create(self, guild: int) -> dict:
        payload = Payloads.guild_create()
        if guild == GUILD_ID:
            return payload
        channel = dict(payload["channels"][0], id=str(self.channel_of[guild]), guild_id=str(guild))
        return dict(payload, id=str(guild), name=f"Server {guild}", channels=[channel],
                    roles=[dict(payload["roles"][0], id=str(guild))])

    def connection_for(self, data: dict) -> web.WebSocketResponse:
        """Where Discord sends an event: the shard of its server (a DM event: shard 0)."""
        shard = shard_of(data.get("guild_id"), self.shard_count)
        ws = self.shards.get(shard)
        assert ws is not None, f"no bot process is connected for shard {shard} (server {data.get('guild_id')})"
        return ws

    async def dispatch(self, event: str, data: dict) -> None:
        """Send a gateway event to the connected bot (to the shard of its server)."""
        ws = _answering.get() or self.connection_for(data)
        if event == "INTERACTION_CREATE" and self.limits is not None:
            self.limits.interaction(data)  # its 3-second deadline starts now
        self._seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": event, "s": self._seq, "d": data}))


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
