"""What a spectator sees of a game, for the web companion (web/): the public board, the players, the clocks and
the narration of a game being played, and a finished game's replay step by step. No Discord here.

Only public views are ever built (``engine.view(state, None)``): nothing here asks for a seat's view, so no hidden
card can reach a page. The state is read from the stored snapshot (not the game service's live state, which a
move may be changing), so the same code serves the bot's process and a separate web process alike.

Bounded work: every engine run and every picture happens off the event loop (engine work in a thread, pictures
in the game service's painter, the bot's render workers), at most ``WORKERS`` at a time, each within
``BUDGET_S``; a result is computed once however many people ask for it at once (:meth:`Spectator._once`) and
kept per version (a board at version v, a replay's step s never change) in bounded caches.

A replay keeps the narration of every step and the engine state every ``CHECKPOINT_EVERY`` steps, so one step's
picture costs at most that many actions re-applied, not the whole game.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from engines import ENGINES, IllegalAction
from host import clock as clocks
from host.cache import Bounded
from host.ending import ending_of
from host.errors import GameError
from host.locale import t, use_language
from host.presenters import presenter_for
from host.replays import CHAPTER_EVENTS, Record, _plain, start_state
from host.undo import as_played, narrate, restepped
from host.workers import Overrun
from store import DamagedRow, GameRow

CHECKPOINT_EVERY = 25
#: most steps of narration shown on a live game's page (older moves: the replay once it is over)
LOG_LINES = 60
WORKERS = 2
BUDGET_S = 20.0
PICTURE_CACHE_BYTES = 96 * 1024 * 1024
REPLAYS_KEPT = 24

_MENTION = re.compile(r"<@[!&]?(\d+)>")
_STAMP = re.compile(r"<t:(\d+)(?::\w)?>")


class NotFound(LookupError):
    """No such picture: a board of another version than the game's current one, a step past the end."""


class Busy(Exception):
    """The work a page asked for did not finish within its budget (the page says so; nothing is lost)."""


def scrub(line: str, names: dict[int, str]) -> str:
    """A narration line as a page shows it: a Discord mention becomes the person's name (never their id), a
    Discord timestamp a UTC time, and Discord's bold and strike-through (a move taken back) marks go."""
    line = _MENTION.sub(lambda m: names.get(int(m.group(1)), "?"), line)
    line = _STAMP.sub(lambda m: datetime.fromtimestamp(int(m.group(1)), UTC).strftime("%Y-%m-%d %H:%M UTC"), line)
    return line.replace("**", "").replace("~~", "")


@dataclass
class Player:
    seat: int
    name: str
    label: str  # the seat's colour or role, as the board shows it
    ai: bool
    to_act: bool = False
    place: int | None = None


@dataclass
class Clock:
    """One seat's clock as a page shows it: ``state`` running, away, stand_in, forfeited or waiting;
    ``deadline`` (epoch seconds) while running; ``left`` seconds left now."""

    seat: int
    name: str
    state: str
    deadline: int | None = None
    left: int | None = None


@dataclass
class LiveGame:
    """A game's page at one version."""

    game: GameRow
    version: int
    players: list[Player]
    lines: list[str]  # the narration of the last moves, oldest first
    result_lines: list[str] = field(default_factory=list)
    clocks: list[Clock] = field(default_factory=list)
    title: str = ""


@dataclass
class Replay:
    """A finished game told step by step: ``lines[s]`` the narration of step s (0: the opening)."""

    game: GameRow
    record: Record
    lines: list[list[str]]
    checkpoints: dict[int, dict]
    chapters: list[int]
    result_lines: list[str]

    @property
    def steps(self) -> int:
        return len(self.lines) - 1


