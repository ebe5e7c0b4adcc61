"""The tournament service: registration, rounds, results and ratings, without any Discord import.

Formats (``FORMATS``): ``swiss`` (a number of rounds paired by FIDE's Dutch system, tables of N for games of 3-6
players), ``elimination`` (a seeded knock-out bracket, optional third-place match; with ``double`` a double
elimination), ``roundrobin`` (Berger tables in rounds, optionally double) and ``league`` (the older round robin:
every match at once). Pairing, standings and tie-breaks are the pure ``tournaments`` package; pairing runs in a
worker (:class:`PairingWorker`) with a budget.
This service keeps everything in the store (the round being played, every match and its result, the organizer's
choices in the tournament's settings), so that a restart at any point carries on: :meth:`recover` finishes
whatever a crash interrupted (a match whose game is not open yet, a game over whose result was not counted, a
round over whose next round was not paired).

A round starts all its matches together; the next round is paired when the last match of the round ends. While
the tournament is paused, or when the organizer asked to review each round, the next round is paired and *held*:
its matches wait (no games) while the organizer swaps players, forbids pairs, grants byes or lets latecomers in
(a Swiss round held is paired again after such a change), and it starts with :meth:`start_round` (or
:meth:`resume`). A round may have a deadline (``round_hours``, on the game service's clock):
:meth:`settle_overdue` (called by the clock job) settles each match past it by its clock rules
(:meth:`deadline_places`). Results of earlier rounds can be corrected (:meth:`correct`): the standings and the
ratings follow, the rounds already paired stay as they were.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from engines import ENGINES, IllegalAction
from host import clock as clocks
from host import ending
from host.asker import Asker
from host.cache import Locks
from host.ending import Departure, Ending, How, ending_of
from host.errors import GameError
from host.locale import language, t, use_language
from host.outcome import Outcome
from host.presenters import presenter_for
from host.service import GameService
from host.service_core import MAX_ID, person, seat_row
from host.shards import Shards
from host.workers import exit_with_parent
from store import GameRow, MatchRow, Tournament
from tournaments import double as double_elimination
from tournaments import elimination, swiss
from tournaments.league import Row, round_robin, table
from tournaments.ratings import Rating, leaderboard, rate
from tournaments.roundrobin import berger
from tournaments.standings import (
    BYE,
    DEFAULT_TIEBREAKS,
    FORFEIT,
    HALF_BYE,
    PLAYED,
    TIEBREAKS,
    Result,
    Standing,
    check_tiebreaks,
    points,
    standings,
)

log = logging.getLogger(__name__)

FORMATS = ("swiss", "elimination", "roundrobin", "league")
MAX_ENTRIES = 8  # a league (all matches at once) of 8 is 28 games
MAX_CAP = 512
MAX_ROUNDS = 30
AI_NAME_SUFFIX = " (AI)"
#: how many games an elimination match may last (best of N)
BEST_OF = (3, 5, 7)
#: half-point byes a player may ask for in one tournament (never for its last round)
HALF_BYES_MAX = 2
#: what a match's ``how`` says about its result, for the standings
KINDS = {"bye": BYE, "half_bye": HALF_BYE, "forfeit": FORFEIT}
#: short names organizers type for the tie-breaks (``/tournament new tiebreaks:``)
TIEBREAK_NAMES = {"bh-c1": "buchholz_cut1", "c1": "buchholz_cut1", "cut1": "buchholz_cut1", "bh": "buchholz",
                  "buchholz": "buchholz", "sb": "sonneborn", "sonneborn": "sonneborn", "de": "direct",
                  "direct": "direct", "wins": "wins", "win": "wins", "rating": "rating",
                  **{k: k for k in TIEBREAKS}}


class EventError(GameError):
    """A refusal about a tournament that names its format, in the language of whoever is told
    (``text(locale)``)."""

    def __init__(self, key: str, event: Event, **fields) -> None:
        self.format, self.event_key = event.kind, key
        super().__init__(t(key, tournament=event.id, format=t(f"format_{event.kind}"), **fields), key,
                         {"tournament": event.id, **fields})

    def text(self, locale: object | None = None) -> str:
        lang = str(locale) if locale else None
        return t(self.event_key, lang, format=t(f"format_{self.format}", lang), **self.fields)


@dataclass
class Event:
    """A tournament as the service sees it: the stored row and what migration 6 added."""

    row: Tournament
    format: str = "league"
    settings: dict = field(default_factory=dict)
    round: int = 0
    paused: bool = False
    cancelled: bool = False
    message_id: int | None = None
    dropped: set[int] = field(default_factory=set)

    def __getattr__(self, name):  # id, engine, lang, status, guild_id, channel_id, organizer_id, entries
        return getattr(self.__dict__["row"], name)

    @property
    def kind(self) -> str:
        """The format as players name it: ``double_elimination`` for an elimination with ``double``."""
        return "double_elimination" if self.double_elimination else self.format

    @property
    def double_elimination(self) -> bool:
        return self.format == "elimination" and bool(self.settings.get("double"))

    @property
    def cap(self) -> int:
        return MAX_ENTRIES if self.format == "league" else int(self.settings.get("cap") or MAX_CAP)

    @property
    def table_size(self) -> int:
        return int(self.settings.get("table_size") or 2)

    @property
    def seeds(self) -> list[int]:
        return list(self.settings.get("seeds") or [u for u, _ in self.entries])

    @property
    def names(self) -> dict[int, str]:
        return dict(self.entries)

    @property
    def tiebreaks(self) -> tuple[str, ...]:
        """The organizer's tie-breaks (or FIDE's recommendation for the format)."""
        return tuple(self.settings.get("tiebreaks") or DEFAULT_TIEBREAKS.get(self.format, ()))

    @property
    def best_of(self) -> int:
        """Games a match of an elimination lasts at most (the first to win more than half goes through)."""
        return int(self.settings.get("best_of") or 1) if self.format == "elimination" else 1

    @property
    def held(self) -> int | None:
        """The round paired and waiting for the organizer to start it (None: none)."""
        return self.settings.get("held")

    @property
    def ratings(self) -> dict[int, float]:
        """Each entry's rating when the tournament started (players without one have none)."""
        return {int(k): v for k, v in (self.settings.get("ratings") or {}).items()}

    @property
    def forbidden(self) -> list[tuple[int, int]]:
        return [tuple(p) for p in self.settings.get("forbidden") or []]

    def half_byes(self, round_no: int) -> list[int]:
        """Players excused from round ``round_no`` with a half-point bye."""
        return self.all_half_byes().get(round_no, [])

    def all_half_byes(self) -> dict[int, list[int]]:
        """Players excused from a round with a half-point bye: round -> players."""
        return {int(k): list(v) for k, v in (self.settings.get("half_byes") or {}).items()}

    @property
    def checked_in(self) -> set[int] | None:
        """Who checked in (None: no check-in was asked for)."""
        return set(self.settings["checked_in"]) if self.settings.get("checkin") else None

    def total_rounds(self) -> int:
        """Rounds this tournament will have (elimination: of its bracket; round robin: of its schedule)."""
        count = len(self.seeds) if self.status != "open" else len(self.entries)
        if self.format == "swiss":
            return int(self.settings.get("rounds") or 1)
        if self.double_elimination:  # the grand final's reset, when it is played, is one more
            return double_elimination.total_rounds(count)
        if self.format == "elimination":
            return elimination.rounds_for(max(count, 2))
        if self.format == "roundrobin":
            return (count - 1 + count % 2) * (2 if self.settings.get("double") else 1)
        return 1

    def completed_rounds(self, matches_now: list[MatchRow]) -> int:
        """Rounds whose every match is settled (the current one counts when it is over)."""
        return self.round if matches_now and all(m.places is not None for m in matches_now) else \
            max(0, self.round - 1)


