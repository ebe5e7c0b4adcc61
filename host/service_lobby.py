"""The game service's lobby and seating: opening a game (and a rematch), joining, leaving, starting, and
ending one from outside play (abandoned, called off, decided by a tournament)."""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass, replace

from ai import levels as ai_levels
from engines import ENGINES, IllegalAction
from host import clock as clocks
from host import ending
from host.asker import Asker
from host.ending import Ending
from host.errors import GameError
from host.locale import language, t, use_language
from host.outcome import Outcome
from host.presenters import presenter_for
from host.service_core import AI_LEVEL, LiveState, ServiceCore, seat_row
from store import GameRow

log = logging.getLogger(__name__)


def _clock_option(control: str | None, on_timeout: str | None, opponent: str) -> dict:
    """The stored clock options of a new game, or the refusal naming the bad option and its values."""
    try:
        return clocks.clock_options(control, on_timeout, opponent)
    except clocks.BadClockOption as exc:  # each option with its own values
        raise GameError.of("option_choice", name=exc.option, value=exc.value[:40],
                           choices=", ".join(exc.choices)) from exc


def _check_new(key: str, guild_id: int | None, opponent: str, invite: tuple[int, str] | None,
               level: str | None) -> None:
    """Refuse a new game of an unknown kind or AI level, or one outside a server that others would have to join
    (nobody else could ever see or join it)."""
    if level is not None and level not in ai_levels.LEVELS:
        raise GameError.of("unknown_ai_level", level=str(level)[:20])
    if key not in ENGINES:
        raise GameError.of("unknown_game", key=key[:40])
    if guild_id is None and (opponent != "ai" or invite is not None):
        raise GameError.of("dm_needs_ai")


def _table(key: str, options: dict, opponent: str) -> tuple[int, int | None, dict]:
    """(seats of the table, the player count chosen or None, the engine's options) of a new game of ``key``
    with the command's ``options``, checked now (not when the last player has joined): GameError in the
    game's own words."""
    engine, presenter = ENGINES[key], presenter_for(key)
    try:
        if "opponent" in inspect.signature(presenter.engine_options).parameters:
            num_players, engine_options = presenter.engine_options(dict(options), opponent=opponent)
        else:  # (a presenter written before tables were sized against the AI)
            num_players, engine_options = presenter.engine_options(dict(options))
    except ValueError as exc:
        raise GameError(str(exc)) from exc
    # without a player count, a lobby waits for a full table, and a game against the AI is the smallest
    num = num_players or (engine.min_players if opponent == "ai" else engine.max_players)
    try:
        engine.new_game(max(engine.min_players, min(num, engine.max_players)), 0, dict(engine_options))
        # the bounds the command tree advertises hold here too (a stale client may send anything); after
        # the game's own checks, whose words are more specific
        presenter.check_options(options)
    except (ValueError, IllegalAction) as exc:
        raise GameError(str(exc)) from exc
    return num, num_players, engine_options


@dataclass
class Rematch:
    """What a Rematch click did: opened ``game`` (``joined`` False; ``call``: the people to call to it) or, as
    another player had opened it already, seated the clicker in it (``joined`` True). ``outcome``: its first
    board when it started."""

    game: GameRow
    outcome: Outcome | None
    call: list[int]
    joined: bool = False


