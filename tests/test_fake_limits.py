"""The fake Discord's load rules themselves (tests/discord/limits.py), through the loopback server's HTTP API:
what discord.py reads (429 + retry_after + Via, X-RateLimit-* headers), in real seconds scaled from Discord's,
the global limit, 30046, 160006, the 3-second deadline (10062, counted late) and the 15-minute token (50027)."""

from __future__ import annotations

import aiohttp

from tests.discord.limits import Limits, Rules, Window, discord_rules
from tests.discord_harness import CHANNEL_ID, GUILD_ID
from tests.fake_server import FakeDiscordServer


async def _call(server, method: str, path: str, body=None):
    async with aiohttp.ClientSession() as session, session.request(
            method, server.api_url + path, json=body) as response:
        return response.status, await response.json(content_type=None), response.headers


async def test_a_thread_bucket_answers_429_with_retry_after_in_scaled_seconds():
    limits = Limits(discord_rules(scale=60, threads=(Window(5, 60),)))
    server = await FakeDiscordServer(limits=limits).start()
    try:
        for i in range(5):
            status, _, headers = await _call(server, "POST", f"/channels/{CHANNEL_ID}/threads", {"name": f"t{i}"})
            assert status == 200 and headers["X-RateLimit-Remaining"] == str(4 - i)
            assert headers["X-RateLimit-Limit"] == "5" and 0 < float(headers["X-RateLimit-Reset-After"]) <= 1.0
        status, body, headers = await _call(server, "POST", f"/channels/{CHANNEL_ID}/threads", {"name": "t5"})
        assert status == 429 and not body["global"] and headers["Via"]
        assert 0 < body["retry_after"] <= 1.0  # a minute of Discord's time is a second at scale 60
        assert len(limits.threads_created) == 5 and limits.limited["/channels/{channel_id}/threads"] == 1
        limits.clock.advance(60)  # the window passes
        assert (await _call(server, "POST", f"/channels/{CHANNEL_ID}/threads", {"name": "t5"}))[0] == 200
    finally:
        await server.stop()


async def test_the_global_limit_counts_bot_requests_not_interaction_callbacks():
    limits = Limits(Rules(global_per_second=3))
    server = await FakeDiscordServer(limits=limits).start()
    try:
        for _ in range(3):
            assert (await _call(server, "GET", "/users/@me"))[0] == 200
        status, body, headers = await _call(server, "GET", "/users/@me")
        assert status == 429 and body["global"] and headers["X-RateLimit-Global"] == "true"
        payload = server.payloads.slash(1, "game list")
        limits.interaction(payload)
        status, _, _ = await _call(server, "POST", f"/interactions/{payload['id']}/{payload['token']}/callback",
                                   {"type": 5, "data": {"flags": 64}})
        assert status == 200  # callbacks are outside the global limit
    finally:
        await server.stop()


async def test_the_deadline_and_the_token():
    limits = Limits(discord_rules())
    server = await FakeDiscordServer(limits=limits).start()
    try:
        on_time, late = server.payloads.slash(1, "game list"), server.payloads.slash(2, "game list")
        limits.interaction(on_time)
        limits.interaction(late)
        assert (await _call(server, "POST", f"/interactions/{on_time['id']}/{on_time['token']}/callback",
                            {"type": 5}))[0] == 200
        limits.clock.advance(3.5)
        status, body, _ = await _call(server, "POST", f"/interactions/{late['id']}/{late['token']}/callback",
                                      {"type": 5})
        assert (status, body["code"]) == (404, 10062)
        assert limits.late == [("/game list", limits.late[0][1])] and limits.late[0][1] >= 3.5
        # the answered one may follow up for 15 minutes, not longer
        followup = f"/webhooks/{on_time['id']}/{on_time['token']}"
        assert (await _call(server, "POST", followup, {"content": "x"}))[0] == 200
        limits.clock.advance(15 * 60)
        status, body, _ = await _call(server, "POST", followup, {"content": "x"})
        assert (status, body["code"]) == (401, 50027)
        assert limits.figures()["late"] == 1
    finally:
        await server.stop()


async def test_old_edits_and_the_thread_cap():
    limits = Limits(discord_rules(threads=(), thread_cap=3, other_threads=1))
    server = await FakeDiscordServer(limits=limits).start()
    try:
        _, message, _ = await _call(server, "POST", f"/channels/{CHANNEL_ID}/messages", {"content": "a"})
        edit = f"/channels/{CHANNEL_ID}/messages/{message['id']}"
        assert (await _call(server, "PATCH", edit, {"content": "b"}))[0] == 200
        limits.clock.advance(3601)
        status, body, headers = await _call(server, "PATCH", edit, {"content": "c"})
        assert (status, body["code"]) == (429, 30046) and body["retry_after"] > 0
        threads = []
        for i in range(2):
            status, thread, _ = await _call(server, "POST", f"/channels/{CHANNEL_ID}/threads", {"name": str(i)})
            threads.append(thread["id"])
        status, body, _ = await _call(server, "POST", f"/channels/{CHANNEL_ID}/threads", {"name": "x"})
        assert (status, body["code"]) == (400, 160006)
        # an archived thread does not count; it refuses edits (50083); a message reopens it
        assert (await _call(server, "PATCH", f"/channels/{threads[0]}", {"archived": True}))[0] == 200
        assert limits.active_threads(GUILD_ID) == 2  # one of the bot's, one of others
        assert (await _call(server, "POST", f"/channels/{CHANNEL_ID}/threads", {"name": "y"}))[0] == 200
        status, body, _ = await _call(server, "PATCH", f"/channels/{threads[0]}", {"archived": True})
        assert (status, body["code"]) == (400, 50083)
        assert (await _call(server, "POST", f"/channels/{threads[0]}/messages", {"content": "gg"}))[0] == 200
        assert not server.fake.archived(int(threads[0]))
    finally:
        await server.stop()
