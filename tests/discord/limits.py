"""Discord's load rules for the loopback fake Discord (``tests/fake_server.py``), switched on per test:

- per-route rate-limit buckets (keyed by the route and its major parameter, as Discord keys them), answered
  with ``429`` and ``retry_after`` once spent, and the ``X-RateLimit-*`` headers discord.py reads on every
  answer (``Limit``, ``Remaining``, ``Reset``, ``Reset-After``, ``Bucket``), so the bot paces itself as it would
  on Discord; a route may have several windows at once (e.g. threads: 5 a minute and 10 in ten minutes, the
  second one making the bot wait minutes);
- the global limit of the bot token (50 requests a second; interaction callbacks and followups excluded),
  answered with ``429`` and ``"global": true``;
- ``30046`` (a 429) on edits of messages older than an hour, counted per channel;
- ``160006`` when a server already has ``thread_cap`` (1,000) active threads (archived threads do not count;
  ``other_threads`` stands for the threads people and other bots keep open);
- the interaction deadline: a callback more than 3 s after the interaction was sent is refused with ``10062``
  (Unknown interaction) and counted in ``late``; followups and edits with a token older than 15 minutes are
  refused with ``50027`` (Invalid Webhook Token).

Time: Discord's own windows (the buckets, a message's age) run on :meth:`FakeClock.now`, real time times
``scale`` plus whatever a test moved it by (:meth:`FakeClock.advance`). A bucket of "5 per 60 s" at scale 60
refills every real second, and what the fake tells the bot to wait (``retry_after``, ``Reset-After``) is Discord's
wait divided by the scale: the unmodified bot waits for real, only shorter. The interaction deadline and the
token's life measure the bot's own work, which no scale speeds up: they run on real time (plus what a test
moved the clock by). ``Limits.figures()`` reports what happened, for the tests' figures.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter
from dataclasses import dataclass, field

THREADS = ("POST", "/channels/{channel_id}/threads")
MESSAGES = ("POST", "/channels/{channel_id}/messages")
EDITS = ("PATCH", "/channels/{channel_id}/messages/{message_id}")
CALLBACK = "/interactions/{webhook_id}/{webhook_token}/callback"
#: the route parameters Discord keys its buckets by (its "major parameters")
MAJOR = ("channel_id", "guild_id", "webhook_id", "webhook_token")


class FakeClock:
    """Discord's time in the fake (epoch seconds): real time times ``scale``, plus what a test moved it by."""

    def __init__(self, scale: float = 1.0, start: float | None = None) -> None:
        if scale <= 0:
            raise ValueError("scale must be positive")
        self.scale = scale
        self._start = time.time() if start is None else start
        self._real0 = time.monotonic()
        self._moved = 0.0

    def now(self) -> float:
        """Discord's clock: buckets and message ages."""
        return self._start + (time.monotonic() - self._real0) * self.scale + self._moved

    def real(self) -> float:
        """The bot's own time (monotonic seconds, plus what a test moved the clock by): deadlines."""
        return time.monotonic() + self._moved

    def advance(self, seconds: float) -> None:
        """Move both clocks ``seconds`` ahead (messages age, buckets refill, interactions run late)."""
        self._moved += seconds

    def to_real(self, seconds: float) -> float:
        """A span of Discord's time in real seconds (what the bot is told to wait)."""
        return seconds / self.scale


@dataclass(frozen=True)
class Window:
    """``limit`` requests per ``per`` seconds of Discord's time (a fixed window from its first request)."""

    limit: int
    per: float


@dataclass
class Rules:
    """Which of Discord's load rules the fake applies (None / empty: that rule is off)."""

    scale: float = 1.0
    #: (METHOD, route template) -> its windows, each kept per major parameter
    routes: dict[tuple[str, str], tuple[Window, ...]] = field(default_factory=dict)
    #: bot-token requests per second of Discord's time (interaction callbacks and followups are not counted)
    global_per_second: int | None = None
    #: edits of messages older than ``old_after`` seconds, per channel (30046 beyond them)
    old_edits: Window | None = None
    old_after: float = 3600.0
    #: active threads a server may hold (160006 at the cap), and how many of them others keep open
    thread_cap: int | None = None
    other_threads: int = 0
    #: seconds (real) an interaction may wait for its callback (10062 after), and its token's life (50027 after)
    interaction_deadline: float | None = None
    token_life: float | None = None


def discord_rules(*, scale: float = 1.0, threads: tuple[Window, ...] = (Window(5, 60),), **changes) -> Rules:
    """Discord's rules as published and observed: 5 messages and 5 edits per 5 s in a channel, the given thread
    windows per channel, 50 requests/s in all, old edits refused (the strictest reading of 30046), 1,000 active
    threads, 3 s to answer an interaction and 15 minutes for its token."""
    rules = Rules(scale=scale, routes={MESSAGES: (Window(5, 5),), EDITS: (Window(5, 5),), THREADS: threads},
                  global_per_second=50, old_edits=Window(0, 3600), thread_cap=1000, interaction_deadline=3.0,
                  token_life=900.0)
    for name, value in changes.items():
        if not hasattr(rules, name):
            raise TypeError(f"no rule {name!r}")
        setattr(rules, name, value)
    return rules


