"""What every response of the web companion goes through: a rate limit per client and the security headers.

The rate limit is a token bucket per client address (``WEB_RATE_LIMIT`` requests a minute, bursts up to half of
that): past it a client gets ``429`` with ``Retry-After``. Behind a reverse proxy every request comes from the
proxy's address, so with ``WEB_TRUST_PROXY`` the client is the last address of ``X-Forwarded-For`` (the one
the proxy itself appended). The buckets are bounded (the least recently seen clients are forgotten first).

The headers: a Content-Security-Policy that allows nothing but the app's own scripts, styles, pictures and
event streams (no inline script, no inline style, no third party), no framing, no MIME sniffing, no Referer (a
page's address carries its unguessable link) and, for unlisted servers, no indexing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from aiohttp import web

from host.cache import Bounded

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
CLIENTS_KEPT = 50_000
#: a request whose page may be indexed by search engines (a public server's): no X-Robots-Tag
INDEXABLE = web.RequestKey("indexable", bool)


@dataclass
class _Bucket:
    tokens: float
    at: float


class RateLimit:
    """A token bucket per client: ``per_minute`` requests a minute, ``burst`` at once."""

    def __init__(self, per_minute: int, burst: int | None = None, *, clock=time.monotonic) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst if burst is not None else max(10, per_minute // 2))
        self.clock = clock
        self._buckets: dict[str, _Bucket] = Bounded(CLIENTS_KEPT)

    def take(self, client: str) -> float:
        """0 when the client may go on (a token is spent), else the seconds until it may."""
        now = self.clock()
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = _Bucket(self.burst, now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
        bucket.at = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / self.rate if self.rate > 0 else 60.0


def client_of(request: web.Request, trust_proxy: bool) -> str:
    if trust_proxy:
        forwarded = request.headers.get("X-Forwarded-For", "")
        last = forwarded.split(",")[-1].strip()
        if last:
            return last
    return request.remote or "?"


def middlewares(limit: RateLimit | None, trust_proxy: bool) -> list:
    """The security headers and the rate limit."""
    @web.middleware
    async def headers(request: web.Request, handler):
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            response = exc
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if not request.get(INDEXABLE):
            response.headers.setdefault("X-Robots-Tag", "noindex, nofollow")
        if isinstance(response, web.HTTPException):
            raise response
        return response

    @web.middleware
    async def rate(request: web.Request, handler):
        if limit is not None and not request.path.startswith("/static/"):
            wait = limit.take(client_of(request, trust_proxy))
            if wait > 0:
                raise web.HTTPTooManyRequests(text="Too many requests: slow down a little.\n",
                                              headers={"Retry-After": str(max(1, round(wait)))})
        return await handler(request)

    return [headers, rate]
