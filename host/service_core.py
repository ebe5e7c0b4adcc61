"""The core of the game service (host/service.py): the game rows as a person may see them, the engine states
between actions (a bounded live cache), a seat's view and choices worked out off the loop, and the per-game
locks. The service's concerns (host/service_lobby.py, service_moves.py, service_boards.py,
service_queries.py, service_settings.py, turn_clocks.py) are mixins of :class:`ServiceCore`: whatever one
of them uses of another is declared here as an abstract method, so each module type-checks on its own and
none imports another (the pattern of Red-DiscordBot's ``mod/abc.py``)."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets as _secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engines import ENGINES
from host import clock as clocks
from host import thinking
from host.asker import Asker
from host.cache import DEFAULT_LIVE_GAMES, Bounded, LiveCache, Locks
from host.decks import DeckBook
from host.ending import Ending, ending_of
from host.errors import GameError
from host.limits import ServerLimits
from host.locale import t, use_language
from host.outcome import Outcome
from host.panels import Panel
from host.pictures import Pictures
from host.presenters import presenter_for
from host.seatwork import MAX_CHOICES, Turn, variants_of, work_out
from host.workers import Overrun, Workers
from store import DamagedRow, GameRow, SeatRow, Store

log = logging.getLogger(__name__)


MAX_ID = 2**63 - 1  # SQLite's integers: a larger number names no game
#: the AI's level when nobody chose one (AI seats of a new game, stand-ins on a server without a setting)
AI_LEVEL = "normal"
#: seconds after a seat's choices ran past their budget before they are worked out again (until then the same
#: position is answered at once with "too slow", so that asking again and again costs nothing)
RETRY_SLOW = 60
#: the parts of a seat's own view that ask it for a move (choices, playable cards): a hand of a game that is
#: over is drawn without them
PROMPT_KEYS = ("choices", "legal", "playable", "decision")
#: most variants of one action offered (``engine.variants``, e.g. who pays a HEX-TRI move): one select
MAX_VARIANTS = 25

_LOADINGS = itertools.count()
#: most log entries a live state remembers (``LiveState.tail``): a round of passes of the largest tables
LOG_TAIL = 32


def next_loading() -> int:
    """A number no loading of a game's state had before (:attr:`LiveState.born`)."""
    return next(_LOADINGS)


@dataclass
class LiveState:
    """A game's engine state at ``version``, with what was already worked out about it: one action asks for the
    same view several times (label, panel, picture), and some engines pay for each. ``turns``: the
    :class:`Turn` of each seat to act (worked out in a worker); ``slow``: seat -> monotonic time until which its
    choices count as too slow to work out (see ``RETRY_SLOW``); ``snapshot``: the state as JSON text; ``born``:
    which loading of the state this is (the pictures kept are those of the state held, not of one read again)."""

    version: int
    state: Any
    views: dict[int | None, dict] = field(default_factory=dict)
    turns: dict[int, Turn] = field(default_factory=dict)
    slow: dict[int, tuple[float, float, int]] = field(default_factory=dict)
    snapshot: str | None = None
    born: int = field(default_factory=lambda: next_loading())
    #: (seq, seat, action type) of the newest actions this service committed itself, consecutive up to
    #: ``version`` (at most ``LOG_TAIL``; empty for a state read from the store): what the actions since an
    #: earlier board were, without reading the log
    tail: tuple[tuple[int, int, str | None], ...] = ()
    #: seat -> its :class:`Turn` being worked out since the state was saved (started alongside the commit)
    started: dict[int, asyncio.Future] = field(default_factory=dict)


class Slow(GameError):
    """A seat's choices could not be worked out within their budget (host/workers.py); ``retry``: epoch seconds
    when asking again will work them out again."""

    def __init__(self, budget: float, retry: int) -> None:
        super().__init__(t("choices_slow", seconds=f"{budget:g}", retry=f"<t:{retry}:R>"), "choices_slow",
                         {"seconds": f"{budget:g}", "retry": f"<t:{retry}:R>"})
        self.budget, self.retry = budget, retry


def seat_row(game: GameRow, seat: int) -> SeatRow:
    """The row of ``seat``, which the caller knows is taken (a seat to act, a seat with a clock); LookupError
    otherwise (a bug, not a player's mistake)."""
    row = game.seat_row(seat)
    if row is None:
        raise LookupError(f"game {game.id} has no seat {seat}")
    return row


