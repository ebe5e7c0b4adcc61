"""The tournament service: registration, rounds, results and ratings, without any Discord import.

Formats (``FORMATS``): ``swiss`` (a number of rounds paired by score, tables of N for games of 3-6 players),
``elimination`` (a seeded knock-out bracket, optional third-place match), ``roundrobin`` (Berger tables in
rounds, optionally double) and ``league`` (the older round robin: every match at once). Pairing, standings and
tie-breaks are the pure ``tournaments`` package; this service keeps everything in the store (the round being
played, every match and its result), so that a restart at any point carries on: :meth:`recover` finishes
whatever a crash interrupted (a match whose game is not open yet, a game over whose result was not counted, a
round over whose next round was not paired).

A round starts all its matches together; the next round is paired when the last match of the round ends. A
round may have a deadline (``round_hours``, on the game service's clock): :meth:`settle_overdue` (called by the clock job)
settles each match past it by its clock rules (:meth:`deadline_places`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from engines import ENGINES, IllegalAction
from host import clock as clocks
from host.cache import Locks
from host.locale import language, t, use_language
from host.outcome import Outcome
from host.presenters import presenter_for
from host.service import MAX_ID, Asker, GameError, GameService
from host.shards import Shards
from store import GameRow, Tournament
from tournaments import elimination, swiss
from tournaments.league import Row, round_robin, table
from tournaments.ratings import Rating, leaderboard, rate
from tournaments.roundrobin import berger
from tournaments.standings import Result, Standing, points, standings

log = logging.getLogger(__name__)

FORMATS = ("swiss", "elimination", "roundrobin", "league")
MAX_ENTRIES = 8  # a league (all matches at once) of 8 is 28 games
MAX_CAP = 512
MAX_ROUNDS = 30
AI_NAME_SUFFIX = " (AI)"


class EventError(GameError):
    """A refusal about a tournament that names its format, in the language of whoever is told
    (``text(locale)``)."""

    def __init__(self, key: str, event: Event, **fields) -> None:
        self.format = event.format
        super().__init__(t(key, tournament=event.id, format=t(f"format_{event.format}"), **fields), key,
                         {"tournament": event.id, **fields})

    def text(self, locale: object | None = None) -> str:
        lang = str(locale) if locale else None
        return t(self.key, lang, format=t(f"format_{self.format}", lang), **self.fields)


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

    def total_rounds(self) -> int:
        """Rounds this tournament will have (elimination: of its bracket; round robin: of its schedule)."""
        count = len(self.seeds) if self.status != "open" else len(self.entries)
        if self.format == "swiss":
            return int(self.settings.get("rounds") or 1)
        if self.format == "elimination":
            return elimination.rounds_for(max(count, 2))
        if self.format == "roundrobin":
            return (count - 1 + count % 2) * (2 if self.settings.get("double") else 1)
        return 1


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


@dataclass
class MyMatch:
    tournament: int
    round: int
    match_id: int
    game_id: int | None
    opponents: list[str]
    status: str  # 'bye', 'playing', 'won', 'lost', 'drawn', 'placed'
    place: int | None = None


class TournamentService:
    """Tournaments over a :class:`GameService` (whose games are the matches). One lock per tournament."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.store = games.store
        self._locks = Locks()

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
                places = (game.result or {}).get("places") or []
                if game.status == "finished" and len(places) == 2:
                    out.append(Result(1, (game.seat_row(0).user_id, game.seat_row(1).user_id), tuple(places)))
            return out
        return [Result(m["round"], tuple(m["players"]), tuple(m["places"]))
                for m in await self.store.matches(event.id) if m["places"] is not None]

    async def standings(self, tournament_id: int, asker: Asker | None = None,
                        ) -> tuple[Event, list[tuple[Standing, str]]]:
        """The table with names: points, then Buchholz, then Sonneborn-Berger (elimination: by how far each
        got, see :func:`tournaments.elimination.final_places` once it is over)."""
        event = await self.tournament(tournament_id, asker)
        results = await self.results(event)
        rows = standings(event.seeds, results, event.dropped)
        if event.format == "elimination" and event.status == "finished" and not event.cancelled:
            order = [p for group in await self._bracket_places(event) for p in group]
            rank = {p: i for i, p in enumerate(order)}
            rows.sort(key=lambda r: rank.get(r.player, len(rank)))
        names = event.names
        return event, [(r, names.get(r.player, str(r.player))) for r in rows]

    async def _bracket_places(self, event: Event) -> list[list[int]]:
        matches = await self.store.matches(event.id)
        done = [(elimination.Match(m["round"], m["slot"], tuple(m["players"])),
                 tuple(m["places"]) if m["places"] else None) for m in matches]
        return elimination.final_places(event.seeds, done)

    async def bracket(self, tournament_id: int, asker: Asker | None = None) -> tuple[Event, list[dict]]:
        """Every match so far, with names (for the pictures)."""
        event = await self.tournament(tournament_id, asker)
        names = event.names
        out = []
        for m in await self.store.matches(event.id):
            out.append({**m, "names": [names.get(p, str(p)) for p in m["players"]]})
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
                if user_id not in m["players"]:
                    continue
                i = m["players"].index(user_id)
                others = [names.get(p, str(p)) for p in m["players"] if p != user_id]
                if len(m["players"]) == 1:
                    status, place = "bye", None
                elif m["places"] is None:
                    status, place = "playing", None
                else:
                    place = m["places"][i]
                    score = points(m["places"], i)
                    status = ("won" if score == 1 else "lost" if score == 0 else "drawn") \
                        if len(m["players"]) == 2 else "placed"
                out.append(MyMatch(tid, m["round"], m["id"], m["game_id"], others, status, place))
        return out

    # -- registration -------------------------------------------------------------------------------

    async def create(self, key: str, *, user_id: int, user_name: str, guild_id: int | None,
                     channel_id: int | None, lang: str | None = None, format: str = "league",
                     rounds: int | None = None, cap: int | None = None, table_size: int | None = None,
                     third_place: bool = False, double: bool = False, round_hours: int | None = None,
                     time_control: str | None = None, options: dict | None = None) -> Event:
        """A tournament of ``key`` open for registration; its organizer is its first entry. Game ``options``
        are checked now, as for a game (``players`` is the table size)."""
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
        engine_options = self._check_options(key, dict(options or {}), size)
        settings = {"rounds": rounds if format == "swiss" else None, "cap": cap, "table_size": size,
                    "third_place": bool(third_place), "double": bool(double), "round_hours": round_hours,
                    "time_control": (time_control or "")[:40] or None, "options": engine_options}
        tid = await self.store.create_event(engine=key, lang=language(lang), guild_id=guild_id,
                                            channel_id=channel_id, organizer_id=user_id, organizer_name=user_name,
                                            format=format, settings=settings)
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
        """Enter an open tournament (up to its cap)."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            if event.status != "open":
                raise EventError("tournament_started", event)
            if any(u == user_id for u, _ in event.entries):
                raise EventError("tournament_already_in", event)
            if len(event.entries) >= event.cap:
                raise EventError("tournament_full", event, max=event.cap)
            await self.store.add_entry(tournament_id, user_id, user_name)
            return await self.tournament(tournament_id)

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

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """Remember the registration message (to update it after a restart)."""
        await self.store.update_tournament(tournament_id, message_id=message_id)

    def _organizer(self, event: Event, user_id: int, asker: Asker | None) -> None:
        moderator = asker is not None and asker.moderator and asker.guild_id is not None
        if user_id != event.organizer_id and not moderator:
            raise EventError("tournament_only_organizer", event)

    # -- starting and rounds ------------------------------------------------------------------------

    async def start(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Progress:
        """The organizer starts: seeds by rating (this server, this game; newcomers in the order they joined),
        then round 1 (the league: every match at once)."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            if event.status != "open":
                raise EventError("tournament_started", event)
            if user_id != event.organizer_id:
                raise EventError("tournament_only_organizer", event)
            need = max(2, event.table_size if event.format == "swiss" else 2)
            if len(event.entries) < need:
                raise EventError("tournament_need_players", event, min=need)
            if event.format == "league":
                return await self._start_league(event)
            ratings = rate(await self._rating_history(event.engine, event.guild_id))
            joined = {u: i for i, (u, _) in enumerate(event.entries)}
            seeds = sorted(joined, key=lambda u: (-(ratings[u].rating if u in ratings else -1e9), joined[u]))
            settings = {**event.settings, "seeds": seeds}
            await self.store.update_tournament(tournament_id, status="running", settings=settings)
            event = await self.tournament(tournament_id)
            return await self._next_round(event)

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

    async def _pairings(self, event: Event, round_no: int) -> list[tuple[int, list[int], list[int] | None, str | None]]:
        """The matches of round ``round_no``: (slot, players in seat order, places for a bye, how)."""
        seeds = event.seeds
        active = [p for p in seeds if p not in event.dropped]
        if event.format == "swiss":
            tables, byes = swiss.pair_round(seeds, await self.results(event), round_no,
                                            table_size=event.table_size, dropped=event.dropped)
        elif event.format == "roundrobin":
            schedule = berger(seeds, double=bool(event.settings.get("double")))
            tables, byes = [], []
            for t in schedule[round_no - 1]:
                players = [p for p in t if p not in event.dropped]
                if len(t) == 2 and len(players) == 1:  # the opponent dropped: a forfeit win
                    tables.append(("forfeit", t))
                elif len(players) == 2:
                    tables.append(tuple(players))
                elif len(players) == 1:
                    byes.append(players[0])
        else:
            if round_no == 1:
                bracket = elimination.first_round(seeds)
            else:
                matches = await self.store.matches(event.id, round_no - 1)
                done = [(elimination.Match(m["round"], m["slot"], tuple(m["players"])), tuple(m["places"]))
                        for m in matches]
                seat0 = {}
                for r in await self.results(event):
                    if len(r.players) == 2:
                        seat0[r.players[0]] = seat0.get(r.players[0], 0) + 1
                bracket = elimination.next_round(seeds, done, third_place=bool(event.settings.get("third_place")),
                                                 seats=seat0)
            out = []
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
        del active
        out = []
        slot = 0
        for t in tables:
            if t and t[0] == "forfeit":
                pair = t[1]
                out.append((slot, list(pair), [2 if p in event.dropped else 1 for p in pair], "forfeit"))
            else:
                out.append((slot, list(t), None, None))
            slot += 1
        for p in byes:
            out.append((slot, [p], [1], "bye"))
            slot += 1
        return out

    def _finished_all(self, event: Event, matches_next: list | None) -> bool:
        if event.format == "elimination":
            return matches_next == []
        return event.round >= event.total_rounds()

    async def _next_round(self, event: Event) -> Progress:
        """Pair the next round (or end the tournament), create its games and start them; the caller holds the
        tournament's lock and has checked that the current round is over."""
        round_no = event.round + 1
        pairing = None
        if event.round and event.format != "elimination" and self._finished_all(event, None):
            pairing = []
        elif len([p for p in event.seeds if p not in event.dropped]) < 2 and event.format != "elimination":
            pairing = []
        else:
            pairing = await self._pairings(event, round_no)
        if not pairing:
            await self.store.set_tournament_status(event.id, "finished")
            return Progress(await self.tournament(event.id), finished=True, round_over=event.round or None)
        hours = event.settings.get("round_hours")
        deadline = self.games.clock() + timedelta(hours=hours) if hours else None
        await self.store.add_round(event.id, round_no, pairing, deadline)
        event = await self.tournament(event.id)
        progress = Progress(event)
        progress.started = await self._open_games(event)
        if all(m["places"] is not None for m in await self.store.matches(event.id, round_no)):
            # a round of byes and forfeits only (everybody else dropped): on to the next
            more = await self._next_round(event)
            more.started = progress.started + more.started
            return more
        return progress

    async def _open_games(self, event: Event) -> list[Outcome]:
        """Open and start the games of the current round that are not open/started yet (idempotent)."""
        outcomes = []
        names = event.names
        for m in await self.store.matches(event.id, event.round):
            if m["places"] is not None:
                continue
            game_id = m["game_id"]
            if game_id is None:
                game_id = await self.store.open_match_game(
                    m["id"], tournament_id=event.id, engine=event.engine,
                    options={"engine": dict(event.settings.get("options") or {}), "players": len(m["players"]),
                             "lang": event.lang, "tournament_match": m["id"], "clock": _match_clock(event)},
                    seed=self.games._seed(), guild_id=event.guild_id, channel_id=event.channel_id,
                    seats=[(p, names.get(p, str(p))) for p in m["players"]])
            game = await self.games.game(game_id)
            if game.status == "lobby":
                outcomes.append(await self.games.start(game_id, game.host_user_id))
            elif game.status in ("finished", "abandoned"):
                await self._count(event, m, game)
        return outcomes

    async def _count(self, event: Event, match: dict, game: GameRow) -> bool:
        """Record a finished (or abandoned) match game's places; a dropped player is placed last."""
        places = list((game.result or {}).get("places") or [])
        if game.status != "finished" or len(places) != len(match["players"]):
            places = [1] * len(match["players"])  # ended without a result: level, unless adjudicated
        worst = max(places) + 1
        places = [worst if p in event.dropped else place for p, place in zip(match["players"], places)]
        return await self.store.settle_match(match["id"], places, "played")

    async def _end_game(self, game_id: int, key: str, **fields) -> bool:
        """End a match game still being played without a result of its own (abandoned), and owe its thread a
        last board (no buttons) saying how, in the game's language, with its players mentioned: the line
        ``key`` with ``fields``. Returns whether a board is owed (the cog publishes it; after a crash the
        background publisher does)."""
        game = await self.games.game(game_id)
        if game.status not in ("lobby", "running"):
            return False
        if game.status == "lobby":  # never shown: no board to end
            await self.games.abandon(game_id, 0, moderator=True)
            return False
        players = [s.user_id for s in game.seats if s.user_id]
        # one transaction: a crash can never leave the match abandoned without its last board owed
        await self.games.abandon(game_id, 0, moderator=True, publish=[
            t(key, game.lang, **fields),
            t("event_game_ended", game.lang, game=game_id, mentions=" ".join(f"<@{u}>" for u in players))])
        return True

    async def _after_settle(self, event: Event) -> Progress:
        """With the lock held: when the current round is over (and not paused), pair the next one."""
        event = await self.tournament(event.id)
        if event.status != "running" or event.format == "league":
            return Progress(event)
        current = await self.store.matches(event.id, event.round)
        if any(m["places"] is None for m in current):
            return Progress(event)
        if event.paused:
            return Progress(event, round_over=event.round)
        progress = await self._next_round(event)
        progress.round_over = progress.round_over or event.round
        return progress

    async def match_over(self, game: GameRow) -> Progress:
        """A match game has ended: count it, and pair the next round when it was the round's last."""
        async with self.lock(game.tournament_id):
            event = await self.tournament(game.tournament_id)
            if event.format == "league":
                return Progress(await self._league_progress(event))
            match = await self.store.match_of_game(game.id)
            game = await self.games.game(game.id)
            if match is None or game.status not in ("finished", "abandoned") or event.status != "running":
                return Progress(event)
            if match["places"] is None:
                await self._count(event, match, game)
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
            changed: list[int] = []
            for m in await self.store.matches(tournament_id, event.round):
                if m["places"] is not None or player_id not in m["players"]:
                    continue
                if len(m["players"]) == 2:
                    names = event.names
                    winner = next(p for p in m["players"] if p != player_id)
                    if m["game_id"] is not None and await self._end_game(
                            m["game_id"], "event_end_dropped", name=names.get(player_id, str(player_id)),
                            tournament=tournament_id, match=m["id"], winner=names.get(winner, str(winner))):
                        changed.append(m["game_id"])
                    await self.store.settle_match(m["id"], [2 if p == player_id else 1 for p in m["players"]],
                                                  "forfeit")
                elif m["game_id"] is not None:
                    game = await self.games.game(m["game_id"])
                    if game.status == "running" and game.seat_of(player_id) is not None:
                        await self.games.leave(m["game_id"], player_id)
                        changed.append(m["game_id"])
            progress = await self._after_settle(event)
            progress.changed = changed
            return progress

    async def adjudicate(self, tournament_id: int, user_id: int, match_id: int, places: list[int],
                         asker: Asker | None = None) -> Progress:
        """The organizer decides a match of the current round (its game, if still on, ends without counting)."""
        async with self.lock(tournament_id):
            event = await self._running(tournament_id, user_id, asker)
            match = await self.store.match(match_id) if 0 < match_id <= MAX_ID else None
            if match is None or match["tournament_id"] != tournament_id or len(match["players"]) < 2:
                raise GameError.of("tournament_no_match", match=match_id)
            if match["round"] != event.round:
                raise GameError.of("tournament_match_past", match=match_id)
            if len(places) != len(match["players"]) or not all(1 <= p <= len(places) for p in places):
                raise GameError.of("tournament_bad_places")
            ended = []
            if match["game_id"] is not None:
                names = event.names
                best = [names.get(p, str(p)) for p, place in zip(match["players"], places) if place == min(places)]
                level = len(best) == len(places)
                if await self._end_game(match["game_id"], "event_end_draw" if level else "event_end_adjudicated",
                                        match=match_id, names=", ".join(best)):
                    ended.append(match["game_id"])
            await self.store.settle_match(match_id, places, "adjudicated", overwrite=True)
            progress = await self._after_settle(event)
            progress.changed = ended
            return progress

    async def pause(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Event:
        """No new round is paired while paused (the matches being played go on)."""
        async with self.lock(tournament_id):
            event = await self._running(tournament_id, user_id, asker)
            if event.paused:
                raise GameError.of("tournament_already_paused", tournament=tournament_id)
            await self.store.update_tournament(tournament_id, paused=True)
            return await self.tournament(tournament_id)

    async def resume(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Progress:
        async with self.lock(tournament_id):
            event = await self._running(tournament_id, user_id, asker)
            if not event.paused:
                raise GameError.of("tournament_not_paused", tournament=tournament_id)
            await self.store.update_tournament(tournament_id, paused=False)
            return await self._after_settle(event)

    async def cancel(self, tournament_id: int, user_id: int, asker: Asker | None = None) -> Progress:
        """End the tournament without a winner; its games still on are ended (``changed``: their last boards
        are owed)."""
        async with self.lock(tournament_id):
            event = await self.tournament(tournament_id, asker)
            self._organizer(event, user_id, asker)
            if event.status == "finished":
                raise GameError.of("tournament_over", tournament=tournament_id)
            await self.store.update_tournament(tournament_id, status="finished", cancelled=True)
            ended = [game.id for game in await self.store.tournament_games(tournament_id)
                     if await self._end_game(game.id, "event_end_cancelled", tournament=tournament_id)]
            return Progress(await self.tournament(tournament_id), changed=ended)

    # -- deadlines (the hook for turn clocks) ---------------------------------------------------------

    async def overdue(self, now: datetime | None = None) -> list[dict]:
        """Unsettled matches whose round deadline has passed (``now``: the game service's clock)."""
        return await self.store.overdue_matches(now or self.games.clock())

    async def deadline_places(self, match: dict) -> list[int]:
        """The places a match over its round's deadline gets by its clock rules: the match waits for the
        seats whose clock is running, and they forfeit (placed last, ``host.clock.forfeit_places``); the
        others share the first place. A match nobody's clock runs in (nobody to act) is a draw."""
        waiting: set[int] = set()
        if match["game_id"] is not None:
            game = await self.games.game(match["game_id"])
            if game.status == "running":
                waiting = {c["seat"] for c in await self.store.clocks(game.id)
                           if c["deadline"] is not None and not c["stand_in"]}
        return clocks.forfeit_places([1] * len(match["players"]), waiting)

    async def settle_overdue(self, now: datetime | None = None) -> list[tuple[dict, Progress]]:
        """Settle every match past its round's deadline by its clock rules (:meth:`deadline_places`); the
        periodic clock job calls this. Returns each settled match (with its places) and what it did."""
        out = []
        for match in await self.overdue(now):
            places = await self.deadline_places(match)
            progress = await self.settle_by_clock(match["id"], places)
            settled = await self.store.match(match["id"])
            if settled is not None and settled["how"] == "clock":
                out.append((settled, progress))
        return out

    async def settle_by_clock(self, match_id: int, places: list[int]) -> Progress:
        """Settle an overdue match with the places its clock rules give (its game, if on, ends)."""
        match = await self.store.match(match_id)
        if match is None:
            raise GameError.of("tournament_no_match", match=match_id)
        async with self.lock(match["tournament_id"]):
            event = await self.tournament(match["tournament_id"])
            match = await self.store.match(match_id)
            if match["places"] is not None or event.status != "running":
                return Progress(event)  # settled meanwhile (the game ended, or the organizer decided)
            ended = []
            if match["game_id"] is not None:
                names = event.names
                late = [names.get(p, str(p)) for p, place in zip(match["players"], places) if place > min(places)]
                if await self._end_game(match["game_id"], "event_deadline_forfeit" if late else "event_deadline_draw",
                                        match=match_id, round=match["round"], names=", ".join(late)):
                    ended.append(match["game_id"])
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
        results = [(r.players[0], r.places[0], r.players[1], r.places[1]) for r in await self.results(league)
                   if league.format == "league"]
        over = sum(1 for g in games if g.status in ("finished", "abandoned"))
        league = await self._league_progress(league) if league.format == "league" else league
        names = league.names
        rows = table([u for u, _ in league.entries], results)
        return league, [(r, names.get(r.player, str(r.player))) for r in rows], over, len(games)

    async def _rating_history(self, key: str, guild_id: int | None) -> list[list[tuple[int, int]]]:
        games = []
        for game in await self.store.finished_games(engine=key, guild_id=guild_id):
            places = (game.result or {}).get("places") or []
            games.append([(s.user_id, places[s.seat]) for s in game.seats if s.user_id and s.seat < len(places)])
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
        bot.tournaments = TournamentService(bot.service)
    return bot.tournaments
