"""Limits a server can tune (issue 22, host/limits.py, ``/limits``): open lobbies and tournaments per member and
per channel, replays drawn at once per server (queued, cached), a cooldown on expensive commands; a flood of
forty lobbies in a moment; every refusal says when to try again."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import discord
import pytest

from host import replay_queue
from host.limits import LIMITS
from store import Store
from tests.cogs.test_commands import MANAGE
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL
from tests.cogs.test_replays_discord import _stored_game
from tests.discord_harness import CHANNEL_ID

WHEN = re.compile(r"<t:\d+:R>")


@pytest.fixture
def cooldown(monkeypatch):
    """The real default cooldown (the suite runs without it, see tests/conftest.py)."""
    monkeypatch.setitem(LIMITS, "cooldown_seconds", replace(LIMITS["cooldown_seconds"], default=5))


def _answers(h, before: int) -> list[str]:
    return [m["content"] for m in list(h.fake.messages.values())[before:] if m["flags"] & 64 and m["content"]]


async def _at_once(h, payloads: list[dict]) -> None:
    """Interactions dispatched together, as Discord delivers a burst of commands."""
    for payload in payloads:
        h.bot._connection.parse_interaction_create(payload)
    await h.settle()


def _threads(h) -> list[int]:
    return [cid for cid, c in h.fake.channels.items() if c["type"] == 11]


def _announcements(h) -> list[dict]:
    return [m for m in h.messages_in(CHANNEL_ID) if "opened" in m["content"] or "Join" in str(m.get("components"))]


async def test_forty_lobbies_at_once_with_the_cooldown_open_one(harness, cooldown):
    h = harness
    before = len(h.fake.messages)
    await _at_once(h, [h.payloads.slash(ANN, "hector-achilles new", name="Ann") for _ in range(40)])
    lobbies = await h.bot.service.store.open_lobbies(h.bot.guilds[0].id, host_user_id=ANN)
    assert len(lobbies) == 1 and len(_threads(h)) == 1
    refusals = [a for a in _answers(h, before) if "you just did that" in a]
    assert len(refusals) == 39 and all(WHEN.search(a) for a in refusals)
    # another member is not held up by Ann's cooldown
    await h.slash(BOB, "troja new", name="Bob")
    assert len(_threads(h)) == 2
    h.assert_no_errors()


async def test_forty_lobbies_at_once_without_a_cooldown_open_as_many_as_a_member_may(harness):
    h = harness
    before = len(h.fake.messages)
    await _at_once(h, [h.payloads.slash(ANN, "hector-achilles new", name="Ann") for _ in range(40)])
    lobbies = await h.bot.service.store.open_lobbies(h.bot.guilds[0].id, host_user_id=ANN)
    assert lobbies == [1, 2, 3] and len(_threads(h)) == 3
    refusals = [a for a in _answers(h, before) if "open games waiting for players" in a]
    assert len(refusals) == 37
    assert all("#1, #2, #3" in a and "as soon as one of them starts or is closed" in a for a in refusals)
    announced = [m for m in h.messages_in(CHANNEL_ID) if not m["flags"] & 64]
    assert len(announced) == 3  # three announcements, not forty
    # a lobby that starts makes room
    await h.slash(ANN, "game leave", _threads(h)[0], name="Ann")  # the host leaves: the lobby is closed
    await h.slash(ANN, "hector-achilles new", name="Ann")
    assert len(await h.bot.service.store.open_lobbies(h.bot.guilds[0].id, host_user_id=ANN)) == 3
    # a game against the AI is no lobby: not counted
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    assert len(_threads(h)) == 5
    h.assert_no_errors()


async def test_a_channel_full_of_lobbies_and_the_admin_command(harness):
    h = harness
    # only a member with Manage Server may change the limits
    before = len(h.fake.messages)
    h.bot._connection.parse_interaction_create(_limits(h, BOB, "lobbies_per_channel", 2, admin=False))
    await h.settle()
    assert _answers(h, before) == ["Only members with the Manage Server permission can change the limits."]
    before = len(h.fake.messages)
    h.bot._connection.parse_interaction_create(_limits(h, CAROL, "lobbies_per_channel", 2))
    await h.settle()
    (shown,) = _answers(h, before)
    assert "lobbies_per_channel is now 2." in shown and "`lobbies_per_channel` = **2**" in shown
    assert "`cooldown_seconds` = **0**" in shown  # (the suite's default; the real one is 5)
    before = len(h.fake.messages)
    h.bot._connection.parse_interaction_create(_limits(h, CAROL, "lobbies_per_member", 0))
    await h.settle()
    assert _answers(h, before) == ["lobbies_per_member must be a whole number from 1 to 50, not 0."]
    # stored: a new bot on the same database has them
    settings = await h.bot.service.store.guild_settings(h.bot.guilds[0].id)
    assert settings == {"limits": {"lobbies_per_channel": 2}}

    await h.slash(ANN, "troja new", name="Ann")
    await h.slash(BOB, "troja new", name="Bob")
    before = len(h.fake.messages)
    await h.slash(CAROL, "troja new", name="Carol")
    (refused,) = _answers(h, before)
    assert "This channel already has 2 open games" in refused and "/game list" in refused
    assert len(_threads(h)) == 2
    h.assert_no_errors()


def _limits(h, user: int, name: str, value: int, admin: bool = True) -> dict:
    payload = h.payloads.slash(user, "limits", name="X", permissions=MANAGE if admin else "1071698660929")
    payload["data"]["options"] = [{"name": "name", "type": 3, "value": name},
                                  {"name": "value", "type": 4, "value": value}]
    return payload


async def test_tournaments_per_member_and_per_channel(harness):
    h = harness
    for _ in range(2):
        await h.slash(ANN, "tournament new", game="troja", name="Ann")
    before = len(h.fake.messages)
    await h.slash(ANN, "tournament new", game="troja", name="Ann")
    (refused,) = _answers(h, before)
    assert "You already run 2 tournaments" in refused and "#1, #2" in refused and "/tournament cancel" in refused
    await h.slash(ANN, "tournament cancel", tournament=1, name="Ann")
    await h.slash(ANN, "tournament new", game="troja", name="Ann")
    assert await h.bot.service.store.tournament(3) is not None
    h.bot._connection.parse_interaction_create(_limits(h, CAROL, "tournaments_per_channel", 2))
    await h.settle()
    before = len(h.fake.messages)
    await h.slash(BOB, "tournament new", game="troja", name="Bob")
    assert "This channel already has 2 tournaments" in _answers(h, before)[0]
    h.assert_no_errors()


async def test_the_cooldown_says_when_and_runs_out(harness, monkeypatch):
    h = harness
    monkeypatch.setitem(LIMITS, "cooldown_seconds", replace(LIMITS["cooldown_seconds"], default=1))
    await h.slash(ANN, "troja new", name="Ann", opponent="ai")
    before = len(h.fake.messages)
    await h.slash(ANN, "troja new", name="Ann", opponent="ai")
    (refused,) = _answers(h, before)
    assert refused.startswith("Easy there") and WHEN.search(refused)
    await asyncio.sleep(1.05)
    await h.slash(ANN, "troja new", name="Ann", opponent="ai")
    assert len(_threads(h)) == 2
    # each expensive command has its own: a replay right after opening a game is fine
    game = await _stored_game(h, "troja", seed=2)
    before = len(h.fake.messages)
    await h.slash(ANN, "game export", game=game, name="Ann")
    assert any("game-" in name for sent in h.fake.sent[-2:] for name in sent.files)
    h.assert_no_errors()


async def test_replays_queue_per_server_and_come_from_the_cache_the_second_time(harness, monkeypatch):
    h = harness
    games = [await _stored_game(h, "troja", seed=s) for s in (2, 3, 4)]
    drawn = []
    original = replay_queue._animate

    def counting(record, reveal):
        drawn.append(record["game"])
        return original(record, reveal)

    monkeypatch.setattr(replay_queue, "_animate", counting)
    queue = replay_queue.replays_of(h.bot)
    queue.workers.close()
    queue.workers.processes = 0  # (threads: the counting job above lives in this process)
    before = len(h.fake.messages)
    await _at_once(h, [h.payloads.slash(user, "game replay", game=g, name="X")
                       for user, g in zip((ANN, BOB, CAROL), games)])
    gifs = [name for sent in h.fake.sent for name in sent.files if name.endswith(".gif")]
    assert len(gifs) == 2 and len(drawn) == 2  # the server allows two at once
    (refused,) = [a for a in _answers(h, before) if "replays being drawn" in a]
    assert "This server already has 2 replays being drawn" in refused and WHEN.search(refused)
    # asked again: from the cache, no drawing; the one refused is drawn now
    for user, g in zip((ANN, BOB, CAROL), games):
        await h.slash(user, "game replay", game=g, name="X")
    assert sorted(drawn) == sorted(games)
    assert len([n for sent in h.fake.sent for n in sent.files if n.endswith(".gif")]) == 5
    store: Store = h.bot.service.store
    assert (await store.cached_replay(games[0], queue.kind(False)))["data"][:6] == b"GIF89a"
    h.assert_no_errors()


async def test_the_replay_cache_keeps_within_its_budget(harness):
    store = harness.bot.service.store
    games = [await _stored_game(harness, "troja", seed=s) for s in (2, 3, 4)]
    for g in games:
        await store.cache_replay(g, "k", b"x" * 400, shown=1, steps=1, revealed=0, budget=1000)
        await asyncio.sleep(0.01)
    assert await store.cached_replay(games[0], "k") is None  # the oldest gave way
    assert (await store.cached_replay(games[2], "k"))["data"] == b"x" * 400
    assert discord  # (the module is used for payload shapes above)