@dataclass
class Progress:
    """What a change did: the games of a newly paired round (their first boards), whether a round just ended
    (``round_over``: its number) and whether the tournament is now over."""

    event: Event
    started: list[Outcome] = field(default_factory=list)
    round_over: int | None = None
    finished: bool = False
    #: games whose board is owed: an AI took a seat over, or the game was ended outside play (its last board)
    changed: list[int] = field(default_factory=list)
    #: a round paired and held for the organizer (its number), and whether it was paired anew
    held: int | None = None
    #: what the tournament's channel should be told besides: (locale key, fields) each, and whom to mention
    notes: list[tuple[str, dict]] = field(default_factory=list)
    #: ``started`` holds the next game of a best-of-N match (not a new round): this says so (key, fields)
    series: tuple[str, dict] | None = None
    mention: list[int] = field(default_factory=list)


@dataclass
class MyMatch:
    tournament: int
    round: int
    match_id: int
    game_id: int | None
    opponents: list[str]
    status: str  # 'bye', 'playing', 'won', 'lost', 'drawn', 'placed'
    place: int | None = None


def deadline_places(count: int, waiting: set[int]) -> list[int]:
    """Places at a round's deadline of a match of ``count`` seats that waits for ``waiting`` (see
    :meth:`TournamentService.deadline_places`)."""
    if not waiting or len(waiting) >= count:
        return [1] * count
    return [count - len(waiting) + 1 if s in waiting else 1 for s in range(count)]


class PairingWorker:
    """Pairs rounds off the event loop. With ``processes`` > 0 (the bot: ``RENDER_PROCESSES``) in one spawned
    worker process, so that neither the loop nor the GIL waits for it; else in a thread (tests, scripts). The
    pairing keeps its own budget (``swiss.BUDGET``) and falls back to a fast legal pairing inside; a worker that
    has not answered ``GRACE`` seconds after that is stopped, and the fallback pairs the round in a thread."""

    GRACE = 10.0

    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        #: rounds paired by the fallback because the worker had to be stopped (tests and metrics read it)
        self.stopped = 0

    async def plan(self, *args, budget: float = swiss.BUDGET, **kwargs) -> swiss.Plan:
        job = functools.partial(swiss.plan_round, *args, budget=budget, **kwargs)
        try:
            if self.processes <= 0:
                return await asyncio.wait_for(asyncio.to_thread(job), budget + self.GRACE)
            if self._pool is None:
                self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                                 initializer=exit_with_parent)
            return await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(self._pool, job),
                                          budget + self.GRACE)
        except (TimeoutError, BrokenProcessPool):
            log.error("pairing a round took longer than %.0f s: its worker was stopped, the fallback pairs it",
                      budget + self.GRACE)
            self.stopped += 1
            self.close()
            return await asyncio.to_thread(functools.partial(swiss.plan_round, *args, budget=0, **kwargs))

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            for process in list(getattr(pool, "_processes", {}).values()):  # a stuck job: stop it for good
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)


#: a match of a round: (slot, players in seat order, places when decided without play, how: bye, forfeit...)
Pairing = tuple[int, list[int], list[int] | None, str | None]


def _roundrobin_pairings(event: Event, round_no: int) -> list[Pairing]:
    """A round of the Berger schedule; a table whose opponent dropped is a forfeit win or a bye."""
    schedule = berger(event.seeds, double=bool(event.settings.get("double")))
    out: list[Pairing] = []
    for group in schedule[round_no - 1]:
        players = [p for p in group if p not in event.dropped]
        if len(group) == 2 and len(players) == 1:  # the opponent dropped: a forfeit win
            out.append((len(out), list(group), [2 if p in event.dropped else 1 for p in group], "forfeit"))
        elif len(players) == 2:
            out.append((len(out), list(group), None, None))
        elif len(players) == 1:
            out.append((len(out), players, [1], "bye"))
    return out


