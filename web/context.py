"""What the web pages share with the application that routes them: the context they read, the request's
language, the open event streams, the translator. Apart from web/app.py, which imports web/pages.py, so that the
pages import this module and not the app (no import circle)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from aiohttp import web

from host.cache import Bounded
from host.locale import game_text
from host.service import GameService
from host.spectate import Spectator
from host.tournaments import TournamentService
from host.weblinks import Site
from store import Store
from web.live import LiveHub

SITE_TTL_S = 10.0


@dataclass
class WebContext:
    """What the pages read: the game service (its store, painter and clocks), the tournament service, the
    spectator views and the live hub."""

    service: GameService
    tournaments: TournamentService
    spectator: Spectator
    hub: LiveHub | None = None
    trust_proxy: bool = False
    _sites: dict = field(default_factory=lambda: Bounded(4096))

    @property
    def store(self) -> Store:
        return self.service.store

    async def site(self, slug: str) -> Site | None:
        """The server behind ``slug`` (None: none, or its pages are off); read again every few seconds, so a
        change of ``/settings web`` reaches a separate web process quickly."""
        now = time.monotonic()
        found = self._sites.get(slug)
        if found is None or now - found[0] > SITE_TTL_S:
            row = await self.store.web_site_by_slug(slug) if len(slug) <= 40 else None
            site = Site(row["guild_id"], row["slug"], row["secret"], row["mode"], row["name"]) if row else None
            found = (now, site)
            self._sites[slug] = found
        site = found[1]
        return site if site is not None and site.on else None


CONTEXT = web.AppKey("context", WebContext)
#: the page's language (``choose_language``)
LANG = web.RequestKey("lang", str)
#: open event streams per client (web/pages.py)
STREAMS = web.AppKey("streams", dict)


def translator(lang: str):
    def say(key: str, /, **fields) -> str:
        return game_text("web", key, lang, **fields)

    return say
