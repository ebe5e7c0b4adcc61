"""An offline Discord for tests: the real discord.py dispatch, fed with gateway-shaped payloads, and a
recorder in place of both outgoing HTTP paths.

discord.py sends bot-token REST calls through ``discord.http.HTTPClient.request`` and every interaction
response/followup through ``discord.webhook.async_.AsyncWebhookAdapter.request``; both are replaced by a
``FakeDiscord`` that records the request (route + JSON + files) and answers like Discord would (messages,
threads, DM channels, 50007 for closed DMs). Interactions go in through
``bot._connection.parse_interaction_create`` exactly as the gateway's INTERACTION_CREATE would.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import discord
from discord.http import HTTPClient
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.discord import hook
from tests.discord.contract import Contract, Refusal

APP_ID = 900_000_000_000_000_001
GUILD_ID = 800_000_000_000_000_001
CHANNEL_ID = 700_000_000_000_000_001
BOT_USER = {"id": str(APP_ID), "username": "GameHost", "discriminator": "0", "global_name": "GameHost",
            "avatar": None, "bot": True}


@dataclass
class Sent:
    """One recorded outgoing request."""

    via: str  # "rest" or "webhook"
    method: str
    path: str
    json: Any
    files: dict[str, bytes] = field(default_factory=dict)


def _payload_of(kwargs: dict) -> Any:
    if kwargs.get("json") is not None:
        return kwargs["json"]
    if kwargs.get("payload") is not None:
        return kwargs["payload"]
    for part in kwargs.get("form") or kwargs.get("multipart") or []:
        if part.get("name") == "payload_json":
            return json.loads(part["value"])
    return None


def route_params(template: str, path: str) -> dict[str, str] | None:
    """Parameters of a concrete ``path`` matching the route ``template`` ("/channels/{channel_id}/...")."""
    pattern = "^" + re.sub(r"\\{(\w+)\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$"
    m = re.match(pattern, path)
    return m.groupdict() if m else None


def _route_params(route) -> dict[str, str]:
    path = urlsplit(route.url).path
    path = path[path.index("/api/v10") + len("/api/v10"):] if "/api/v10" in path else path
    return route_params(route.path, path) or {}


def _files_of(files) -> dict[str, bytes]:
    out = {}
    for f in files or []:
        fp = f.fp
        pos = fp.tell()
        fp.seek(0)
        out[f.filename] = fp.read()
        fp.seek(pos)
    return out


class _Response:
    def __init__(self, status: int, reason: str) -> None:
        self.status, self.reason = status, reason


class FakeHTTPError(Exception):
    """An error answer of the fake Discord (status + Discord error code)."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def to_discord(self) -> discord.HTTPException:
        cls = discord.Forbidden if self.status == 403 else discord.NotFound if self.status == 404 else \
            discord.HTTPException
        return cls(_Response(self.status, "error"), {"code": self.code, "message": self.message})