class TournamentService:
    """Tournaments over a :class:`GameService` (whose games are the matches). One lock per tournament."""

    def __init__(self, games: GameService, pairing: PairingWorker | None = None) -> None:
        self.games = games
        self.store = games.store
        self._locks = Locks()
        self.pairing = pairing or PairingWorker()

    def lock(self, tournament_id: int) -> asyncio.Lock:
        return self._locks(tournament_id)

    # -- reading ------------------------------------------------------------------------------------

    async def tournament(self, tournament_id: int, asker: Asker | None = None) -> Event:
        """A tournament, fenced like games (see :class:`Asker`): visible on its own server, and in a direct
        message to its entries only."""
        found = await self.store.tournament(tournament_id) if 0 < tournament_id <= MAX_ID else None
        if found is None or not (asker is None or (
                found.guild_id == asker.guild_id if asker.guild_id is not None
                else any(u == asker.user_id for u, _ in found.entries))):
            raise GameError.of("no_tournament", tournament=tournament_id)
        use_language(found.lang)
        extra = await self.store.tournament_extra(tournament_id) or {}
        return Event(found, extra.get("format", "league"), extra.get("settings", {}), extra.get("current_round", 0),
                     extra.get("paused", False), extra.get("cancelled", False), extra.get("message_id"),
                     extra.get("dropped", set()))

    async def results(self, event: Event) -> list[Result]:
        """The results that count, from the matches (the league: from its games)."""
        if event.format == "league":
            out = []
            for game in await self.store.tournament_games(event.id):
                ended = ending_of(game.status, game.result)
                places = list(ended.places or []) if ended is not None else []
                if game.status == "finished" and len(places) == 2:
                    out.append(Result(1, (person(game, 0), person(game, 1)), tuple(places)))
            return out
        return [Result(m.round, tuple(m.players), tuple(m.places), KINDS.get(m.how or "", PLAYED))
                for m in await self.store.matches(event.id) if m.places is not None]

    async def standings(self, tournament_id: int, asker: Asker | None = None,
                        ) -> tuple[Event, list[tuple[Standing, str]]]:
        """The table with names: points, then the tournament's tie-breaks (elimination: by how far each got,
        see :func:`tournaments.elimination.final_places` once it is over)."""
        event = await self.tournament(tournament_id, asker)
        rows = await self._table(event)
        if event.format == "elimination" and event.status == "finished" and not event.cancelled:
            order = [p for group in await self._bracket_places(event) for p in group]
            rank = {p: i for i, p in enumerate(order)}
            rows.sort(key=lambda r: rank.get(r.player, len(rank)))
            for i, row in enumerate(rows, start=1):
                row.place = i
        names = event.names
        return event, [(r, names.get(r.player, str(r.player))) for r in rows]

    async def _table(self, event: Event) -> list[Standing]:
        results = await self.results(event)
        done = event.completed_rounds(await self.store.matches(event.id, event.round)) if event.round else 0
        return standings(event.seeds, results, event.dropped, tiebreaks=event.tiebreaks, ratings=event.ratings,
                         rounds=done)

    async def _bracket_places(self, event: Event) -> list[list[int]]:
        matches = await self.store.matches(event.id)
        done = [(elimination.Match(m.round, m.slot, tuple(m.players)),
                 tuple(m.places) if m.places else None) for m in matches]
        if event.double_elimination:
            return double_elimination.final_places(event.seeds, done)
        return elimination.final_places(event.seeds, done)

    async def bracket(self, tournament_id: int, asker: Asker | None = None) -> tuple[Event, list[dict]]:
        """Every match so far, with names (for the pictures)."""
        event = await self.tournament(tournament_id, asker)
        names = event.names
        out = []
        for m in await self.store.matches(event.id):
            out.append({**asdict(m), "names": [names.get(p, str(p)) for p in m.players]})
        return event, out

    async def podium(self, tournament_id: int) -> list[list[str]]:
        """Names on the first three places of a finished tournament."""
        event, rows = await self.standings(tournament_id)
        if event.format == "elimination":
            names = event.names
            return [[names.get(p, str(p)) for p in group] for group in (await self._bracket_places(event))[:3]]
        from tournaments.standings import podium
        names = dict((r.player, n) for r, n in rows)
        return [[names[p] for p in group] for group in podium([r for r, _ in rows])]

    async def my_matches(self, user_id: int, asker: Asker) -> list[MyMatch]:
        """The asker's matches in the tournaments they entered on this server (the current round first)."""
        out: list[MyMatch] = []
        for tid in await self.store.tournaments_of(user_id, asker.guild_id):
            event = await self.tournament(tid)
            names = event.names
            for m in reversed(await self.store.matches(tid)):
                if user_id not in m.players:
                    continue
                i = m.players.index(user_id)
                others = [names.get(p, str(p)) for p in m.players if p != user_id]
                if len(m.players) == 1:
                    status, place = "bye", None
                elif m.places is None:
                    status, place = "playing", None
                else:
                    place = m.places[i]
                    score = points(m.places, i)
                    status = ("won" if score == 1 else "lost" if score == 0 else "drawn") \
                        if len(m.players) == 2 else "placed"
                out.append(MyMatch(tid, m.round, m.id, m.game_id, others, status, place))
        return out

    # -- registration -------------------------------------------------------------------------------

    async def create(self, key: str, *, user_id: int, user_name: str, guild_id: int | None,
                     channel_id: int | None, lang: str | None = None, format: str = "league",
                     rounds: int | None = None, cap: int | None = None, table_size: int | None = None,
                     third_place: bool = False, double: bool = False, round_hours: int | None = None,
                     time_control: str | None = None, options: dict | None = None,
                     tiebreaks: str | None = None, review: bool = False, best_of: int | None = None) -> Event:
        """A tournament of ``key`` open for registration; its organizer is its first entry. Game ``options``
        are checked now, as for a game (``players`` is the table size); ``time_control`` must be one offered
        (``host.clock.TIME_CONTROLS``); ``tiebreaks``: names or short names (bh-c1, bh, sb, de, wins, rating)
        separated by commas or spaces; ``review``: hold every round for the organizer to start."""
        use_language(lang)
        if guild_id is None:
            raise GameError.of("server_only")  # a tournament outside a server: nobody could join it
        if key not in ENGINES:
            raise GameError.of("unknown_game", key=key[:40])
        if format not in FORMATS:
            raise GameError.of("tournament_bad_format", format=str(format)[:20])
        engine = ENGINES[key]
        size = table_size or 2
        if format != "swiss" and size != 2:
            raise GameError.of("tournament_tables_swiss_only")
        if not engine.min_players <= size <= engine.max_players:
            raise GameError.of("tournament_bad_table", title=engine.title, min=engine.min_players,
                               max=engine.max_players)
        if format == "swiss" and not 1 <= (rounds or 0) <= MAX_ROUNDS:
            raise GameError.of("tournament_bad_rounds", max=MAX_ROUNDS)
        if cap is not None and not 2 <= cap <= MAX_CAP:
            raise GameError.of("tournament_bad_cap", max=MAX_CAP)
        if round_hours is not None and not 1 <= round_hours <= 24 * 60:
            raise GameError.of("tournament_bad_hours")
        if time_control and time_control not in clocks.TIME_CONTROLS:
            raise GameError.of("tournament_bad_time_control", control=time_control[:20],
                               offered=", ".join(clocks.TIME_CONTROLS))
        if double and third_place and format == "elimination":
            raise GameError.of("tournament_double_no_third")
        if best_of not in (None, 1, *BEST_OF) or (best_of not in (None, 1) and format != "elimination"):
            raise GameError.of("tournament_bad_best_of", offered=", ".join(map(str, BEST_OF)))
        order = parse_tiebreaks(tiebreaks) if tiebreaks else None
        engine_options = self._check_options(key, dict(options or {}), size)
        settings = {"rounds": rounds if format == "swiss" else None, "cap": cap, "table_size": size,
                    "third_place": bool(third_place), "double": bool(double), "round_hours": round_hours,
                    "time_control": (time_control or "")[:40] or None, "options": engine_options,
                    "tiebreaks": list(order) if order is not None else None, "review": bool(review),
                    "best_of": best_of or 1}
        limits = self.games.limits
        async with limits.lock(guild_id):  # counted and stored together: a flood cannot all see room
            await limits.check_tournaments(guild_id, channel_id, user_id)
            tid = await self.store.create_event(engine=key, lang=language(lang), guild_id=guild_id,
                                                channel_id=channel_id, organizer_id=user_id,
                                                organizer_name=user_name, format=format, settings=settings)
        return await self.tournament(tid)

    @staticmethod
    def _check_options(key: str, raw: dict, size: int) -> dict:
        presenter = presenter_for(key)
        raw.pop("players", None)
        try:
            try:
                _, engine_options = presenter.engine_options(dict(raw), opponent="open")
            except TypeError:
                _, engine_options = presenter.engine_options(dict(raw))
            presenter.check_options(raw)
            ENGINES[key].new_game(size, 0, dict(engine_options))
        except (ValueError, IllegalAction) as exc:
            raise GameError(str(exc)) from exc
        return engine_options

    async def join(self, tournament_id: int, user_id: int, user_name: str, asker: Asker | None = None) -> Event:
        """Enter an open tournament (up to its cap); while check-in is open, entering checks in too. A running
        Swiss takes latecomers until half its rounds are paired (:meth:`late_join`)."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            if event.status == "running" and event.format == "swiss":
                return (await self._late_join(event, user_id, user_name)).event
            if event.status != "open":
                raise EventError("tournament_started", event)
            if any(u == user_id for u, _ in event.entries):
                raise EventError("tournament_already_in", event)
            if len(event.entries) >= event.cap:
                raise EventError("tournament_full", event, max=event.cap)
            await self.store.add_entry(tournament_id, user_id, user_name)
            if event.checked_in is not None:
                await self._settings(event, checked_in=sorted(event.checked_in | {user_id}))
            return await self.tournament(tournament_id)

    async def late_join(self, tournament_id: int, user_id: int, user_name: str, asker: Asker | None = None,
                        ) -> Progress:
        """Enter a running Swiss: allowed until half its rounds are paired (so the latecomer plays at least half
        of them); the rounds missed count as unplayed (no points; FIDE's rules for the tie-breaks), and the
        latecomer is seeded after everybody. A round held for the organizer is paired again with them in it."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            return await self._late_join(event, user_id, user_name)

    async def _late_join(self, event: Event, user_id: int, user_name: str) -> Progress:
        if event.status != "running" or event.format != "swiss":
            raise EventError("tournament_started", event)
        if any(u == user_id for u, _ in event.entries):
            raise EventError("tournament_already_in", event)
        paired = event.round - (1 if event.held else 0)
        if paired > event.total_rounds() // 2:
            raise EventError("tournament_late_closed", event, rounds=event.total_rounds() // 2)
        if len(event.entries) >= event.cap:
            raise EventError("tournament_full", event, max=event.cap)
        await self.store.add_entry(event.id, user_id, user_name)
        await self._settings(event, seeds=[*event.seeds, user_id])
        event = await self.tournament(event.id)
        progress = await self._repair(event) if event.held else Progress(event)
        progress.notes.append(("event_late_joined", {"name": user_name, "round": paired + 1}))
        return progress

    async def leave(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Event:
        """Withdraw before the start (the organizer cancels instead)."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            if event.status != "open":
                raise GameError.of("tournament_leave_started", tournament=tournament_id)
            if not any(u == user_id for u, _ in event.entries):
                raise GameError.of("tournament_not_in", tournament=tournament_id)
            if user_id == event.organizer_id:
                raise GameError.of("tournament_organizer_stays", tournament=tournament_id)
            await self.store.remove_entry(tournament_id, user_id)
            return await self.tournament(tournament_id)

    async def open_checkin(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Event:
        """The organizer asks the entries to check in (Challonge's check-in): at the start, whoever has not
        checked in is left out. The organizer is checked in."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            self._organizer(event, user_id, asker)
            if event.status != "open":
                raise EventError("tournament_started", event)
            if event.checked_in is not None:
                raise EventError("tournament_checkin_open", event)
            await self._settings(event, checkin=True, checked_in=[event.organizer_id])
            return await self.tournament(tournament_id)

    async def check_in(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Event:
        """An entry confirms they will play."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            if event.status != "open":
                raise EventError("tournament_started", event)
            if event.checked_in is None:
                raise EventError("tournament_no_checkin", event)
            if user_id not in event.names:
                raise GameError.of("tournament_not_in", tournament=tournament_id)
            if user_id in event.checked_in:
                raise EventError("tournament_checked_in_already", event)
            await self._settings(event, checked_in=sorted(event.checked_in | {user_id}))
            return await self.tournament(tournament_id)

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the registration message (to update it after a restart)."""
        await self.store.update_tournament(tournament_id, message_id=message_id)

    def _organizer(self, event: Event, user_id: int, asker: Asker | None) -> None:
        moderator = asker is not None and asker.moderator and asker.guild_id is not None
        if user_id != event.organizer_id and not moderator:
            raise EventError("tournament_only_organizer", event)

    async def _settings(self, event: Event, **changes) -> None:
        """Change some of a tournament's settings (the caller holds its lock)."""
        await self.store.update_tournament(event.id, settings={**event.settings, **changes})

    # -- starting and rounds ------------------------------------------------------------------------

    async def start(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Progress:
        """The organizer starts. With check-in asked for, those who did not check in are left out. Seeds by
        rating (this server, this game); players without a rating yet are seeded after everybody rated, in the
        order they joined. A Swiss of more rounds than a player has opponents is cut to that many (more would
        force rematches), and says so. Then round 1 (the league: every match at once)."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            if event.status != "open":
                raise EventError("tournament_started", event)
            if user_id != event.organizer_id:
                raise EventError("tournament_only_organizer", event)
            notes: list[tuple[str, dict]] = []
            entries = event.entries
            if event.checked_in is not None:
                entries = [(u, n) for u, n in event.entries if u in event.checked_in]
            need = max(2, event.table_size if event.format == "swiss" else 2)
            if len(entries) < need:
                raise EventError("tournament_need_players", event, min=need)
            left_out = [(u, n) for u, n in event.entries if (u, n) not in entries]
            for u, _ in left_out:
                await self.store.remove_entry(tournament_id, u)
            if left_out:
                notes.append(("event_checkin_left_out", {"names": ", ".join(n for _, n in left_out)}))
            if event.format == "league":
                progress = await self._start_league(await self.tournament(tournament_id))
                progress.notes = notes
                return progress
            ratings = rate(await self._rating_history(event.engine, event.guild_id))
            joined = {u: i for i, (u, _) in enumerate(entries)}
            rated = {u: ratings[u].rating for u in joined if u in ratings}
            seeds = sorted(joined, key=lambda u: (u not in rated, -rated.get(u, 0), joined[u]))
            settings = {**event.settings, "seeds": seeds, "ratings": {str(u): r for u, r in rated.items()}}
            if event.format == "swiss":
                most = max(1, (len(seeds) - 1) // (event.table_size - 1))
                if event.total_rounds() > most:
                    notes.append(("event_rounds_capped", {"asked": event.total_rounds(), "rounds": most,
                                                          "players": len(seeds)}))
                    settings["rounds"] = most
            await self.store.update_tournament(tournament_id, status="running", settings=settings)
            event = await self.tournament(tournament_id)
            progress = await self._next_round(event)
            progress.notes = notes + progress.notes
            return progress

    async def _start_league(self, league: Event) -> Progress:
        """Every entry plays every other once, all matches at once: one two-player game per pair."""
        await self.store.set_tournament_status(league.id, "running")
        names = league.names
        outcomes = []
        for first, second in round_robin([u for u, _ in league.entries]):
            game_id = await self.store.create_game(
                engine=league.engine, options={"engine": dict(league.settings.get("options") or {}), "players": 2,
                                               "lang": league.lang, "clock": _match_clock(league)},
                seed=self.games._seed(), num_players=2, guild_id=league.guild_id, channel_id=league.channel_id,
                host_user_id=first)
            await self.store.link_game(game_id, league.id)
            await self.store.set_seat(game_id, 0, user_id=first, name=names[first])
            await self.store.set_seat(game_id, 1, user_id=second, name=names[second])
            outcomes.append(await self.games.start(game_id, first))
        return Progress(await self.tournament(league.id), outcomes)

    async def _pairings(self, event: Event, round_no: int) -> list[Pairing]:
        """The matches of round ``round_no``: (slot, players in seat order, places for a bye, how)."""
        if event.format == "swiss":
            return await self._swiss_pairings(event, round_no)
        if event.format == "roundrobin":
            return _roundrobin_pairings(event, round_no)
        return await self._bracket_pairings(event, round_no)

    async def _swiss_pairings(self, event: Event, round_no: int) -> list[Pairing]:
        """A Swiss round (tournaments/pairing.py): its tables, then byes and the half-byes asked for."""
        excused = [p for p in event.half_byes(round_no) if p in event.names and p not in event.dropped]
        engine = ENGINES[event.engine]
        plan = await self.pairing.plan(event.seeds, await self.results(event), round_no,
                                       table_size=event.table_size, min_table=max(2, engine.min_players),
                                       dropped=sorted(event.dropped), absent=excused, forbidden=event.forbidden)
        if plan.method != "dutch" or plan.relaxed:
            log.warning("tournament %s round %s paired by %s (relaxed: %s)", event.id, round_no, plan.method,
                        ", ".join(plan.relaxed) or "nothing")
        tables, byes = plan.tables, plan.byes
        out: list[Pairing] = [(slot, list(t), None, None) for slot, t in enumerate(tables)]
        out += [(len(out) + i, [p], [1], "bye") for i, p in enumerate(byes)]
        out += [(len(out) + i, [p], [1], "half_bye") for i, p in enumerate(excused)]
        return out

    async def _bracket_pairings(self, event: Event, round_no: int) -> list[Pairing]:
        """A round of a single or double elimination bracket; a dropped player's opponent goes through."""
        seeds = event.seeds
        if event.double_elimination:
            done: list[tuple[elimination.Match, tuple[int, ...] | None]] = [
                (elimination.Match(m.round, m.slot, tuple(m.players)),
                 tuple(m.places) if m.places is not None else None)
                for m in await self.store.matches(event.id) if m.round < round_no]
            bracket = double_elimination.round_matches(seeds, done, round_no, seats=await self._seat0(event))
        elif round_no == 1:
            bracket = elimination.first_round(seeds)
        else:
            matches = await self.store.matches(event.id, round_no - 1)
            done = [(elimination.Match(m.round, m.slot, tuple(m.players)),
                     tuple(m.places) if m.places is not None else None) for m in matches]  # (typed above)
            bracket = elimination.next_round(seeds, done, third_place=bool(event.settings.get("third_place")),
                                             seats=await self._seat0(event))
        out: list[Pairing] = []
        for m in bracket:
            live = [p for p in m.players if p not in event.dropped]
            if len(m.players) == 1:
                out.append((m.slot, list(m.players), [1], "bye"))
            elif len(live) < 2:  # somebody dropped: the other goes through (both gone: the higher seed)
                winner = live[0] if live else m.players[0]
                out.append((m.slot, list(m.players), [1 if p == winner else 2 for p in m.players], "forfeit"))
            else:
                out.append((m.slot, list(m.players), None, None))
        return out

    async def _seat0(self, event: Event) -> dict[int, int]:
        """Games each player has had seat 0 in so far (two-player matches)."""
        seat0: dict[int, int] = {}
        for r in await self.results(event):
            if len(r.players) == 2:
                seat0[r.players[0]] = seat0.get(r.players[0], 0) + 1
        return seat0

    def _finished_all(self, event: Event, matches_next: list | None) -> bool:
        if event.format == "elimination":
            return matches_next == []
        return event.round >= event.total_rounds()

    def _deadline(self, event: Event) -> datetime | None:
        hours = event.settings.get("round_hours")
        return self.games.clock() + timedelta(hours=hours) if hours else None

    async def _next_round(self, event: Event) -> Progress:
        """Pair the next round (or end the tournament), create its games and start them - or hold it for the
        organizer (paused, or reviewing every round); the caller holds the tournament's lock and has checked that
        the current round is over."""
        round_no = event.round + 1
        pairing: list[Pairing]
        if event.round and event.format != "elimination" and self._finished_all(event, None):
            pairing = []
        elif len([p for p in event.seeds if p not in event.dropped]) < 2 and event.format != "elimination":
            pairing = []
        else:
            pairing = await self._pairings(event, round_no)
        if not pairing:
            await self.store.set_tournament_status(event.id, "finished")
            return Progress(await self.tournament(event.id), finished=True, round_over=event.round or None)
        hold = (event.paused or event.settings.get("review")) and any(p is None for _, _, p, _ in pairing)
        await self.store.add_round(event.id, round_no, pairing, None if hold else self._deadline(event))
        event = await self.tournament(event.id)
        if hold:
            await self._settings(event, held=round_no)
            return Progress(await self.tournament(event.id), held=round_no)
        progress = Progress(event)
        progress.started = await self._open_games(event)
        if all(m.places is not None for m in await self.store.matches(event.id, round_no)):
            # a round of byes and forfeits only (everybody else dropped): on to the next
            more = await self._next_round(event)
            more.started = progress.started + more.started
            return more
        return progress

    async def _repair(self, event: Event) -> Progress:
        """Pair the held round of a Swiss again (somebody joined, asked for a bye, dropped, or a pair was
        forbidden): the organizer's manual changes to it are undone, and the progress says so."""
        round_no = event.held
        if round_no is None:
            raise EventError("tournament_no_held_round", event)
        pairing = await self._pairings(event, round_no)
        if not await self.store.replace_round(event.id, round_no, pairing):
            raise EventError("tournament_round_started", event)
        edited = event.settings.get("edited") == round_no
        await self._settings(event, edited=None)
        progress = Progress(await self.tournament(event.id), held=round_no)
        if edited:
            progress.notes.append(("event_round_repaired_edits", {"round": round_no}))
        return progress

    async def _open_games(self, event: Event) -> list[Outcome]:
        """Open and start the games of the current round that are not open/started yet (idempotent; a held
        round has none)."""
        outcomes: list[Outcome] = []
        if event.held == event.round:
            return outcomes
        names = event.names
        for m in await self.store.matches(event.id, event.round):
            if m.places is not None:
                continue
            game_id = m.game_id
            if game_id is None:
                game_id = await self.store.open_match_game(
                    m.id, tournament_id=event.id, engine=event.engine,
                    options={"engine": dict(event.settings.get("options") or {}), "players": len(m.players),
                             "lang": event.lang, "tournament_match": m.id, "clock": _match_clock(event)},
                    seed=self.games._seed(), guild_id=event.guild_id, channel_id=event.channel_id,
                    seats=[(p, names.get(p, str(p))) for p in m.players])
            game = await self.games.game(game_id)
            if game.status == "lobby":
                outcomes.append(await self.games.start(game_id, game.host_user_id))
            elif game.status in ("finished", "abandoned"):
                following = await self._count(event, m, game)
                if following is not None:
                    outcomes.append(following[0])
        return outcomes

    async def _count(self, event: Event, match: MatchRow, game: GameRow) -> tuple[Outcome, tuple[str, dict]] | None:
        """Record a finished (or abandoned) match game's places, as its ending says (host/ending.py: players
        who left, a dropped one among them, are placed by the order of leaving). A dropped player whose seat
        the AI took over before endings were recorded is placed last. A best-of-N match counts its games instead
        (:meth:`_series`): it may go on with a next game, returned with what to say about it."""
        if event.best_of > 1 and len(match.players) == 2:
            return await self._series(event, match)
        ended = ending_of(game.status, game.result)
        places = list(ended.places) if ended is not None and ended.places is not None else []
        if len(places) != len(match.players):
            places = [1] * len(match.players)  # ended without a result: level, unless adjudicated
        placed = {d.seat for d in ended.left} if ended is not None else set()
        worst = max(places) + 1
        places = [worst if p in event.dropped and seat not in placed else place
                  for seat, (p, place) in enumerate(zip(match.players, places))]
        await self.store.settle_match(match.id, places, "played")
        return None

    async def series_score(self, event: Event, match_id: int, players: list[int]
                           ) -> tuple[dict[int, int], list[GameRow]]:
        """Games won by each of the ``players`` of a best-of-N match so far (a drawn or abandoned game counts for
        nobody), and the match's games."""
        games = await self.store.match_games(event.id, match_id)
        wins = dict.fromkeys(players, 0)
        for g in games:
            places = (g.result or {}).get("places") or []
            if g.status != "finished" or len(places) != 2 or places[0] == places[1]:
                continue
            winner = seat_row(g, places.index(1)).user_id
            if winner in wins:
                wins[winner] += 1
        return wins, games

    async def _series(self, event: Event, match: MatchRow) -> tuple[Outcome, tuple[str, dict]] | None:
        """A best-of-N match after one of its games: decided when a player has won more than half of N games (or
        after 2N games, drawn ones included: then the most wins, level going to the higher seed); else its next
        game starts, the seats swapped."""
        wins, games = await self.series_score(event, match.id, match.players)
        if any(g.status not in ("finished", "abandoned") for g in games):
            return None
        need = event.best_of // 2 + 1
        players = match.players
        if max(wins.values()) >= need or len(games) >= 2 * event.best_of:
            top = max(wins.values())
            await self.store.settle_match(match.id, [1 if wins[p] == top else 2 for p in players], "played")
            return None
        last = games[-1]
        names = event.names
        seats = [person(last, s.seat) for s in sorted(last.seats, key=lambda s: s.seat)][::-1]
        game_id = await self.store.next_match_game(
            match.id, last.id, tournament_id=event.id, engine=event.engine,
            options={"engine": dict(event.settings.get("options") or {}), "players": 2, "lang": event.lang,
                     "tournament_match": match.id, "clock": _match_clock(event)},
            seed=self.games._seed(), guild_id=event.guild_id, channel_id=event.channel_id,
            seats=[(p, names.get(p, str(p))) for p in seats])
        if game_id is None:  # counted meanwhile
            return None
        outcome = await self.games.start(game_id, seats[0])
        score = " – ".join(f"{names.get(p, str(p))} {wins[p]}" for p in players)
        return outcome, ("event_series_next", {"tournament": event.id, "match": match.id,
                                               "game": len(games) + 1, "best_of": event.best_of, "score": score})

    async def _end_game(self, game_id: int, how: Ending, key: str, **fields) -> bool:
        """End a match game still being played from outside play with the ending ``how`` (host/ending.py:
        adjudicated, a round's deadline, a dropped player - finished with its places; a cancelled tournament -
        abandoned), and owe its thread a last board (no buttons) saying how, in the game's language, with its
        players mentioned: the line ``key`` with ``fields``, then the result. Returns whether a board is owed
        (the cog publishes it; after a crash the background publisher does)."""
        game = await self.games.game(game_id)
        line = t(key, game.lang, **fields)
        if game.status == "finished" and how.how is How.ADJUDICATED:
            # the organizer decides a match that was played out: its game says so, as the table will
            await self.games.end(game_id, how, publish=[line], overrule=True)
            return True
        if game.status not in ("lobby", "running"):
            return False
        if game.status == "lobby":  # never shown: no board to end
            await self.games.abandon(game_id, 0, moderator=True)
            return False
        # one transaction: a crash can never leave the match ended without its last board owed
        if how.has_result:
            await self.games.end(game_id, how, publish=[line])
            return True
        players = [s.user_id for s in game.seats if s.user_id]
        await self.games.abandon(game_id, 0, moderator=True, note=how.note, publish=[
            line, t("event_game_ended", game.lang, game=game_id, mentions=" ".join(f"<@{u}>" for u in players))])
        return True

    async def _after_settle(self, event: Event) -> Progress:
        """With the lock held: when the current round is over, pair the next one (held while paused). The end
        of a round is told once (``settings.announced``), however often this is called."""
        event = await self.tournament(event.id)
        if event.status != "running" or event.format == "league" or event.held:
            return Progress(event)
        current = await self.store.matches(event.id, event.round)
        if any(m.places is None for m in current):
            return Progress(event)
        fresh = (event.settings.get("announced") or 0) < event.round
        if fresh:
            await self._settings(event, announced=event.round)
            event = await self.tournament(event.id)
        progress = await self._next_round(event)
        progress.round_over = event.round if fresh else None
        return progress

    async def match_over(self, game: GameRow) -> Progress:
        """A match game has ended: count it, and pair the next round when it was the round's last."""
        tournament_id = game.tournament_id
        if tournament_id is None:
            raise ValueError(f"game {game.id} is not a tournament's")
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id)
            if event.format == "league":
                return Progress(await self._league_progress(event))
            match = await self.store.match_of_game(game.id)
            game = await self.games.game(game.id)
            if match is None or game.status not in ("finished", "abandoned") or event.status != "running":
                return Progress(event)
            if match.places is None:
                following = await self._count(event, match, game)
                if following is not None:  # the match goes on with its next game
                    return Progress(event, started=[following[0]], series=following[1])
            return await self._after_settle(event)

    async def _league_progress(self, league: Event) -> Event:
        games = await self.store.tournament_games(league.id)
        over = sum(1 for g in games if g.status in ("finished", "abandoned"))
        if league.status == "running" and games and over == len(games):
            await self.store.set_tournament_status(league.id, "finished")
        return await self.tournament(league.id)

    async def recover(self, tournament_id: int | None = None, *, shards: Shards | None = None) -> list[Progress]:
        """After a restart: for every running tournament (or one), open and start the current round's games
        that a crash left unopened, count games that ended unseen, and pair the next round when it is due.
        ``shards``: only the tournaments of these shards' servers (host/shards.py; a tournament's games are on
        its server)."""
        ids = ([tournament_id] if tournament_id is not None
               else await self.store.running_tournaments(shards=shards))
        out = []
        for tid in ids:
            async with self.lock(tid):
                event = await self.tournament(tid)
                if event.status != "running" or event.format == "league":
                    continue
                started = await self._open_games(event)
                progress = await self._after_settle(event)
                progress.started = started + progress.started
                if progress.started or progress.round_over or progress.finished:
                    out.append(progress)
        return out

    # -- the organizer's tools ------------------------------------------------------------------------

    async def _running(self, tournament_id: int, user_id: int, asker: Asker | None) -> Event:
        event = await self.tournament(tournament_id, asker)
        self._organizer(event, user_id, asker)
        if event.status != "running":
            raise GameError.of("tournament_not_running", tournament=tournament_id)
        if event.format == "league":
            raise GameError.of("tournament_league_fixed", tournament=tournament_id)
        return event

    async def drop(self, tournament_id: int, user_id: int, player_id: int, asker: Asker | None = None) -> Progress:
        """Drop a player (the organizer; or a player themselves): not paired again; a two-player match being
        played is forfeited at once (the game ends), at a larger table the AI plays the seat on and the
        dropped player is placed last."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            if player_id != user_id:
                self._organizer(event, user_id, asker)
            if event.status != "running":
                raise GameError.of("tournament_not_running", tournament=tournament_id)
            if event.format == "league":
                raise GameError.of("tournament_league_fixed", tournament=tournament_id)
            if player_id not in event.names:
                raise GameError.of("tournament_not_entry", tournament=tournament_id)
            if player_id in event.dropped:
                raise GameError.of("tournament_already_dropped", tournament=tournament_id)
            await self.store.set_dropped(tournament_id, player_id)
            event = await self.tournament(tournament_id)
            if event.held and event.format == "swiss":  # the round waiting for the organizer is paired again
                return await self._repair(event)
            changed: list[int] = []
            for m in await self.store.matches(tournament_id, event.round):
                if m.places is not None or player_id not in m.players:
                    continue
                if len(m.players) == 2:
                    names = event.names
                    winner = next(p for p in m.players if p != player_id)
                    places = [2 if p == player_id else 1 for p in m.players]
                    how = ending.decided(How.DROPPED, places, [Departure(m.players.index(player_id), How.DROPPED)],
                                         tournament=tournament_id, match=m.id)
                    if m.game_id is not None and await self._end_game(
                            m.game_id, how, "event_end_dropped", name=names.get(player_id, str(player_id)),
                            tournament=tournament_id, match=m.id, winner=names.get(winner, str(winner))):
                        changed.append(m.game_id)
                    await self.store.settle_match(m.id, places, "forfeit")
                elif m.game_id is not None:
                    game = await self.games.game(m.game_id)
                    if game.status == "running" and game.seat_of(player_id) is not None:
                        # the player leaves the table (placed by the order of leaving); the AI finishes the seat
                        await self.games.drop(m.game_id, player_id)
                        changed.append(m.game_id)
            progress = await self._after_settle(event)
            progress.changed = changed
            return progress

    async def adjudicate(self, tournament_id: int, user_id: int, match_id: int, places: list[int],
                         asker: Asker | None = None) -> Progress:
        """The organizer decides a match of the current round (its game, if still on, ends without counting)."""
        async with self.lock(tournament_id):
            event = await self._running(tournament_id, user_id, asker)
            match = await self.store.match(match_id) if 0 < match_id <= MAX_ID else None
            if match is None or match.tournament_id != tournament_id or len(match.players) < 2:
                raise GameError.of("tournament_no_match", match=match_id)
            if match.round != event.round:
                raise GameError.of("tournament_match_past", match=match_id)
            if event.held == event.round:
                raise EventError("tournament_round_held", event, round=event.round)
            if len(places) != len(match.players) or not all(1 <= p <= len(places) for p in places):
                raise GameError.of("tournament_bad_places")
            ended = []
            if match.game_id is not None:
                names = event.names
                best = [names.get(p, str(p)) for p, place in zip(match.players, places) if place == min(places)]
                level = len(best) == len(places)
                how = ending.decided(How.ADJUDICATED, places, tournament=tournament_id, match=match_id)
                if await self._end_game(match.game_id, how, "event_end_draw" if level else "event_end_adjudicated",
                                        match=match_id, names=", ".join(best)):
                    ended.append(match.game_id)
            await self.store.settle_match(match_id, places, "adjudicated", overwrite=True)
            progress = await self._after_settle(event)
            progress.changed = ended
            return progress

    async def pause(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Event:
        """While paused, the next round is paired but held: it starts when the organizer resumes (the matches
        being played go on)."""
        async with self.lock(tournament_id):
            event = await self._running(tournament_id, user_id, asker)
            if event.paused:
                raise GameError.of("tournament_already_paused", tournament=tournament_id)
            await self.store.update_tournament(tournament_id, paused=True)
            return await self.tournament(tournament_id)

    async def resume(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Progress:
        """Unpause: a round held meanwhile starts now."""
        async with self.lock(tournament_id):
            event = await self._running(tournament_id, user_id, asker)
            if not event.paused:
                raise GameError.of("tournament_not_paused", tournament=tournament_id)
            await self.store.update_tournament(tournament_id, paused=False)
            event = await self.tournament(tournament_id)
            if event.held and not event.settings.get("review"):
                return await self._release(event)
            return await self._after_settle(event)

    async def start_round(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Progress:
        """The organizer starts the round held for them (its games open, its deadline runs from now)."""
        async with self.lock(tournament_id):
            event = await self._running(tournament_id, user_id, asker)
            if not event.held:
                raise EventError("tournament_no_held_round", event)
            if event.paused:
                await self.store.update_tournament(tournament_id, paused=False)
                event = await self.tournament(tournament_id)
            return await self._release(event)

    async def _release(self, event: Event) -> Progress:
        if event.held is None:
            raise EventError("tournament_no_held_round", event)
        await self.store.set_round_deadline(event.id, event.held, self._deadline(event))
        await self._settings(event, held=None, edited=None)
        event = await self.tournament(event.id)
        progress = Progress(event)
        progress.started = await self._open_games(event)
        return progress

    async def _held_swiss(self, tournament_id: int, user_id: int, asker: Asker | None) -> Event:
        event = await self._running(tournament_id, user_id, asker)
        if event.format != "swiss":
            raise EventError("tournament_swiss_only", event)
        if not event.held:
            raise EventError("tournament_no_held_round", event)
        return event

    async def swap(self, tournament_id: int, user_id: int, first: int, second: int,
                   asker: Asker | None = None) -> Progress:
        """A manual change to the held round of a Swiss: ``first`` and ``second`` trade places (their tables and
        seats; the bye too). A pair the organizer forbade is refused; a rematch is allowed and said."""
        async with self.lock(tournament_id):
            event = await self._held_swiss(tournament_id, user_id, asker)
            matches = await self.store.matches(tournament_id, event.held)
            where = {p: m for m in matches for p in m.players}
            for p in (first, second):
                if p not in where or where[p].how == "half_bye":
                    raise EventError("tournament_not_in_round", event, name=event.names.get(p, str(p)),
                                     round=event.held)
            if first == second:
                raise EventError("tournament_swap_same", event)
            new = {m.id: [second if p == first else first if p == second else p for p in m.players]
                   for m in matches}
            forbidden = {frozenset(pair) for pair in event.forbidden}
            results = await self.results(event)
            met = {frozenset(r.players) for r in results if r.played and len(r.players) == 2}
            notes = []
            for m in matches:
                players = new[m.id]
                for a, b in itertools.combinations(players, 2):
                    if frozenset((a, b)) in forbidden:
                        raise EventError("tournament_pair_forbidden", event, first=event.names.get(a, str(a)),
                                         second=event.names.get(b, str(b)))
                    if frozenset((a, b)) in met:
                        notes.append(("event_swap_rematch", {"first": event.names.get(a, str(a)),
                                                             "second": event.names.get(b, str(b))}))
            pairing = [(m.slot, new[m.id], m.places, m.how) for m in matches]
            if event.held is None or not await self.store.replace_round(tournament_id, event.held, pairing):
                raise EventError("tournament_round_started", event)
            await self._settings(event, edited=event.held)
            return Progress(await self.tournament(tournament_id), held=event.held, notes=notes)

    async def forbid(self, tournament_id: int, user_id: int, first: int, second: int,
                     asker: Asker | None = None) -> Progress:
        """The organizer forbids a pairing (a family, a team, a grudge): from now on the two are treated as if
        they had met; a held round pairing them is paired again."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            self._organizer(event, user_id, asker)
            if event.format != "swiss":
                raise EventError("tournament_swiss_only", event)
            if event.status == "finished":
                raise GameError.of("tournament_over", tournament=tournament_id)
            for p in (first, second):
                if p not in event.names:
                    raise GameError.of("tournament_not_entry", tournament=tournament_id)
            if first == second:
                raise EventError("tournament_swap_same", event)
            pair = frozenset((first, second))
            if pair in {frozenset(p) for p in event.forbidden}:
                raise EventError("tournament_forbidden_already", event)
            await self._settings(event, forbidden=[*map(list, event.forbidden), sorted(pair)])
            event = await self.tournament(tournament_id)
            if event.held and any(pair <= set(m.players) for m in await self.store.matches(tournament_id,
                                                                                              event.held)):
                return await self._repair(event)
            return Progress(event, held=event.held)

    async def request_bye(self, tournament_id: int, user_id: int, player_id: int,
                          asker: Asker | None = None) -> Progress:
        """A half-point bye for the next round that has not started (a player for themselves, or the organizer
        for anyone): at most ``HALF_BYES_MAX`` a tournament, never in its last round. A held round is paired
        again without them."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            if player_id != user_id:
                self._organizer(event, user_id, asker)
            if event.format != "swiss":
                raise EventError("tournament_swiss_only", event)
            if event.status == "finished":
                raise GameError.of("tournament_over", tournament=tournament_id)
            if player_id not in event.names or player_id in event.dropped:
                raise GameError.of("tournament_not_entry", tournament=tournament_id)
            round_no = event.held or event.round + 1
            if round_no >= event.total_rounds():
                raise EventError("tournament_bye_last", event, round=event.total_rounds())
            byes = event.all_half_byes()
            if player_id in byes.get(round_no, []):
                raise EventError("tournament_bye_already", event, round=round_no)
            if sum(player_id in v for v in byes.values()) >= HALF_BYES_MAX:
                raise EventError("tournament_bye_limit", event, max=HALF_BYES_MAX)
            byes.setdefault(round_no, []).append(player_id)
            await self._settings(event, half_byes={str(k): v for k, v in byes.items()})
            event = await self.tournament(tournament_id)
            progress = await self._repair(event) if event.held else Progress(event)
            progress.notes.append(("event_bye_granted", {"name": event.names[player_id], "round": round_no}))
            return progress

    async def correct(self, tournament_id: int, user_id: int, match_id: int, places: list[int],
                      asker: Asker | None = None) -> Progress:
        """The organizer corrects the result of a match already settled, in any round: the standings and the
        ratings follow; the rounds already paired stay as they are (an elimination: only while the next round
        is not paired from it). Everybody is told in the tournament's channel, the two players mentioned."""
        async with self.lock(tournament_id):
            event = await self._running(tournament_id, user_id, asker)
            match = await self.store.match(match_id) if 0 < match_id <= MAX_ID else None
            if match is None or match.tournament_id != tournament_id or len(match.players) < 2:
                raise GameError.of("tournament_no_match", match=match_id)
            if match.places is None:
                raise EventError("tournament_match_unsettled", event, match=match_id)
            if event.format == "elimination" and match.round != event.round:
                raise EventError("tournament_bracket_moved_on", event, match=match_id)
            if len(places) != len(match.players) or not all(1 <= p <= len(places) for p in places):
                raise GameError.of("tournament_bad_places")
            if list(places) == list(match.places):
                raise EventError("tournament_same_result", event, match=match_id)
            names = event.names
            await self.store.settle_match(match_id, list(places), "corrected", overwrite=True)
            progress = Progress(await self.tournament(tournament_id), held=event.held)
            progress.notes.append(("event_corrected", {
                "match": match_id, "round": match.round,
                "was": _result_text(match.players, match.places, names),
                "now": _result_text(match.players, places, names)}))
            progress.mention = [p for p in match.players]
            return progress

    async def cancel(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Progress:
        """End the tournament without a winner; its games still on are ended (``changed``: their last boards
        are owed)."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            self._organizer(event, user_id, asker)
            if event.status == "finished":
                raise GameError.of("tournament_over", tournament=tournament_id)
            await self.store.update_tournament(tournament_id, status="finished", cancelled=True)
            how = ending.abandoned(tournament=tournament_id)
            ended = [game.id for game in await self.store.tournament_games(tournament_id)
                     if await self._end_game(game.id, how, "event_end_cancelled", tournament=tournament_id)]
            return Progress(await self.tournament(tournament_id), changed=ended)

    # -- deadlines (the hook for turn clocks) ---------------------------------------------------------

    async def overdue(self, now: datetime | None = None) -> list[MatchRow]:
        """Unsettled matches whose round deadline has passed (``now``: the game service's clock)."""
        return await self.store.overdue_matches(now or self.games.clock())

    async def waiting_for(self, match: MatchRow) -> set[int]:
        """The seats a match waits for: those of its running game whose clock runs (not AI stand-ins)."""
        if match.game_id is None:
            return set()
        game = await self.games.game(match.game_id)
        if game.status != "running":
            return set()
        return {c["seat"] for c in await self.store.clocks(game.id) if c["deadline"] is not None and not c["stand_in"]}

    async def deadline_places(self, match: MatchRow) -> list[int]:
        """The places a match over its round's deadline gets by its clock rules: the match waits for the
        seats whose clock is running, and they lose it, sharing the place after everybody else (they ran out of
        time at the same moment); the others share the first place. A match that waits for nobody (nobody to
        act), or for everybody (all were to move at once), is a draw: nobody wins by another's lateness alone."""
        return deadline_places(len(match.players), await self.waiting_for(match))

    async def settle_overdue(self, now: datetime | None = None) -> list[tuple[MatchRow, Progress]]:
        """Settle every match past its round's deadline by its clock rules (:meth:`deadline_places`); the
        periodic clock job calls this. Returns each settled match (with its places) and what it did."""
        out = []
        for match in await self.overdue(now):
            waiting = await self.waiting_for(match)
            places = deadline_places(len(match.players), waiting)
            progress = await self.settle_by_clock(match.id, places,
                                                  everybody_late=len(waiting) == len(match.players))
            settled = await self.store.match(match.id)
            if settled is not None and settled.how == "clock":
                out.append((settled, progress))
        return out

    async def settle_by_clock(self, match_id: int, places: list[int], *, everybody_late: bool = False) -> Progress:
        """Settle an overdue match with the places its clock rules give (its game, if on, ends);
        ``everybody_late``: a draw because every player was still to move (told so in its thread)."""
        match = await self.store.match(match_id)
        if match is None:
            raise GameError.of("tournament_no_match", match=match_id)
        async with self.lock(match.tournament_id):
            event = await self.tournament(match.tournament_id)
            match = await self.store.match(match_id)
            if match is None or match.places is not None or event.status != "running":
                return Progress(event)  # settled meanwhile (the game ended, or the organizer decided)
            ended = []
            if match.game_id is not None:
                names = event.names
                late = [names.get(p, str(p)) for p, place in zip(match.players, places) if place > min(places)]
                how = ending.decided(How.DEADLINE, list(places), [
                    Departure(seat, How.TIMEOUT) for seat, place in enumerate(places) if place > min(places)],
                    match=match_id, round=match.round, tournament=event.id)
                if await self._end_game(match.game_id, how,
                                        "event_deadline_forfeit" if late else "event_deadline_all"
                                        if everybody_late else "event_deadline_draw",
                                        match=match_id, round=match.round, names=", ".join(late)):
                    ended.append(match.game_id)
            await self.store.settle_match(match_id, list(places), "clock")
            progress = await self._after_settle(event)
            progress.changed = ended
            return progress

    # -- the league table and ratings (moved from GameService, behaviour kept) ----------------------------

    async def tournament_table(self, tournament_id: int, asker: Asker | None = None,
                               ) -> tuple[Event, list[tuple[Row, str]], int, int]:
        """A league's table (rows with names), matches over and matches in all; a league whose matches are
        all over (finished or abandoned) is marked finished."""
        league = await self.tournament(tournament_id, asker)
        games = await self.store.tournament_games(tournament_id)
        results: list[tuple[int | None, int, int | None, int]] = [
            (r.players[0], r.places[0], r.players[1], r.places[1]) for r in await self.results(league)
            if league.format == "league"]
        over = sum(1 for g in games if g.status in ("finished", "abandoned"))
        league = await self._league_progress(league) if league.format == "league" else league
        names = league.names
        rows = table([u for u, _ in league.entries], results)
        return league, [(r, names.get(r.player, str(r.player))) for r in rows], over, len(games)

    async def _rating_history(self, key: str, guild_id: int | None) -> list[list[tuple[int, int]]]:
        """(person, place) of every finished game of ``key`` on the server that counts in ratings, in the order
        they ended: the people at the table whose places were decided by play (host/ending.py
        ``rated_seats``: not an organizer's decision, a round's deadline, nor a seat dropped from its
        tournament). A tournament match whose result the organizer corrected counts with the corrected places."""
        corrected = await self.store.corrected_places(guild_id, key)
        games = []
        for game in await self.store.finished_games(engine=key, guild_id=guild_id):
            ended = ending_of(game.status, game.result)
            rated = set(ended.rated_seats()) if ended is not None else set()
            places = corrected.get(game.id) or (list(ended.places) if ended is not None and ended.places else [])
            games.append([(s.user_id, places[s.seat]) for s in game.seats
                          if s.user_id and s.seat in rated and s.seat < len(places)])
        return games

    async def leaderboard(self, key: str, guild_id: int | None) -> list[tuple[Rating, str]]:
        """Ratings (openskill) of the people who finished games of ``key`` on this server, best first, with the
        name each used last; recomputed from the finished games (games against the AI count only people)."""
        if key not in ENGINES:
            raise GameError.of("unknown_game", key=key[:40])
        names = {}
        for game in await self.store.finished_games(engine=key, guild_id=guild_id):
            names.update({s.user_id: s.name for s in game.seats if s.user_id})
        return [(r, names.get(r.player, str(r.player)))
                for r in leaderboard(await self._rating_history(key, guild_id))]

    async def profile(self, user_id: int, guild_id: int | None) -> list[tuple[str, Rating, int]]:
        """A person's rating, games and wins per game on this server: (game key, rating, rank)."""
        played = {g.engine for g in await self.store.finished_games_of(user_id=user_id, guild_id=guild_id)}
        out = []
        for key in ENGINES:
            if key not in played:
                continue
            board = leaderboard(await self._rating_history(key, guild_id))
            for rank, r in enumerate(board, start=1):
                if r.player == user_id:
                    out.append((key, r, rank))
        return out


def _result_text(players: list[int], places: list[int], names: dict[int, str]) -> str:
    """"A 1st, B 2nd"-like words for a match's result, in the tournament's language."""
    return ", ".join(t("event_place", name=names.get(p, str(p)), place=place) for p, place in zip(players, places))


def parse_tiebreaks(text: str) -> tuple[str, ...]:
    """The organizer's tie-breaks from what they typed ("bh-c1, sb", "direct wins"); a refusal names the ones
    offered."""
    words = [w for w in text.replace(",", " ").replace(";", " ").lower().split() if w]
    try:
        return check_tiebreaks(TIEBREAK_NAMES[w] for w in words)
    except (KeyError, ValueError):
        raise GameError.of("tournament_bad_tiebreaks", text=text[:60],
                           offered="bh-c1, bh, sb, de, wins, rating") from None


def _match_clock(event: Event) -> dict:
    """The clock of a tournament's matches: the organizer's time control, and a player whose time runs out
    forfeits (a tournament must finish); without one, the league clock (host/clock.py)."""
    try:
        return clocks.clock_options(event.settings.get("time_control"), "forfeit", "open") \
            if event.settings.get("time_control") else dict(clocks.LEAGUE_CLOCK)
    except ValueError:
        return dict(clocks.LEAGUE_CLOCK)


def tournaments_of(bot) -> TournamentService:
    """The bot's tournament service (made in its set-up, over its game service)."""
    if getattr(bot, "tournaments", None) is None:
        painter = getattr(bot.service, "painter", None)
        bot.tournaments = TournamentService(bot.service, PairingWorker(getattr(painter, "processes", 0)))
    return bot.tournaments
