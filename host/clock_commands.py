"""What players do with their turn clocks (host/turn_clocks.py keeps the clocks themselves): resign, claim a
win or a draw over an absent opponent, give another player time, go away on vacation. A mixin of
``GameService`` extending :class:`host.turn_clocks.TurnClocks`, on :class:`host.service_core.ServiceCore`."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from engines import ENGINES
from host import clock as clocks
from host.asker import Asker
from host.ending import How
from host.errors import GameError
from host.locale import t
from host.service_core import seat_row
from host.turn_clocks import TurnClocks, time_left
from store import GameRow

#: most hours ``/game moretime`` gives at once
MAX_GIFT_HOURS = 72


class ClockCommands(TurnClocks):
    """Resigning, claims, time given and vacations of :class:`host.service.GameService`."""

    async def _playing(self, game_id: int, user_id: int, asker: Asker | None) -> tuple[GameRow, int]:
        """The running game and the user's seat in it, or the refusal (not playing, not running, already out).
        The caller holds the game's lock."""
        game = await self.game(game_id, asker)
        seat = game.seat_of(user_id)
        if seat is None:
            raise GameError.of("not_playing", game=game_id)
        if game.status != "running":
            raise (GameError.of("not_started", game=game_id) if game.status == "lobby"
                   else GameError.of("game_over", game=game_id))
        if (await self._seat_clocks(game_id)).get(seat, clocks.SeatClock(seat)).forfeited:
            raise GameError.of("already_out", game=game_id)
        return game, seat

    async def may_resign(self, game_id: int, user_id: int, asker: Asker | None = None) -> GameRow:
        """The game the user may resign now, or the refusal (``/game resign`` asks only then)."""
        async with self.lock(game_id):
            game, _ = await self._playing(game_id, user_id, asker)
            return game

    async def resign(self, game_id: int, user_id: int, asker: Asker | None = None) -> GameRow:
        """The user gives their running game up (ranked last; see :meth:`_forfeit`); the board is owed through
        the outbox."""
        async with self.lock(game_id):
            game, seat = await self._playing(game_id, user_id, asker)
            await self._forfeit(game, seat, "clock_resigned", how=How.RESIGNED)
            return await self.game(game_id)

    async def drop(self, game_id: int, user_id: int) -> GameRow:
        """A tournament dropped the user: they leave their running match game like a resignation (placed by
        the order of leaving, the AI finishing their seat; a game of two ends). Nothing happens when they are
        not playing it (any more)."""
        async with self.lock(game_id):
            game = await self.game(game_id)
            seat = game.seat_of(user_id)
            if seat is not None and game.status == "running" and not (
                    await self._seat_clocks(game_id)).get(seat, clocks.SeatClock(seat)).forfeited:
                await self._forfeit(game, seat, "left_dropped", how=How.DROPPED)
            return await self.game(game_id)

    async def claim(self, game_id: int, user_id: int, draw: bool = False, asker: Asker | None = None) -> GameRow:
        """The user claims the win over the opponents whose time ran out at least ``clock.claim_after`` ago and
        who have not come back (they forfeit: a game of two ends, a larger one goes on without them), or, in a
        game of two, a draw (as lichess offers when an opponent has left). The board is owed through the outbox."""
        async with self.lock(game_id):
            game, seat = await self._playing(game_id, user_id, asker)
            control = clocks.control_of(game.options)
            if not control.timed:
                raise GameError.of("claim_no_clock", game=game_id)
            if draw and game.num_players != 2:
                raise GameError.of("claim_draw_two")
            await self._hand_back(game, seat)  # claiming is playing: a claimer the AI stood in for is back
            seat_clocks = await self._seat_clocks(game_id)
            absent = sorted((c.out_since or 0, s) for s, c in seat_clocks.items()
                            if s != seat and c.stand_in and not c.forfeited)
            if not absent:
                raise GameError.of("claim_nobody", game=game_id)
            now, wait = clocks.seconds(self.clock()), clocks.claim_after(control)
            due = [s for since, s in absent if now - since >= wait]
            if not due:
                since, s = absent[0]
                raise GameError.of("claim_wait", name=seat_row(game, s).name, when=f"<t:{since + wait}:R>")
            claimer = seat_row(game, seat).name
            if draw:
                await self._end(game, seat_clocks, [1, 1], [t("claim_draw_line", name=claimer, game=game_id,
                                                               other=seat_row(game, due[0]).name)], draw=True)
                return await self.game(game_id)
            for s in due:
                if game.status != "running":
                    break
                await self._forfeit(game, s, "claim_win_line", claimer=claimer, dm=t(
                    "claim_dm", game.lang, game=game_id, title=ENGINES[game.engine].title, name=claimer))
            return await self.game(game_id)

    async def give_time(self, game_id: int, user_id: int, hours: int, to_user: int | None = None,
                        asker: Asker | None = None) -> GameRow:
        """The user gives another player ``hours`` more (as lichess's "give time"): their running move ends
        later, or, with a bank, their bank grows. ``to_user`` may be left out in a game of two people. Not in
        tournament matches (the organizer's clock is the same for everyone). Told in the thread with the board's
        new times."""
        async with self.lock(game_id):
            game, seat = await self._playing(game_id, user_id, asker)
            control = clocks.control_of(game.options)
            if not control.timed:
                raise GameError.of("claim_no_clock", game=game_id)
            if game.tournament_id is not None:
                raise GameError.of("moretime_tournament")
            if not isinstance(hours, int) or not 1 <= hours <= MAX_GIFT_HOURS:
                raise GameError.of("moretime_hours", max=MAX_GIFT_HOURS)
            others = [s for s in game.seats if not s.is_ai and s.seat != seat]
            target = next((s for s in others if s.user_id == to_user), None) if to_user is not None else (
                others[0] if len(others) == 1 else None)
            if target is None:
                raise GameError.of("moretime_who" if to_user is None or to_user != user_id else "moretime_self",
                                   game=game_id)
            seat_clocks = await self._seat_clocks(game_id)
            c = seat_clocks.get(target.seat) or clocks.SeatClock(target.seat)
            if c.stand_in:
                raise GameError.of("moretime_out", name=target.name)
            gift, now = hours * clocks.HOUR, clocks.seconds(self.clock())
            bank = c.bank + gift if c.bank is not None else None
            if c.deadline is not None:  # (running)
                deadline = c.deadline + gift
                c = replace(c, deadline=deadline, bank=bank,
                            warned_hour=c.warned_hour and deadline - now <= clocks.HOUR)
                told = t("moretime_line", giver=seat_row(game, seat).name, name=target.name,
                         time=time_left(gift), deadline=f"<t:{deadline}:R>")
            elif bank is not None:
                c = replace(c, bank=bank)
                told = t("moretime_bank_line", giver=seat_row(game, seat).name, name=target.name,
                         time=time_left(gift), bank=time_left(bank))
            else:
                raise GameError.of("moretime_not_running", name=target.name)
            seat_clocks[target.seat] = c
            await self.store.set_clocks(game_id, list(seat_clocks.values()), publish=[told])
            return game

    async def set_away(self, user_id: int, days: int | None, now: datetime | None = None) -> str:
        """Start a vacation of ``days`` (pausing the user's clocks in all their games), or end it (``days``
        None): the answer for the user. At most ``clock.AWAY_DAYS_PER_MONTH`` days per calendar month; days not
        used by coming back early are given back. Each game with a clock is told in its thread, with the board's
        new times."""
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
            await self.store.end_away(user_id, at=at, used_days=max(0, used - unused),
                                      publish=await self._away_notes(user_id, "clock_away_back"))
            return t("away_off")
        if on:
            raise GameError.of("away_already", until=f"<t:{record['until']}:f>")
        if not isinstance(days, int) or days < 1 or used + days > limit:
            raise GameError.of("away_limit", max=limit, left=max(0, limit - used))
        if record["since"] is not None:  # a vacation that ran out and was not ended yet
            await self._end_away(user_id, record["until"])
        until = at + days * clocks.DAY
        await self.store.set_away(user_id, since=at, until=until, month=month, used_days=used + days,
                                  publish=await self._away_notes(user_id, "clock_away_on", until=f"<t:{until}:f>"))
        return t("away_on", until=f"<t:{until}:f>", used=used + days, max=limit)

    async def away_games(self, user_id: int) -> list[int]:
        """The running games with a clock where the user has a seat (their boards tell a vacation)."""
        return await self.store.clock_games(user_id=user_id)
