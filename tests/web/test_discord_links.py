"""Links from Discord to the web companion: "Watch" on a running game's boards, "Replay" on a finished one's,
"Bracket" on tournament posts, "Web profile" on /profile; only with PUBLIC_URL and while the server's pages are
on (/settings web, Manage Server only); every message within Discord's component limits (the fake refuses
anything else)."""

from __future__ import annotations

from urllib.parse import urlsplit

import discord
import pytest

from bot import create_bot
from cogs.weblinks import board_link
from engines import GAME_ORDER
from host.service import GameService
from settings import Settings
from store import SqliteStore
from tests.cogs.driver import latest_board
from tests.cogs.test_commands import MANAGE, NO_MANAGE
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, thread_of
from tests.cogs.test_leaderboard import finished
from tests.discord_harness import GUILD_ID, Harness

PUBLIC = "https://games.example.org"


@pytest.fixture
async def harness(tmp_path, monkeypatch):
    store = await SqliteStore.open(tmp_path / "bot.db")
    seeds = iter(range(1000, 2000))
    service = GameService(store, seed_source=lambda: next(seeds))
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0, public_url=PUBLIC), store=store, service=service)
    h = await Harness(bot, monkeypatch).start()
    yield h
    await h.stop()


def links(message: dict) -> list[dict]:
    return [c for row in message.get("components") or [] for c in row["components"] if c.get("style") == 5]


async def site(h):
    return await h.bot.weblinks.site(GUILD_ID)


@pytest.mark.parametrize("key", GAME_ORDER)
async def test_a_board_carries_watch_within_discords_limits(harness, key):
    h = harness
    await h.slash(ANN, f"{key} new", name="Ann", opponent="ai")
    board = latest_board(h, thread_of(h))
    (link,) = links(board)
    assert link["label"] == "Watch" and "custom_id" not in link
    path = urlsplit(link["url"]).path
    assert link["url"].startswith(PUBLIC + "/s/")
    _, _, slug, kind, ref = path.split("/")
    number, tag = ref.split("-")
    found = await site(h)
    assert (slug, kind) == (found.slug, "g") and found.check("g", int(number), tag)
    assert str(ANN) not in link["url"] and str(GUILD_ID) not in link["url"]
    rows = board["components"]
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    h.assert_no_errors()


async def test_a_finished_games_board_carries_replay(harness):
    h = harness
    await finished(h, {ANN: 1, BOB: 2})
    game = (await h.bot.service.store.list_games(guild_id=GUILD_ID, statuses=("finished",)))[0]
    button = await board_link(h.bot, game)
    assert button.label == "Replay" and f"/r/{game.id}-" in button.url
    game.status = "abandoned"
    assert await board_link(h.bot, game) is None


async def test_settings_web_is_for_managers_and_off_removes_the_links(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(BOB, "settings web", name="Bob", mode="off", permissions=NO_MANAGE)
    (refusal,) = list(h.fake.messages.values())[before:]
    assert refusal["flags"] & 64 and "Manage Server" in refusal["content"]
    assert (await site(h)).mode == "unlisted"
    await h.slash(ANN, "settings web", name="Ann", mode="off", permissions=MANAGE)
    reply = list(h.fake.messages.values())[-1]
    assert reply["flags"] & 64 and "**off**" in reply["content"]
    assert (await h.bot.service.store.web_site(GUILD_ID))["mode"] == "off"
    await h.slash(ANN, "troja new", name="Ann", opponent="ai")
    assert links(latest_board(h, thread_of(h))) == []
    await h.slash(ANN, "settings web", name="Ann", mode="public", permissions=MANAGE)
    reply = list(h.fake.messages.values())[-1]
    slug = (await site(h)).slug
    assert "**public**" in reply["content"] and f"{PUBLIC}/s/{slug}/" in reply["content"]
    row = await h.bot.service.store.web_site(GUILD_ID)
    assert row["mode"] == "public" and row["name"] == "Test server"  # (the server's name, for the pages)
    h.assert_no_errors()


async def test_profile_and_tournament_posts_link_to_their_pages(harness):
    h = harness
    await finished(h, {ANN: 1, BOB: 2})
    before = len(h.fake.messages)
    await h.slash(CAROL, "profile", name="Carol", user=discord.Object(ANN),
                  resolved={"users": {str(ANN): {"id": str(ANN), "username": "ann", "discriminator": "0",
                                                 "global_name": "Ann", "avatar": None}}})
    (reply,) = [m for m in list(h.fake.messages.values())[before:] if m["embeds"]]
    (link,) = links(reply)
    token = urlsplit(link["url"]).path.split("/")[-1]
    assert link["label"] == "Web profile" and (await site(h)).player_of(token) == ANN
    await h.slash(ANN, "tournament new", game="troja", format="elimination", name="Ann")
    post = [m for m in h.fake.messages.values() if m["embeds"] and links(m)][-1]
    (link,) = links(post)
    assert link["label"] == "Bracket" and "/t/" in link["url"]
    assert [c.get("label") for c in post["components"][0]["components"]] != ["Bracket"]  # Join, Leave, Start
    h.assert_no_errors()


async def test_without_public_url_no_link_is_posted(tmp_path, monkeypatch):
    store = await SqliteStore.open(tmp_path / "bot.db")
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0), store=store, service=GameService(store))
    h = await Harness(bot, monkeypatch).start()
    try:
        await h.slash(ANN, "troja new", name="Ann", opponent="ai")
        assert links(latest_board(h, thread_of(h))) == []
        await h.slash(ANN, "settings web", name="Ann", mode="public", permissions=MANAGE)
        assert "PUBLIC_URL" in list(h.fake.messages.values())[-1]["content"]
        h.assert_no_errors()
    finally:
        await h.stop()


async def test_the_bot_serves_the_page_its_watch_link_opens_and_tells_it_each_move(tmp_path, monkeypatch):
    """WEB_PORT: the web companion in the bot's own process, its live page told of a move by the game service."""
    import asyncio
    import socket

    import aiohttp

    from tests.web.test_live import next_event

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    store = await SqliteStore.open(tmp_path / "bot.db")
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0, public_url=PUBLIC, web_port=port, web_host="127.0.0.1"),
                     store=store, service=GameService(store))
    h = await Harness(bot, monkeypatch).start()
    try:
        await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai")
        (link,) = links(latest_board(h, thread_of(h)))
        page = link["url"].replace(PUBLIC, f"http://127.0.0.1:{port}")
        game_id = int(page.rsplit("/", 1)[1].split("-")[0])
        async with aiohttp.ClientSession() as http:
            async with http.get(page) as r:
                assert r.status == 200 and "Ann" in await r.text()
            stream = await http.get(page + "/events")
            await asyncio.sleep(0.2)
            game = await store.get_game(game_id)
            await bot.service.act(game_id, ANN, game.version, 0)
            message = await next_event(stream, timeout=5)  # (the hub polls once a second; the poke is at once)
            assert message["version"] > game.version
            stream.close()
        h.assert_no_errors()
    finally:
        await h.stop()