def index_replay(record: Record, every: int = CHECKPOINT_EVERY) -> tuple[list[list[str]], dict[int, dict]]:
    """The narration of every step and the engine state (``to_json``) every ``every`` steps; each step's events
    are checked against the stored ones (GameError "replay_diverged" when they differ). Pure: run it in a thread."""
    use_language(record.lang)
    engine = ENGINES[record.engine]
    presenter = presenter_for(record.engine)
    state = start_state(record)
    players = ", ".join(f"{name} ({presenter.seat_label(seat)})" for seat, name in enumerate(record.names))
    lines = [[t("started", game=record.game_id or "?", title=engine.title, players=players),
              *presenter.opening_lines(engine.view(state, None), record.names)]]
    checkpoints = {0: engine.to_json(state)}
    for step, entry in enumerate(record.actions, start=1):
        try:
            events = engine.apply(state, entry["seat"], entry["action"])
        except IllegalAction as exc:
            raise GameError.of("replay_diverged", step=step) from exc
        if "events" in entry and _plain(events) != entry["events"]:
            raise GameError.of("replay_diverged", step=step)
        lines.append([line for e in events if (line := presenter.narrate(e, record.names))])
        if step % every == 0:
            checkpoints[step] = engine.to_json(state)
    return lines, checkpoints


def view_at(record: Record, checkpoints: dict[int, dict], step: int) -> dict:
    """The public view after ``step`` actions, from the nearest checkpoint at or before it. Pure."""
    engine = ENGINES[record.engine]
    base = max(s for s in checkpoints if s <= step)
    state = engine.from_json(checkpoints[base])
    for entry in record.actions[base:step]:
        engine.apply(state, entry["seat"], entry["action"])
    return engine.view(state, None)


def public_view(engine_key: str, snapshot: dict) -> tuple[dict, list[int], dict | None]:
    """(public view, seats to act, result) of a stored snapshot. Pure."""
    engine = ENGINES[engine_key]
    state = engine.from_json(snapshot)
    return engine.view(state, None), engine.to_act(state), engine.result(state)


