"""The web companion in a real browser: Debian's Chromium, headless, driven by Playwright (no browser of
Playwright's own). Every page at a phone's and a desktop's size, with nothing requested outside the app and
nothing refused by the CSP; a live game page receiving a move through server-sent events; stepping through a
replay by keys, buttons, the slider and a swipe; a tournament's bracket after a round.

Screenshots go to ``WEB_SCREENSHOTS`` (a folder; docs/web/ holds the ones the README shows), else to a temporary
folder. Without Chromium (or Playwright) these tests skip with the reason; ``WEB_BROWSER_REQUIRED=1`` (set by
.ci/run, which installs Chromium) makes that a failure.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.web.world import GUILD, PEOPLE, world

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
#: as root Chromium needs --no-sandbox; the rest keep it from calling Google's services (refused here anyway)
ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-quic", "--disable-default-apps", "--metrics-recording-only",
        "--disable-domain-reliability", "--disable-breakpad"]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


def _missing() -> str | None:
    try:
        import playwright.async_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    if not Path(CHROMIUM).exists():
        return "Chromium is not installed here (Debian: apt-get install chromium; .ci/run installs it)"
    return None


@pytest.fixture
async def browser():
    reason = _missing()
    if reason:
        if os.environ.get("WEB_BROWSER_REQUIRED"):
            pytest.fail(reason + ", and WEB_BROWSER_REQUIRED is set")
        pytest.skip(reason)
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        found = await p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield found
        await found.close()


@pytest.fixture
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("WEB_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Watch:
    """What a page did: requests outside the app, console errors (a CSP refusal is one), uncaught errors."""

    def __init__(self, page, base: str) -> None:
        self.outside: list[str] = []
        self.errors: list[str] = []
        origin = urlsplit(base).netloc
        page.on("request", lambda r: None if urlsplit(r.url).netloc == origin or r.url.startswith("data:")
                else self.outside.append(r.url))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def check(self) -> None:
        assert not self.outside, f"requests outside the app: {self.outside}"
        assert not self.errors, f"errors in the page: {self.errors}"


async def until(page, expression: str, timeout: float = 15.0) -> None:
    """Wait until ``expression`` is true in the page. (Playwright's wait_for_function polls with an eval inside
    the page, which the pages' CSP rightly refuses; ``evaluate`` goes through the DevTools protocol.)"""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not await page.evaluate(expression):
        assert loop.time() < end, f"still not true after {timeout} s: {expression}"
        await asyncio.sleep(0.05)


async def _images_loaded(page) -> bool:
    return await page.evaluate("Array.from(document.images).every(i => i.complete && i.naturalWidth > 0)")


async def test_every_page_at_phone_and_desktop_sizes_stays_inside_the_app(tmp_path, browser, shots):
    async with world(tmp_path) as w:
        pages = {"hub": w.path(await w.links.hub(GUILD)), "game": await w.url("game", w.running),
                 "replay": await w.url("replay", w.finished[0]) + "?step=8",
                 "tournament": await w.url("tournament", w.tournament),
                 "player": w.path(await w.links.player(GUILD, PEOPLE[0][0])), "index": w.base + "/"}
        for size, options in SIZES.items():
            context = await browser.new_context(**options, locale="en-US")
            page = await context.new_page()
            watch = Watch(page, w.base)
            for name, url in pages.items():
                response = await page.goto(url, wait_until="load")
                assert response.status == 200, name
                await until(page, "Array.from(document.images).every(i => i.complete)")
                assert await _images_loaded(page), f"{name}: a picture did not load"
                width = await page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert width[0] <= width[1], f"{name} is wider than the {size}'s screen: {width}"
                await page.screenshot(path=str(shots / f"{name}-{size}.png"), full_page=True)
            for lang, word in (("hu", "Játékosok"), ("pl", "Gracze")):
                await page.goto(pages["game"] + f"?lang={lang}")
                assert word in await page.inner_text("main")
                assert await page.get_attribute("html", "lang") == lang
            watch.check()
            response = await page.goto(w.base + f"/s/{w.site.slug}/g/1-nottherighttag?lang=en")
            assert response.status == 404 and "Nothing here" in await page.inner_text("main")
            await page.screenshot(path=str(shots / f"missing-{size}.png"), full_page=True)
            await context.close()


async def test_a_live_game_page_receives_a_move_through_server_sent_events(tmp_path, browser, shots):
    async with world(tmp_path, poll_s=0.5) as w:
        context = await browser.new_context(**PHONE)
        page = await context.new_page()
        watch = Watch(page, w.base)
        await page.goto(await w.url("game", w.running), wait_until="load")
        before = int(await page.get_attribute("#live", "data-version"))
        moves_before = await page.locator("#log li").count()
        await page.wait_for_timeout(300)  # (the stream is open)
        game = await w.store.get_game(w.running)
        await w.service.act(w.running, PEOPLE[0][0], game.version, 0)
        after = (await w.store.get_game(w.running)).version
        await until(page, f"Number(document.getElementById('live').dataset.version) === {after}")
        assert after > before
        assert (await page.get_attribute("#board", "src")).endswith(f"/board/{after}.png")
        await until(page, "document.getElementById('board').complete")
        assert await _images_loaded(page)
        assert await page.locator("#log li").count() > moves_before
        assert "Waiting for" in await page.inner_text("#status")
        await page.screenshot(path=str(shots / "game-after-move-phone.png"), full_page=True)
        watch.check()
        await context.close()


async def test_stepping_through_a_replay_by_keys_buttons_slider_and_swipe(tmp_path, browser, shots):
    async with world(tmp_path) as w:
        steps = (await w.store.get_game(w.finished[0])).version
        context = await browser.new_context(**PHONE)
        page = await context.new_page()
        watch = Watch(page, w.base)
        await page.goto(await w.url("replay", w.finished[0]), wait_until="load")

        async def at(step: int) -> None:
            await until(page, f"document.getElementById('replay').dataset.step === '{step}'")
            assert await page.inner_text("#counter") == f"Step {step} of {steps}"
            assert (await page.get_attribute("#frame", "src")).endswith(f"/step/{step}.png")
            await until(page, "document.getElementById('frame').complete")
            assert await _images_loaded(page), f"the picture of step {step}"
            if moved:
                assert page.url.endswith(f"?step={step}")

        moved = False
        await at(0)
        moved = True
        for _ in range(3):
            await page.keyboard.press("ArrowRight")
        await at(3)
        await page.keyboard.press("ArrowLeft")
        await at(2)
        await page.keyboard.press("End")
        await at(steps)
        await page.keyboard.press("Home")
        await at(0)
        await page.click("#next")
        await at(1)
        await page.locator("#slider").fill("10")
        await at(10)
        # a swipe to the left on the picture: the next step
        await page.locator("#frame").scroll_into_view_if_needed()
        box = await page.locator("#frame").bounding_box()
        cdp = await context.new_cdp_session(page)
        # (within the picture's part inside the viewport: a touch beyond it reaches no element)
        y = box["y"] + min(box["height"], PHONE["viewport"]["height"] - box["y"]) / 2
        right, left = box["x"] + box["width"] * 0.8, box["x"] + box["width"] * 0.3
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": right, "y": y}]})
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": left, "y": y}]})
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        await at(11)
        lines = await page.locator("#lines li").all_inner_texts()
        assert lines or await page.is_visible("#quiet")
        await page.screenshot(path=str(shots / "replay-step-11-phone.png"), full_page=True)
        await page.reload()
        await at(11)  # the address keeps the step
        watch.check()
        await context.close()


async def test_the_bracket_after_a_round_links_to_its_live_matches(tmp_path, browser, shots):
    async with world(tmp_path) as w:
        context = await browser.new_context(**DESKTOP)
        page = await context.new_page()
        watch = Watch(page, w.base)
        await page.goto(await w.url("tournament", w.tournament), wait_until="load")
        assert await page.locator("#bracket .round").count() == 3  # the final still to come
        assert await page.locator("#bracket .match.tbd").count() == 1
        assert await page.locator("#bracket .round").first.locator(".who.won").count() == 4
        assert await page.locator("#bracket .match.live").count() == 2
        await page.screenshot(path=str(shots / "bracket-after-round-1-desktop.png"), full_page=True)
        await page.click("#bracket .match.live a.go >> nth=0")
        await page.wait_for_load_state("load")
        assert "/g/" in page.url and await page.is_visible("#board")
        await until(page, "document.getElementById('board').complete")
        assert await _images_loaded(page)
        watch.check()
        await context.close()