class _Bucket:
    def __init__(self, window: Window) -> None:
        self.window = window
        self.start = -math.inf
        self.count = 0

    def _roll(self, now: float) -> None:
        if now >= self.start + self.window.per:
            self.start, self.count = now, 0

    def remaining(self, now: float) -> int:
        self._roll(now)
        return self.window.limit - self.count

    def reset_after(self, now: float) -> float:
        self._roll(now)
        return max(self.start + self.window.per - now, 0.0)

    def take(self, now: float) -> None:
        self._roll(now)
        self.count += 1


@dataclass
class Refusal:
    """An error answer: HTTP status, JSON body, headers."""

    status: int
    body: dict
    headers: dict[str, str]


@dataclass
class _Interaction:
    created: float  # FakeClock.real()
    label: str
    answered: float | None = None


class Limits:
    """The state of Discord's load rules for one fake server (see the module's docstring)."""

    def __init__(self, rules: Rules | None = None, clock: FakeClock | None = None) -> None:
        self.rules = rules or Rules()
        self.clock = clock or FakeClock(self.rules.scale)
        self.fake = None  # the FakeDiscord whose threads are counted (set by the server)
        self._buckets: dict[tuple, list[_Bucket]] = {}
        self._global = _Bucket(Window(self.rules.global_per_second or 1, 1.0))
        self._old_edits: dict[int, _Bucket] = {}
        self.born: dict[int, float] = {}  # message id -> Discord time it was posted
        self.interactions: dict[str, _Interaction] = {}
        #: interactions answered after the deadline: (label, seconds after it was sent)
        self.late: list[tuple[str, float]] = []
        #: every refusal, by (status, Discord code; 0 for a plain rate limit)
        self.refused: Counter = Counter()
        #: 429s per route template
        self.limited: Counter = Counter()
        #: Discord time of every thread created
        self.threads_created: list[float] = []

    # -- hooks called by the fake server --------------------------------------------------------------

    def interaction(self, payload: dict) -> None:
        """An INTERACTION_CREATE goes out now: its deadline starts."""
        data = payload.get("data") or {}
        label = data.get("custom_id") or "/" + " ".join([data.get("name", "?"), *_sub_names(data)])
        self.interactions[payload["token"]] = _Interaction(self.clock.real(), label)

    def check(self, via: str, method: str, template: str, params: dict, payload) -> Refusal | None:
        """Before the fake answers a request: the refusal Discord's load rules give it, if any (the request
        then has no effect), else None (the request's quota is taken)."""
        refusal = self._deadline(via, template, params) or self._rate(via, method, template, params) \
            or self._content(method, template, params)
        if refusal is not None:
            code = refusal.body.get("code", 0)
            self.refused[(refusal.status, code)] += 1
            if refusal.status == 429:
                self.limited[template] += 1
        return refusal

    def passed(self, via: str, method: str, template: str, params: dict, result) -> dict[str, str]:
        """After a request succeeded: note what it made, and the rate-limit headers of its bucket."""
        now = self.clock.now()
        message = result.get("resource", {}).get("message") if isinstance(result, dict) else None
        if isinstance(result, dict) and "channel_id" in result and method == "POST":
            message = result
        if message and message.get("id"):
            self.born.setdefault(int(message["id"]), now)
        if (method, template) == THREADS and isinstance(result, dict):
            self.threads_created.append(now)
        buckets = self._buckets.get(self._key(method, template, params))
        if not buckets:
            return {}
        tightest = min(buckets, key=lambda b: (b.remaining(now), -b.reset_after(now)))
        return self._headers(method, template, tightest, now)

    # -- the rules --------------------------------------------------------------------------------------

    def _deadline(self, via: str, template: str, params: dict) -> Refusal | None:
        if via != "webhook":
            return None
        found = self.interactions.get(params.get("webhook_token", ""))
        if found is None:
            return None
        waited = self.clock.real() - found.created
        if template == CALLBACK:
            deadline = self.rules.interaction_deadline
            if deadline is not None and waited > deadline and found.answered is None:
                self.late.append((found.label, round(waited, 3)))
                return Refusal(404, {"code": 10062, "message": "Unknown interaction"}, {})
            if found.answered is None:
                found.answered = waited
            return None
        life = self.rules.token_life
        if life is not None and waited > life:
            return Refusal(401, {"code": 50027, "message": "Invalid Webhook Token"}, {})
        return None

    def _rate(self, via: str, method: str, template: str, params: dict) -> Refusal | None:
        now = self.clock.now()
        rules = self.rules
        if via == "rest" and rules.global_per_second:
            self._global.window = Window(rules.global_per_second, 1.0)
            if self._global.remaining(now) <= 0:
                wait = self.clock.to_real(self._global.reset_after(now))
                return self._too_many(wait, {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"},
                                      global_=True)
        windows = rules.routes.get((method, template))
        if windows:
            key = self._key(method, template, params)
            buckets = self._buckets.get(key)
            if buckets is None or [b.window for b in buckets] != list(windows):
                buckets = self._buckets[key] = [_Bucket(w) for w in windows]
            spent = [b for b in buckets if b.remaining(now) <= 0]
            if spent:
                worst = max(spent, key=lambda b: b.reset_after(now))
                headers = self._headers(method, template, worst, now)
                return self._too_many(self.clock.to_real(worst.reset_after(now)),
                                      {**headers, "X-RateLimit-Scope": "user"})
            for b in buckets:
                b.take(now)
        if via == "rest" and rules.global_per_second:
            self._global.take(now)
        return None

    def _content(self, method: str, template: str, params: dict) -> Refusal | None:
        """Refusals that depend on what is asked: old edits (30046), the thread cap (160006)."""
        rules = self.rules
        now = self.clock.now()
        if (method, template) == EDITS and rules.old_edits is not None:
            born = self.born.get(int(params["message_id"]))
            if born is not None and now - born > rules.old_after:
                channel = int(params["channel_id"])
                bucket = self._old_edits.setdefault(channel, _Bucket(rules.old_edits))
                if bucket.remaining(now) <= 0:
                    wait = self.clock.to_real(bucket.reset_after(now) or rules.old_edits.per)
                    return Refusal(429, {"code": 30046, "global": False, "retry_after": round(wait, 3),
                                         "message": "Maximum number of edits to messages older than 1 hour "
                                                    "reached. Try again later"},
                                   {"Via": "1.1 google", "Retry-After": str(math.ceil(wait))})
                bucket.take(now)
        if (method, template) == THREADS and rules.thread_cap is not None:
            if self.active_threads(self.guild_of(int(params["channel_id"]))) >= rules.thread_cap:
                return Refusal(400, {"code": 160006, "message": "Maximum number of active threads reached"}, {})
        return None

    # -- threads ----------------------------------------------------------------------------------------

    def guild_of(self, channel_id: int) -> int | None:
        guilds = getattr(self.fake, "guild_of", None)
        if guilds is not None and channel_id in guilds:
            return guilds[channel_id]
        channel = (self.fake.channels if self.fake is not None else {}).get(channel_id) or {}
        return int(channel["guild_id"]) if channel.get("guild_id") else None

    def active_threads(self, guild_id: int | None) -> int:
        """Active (not archived) threads of a server: the fake's own plus ``other_threads``."""
        own = 0
        for cid, channel in (self.fake.channels if self.fake is not None else {}).items():
            if channel.get("type") in (10, 11, 12) and not (channel.get("thread_metadata") or {}).get("archived") \
                    and self.guild_of(cid) == guild_id:
                own += 1
        return own + self.rules.other_threads

    # -- helpers ----------------------------------------------------------------------------------------

    @staticmethod
    def _key(method: str, template: str, params: dict) -> tuple:
        return (method, template, *[params[p] for p in MAJOR if p in params])

    def _headers(self, method: str, template: str, bucket: _Bucket, now: float) -> dict[str, str]:
        after = self.clock.to_real(bucket.reset_after(now))
        return {"X-RateLimit-Limit": str(bucket.window.limit),
                "X-RateLimit-Remaining": str(max(bucket.remaining(now), 0)),
                "X-RateLimit-Reset": f"{time.time() + after:.3f}",
                "X-RateLimit-Reset-After": f"{after:.3f}",
                "X-RateLimit-Bucket": hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16]}

    @staticmethod
    def _too_many(wait: float, headers: dict[str, str], global_: bool = False) -> Refusal:
        wait = max(wait, 0.001)
        return Refusal(429, {"message": "You are being rate limited.", "retry_after": round(wait, 3),
                             "global": global_, "code": 0},
                       {**headers, "Via": "1.1 google", "Retry-After": str(math.ceil(wait))})

    def figures(self) -> dict:
        """What happened, for a test's figures."""
        answered = [i.answered for i in self.interactions.values() if i.answered is not None]
        span = self.threads_created[-1] - self.threads_created[0] if len(self.threads_created) > 1 else 0.0
        return {"interactions": len(self.interactions), "answered": len(answered), "late": len(self.late),
                "slowest_answer_s": round(max(answered), 3) if answered else None,
                "threads": len(self.threads_created), "thread_span_discord_s": round(span, 1),
                "rate_limited": dict(self.limited), "refused": {f"{s}/{c}": n for (s, c), n in self.refused.items()}}


def _sub_names(data: dict) -> list[str]:
    """The subcommand path of a slash command's data (``hextri new``)."""
    out = []
    options = data.get("options") or []
    while options and options[0].get("type") in (1, 2):
        out.append(options[0]["name"])
        options = options[0].get("options") or []
    return out