class Spectator:
    """Spectator pages' data over a game service (its store, its painter, its clocks)."""

    def __init__(self, service) -> None:
        self.service = service
        self.store = service.store
        self._gate = asyncio.Semaphore(WORKERS)
        self._running: dict[tuple, asyncio.Future] = {}
        self._pictures: Bounded = Bounded(4096)
        self._picture_bytes = 0
        self._views: Bounded = Bounded(512)
        self._replays: Bounded = Bounded(REPLAYS_KEPT)

    async def _once(self, key: tuple, make: Callable[[], Awaitable]):
        """``make()`` run once for everybody asking for ``key`` at the same time, in a task of its own: a viewer
        who leaves (their request cancelled) does not cancel it for the others."""
        task = self._running.get(key)
        if task is None:
            task = asyncio.ensure_future(make())
            self._running[key] = task

            def done(finished: asyncio.Future) -> None:
                self._running.pop(key, None)
                if not finished.cancelled():
                    finished.exception()  # (retrieved: every asker may have left)

            task.add_done_callback(done)
        return await asyncio.shield(task)

    async def _work(self, fn, *args):
        """``fn(*args)`` in a worker thread, within the budget and the limit of concurrent work."""
        async with self._gate:
            try:
                return await asyncio.wait_for(asyncio.to_thread(fn, *args), BUDGET_S)
            except TimeoutError as exc:
                raise Busy from exc

    async def _draw(self, engine_key: str, view: dict) -> bytes:
        async with self._gate:
            try:
                return await asyncio.wait_for(self.service.painter.draw(engine_key, "render_public", view), BUDGET_S)
            except (TimeoutError, Overrun) as exc:  # (the workers' own picture budget may end it first)
                raise Busy from exc

    def _keep_picture(self, key: tuple, png: bytes) -> None:
        self._pictures[key] = png
        self._picture_bytes += len(png)
        while self._picture_bytes > PICTURE_CACHE_BYTES and len(self._pictures) > 1:
            _, old = self._pictures.popitem(last=False)
            self._picture_bytes -= len(old)

    # -- a game being played -----------------------------------------------------------------------------

    async def _view(self, game: GameRow) -> tuple[int, dict, list[int], dict | None]:
        """(version, public view, seats to act, result) of the game now, computed once per version."""
        key = (game.id, game.version)
        found = self._views.get(key)
        if found is not None:
            return found

        async def make():
            try:
                version, snapshot = await self.store.snapshot(game.id)
            except DamagedRow as exc:
                raise GameError.of("game_damaged", game=game.id) from exc
            if snapshot is None:
                raise GameError.of("not_started", game=game.id)
            try:
                view, acting, result = await self._work(public_view, game.engine, snapshot)
            except (ValueError, KeyError, TypeError) as exc:
                raise GameError.of("game_damaged", game=game.id) from exc
            out = (version, view, acting, result)
            self._views[(game.id, version)] = out
            return out

        return await self._once(("view", *key), make)

    async def live(self, game: GameRow) -> LiveGame:
        """The page of a running (or just finished) game: players, whose turn, clocks, the last moves."""
        if (problem := self.service.unreadable(game)) is not None:
            raise problem
        engine = ENGINES[game.engine]
        presenter = presenter_for(game.engine)
        names = self.service.names(game)
        version, _view, acting, result = await self._view(game)
        places = (game.result or result or {}).get("places") or []
        players = [Player(s.seat, s.name, presenter.seat_label(s.seat), s.is_ai, s.seat in acting and
                          game.status == "running", places[s.seat] if s.seat < len(places) else None)
                   for s in sorted(game.seats, key=lambda s: s.seat)]
        by_user = {s.user_id: s.name for s in game.seats if s.user_id}
        lines = []
        for entry in await self.store.actions(game.id, after=max(0, version - LOG_LINES)):
            lines += [scrub(line, by_user) for event in entry["events"] if (line := narrate(presenter, event, names))]
        # how it ended, by any way (host/ending.py); a stored result wins over what the state says
        ended = ending_of(game.status, game.result or result) if game.status in ("finished", "abandoned") else None
        result_lines = [scrub(line, by_user) for line in presenter.ending_lines(ended, names)] \
            if ended is not None else []
        return LiveGame(game, version, players, lines[-LOG_LINES:], result_lines, await self.clocks(game),
                        engine.title)

    async def clocks(self, game: GameRow) -> list[Clock]:
        """The seats' clocks of a running game (empty without a time control)."""
        if game.status != "running":
            return []
        out = []
        now = clocks.seconds(self.service.clock())
        for state in await self.service.clock_states(game):
            row = game.seat_row(state["seat"])
            if row is not None:
                deadline = state.get("deadline")
                out.append(Clock(state["seat"], row.name, state["state"], deadline,
                                 None if deadline is None else max(0, deadline - now)))
        return out

    async def board(self, game: GameRow, version: int) -> bytes:
        """The public board of ``game`` at ``version`` (its current one; GameError otherwise), as PNG."""
        key = ("board", game.id, version)
        found = self._pictures.get(key)
        if found is not None:
            return found
        if version != game.version:
            raise NotFound(version)

        async def make():
            _, view, _, _ = await self._view(game)
            png = await self._draw(game.engine, {**view, "player_names": self.service.names(game),
                                                 "lang": game.lang})
            self._keep_picture(key, png)
            return png

        return await self._once(key, make)

    # -- a person's record and the server's leaderboards ---------------------------------------------------

    async def records(self, guild_id: int, user_id: int) -> list[GameRecord]:
        """A person's record per game on a server, with their rating's course (the rating is recomputed from the
        games one by one, in a worker within the budget)."""
        played = await self.store.finished_games_of(user_id=user_id, guild_id=guild_id)
        out = []
        for key in ENGINES:
            if any(g.engine == key for g in played):
                games = _placings(await self.store.finished_games(engine=key, guild_id=guild_id))
                found = await self._work(record_of, key, games, user_id)
                if found is not None:
                    out.append(found)
        return out

    async def leaderboards(self, guild_id: int) -> dict[str, list[tuple[object, str]]]:
        """The best players of each game on a server: ``{engine: [(Rating, name)]}`` (kept for half a minute)."""
        key = ("boards", guild_id)
        found = self._views.get(key)
        now = asyncio.get_running_loop().time()
        if found is not None and now - found[0] < TABLE_TTL_S:
            return found[1]

        async def make():
            out = {}
            for engine in ENGINES:
                games = await self.store.finished_games(engine=engine, guild_id=guild_id)
                if not games:
                    continue
                names = {s.user_id: s.name for g in games for s in g.seats if s.user_id}
                rows = await self._work(leaderboard_of, _placings(games))
                out[engine] = [(r, names.get(r.player, "?")) for r in rows]
            self._views[key] = (asyncio.get_running_loop().time(), out)
            return out

        return await self._once(key, make)

    # -- a finished game's replay ------------------------------------------------------------------------

    async def replay(self, game: GameRow) -> Replay:
        """The replay of a finished game (GameError when it is not finished or its log does not replay)."""
        if game.status != "finished":
            raise GameError.of("replay_not_finished", game=game.id)
        if (problem := self.service.unreadable(game)) is not None:
            raise problem
        found = self._replays.get(game.id)
        if found is not None:
            return found

        async def make():
            actions = await self.store.actions(game.id)
            record = Record(engine=game.engine, seed=game.seed, num_players=game.num_players,
                            options=dict(game.options.get("engine") or {}),
                            rules_version=1 if game.rules_version is None else game.rules_version,
                            actions=as_played(actions),  # the final choices (host/undo.py)
                            names=self.service.names(game), lang=game.lang, game_id=game.id,
                            result=restepped(game.result, actions))
            lines, checkpoints = await self._work(index_replay, record)
            by_user = {s.user_id: s.name for s in game.seats if s.user_id}
            lines = [[scrub(line, by_user) for line in step] for step in lines]
            kind = CHAPTER_EVENTS.get(game.engine)
            chapters = [s for s, a in enumerate(record.actions, start=1)
                        if any(e.get("type") == kind for e in a.get("events") or [])]
            presenter = presenter_for(game.engine)
            # how it ended, by any way (host/ending.py): an adjudicated or walked-out game has no rules' result
            ended = ending_of(game.status, game.result)
            result_lines = [scrub(line, by_user) for line in presenter.ending_lines(ended, record.names)] \
                if ended is not None else []
            replay = Replay(game, record, lines, checkpoints, chapters, result_lines)
            self._replays[game.id] = replay
            return replay

        return await self._once(("replay", game.id), make)

    async def replay_picture(self, game: GameRow, step: int) -> bytes:
        """The public board after ``step`` actions of a finished game, as PNG."""
        key = ("step", game.id, step)
        found = self._pictures.get(key)
        if found is not None:
            return found
        replay = await self.replay(game)
        if not 0 <= step <= replay.steps:
            raise NotFound(step)

        async def make():
            view = await self._work(view_at, replay.record, replay.checkpoints, step)
            png = await self._draw(game.engine, {**view, "player_names": replay.record.names, "lang": game.lang})
            self._keep_picture(key, png)
            return png

        return await self._once(key, make)


