"""The pages: a server's hub, a game (live), a replay, a tournament, a player; their pictures and event streams.

Every handler resolves the server from the URL's slug and checks the object's tag (web/app.py, host/weblinks.py);
everything else is a 404 that tells nothing. Pages show public information only: the board of the public view,
names as the players used them on the server, the narration the thread showed (mentions turned into names).
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from aiohttp_sse import sse_response

from engines import ENGINES
from host.errors import GameError
from host.presenters import presenter_for
from host.spectate import Busy, LiveGame, NotFound
from host.weblinks import Site
from web.charts import rating_chart
from web.context import CONTEXT, LANG, STREAMS, WebContext, translator
from web.guard import INDEXABLE, client_of
from web.live import Full

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1
#: open event streams one client may hold (a few tabs), beyond which it is refused
STREAMS_PER_CLIENT = 16
LISTED = 50


def add_routes(app: web.Application) -> None:
    app.router.add_get("/", index)
    app.router.add_get("/robots.txt", robots)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_get("/s/{slug}/", hub)
    app.router.add_get("/s/{slug}", to_hub)
    app.router.add_get("/s/{slug}/g/{ref}", game_page)
    app.router.add_get("/s/{slug}/g/{ref}/board/{version}.png", board_picture)
    app.router.add_get("/s/{slug}/g/{ref}/events", game_events)
    app.router.add_get("/s/{slug}/r/{ref}", replay_page)
    app.router.add_get("/s/{slug}/r/{ref}/step/{step}.png", replay_picture)
    app.router.add_get("/s/{slug}/t/{ref}", tournament_page)
    app.router.add_get("/s/{slug}/p/{token}", player_page)


async def to_hub(request: web.Request) -> web.Response:
    raise web.HTTPFound(f"/s/{request.match_info['slug']}/")


# -- helpers --------------------------------------------------------------------------------------------------

def _context(request: web.Request) -> WebContext:
    return request.app[CONTEXT]


def render(request: web.Request, template: str, *, status: int = 200, site: Site | None = None,
           **values: Any) -> web.Response:
    lang = request[LANG]
    say = translator(lang)
    response = aiohttp_jinja2.render_template(template, request, {
        "lang": lang, "_": say, "site": site, "hub_url": f"/s/{site.slug}/" if site else "/",
        "path": request.path, **values}, status=status)
    response.headers["Cache-Control"] = "no-cache, private"
    return response


def not_found(request: web.Request) -> web.Response:
    say = translator(request[LANG])
    return render(request, "error.html", status=404, title=say("not_found_title"), message=say("not_found"))


def refused(request: web.Request, exc: Exception, site: Site | None = None) -> web.Response:
    """A page that cannot be shown now: too busy (503), or a game this version cannot read (409)."""
    say = translator(request[LANG])
    if isinstance(exc, Busy):
        response = render(request, "error.html", status=503, site=site, title=say("busy_title"), message=say("busy"))
        response.headers["Retry-After"] = "5"
        return response
    text = exc.text(request[LANG]) if isinstance(exc, GameError) else say("unavailable")
    return render(request, "error.html", status=409, site=site, title=say("unavailable_title"), message=text)


def _ref(ref: str) -> tuple[int, str] | None:
    number, _, tag = ref.partition("-")
    if not number.isdigit() or not tag or len(number) > 19:
        return None
    value = int(number)
    return (value, tag) if 0 < value <= MAX_ID else None


async def _site(request: web.Request) -> Site | None:
    site = await _context(request).site(request.match_info["slug"])
    if site is not None and site.mode == "public":
        request[INDEXABLE] = True
    return site


async def _game(request: web.Request):
    """(site, game) named by the URL, or None."""
    site = await _site(request)
    ref = _ref(request.match_info["ref"])
    if site is None or ref is None or not site.check("g", *ref):
        return None
    game = await _context(request).store.get_game(ref[0], with_snapshot=False, tolerant=True)
    if game is None or game.guild_id != site.guild_id:
        return None
    return site, game


def game_url(site: Site, game_id: int, kind: str = "g") -> str:
    return f"/s/{site.slug}/{kind}/{game_id}-{site.tag('g', game_id)}"


def tournament_url(site: Site, tournament_id: int) -> str:
    return f"/s/{site.slug}/t/{tournament_id}-{site.tag('t', tournament_id)}"


def player_url(site: Site, user_id: int | None) -> str | None:
    return f"/s/{site.slug}/p/{site.player_token(user_id)}" if user_id and user_id > 0 else None


def _date(stamp: str | None) -> str:
    return (stamp or "")[:10]


def time_left(seconds: int | None) -> str:
    """``1d 02:03:04``, ``02:03:04`` or ``03:04`` (the live page's script counts down the same way)."""
    if seconds is None:
        return ""
    days, rest = divmod(max(0, int(seconds)), 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    clock = f"{hours:02d}:{minutes:02d}:{secs:02d}" if hours or days else f"{minutes:02d}:{secs:02d}"
    return f"{days}d {clock}" if days else clock


# -- a game ---------------------------------------------------------------------------------------------------

def game_message(live: LiveGame | None, game, lang: str) -> dict:
    """The state of a game's page: what the page shows first and what each event of its stream carries."""
    say = translator(lang)
    if live is None:  # a lobby: no board yet
        return {"version": game.version, "status": game.status, "board": False,
                "status_text": say("status_lobby", count=len(game.seats), max=game.num_players),
                "players": [{"name": s.name, "label": "", "ai": s.is_ai, "to_act": False, "place": None}
                            for s in sorted(game.seats, key=lambda s: s.seat)],
                "lines": [], "result_lines": [], "clocks": [], "now": _now()}
    acting = [p.name for p in live.players if p.to_act]
    status_text = {"running": say("status_turn", names=", ".join(acting)) if acting else say("status_running"),
                   "finished": say("status_finished"), "abandoned": say("status_abandoned")}.get(game.status, "")
    return {
        "version": live.version, "status": game.status, "board": True, "status_text": status_text,
        "players": [{"name": p.name, "label": p.label, "ai": p.ai, "to_act": p.to_act, "place": p.place}
                    for p in live.players],
        "lines": live.lines, "result_lines": live.result_lines,
        "clocks": [{"name": c.name, "state": c.state, "text": say(f"clock_{c.state}", name=c.name),
                    "deadline": c.deadline, "left": time_left(c.left)} for c in live.clocks],
        "now": _now(),
    }


def _now() -> int:
    return int(datetime.now(UTC).timestamp())


async def _live(context: WebContext, game) -> LiveGame | None:
    return None if game.status == "lobby" else await context.spectator.live(game)


async def live_message(context: WebContext, game_id: int, lang: str) -> dict | None:
    """The message of a game's event stream (web/live.py): its page's state now."""
    game = await context.store.get_game(game_id, with_snapshot=False, tolerant=True)
    if game is None:
        return None
    return game_message(await _live(context, game), game, lang)


async def game_page(request: web.Request) -> web.Response:
    found = await _game(request)
    if found is None:
        return not_found(request)
    site, game = found
    context = _context(request)
    try:
        live = await _live(context, game)
    except (GameError, Busy) as exc:
        return refused(request, exc, site)
    state = game_message(live, game, request[LANG])
    base = game_url(site, game.id)
    return render(request, "game.html", site=site, title=f"{ENGINES[game.engine].title} #{game.id}",
                  game=game, state=state, base=base, events=f"{base}/events",
                  replay=game_url(site, game.id, "r"), state_json=state)


async def board_picture(request: web.Request) -> web.StreamResponse:
    found = await _game(request)
    version = request.match_info["version"]
    if found is None or not version.isdigit() or found[1].status == "lobby":
        return not_found(request)
    site, game = found
    if int(version) < game.version:
        # the game moved on while the page asked for this board (a live page follows at once): the newest one
        raise web.HTTPFound(f"{game_url(site, game.id)}/board/{game.version}.png",
                            headers={"Cache-Control": "no-cache"})
    try:
        png = await _context(request).spectator.board(game, int(version))
    except NotFound:
        return not_found(request)
    except (GameError, Busy) as exc:
        return refused(request, exc, site)
    return _png(png)


def _png(png: bytes) -> web.Response:
    # a board of one version, a replay's step: they never change
    return web.Response(body=png, content_type="image/png",
                        headers={"Cache-Control": "private, max-age=31536000, immutable"})


async def game_events(request: web.Request) -> web.StreamResponse:
    found = await _game(request)
    if found is None:
        return not_found(request)
    _, game = found
    context = _context(request)
    client = client_of(request, context.trust_proxy)
    streams = request.app[STREAMS]
    if streams.get(client, 0) >= STREAMS_PER_CLIENT:
        raise web.HTTPTooManyRequests(text="Too many open pages.\n", headers={"Retry-After": "30"})
    try:
        queue = context.hub.subscribe(game.id, request[LANG], (game.version, game.status))
    except Full:
        raise web.HTTPServiceUnavailable(text="Too many viewers right now.\n", headers={"Retry-After": "30"}) \
            from None
    streams[client] = streams.get(client, 0) + 1
    try:
        async with sse_response(request, ping_interval=20, headers={"Cache-Control": "no-cache",
                                                                    "X-Accel-Buffering": "no"}) as response:
            while response.is_connected():
                message = await queue.get()
                await response.send(json.dumps(message, ensure_ascii=False), event="update",
                                    id=str(message["version"]))
        return response
    finally:
        context.hub.unsubscribe(game.id, queue)
        streams[client] -= 1
        if not streams[client]:
            del streams[client]


# -- a replay -------------------------------------------------------------------------------------------------

async def replay_page(request: web.Request) -> web.Response:
    found = await _game(request)
    if found is None:
        return not_found(request)
    site, game = found
    if game.status in ("lobby", "running"):
        raise web.HTTPFound(game_url(site, game.id))
    if game.status != "finished":
        return refused(request, GameError.of("replay_not_finished", game=game.id), site)
    try:
        replay = await _context(request).spectator.replay(game)
    except (GameError, Busy) as exc:
        return refused(request, exc, site)
    raw = request.query.get("step", "0")
    step = min(int(raw), replay.steps) if raw.isdigit() and len(raw) < 9 else 0
    presenter = presenter_for(game.engine)
    players = [{"name": name, "label": presenter.seat_label(seat),
                "place": ((game.result or {}).get("places") or [None] * 99)[seat] if seat < len(
                    (game.result or {}).get("places") or []) else None}
               for seat, name in enumerate(replay.record.names)]
    base = game_url(site, game.id, "r")
    return render(request, "replay.html", site=site, title=f"{ENGINES[game.engine].title} #{game.id}",
                  game=game, base=base, step=step, steps=replay.steps, lines=replay.lines[step],
                  data={"lines": replay.lines, "chapters": replay.chapters}, players=players,
                  result_lines=replay.result_lines, has_chapters=bool(replay.chapters))


async def replay_picture(request: web.Request) -> web.StreamResponse:
    found = await _game(request)
    step = request.match_info["step"]
    if found is None or not step.isdigit() or len(step) > 8 or found[1].status != "finished":
        return not_found(request)
    site, game = found
    try:
        png = await _context(request).spectator.replay_picture(game, int(step))
    except NotFound:
        return not_found(request)
    except (GameError, Busy) as exc:
        return refused(request, exc, site)
    return _png(png)


# -- a tournament ---------------------------------------------------------------------------------------------

async def tournament_page(request: web.Request) -> web.Response:
    site = await _site(request)
    ref = _ref(request.match_info["ref"])
    if site is None or ref is None or not site.check("t", *ref):
        return not_found(request)
    context = _context(request)
    tournaments = context.tournaments
    try:
        event, rows = await tournaments.standings(ref[0])
    except GameError:
        return not_found(request)
    if event.guild_id != site.guild_id:
        return not_found(request)
    say = translator(request[LANG])
    names = event.names
    matches = await context.store.matches(event.id)
    games = await context.store.game_versions([m.game_id for m in matches if m.game_id])
    rounds: dict[int, list[dict]] = {}
    live = []
    for m in matches:
        entry = _match(site, m, names, games)
        rounds.setdefault(m.round, []).append(entry)
        if entry["live"]:
            live.append({**entry, "round": m.round})
    bracket = event.format == "elimination" and bool(rounds)
    if bracket and event.status == "running":  # the rounds still to come, as empty boxes
        count = sum(1 for m in rounds[max(rounds)] if not m["bye"] or len(rounds) == 1)
        for round_no in range(max(rounds) + 1, event.total_rounds() + 1):
            count = max(1, (count + 1) // 2)
            rounds[round_no] = [{"tbd": True}] * count
    podium = []
    if event.status == "finished" and not event.cancelled:
        podium = await tournaments.podium(event.id)
    table = [{"rank": i, "name": name, "url": player_url(site, r.player), "points": _num(r.points),
              "played": r.played, "wins": r.wins, "draws": r.draws, "losses": r.losses,
              "buchholz": _num(r.buchholz), "sonneborn": _num(r.sonneborn), "dropped": r.dropped}
             for i, (r, name) in enumerate(rows, start=1)]
    status = say("tournament_cancelled") if event.cancelled else say(f"tournament_{event.status}")
    return render(request, "tournament.html", site=site,
                  title=say("tournament_title", title=ENGINES[event.engine].title, number=event.id),
                  event=event, format=say(f"format_{event.format}"), event_status=status, table=table,
                  rounds=sorted(rounds.items()), live=live, podium=podium, bracket=bracket,
                  current=event.round, total=event.total_rounds())


def _num(value) -> str:
    """Points and tie-breaks ("3", "2.5"): a float or a Fraction (whose format takes no "g" before Python 3.12)."""
    value = float(value)
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def _match(site: Site, m: dict, names: dict[int, str], games: dict[int, tuple[int, str]]) -> dict:
    status = games.get(m.game_id, (0, ""))[1] if m.game_id else ""
    places = m.places
    players = [{"name": names.get(p, "?"), "url": player_url(site, p),
                "place": places[i] if places and i < len(places) else None,
                "won": bool(places) and places[i] == 1 and len(set(places)) > 1}
               for i, p in enumerate(m.players)]
    url = None
    if m.game_id and status in ("running", "lobby"):
        url = game_url(site, m.game_id)
    elif m.game_id and status == "finished":
        url = game_url(site, m.game_id, "r")
    return {"slot": m.slot, "players": players, "how": m.how, "url": url, "bye": len(m.players) == 1,
            "live": places is None and status == "running", "done": places is not None}


# -- a player -------------------------------------------------------------------------------------------------

async def player_page(request: web.Request) -> web.Response:
    site = await _site(request)
    user_id = site.player_of(request.match_info["token"]) if site is not None else None
    if user_id is None:
        return not_found(request)
    context = _context(request)
    store = context.store
    finished = await store.list_games(guild_id=site.guild_id, user_id=user_id, statuses=("finished",), limit=20)
    running = await store.list_games(guild_id=site.guild_id, user_id=user_id, statuses=("running",), limit=20)
    if not finished and not running:
        return not_found(request)
    try:
        records = await context.spectator.records(site.guild_id, user_id)
    except Busy as exc:
        return refused(request, exc, site)
    say = translator(request[LANG])
    newest = max(finished + running, key=lambda g: g.id)
    name = next(s.name for s in newest.seats if s.user_id == user_id)
    shown = [{"title": r.title, "rating": f"{r.rating:.1f}", "games": r.games, "wins": r.wins, "draws": r.draws,
              "rank": r.rank, "players": r.players,
              "chart": rating_chart(r.history, say("chart_label", title=r.title, name=name),
                                    say("chart_games", count=len(r.history)))} for r in records]
    recent = []
    for g in finished:
        seat = g.seat_of(user_id)
        places = (g.result or {}).get("places") or []
        recent.append({"title": ENGINES[g.engine].title if g.engine in ENGINES else g.engine, "id": g.id,
                       "url": game_url(site, g.id, "r"), "date": _date(g.updated_at),
                       "place": places[seat] if seat is not None and seat < len(places) else None,
                       "of": len(places), "others": ", ".join(s.name for s in g.seats if s.seat != seat)})
    playing = [{"title": ENGINES[g.engine].title if g.engine in ENGINES else g.engine, "id": g.id,
                "url": game_url(site, g.id), "others": ", ".join(s.name for s in g.seats if s.user_id != user_id)}
               for g in running]
    return render(request, "player.html", site=site, title=name, name=name, records=shown, recent=recent,
                  playing=playing)


# -- a server's hub and the index -----------------------------------------------------------------------------

async def hub(request: web.Request) -> web.Response:
    site = await _site(request)
    if site is None:
        return not_found(request)
    context = _context(request)
    store = context.store
    say = translator(request[LANG])

    def listed(games, kind="g"):
        return [{"title": ENGINES[g.engine].title if g.engine in ENGINES else g.engine, "id": g.id,
                 "url": game_url(site, g.id, kind), "players": ", ".join(s.name for s in g.seats),
                 "seats": f"{len(g.seats)}/{g.num_players}", "date": _date(g.updated_at)} for g in games]

    lobbies = await store.list_games(guild_id=site.guild_id, statuses=("lobby",), limit=LISTED)
    running = await store.list_games(guild_id=site.guild_id, statuses=("running",), limit=LISTED)
    finished = await store.list_games(guild_id=site.guild_id, statuses=("finished",), limit=10)
    try:
        boards = await context.spectator.leaderboards(site.guild_id)
    except Busy as exc:
        return refused(request, exc, site)
    leaderboards = [{"title": ENGINES[key].title, "rows": [
        {"name": name, "url": player_url(site, r.player), "rating": f"{r.rating:.1f}", "games": r.games,
         "wins": r.wins} for r, name in rows]} for key, rows in boards.items()]
    tournaments = []
    for tour in await store.guild_tournaments(site.guild_id, limit=20):
        extra = await store.tournament_extra(tour.id) or {}
        tournaments.append({"title": say("tournament_title", title=ENGINES[tour.engine].title, number=tour.id)
                            if tour.engine in ENGINES else str(tour.id),
                            "url": tournament_url(site, tour.id), "entries": len(tour.entries),
                            "format": say(f"format_{extra.get('format', 'league')}"),
                            "status": say("tournament_cancelled") if extra.get("cancelled")
                            else say(f"tournament_{tour.status}")})
    return render(request, "hub.html", site=site, title=site.name or say("hub_title"), lobbies=listed(lobbies),
                  running=listed(running), finished=listed(finished, "r"), leaderboards=leaderboards,
                  tournaments=tournaments)


async def index(request: web.Request) -> web.Response:
    sites = await _context(request).store.public_web_sites()
    request[INDEXABLE] = True
    say = translator(request[LANG])
    return render(request, "index.html", title=say("site_name"),
                  sites=[{"name": s["name"] or say("hub_title"), "url": f"/s/{s['slug']}/"} for s in sites])


async def robots(request: web.Request) -> web.Response:
    return web.Response(text="User-agent: *\nAllow: /\n", content_type="text/plain")


async def healthz(request: web.Request) -> web.Response:
    """For a load balancer: 200 once the database answers, else 503."""
    try:
        await _context(request).store.schema_version()
    except Exception:
        return web.Response(status=503, text="database unavailable\n")
    return web.Response(text="ready\n", headers={"Cache-Control": "no-store"})


async def favicon(request: web.Request) -> web.Response:
    return web.Response(status=204, headers={"Cache-Control": "public, max-age=86400"})