class Lobby(ServiceCore):
    """Lobby, seats, start and ends from outside play of :class:`host.service.GameService`."""

    async def create(self, key: str, *, user_id: int, user_name: str, guild_id: int | None,
                     channel_id: int | None, options: dict | None = None, opponent: str = "open",
                     invite: tuple[int, str] | None = None, lang: str | None = None,
                     time_control: str | None = None, on_timeout: str | None = None,
                     level: str | None = None) -> tuple[GameRow, Outcome | None]:
        """Open a lobby with the creator in seat 0. ``opponent="ai"`` fills every other seat with the AI and
        starts at once; ``invite`` reserves seat 1 for a person; ``lang`` ("en", "hu", "pl" or a Discord
        locale) is the language the game is played in; ``level`` (easy, normal, hard) the AI seats' level."""
        use_language(lang)
        _check_new(key, guild_id, opponent, invite, level)
        presenter = presenter_for(key)
        num, num_players, engine_options = _table(key, options or {}, opponent)
        clock = _clock_option(time_control, on_timeout, opponent)
        host_seat = presenter.creator_seat(dict(options or {}))
        stored = {"engine": engine_options, "players": num_players, "lang": language(lang), "clock": clock}
        if "side" in {spec.name for spec in presenter.options} and (options or {}).get("side") is not None:
            stored["host_seat"] = host_seat  # a side chosen: seats keep their places (no reseating)
        async with self.limits.lock(guild_id):  # counted and stored together: a flood cannot all see room
            if opponent != "ai":  # a lobby (against the AI the game starts at once)
                await self.limits.check_lobbies(guild_id, channel_id, user_id)
            game_id = await self.store.create_game(engine=key, options=stored,
                                                   seed=self._seed(), num_players=num, guild_id=guild_id,
                                                   channel_id=channel_id, host_user_id=user_id)
            await self.store.set_seat(game_id, host_seat, user_id=user_id, name=user_name)
        free = [seat for seat in range(num) if seat != host_seat]
        if invite is not None and invite[0] != user_id:
            await self.store.set_seat(game_id, free.pop(0), user_id=invite[0], name=invite[1])
        if opponent == "ai":
            await self._seat_ai(game_id, free, level)
        game = await self.game(game_id)
        if len(game.seats) >= num:
            outcome = await self.start(game_id, user_id)
            return outcome.game, outcome
        return game, None

    async def _seat_ai(self, game_id: int, seats: list[int], level: str | None) -> None:
        """Seat the AI (at ``level``, default normal) in ``seats`` of a new game against the AI."""
        for seat in seats:
            # one AI is "AI"; several are told apart by their seat number
            name = t("ai_name") if len(seats) == 1 else f"{t('ai_name')} {seat + 1}"
            if level is not None and level != AI_LEVEL:  # an easy or hard AI says so in its name
                name = f"{name} ({t('ai_level_' + level)})"
            await self.store.set_seat(game_id, seat, ai_level=level or AI_LEVEL, name=name)

    async def ai_match(self, key: str, num_players: int | None = None, options: dict | None = None,
                       guild_id: int | None = None, lang: str | None = None) -> Outcome:
        """A game between AI seats only, played to the end at once (the demo; AI tournaments)."""
        engine = ENGINES[key]
        presenter = presenter_for(key)
        num = num_players or engine.min_players
        use_language(lang)
        game_id = await self.store.create_game(engine=key, options={"engine": dict(options or {}), "players": num,
                                                                    "lang": language(lang)},
                                               seed=self._seed(), num_players=num, guild_id=guild_id,
                                               channel_id=None, host_user_id=0)
        for seat in range(num):
            await self.store.set_seat(game_id, seat, ai_level=AI_LEVEL,
                                      name=f"{t('ai_name')} {presenter.seat_label(seat)}")
        return await self.start(game_id, 0)

    async def rematch(self, game_id: int, user_id: int, user_name: str, asker: Asker | None = None) -> Rematch:
        """A new game like a finished one (same game, options, language and AI seats), opened by one of its
        players in seat 0; the other people are not seated for them but called to join. Once per game: under the
        old game's lock, a second click (a double click, or another player) does not open another game - the
        clicker is seated in the rematch while its lobby is open, else told where it is."""
        async with self.lock(game_id):
            old = await self.game(game_id, asker)
            mine = old.seat_of(user_id)
            if mine is None:
                raise GameError.of("not_playing", game=game_id)
            if old.status != "finished":
                raise GameError.of("rematch_not_over", game=game_id)
            existing = await self.store.rematch_of(game_id)
            if existing is not None:
                return await self._join_rematch(existing, user_id, user_name)
            options = {"engine": dict(old.options.get("engine") or {}), "players": old.options.get("players"),
                       "lang": old.lang, "rematch_of": game_id, "clock": old.options.get("clock")}
            sides = "host_seat" in old.options
            if sides:  # sides were chosen: everyone keeps the side they played
                options["host_seat"] = mine
            ai_seats = [s for s in old.seats if s.is_ai]
            async with self.limits.lock(old.guild_id):
                if len(ai_seats) + 1 < old.num_players:  # others must join: a lobby
                    await self.limits.check_lobbies(old.guild_id, old.channel_id, user_id)
                new_id = await self.store.create_game(engine=old.engine, options=options, seed=self._seed(),
                                                      num_players=old.num_players, guild_id=old.guild_id,
                                                      channel_id=old.channel_id, host_user_id=user_id)
                await self.store.set_seat(new_id, mine if sides else 0, user_id=user_id,
                                          name=user_name)
            if sides:
                for row in ai_seats:
                    await self.store.set_seat(new_id, row.seat, ai_level=row.ai_level, name=row.name)
            else:
                for seat, row in zip(range(old.num_players - len(ai_seats), old.num_players), ai_seats):
                    await self.store.set_seat(new_id, seat, ai_level=row.ai_level, name=row.name)
        call = [s.user_id for s in old.seats if s.user_id and s.user_id != user_id]
        game = await self.game(new_id)
        if len(game.seats) >= game.num_players:
            outcome = await self.start(new_id, user_id)
            return Rematch(outcome.game, outcome, call)
        return Rematch(game, None, call)

    async def _join_rematch(self, game: GameRow, user_id: int, user_name: str) -> Rematch:
        """A Rematch click after the rematch was opened: a seat in its lobby, or where it is."""
        place = f"<#{game.thread_id or game.channel_id}>"
        if game.status == "lobby" and game.seat_of(user_id) is None:
            try:
                joined, outcome = await self.join(game.id, user_id, user_name)
            except GameError:
                pass  # full or started meanwhile: say where it is
            else:
                return Rematch(joined, outcome, [], joined=True)
        raise GameError.of("already_rematched", game=game.id, place=place)

    async def attach(self, game_id: int, *, thread_id: int | None = None, board_message_id: int | None = None,
                     opening_owed: bool | None = None) -> None:
        """Record where the game lives on Discord; ``opening_owed``: whether its first message is still to be
        posted there (host/places.py)."""
        await self.store.set_places(game_id, thread_id=thread_id, board_message_id=board_message_id,
                                    opening_owed=opening_owed)

    async def join(self, game_id: int, user_id: int, name: str,
                   asker: Asker | None = None) -> tuple[GameRow, Outcome | None]:
        """Take the first free seat; a game that becomes full starts (under the same lock, so a Start pressed
        meanwhile cannot come between the seat and the start)."""
        async with self.lock(game_id):
            game = await self.game(game_id, asker)
            if game.status != "lobby":
                raise GameError.of("already_started", game=game_id)
            if game.seat_of(user_id) is not None:
                raise GameError.of("already_seated", game=game_id)
            taken = {s.seat for s in game.seats}
            if len(taken) >= game.num_players:
                raise GameError.of("game_full", game=game_id)
            seat = min(set(range(game.num_players)) - taken)
            await self.store.set_seat(game_id, seat, user_id=user_id, name=name)
            game = await self.game(game_id)
            if len(game.seats) >= game.num_players:
                outcome = await self._start(game_id, game.host_user_id)
                return outcome.game, outcome
        return game, None

    async def leave(self, game_id: int, user_id: int, asker: Asker | None = None) -> tuple[GameRow, Outcome | None]:
        """In the lobby: give the seat up. In a running game: the AI takes the seat over and plays on."""
        async with self.lock(game_id):
            game = await self.game(game_id, asker)
            seat = game.seat_of(user_id)
            if seat is None:
                raise GameError.of("not_playing", game=game_id)
            if game.status == "lobby":
                if user_id == game.host_user_id:
                    await self.store.set_status(game_id, "abandoned")
                    return await self.game(game_id), None
                await self.store.remove_seat(game_id, seat)
                if "host_seat" not in game.options:  # a chosen side keeps its seat
                    remaining = sorted(s.seat for s in game.seats if s.seat != seat)
                    await self.store.reseat(game_id, remaining)
                return await self.game(game_id), None
            if game.status != "running":
                raise GameError.of("game_over", game=game_id)
            name = seat_row(game, seat).name
            left = [t("left_running", name=name, game=game_id)]
            level = await self.stand_in_level(game.guild_id)
            # "AI (Ann)"; a server whose stand-ins are not normal says so: "AI (Ann, hard)"
            said = name if level == AI_LEVEL else f"{name}, {t('ai_level_' + level)}"
            await self.store.set_seat(game_id, seat, ai_level=level, name=f"{t('ai_name')} ({said})", publish=left)
            game = await self.game(game_id)
            outcome = await self._advance(game, list(left))
            return outcome.game, outcome

    async def start(self, game_id: int, user_id: int, asker: Asker | None = None) -> Outcome:
        """Deal the game; AI seats that are to act move at once."""
        async with self.lock(game_id):
            await self.game(game_id, asker)
            return await self._start(game_id, user_id)

    async def _start(self, game_id: int, user_id: int) -> Outcome:
        """:meth:`start` with the game's lock held."""
        game = await self.game(game_id)
        if game.status != "lobby":
            raise GameError.of("already_started", game=game_id)
        engine = ENGINES[game.engine]
        if user_id != game.host_user_id:
            host = next((s.name for s in game.seats if s.user_id == game.host_user_id), "the host")
            raise GameError.of("only_host_starts", host=host, game=game_id)
        count = len(game.seats)
        if count < engine.min_players:
            raise GameError.of("need_players", title=engine.title, min=engine.min_players, count=count)
        seats = sorted(s.seat for s in game.seats)
        if seats != list(range(count)):
            await self.store.reseat(game_id, seats)
        game = await self.game(game_id)  # the seats as they are now
        users = {s.seat: s.user_id for s in game.seats if not s.is_ai and s.user_id is not None}
        engine_options = await self.decks.fill(game.engine, dict(game.options.get("engine", {})), users)
        try:
            state = engine.new_game(count, game.seed, dict(engine_options))
        except (ValueError, IllegalAction) as exc:
            raise GameError(str(exc)) from exc
        # the options the game was dealt with (a seat's own deck filled in), so that a replay deals it again
        filled = {**game.options, "engine": engine_options} if engine_options != game.options.get("engine", {}) \
            else None
        game = await self.game(game_id)
        presenter = presenter_for(game.engine)
        players = ", ".join(f"{s.name} ({presenter.seat_label(s.seat)})" for s in game.seats)
        lines = [t("started", game=game_id, title=engine.title, players=players),
                 *presenter.opening_lines(engine.view(state, None), self.names(game))]
        await self.store.start_game(game_id, num_players=count, snapshot=engine.to_json(state),
                                    rules_version=engine.rules_version, publish=lines, options=filled)
        game = await self.game(game_id)
        self._live[game_id] = LiveState(game.version, state)
        if (started := await self._clocks_after(game, state)) is not None:
            await self.store.set_clocks(game_id, started)
        return await self._advance(game, list(lines))

    async def abandon(self, game_id: int, user_id: int, *, moderator: bool = False,
                      asker: Asker | None = None, publish: list[str] | None = None,
                      by: str | None = None, note: dict | None = None) -> GameRow:
        """End a game without a result: its host, or a moderator of the server the game belongs to (with an
        ``asker``, only its ``moderator`` flag counts, and only on the game's own server). ``publish``: the
        narration of a last board owed to its thread, saved in the same transaction; ``by`` (who called it off)
        and ``note`` go into its ending (host/ending.py)."""
        if asker is not None:
            moderator = asker.moderator and asker.guild_id is not None
        async with self.lock(game_id):
            game = await self.game(game_id, asker, readable=False)  # a game that cannot be played can be ended
            if game.status in ("finished", "abandoned"):
                raise GameError.of("game_over", game=game_id)
            if user_id != game.host_user_id and not moderator:
                raise GameError.of("only_host_abandons", game=game_id)
            result = None
            if game.status == "running":  # a lobby that never started has nothing to end
                result = ending.abandoned(game.version, **({"by": by} if by else {}), **(note or {})).to_json()
            await self.store.set_status(game_id, "abandoned", result, publish=publish)
            self._live.pop(game_id, None)
            return await self.game(game_id, readable=False)

    async def end(self, game_id: int, how: Ending, *, publish: list[str], overrule: bool = False) -> GameRow:
        """End a running game from outside play with the ending ``how`` (a tournament's decision: adjudicated,
        a round's deadline, a dropped player; host/tournaments.py): finished with its places, or abandoned when
        it has none. ``publish``: the narration of its last board, saved in the same transaction. ``overrule``:
        a finished game gets ``how`` instead of its result (an organizer deciding a match played out), so that
        the game and the tournament's table never disagree."""
        async with self.lock(game_id):
            game = await self.game(game_id)
            if game.status != "running" and not (overrule and game.status == "finished"):
                raise GameError.of("game_over", game=game_id)
            how = replace(how, step=game.version)
            await self.store.set_status(game_id, "finished" if how.has_result else "abandoned", how.to_json(),
                                        publish=publish)
            self._live.retire(game_id)
            return await self.game(game_id)

    async def call_off(self, game_id: int) -> None:
        """A new game that could not be given its place on Discord (its lobby was refused): abandoned with
        nothing left owed, as if it had not been opened (its opener is told why)."""
        async with self.lock(game_id):
            await self.store.set_status(game_id, "abandoned")
            entries = await self.store.outbox(game_id)
            if entries:
                await self.store.outbox_done(game_id, entries[-1].id)
            self._live.pop(game_id, None)