# -- players and leaderboards ------------------------------------------------------------------------------

#: most points of a rating chart (a long history is thinned evenly, keeping the last)
CHART_POINTS = 200
LEADERBOARD_ROWS = 10
TABLE_TTL_S = 30.0


@dataclass
class GameRecord:
    """A person's record in one game on one server: the rating now, its course (after each of their games),
    games, wins, draws and rank among the server's players."""

    engine: str
    title: str
    rating: float
    games: int
    wins: int
    draws: int
    rank: int
    players: int
    history: list[float]


def _placings(games: list[GameRow]) -> list[list[tuple[int, int]]]:
    out = []
    for game in games:
        places = (game.result or {}).get("places") or []
        out.append([(s.user_id, places[s.seat]) for s in game.seats if s.user_id and s.seat < len(places)])
    return out


def record_of(engine: str, games: list[list[tuple[int, int]]], user_id: int) -> GameRecord | None:
    """``user_id``'s record over a server's finished games of ``engine`` (in the order they ended). Pure."""
    from tournaments.ratings import course, leaderboard

    history = course(games, user_id)
    board = leaderboard(games)
    for rank, r in enumerate(board, start=1):
        if r.player == user_id:
            if len(history) > CHART_POINTS:
                keep = {round(i * (len(history) - 1) / (CHART_POINTS - 1)) for i in range(CHART_POINTS)}
                history = [h for i, h in enumerate(history) if i in keep]
            return GameRecord(engine, ENGINES[engine].title, r.rating, r.games, r.wins, r.draws, rank, len(board),
                              history)
    return None


def leaderboard_of(games: list[list[tuple[int, int]]], rows: int = LEADERBOARD_ROWS) -> list:
    """The best ``rows`` ratings of a server's finished games of one kind. Pure."""
    from tournaments.ratings import leaderboard

    return leaderboard(games)[:rows]
