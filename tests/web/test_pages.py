"""The web companion's pages over HTTP: every page in three languages, the links' fence (tags, servers, modes),
no Discord id anywhere, the security headers, the rate limit, pictures per version, and refusals."""

from __future__ import annotations

import re

import aiohttp
import pytest

from host import spectate
from tests.web.world import CHANNEL, GUILD, OTHER_GUILD, PEOPLE, play_game, world
from web import app as web_app

IDS = [str(GUILD), str(OTHER_GUILD), str(CHANNEL), *(str(uid) for uid, _ in PEOPLE)]


@pytest.fixture
async def w(tmp_path, monkeypatch):
    monkeypatch.setattr(web_app, "SITE_TTL_S", 0.0)  # a mode change is seen at once
    async with world(tmp_path) as found:
        yield found


@pytest.fixture
async def http():
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        yield session


async def pages(w) -> dict[str, str]:
    return {"hub": w.path(await w.links.hub(GUILD)), "game": await w.url("game", w.running),
            "replay": await w.url("replay", w.finished[0]), "tournament": await w.url("tournament", w.tournament),
            "player": w.path(await w.links.player(GUILD, PEOPLE[0][0])), "index": w.base + "/"}


def no_discord_ids(text: str) -> None:
    for found in IDS:
        assert found not in text, f"a Discord id ({found}) in a page"
    assert "<@" not in text and "&lt;@" not in text


async def test_every_page_in_every_language_with_its_headers_and_no_discord_id(w, http):
    words = {"en": "Players|Standings|Leaderboards|Nothing|Games|web companion|Recent games",
             "hu": "Játékosok|Állás|Ranglisták|Legutóbbi játszmák|webes kísérője",
             "pl": "Gracze|Tabela|Rankingi|Ostatnie partie|towarzysz"}
    for name, url in (await pages(w)).items():
        for lang, expected in words.items():
            async with http.get(url, headers={"Accept-Language": f"{lang}-XX,{lang};q=0.9,en;q=0.5"}) as r:
                body = await r.text()
                assert r.status == 200, (name, lang, body[:500])
                assert f'<html lang="{lang}">' in body
                assert re.search(expected, body), (name, lang)
                no_discord_ids(body)
                assert r.headers["Content-Security-Policy"].startswith("default-src 'none'")
                assert "unsafe-inline" not in r.headers["Content-Security-Policy"]
                assert r.headers["Referrer-Policy"] == "no-referrer"
                assert r.headers["X-Content-Type-Options"] == "nosniff"
                assert r.headers["X-Frame-Options"] == "DENY"
                # no inline script or style: the CSP would refuse it
                assert not re.search(r"<script(?![^>]*\b(src|type=\"application/json\"))", body)
                assert "style=" not in body and "<style" not in body
                assert not re.search(r"(src|href)=\"(https?:)?//", body), "a third-party request"


async def test_the_language_switch_is_remembered_and_wins_over_the_browser(w, http):
    hub = (await pages(w))["hub"]
    async with http.get(hub + "?lang=pl", headers={"Accept-Language": "hu"}) as r:
        assert '<html lang="pl">' in await r.text()
        assert r.cookies["lang"].value == "pl"
    async with http.get(hub, headers={"Accept-Language": "hu"}) as r:  # (the session keeps the cookie)
        assert '<html lang="pl">' in await r.text()


async def test_a_wrong_tag_another_servers_game_or_a_page_turned_off_is_the_same_404(w, http):
    urls = await pages(w)
    game = urls["game"]
    other = await play_game(w.store, "troja", seed=5, people=PEOPLE[:2], guild_id=OTHER_GUILD)
    site = w.site
    version = (await w.store.get_game(w.running)).version
    for url in (game[:-3] + "aaa", game.replace(f"/g/{w.running}-", f"/g/{w.running + 1000}-"),
                w.base + f"/s/{site.slug}/g/{other}-{site.tag('g', other)}",  # the right tag, another server
                w.base + f"/s/{site.slug}/t/{w.tournament}-{site.tag('g', w.tournament)}",  # a game's tag
                w.base + f"/s/{site.slug}/p/{site.player_token(PEOPLE[0][0])[:-2]}zz",
                w.base + f"/s/nosuchslug/g/{w.running}-{site.tag('g', w.running)}",
                w.base + f"/s/{site.slug}/r/{w.finished[0]}-{site.tag('g', w.finished[0])}/step/99999.png",
                w.base + f"/s/{site.slug}/g/{w.running}-{site.tag('g', w.running)}/board/{version + 1}.png"):
        async with http.get(url) as r:
            assert r.status == 404, url
            body = await r.text()
            assert "Nothing here" in body or r.content_type != "text/html"
    await w.links.set_mode(GUILD, "off")
    for url in (urls["hub"], urls["game"], urls["tournament"], urls["player"], urls["replay"]):
        async with http.get(url) as r:
            assert r.status == 404, url
    assert await w.links.game(GUILD, w.running) is None  # no link is posted either
    await w.links.set_mode(GUILD, "unlisted")
    async with http.get(urls["hub"]) as r:
        assert r.status == 200


async def test_only_public_servers_are_listed_and_unlisted_pages_are_not_indexed(w, http):
    urls = await pages(w)
    async with http.get(urls["index"]) as r:
        assert w.site.slug not in await r.text()
    async with http.get(urls["hub"]) as r:
        assert r.headers["X-Robots-Tag"] == "noindex, nofollow"
    await w.links.set_mode(GUILD, "public", name="Dice & Boards")
    async with http.get(urls["index"]) as r:
        body = await r.text()
        assert f"/s/{w.site.slug}/" in body and "Dice &amp; Boards" in body
    async with http.get(urls["hub"]) as r:
        assert "X-Robots-Tag" not in r.headers


