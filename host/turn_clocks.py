"""The game service's turn clocks (the rules of time are pure, in ``host/clock.py``): deadlines, warnings,
timeouts, the AI standing in, forfeits, resigning and vacations. A mixin of ``GameService``: it uses the
service's store, locks and action pipeline."""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from engines import ENGINES
from host import clock as clocks
from host import ending
from host.ending import Departure, How
from host.errors import GameError
from host.locale import t
from host.presenters import presenter_for
from host.shards import Shards
from store import GameRow

if TYPE_CHECKING:
    from host.service import Asker

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


class TurnClocks:
    """Turn clocks for :class:`host.service.GameService`."""

    @staticmethod
    def _clock_option(control: str | None, on_timeout: str | None, opponent: str) -> dict:
        try:
            return clocks.clock_options(control, on_timeout, opponent)
        except ValueError as exc:
            raise GameError.of("option_choice", name="time_control" if control and str(exc) == control
                               else "on_timeout", value=str(exc)[:40],
                               choices=", ".join([*clocks.TIME_CONTROLS, *clocks.ON_TIMEOUT])) from exc

    async def _seat_clocks(self, game_id: int) -> dict[int, clocks.SeatClock]:
        return {r["seat"]: clocks.SeatClock(**r) for r in await self.store.clocks(game_id)}

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
        players who left before (resigned, out of time, dropped) placed after those who stayed, the first to
        leave last."""
        return ending.natural(game.num_players, result, await self._departures(game), game.version + 1).to_json()

    async def _departures(self, game: GameRow) -> list[Departure]:
        """Who left the game before its end, in the order they left. A seat that forfeited before departures
        were recorded (its clock says so, no departure row) counts as having left first."""
        left = [Departure(d["seat"], How(d["how"]), d["step"]) for d in await self.store.departures(game.id)]
        known = {d.seat for d in left}
        older = [Departure(s, How.FORFEIT) for s, c in sorted((await self._seat_clocks(game.id)).items())
                 if c.forfeited and s not in known]
        return older + left

    async def _stand_ins(self, game: GameRow) -> set[int]:
        """Seats of people the AI plays for (they timed out, or forfeited a game of more than two)."""
        return {s for s, c in (await self._seat_clocks(game.id)).items() if c.stand_in}

    async def _hand_back(self, game: GameRow, seat: int) -> bool:
        """A person back after a timeout takes their seat over from the AI (not after a forfeit); whether they
        did. The caller holds the game's lock."""
        if game.status != "running":
            return False
        seat_clocks = await self._seat_clocks(game.id)
        c = seat_clocks.get(seat)
        if c is None or not c.stand_in or c.forfeited:
            return False
        seat_clocks[seat] = replace(c, stand_in=False)
        await self.store.set_clocks(game.id, list(seat_clocks.values()),
                                    publish=[t("clock_back", name=game.seat_row(seat).name)])
        if (restarted := await self._clocks_after(game, await self._state(game))) is not None:
            await self.store.set_clocks(game.id, restarted)
        return True

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
            if c.stand_in:
                lines.append(t("clock_forfeited_line" if c.forfeited else "clock_stand_in_line", name=row.name))
            elif row.user_id in away:
                lines.append(t("clock_paused_line", name=row.name, until=f"<t:{away[row.user_id]}:f>"))
            elif c.running:
                deadlines[seat] = c.deadline
                lines.append(t("clock_line", name=row.name, deadline=f"<t:{c.deadline}:R>"))
        return lines, deadlines

    async def _picture_clock(self, game: GameRow) -> list[dict]:
        """The board picture's clock strip (render/kit.py ``clock_strip``): per seat with a running clock, away
        or played by the AI, ``{"text", "urgent"}`` in the game's language. A picture cannot show a deadline in
        each reader's time zone, so it says the time left now (``self.clock``), as the text lines do with
        Discord's relative timestamps."""
        if game.status != "running":
            return []
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
                key = "clock_picture_forfeited" if c.forfeited else "clock_picture_stand_in"
                out.append({"text": t(key, game.lang, name=row.name), "urgent": False})
            elif row.user_id in away:
                out.append({"text": t("clock_picture_away", game.lang, name=row.name), "urgent": False})
            elif c.running:
                left = c.left(now)
                out.append({"text": t("clock_picture_left", game.lang, name=row.name,
                                      left=time_left(left, game.lang)), "urgent": left <= clocks.HOUR})
        return out

    async def clock_summary(self, game: GameRow) -> str:
        """A short word on a game's clock for ``/game list``: its time control and the nearest deadline."""
        control = clocks.control_of(game.options)
        if game.status != "running" or not control.timed:
            return ""
        running = [c.deadline for c in (await self._seat_clocks(game.id)).values()
                   if c.running and c.paused_at is None and not c.stand_in]
        return f"⏳ {control.name}" + (f" <t:{min(running)}:R>" if running else "")

    async def heartbeat(self, now: datetime | None = None, *, shards: Shards | None = None) -> int:
        """Record that the host is up; after an outage (a gap longer than ``clock.OUTAGE_AFTER``) every running
        clock gets the downtime back. Returns the seconds given back (the most, over the shards).

        Sharded (``shards``, host/shards.py), each shard has a heartbeat of its own, and an outage is given back
        to that shard's games only: one process down does not stop the clocks of another's games, and a shard
        moved to another process keeps its heartbeat."""
        at = clocks.seconds(now or self.clock())
        most = 0
        for name, mine in _heartbeats(shards):
            previous = await self.store.beat(at, name)
            gap = at - previous if previous is not None else 0
            if gap > clocks.OUTAGE_AFTER:
                await self.store.shift_clocks(gap, shards=mine)
                log.info("%s was down %d s: its clocks get it back", name, gap)
                most = max(most, gap)
        return most

    async def expire_clocks(self, now: datetime | None = None, *, shards: Shards | None = None) -> list[int]:
        """Apply what the clocks owe at ``now``: end vacations that are over, give warnings (half time, one hour
        left), and act for the seats whose time ran out (the default choice of a simultaneous decision; else the
        AI stands in, or the seat forfeits). Narration goes to the outbox. Returns the games changed.
        ``shards``: only the games of these shards' servers (a vacation spans servers: ending one is the same
        change whichever process makes it first, and a no-op for the next)."""
        at = clocks.seconds(now or self.clock())
        for user_id, until in await self.store.ended_aways(at):
            await self.store.end_away(user_id, at=until)
        changed = []
        for game_id in await self.store.due_clocks(at, shards=shards):
            async with self.lock(game_id):
                game = await self.game(game_id)
                if game.status == "running" and await self._expire_game(game, at):
                    changed.append(game_id)
        return changed

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
            c, row = seat_clocks[seat], game.seat_row(seat)
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
                legal = self._legal(game, state, seat)
                action = clocks.default_action(legal)
                label = presenter_for(game.engine).describe(self._view(game, state, seat), action,
                                                            legal.index(action)).label
                lines = await self._commit(game, state, seat, row.user_id, action, told_before=[
                    t("clock_timeout_default", name=row.name, label=label)])
                await self.run_automatic(game, lines)
                continue
            await self._time_out(game, seat, policy)
        return done

    async def _time_out(self, game: GameRow, seat: int, policy: str) -> None:
        """A seat ran out of time on its own move: the AI stands in, or it forfeits."""
        if policy == "forfeit":
            await self._forfeit(game, seat, "clock_timeout_forfeit", How.TIMEOUT)
            return
        seat_clocks = await self._seat_clocks(game.id)
        stopped = replace(seat_clocks[seat], started=None, deadline=None, stand_in=True, simultaneous=False,
                                 bank=0 if seat_clocks[seat].bank is not None else None)
        seat_clocks[seat] = stopped
        await self.store.set_clocks(game.id, list(seat_clocks.values()), publish=[t(
            "clock_timeout_ai", name=game.seat_row(seat).name)])
        await self.run_automatic(game)

    async def _forfeit(self, game: GameRow, seat: int, key: str, how: How = How.TIMEOUT) -> None:
        """``seat`` leaves the game (``how``: resigned, out of time, dropped; host/ending.py), told by the line
        ``key``. A game with fewer than two players left, or with nobody but AI seats, ends at once (those who
        stayed first, the others in the reverse order they left); otherwise the AI finishes the seat and the
        player is placed by the order of leaving when the game ends. The caller holds the game's lock."""
        seat_clocks = await self._seat_clocks(game.id)
        c = seat_clocks.get(seat) or clocks.SeatClock(seat)
        seat_clocks[seat] = replace(c, started=None, deadline=None, stand_in=True, forfeited=True)
        leaving = Departure(seat, how, game.version)
        left = [d for d in await self._departures(game) if d.seat != seat] + [leaving]
        gone = {d.seat for d in left}
        staying = [s for s in game.seats if s.seat not in gone]
        line = t(key, name=game.seat_row(seat).name, game=game.id)
        depart = (seat, how.value, game.version)
        if len(staying) < 2 or all(s.is_ai for s in staying):
            result = ending.walked_out(game.num_players, left, game.version).to_json()
            # one save: a crash never leaves the game over without the board that says so
            await self.store.set_status(game.id, "finished", result, publish=[line],
                                        clocks=list(seat_clocks.values()), depart=depart)
            game.status, game.result = "finished", result
            return
        await self.store.set_clocks(game.id, list(seat_clocks.values()), publish=[line, t("clock_forfeit_ai")],
                                    depart=depart)
        await self.run_automatic(game)

    async def resign(self, game_id: int, user_id: int, asker: Asker | None = None) -> GameRow:
        """The user gives their running game up (ranked last; see :meth:`_forfeit`); the board is owed through
        the outbox."""
        async with self.lock(game_id):
            game = await self.game(game_id, asker)
            seat = game.seat_of(user_id)
            if seat is None:
                raise GameError.of("not_playing", game=game_id)
            if game.status != "running":
                raise (GameError.of("not_started", game=game_id) if game.status == "lobby"
                       else GameError.of("game_over", game=game_id))
            if seat in {d.seat for d in await self._departures(game)}:
                raise GameError.of("game_over", game=game_id)
            await self._forfeit(game, seat, "clock_resigned", How.RESIGNED)
            return await self.game(game_id)

    async def drop(self, game_id: int, user_id: int) -> GameRow:
        """A tournament dropped the user: they leave their running match game like a resignation (placed by
        the order of leaving, the AI finishing their seat; a game of two ends). Nothing happens when they are
        not playing it (any more)."""
        async with self.lock(game_id):
            game = await self.game(game_id)
            seat = game.seat_of(user_id)
            if seat is not None and game.status == "running" and seat not in {
                    d.seat for d in await self._departures(game)}:
                await self._forfeit(game, seat, "left_dropped", How.DROPPED)
            return await self.game(game_id)

    async def set_away(self, user_id: int, days: int | None, now: datetime | None = None) -> str:
        """Start a vacation of ``days`` (pausing the user's clocks in all their games), or end it (``days``
        None): the answer for the user. At most ``clock.AWAY_DAYS_PER_MONTH`` days per calendar month; days not
        used by coming back early are given back."""
        when = now or self.clock()
        at, month = clocks.seconds(when), when.astimezone(UTC).strftime("%Y-%m")
        record = await self.store.away(user_id) or {"since": None, "until": None, "month": month, "used_days": 0}
        used = record["used_days"] if record["month"] == month else 0
        limit = clocks.AWAY_DAYS_PER_MONTH
        on = record["since"] is not None and record["until"] > at
        if days is None:
            if not on:
                raise GameError.of("away_not")
            unused = (record["until"] - at) // clocks.DAY
            await self.store.end_away(user_id, at=at, used_days=max(0, used - unused))
            return t("away_off")
        if on:
            raise GameError.of("away_already", until=f"<t:{record['until']}:f>")
        if not isinstance(days, int) or days < 1 or used + days > limit:
            raise GameError.of("away_limit", max=limit, left=max(0, limit - used))
        if record["since"] is not None:  # a vacation that ran out and was not ended yet
            await self.store.end_away(user_id, at=record["until"])
        until = at + days * clocks.DAY
        await self.store.set_away(user_id, since=at, until=until, month=month, used_days=used + days)
        return t("away_on", until=f"<t:{until}:f>", used=used + days, max=limit)
