"""The web companion's links: unguessable, signed, and never carrying a Discord id.

Each server gets, on its first link, a random ``slug`` (its name in URLs) and a ``secret`` (store: ``web_sites``).
A game's or a tournament's link carries its number and a tag, an HMAC of the object with the server's secret: a
page is served only for the right tag, so in the default ``unlisted`` mode nobody reaches a page without a link
the bot posted. A player is named by a token that is the player's Discord id enciphered with the server's secret
(a four-round Feistel network over HMAC-SHA256, a keyed permutation of 64-bit numbers) followed by a tag of it:
the page can read the id back, nobody without the secret can, and two servers give one person unrelated tokens.

Modes (``/settings web``): ``public`` (the index page lists the server's hub), ``unlisted`` (the default: pages
only through links), ``off`` (no page, no link). No Discord here: the cogs and web/ both use :class:`WebLinks`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from host.cache import Bounded

MODES = ("public", "unlisted", "off")
DEFAULT_MODE = "unlisted"
TAG_BYTES = 10  # 80 bits: guessing one link is hopeless
_MASK32 = 0xFFFFFFFF


@dataclass(frozen=True)
class Site:
    """One server's web settings (a ``web_sites`` row)."""

    guild_id: int
    slug: str
    secret: str
    mode: str = DEFAULT_MODE
    name: str = ""

    @property
    def on(self) -> bool:
        return self.mode != "off"

    def tag(self, kind: str, number: int) -> str:
        """The tag of a game's links (its live page and its replay: "g") or a tournament's ("t")."""
        return _b32(hmac.new(self.secret.encode(), f"{kind}:{number}".encode(), hashlib.sha256).digest()[:TAG_BYTES])

    def check(self, kind: str, number: int, tag: str) -> bool:
        return hmac.compare_digest(self.tag(kind, number), tag.lower())

    def player_token(self, user_id: int) -> str:
        """A player's token: their id enciphered (8 bytes) and a tag of the cipher (6 bytes), as base32."""
        cipher = _feistel(self.secret, user_id & 0xFFFFFFFFFFFFFFFF, forward=True).to_bytes(8, "big")
        return _b32(cipher + self._player_mac(cipher))

    def player_of(self, token: str) -> int | None:
        """The Discord id a token names (None: not a token of this server)."""
        try:
            raw = base64.b32decode(token.upper() + "=" * (-len(token) % 8))
        except (ValueError, TypeError):
            return None
        if len(raw) != 14 or not hmac.compare_digest(raw[8:], self._player_mac(raw[:8])):
            return None
        return _feistel(self.secret, int.from_bytes(raw[:8], "big"), forward=False)

    def _player_mac(self, cipher: bytes) -> bytes:
        return hmac.new(self.secret.encode(), b"p:" + cipher, hashlib.sha256).digest()[:6]


def _b32(raw: bytes) -> str:
    return base64.b32encode(raw).decode().rstrip("=").lower()


def _round(secret: str, i: int, half: int) -> int:
    mac = hmac.new(secret.encode(), b"f%d:%d" % (i, half), hashlib.sha256).digest()
    return int.from_bytes(mac[:4], "big")


def _feistel(secret: str, number: int, *, forward: bool) -> int:
    left, right = number >> 32, number & _MASK32
    rounds = range(4) if forward else range(3, -1, -1)
    for i in rounds:
        if forward:
            left, right = right, left ^ _round(secret, i, right)
        else:
            left, right = right ^ _round(secret, i, left), left
    return (left << 32) | right


def new_site(guild_id: int) -> Site:
    return Site(guild_id, secrets.token_urlsafe(9).replace("-", "x").replace("_", "y").lower(),
                secrets.token_hex(32), DEFAULT_MODE)


class WebLinks:
    """The links the bot posts (None when the web companion is not reachable: no ``PUBLIC_URL``, a direct
    message, or the server turned its pages off). Server settings are cached for a minute's worth of reads."""

    def __init__(self, store, public_url: str | None) -> None:
        self.store = store
        self.base = public_url.rstrip("/") if public_url else None
        self._sites: dict[int, Site] = Bounded(4096)

    async def site(self, guild_id: int, *, create: bool = True, name: str | None = None) -> Site | None:
        """The server's settings; made (unlisted, with a fresh slug and secret) on first use when ``create``.
        ``name``: the server's name as Discord shows it now (kept for the pages' titles when it changed)."""
        found = self._sites.get(guild_id)
        if found is not None and (name is None or found.name == name):
            return found
        row = await self.store.web_site(guild_id)
        if row is None and create:
            fresh = new_site(guild_id)
            row = await self.store.add_web_site(guild_id, slug=fresh.slug, secret=fresh.secret, mode=fresh.mode,
                                                name=name or "")
        if row is None:
            return None
        if name is not None and row["name"] != name:
            await self.store.set_web_site(guild_id, name=name)
            row = {**row, "name": name}
        site = Site(row["guild_id"], row["slug"], row["secret"], row["mode"], row["name"])
        self._sites[guild_id] = site
        return site

    async def set_mode(self, guild_id: int, mode: str, *, name: str | None = None) -> Site:
        """Turn a server's pages public, unlisted or off."""
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        await self.site(guild_id, name=name)  # (made first when the server has none yet)
        await self.store.set_web_site(guild_id, mode=mode)
        self._sites.pop(guild_id, None)
        site = await self.site(guild_id)
        assert site is not None, "made above when it was missing"
        return site

    async def _on(self, guild_id: int | None, name: str | None = None) -> Site | None:
        if self.base is None or guild_id is None:
            return None
        site = await self.site(guild_id, name=name)
        return site if site is not None and site.on else None

    async def hub(self, guild_id: int | None) -> str | None:
        site = await self._on(guild_id)
        return f"{self.base}/s/{site.slug}/" if site else None

    async def game(self, guild_id: int | None, game_id: int) -> str | None:
        """The live page of a game ("Watch")."""
        site = await self._on(guild_id)
        return f"{self.base}/s/{site.slug}/g/{game_id}-{site.tag('g', game_id)}" if site else None

    async def replay(self, guild_id: int | None, game_id: int) -> str | None:
        """The step-through of a finished game ("Replay")."""
        site = await self._on(guild_id)
        return f"{self.base}/s/{site.slug}/r/{game_id}-{site.tag('g', game_id)}" if site else None

    async def tournament(self, guild_id: int | None, tournament_id: int) -> str | None:
        """A tournament's standings and bracket ("Bracket")."""
        site = await self._on(guild_id)
        return f"{self.base}/s/{site.slug}/t/{tournament_id}-{site.tag('t', tournament_id)}" if site else None

    async def player(self, guild_id: int | None, user_id: int) -> str | None:
        """A player's record on the server."""
        site = await self._on(guild_id)
        return f"{self.base}/s/{site.slug}/p/{site.player_token(user_id)}" if site else None