async def test_the_board_and_replay_pictures_are_pngs_kept_per_version(w, http):
    game = await w.store.get_game(w.running)
    url = await w.url("game", w.running)
    async with http.get(f"{url}/board/{game.version}.png") as r:
        assert r.status == 200 and r.content_type == "image/png"
        assert "immutable" in r.headers["Cache-Control"]
        first = await r.read()
        assert first[:8] == b"\x89PNG\r\n\x1a\n"
    async with http.get(f"{url}/board/{game.version}.png") as r:
        assert await r.read() == first
    if game.version:  # an older board: the newest one (the game moved on while a live page asked)
        async with http.get(f"{url}/board/{game.version - 1}.png", allow_redirects=False) as r:
            assert r.status == 302 and r.headers["Location"].endswith(f"/board/{game.version}.png")
    replay = await w.url("replay", w.finished[0])
    steps = (await w.store.get_game(w.finished[0])).version
    for step in (0, 1, steps // 2, steps):
        async with http.get(f"{replay}/step/{step}.png") as r:
            assert r.status == 200 and (await r.read())[:4] == b"\x89PNG"
    async with http.get(f"{replay}/step/{steps + 1}.png") as r:
        assert r.status == 404
    async with http.get(f"{replay}?step={steps}") as r:
        assert f"Step {steps} of {steps}" in await r.text()
    async with http.get(f"{replay}?step=abc") as r:
        assert "Step 0 of" in await r.text()


async def test_an_adjudicated_match_tells_how_it_ended_on_its_replay_and_live_pages(w, http):
    """A tournament match the organizer decided has no result of the rules: its pages say who decided it."""
    games = [await w.store.get_game(i, with_snapshot=False) for i in range(1, 21)]
    decided = [g for g in games if g is not None and g.status == "finished"
               and (g.result or {}).get("ending", {}).get("how") == "adjudicated"]
    assert decided, "the test server's tournament has an adjudicated match"
    for kind in ("replay", "game"):
        async with http.get(await w.url(kind, decided[0].id)) as r:
            assert r.status == 200
            assert "the organizer of tournament" in await r.text()


async def test_a_running_games_replay_leads_to_its_live_page(w, http):
    replay = await w.url("replay", w.running)
    async with http.get(replay, allow_redirects=False) as r:
        assert r.status == 302 and r.headers["Location"].endswith(f"/g/{w.running}-{w.site.tag('g', w.running)}")


async def test_the_tournament_page_shows_the_bracket_after_a_round_and_links_its_live_matches(w, http):
    url = await w.url("tournament", w.tournament)
    async with http.get(url) as r:
        body = await r.text()
    assert 'id="bracket"' in body and "Round 1" in body and "Round 2" in body and "Round 3" in body
    assert body.count('class="who won"') == 4  # the four winners of round 1
    live = re.findall(r'href="(/s/[^"]+/g/\d+-\w+)"', body)
    assert len(set(live)) == 2  # the two matches of round 2
    for link in set(live):
        async with http.get(w.base + link) as r:
            assert r.status == 200 and "Troja" in await r.text()
    for _, name in PEOPLE:
        assert name in body


async def test_the_player_page_has_a_rating_chart_and_links_to_replays(w, http):
    async with http.get(w.path(await w.links.player(GUILD, PEOPLE[0][0]))) as r:
        body = await r.text()
    assert body.count('<svg class="chart"') == 3  # Troja, Hector and Achilles, HEX-TRI
    replays = set(re.findall(r'href="(/s/[^"]+/r/\d+-\w+)"', body))
    # the three games played to the end, and the tournament match the organizer adjudicated (issue 21: a match
    # ended outside play is finished with that ending, and has its replay)
    assert len(replays) == 4
    for link in replays:
        async with http.get(w.base + link) as r:
            assert r.status == 200
    # a person with no game on this server has no page
    async with http.get(w.path(await w.links.player(GUILD, 42))) as r:
        assert r.status == 404


async def test_the_rate_limit_answers_429_with_retry_after(tmp_path, http):
    async with world(tmp_path, rate_per_minute=20, games=False) as w:
        hub = w.path(await w.links.hub(GUILD))
        statuses = []
        for _ in range(15):
            async with http.get(hub) as r:
                statuses.append(r.status)
                if r.status == 429:
                    assert int(r.headers["Retry-After"]) >= 1
        assert statuses[:10] == [200] * 10 and 429 in statuses
        async with http.get(w.base + "/static/site.css") as r:  # (the files every page needs are not counted)
            assert r.status == 200


async def test_work_past_its_budget_is_a_503_not_a_hang(w, http, monkeypatch):
    monkeypatch.setattr(spectate, "BUDGET_S", 0.05)

    def slow(*args):
        import time
        time.sleep(0.5)
        return [], {}

    monkeypatch.setattr(spectate, "index_replay", slow)
    async with http.get(await w.url("replay", w.finished[1])) as r:
        assert r.status == 503 and r.headers["Retry-After"] == "5"
        assert "try again" in await r.text()


def test_narration_names_people_never_their_ids():
    line = spectate.scrub("**<@998877665544332211>** ran out of time; back by <t:1767225600:R>",
                          {998877665544332211: "Ádám"})
    assert line == "Ádám ran out of time; back by 2026-01-01 00:00 UTC"
    assert spectate.scrub("<@123>", {}) == "?"


async def test_healthz_and_robots(w, http):
    async with http.get(w.base + "/healthz") as r:
        assert r.status == 200 and await r.text() == "ready\n"
    async with http.get(w.base + "/robots.txt") as r:
        assert r.status == 200
