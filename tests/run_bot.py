"""Run the real bot (``bot.main()``, unmodified) against the loopback fake Discord of the e2e tests.

Only the two addresses are redirected: ``discord.http.Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``
(from FAKE_DISCORD_API and FAKE_DISCORD_GATEWAY). ``CRASH_AT=<point>:<n>`` makes the process SIGKILL itself at
the n-th time it reaches a point (the crash tests): ``before_commit``/``after_commit`` of a move,
``ai_commit`` (after the n-th AI move is saved), ``after_post`` (a board posted, before the bot records it),
``after_update`` (a board updated in place within a turn, through the click's interaction or an edit, before
the bot records it),
``after_settle`` (a tournament match's result recorded, before the next round is paired), ``after_pair`` (a
tournament round paired and stored, before its games are opened).
"""

import json
import os
import signal
import sys
from pathlib import Path

# run as a script, this folder comes first on sys.path, where tests/discord (the fakes) would hide discord.py
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import discord.gateway  # noqa: E402
import discord.http  # noqa: E402
import yarl  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot  # noqa: E402

discord.http.Route.BASE = os.environ["FAKE_DISCORD_API"]
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["FAKE_DISCORD_GATEWAY"])



def _install_crash_point(spec: str) -> None:
    from store import Store

    point, _, nth = spec.partition(":")
    seen = {"n": 0}

    def reached() -> None:
        seen["n"] += 1
        if seen["n"] == int(nth):
            os.kill(os.getpid(), signal.SIGKILL)

    if point in ("before_commit", "after_commit", "ai_commit"):
        commit = Store.commit_action

        async def commit_action(self, game_id, **kw):
            if point == "before_commit":
                reached()
            result = await commit(self, game_id, **kw)
            if point == "after_commit" or (point == "ai_commit" and kw["user_id"] is None):
                reached()
            return result

        Store.commit_action = commit_action
    elif point == "after_post":
        request = discord.http.HTTPClient.request

        async def posting(self, route, **kw):
            result = await request(self, route, **kw)
            if route.method == "POST" and route.path == "/channels/{channel_id}/messages" and kw.get("files"):
                reached()
            return result

        discord.http.HTTPClient.request = posting
    elif point == "after_update":
        from discord.webhook.async_ import AsyncWebhookAdapter

        request, hook = discord.http.HTTPClient.request, AsyncWebhookAdapter.request

        def a_board(kw: dict) -> bool:
            payload = kw.get("json") or kw.get("payload")
            for part in kw.get("form") or kw.get("multipart") or []:  # (with files)
                if part.get("name") == "payload_json":
                    payload = json.loads(part["value"])
            return "your turn:" in ((payload or {}).get("content") or "")

        async def editing(self, route, **kw):
            result = await request(self, route, **kw)
            if route.method == "PATCH" and route.path.endswith("/messages/{message_id}") and a_board(kw):
                reached()
            return result

        async def updating(self, route, *args, **kw):
            result = await hook(self, route, *args, **kw)
            if route.method == "PATCH" and route.path.endswith("/messages/@original") and a_board(kw):
                reached()
            return result

        discord.http.HTTPClient.request = editing
        AsyncWebhookAdapter.request = updating
    elif point in ("after_settle", "after_pair"):
        name = "settle_match" if point == "after_settle" else "add_round"
        original = getattr(Store, name)

        async def then_die(self, *args, **kw):
            result = await original(self, *args, **kw)
            reached()
            return result

        setattr(Store, name, then_die)
    else:
        raise SystemExit(f"unknown CRASH_AT point {point!r}")


if os.environ.get("CRASH_AT"):
    _install_crash_point(os.environ["CRASH_AT"])

if __name__ == "__main__":
    sys.exit(bot.main())
