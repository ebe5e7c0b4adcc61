"""The game service: lobby, seats, the per-game lock and the action pipeline
(validate -> apply -> commit -> AI turns -> render), without any Discord import.

Every method returns data (``Outcome``/``PrivateView``) that the cogs turn into Discord calls, or raises
``GameError`` with a message for the person who asked.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import json
import logging
import secrets as _secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from ai import levels as ai_levels
from engines import ENGINES, IllegalAction
from engines.rng import Rng
from host import clock as clocks
from host import ending, thinking
from host.asker import Asker
from host.cache import DEFAULT_LIVE_GAMES, Bounded, LiveCache, Locks
from host.decks import DeckBook
from host.ending import Ending, ending_of
from host.errors import GameError, NeedsConfirmation, StaleBoard
from host.limits import ServerLimits
from host.locale import language, t, use_language
from host.outcome import Board, Nudge, Outcome, PrivateView, Reminder
from host.panels import Panel
from host.pictures import Pictures
from host.presenters import Refined, presenter_for
from host.seatwork import MAX_CHOICES, Turn, choices_digest, read_move, variants_of, work_out
from host.shards import Shards
from host.turn_clocks import TurnClocks
from host.undo import MARK, UNDO, final_choices, last_standing, narrate, replayed, tell_undo, undoable
from host.workers import Overrun, Workers
from render import RENDERERS
from store import DamagedRow, GameRow, Store, VersionConflict

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1  # SQLite's integers: a larger number names no game
AI_LEVEL = "normal"
#: a server's settings and their defaults (``/game server-settings``): ``ai_level`` is the level of the AI that
#: stands in for a player whose time ran out and takes over a seat its player left or was dropped from (in
#: leagues, tournaments and every other game of the server); the AI seats of ``/game new`` keep their own
SERVER_SETTINGS = {"ai_level": AI_LEVEL}
REMIND_BATCH = 200  # due games read and reminded of at a time
#: seconds after a seat's choices ran past their budget before they are worked out again (until then the same
#: position is answered at once with "too slow", so that asking again and again costs nothing)
RETRY_SLOW = 60

__all__ = ["Asker", "GameError", "GameService", "MAX_CHOICES", "StaleBoard", "choices_digest"]


@dataclass
class Rematch:
    """What a Rematch click did: opened ``game`` (``joined`` False; ``call``: the people to call to it) or, as
    another player had opened it already, seated the clicker in it (``joined`` True). ``outcome``: its first
    board when it started."""

    game: GameRow
    outcome: Outcome | None
    call: list[int]
    joined: bool = False


#: the parts of a seat's own view that ask it for a move (choices, playable cards): a hand of a game that is
#: over is drawn without them
PROMPT_KEYS = ("choices", "legal", "playable", "decision")

#: what ``/game play`` reads; a move is a few words, and a refusal must not echo pages back
MAX_MOVE_TEXT = 200
#: most variants of one action offered (``engine.variants``, e.g. who pays a HEX-TRI move): one select
MAX_VARIANTS = 25
#: the narration one page of ``/game log`` holds (a message is 2,000 characters, with its title)
LOG_PAGE_CHARS = 1800
#: most moves one page of ``/game log`` reads (moves that say nothing still cost a read), and per query
LOG_PAGE_MOVES, LOG_CHUNK = 400, 100
#: log entries read at a time when looking back for the newest action that stands (an Undo button's question)
UNDO_CHUNK = 20


@dataclass
class LogPage:
    """A page of ``/game log``: the narration of moves ``first`` to ``last`` of the ``total`` made so far."""

    game: GameRow
    lines: list[str]
    first: int
    last: int
    total: int


@dataclass
class _Live:
    """A game's engine state at ``version``, with what was already worked out about it: one action asks for the
    same view several times (label, panel, picture), and some engines pay for each. ``turns``: the
    :class:`Turn` of each seat to act (worked out in a worker); ``slow``: seat -> monotonic time until which its
    choices count as too slow to work out (see ``RETRY_SLOW``); ``snapshot``: the state as JSON text; ``born``:
    which loading of the state this is (the pictures kept are those of the state held, not of one read again)."""

    version: int
    state: object
    views: dict = field(default_factory=dict)
    turns: dict = field(default_factory=dict)
    slow: dict = field(default_factory=dict)
    snapshot: str | None = None
    born: int = field(default_factory=lambda: next(_LOADINGS))


_LOADINGS = itertools.count()


class Slow(GameError):
    """A seat's choices could not be worked out within their budget (host/workers.py); ``retry``: epoch seconds
    when asking again will work them out again."""

    def __init__(self, budget: float, retry: int) -> None:
        super().__init__(t("choices_slow", seconds=f"{budget:g}", retry=f"<t:{retry}:R>"), "choices_slow",
                         {"seconds": f"{budget:g}", "retry": f"<t:{retry}:R>"})
        self.budget, self.retry = budget, retry


class GameService(TurnClocks):
    """Owns engine states between Discord and the store. One asyncio lock per game serialises its actions."""

    def __init__(self, store: Store, *, seed_source: Callable[[], int] | None = None,
                 render: bool = True, render_processes: int = 0, live_games: int = DEFAULT_LIVE_GAMES,
                 clock: clocks.Clock | None = None, limits: dict[str, int] | None = None) -> None:
        self.store = store
        #: players' own Kiválasztottak decks (host/decks.py): a seat without a named deck plays its player's
        self.decks = DeckBook(store)
        #: the time source of turn clocks (host/clock.py); tests drive it forward
        self.clock: clocks.Clock = clock or clocks.system_clock
        #: the CPU work of an interaction off the event loop, with budgets (host/workers.py): pictures, a seat's
        #: choices, AI decisions; worker threads, or processes when ``render_processes``
        self.workers = Workers(render_processes)
        #: the pictures drawn, newest kept: none is drawn twice for the same version (host/pictures.py)
        self.pictures = Pictures()
        self._seed = seed_source or (lambda: _secrets.randbits(31))
        # memory stays bounded however many games the bot touches (host/cache.py): a lock lives while it is
        # held or awaited, at most ``live_games`` states are kept (a game being played is the last to go)
        self._locks = Locks()
        self._live = LiveCache(live_games, pinned=self._locks.held)
        self._render_enabled = render
        #: what each server allows (host/limits.py): open lobbies per member and channel, cooldowns...
        self.limits = ServerLimits(store, limits)
        #: callables ``(game, state, events)`` run after every committed action (the demo records images)
        self.observers: list[Callable] = []
        #: (game, seat) -> (version, digest) of the last DM panel sent
        self._nudged: dict[tuple[int, int], tuple[int, str]] = Bounded(8 * live_games)
        #: (game, version) -> what its snapshot says: the rules version it was saved under, or "damaged"
        self._snapshot_checks: dict[tuple[int, int], int | str | None] = Bounded(4 * live_games)
        self._unreadable_logged: dict[tuple[int, str], bool] = Bounded(1000)
        #: (game, version) -> the seat that may take its last action back then (host/undo.py), or None
        self._undoers: dict[tuple[int, int], int | None] = Bounded(4 * live_games)

    @property
    def painter(self) -> Workers:
        """(The name of the workers when they only drew pictures.)"""
        return self.workers

    def close(self) -> None:
        """Stop the worker processes and the hard AI's worker processes, if any."""
        self.workers.close()
        thinking.shutdown()

    # -- helpers ------------------------------------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks(game_id)

    async def game(self, game_id: int, asker: Asker | None = None, *, readable: bool = True) -> GameRow:
        """The game ``game_id``, as far as ``asker`` may see it (see :class:`Asker`): a game of another server,
        or in a direct message a game without the asker's seat, is "no such game" (its existence is not told).
        A game this version cannot play (damaged, or saved by a newer version: :meth:`unreadable`) is refused in
        plain words, unless ``readable`` is False (ending it needs only its row)."""
        game = await self.store.get_game(game_id, with_snapshot=False, tolerant=True) if 0 < game_id <= MAX_ID \
            else None
        if game is None or not self.may_see(game, asker):
            raise GameError.of("no_game", game=game_id)
        use_language(game.lang)  # whatever this task says about the game next is in the game's language
        if readable and (problem := self.unreadable(game)) is not None:
            raise problem
        return game

    def unreadable(self, game: GameRow, saved_under: int | None = None) -> GameError | None:
        """Why this version cannot play ``game`` (None: it can): its row is damaged (the store logged where), it
        is a kind of game this version does not have, or it was saved under newer rules (the row's or the
        snapshot's ``saved_under`` rules version) - say after a rollback to an older bot. Only that game is
        refused; nothing is changed, so a newer bot plays it again."""
        if game.damage is not None:
            return GameError.of("game_damaged", game=game.id)
        engine = ENGINES.get(game.engine)
        if engine is None:
            self._note_unreadable(game.id, f"game {game.id} is of a kind this version does not have: {game.engine!r}")
            return GameError.of("game_unknown_kind", game=game.id, kind=game.engine[:40])
        saved = max((v for v in (game.rules_version, saved_under) if isinstance(v, int)), default=None)
        if saved is not None and saved > engine.rules_version:
            self._note_unreadable(game.id, f"game {game.id} was saved under rules version {saved} of {game.engine};"
                                           f" this version plays {engine.rules_version}")
            return GameError.of("game_newer_rules", game=game.id, saved=saved, plays=engine.rules_version)
        return None

    def _note_unreadable(self, game_id: int, why: str) -> None:
        """Log once per game and reason why it cannot be played (commands and background rounds meet it again)."""
        if (game_id, why) not in self._unreadable_logged:
            self._unreadable_logged[(game_id, why)] = True
            log.warning("%s; only this game is affected", why)

    async def unreadable_in(self, games: list[GameRow], lang: str | None) -> dict[int, str]:
        """Plain words (in ``lang``) for the listed games this version cannot play, by game id (see
        :meth:`unreadable`): their rows, and the snapshots of started games (read once per version)."""
        started = [g for g in games if g.status != "lobby" and self.unreadable(g) is None]
        unknown = [g.id for g in started if (g.id, g.version) not in self._snapshot_checks]
        if unknown:
            for game_id, found in (await self.store.snapshot_problems(unknown)).items():
                version = next(g.version for g in started if g.id == game_id)
                self._snapshot_checks[(game_id, version)] = "damaged" if isinstance(found, DamagedRow) else found
        out = {}
        for g in games:
            checked = self._snapshot_checks.get((g.id, g.version)) if g.status != "lobby" else None
            problem = self.unreadable(g, checked if isinstance(checked, int) else None)
            if problem is None and checked != "damaged":
                continue
            if problem is None or problem.key == "game_damaged":
                reason = t("list_reason_damaged", lang)
            elif problem.key == "game_unknown_kind":
                reason = t("list_reason_kind", lang, kind=g.engine[:40])
            else:
                reason = t("list_reason_newer", lang, **{k: problem.fields[k] for k in ("saved", "plays")})
            out[g.id] = t("list_unreadable", lang, reason=reason)
        return out

    @staticmethod
    def may_see(game: GameRow, asker: Asker | None) -> bool:
        """The fence between servers (the one place it is decided; see :class:`Asker`)."""
        if asker is None:
            return True
        if asker.guild_id is not None:
            return game.guild_id == asker.guild_id
        return game.seat_of(asker.user_id) is not None

    async def visible_games(self, asker: Asker, *, limit: int = 25) -> list[GameRow]:
        """The open and running games ``asker`` may see: the server's, or in a direct message their own; those
        this version cannot play too (:meth:`unreadable_in` says why), so that nobody wonders where they went."""
        if asker.guild_id is None:
            return await self.store.list_games(user_id=asker.user_id, limit=limit, damaged=True)
        return await self.store.list_games(guild_id=asker.guild_id, limit=limit, damaged=True)

    async def _state(self, game: GameRow):
        """The engine state at ``game.version``: from memory, else from the stored snapshot."""
        live = self._live.get(game.id)
        if live is None or live.version != game.version:
            live = _Live(*await self._load_state(game))
            self._live[game.id] = live
        if game.status != "running":
            self._live.retire(game.id)  # nobody will play it on: the first to make room
        return live.state

    async def state_of(self, game: GameRow):
        """The engine state of ``game`` now (callers hold the game's lock and must not change it)."""
        return await self._state(game)

    async def _load_state(self, game: GameRow) -> tuple[int, object]:
        """(version, engine state) from the stored snapshot, not cached. A snapshot this version cannot play is
        refused in plain words (:meth:`unreadable`); one the rules engine cannot load is damaged (logged once)."""
        try:
            version, snapshot = await self.store.snapshot(game.id)
        except DamagedRow as exc:  # (logged by the store) this game only: every other game goes on
            self._snapshot_checks[(game.id, game.version)] = "damaged"
            raise GameError.of("game_damaged", game=game.id) from exc
        saved_under = snapshot.get("rules_version") if isinstance(snapshot, dict) else None
        if (problem := self.unreadable(game, saved_under if isinstance(saved_under, int) else None)) is not None:
            self._snapshot_checks[(game.id, version)] = saved_under
            raise problem
        try:
            return version, ENGINES[game.engine].from_json(snapshot)
        except Exception as exc:  # the rules engine's own checks (ValueError), or a state that is not one
            self._note_unreadable(game.id, f"game {game.id}: its snapshot cannot be loaded ({exc!r})")
            self._snapshot_checks[(game.id, version)] = "damaged"
            raise GameError.of("game_damaged", game=game.id) from exc

    def _memo(self, game: GameRow, state) -> _Live | None:
        live = self._live.get(game.id)
        return live if live is not None and live.state is state and live.version == game.version else None

    def _view(self, game: GameRow, state, seat: int | None) -> dict:
        """``engine.view(state, seat)`` of the spectators (None) or of a seat that is not to act, computed once
        per version (callers must not change it). Its cost is the state's size; the view of a seat to act also
        lists its legal actions, which can be any number: that one comes from :meth:`_turn`, off the loop."""
        live = self._memo(game, state)
        if live is None:
            return ENGINES[game.engine].view(state, seat)
        if seat not in live.views:
            live.views[seat] = ENGINES[game.engine].view(state, seat)
        return live.views[seat]

    def _snapshot(self, game: GameRow, state) -> str:
        """``state`` as JSON text, for the workers (once per version)."""
        live = self._memo(game, state)
        if live is not None and live.snapshot is not None:
            return live.snapshot
        text = json.dumps(ENGINES[game.engine].to_json(state))
        if live is not None:
            live.snapshot = text
        return text

    async def _turn(self, game: GameRow, state, seat: int) -> Turn:
        """What ``seat`` (to act) may do now: its view, legal actions and choices, worked out in a worker
        (``host/seatwork.py``) once per version. :class:`Slow` when that took longer than its budget; the same
        position is then answered at once with :class:`Slow` for ``RETRY_SLOW`` seconds."""
        live = self._memo(game, state)
        if live is not None:
            if seat in live.turns:
                return live.turns[seat]
            slow = live.slow.get(seat)
            if slow is not None and time.monotonic() < slow[0]:
                raise Slow(slow[1], slow[2])
        try:
            turn = await self.workers.run("turn", work_out, game.engine, self._snapshot(game, state), seat,
                                          game.lang)
        except Overrun as exc:
            retry = int(time.time()) + RETRY_SLOW
            log.warning("the choices of seat %s in game %s (version %s) took longer than %g s", seat, game.id,
                        game.version, exc.budget)
            if live is not None:
                live.slow[seat] = (time.monotonic() + RETRY_SLOW, exc.budget, retry)
            raise Slow(exc.budget, retry) from None
        if live is not None:
            live.turns[seat] = turn
        return turn

    async def _variants(self, game: GameRow, state, seat: int, index: int) -> tuple[list[dict], list]:
        """(the variants of the ``index``-th listed action of ``seat``, at most ``MAX_VARIANTS``; their choices),
        worked out in a worker (``engine.variants`` may list the seat's actions first). GameError for an index
        that names no action; :class:`Slow` past the budget."""
        try:
            found = await self.workers.run("turn", variants_of, game.engine, self._snapshot(game, state), seat,
                                           game.lang, index, MAX_VARIANTS)
        except Overrun as exc:
            raise Slow(exc.budget, int(time.time()) + RETRY_SLOW) from None
        if found is None:
            raise GameError.of("bad_choice")
        return found

    async def _asked(self, game: GameRow, state, seat: int) -> tuple[dict | None, Panel]:
        """The view and panel of a seat to act. When its choices were too slow to work out: no view (so no
        private picture) and a panel without choices that says so and when to try again."""
        try:
            turn = await self._turn(game, state, seat)
        except Slow as exc:
            return None, Panel(game.id, game.version, seat, t("choices_slow_prompt", seconds=f"{exc.budget:g}",
                                                              retry=f"<t:{exc.retry}:R>"))
        return turn.view, self._panel_of(game, seat, turn)

    @staticmethod
    def _panel_of(game: GameRow, seat: int, turn: Turn) -> Panel:
        if turn.too_many:  # no buttons: the player types the move (/game play)
            return Panel(game.id, game.version, seat, turn.prompt + "\n" + t("choices_too_many", count=turn.count,
                                                                               max=MAX_CHOICES))
        return Panel(game.id, game.version, seat, turn.prompt, turn.choices, two_step=turn.two_step,
                     digest=turn.digest, select_groups=turn.select_groups)

    @staticmethod
    def names(game: GameRow) -> list[str]:
        return [s.name for s in sorted(game.seats, key=lambda s: s.seat)]

    def _title(self, game: GameRow) -> str:
        return ENGINES[game.engine].title

    async def find_game(self, asker: Asker, *, thread_id: int | None = None, game_id: int | None = None,
                        readable: bool = True) -> GameRow:
        """The game meant by a command: the given id, else the game of this thread, else the asker's only game
        (on this server; in a direct message, anywhere) - always one ``asker`` may see (and, unless ``readable``
        is False, one this version can play: :meth:`game`)."""
        if game_id is not None:
            return await self.game(game_id, asker, readable=readable)
        if thread_id is not None:
            here = await self.store.list_games(thread_id=thread_id, limit=1, damaged=True,
                                               statuses=("lobby", "running", "finished", "abandoned"))
            if here:
                return await self.game(here[0].id, asker, readable=readable)
        mine = await self.store.list_games(user_id=asker.user_id, guild_id=asker.guild_id, damaged=True)
        if len(mine) == 1:
            return await self.game(mine[0].id, asker, readable=readable)
        raise GameError.of("no_game_here")

    # -- lobby --------------------------------------------------------------------------------------

    async def create(self, key: str, *, user_id: int, user_name: str, guild_id: int | None,
                     channel_id: int | None, options: dict | None = None, opponent: str = "open",
                     invite: tuple[int, str] | None = None, lang: str | None = None,
                     time_control: str | None = None, on_timeout: str | None = None,
                     level: str | None = None) -> tuple[GameRow, Outcome | None]:
        """Open a lobby with the creator in seat 0. ``opponent="ai"`` fills every other seat with the AI and
        starts at once; ``invite`` reserves seat 1 for a person; ``lang`` ("en", "hu", "pl" or a Discord
        locale) is the language the game is played in; ``level`` (easy, normal, hard) the AI seats' level."""
        use_language(lang)
        if level is not None and level not in ai_levels.LEVELS:
            raise GameError.of("unknown_ai_level", level=str(level)[:20])
        if key not in ENGINES:
            raise GameError.of("unknown_game", key=key[:40])
        if guild_id is None and (opponent != "ai" or invite is not None):
            raise GameError.of("dm_needs_ai")  # outside a server nobody else could ever see or join it
        engine = ENGINES[key]
        presenter = presenter_for(key)
        try:
            if "opponent" in inspect.signature(presenter.engine_options).parameters:
                num_players, engine_options = presenter.engine_options(dict(options or {}), opponent=opponent)
            else:
                num_players, engine_options = presenter.engine_options(dict(options or {}))
        except ValueError as exc:
            raise GameError(str(exc)) from exc
        # without a player count, a lobby waits for a full table, and a game against the AI is the smallest
        num = num_players or (engine.min_players if opponent == "ai" else engine.max_players)
        try:  # options are checked now, not when the last player has joined
            engine.new_game(max(engine.min_players, min(num, engine.max_players)), 0, dict(engine_options))
            # the bounds the command tree advertises hold here too (a stale client may send anything); after
            # the game's own checks, whose words are more specific
            presenter.check_options(options or {})
        except (ValueError, IllegalAction) as exc:
            raise GameError(str(exc)) from exc
        clock = self._clock_option(time_control, on_timeout, opponent)
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
            ai_seats = free
            for seat in ai_seats:
                # one AI is "AI"; several are told apart by their seat number
                name = t("ai_name") if len(ai_seats) == 1 else f"{t('ai_name')} {seat + 1}"
                if level not in (None, AI_LEVEL):  # an easy or hard AI says so in its name
                    name = f"{name} ({t('ai_level_' + level)})"
                await self.store.set_seat(game_id, seat, ai_level=level or AI_LEVEL, name=name)
        game = await self.game(game_id)
        if len(game.seats) >= num:
            outcome = await self.start(game_id, user_id)
            return outcome.game, outcome
        return game, None

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
            if old.seat_of(user_id) is None:
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
                options["host_seat"] = old.seat_of(user_id)
            ai_seats = [s for s in old.seats if s.is_ai]
            async with self.limits.lock(old.guild_id):
                if len(ai_seats) + 1 < old.num_players:  # others must join: a lobby
                    await self.limits.check_lobbies(old.guild_id, old.channel_id, user_id)
                new_id = await self.store.create_game(engine=old.engine, options=options, seed=self._seed(),
                                                      num_players=old.num_players, guild_id=old.guild_id,
                                                      channel_id=old.channel_id, host_user_id=user_id)
                await self.store.set_seat(new_id, old.seat_of(user_id) if sides else 0, user_id=user_id,
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

    async def attach(self, game_id: int, *, thread_id: int | None = None,
                     board_message_id: int | None = None) -> None:
        await self.store.set_places(game_id, thread_id=thread_id, board_message_id=board_message_id)

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
            name = game.seat_row(seat).name
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
        users = {s.seat: s.user_id for s in game.seats if not s.is_ai}
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
        self._live[game_id] = _Live(game.version, state)
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
                await self.store.outbox_done(game_id, entries[-1]["id"])
            self._live.pop(game_id, None)

    # -- playing ------------------------------------------------------------------------------------

    async def act(self, game_id: int, user_id: int, version: int, index: int,
                  digest: str | None = None, asker: Asker | None = None, *, variant: int | None = None,
                  refined: dict | None = None, typed: tuple[dict, str] | None = None,
                  confirmed: bool = True) -> Outcome:
        """Apply the ``index``-th legal action of the user's seat as of ``version``; then AI turns; then render.
        ``confirmed`` False (a click): a choice that loses something for good (``Presenter.confirm``) raises
        :class:`NeedsConfirmation` instead, unless the player turned the question off (setting ``confirm``).
        ``variant``: apply that one of the action's variants instead (its position in ``engine.variants``, at
        most :data:`MAX_VARIANTS`); ``refined``: a form of the action a player typed (see
        :class:`host.presenters.Refined`), which the engine checks.

        A click on an older board is refused as stale, with one exception that keeps simultaneous decisions
        (reaction windows) smooth: when ``digest`` (of the seat's choices as offered) still matches and every
        action since ``version`` was another seat's pass, nothing the player saw has changed. ``typed``: the
        (action, its words) that :meth:`act_text` read, instead of an index."""
        # the clocks and vacations are read once per move, not eight times (issue 29)
        async with self.lock(game_id), self.store.remembering():
            game = await self.game(game_id, asker)
            if game.status == "lobby":
                raise GameError.of("not_started", game=game_id)
            if game.status != "running":
                raise GameError.of("game_over", game=game_id)
            seat = game.seat_of(user_id)
            if seat is not None and await self._hand_back(game, seat):
                raise GameError.of("clock_handed_back", game=game_id)
            if version != game.version and (seat is None or digest is None):
                raise StaleBoard.of("stale")
            if seat is None:
                raise GameError.of("not_playing", game=game_id)
            engine = ENGINES[game.engine]
            state = await self._state(game)
            acting = engine.to_act(state)
            if seat not in acting:
                if version != game.version:
                    raise StaleBoard.of("stale")
                raise GameError.of("not_your_turn", names=self._waiting_for(game, acting))
            if typed is not None:  # (act_text: read off a position with too many choices for buttons)
                if version != game.version:
                    raise StaleBoard.of("stale")
                action, label = typed
            else:
                turn = await self._turn(game, state, seat)
                if turn.too_many:  # no button was offered for it: a click from an older board, or forged
                    raise GameError.of("choices_type_move", count=turn.count)
                legal = turn.legal
                if version != game.version and not await self._only_passes_since(
                        game, version, seat, turn.digest, digest):
                    raise StaleBoard.of("stale")
                if version == game.version and digest is not None and digest != turn.digest:
                    # the same version with other choices: a board drawn before the bot was upgraded to a version
                    # that lists this game's actions differently (HEX-TRI, issue 22); its indices mean other moves
                    raise StaleBoard.of("stale_choices")
                if not 0 <= index < len(legal):
                    raise GameError.of("bad_choice")
                action = legal[index]
                if variant is not None:
                    ways, _ = await self._variants(game, state, seat, index)
                    if not 0 <= variant < len(ways):
                        raise GameError.of("bad_choice")
                    action = ways[variant]
                elif refined is not None:
                    action = refined
                presenter = presenter_for(game.engine)
                label = presenter.describe(turn.view, action, index).label
                if not confirmed:
                    warning = presenter.confirm(turn.view, action, legal)
                    if warning and (await self.store.user_settings(user_id)).get("confirm", True):
                        raise NeedsConfirmation(label, warning, seat)
            mark = self._reversible(game, state, seat, action)
            events: list[dict] = []
            lines = await self._commit(game, state, seat, user_id, action, events, undoable=mark)
            outcome = await self._advance(game, lines, events)
            outcome.done_label = label
            return outcome

    @staticmethod
    def _reversible(game: GameRow, state, seat: int, action: dict) -> bool:
        """Whether a person's action reveals nothing and keeps their turn, so that they may take it back
        (host/undo.py). A check that fails is logged and counts as "no": the move itself is made all the same."""
        try:
            return ENGINES[game.engine].reversible(state, seat, action)
        except Exception:
            log.exception("game %s: whether %r can be taken back could not be worked out", game.id, action)
            return False

    async def undo(self, game_id: int, user_id: int, version: int, asker: Asker | None = None) -> Outcome:
        """Take back the user's last action (the board's Undo, issue 25): the game as it was before it, played
        again from its seed without it, saved as a new version with the undo in the log and its board owed to the
        thread (one transaction, as any action). Only the seat that made it, on the board it looks at
        (``version``), while nobody else has acted and nothing hidden was shown since; the clocks run on."""
        async with self.lock(game_id), self.store.remembering():
            game = await self.game(game_id, asker)
            seat = self._undo_seat(game, user_id, version)
            state = await self._state(game)
            entries = await self.store.actions(game.id)
            last = self._to_take_back(game, state, seat, entries)
            before = await self._before(game, state, seat, entries, last)
            restored = ENGINES[game.engine].from_json(before)
            taken = [e for e in last["events"] if e.get("type") != MARK]
            event = {"type": UNDO, "seat": seat, "seq": last["seq"], "events": taken}
            lines = [tell_undo(presenter_for(game.engine), event, self.names(game))]
            try:
                new_version = await self.store.commit_action(
                    game.id, expected_version=game.version, seat=seat, user_id=user_id,
                    action={"type": UNDO, "seq": last["seq"]}, events=[event], snapshot=before, result=None,
                    publish=lines)
            except VersionConflict as exc:
                self._live.pop(game.id, None)
                raise StaleBoard.of("undo_stale") from exc
            self._live[game.id] = _Live(new_version, restored)
            game.version = new_version
            return await self._outcome(game, lines, [])

    @staticmethod
    def _undo_seat(game: GameRow, user_id: int, version: int) -> int:
        """The user's seat in a running game whose current board is ``version``; else the refusal."""
        if game.status != "running":
            raise (GameError.of("game_over", game=game.id) if game.status != "lobby" else
                   GameError.of("not_started", game=game.id))
        seat = game.seat_of(user_id)
        if seat is None:
            raise GameError.of("not_playing", game=game.id)
        if version != game.version:
            raise StaleBoard.of("undo_stale")
        return seat

    def _to_take_back(self, game: GameRow, state, seat: int, entries: list[dict]) -> dict:
        """The log entry ``seat`` may take back now: its own newest move that stands, marked as reversible, with
        that seat alone to act; else the refusal (by name when it is another player's move)."""
        last = last_standing(entries, set())
        if last is not None and undoable(last) and last["seat"] != seat:
            raise GameError.of("undo_not_yours", name=self.names(game)[last["seat"]])
        if last is None or last["seat"] != seat or not undoable(last) \
                or ENGINES[game.engine].to_act(state) != [seat]:
            raise GameError.of("undo_nothing")
        return last

    async def _before(self, game: GameRow, state, seat: int, entries: list[dict], last: dict) -> dict:
        """The snapshot before ``last``: the game played again in a worker from its seed with the moves that stand
        before it, checked to give the current snapshot back with ``last`` (else nothing is taken back)."""
        engine = ENGINES[game.engine]
        standing = [(e["seat"], e["action"]) for e in final_choices(entries)[:-1]]
        try:
            before = await self.workers.run(
                "replay_step", replayed, game.engine, game.num_players, game.seed,
                dict(game.options.get("engine") or {}), game.rules_version or engine.rules_version, standing,
                (seat, last["action"]), self._snapshot(game, state))
        except Overrun as exc:
            raise Slow(exc.budget, int(time.time()) + RETRY_SLOW) from None
        if before is None:
            log.error("game %s: its log does not give its snapshot back; move %s is not taken back", game.id,
                      last["seq"])
            raise GameError.of("undo_nothing")
        return json.loads(before)

    async def undoer(self, game: GameRow) -> int | None:
        """The seat that may take its last action back now (its Undo button is shown), or None: the newest
        action that stands was a person's reversible one, and that seat alone is to act."""
        key = (game.id, game.version)
        if key in self._undoers:
            return self._undoers[key]
        seat, upto = None, game.version
        taken: set[int] = set()
        while upto > 0:
            low = max(0, upto - UNDO_CHUNK)
            last = last_standing(await self.store.actions(game.id, after=low, upto=upto), taken)
            if last is not None:
                if undoable(last) and game.status == "running":
                    state = await self._state(game)
                    seat = last["seat"] if ENGINES[game.engine].to_act(state) == [last["seat"]] else None
                break
            upto = low
        self._undoers[key] = seat
        return seat

    async def _only_passes_since(self, game: GameRow, version: int, seat: int, current: str, digest: str) -> bool:
        """Whether a board of ``version`` still holds for ``seat``: the same choices (``current`` digest equals
        the board's ``digest``) and only other seats' passes since."""
        if version > game.version or current != digest:
            return False
        since = await self.store.actions(game.id, after=version)
        return all(a["seat"] != seat and a["action"].get("type") == "pass" for a in since)

    async def act_text(self, game_id: int, user_id: int, text: str, asker: Asker | None = None) -> Outcome:
        """A typed move (``/game play``): the game's presenter turns the text into one of the choices. A text
        longer than any move (``MAX_MOVE_TEXT``) is refused without being echoed."""
        game = await self.game(game_id, asker)
        if game.status != "running":
            raise (GameError.of("game_over", game=game_id) if game.status != "lobby" else
                   GameError.of("not_started", game=game_id))
        seat = game.seat_of(user_id)
        if seat is None:
            raise GameError.of("not_playing", game=game_id)
        async with self.lock(game_id):
            state = await self._state(game)
            engine = ENGINES[game.engine]
            if seat not in engine.to_act(state):
                raise GameError.of("not_your_turn", names=self._waiting_for(game, engine.to_act(state)))
            if len(text) > MAX_MOVE_TEXT:
                raise GameError.of("move_too_long", count=len(text), max=MAX_MOVE_TEXT)
            turn = await self._turn(game, state, seat)
            typed = refined = None
            try:
                if turn.too_many:  # the reading lists every choice, so it is worked out in a worker too
                    try:
                        typed = await self.workers.run("turn", read_move, game.engine, self._snapshot(game, state),
                                                       seat, game.lang, text)
                    except Overrun as exc:
                        raise Slow(exc.budget, int(time.time()) + RETRY_SLOW) from None
                    index = -1
                else:
                    parsed = presenter_for(game.engine).parse(turn.view, turn.choices, text)
                    if isinstance(parsed, Refined):
                        index, refined = parsed.index, parsed.action
                    else:
                        index = parsed
            except ValueError as exc:
                raise GameError(str(exc)) from exc
        return await self.act(game_id, user_id, game.version, index, asker=asker, typed=typed, refined=refined)

    async def _commit(self, game: GameRow, state, seat: int, user_id: int | None, action: dict,
                      events_out: list[dict] | None = None, *, told_before: list[str] | None = None,
                      undoable: bool = False) -> list[str]:
        """Apply and persist one action with its narration in the outbox (one transaction); returns the
        narration (and adds the action's events to ``events_out``). ``told_before``: lines that go to the
        outbox ahead of the narration, in the same transaction (why the action was made). ``undoable``: its
        player may take it back (logged with a :data:`host.undo.MARK` event)."""
        engine = ENGINES[game.engine]
        try:
            events = engine.apply(state, seat, action)
        except IllegalAction as exc:
            raise GameError(str(exc)) from exc
        result = engine.result(state)
        presenter = presenter_for(game.engine)
        names = self.names(game)
        lines = [line for e in events if (line := presenter.narrate(e, names))]
        try:
            seat_clocks = await self._clocks_after(game, state, seat)
            if seat_clocks is not None and {c.seat: c for c in seat_clocks} == await self._seat_clocks(game.id):
                seat_clocks = None  # unchanged (a further decision within a turn): nothing to rewrite
            if result is not None:
                result = await self._with_forfeits(game, result)
            new_version = await self.store.commit_action(
                game.id, expected_version=game.version, seat=seat, user_id=user_id, action=action,
                events=events + [{"type": MARK}] if undoable else events, snapshot=engine.to_json(state),
                result=result, publish=(told_before or []) + lines,
                clocks=seat_clocks)
        except VersionConflict as exc:
            self._live.pop(game.id, None)  # the in-memory state ran ahead of the store: drop it
            raise StaleBoard.of("stale") from exc
        except BaseException:
            self._live.pop(game.id, None)
            raise
        self._live[game.id] = _Live(new_version, state)
        # who may take the newest move back is known without reading the log: its maker, when it is marked
        self._undoers[(game.id, new_version)] = seat if undoable and result is None else None
        # keep the caller's row in step with what was just committed (no re-read needed)
        game.version = new_version
        if result is not None:
            game.status, game.result = "finished", result
        for observer in self.observers:
            observer(game, state, events)
        if events_out is not None:
            events_out.extend(events)
        return lines

    async def _advance(self, game: GameRow, lines: list[str], events: list[dict] | None = None) -> Outcome:
        """Let AI seats act until a person must decide or the game ends, then build the Outcome."""
        events = [] if events is None else events
        await self.run_automatic(game, lines, events)
        try:
            return await self._outcome(game, lines, events)
        except GameError:
            raise
        except Exception as exc:  # what was done is saved; its board is the outbox's to build and post
            log.warning("the board of game %s could not be built (the publisher tries again): %r", game.id, exc)
            return Outcome(game=game, lines=lines)

    async def run_automatic(self, game: GameRow, lines: list[str] | None = None,
                            events: list[dict] | None = None) -> bool:
        """Play the moves nobody has to click for (AI seats, auto-passes) until a person must decide or the game
        ends; the caller holds the game's lock. Adds narration and events to ``lines``/``events``. A failing AI
        turn is logged and left for the outbox to retry (its move was never saved, the person's move is);
        returns False then."""
        lines = [] if lines is None else lines
        events = [] if events is None else events
        if game.status != "running":
            return True
        engine = ENGINES[game.engine]
        state = await self._state(game)
        presenter = presenter_for(game.engine)
        settings: dict[int, dict] = {}
        stand_ins = await self._stand_ins(game)
        while game.status == "running":
            acting = engine.to_act(state)
            ai_seat = next((s for s in acting if game.seat_row(s).is_ai or s in stand_ins), None)
            if ai_seat is not None:
                try:
                    action = await self._ai_action(game, state, ai_seat)
                    lines += await self._commit(game, state, ai_seat, game.seat_row(ai_seat).user_id
                                                if ai_seat in stand_ins else None, action, events)
                except Exception as exc:  # a store error, a full disk: the game must not stall on it
                    log.error("AI turn of game %s failed; it will be retried: %r", game.id, exc)
                    self._live.pop(game.id, None)
                    return False
                continue
            passing = await self._auto_pass(game, state, acting, presenter, settings)
            if passing is None:
                break
            seat, action = passing
            lines += await self._commit(game, state, seat, game.seat_row(seat).user_id, action, events)
        return True

    def ai_to_act(self, game: GameRow, state) -> bool:
        """Whether an AI seat is to act now (a turn the host owes, not a person)."""
        return game.status == "running" and any(game.seat_row(s).is_ai for s in ENGINES[game.engine].to_act(state))

    async def outcome_for(self, game: GameRow, lines: list[str], events: list[dict], *,
                          renudge: bool = False, warnings: dict[int, str] | None = None) -> Outcome:
        """The board (and DMs) of the game as it is now, told with ``lines``; the caller holds the game's lock.
        ``renudge``: DM the seats to act even if a DM for this board was prepared before (it was never sent).
        ``warnings``: seat -> text owed to that seat's DM (a clock warning kept in the outbox)."""
        if renudge:
            for key in [k for k in self._nudged if k[0] == game.id]:
                del self._nudged[key]
        return await self._outcome(game, lines, events, warnings=warnings)

    async def _ai_action(self, game: GameRow, state, seat: int) -> dict:
        """The AI's choice for ``seat``, worked out in a worker with a budget (host/thinking.py). A failing AI
        falls back to a random legal action, and one past its budget (or whose random move is) to a pass, so a
        game can never get stuck on it (and the failure is logged); a pass the rules refuse fails the AI turn,
        which the outbox retries later (:meth:`run_automatic`)."""
        engine = ENGINES[game.engine]
        rng = Rng(game.seed * 1_000_003 + game.version * 7 + seat)
        row = game.seat_row(seat)
        # a person's seat played by the AI is a stand-in (their time ran out): the server's level
        level = row.ai_level if row.is_ai else await self.stand_in_level(game.guild_id)
        snapshot = self._snapshot(game, state)
        for kind in (level if level in ai_levels.LEVELS else None, "random"):
            try:
                action, complaint = await thinking.think(engine, state, seat, rng, kind, workers=self.workers,
                                                         snapshot=snapshot)
            except Overrun as exc:
                log.warning("AI of %s in game %s took longer than %g s: it passes", game.engine, game.id,
                            exc.budget)
                break
            except Exception:
                log.exception("AI of %s failed in game %s", game.engine, game.id)
                continue
            if complaint:
                log.error("AI of %s in game %s: %s", game.engine, game.id, complaint)
            return action
        return {"type": "pass"}

    async def _auto_pass(self, game: GameRow, state, acting: list[int], presenter, cache: dict[int, dict]):
        """(seat, pass action) for a person whose own settings say to pass now, else None."""
        if not presenter.supports_auto_pass:
            return None
        for seat in acting:
            user = game.seat_row(seat).user_id
            if user not in cache:
                cache[user] = await self.store.user_settings(user)
            try:
                turn = await self._turn(game, state, seat)
            except Slow:
                continue
            if turn.too_many:  # (a seat with thousands of choices has more to do than pass)
                continue
            if presenter.auto_pass(turn.view, turn.legal, cache[user]):
                action = next((a for a in turn.legal if a["type"] == "pass"), None)
                if action is not None:
                    return seat, action
        return None

    async def _default_action(self, game: GameRow, state, seat: int) -> tuple[dict, str]:
        """(action, its words): what ``seat`` does when its time for a simultaneous decision runs out - the
        first legal pass, else its first choice (``clock.default_action``); a pass when its choices are too
        many or too slow to work out."""
        try:
            turn = await self._turn(game, state, seat)
        except Slow:
            turn = None
        if turn is None or turn.too_many:
            return {"type": "pass"}, t("timeout_pass")
        action = clocks.default_action(turn.legal)
        return action, presenter_for(game.engine).describe(turn.view, action, turn.legal.index(action)).label

    def _waiting_for(self, game: GameRow, acting: list[int]) -> str:
        return ", ".join(game.seat_row(s).name for s in acting)

    async def panel(self, game: GameRow, state, seat: int) -> Panel | None:
        """The choices of ``seat`` now (worked out off the loop), or None when it is not to act."""
        engine = ENGINES[game.engine]
        if game.status != "running" or seat not in engine.to_act(state):
            return None
        return (await self._asked(game, state, seat))[1]

    async def _render(self, game: GameRow, views: list[tuple[int | None, dict]]) -> list[bytes | None]:
        """Render public (seat None) and private views off the event loop, in parallel (``self.workers``)."""
        renderer = RENDERERS.get(game.engine)
        if renderer is None or not self._render_enabled:
            return [None] * len(views)
        has_private = presenter_for(game.engine).has_private
        clock = await self._picture_clock(game)

        async def one(seat, view):
            if view is None:  # (a seat whose choices were too slow to work out: no picture of its own)
                return None
            if seat is not None and not has_private:
                return None
            method = "render_public" if seat is None else "render_private"
            return await self._draw_once(self._picture_key(game, method, seat, clock), game, method,
                                         self._picture_view(game, view, clock))

        return list(await asyncio.gather(*(one(seat, view) for seat, view in views)))

    async def _draw(self, game: GameRow, method: str, *args):
        """A picture drawn by the workers; None (and a warning in the log) when it took longer than its budget:
        the board goes out without it rather than not at all (the move is saved either way)."""
        try:
            return await self.workers.draw(game.engine, method, *args)
        except Overrun:
            log.warning("%s of game %s (version %s) took too long to draw", method, game.id, game.version)
            return None

    async def _render_extras(self, game: GameRow, view: dict, events: list[dict]) -> list[bytes]:
        """Pictures a game adds to a board for what just happened (e.g. the standings after a race):
        the renderer's optional ``render_extras(view, events) -> list[bytes]``."""
        renderer = RENDERERS.get(game.engine)
        extra = getattr(renderer, "render_extras", None)
        if extra is None or not self._render_enabled or not events:
            return []
        # the events of one version are the same each time its board is rebuilt, unless entries were merged
        told = json.dumps(events, sort_keys=True, default=str)
        return await self._draw_once(self._picture_key(game, "render_extras", None, None, told), game,
                                     "render_extras", self._picture_view(game, view), events) or []

    async def _draw_once(self, key: tuple, game: GameRow, method: str, *args):
        """:meth:`_draw`, or the picture drawn before under ``key`` (``self.pictures``, host/pictures.py) from the
        state the service holds now. A picture that could not be drawn (an error, its budget overrun) is not
        kept: the next call tries again; nor is one of a state not held (read from the store, never trusted to
        be the one drawn before)."""
        live = self._live.get(game.id)
        if live is None or live.version != game.version:
            return await self._draw(game, method, *args)
        key = (live.born, *key)
        kept = self.pictures.get(key)
        if kept is not None:
            return list(kept) if isinstance(kept, tuple) else kept  # a list the caller may change: a copy
        drawn = await self._draw(game, method, *args)
        if isinstance(drawn, bytes):
            self.pictures.put(key, drawn)
        elif isinstance(drawn, list) and drawn and all(isinstance(p, bytes) for p in drawn):
            self.pictures.put(key, tuple(drawn))
        return drawn

    def _picture_key(self, game: GameRow, method: str, seat: int | None, clock: list[dict] | None,
                     *more) -> tuple:
        """Everything a picture of ``game`` at its version is drawn from besides the engine's view (which the
        version fixes): what :meth:`_picture_view` adds, the game's status and which picture of which seat.
        (The seed and creation time tell a game apart from one that got its id after it was deleted.)"""
        told_clock = tuple((str(e.get("text", "")), bool(e.get("urgent"))) for e in clock or ())
        return (game.id, game.seed, game.created_at, game.version, game.rules_version, game.status, method, seat,
                game.lang, tuple(self.names(game)), told_clock, *more)

    def _picture_view(self, game: GameRow, view: dict, clock: list[dict] | None = None) -> dict:
        """What a picture is drawn from: the view, the players' display names (public anyway), the game's
        language, when a clock runs, the time left as words (``clock``, see :meth:`_picture_clock`) and, once
        the game has ended other than by its rules alone, how it ended instead of whose turn it is
        (``ending``: :meth:`host.presenters.Presenter.ending_picture`)."""
        out = {**view, "player_names": self.names(game), "lang": game.lang, **({"clock": clock} if clock else {})}
        ending = ending_of(game.status, game.result)
        if ending is not None:
            shown = presenter_for(game.engine).ending_picture(ending, self.names(game))
            if shown is not None:
                # a hand of a game that is over is shown as held, never as a turn to take
                out = {k: v for k, v in out.items() if k not in PROMPT_KEYS} | {"ending": shown}
        return out

    @staticmethod
    def how_it_ended(game: GameRow) -> Ending | None:
        """How ``game`` ended (host/ending.py); None while it is not over."""
        return ending_of(game.status, game.result)

    async def _outcome(self, game: GameRow, lines: list[str], events: list[dict] | None = None,
                       record_nudges: bool = True, warnings: dict[int, str] | None = None) -> Outcome:
        engine = ENGINES[game.engine]
        presenter = presenter_for(game.engine)
        state = await self._state(game)
        text_lines = list(lines)
        # the board needs no panel: with render processes it is drawn while the panels are built here
        public_view = self._view(game, state, None)
        public = asyncio.gather(self._render(game, [(None, public_view)]),
                                self._render_extras(game, public_view, events or []))
        try:
            mentions, asked = await self._ask(game, state, text_lines)
            to_nudge = await self._to_nudge(game, asked) if record_nudges else []
            warnings = (warnings or {}) if record_nudges else {}
            # a warned player is DMed again with the warning, even when their choices are the same
            to_nudge += [a for a in asked if a[0] in warnings and a[0] not in {s for s, _, _ in to_nudge}]
            private_images = await self._render(game, [(seat, view) for seat, view, _ in to_nudge])
        except BaseException:
            public.cancel()
            raise
        (board_image,), extras = await public
        clock_lines, deadlines = await self._clock_lines(game)
        text_lines += clock_lines
        if board_image is None and self._render_enabled and RENDERERS.get(game.engine) is not None:
            text_lines.append(t("picture_slow"))
        # one person to decide, with choices that reveal nothing: the buttons go on the board itself
        public_panel = asked[0][2] if len(asked) == 1 and asked[0][2].public_safe else None
        turn_button = bool(asked) and public_panel is None
        # without private pictures (perfect information) a DM shows the public board
        nudges = [Nudge(game.seat_row(seat).user_id, seat,
                        (warnings[seat] + "\n" if seat in warnings else "")
                        + t("dm_turn", game=game.id, title=engine.title, prompt=panel.prompt)
                        + (" " + t("clock_dm", deadline=f"<t:{deadlines[seat]}:R>") if seat in deadlines else ""),
                        image if image is not None else board_image, panel, warning=warnings.get(seat))
                  for (seat, _, panel), image in zip(to_nudge, private_images)]
        # a player the narration calls by name (<@id>: a timed-out player told how to come back) is pinged too
        mentions += [s.user_id for s in game.seats if s.user_id and s.user_id not in mentions
                     and any(f"<@{s.user_id}>" in line for line in lines)]
        # owed DMs of seats not to act (a player whose time ran out is told so privately): the text and board
        asked_seats = {seat for seat, _, _ in asked}
        nudges += [Nudge(row.user_id, seat, text, board_image) for seat, text in sorted(warnings.items())
                   if seat not in asked_seats and (row := game.seat_row(seat)) is not None and row.user_id]
        # the one person to decide may take their last action back (host/undo.py): an Undo button
        undo = len(asked) == 1 and game.status == "running" and await self.undoer(game) == asked[0][0]
        board = Board(text="\n".join(text_lines), image=board_image, mentions=mentions, panel=public_panel,
                      extras=extras, undo_button=undo, acting=[seat for seat, _, _ in asked],
                      turn_button=turn_button, hand_button=presenter.has_private and game.status == "running",
                      filename=f"{game.engine}-{game.id}-v{game.version}.png")
        return Outcome(game=game, board=board, nudges=nudges, lines=lines)

    async def _ask(self, game: GameRow, state, text_lines: list[str],
                   ) -> tuple[list[int], list[tuple[int, dict | None, Panel]]]:
        """The people to mention and, for each person to decide, (seat, view, panel); adds the board's lines
        (the result at the end, else "your turn" per person)."""
        engine = ENGINES[game.engine]
        if game.status in ("finished", "abandoned"):
            # how it ended is the stored result's (host/ending.py), whatever the state still says about turns
            ending = ending_of(game.status, game.result)
            text_lines.append("**" + t("finished" if game.status == "finished" else "finished_abandoned") + "**")
            text_lines += presenter_for(game.engine).ending_lines(ending, self.names(game))
            if game.status != "finished":
                return [], []
            mentions = [s.user_id for s in game.seats if s.user_id]
            if mentions:
                text_lines.append(t("thanks", mentions=" ".join(f"<@{u}>" for u in mentions)))
            return mentions, []
        if game.status != "running":
            return [], []
        mentions, asked = [], []
        for seat in (s for s in engine.to_act(state) if not game.seat_row(s).is_ai):
            row = game.seat_row(seat)
            view, panel = await self._asked(game, state, seat)
            asked.append((seat, view, panel))
            mentions.append(row.user_id)
            text_lines.append(t("your_turn", mention=f"<@{row.user_id}>", prompt=panel.prompt))
        return mentions, asked

    async def _to_nudge(self, game: GameRow, asked: list[tuple[int, dict, Panel]]) -> list[tuple[int, dict, Panel]]:
        """Those of ``asked`` to DM: whose choices are new (the DM of a simultaneous decision still works after
        others' passes, so it is not sent again)."""
        out = []
        for seat, view, panel in asked:
            earlier = self._nudged.get((game.id, seat))
            if earlier and await self._only_passes_since(game, earlier[0], seat, panel.digest, earlier[1]):
                continue
            self._nudged[(game.id, seat)] = (game.version, panel.digest)
            out.append((seat, view, panel))
        return out

    async def private(self, game_id: int, user_id: int, asker: Asker | None = None) -> PrivateView:
        """The user's own view: private picture, and the panel when it is their turn."""
        game = await self.game(game_id, asker)
        seat = game.seat_of(user_id)
        if seat is None:
            raise GameError.of("not_playing", game=game_id)
        if game.status == "lobby":
            raise GameError.of("not_started", game=game_id)
        async with self.lock(game_id):
            game = await self.game(game_id)
            await self._hand_back(game, seat)
            state = await self._state(game)
            if seat in ENGINES[game.engine].to_act(state):  # (its view lists its choices: worked out off the loop)
                view, panel = await self._asked(game, state, seat)
                panel = panel if game.status == "running" else None
            else:
                view, panel = self._view(game, state, seat), None
            (image,) = await self._render(game, [(seat, view)])
            if image is None:
                (image,) = await self._render(game, [(None, self._view(game, state, None))])
        text = panel.prompt if panel else t("turn_of", names=self._waiting_for(
            game, ENGINES[game.engine].to_act(state))) if game.status == "running" else t("finished")
        return PrivateView(game, seat, text, image, panel)

    async def status(self, game_id: int, asker: Asker | None = None) -> Outcome:
        """The current public board, for /game status."""
        game = await self.game(game_id, asker)
        if game.status == "lobby":
            return Outcome(game=game)
        async with self.lock(game_id):
            game = await self.game(game_id)
            try:
                outcome = await self._outcome(game, [], record_nudges=False)
            except GameError:
                raise
            except Exception as exc:  # a board that cannot be drawn: said in plain words, not an apology
                log.error("the board of game %s cannot be drawn", game_id, exc_info=exc)
                raise GameError.of("board_unavailable", game=game_id) from exc
        outcome.board.panel = None
        if outcome.board is not None:
            outcome.board.undo_button = False
        outcome.nudges = []
        return outcome

    async def log(self, game_id: int, *, upto: int | None = None, start: int | None = None,
                  asker: Asker | None = None, chars: int = LOG_PAGE_CHARS) -> LogPage:
        """A page of what happened, told as the thread told it (narration is public by construction, so anybody
        who may see the game may read it), for players coming back after days: the moves up to move ``upto``
        (default: the latest) going back, or from move ``start`` on, as many as ``chars`` of text hold (at least
        one move, at most ``LOG_PAGE_MOVES``). Any page of a game of any length can be read, and reading one is
        bounded work."""
        game = await self.game(game_id, asker)
        if game.status == "lobby":
            raise GameError.of("not_started", game=game_id)
        total = game.version
        if total == 0:  # nothing to page through, whatever move was asked for
            return LogPage(game, [], 0, 0, 0)
        for value in (upto, start):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not 1 <= value <= total):
                raise GameError.of("log_move", max=total, game=game_id)
        presenter, names = presenter_for(game.engine), self.names(game)
        forward = start is not None
        at = start if forward else (upto or total)
        told: dict[int, list[str]] = {}
        used = 0
        while len(told) < LOG_PAGE_MOVES and 1 <= at <= total:
            low, high = (at, min(total, at + LOG_CHUNK - 1)) if forward else (max(1, at - LOG_CHUNK + 1), at)
            entries = await self.store.actions(game.id, after=low - 1, upto=high)
            full = False
            for entry in entries if forward else reversed(entries):
                lines = [line for event in entry["events"] if (line := narrate(presenter, event, names))]
                size = sum(len(line) + 1 for line in lines)
                if told and (used + size > chars or len(told) >= LOG_PAGE_MOVES):
                    full = True
                    break
                told[entry["seq"]], used = lines, used + size
            if full or not entries:
                break
            at = high + 1 if forward else low - 1
        seqs = sorted(told)
        return LogPage(game, [line for seq in seqs for line in told[seq]], seqs[0], seqs[-1], total)

    async def due_reminders(self, after: timedelta, now: datetime | None = None, *,
                            shards: Shards | None = None) -> list[Reminder]:
        """Reminders for the games that have waited for a person's move longer than ``after`` (see
        :meth:`reminders`), as a list."""
        return [reminder async for reminder in self.reminders(after, now, shards=shards)]

    async def reminders(self, after: timedelta, now: datetime | None = None, *,
                        shards: Shards | None = None) -> AsyncIterator[Reminder]:
        """Reminders for the games that have waited for a person's move longer than ``after``: one per board
        (a game is reminded of again only after someone has moved), in the game's language.

        Memory stays flat however many games are due: they are read ``REMIND_BATCH`` at a time, and a game's
        state is looked at (who is to act) and dropped, never kept in the live cache. ``shards``: only the games
        of these shards' servers (host/shards.py; None: all)."""
        now = now or datetime.now(UTC)
        after_id = 0
        while batch := await self.store.waiting_games(now - after, after_id=after_id, limit=REMIND_BATCH,
                                                      shards=shards):
            after_id = batch[-1][0]
            found, reminded = [], []
            for game_id, version in batch:
                async with self.lock(game_id):
                    try:
                        game = await self.game(game_id)
                        if game.status != "running" or game.version != version:
                            continue  # moved meanwhile
                        users = [game.seat_row(s).user_id for s in await self._to_act_now(game)
                                 if not game.seat_row(s).is_ai]
                    except GameError:  # it cannot be played (logged once): nobody to remind, the others go on
                        users = []
                reminded.append((game_id, version))
                if users:
                    # a Discord timestamp: every reader sees "2 days ago" in their own language and time zone
                    since = int(datetime.fromisoformat(game.updated_at).timestamp())
                    found.append(Reminder(game, users, t(
                        "reminder", mentions=" ".join(f"<@{u}>" for u in users), game=game.id,
                        title=self._title(game), since=f"<t:{since}:R>")))
            # marked before they are posted, as one transaction per batch: a failed post is not retried
            await self.store.set_reminded_many(reminded)
            for reminder in found:
                use_language(reminder.game.lang)
                yield reminder

    async def _to_act_now(self, game: GameRow) -> list[int]:
        """The seats to act in ``game`` at its version, from the live state if it is cached, else from the
        snapshot without caching it (so that looking at many games does not evict the ones being played)."""
        live = self._live.peek(game.id)
        if live is not None and live.version == game.version:
            return ENGINES[game.engine].to_act(live.state)
        version, state = await self._load_state(game)
        return ENGINES[game.engine].to_act(state) if version == game.version else []

    async def settings(self, user_id: int, **changes) -> dict:
        """A person's settings (``dm``, ``auto_pass``, game-specific ones), updated with ``changes``."""
        current = await self.store.user_settings(user_id)
        updates = {k: v for k, v in changes.items() if v is not None}
        if updates:
            current.update(updates)
            await self.store.set_user_settings(user_id, current)
        return current

    async def server_settings(self, guild_id: int, *, ai_level: str | None = None) -> tuple[dict, bool]:
        """A server's settings (defaults filled in, :data:`SERVER_SETTINGS`), updated with the values given, and
        whether anything changed. An unknown level is refused (GameError) and nothing is saved."""
        if ai_level is not None and ai_level not in ai_levels.LEVELS:
            raise GameError.of("unknown_ai_level", level=str(ai_level)[:20])
        saved = await self.store.guild_settings(guild_id)
        current = {**SERVER_SETTINGS, **saved}
        updates = {k: v for k, v in (("ai_level", ai_level),) if v is not None and current.get(k) != v}
        if updates:
            current.update(updates)
            await self.store.set_guild_settings(guild_id, {**saved, **updates})
        return current, bool(updates)

    async def stand_in_level(self, guild_id: int | None) -> str:
        """The level of the AI that stands in for people and takes their seats over on this server (the
        default outside a server, or when the stored setting is not a level)."""
        if guild_id is None:
            return AI_LEVEL
        level = (await self.store.guild_settings(guild_id)).get("ai_level", AI_LEVEL)
        return level if level in ai_levels.LEVELS else AI_LEVEL

    async def mark_dm_closed(self, game_id: int, seat: int) -> None:
        await self.store.set_dm_closed(game_id, seat, True)

    async def _seat_on_board(self, game_id: int, user_id: int, version: int,
                             asker: Asker | None) -> tuple[GameRow, int]:
        """The running game and the user's seat in it, provided the board they look at (``version``) is current;
        else the refusal a player reads (not started, over, stale, not playing)."""
        game = await self.game(game_id, asker)
        if game.status != "running":
            raise (GameError.of("game_over", game=game_id) if game.status != "lobby" else
                   GameError.of("not_started", game=game_id))
        if game.version != version:
            raise StaleBoard.of("stale")
        seat = game.seat_of(user_id)
        if seat is None:
            raise GameError.of("not_playing", game=game_id)
        return game, seat

    async def variants_panel(self, game_id: int, user_id: int, version: int, index: int,
                             asker: Asker | None = None) -> Panel:
        """The third step of a choice (``Choice.more``): the ways to make the ``index``-th listed action of the
        user's seat (e.g. who pays a HEX-TRI move), at most :data:`MAX_VARIANTS`, as a panel whose choices act
        (``Choice.variant``) and whose ``back`` leads to the group the action was chosen from; provided the
        board the user looks at (``version``) is still current."""
        game, seat = await self._seat_on_board(game_id, user_id, version, asker)
        async with self.lock(game_id):
            state = await self._state(game)
            engine = ENGINES[game.engine]
            if seat not in engine.to_act(state):
                raise GameError.of("not_your_turn", names=self._waiting_for(game, engine.to_act(state)))
            turn = await self._turn(game, state, seat)  # (Slow: refused with when to try again)
            if turn.too_many:
                raise GameError.of("choices_type_move", count=turn.count)
            panel = self._panel_of(game, seat, turn)
            if not 0 <= index < len(turn.legal):
                raise GameError.of("bad_choice")
            _, choices = await self._variants(game, state, seat, index)
        groups = panel.groups()
        back = next(((g, name) for g, (name, members) in enumerate(groups)
                     if any(c.index == index for c in members)), None)
        # the ways as a select even when few: its placeholder says what is being chosen ("T-B5: who pays?")
        return Panel(game.id, game.version, seat, panel.prompt, choices, digest=panel.digest, back=back,
                     select_groups={c.group for c in choices})

    async def panel_for(self, game_id: int, user_id: int, version: int, asker: Asker | None = None) -> Panel:
        """The user's current panel, provided the board they look at (``version``) is still current."""
        game, seat = await self._seat_on_board(game_id, user_id, version, asker)
        async with self.lock(game_id):
            state = await self._state(game)
            panel = await self.panel(game, state, seat)
        if panel is None:
            raise GameError.of("not_your_turn", names=self._waiting_for(game, ENGINES[game.engine].to_act(state)))
        return panel
