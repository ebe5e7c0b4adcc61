"""The game service's turn clocks (the rules of time are pure, in ``host/clock.py``): deadlines, warnings,
timeouts, the AI standing in, forfeits, outages, the end of vacations (what players do with their clocks is
host/clock_commands.py, which extends this). A mixin of ``GameService`` on
:class:`host.service_core.ServiceCore`, which declares what it uses of the service's other concerns (this module
does not import host/service.py, which imports it)."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import datetime

from engines import ENGINES
from host import clock as clocks
from host import ending
from host.ending import Departure, How
from host.errors import GameError
from host.locale import t
from host.service_core import ServiceCore, seat_row
from host.shards import Shards
from store import GameRow

log = logging.getLogger(__name__)


def _heartbeats(shards: Shards | None) -> list[tuple[str, Shards | None]]:
    """(heartbeat name, the games it covers): one for an unsharded host, one per shard otherwise."""
    if shards is None:
        return [("host", None)]
    return [(f"shard {i}/{shards.count}", Shards((i,), shards.count)) for i in shards.ids]


def time_left(left: int, lang: str | None = None) -> str:
    """``left`` seconds as a reader says them in ``lang``: "2 days 3 h", "1 day", "11 h 20 min", "5 min"
    (whole minutes, rounded down; with days, hours only: a per-move limit is at most three days)."""
    days, rest = divmod(max(0, left), clocks.DAY)
    hours, rest = divmod(rest, clocks.HOUR)
    minutes = rest // 60
    parts = [t("time_left_day" if days == 1 else "time_left_days", lang, days=days)] if days else []
    if hours:
        parts.append(t("time_left_hours", lang, hours=hours))
    if minutes and not days:
        parts.append(t("time_left_minutes", lang, minutes=minutes))
    return " ".join(parts) or t("time_left_under_minute", lang)


class TurnClocks(ServiceCore):
    """Turn clocks of :class:`host.service.GameService`: what they use of the rest of the service (its store,
    time source, locks, states and action pipeline) is declared by :class:`host.service_core.ServiceCore`."""

    async def _seat_clocks(self, game_id: int) -> dict[int, clocks.SeatClock]:
        # a move asks for them several times: made once per reading of the rows (the store's remembered list is
        # the same object until the clocks are written), as SeatClocks are immutable
        rows = await self.store.clocks(game_id, shared=True)
        made = self._clocks_made.get(game_id)
        if made is None or made[0] is not rows:
            made = (rows, {r["seat"]: clocks.SeatClock(**r) for r in rows})
            self._clocks_made[game_id] = made
        return dict(made[1])

    async def _clocks_after(self, game: GameRow, state, moved: int | None = None) -> list[clocks.SeatClock] | None:
        """The game's seat clocks once ``state`` (after an action of ``moved``) is saved (None: the game has no
        time control)."""
        control = clocks.control_of(game.options)
        if not control.timed:
            return None
        now = clocks.seconds(self.clock())
        engine = ENGINES[game.engine]
        acting = [] if engine.result(state) is not None else engine.to_act(state)
        people = {s.seat for s in game.seats if not s.is_ai}
        away_users = await self.store.away_users(now)
        away = {s.seat for s in game.seats if s.user_id in away_users}
        new = clocks.reconcile(control, await self._seat_clocks(game.id), sorted(s.seat for s in game.seats),
                               acting, people, now, away, moved)
        return list(new.values())

    async def _with_forfeits(self, game: GameRow, result: dict) -> dict:
        """The stored result (host/ending.py) of a game the rules just ended with the engine's ``result``: the
        seats out of the game ranked last, the first out last of all: those that left (timed out, resigned,
        claimed against, dropped from a tournament) and those the AI still plays for at the end (their player
        never came back: what the AI did counts as their loss, never as their win)."""
        return ending.natural(game.num_players, result, await self._left(game), game.version + 1).to_json()

    async def _left(self, game: GameRow, seat_clocks: dict[int, clocks.SeatClock] | None = None) -> list[Departure]:
        """The seats out of the game, in the order they went out (``clock.out_order``), each with how: as recorded
        when it left (resigned, out of time, dropped), else out of time (the AI stands in for a player who has not
        come back) or, for a forfeit recorded before endings were typed, a forfeit. ``step``: the moves made when
        it left, when recorded."""
        seat_clocks = seat_clocks if seat_clocks is not None else await self._seat_clocks(game.id)
        recorded = {d["seat"]: d for d in await self.store.departures(game.id)}
        out = []
        for seat in clocks.out_order(seat_clocks):
            if seat in recorded:
                out.append(Departure(seat, How(recorded[seat]["how"]), recorded[seat]["step"]))
            else:
                out.append(Departure(seat, How.FORFEIT if seat_clocks[seat].forfeited else How.TIMEOUT, None))
        return out

    @staticmethod
    def _in_play(game: GameRow, seat_clocks: dict[int, clocks.SeatClock]) -> list[int]:
        """The seats of people who play their own seat now (not timed out, not out of the game)."""
        return [s.seat for s in game.seats
                if not s.is_ai and not seat_clocks.get(s.seat, clocks.SeatClock(s.seat)).stand_in]

    async def _stand_ins(self, game: GameRow) -> set[int]:
        """Seats of people the AI plays for now: forfeited seats (a game of more than two goes on without them),
        and seats whose time ran out - but only while some person still plays: the stand-in keeps the game
        moving for the others and never plays an absent person's game on its own (against the AI, or when
        everyone is gone, the game waits for them)."""
        seat_clocks = await self._seat_clocks(game.id)
        someone = bool(self._in_play(game, seat_clocks))
        return {s for s, c in seat_clocks.items() if c.stand_in and (c.forfeited or someone)}

    def _table_end(self, game: GameRow, seat_clocks: dict[int, clocks.SeatClock]) -> list[int] | None:
        """The places when the table ends now for want of players, else None: at a table of three or more people
        only one person is left among seats that timed out or forfeited (they are first: as on BGA, nobody plays
        on against stand-ins for a first place already theirs); or every person forfeited a game against the AI
        (its AI seats share the first place). The seats out are ranked below, the first out last."""
        gone = clocks.out_order(seat_clocks)
        if not gone:
            return None
        in_play = self._in_play(game, seat_clocks)
        ai_seats = [s.seat for s in game.seats if s.is_ai]
        alone = game.num_players >= 3 and len(in_play) == 1 and not ai_seats
        abandoned = not in_play and ai_seats and all(seat_clocks[s].forfeited for s in gone)
        if not (alone or abandoned):
            return None
        return clocks.forfeit_places([1] * game.num_players, gone)

    async def _hand_back(self, game: GameRow, seat: int) -> bool:
        """A person back after a timeout takes their seat over from the AI (not after a forfeit); whether they
        did. Their clock starts again (a bank that ran out with one bonus); the AI seats and stand-ins that
        waited for a person play on. The caller holds the game's lock."""
        if game.status != "running":
            return False
        seat_clocks = await self._seat_clocks(game.id)
        c = seat_clocks.get(seat)
        if c is None or not c.stand_in or c.forfeited:
            return False
        control = clocks.control_of(game.options)
        seat_clocks[seat] = replace(c, stand_in=False, out_since=None, bank=clocks.comeback_bank(control, c.bank))
        await self.store.set_clocks(game.id, list(seat_clocks.values()),
                                    publish=[t("clock_back", name=seat_row(game, seat).name)])
        if (restarted := await self._clocks_after(game, await self._state(game))) is not None:
            await self.store.set_clocks(game.id, restarted)
        await self.run_automatic(game)
        return True

    def _waiting(self, game: GameRow, seat_clocks: dict[int, clocks.SeatClock], c: clocks.SeatClock) -> bool:
        """Whether a timed-out seat waits for its player (nobody else plays: the AI does not stand in)."""
        return c.stand_in and not c.forfeited and not self._in_play(game, seat_clocks)

    async def _clock_lines(self, game: GameRow) -> tuple[list[str], dict[int, int]]:
        """The board's lines about the clocks (time left, vacations, the AI standing in) and each running
        seat's deadline."""
        if game.status != "running":
            return [], {}
        seat_clocks = await self._seat_clocks(game.id)
        if not seat_clocks:
            return [], {}
        now = clocks.seconds(self.clock())
        away = await self.store.away_users(now)
        lines, deadlines = [], {}
        for seat, c in sorted(seat_clocks.items()):
            row = game.seat_row(seat)
            if row is None:
                continue
            if self._waiting(game, seat_clocks, c):
                lines.append(t("clock_waiting_line", name=row.name))
            elif c.stand_in:
                lines.append(t("clock_forfeited_line" if c.forfeited else "clock_stand_in_line", name=row.name))
            elif row.user_id in away:
                lines.append(t("clock_paused_line", name=row.name, until=f"<t:{away[row.user_id]}:f>"))
            elif c.deadline is not None:  # (running)
                deadlines[seat] = c.deadline
                lines.append(t("clock_line", name=row.name, deadline=f"<t:{c.deadline}:R>"))
        return lines, deadlines

    async def clock_states(self, game: GameRow) -> list[dict]:
        """Each seat's clock for a spectator (the web companion): ``{"seat", "state", "deadline"}`` with state
        running, away, stand_in, forfeited or waiting, and the deadline (epoch seconds) of a running move."""
        if game.status != "running":
            return []
        seat_clocks = await self._seat_clocks(game.id)
        if not seat_clocks:
            return []
        away = await self.store.away_users(clocks.seconds(self.clock()))
        out = []
        for seat, c in sorted(seat_clocks.items()):
            row = game.seat_row(seat)
            if row is None:
                continue
            if c.stand_in:
                state = ("waiting" if self._waiting(game, seat_clocks, c) else
                         "forfeited" if c.forfeited else "stand_in")
                out.append({"seat": seat, "state": state, "deadline": None})
            elif row.user_id in away:
                out.append({"seat": seat, "state": "away", "deadline": None})
            elif c.running:
                out.append({"seat": seat, "state": "running",
                            "deadline": None if c.paused_at is not None else c.deadline})
        return out

    async def _picture_clock(self, game: GameRow,
                             seat_clocks: dict[int, clocks.SeatClock] | None = None) -> list[dict]:
        """The board picture's clock strip (render/kit.py ``clock_strip``): per seat with a running clock, away
        or played by the AI, ``{"text", "urgent"}`` in the game's language. A picture cannot show a deadline in
        each reader's time zone, so it says the time left now (``self.clock``), as the text lines do with
        Discord's relative timestamps. ``seat_clocks``: the clocks about to be saved (default: those saved)."""
        if game.status != "running":
            return []
        if seat_clocks is None:
            seat_clocks = await self._seat_clocks(game.id)
        if not seat_clocks:
            return []
        now = clocks.seconds(self.clock())
        away = await self.store.away_users(now)
        out = []
        for seat, c in sorted(seat_clocks.items()):
            row = game.seat_row(seat)
            if row is None:
                continue
            if c.stand_in:
                key = ("clock_picture_waiting" if self._waiting(game, seat_clocks, c) else
                       "clock_picture_forfeited" if c.forfeited else "clock_picture_stand_in")
                out.append({"text": t(key, game.lang, name=row.name), "urgent": False})
            elif row.user_id in away:
                out.append({"text": t("clock_picture_away", game.lang, name=row.name), "urgent": False})
            elif (left := c.left(now)) is not None:  # (running)
                out.append({"text": t("clock_picture_left", game.lang, name=row.name,
                                      left=time_left(left, game.lang)), "urgent": left <= clocks.HOUR})
        return out

    async def clock_summary(self, game: GameRow) -> str:
        """A short word on a game's clock for ``/game list``: its time control and the nearest deadline."""
        control = clocks.control_of(game.options)
        if game.status != "running" or not control.timed:
            return ""
        running = [c.deadline for c in (await self._seat_clocks(game.id)).values()
                   if c.deadline is not None and c.paused_at is None and not c.stand_in]
        return f"⏳ {control.name}" + (f" <t:{min(running)}:R>" if running else "")

    # -- the clock job: heartbeat, outages, vacations, warnings, timeouts ------------------------------------

    async def heartbeat(self, now: datetime | None = None, *, shards: Shards | None = None,
                        restart: bool = False) -> int:
        """Record that the host is up; after an outage (a gap longer than ``clock.OUTAGE_AFTER``) every running
        clock gets the downtime back, and so does a clock whose vacation ended meanwhile (it stood still until
        the host was back); after an outage of ``clock.OUTAGE_TOLD_AFTER`` or more, each game whose deadlines
        moved is owed a board saying so. Returns the seconds given
        back (the most, over the shards).

        Sharded (``shards``, host/shards.py), each shard has a heartbeat of its own, and an outage is given back
        to that shard's games only: one process down does not stop the clocks of another's games, and a shard
        moved to another process keeps its heartbeat.

        ``restart``: the beat of a bot starting up, before it handles any interaction (a move made before the
        first clock round is not charged the outage); a shard that never beat before starts its heartbeat with
        the clock job instead."""
        at = clocks.seconds(now or self.clock())
        most = 0
        for name, mine in _heartbeats(shards):
            if restart and await self.store.last_beat(name) is None:
                continue
            previous = await self.store.beat(at, name)
            gap = at - previous if previous is not None else 0
            if previous is not None and gap > clocks.OUTAGE_AFTER:
                notes = {}
                told = await self.store.clock_games(running=True, shards=mine) \
                    if gap >= clocks.OUTAGE_TOLD_AFTER else []
                for game_id in told:
                    lang = await self._lang_of(game_id)
                    notes[game_id] = [t("clock_outage", lang, time=time_left(gap, lang))]
                await self.store.shift_clocks(gap, shards=mine, publish=notes)
                # a vacation over during the outage: its clocks ran from its end on while nobody could play;
                # they run again from the host's return (one that ended before the outage, from its end + gap)
                for user_id, until in await self.store.ended_aways(at):
                    await self.store.resume_clocks(user_id, at=min(until, previous) + gap, shards=mine)
                log.info("%s was down %d s: its clocks get it back", name, gap)
                most = max(most, gap)
        return most

    async def _lang_of(self, game_id: int) -> str | None:
        game = await self.store.get_game(game_id, with_snapshot=False)
        return game.lang if game is not None else None

    async def expire_clocks(self, now: datetime | None = None, *, shards: Shards | None = None) -> list[int]:
        """Apply what the clocks owe at ``now``: end vacations that are over, give warnings (half time, one hour
        left), and act for the seats whose time ran out (the default choice of a simultaneous decision; else the
        AI stands in, or the seat forfeits). Narration goes to the outbox. Returns the games changed.
        ``shards``: only the games of these shards' servers (a vacation spans servers: ending one is the same
        change whichever process makes it first, and a no-op for the next)."""
        at = clocks.seconds(now or self.clock())
        changed = []
        for user_id, until in await self.store.ended_aways(at):
            changed += await self._end_away(user_id, until, shards)
        for game_id in await self.store.due_clocks(at, shards=shards):
            async with self.lock(game_id):
                try:
                    game = await self.game(game_id)
                    if game.status == "running" and await self._expire_game(game, at):
                        changed.append(game_id)
                except GameError:  # a game this version cannot play (logged once): its clock waits, not the others'
                    continue
        return sorted(set(changed))

    async def _expire_game(self, game: GameRow, at: int) -> bool:
        """:meth:`expire_clocks` for one game (its lock held)."""
        engine = ENGINES[game.engine]
        policy = clocks.on_timeout_of(game.options)
        done = False
        for _ in range(4 * max(1, len(game.seats))):  # each round settles one seat; the bound is a safeguard
            if game.status != "running":
                break
            state = await self._state(game)
            acting = engine.to_act(state)
            seat_clocks = await self._seat_clocks(game.id)
            found = next(((s, k) for s, c in sorted(seat_clocks.items())
                          if s in acting and (k := clocks.due(c, at))), None)
            if found is None:
                break
            seat, kind = found
            c, row = seat_clocks[seat], seat_row(game, seat)
            done = True
            if kind in ("half", "hour"):
                seat_clocks[seat] = clocks.warned(c, kind)
                # the thread's line and the DM's both go to the outbox with the warning itself: a restart
                # before the next board loses neither (host/outbox.py sends the DM with the next board's DMs)
                await self.store.set_clocks(game.id, list(seat_clocks.values()), publish=[t(
                    "clock_warn_" + kind, mention=f"<@{row.user_id}>", game=game.id,
                    deadline=f"<t:{c.deadline}:R>")], dms={seat: t(
                    "clock_warn_dm_" + kind, game.lang, game=game.id, title=engine.title,
                    deadline=f"<t:{c.deadline}:R>")})
                continue
            if c.simultaneous:
                action, label = await self._default_action(game, state, seat)
                lines = await self._commit(game, state, seat, row.user_id, action, told_before=[
                    t("clock_timeout_default", name=row.name, label=label)])
                await self.run_automatic(game, lines)
                continue
            await self._time_out(game, seat, policy, at)
        return done

    async def _time_out(self, game: GameRow, seat: int, policy: str, at: int) -> None:
        """A seat ran out of time on its own move: the AI stands in (or, when nobody else plays, the game waits
        for its player), or it forfeits. Its player is mentioned in the thread and told by DM how to come back."""
        title = ENGINES[game.engine].title
        if policy == "forfeit":
            await self._forfeit(game, seat, "clock_timeout_forfeit", at, dm=t(
                "clock_timeout_dm_out", game.lang, game=game.id, title=title))
            return
        seat_clocks = await self._seat_clocks(game.id)
        c = seat_clocks[seat]
        seat_clocks[seat] = replace(c, started=None, deadline=None, stand_in=True, simultaneous=False,
                                    bank=0 if c.bank is not None else None, out_since=at)
        row = seat_row(game, seat)
        mention = f"<@{row.user_id}>"
        if (places := self._table_end(game, seat_clocks)) is not None:
            await self._end(game, seat_clocks, places, [t("clock_timeout_out", mention=mention, game=game.id)],
                            dms={seat: t("clock_timeout_dm_out", game.lang, game=game.id, title=title)})
            return
        waits = not self._in_play(game, seat_clocks)
        await self.store.set_clocks(game.id, list(seat_clocks.values()), publish=[t(
            "clock_timeout_wait" if waits else "clock_timeout_ai", mention=mention)], dms={seat: t(
            "clock_timeout_dm_wait" if waits else "clock_timeout_dm_ai", game.lang, game=game.id, title=title)})
        await self.run_automatic(game)

    async def _end(self, game: GameRow, seat_clocks: dict[int, clocks.SeatClock], places: list[int],
                   lines: list[str], dms: dict[int, str] | None = None, *, draw: bool = False,
                   leaving: Departure | None = None) -> None:
        """End the game now with ``places`` (every clock stopped), its last board owed with ``lines``: one save,
        so a crash never leaves the game over without the board that says so. ``draw``: claimed against an
        absent opponent, nobody forfeited. ``leaving``: the seat whose leaving ends it (recorded in the same
        save). The result is an ending (host/ending.py) of how the last seat went out."""
        stopped = [replace(c, started=None, deadline=None, paused_at=None, simultaneous=False)
                   for c in seat_clocks.values()]
        left = [leaving if leaving is not None and d.seat == leaving.seat else d
                for d in await self._left(game, seat_clocks)]
        how = How.TIMEOUT if draw or not left else left[-1].how
        result = ending.Ending(how, tuple(places), tuple(left), None, game.version).to_json()
        gone = [] if draw else clocks.out_order(seat_clocks)
        if len(gone) < game.num_players and game.num_players >= 3:
            lines = [*lines, t("clock_table_ends", names=", ".join(
                seat_row(game, s).name for s in range(game.num_players) if places[s] == 1))]
        depart = (leaving.seat, leaving.how.value, leaving.step) if leaving is not None else None
        await self.store.set_status(game.id, "finished", result, publish=lines, clocks=stopped, dms=dms,
                                    depart=depart)
        game.status, game.result = "finished", result

    async def _forfeit(self, game: GameRow, seat: int, key: str, at: int | None = None, *,
                       dm: str | None = None, how: How = How.TIMEOUT, **fields) -> None:
        """``seat`` leaves the game, losing (``how``: resigned, out of time, dropped; host/ending.py; recorded in
        the same save): a game of two ends; in a larger one the AI finishes the seat, unless the table ends for
        want of players (:meth:`_table_end`); the order of going out places the seats, the first out last.
        ``dm``: what its player is told privately."""
        at = at if at is not None else clocks.seconds(self.clock())
        seat_clocks = await self._seat_clocks(game.id)
        c = seat_clocks.get(seat) or clocks.SeatClock(seat)
        # a seat already out (timed out) keeps the time it went out: the order of going out ranks the seats
        seat_clocks[seat] = replace(c, started=None, deadline=None, stand_in=True, forfeited=True,
                                    simultaneous=False, out_since=c.out_since if c.stand_in else at)
        line = t(key, name=seat_row(game, seat).name, game=game.id, **fields)
        dms = {seat: dm} if dm else None
        leaving = Departure(seat, how, game.version)
        if game.num_players == 2:  # the other wins
            await self._end(game, seat_clocks, [2 if s == seat else 1 for s in range(2)], [line], dms,
                            leaving=leaving)
            return
        if (places := self._table_end(game, seat_clocks)) is not None:
            await self._end(game, seat_clocks, places, [line], dms, leaving=leaving)
            return
        await self.store.set_clocks(game.id, list(seat_clocks.values()), publish=[line, t("clock_forfeit_ai")],
                                    dms=dms, depart=(seat, how.value, game.version))
        await self.run_automatic(game)

    async def _away_notes(self, user_id: int, key: str, **fields) -> dict[int, list[str]]:
        """For each of the user's running games with a clock, the line ``key`` in its language."""
        notes = {}
        for game_id in await self.store.clock_games(user_id=user_id):
            # (tolerant: a damaged game of the user must not stop the vacation of the others)
            game = await self.store.get_game(game_id, with_snapshot=False, tolerant=True)
            if game is not None and (seat := game.seat_of(user_id)) is not None:
                notes[game_id] = [t(key, game.lang, name=seat_row(game, seat).name, **fields)]
        return notes

    async def _end_away(self, user_id: int, until: int, shards: Shards | None = None) -> list[int]:
        """End a vacation that ran out at ``until``: the clocks run again from then (see :meth:`heartbeat` for
        one that ended while the host was down) and its games are told. Returns those games."""
        notes = await self._away_notes(user_id, "clock_away_back")
        await self.store.end_away(user_id, at=until, publish=notes)
        return [g for g in sorted(notes) if shards is None or shards.owns(await self._guild_of(g))]

    async def _guild_of(self, game_id: int) -> int | None:
        game = await self.store.get_game(game_id, with_snapshot=False, tolerant=True)
        return game.guild_id if game is not None else None