def person(game: GameRow, seat: int) -> int:
    """The user id of the person in ``seat`` (a seat the caller knows a person holds); LookupError otherwise."""
    user_id = seat_row(game, seat).user_id
    if user_id is None:
        raise LookupError(f"seat {seat} of game {game.id} is the AI's")
    return user_id


class ServiceCore(ABC):
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
        #: choices, AI decisions; worker threads, or processes when ``render_processes`` (each drawing a board of
        #: every game as it starts: host/warm_pictures.py)
        self.workers = Workers(render_processes, warm=True)
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
        #: game -> (the clock rows the store remembers, the SeatClocks made of them): see ``_seat_clocks``
        self._clocks_made: dict[int, tuple[list[dict], dict[int, clocks.SeatClock]]] = Bounded(live_games)
        #: game -> (its picture's key, the board's picture being drawn): started before the move's commit
        #: (:meth:`_start_board`), taken over by the board built after it when the keys agree
        self._early: Bounded = Bounded(live_games)
        #: pictures started early that no board took over, still being drawn (``Boards._let_finish``)
        self._unwanted: set[asyncio.Future] = set()

    @property
    def painter(self) -> Workers:
        """(The name of the workers when they only drew pictures.)"""
        return self.workers

    def close(self) -> None:
        """Stop the worker processes and the hard AI's worker processes, if any."""
        self.workers.close()
        thinking.shutdown()

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks(game_id)

    async def game(self, game_id: int, asker: Asker | None = None, *, readable: bool = True,
                   along: bool = False) -> GameRow:
        """The game ``game_id``, as far as ``asker`` may see it (see :class:`Asker`): a game of another server,
        or in a direct message a game without the asker's seat, is "no such game" (its existence is not told).
        A game this version cannot play (damaged, or saved by a newer version: :meth:`unreadable`) is refused in
        plain words, unless ``readable`` is False (ending it needs only its row). ``along`` (within
        ``store.remembering()``): its clocks, the vacations now and its people's settings are read with it, in
        the same call to the database (``Store.get_game``), for the rest of the operation."""
        now = clocks.seconds(self.clock()) if along else None
        game = await self.store.get_game(game_id, with_snapshot=False, tolerant=True, along=now) \
            if 0 < game_id <= MAX_ID else None
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
            live = LiveState(*await self._load_state(game))
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
            if not isinstance(snapshot, dict):
                raise ValueError("the snapshot is not an object")
            return version, ENGINES[game.engine].from_json(snapshot)
        except Exception as exc:  # the rules engine's own checks (ValueError), or a state that is not one
            self._note_unreadable(game.id, f"game {game.id}: its snapshot cannot be loaded ({exc!r})")
            self._snapshot_checks[(game.id, version)] = "damaged"
            raise GameError.of("game_damaged", game=game.id) from exc

    def _memo(self, game: GameRow, state) -> LiveState | None:
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
        started = live.started.pop(seat, None) if live is not None else None
        try:
            turn = await (started if started is not None else self.workers.run(
                "turn", work_out, game.engine, self._snapshot(game, state), seat, game.lang))
        except Overrun as exc:
            retry = int(time.time()) + RETRY_SLOW
            log.warning("the choices of seat %s in game %s (version %s) took longer than %g s", seat, game.id,
                        game.version, exc.budget)
            if live is not None:
                live.slow[seat] = (time.monotonic() + RETRY_SLOW, exc.budget, retry)
            raise Slow(exc.budget, retry) from None
        if live is not None:
            live.turns[seat] = turn
            if turn.legal is not None:  # (listed from this state's JSON: apply's check need not list them again)
                ENGINES[game.engine].remember_legal(state, seat, turn.legal)
        return turn

    def _start_turns(self, game: GameRow, snapshot: str, seats: list[int]) -> dict[int, asyncio.Future]:
        """Start working out the :class:`Turn` of each of ``seats`` in the state ``snapshot`` (JSON text) now, so
        that it runs while the move is being committed (issue 29); :meth:`_turn` takes the result over, or its
        :class:`Overrun` (whose warning it logs)."""
        # (one nobody asks for: its error is not "never retrieved")
        return {seat: self.workers.start("turn", work_out, game.engine, snapshot, seat, game.lang) for seat in seats}

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
        on_request = not presenter_for(game.engine).dm_picture
        if turn.choices is None:  # too many: no buttons, the player types the move (/game play)
            return Panel(game.id, game.version, seat, turn.prompt + "\n" + t("choices_too_many", count=turn.count,
                                                                               max=MAX_CHOICES),
                         picture_on_request=on_request)
        return Panel(game.id, game.version, seat, turn.prompt, turn.choices, two_step=turn.two_step,
                     digest=turn.digest, select_groups=turn.select_groups, picture_on_request=on_request)

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

    @staticmethod
    def how_it_ended(game: GameRow) -> Ending | None:
        """How ``game`` ended (host/ending.py); None while it is not over."""
        return ending_of(game.status, game.result)

    def _waiting_for(self, game: GameRow, acting: list[int]) -> str:
        return ", ".join(seat_row(game, s).name for s in acting)

    # -- the seams between the service's concerns (each implemented by one mixin) ------------------------

    # moves (host/service_moves.py)
    @abstractmethod
    async def _commit(self, game: GameRow, state: Any, seat: int, user_id: int | None, action: dict,
                      events_out: list[dict] | None = None, *, told_before: list[str] | None = None,
                      undo_from: str | None = None) -> list[str]:
        """Apply and persist one action with its narration in the outbox; returns the narration."""

    @abstractmethod
    async def _advance(self, game: GameRow, lines: list[str], events: list[dict] | None = None) -> Outcome:
        """Let AI seats act until a person must decide or the game ends, then build the Outcome."""

    @abstractmethod
    async def run_automatic(self, game: GameRow, lines: list[str] | None = None,
                            events: list[dict] | None = None) -> bool:
        """Play the moves nobody has to click for (AI seats, auto-passes); the caller holds the game's lock."""

    @abstractmethod
    async def _only_passes_since(self, game: GameRow, version: int, seat: int, current: str, digest: str) -> bool:
        """Whether a board of ``version`` still holds for ``seat`` (only other seats' passes since)."""

    @abstractmethod
    async def _default_action(self, game: GameRow, state: Any, seat: int) -> tuple[dict, str]:
        """(action, its words): what ``seat`` does when its time for a simultaneous decision runs out."""

    # boards (host/service_boards.py)
    @abstractmethod
    async def _start_board(self, game: GameRow, state: Any, born: int,
                           seat_clocks: dict[int, clocks.SeatClock] | None) -> dict | None:
        """Start drawing the board's picture of ``state``, which is about to be committed as ``game``'s next
        version (held as the live state loaded as ``born``, its clocks ``seat_clocks``; None: those saved), while
        the commit waits for the disk; the spectators' view it is drawn from, or None when none was started."""

    @abstractmethod
    def _drop_board(self, game_id: int) -> None:
        """Forget the picture :meth:`_start_board` started for ``game_id`` (its move was not saved); it is left
        to finish, not cancelled (which would stop its worker process)."""

    @abstractmethod
    async def _outcome(self, game: GameRow, lines: list[str], events: list[dict] | None = None,
                       record_nudges: bool = True, warnings: dict[int, str] | None = None) -> Outcome:
        """The board and DMs of the game as it is now, told with ``lines``."""

    # undo (host/service_undo.py)
    @abstractmethod
    async def undoer(self, game: GameRow) -> int | None:
        """The seat that may take its last action back now (its Undo button is shown), or None."""

    # settings (host/service_settings.py)
    @abstractmethod
    async def stand_in_level(self, guild_id: int | None) -> str:
        """The level of the AI that stands in for people on this server."""

    # turn clocks (host/turn_clocks.py)
    @abstractmethod
    async def _seat_clocks(self, game_id: int) -> dict[int, clocks.SeatClock]:
        """The game's seat clocks, by seat."""

    @abstractmethod
    async def _clocks_after(self, game: GameRow, state: Any,
                            moved: int | None = None) -> list[clocks.SeatClock] | None:
        """The game's seat clocks once ``state`` is saved (None: no time control)."""

    @abstractmethod
    async def _with_forfeits(self, game: GameRow, result: dict) -> dict:
        """The stored result of a game the rules just ended, the seats out of the game ranked last."""

    @abstractmethod
    async def _stand_ins(self, game: GameRow) -> set[int]:
        """Seats of people the AI plays for now."""

    @abstractmethod
    async def _hand_back(self, game: GameRow, seat: int) -> bool:
        """A person back after a timeout takes their seat over from the AI; whether they did."""

    @abstractmethod
    async def _clock_lines(self, game: GameRow) -> tuple[list[str], dict[int, int]]:
        """The board's lines about the clocks and each running seat's deadline."""

    @abstractmethod
    async def _picture_clock(self, game: GameRow,
                             seat_clocks: dict[int, clocks.SeatClock] | None = None) -> list[dict]:
        """The board picture's clock strip (of ``seat_clocks``, the clocks about to be saved; default: those
        saved)."""
