"""The web companion's application: routes, the per-request language, the server a URL names, and the server
that runs it (in the bot's process or alone).

URLs never carry a Discord id: a server is named by its random slug, a game or tournament by its number and a
signed tag, a player by an enciphered token (host/weblinks.py). A wrong tag, a game of another server, or a
server whose pages are off are all the same plain 404, so a page's existence is never told.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import aiohttp_jinja2
import jinja2
from aiohttp import web

from host.locale import LANGUAGES
from host.spectate import Spectator
from web.context import CONTEXT, LANG, STREAMS, WebContext
from web.guard import RateLimit, middlewares
from web.live import POLL_S, LiveHub

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
STATIC = HERE / "static"
LANG_COOKIE = "lang"


def asset_version() -> str:
    """Changes whenever a static file changes, so browsers may keep them for a year (``?v=`` in their URLs)."""
    newest = max((p.stat().st_mtime_ns for p in STATIC.iterdir()), default=0)
    return format(newest % 10**12, "x")


def choose_language(request: web.Request) -> tuple[str, bool]:
    """The page's language: ``?lang=`` (remembered in a cookie), else the cookie, else the best of the browser's
    Accept-Language, else English. Returns (language, whether to set the cookie)."""
    asked = request.query.get("lang", "")
    if asked in LANGUAGES:
        return asked, True
    kept = request.cookies.get(LANG_COOKIE, "")
    if kept in LANGUAGES:
        return kept, False
    best, best_q = "en", -1.0
    for part in request.headers.get("Accept-Language", "").split(","):
        tag, _, params = part.strip().partition(";")
        code = tag.strip().split("-")[0].lower()
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best, False


@web.middleware
async def language(request: web.Request, handler):
    lang, remember = choose_language(request)
    request[LANG] = lang
    response = await handler(request)
    if remember and isinstance(response, web.StreamResponse) and not response.prepared:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax", path="/",
                            secure=request.secure, httponly=True)
    return response


def create_app(context: WebContext, *, rate_per_minute: int | None = 240) -> web.Application:
    """The aiohttp application (routes in web/pages.py)."""
    from web import pages

    limit = RateLimit(rate_per_minute) if rate_per_minute else None
    app = web.Application(middlewares=[*middlewares(limit, context.trust_proxy), language])
    app[CONTEXT] = context
    app[STREAMS] = {}
    env = aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
                               trim_blocks=True, lstrip_blocks=True)
    env.globals["asset"] = asset_version()
    env.globals["languages"] = LANGUAGES
    pages.add_routes(app)
    app.router.add_static("/static/", STATIC, append_version=False)
    app.on_startup.append(_start_hub)
    app.on_cleanup.append(_stop_hub)
    return app


async def _start_hub(app: web.Application) -> None:
    hub = app[CONTEXT].hub
    if hub is not None:
        hub.start()


async def _stop_hub(app: web.Application) -> None:
    hub = app[CONTEXT].hub
    if hub is not None:
        await hub.stop()


def make_context(service, tournaments, *, trust_proxy: bool = False, poll_s: float | None = None) -> WebContext:
    """The pages' context over a game service and a tournament service, with its live hub (which the game
    service pokes after every move made in this process)."""
    from web import pages

    spectator = Spectator(service)
    context = WebContext(service, tournaments, spectator, trust_proxy=trust_proxy)
    hub = LiveHub(service.store, lambda game_id, lang: pages.live_message(context, game_id, lang),
                  poll_s=poll_s or POLL_S)
    context.hub = hub
    service.observers.append(hub.observer)
    return context


class WebServer:
    """The web companion listening on ``host:port`` (port 0: a free one, see :attr:`port`)."""

    def __init__(self, context: WebContext, *, host: str = "127.0.0.1", port: int = 0,
                 rate_per_minute: int | None = 240) -> None:
        self.app = create_app(context, rate_per_minute=rate_per_minute)
        self.host, self.port = host, port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        # shutdown_timeout: open event streams are closed, not waited for; handler_cancellation: a viewer who
        # closes the page ends its request at once (an event stream would otherwise wait for its next message)
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        sockets = getattr(site._server, "sockets", None) or []
        if sockets:
            self.port = sockets[0].getsockname()[1]
        log.info("web companion listening on %s:%s", self.host, self.port)

    async def stop(self) -> None:
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()


async def serve_forever(server: WebServer, stop: asyncio.Event) -> None:
    await server.start()
    try:
        await stop.wait()
    finally:
        await server.stop()
