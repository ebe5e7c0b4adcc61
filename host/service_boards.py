"""The game service's boards: what a move or a look at the game shows - the public board with its picture,
the DMs of the seats to decide, a player's own hand - with the pictures drawn off the event loop, once per
version."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging

from engines import ENGINES
from host import clock as clocks
from host.asker import Asker
from host.ending import ending_of
from host.errors import GameError
from host.locale import t
from host.outcome import Board, Nudge, Outcome, PrivateView
from host.panels import Panel
from host.presenters import presenter_for
from host.service_core import PROMPT_KEYS, ServiceCore, person, seat_row
from host.workers import Overrun, retrieved
from render import RENDERERS
from store import GameRow

log = logging.getLogger(__name__)


#: a seat to decide: (seat, its view - None when its choices were too slow to work out -, its panel)
Asked = tuple[int, dict | None, Panel]


def _named(game: GameRow, lines: list[str], mentions: list[int]) -> list[int]:
    """The players the narration calls by name (<@id>: a timed-out player told how to come back), besides
    ``mentions``: they are pinged too."""
    return [s.user_id for s in game.seats if s.user_id and s.user_id not in mentions
            and any(f"<@{s.user_id}>" in line for line in lines)]


class Boards(ServiceCore):
    """Boards, DMs and pictures of :class:`host.service.GameService`."""

    async def outcome_for(self, game: GameRow, lines: list[str], events: list[dict], *,
                          renudge: bool = False, warnings: dict[int, str] | None = None) -> Outcome:
        """The board (and DMs) of the game as it is now, told with ``lines``; the caller holds the game's lock.
        ``renudge``: DM the seats to act even if a DM for this board was prepared before (it was never sent).
        ``warnings``: seat -> text owed to that seat's DM (a clock warning kept in the outbox)."""
        if renudge:
            for key in [k for k in self._nudged if k[0] == game.id]:
                del self._nudged[key]
        return await self._outcome(game, lines, events, warnings=warnings)

    async def _render(self, game: GameRow, views: list[tuple[int | None, dict | None]]) -> list[bytes | None]:
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
        the renderer's optional ``render_extras(view, events) -> list[bytes]``, drawn only when its
        ``wants_extras(events)`` (if it has one) says there is one: a trip to a worker costs ~1-2 ms for nothing."""
        renderer = RENDERERS.get(game.engine)
        extra = getattr(renderer, "render_extras", None)
        if extra is None or not self._render_enabled or not events:
            return []
        wants = getattr(renderer, "wants_extras", None)
        if wants is not None and not wants(events):
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
        early = self._early.pop(game.id, None) if method == "render_public" else None
        if early is not None and early[0] == key:  # drawn from the very same things: taken over
            drawn = await early[1]
        else:
            if early is not None:  # (drawn for a board other than this one: a clock or a name changed since)
                self._let_finish(early[1])
            drawn = await self._draw(game, method, *args)
        if isinstance(drawn, bytes):
            self.pictures.put(key, drawn)
        elif isinstance(drawn, list) and drawn and all(isinstance(p, bytes) for p in drawn):
            self.pictures.put(key, tuple(drawn))
        return drawn

    async def _start_board(self, game: GameRow, state, born: int,
                           seat_clocks: dict[int, clocks.SeatClock] | None) -> dict | None:
        """Start drawing the board's picture of ``state``, the next version of ``game`` (with ``seat_clocks``, the
        clocks to be saved with it; None: those saved), before that version is committed, so that the picture is
        drawn while the commit waits for the disk (issue 29). Only for a board that shows a person to act (an AI,
        or the AI standing in for a person, moves on at once, and the board after its move is the one shown).
        The board built after the commit takes the picture over only if its key - everything a picture is drawn
        from, the clock strip's words included - is the same (:meth:`_draw_once`), so a guess that turns out
        wrong costs a picture's work, never a wrong picture. The caller holds the game's lock. Returns the
        spectators' view it was drawn from (the new version's, kept with its live state), or None when no
        picture was started."""
        engine = ENGINES[game.engine]
        try:
            acting = engine.to_act(state)
            if not self._draws(game) or engine.result(state) is not None or not acting or \
                    any(seat_row(game, seat).is_ai for seat in acting):
                return None
            saved = seat_clocks if seat_clocks is not None else await self._seat_clocks(game.id)
            if any(c.stand_in for seat, c in saved.items() if seat in acting):  # (the AI plays for a person)
                return None
            view = engine.view(state, None)
        except Exception:  # (a fault of the view is the board's to report, after the move is saved)
            log.exception("the board of game %s could not be started before its commit", game.id)
            return None
        ahead = dataclasses.replace(game, version=game.version + 1)
        clock = await self._picture_clock(ahead, seat_clocks)
        key = (born, *self._picture_key(ahead, "render_public", None, clock))
        job = asyncio.ensure_future(self._draw(ahead, "render_public", self._picture_view(ahead, view, clock)))
        job.add_done_callback(retrieved)
        self._drop_board(game.id)
        while len(self._early) >= self._early.limit:  # (the oldest, never taken over, is left to finish)
            self._let_finish(self._early.popitem(last=False)[1][1])
        self._early[game.id] = (key, job)
        return view

    def _drop_board(self, game_id: int) -> None:
        early = self._early.pop(game_id, None)
        if early is not None:
            self._let_finish(early[1])

    def _let_finish(self, job: asyncio.Future) -> None:
        """Forget a picture nobody will show, without cancelling it: pebble stops the worker process of a job
        cancelled while it runs (a new process then costs about a second of imports), so the job is left to
        finish, held here until then (the loop holds a task only weakly)."""
        if not job.done():
            self._unwanted.add(job)
            job.add_done_callback(self._unwanted.discard)

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

    async def _outcome(self, game: GameRow, lines: list[str], events: list[dict] | None = None,
                       record_nudges: bool = True, warnings: dict[int, str] | None = None) -> Outcome:
        """The board and DMs of ``game`` as it is now, told with ``lines`` (the caller holds the game's lock).
        ``record_nudges`` False (a look at the board): nobody is DMed. ``warnings``: seat -> text owed to its DM."""
        state = await self._state(game)
        text_lines = list(lines)
        # the board needs no panel: with render processes it is drawn while the panels are built here
        public = self._public_pictures(game, state, events or []) if self._draws(game) else None
        try:
            mentions, asked = await self._ask(game, state, text_lines)
            warnings = (warnings or {}) if record_nudges else {}
            to_nudge = await self._to_nudge(game, asked) if record_nudges else []
            # a warned player is DMed again with the warning, even when their choices are the same
            to_nudge += [a for a in asked if a[0] in warnings and a[0] not in {s for s, _, _ in to_nudge}]
            # a game whose DM says the hand and choices in words draws its private picture only on request
            private_images: list[bytes | None] = [None] * len(to_nudge)
            if presenter_for(game.engine).dm_picture:
                private_images = await self._render(game, [(seat, view) for seat, view, _ in to_nudge])
        except BaseException:
            if public is not None:
                public.cancel()
            raise
        (board_image,), extras = await public if public is not None else ([None], [])
        clock_lines, deadlines = await self._clock_lines(game)
        text_lines += clock_lines
        if board_image is None and self._render_enabled and RENDERERS.get(game.engine) is not None:
            text_lines.append(t("picture_slow"))
        nudges = self._turn_nudges(game, to_nudge, private_images, board_image, warnings, deadlines)
        nudges += self._owed_nudges(game, asked, warnings, board_image)
        # one person to decide, with choices that reveal nothing: the buttons go on the board itself
        public_panel = asked[0][2] if len(asked) == 1 and asked[0][2].public_safe else None
        # the one person to decide may take their last action back (host/undo.py): an Undo button
        undo = len(asked) == 1 and game.status == "running" and await self.undoer(game) == asked[0][0]
        board = Board(text="\n".join(text_lines), image=board_image, mentions=mentions + _named(game, lines, mentions),
                      panel=public_panel, extras=extras, undo_button=undo, acting=[seat for seat, _, _ in asked],
                      turn_button=bool(asked) and public_panel is None,
                      hand_button=presenter_for(game.engine).has_private and game.status == "running",
                      filename=f"{game.engine}-{game.id}-v{game.version}.png")
        return Outcome(game=game, board=board, nudges=nudges, lines=lines)

    def _draws(self, game: GameRow) -> bool:
        """Whether pictures of ``game`` are drawn (``render`` on, and the game has a renderer)."""
        return self._render_enabled and RENDERERS.get(game.engine) is not None

    def _public_pictures(self, game: GameRow, state, events: list[dict]) -> asyncio.Future:
        """([the board's picture], the extra pictures) of ``game`` now, being drawn (pictures must be drawn:
        :meth:`_draws`; without them there is nothing to wait for, nor a spectators' view to work out)."""
        public_view = self._view(game, state, None)
        return asyncio.gather(self._render(game, [(None, public_view)]), self._render_extras(game, public_view, events))

    @staticmethod
    def _turn_nudges(game: GameRow, to_nudge: list[Asked], images: list[bytes | None], board_image: bytes | None,
                     warnings: dict[int, str], deadlines: dict[int, int]) -> list[Nudge]:
        """The DMs of the seats to decide: a warning owed first, the prompt, the deadline, and the seat's own
        picture (without private pictures, perfect information, the public board) with its hand in words where
        the game can say it (:meth:`host.presenters.base.Presenter.hand`). A game whose DM goes without a picture
        (``Presenter.dm_picture`` False) gets none: its hand and choices are in words, the picture on request."""
        title = ENGINES[game.engine].title
        presenter = presenter_for(game.engine)
        words = not presenter.dm_picture
        return [Nudge(person(game, seat), seat,
                      (warnings[seat] + "\n" if seat in warnings else "")
                      + t("dm_turn", game=game.id, title=title, prompt=panel.prompt)
                      + (" " + t("clock_dm", deadline=f"<t:{deadlines[seat]}:R>") if seat in deadlines else ""),
                      None if words else image if image is not None else board_image, panel,
                      warning=warnings.get(seat),
                      hand=presenter.hand(view) if image is not None or words else None)
                for (seat, view, panel), image in zip(to_nudge, images)]

    @staticmethod
    def _owed_nudges(game: GameRow, asked: list[Asked], warnings: dict[int, str],
                     board_image: bytes | None) -> list[Nudge]:
        """Owed DMs of seats not to act (a player whose time ran out is told so privately): the text and board."""
        asked_seats = {seat for seat, _, _ in asked}
        return [Nudge(row.user_id, seat, text, board_image) for seat, text in sorted(warnings.items())
                if seat not in asked_seats and (row := game.seat_row(seat)) is not None and row.user_id]

    async def _ask(self, game: GameRow, state, text_lines: list[str],
                   ) -> tuple[list[int], list[Asked]]:
        """The people to mention and, for each person to decide, (seat, view, panel); adds the board's lines
        (the result at the end, else "your turn" per person)."""
        engine = ENGINES[game.engine]
        if game.status in ("finished", "abandoned"):
            # how it ended is the stored result's (host/ending.py), whatever the state still says about turns
            ending = ending_of(game.status, game.result)
            text_lines.append("**" + t("finished" if game.status == "finished" else "finished_abandoned") + "**")
            if ending is not None:  # (always, for a game that ended)
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
        for seat in (s for s in engine.to_act(state) if not seat_row(game, s).is_ai):
            row = seat_row(game, seat)
            view, panel = await self._asked(game, state, seat)
            asked.append((seat, view, panel))
            mentions.append(person(game, seat))
            text_lines.append(t("your_turn", mention=f"<@{row.user_id}>", prompt=panel.prompt))
        return mentions, asked

    async def _to_nudge(self, game: GameRow, asked: list[Asked]) -> list[Asked]:
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
                view, asked = await self._asked(game, state, seat)
                panel = asked if game.status == "running" else None
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
        if outcome.board is not None:  # (a started game's outcome always has one)
            outcome.board.panel = None
            outcome.board.undo_button = False
        outcome.nudges = []
        return outcome