class FakeDiscord:
    """The recording, answering stand-in for Discord's HTTP API."""

    def __init__(self) -> None:
        self.sent: list[Sent] = []
        self.messages: dict[int, dict] = {}
        self.channels: dict[int, dict] = {}
        self.closed_dms: set[int] = set()
        self.dm_channels: dict[int, int] = {}  # channel id -> user id
        self._ids = itertools.count(1_000_000_000_000_000_000)
        self.interaction_messages: dict[str, int] = {}  # interaction token -> original response message id
        #: channel id -> (HTTP status, Discord code) that every post there answers (a failing or forbidden thread)
        self.faults: dict[int, tuple[int, int]] = {}
        #: (channel id, nonce) -> message: Discord returns the first message again for a repeated nonce
        self.nonces: dict[tuple[int, str], dict] = {}

        #: Discord's contract (tests/discord/contract.py): every request is checked before it is answered
        self.contract = Contract(message_flags=lambda mid: self.messages.get(mid, {}).get("flags"))

    def new_id(self) -> int:
        return next(self._ids)

    # -- message store ------------------------------------------------------------------------------

    def _message(self, channel_id: int, payload: dict | None, files: dict[str, bytes], flags: int = 0,
                 message_id: int | None = None) -> dict:
        payload = payload or {}
        mid = message_id or self.new_id()
        msg = {
            "id": str(mid), "channel_id": str(channel_id), "type": 0, "author": BOT_USER,
            "content": payload.get("content") or "", "embeds": payload.get("embeds") or [],
            "components": payload.get("components") or [], "attachments": [
                {"id": str(self.new_id()), "filename": name, "size": len(data), "url": f"https://cdn/{name}",
                 "proxy_url": f"https://cdn/{name}"} for name, data in files.items()],
            "flags": flags | (payload.get("flags") or 0), "timestamp": "2026-11-29T00:00:00+00:00",
            "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
            "mention_roles": [], "pinned": False,
        }
        if channel_id not in self.dm_channels:
            msg["guild_id"] = str(GUILD_ID)
        self.messages[mid] = msg
        return msg

    def _edit(self, mid: int, payload: dict | None, files: dict[str, bytes]) -> dict:
        msg = self.messages.get(mid)
        if msg is None:
            raise FakeHTTPError(404, 10008, "Unknown Message")
        payload = payload or {}
        for key in ("content", "embeds", "components"):
            if key in payload:
                msg[key] = payload[key] if payload[key] is not None else ([] if key != "content" else "")
        new = [{"id": str(self.new_id()), "filename": n, "size": len(d), "url": f"https://cdn/{n}",
                "proxy_url": f"https://cdn/{n}"} for n, d in (files or {}).items()]
        if "attachments" in payload:  # as Discord: the message keeps the attachments listed by id, plus the new files
            keep = {str(a.get("id")) for a in payload["attachments"] or []}
            msg["attachments"] = [a for a in msg.get("attachments", []) if a["id"] in keep] + new
        elif new:
            msg["attachments"] = new
        return msg

    # -- REST (bot token) ---------------------------------------------------------------------------

    async def rest(self, method: str, path: str, p: dict, payload, recorded: dict[str, bytes]):
        """Answer a bot-token REST call; ``path`` is the route template, ``p`` its parameters."""
        self.sent.append(Sent("rest", method, path, payload, recorded))
        if method == "POST" and path == "/channels/{channel_id}/threads":
            self._fault(int(p["channel_id"]))
            tid = self.new_id()
            thread = {"id": str(tid), "type": 11, "guild_id": str(GUILD_ID), "parent_id": str(p["channel_id"]),
                      "name": payload.get("name"), "owner_id": str(APP_ID), "member_count": 1,
                      "message_count": 0, "rate_limit_per_user": 0, "flags": 0,
                      "thread_metadata": {"archived": False, "auto_archive_duration": 10080,
                                          "archive_timestamp": "2026-11-29T00:00:00+00:00", "locked": False}}
            self.channels[tid] = thread
            return thread
        if method == "POST" and path == "/channels/{channel_id}/messages":
            cid = int(p["channel_id"])
            if cid in self.dm_channels and self.dm_channels[cid] in self.closed_dms:
                raise FakeHTTPError(403, 50007, "Cannot send messages to this user")
            self._fault(cid)
            self._unarchive(cid)
            nonce = (payload or {}).get("nonce")
            if nonce is not None and (payload or {}).get("enforce_nonce") and (cid, str(nonce)) in self.nonces:
                return self.nonces[(cid, str(nonce))]
            message = self._message(cid, payload, recorded)
            if nonce is not None:
                self.nonces[(cid, str(nonce))] = message
            return message
        if method == "GET" and path == "/channels/{channel_id}/messages":
            cid = int(p["channel_id"])
            self._fault(cid)
            return [m for m in reversed(list(self.messages.values())) if int(m["channel_id"]) == cid][:50]
        if method == "PATCH" and path == "/channels/{channel_id}/messages/{message_id}":
            self._fault(int(p["channel_id"]))
            self._not_archived(int(p["channel_id"]))
            return self._edit(int(p["message_id"]), payload, recorded)
        if method == "PATCH" and path == "/channels/{channel_id}":
            self._fault(int(p["channel_id"]))
            return self._edit_thread(int(p["channel_id"]), payload or {})
        if method == "POST" and path == "/users/@me/channels":
            uid = int(payload["recipient_id"])
            cid = next((c for c, u in self.dm_channels.items() if u == uid), None) or self.new_id()
            self.dm_channels[cid] = uid
            return {"id": str(cid), "type": 1, "recipients": [_user(uid)], "last_message_id": None}
        if method == "PUT" and path.startswith("/applications/"):
            return [dict(cmd, id=str(self.new_id()), application_id=str(APP_ID), version="1") for cmd in payload]
        if method == "GET" and path == "/users/@me":
            return BOT_USER
        if method == "GET" and path == "/oauth2/applications/@me":
            return {"id": str(APP_ID), "name": "GameHost", "icon": None, "description": "", "bot_public": True,
                    "bot_require_code_grant": False, "owner": _user(1, "owner"), "verify_key": "0" * 64,
                    "flags": 0, "team": None, "summary": "", "interactions_endpoint_url": None,
                    "redirect_uris": [], "bot": BOT_USER}
        if method == "GET" and path == "/channels/{channel_id}":
            self._fault(int(p["channel_id"]))
            return self.channels[int(p["channel_id"])]
        if method == "DELETE" and path == "/channels/{channel_id}":
            self._fault(int(p["channel_id"]))
            channel = self.channels.get(int(p["channel_id"]))
            self.delete_channel(int(p["channel_id"]))
            return channel
        raise AssertionError(f"unexpected REST call {method} {path}")

    def _fault(self, channel_id: int) -> None:
        if channel_id in self.faults:
            status, code = self.faults[channel_id]
            raise FakeHTTPError(status, code, {10003: "Unknown Channel", 50001: "Missing Access"}.get(
                code, "Internal Server Error"))

    # -- threads: archived ones refuse edits (50083); a message sent to an unlocked one unarchives it ------

    def _thread_meta(self, channel_id: int) -> dict | None:
        return (self.channels.get(channel_id) or {}).get("thread_metadata")

    def _unarchive(self, channel_id: int) -> None:
        meta = self._thread_meta(channel_id)
        if meta and meta["archived"]:
            if meta.get("locked"):
                raise FakeHTTPError(400, 50083, "Thread is archived")
            meta["archived"] = False

    def _not_archived(self, channel_id: int) -> None:
        meta = self._thread_meta(channel_id)
        if meta and meta["archived"]:
            raise FakeHTTPError(400, 50083, "Thread is archived")

    def _edit_thread(self, channel_id: int, payload: dict) -> dict:
        """Modify a thread (the bot made it, so it may archive it without Manage Threads)."""
        channel = self.channels.get(channel_id)
        if channel is None:
            raise FakeHTTPError(404, 10003, "Unknown Channel")
        meta = channel.get("thread_metadata")
        if meta is None:
            raise AssertionError(f"the fake edits threads only, not channel {channel_id}")
        if meta["archived"] and payload.get("archived") is not False:
            raise FakeHTTPError(400, 50083, "Thread is archived")
        for key in ("archived", "locked", "auto_archive_duration"):
            if payload.get(key) is not None:
                meta[key] = payload[key]
        if payload.get("name"):
            channel["name"] = payload["name"]
        return channel

    def archived(self, channel_id: int) -> bool:
        """Whether a thread is archived."""
        return bool((self._thread_meta(channel_id) or {}).get("archived"))

    def delete_channel(self, channel_id: int) -> None:
        """The channel (or thread) is deleted: everything sent to it answers 404 Unknown Channel."""
        self.channels.pop(channel_id, None)
        self.faults[channel_id] = (404, 10003)

    # -- interaction webhooks -------------------------------------------------------------------------

    async def webhook(self, method: str, path: str, p: dict, data, recorded: dict[str, bytes]):
        """Answer an interaction callback, followup or original-response edit."""
        self.sent.append(Sent("webhook", method, path, data, recorded))
        if path == "/interactions/{webhook_id}/{webhook_token}/callback":
            token = p["webhook_token"]
            kind = data["type"]
            inner = data.get("data") or {}
            message = None
            if kind in (4, 5):  # a new (possibly deferred) response message
                message = self._message(self._channel_of.get(token, CHANNEL_ID), inner, recorded,
                                        flags=inner.get("flags") or 0)
                self.interaction_messages[token] = int(message["id"])
            elif kind == 7:  # edit the message the component is on
                mid = self._clicked.get(token)
                if mid is not None and mid in self.messages:
                    message = self._edit(mid, inner, recorded)
            elif kind == 6:
                mid = self._clicked.get(token)
                if mid is not None:
                    self.interaction_messages[token] = mid
            return {"interaction": {"id": str(p["webhook_id"]), "type": 3,
                                    "response_message_id": message["id"] if message else None,
                                    "response_message_loading": kind == 5,
                                    "response_message_ephemeral": bool((inner.get("flags") or 0) & 64)},
                    "resource": {"type": kind, **({"message": message} if message else {})}}
        if method == "POST" and path == "/webhooks/{webhook_id}/{webhook_token}":
            token = p["webhook_token"]
            return self._message(self._channel_of.get(token, CHANNEL_ID), data, recorded,
                                 flags=(data or {}).get("flags") or 0)
        if path in ("/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                    "/webhooks/{webhook_id}/{webhook_token}/messages/@original"):
            token = p["webhook_token"]
            mid = p.get("message_id", "@original")
            mid = self.interaction_messages.get(token) if mid == "@original" else int(mid)
            if method == "PATCH":
                if mid in self.messages:  # (Discord failing in a thread fails the edits of its messages too)
                    self._fault(int(self.messages[mid]["channel_id"]))
                return self._edit(mid, data, recorded)
            if method == "GET":
                return self.messages[mid]
            if method == "DELETE":
                self.messages.pop(mid, None)
                return None
        raise AssertionError(f"unexpected webhook call {method} {path}")

    _channel_of: dict[str, int]
    _clicked: dict[str, int]


REST_ROUTES = [
    "/users/@me/channels", "/users/@me", "/oauth2/applications/@me", "/gateway/bot",
    "/channels/{channel_id}/threads", "/channels/{channel_id}/messages",
    "/channels/{channel_id}/messages/{message_id}", "/channels/{channel_id}",
    "/applications/{application_id}/commands", "/applications/{application_id}/guilds/{guild_id}/commands",
]
WEBHOOK_ROUTES = [
    "/interactions/{webhook_id}/{webhook_token}/callback", "/webhooks/{webhook_id}/{webhook_token}",
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
]


def match_route(path: str) -> tuple[str, str, dict] | None:
    """("rest" | "webhook", template, params) for a concrete API path."""
    for via, templates in (("webhook", WEBHOOK_ROUTES), ("rest", REST_ROUTES)):
        for template in templates:
            params = route_params(template, path)
            if params is not None:
                return via, template, params
    return None


class Payloads:
    """Gateway-shaped payloads: interactions, READY, GUILD_CREATE."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self._interactions = itertools.count(1)
        fake._channel_of = {}
        fake._clicked = {}
        #: user id -> Discord client language ("hu", "pl"...); everybody else uses "en-US"
        self.locales: dict[int, str] = {}

    def interaction(self, user_id: int, channel_id: int, *, kind: int, data: dict, name: str | None = None,
                    dm: bool = False, permissions: str = "1071698660929",
                    app_permissions: str = "1071698660929") -> dict:
        """``permissions``: the member's in the channel; ``app_permissions``: the bot's there."""
        iid = self.fake.new_id()
        token = f"tok{next(self._interactions)}-{iid}"
        self.fake._channel_of[token] = channel_id
        payload = {
            "id": str(iid), "application_id": str(APP_ID), "type": kind, "token": token, "version": 1,
            "data": data, "locale": self.locales.get(user_id, "en-US"), "app_permissions": app_permissions,
            "attachment_size_limit": 26_214_400, "entitlements": [], "authorizing_integration_owners": {},
            "context": 1 if dm else 0, "channel_id": str(channel_id),
        }
        self.fake.contract.interaction(token, kind, attachment_size_limit=payload["attachment_size_limit"])
        user = _user(user_id, name)
        if dm:
            payload["user"] = user
            payload["channel"] = {"id": str(channel_id), "type": 1}
        else:
            payload["guild_id"] = str(GUILD_ID)
            payload["guild_locale"] = "en-US"
            payload["guild"] = {"id": str(GUILD_ID), "locale": "en-US", "features": []}
            channel = self.fake.channels.get(channel_id)
            payload["channel"] = channel or {"id": str(channel_id), "type": 0, "guild_id": str(GUILD_ID),
                                             "name": "games", "position": 0, "permission_overwrites": []}
            payload["member"] = {"user": user, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00",
                                 "deaf": False, "mute": False, "flags": 0, "permissions": permissions,
                                 "nick": None, "avatar": None, "pending": False}
        return payload

    def slash(self, user_id: int, path: str, channel_id: int = CHANNEL_ID, *, name: str | None = None,
              permissions: str = "1071698660929", resolved: dict | None = None, in_dm: bool = False,
              app_permissions: str = "1071698660929", **options) -> dict:
        """A slash command's interaction; ``in_dm``: sent in the bot's DM channel ``channel_id`` (no server)."""
        parts = path.split()
        opts = [{"name": k, "type": _option_type(v), "value": _option_value(v)} for k, v in options.items()]
        for depth, part in reversed(list(enumerate(parts[1:], start=1))):
            opts = [{"name": part, "type": 1 if depth == len(parts) - 1 else 2, "options": opts}]
        data = {"id": "1", "name": parts[0], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        return self.interaction(user_id, channel_id, kind=2, data=data, name=name, permissions=permissions,
                                dm=in_dm, app_permissions=app_permissions)

    def click(self, user_id: int, message: dict, custom_id: str, *, values: list[str] | None = None,
              name: str | None = None, app_permissions: str = "1071698660929") -> dict:
        data = {"custom_id": custom_id, "component_type": 3 if values is not None else 2}
        if values is not None:
            data["values"] = values
        channel_id = int(message["channel_id"])
        payload = self.interaction(user_id, channel_id, kind=3, data=data, name=name,
                                   dm=channel_id in self.fake.dm_channels, app_permissions=app_permissions)
        payload["message"] = message
        self.fake._clicked[payload["token"]] = int(message["id"])
        self.fake.contract.interaction(payload["token"], 3, attachment_size_limit=payload["attachment_size_limit"],
                                       clicked_flags=message.get("flags") or 0)
        return payload

    def autocomplete(self, user_id: int, path: str, focused: str, channel_id: int = CHANNEL_ID, *,
                     name: str | None = None, **options) -> dict:
        """An autocomplete request while ``focused`` is typed in ``/path`` (the other options as given)."""
        parts = path.split()
        opts = [{"name": k, "type": _option_type(v), "value": _option_value(v), **({"focused": True}
                 if k == focused else {})} for k, v in options.items()]
        for depth, part in reversed(list(enumerate(parts[1:], start=1))):
            opts = [{"name": part, "type": 1 if depth == len(parts) - 1 else 2, "options": opts}]
        data = {"id": "1", "name": parts[0], "type": 1, "options": opts}
        return self.interaction(user_id, channel_id, kind=4, data=data, name=name)

    def modal(self, user_id: int, custom_id: str, values: dict[str, str], channel_id: int = CHANNEL_ID, *,
              name: str | None = None) -> dict:
        """The answer to a form (modal) the bot showed: one text input per ``values`` entry."""
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()]
        return self.interaction(user_id, channel_id, kind=5, data={"custom_id": custom_id, "components": rows},
                                name=name, dm=channel_id in self.fake.dm_channels)

    @staticmethod
    def guild_create() -> dict:
        return {
            "id": str(GUILD_ID), "name": "Test server", "owner_id": "1", "unavailable": False,
            "member_count": 3, "large": False, "features": [], "emojis": [], "stickers": [],
            "roles": [{"id": str(GUILD_ID), "name": "@everyone", "permissions": "1071698660929", "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}],
            "channels": [{"id": str(CHANNEL_ID), "type": 0, "name": "games", "position": 0,
                          "permission_overwrites": [], "guild_id": str(GUILD_ID)}],
            "threads": [], "voice_states": [],
            # Discord always sends the bot's own member (its roles decide its permissions), even without the
            # members intent
            "members": [{"user": BOT_USER, "roles": [], "joined_at": "2026-01-01T00:00:00+00:00", "deaf": False,
                         "mute": False, "flags": 0, "nick": None, "avatar": None, "pending": False}], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "soundboard_sounds": [], "premium_tier": 0, "preferred_locale": "en-US",
            "verification_level": 0, "default_message_notifications": 0, "explicit_content_filter": 0,
            "mfa_level": 0, "nsfw_level": 0, "system_channel_flags": 0, "afk_timeout": 300,
        }


def _user(uid: int, name: str | None = None) -> dict:
    name = name or f"user{uid % 1000}"
    return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name, "avatar": None}


class ErrorCollector(logging.Handler):
    """Exceptions in interaction callbacks are only logged by discord.py: collect them to fail the test."""

    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class Harness:
    """Drives a bot built by ``create_bot`` without any network."""

    def __init__(self, bot, monkeypatch) -> None:
        self.bot = bot
        self.fake = FakeDiscord()
        self.payloads = Payloads(self.fake)
        self.errors = ErrorCollector()
        self._monkeypatch = monkeypatch

    async def start(self) -> Harness:
        fake = self.fake

        async def rest(http_self, route, *, files=None, form=None, **kwargs):
            try:
                fake.contract.check(hook.from_discord_py(route, json_body=kwargs.get("json"), parts=form,
                                                         files=files, params=kwargs.get("params")))
                return await fake.rest(route.method, route.path, _route_params(route),
                                       _payload_of({"form": form, **kwargs}), _files_of(files))
            except Refusal as refusal:
                raise FakeHTTPError(refusal.status, refusal.code, refusal.body()["message"]).to_discord() from None
            except FakeHTTPError as exc:
                raise exc.to_discord() from None

        async def webhook(adapter_self, route, session=None, *, payload=None, multipart=None, files=None,
                          **kwargs):
            try:
                fake.contract.check(hook.from_discord_py(route, json_body=payload, parts=multipart, files=files,
                                                         params=kwargs.get("params")))
                return await fake.webhook(route.method, route.path, _route_params(route),
                                          _payload_of({"payload": payload, "multipart": multipart}),
                                          _files_of(files))
            except Refusal as refusal:
                raise FakeHTTPError(refusal.status, refusal.code, refusal.body()["message"]).to_discord() from None
            except FakeHTTPError as exc:
                raise exc.to_discord() from None

        self._monkeypatch.setattr(HTTPClient, "request", rest)
        self._monkeypatch.setattr(AsyncWebhookAdapter, "request", webhook)
        logging.getLogger().addHandler(self.errors)
        bot = self.bot
        await bot._async_setup_hook()
        state = bot._connection
        state.user = discord.ClientUser(state=state, data=BOT_USER)
        state.application_id = APP_ID
        await bot.setup_hook()
        state.parse_guild_create(Payloads.guild_create())
        return self

    async def stop(self) -> None:
        logging.getLogger().removeHandler(self.errors)
        await self.bot.close()

    def assert_no_errors(self) -> None:
        if self.errors.records:
            first = self.errors.records[0]
            detail = self.errors.format(first) if first.exc_info else first.getMessage()
            raise AssertionError(f"{len(self.errors.records)} error(s) logged; first: {detail}")

    async def slash(self, user_id: int, path: str, channel_id: int = CHANNEL_ID, **kwargs) -> None:
        """Run ``/path`` (e.g. "hector-achilles new") with the given option values."""
        self.bot._connection.parse_interaction_create(self.payloads.slash(user_id, path, channel_id, **kwargs))
        await self.settle()

    async def click(self, user_id: int, message: dict, custom_id: str, **kwargs) -> None:
        """Click a button (or choose ``values`` in a select) of a recorded message."""
        self.bot._connection.parse_interaction_create(self.payloads.click(user_id, message, custom_id, **kwargs))
        await self.settle()

    async def autocomplete(self, user_id: int, path: str, focused: str, **options) -> list[dict]:
        """The choices the bot suggests while ``focused`` is typed (its interaction callback of type 8)."""
        before = len(self.fake.sent)
        self.bot._connection.parse_interaction_create(self.payloads.autocomplete(user_id, path, focused, **options))
        await self.settle()
        answers = [s.json for s in self.fake.sent[before:] if s.path.endswith("/callback") and s.json["type"] == 8]
        assert answers, "no autocomplete answer"
        return answers[-1]["data"]["choices"]

    def modals(self, since: int = 0) -> list[dict]:
        """The forms (modals) the bot showed since ``since`` (an index into ``fake.sent``)."""
        return [s.json["data"] for s in self.fake.sent[since:] if s.path.endswith("/callback") and s.json["type"] == 9]

    async def submit(self, user_id: int, custom_id: str, values: dict[str, str], **kwargs) -> None:
        """Answer a form the bot showed."""
        self.bot._connection.parse_interaction_create(self.payloads.modal(user_id, custom_id, values, **kwargs))
        await self.settle()

    async def settle(self) -> None:
        """Wait until every task the dispatch started (and the tasks they started) has finished."""
        current = asyncio.current_task()
        for _ in range(200):
            await asyncio.sleep(0)
            # view timers (discord.py gives ephemeral views a 15-minute timeout) are not work to wait for
            # nor the background loops (discord.ext.tasks), which wait for a gateway connection here, nor the
            # web companion's live hub (WEB_PORT), which polls for as long as the bot runs
            pending = [t for t in asyncio.all_tasks() if t is not current and not t.done()
                       and not t.get_coro().__qualname__.endswith(("timeout_task_impl", "Loop._loop",
                                                                   "LiveHub._run"))]
            if not pending:
                return
            done, still = await asyncio.wait(pending, timeout=20)
            if still and not done:
                raise AssertionError(f"tasks did not finish: {[t.get_coro() for t in still]}")
        raise AssertionError("tasks did not settle")

    # -- reading what the bot sent --------------------------------------------------------------------

    def messages_in(self, channel_id: int) -> list[dict]:
        return [m for m in self.fake.messages.values() if int(m["channel_id"]) == channel_id]

    def dm_messages(self, user_id: int) -> list[dict]:
        channels = {c for c, u in self.fake.dm_channels.items() if u == user_id}
        return [m for m in self.fake.messages.values() if int(m["channel_id"]) in channels]


def _option_type(value) -> int:
    if isinstance(value, bool):
        return 5
    if isinstance(value, int):
        return 4
    if isinstance(value, discord.Object):
        return 6
    return 3


def _option_value(value):
    return str(value.id) if isinstance(value, discord.Object) else value


def components(message: dict) -> list[dict]:
    """Every interactive component of a message, flattened from its action rows."""
    out = []
    for row in message.get("components") or []:
        for c in row.get("components", []):
            if "custom_id" in c:
                out.append(c)
    return out


def button(message: dict, label: str | None = None, prefix: str | None = None) -> dict:
    for c in components(message):
        if c["type"] == 2 and (label is None or c.get("label") == label) and (
                prefix is None or c["custom_id"].startswith(prefix)):
            return c
    raise AssertionError(f"no button {label or prefix!r} in {[c.get('label') for c in components(message)]}")
