"""The game service's moves: a click or a typed move checked and applied (validate -> apply -> commit), the
moves nobody clicks for (AI seats, auto-passes) and the panels of choices a seat is offered."""

from __future__ import annotations

import logging
import time

from ai import levels as ai_levels
from engines import ENGINES, IllegalAction
from engines.rng import Rng
from host import clock as clocks
from host import thinking
from host.asker import Asker
from host.errors import GameError, NeedsConfirmation, StaleBoard
from host.locale import t
from host.outcome import Outcome
from host.panels import Panel
from host.presenters import Refined, presenter_for
from host.seatwork import Turn, read_move
from host.service_core import (
    LOG_TAIL,
    RETRY_SLOW,
    LiveState,
    ServiceCore,
    Slow,
    next_loading,
    person,
    seat_row,
)
from host.undo import MARK
from host.workers import Overrun
from store import GameRow, VersionConflict

log = logging.getLogger(__name__)


#: what ``/game play`` reads; a move is a few words, and a refusal must not echo pages back
MAX_MOVE_TEXT = 200


class Moves(ServiceCore):
    """Moves and turns of :class:`host.service.GameService`."""

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
            game = await self.game(game_id, asker, along=True)  # (with its clocks: one read per move)
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
                if turn.legal is None:  # too many: no button was offered for it (an older board, or forged)
                    raise GameError.of("choices_type_move", count=turn.count)
                legal = turn.legal
                await self._board_holds(game, version, seat, digest, turn)
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
                label = self._said(game, turn, action, index, (variant, refined))
                if not confirmed:
                    warning = presenter.confirm(turn.view, action, legal)
                    if warning and (await self.store.user_settings(user_id)).get("confirm", True):
                        raise NeedsConfirmation(label, warning, seat)
            # whether the move may be taken back (its Undo) is asked of the engine - which plays it again on a copy
            # - only where the answer can be yes: a kind the game takes back, by the one seat to act (issue 29)
            maybe = isinstance(action, dict) and action.get("type") in engine.take_back and acting == [seat]
            events: list[dict] = []
            lines = await self._commit(game, state, seat, user_id, action, events,
                                       undo_from=self._snapshot(game, state) if maybe else None)
            outcome = await self._advance(game, lines, events)
            outcome.done_label = label
            return outcome

    @staticmethod
    def _said(game: GameRow, turn: Turn, action: dict, index: int, forms: tuple[int | None, dict | None]) -> str:
        """The words of the move ``action``, the ``index``-th of ``turn``: the listed action's are its button's
        (described already with the seat's choices); another form of it (``forms``: a variant, a refined action)
        is described now."""
        choice = turn.choice(index) if forms == (None, None) else None
        return choice.label if choice is not None else presenter_for(game.engine).describe(turn.view, action,
                                                                                             index).label

    @staticmethod
    def _reversible(game: GameRow, before: str, seat: int, action: dict, legal: list[dict] | None = None) -> bool:
        """Whether a person's action reveals nothing and keeps their turn, so that they may take it back
        (host/undo.py), asked of the state ``before`` it (JSON text), where ``seat``'s legal actions were
        ``legal`` (when known: the engine's trial of the move then checks it without listing them again). A
        check that fails is logged and counts as "no": the move itself is made all the same."""
        try:
            engine = ENGINES[game.engine]
            trial = engine.from_text(before)  # (a copy of its own)
            if legal is not None:
                engine.remember_legal(trial, seat, legal)
            try:
                return engine.reversible(trial, seat, action, given_away=True)
            finally:
                engine.forget(trial)  # (kept by remember_legal until a move changes it: a refused trial makes none)
        except Exception:
            log.exception("game %s: whether %r can be taken back could not be worked out", game.id, action)
            return False

    async def _board_holds(self, game: GameRow, version: int, seat: int, digest: str | None, turn: Turn) -> None:
        """Raise :class:`StaleBoard` unless a board of ``version`` whose buttons carry ``digest`` still offers
        ``seat`` the choices of ``turn`` (the current version's): the same version and choices, or the same
        choices with only other seats' passes since. A fingerprint of the same choices made by the version of
        the bot before orjson made them (:meth:`Turn.was_listed_as`) counts as the same."""
        if digest is not None and turn.was_listed_as(digest):
            digest = turn.digest
        if version != game.version and (digest is None or not await self._only_passes_since(
                game, version, seat, turn.digest, digest)):
            raise StaleBoard.of("stale")
        if version == game.version and digest is not None and digest != turn.digest:
            # the same version with other choices: a board drawn before the bot was upgraded to a version that
            # lists this game's actions differently (HEX-TRI, issue 22); its indices mean other moves
            raise StaleBoard.of("stale_choices")

    async def _only_passes_since(self, game: GameRow, version: int, seat: int, current: str, digest: str) -> bool:
        """Whether a board of ``version`` still holds for ``seat``: the same choices (``current`` digest equals
        the board's ``digest``) and only other seats' passes since."""
        if version > game.version or current != digest:
            return False
        live = self._live.get(game.id)
        tail = live.tail if live is not None and live.version == game.version else ()
        if version == game.version or (tail and tail[0][0] <= version + 1):  # known without reading the log
            return all(s != seat and kind == "pass" for seq, s, kind in tail if seq > version)
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
                if turn.choices is None:  # too many: reading one lists every choice, so a worker does it too
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
                      undo_from: str | None = None) -> list[str]:
        """Apply and persist one action with its narration in the outbox (one transaction); returns the
        narration (and adds the action's events to ``events_out``). ``told_before``: lines that go to the
        outbox ahead of the narration, in the same transaction (why the action was made). ``undo_from``: the
        state before the action (JSON text) when its player might take it back: if, once made, it left that
        seat alone to act, the engine is asked (``engine.reversible`` on that state) and a yes is logged with a
        :data:`host.undo.MARK` event."""
        engine = ENGINES[game.engine]
        # the seat's legal actions before the move (known already: the engine checks the move against them),
        # kept for the undo check's trial, which makes the move again on a copy of this very position
        legal = engine.legal_actions(state, seat) if undo_from is not None else None
        try:
            events = engine.apply(state, seat, action)
        except IllegalAction as exc:
            raise GameError(str(exc)) from exc
        result = engine.result(state)
        # (engine.reversible says no unless the same seat alone is to act after the action: asked only then)
        undoable = undo_from is not None and result is None and engine.to_act(state) == [seat] and \
            self._reversible(game, undo_from, seat, action, legal)
        presenter = presenter_for(game.engine)
        names = self.names(game)
        lines = [line for e in events if (line := presenter.narrate(e, names))]
        # the state's JSON is made once: the store saves it, and the workers work out the next turns from it
        # while the commit waits for the disk
        snapshot = engine.json_text(state)
        started = self._start_turns(game, snapshot, [s for s in engine.to_act(state) if not seat_row(game, s).is_ai]
                                    ) if result is None else {}
        born, seen = next_loading(), None
        try:
            seat_clocks = await self._clocks_after(game, state, seat)
            after = None if seat_clocks is None else {c.seat: c for c in seat_clocks}
            if after is not None and after == await self._seat_clocks(game.id):
                seat_clocks = None  # unchanged (a further decision within a turn): nothing to rewrite
            # the board's picture is known now: drawn while the commit waits for the disk
            seen = await self._start_board(game, state, born, after)
            if result is not None:
                result = await self._with_forfeits(game, result)
            new_version = await self.store.commit_action(
                game.id, expected_version=game.version, seat=seat, user_id=user_id, action=action,
                events=events + [{"type": MARK}] if undoable else events, snapshot=snapshot,
                result=result, publish=(told_before or []) + lines,
                clocks=seat_clocks)
        except BaseException as exc:
            for job in started.values():
                job.cancel()
            self._drop_board(game.id)
            self._live.pop(game.id, None)  # the in-memory state ran ahead of the store: drop it
            if isinstance(exc, VersionConflict):
                raise StaleBoard.of("stale") from exc
            raise
        before = self._live.get(game.id)
        tail = before.tail if before is not None and before.state is state and before.version == game.version \
            else ()
        self._live[game.id] = LiveState(new_version, state, snapshot=snapshot, started=started, born=born,
                                        views={} if seen is None else {None: seen},
                                        tail=(*tail[1 - LOG_TAIL:], (new_version, seat, action.get("type"))))
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
            ai_seat = next((s for s in acting if seat_row(game, s).is_ai or s in stand_ins), None)
            if ai_seat is not None:
                try:
                    action = await self._ai_action(game, state, ai_seat)
                    lines += await self._commit(game, state, ai_seat, seat_row(game, ai_seat).user_id
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
            lines += await self._commit(game, state, seat, seat_row(game, seat).user_id, action, events)
        return True

    def ai_to_act(self, game: GameRow, state) -> bool:
        """Whether an AI seat is to act now (a turn the host owes, not a person)."""
        return game.status == "running" and any(seat_row(game, s).is_ai for s in ENGINES[game.engine].to_act(state))

    async def _ai_action(self, game: GameRow, state, seat: int) -> dict:
        """The AI's choice for ``seat``, worked out in a worker with a budget (host/thinking.py). A failing AI
        falls back to a random legal action, and one past its budget (or whose random move is) to a pass, so a
        game can never get stuck on it (and the failure is logged); a pass the rules refuse fails the AI turn,
        which the outbox retries later (:meth:`run_automatic`)."""
        engine = ENGINES[game.engine]
        rng = Rng(game.seed * 1_000_003 + game.version * 7 + seat)
        row = seat_row(game, seat)
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
            user = person(game, seat)
            if user not in cache:
                cache[user] = await self.store.user_settings(user)
            try:
                turn = await self._turn(game, state, seat)
            except Slow:
                continue
            if turn.legal is None:  # (too many: a seat with thousands of choices has more to do than pass)
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
        action = clocks.default_action(turn.legal) if turn is not None and turn.legal is not None else None
        if turn is None or turn.legal is None or action is None:  # (too many, too slow; or nothing to choose)
            return {"type": "pass"}, t("timeout_pass")
        return action, presenter_for(game.engine).describe(turn.view, action, turn.legal.index(action)).label

    async def panel(self, game: GameRow, state, seat: int) -> Panel | None:
        """The choices of ``seat`` now (worked out off the loop), or None when it is not to act."""
        engine = ENGINES[game.engine]
        if game.status != "running" or seat not in engine.to_act(state):
            return None
        return (await self._asked(game, state, seat))[1]

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
            if turn.legal is None:  # (too many)
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
                     select_groups={c.group for c in choices}, picture_on_request=panel.picture_on_request)

    async def panel_for(self, game_id: int, user_id: int, version: int, asker: Asker | None = None) -> Panel:
        """The user's current panel, provided the board they look at (``version``) is still current."""
        game, seat = await self._seat_on_board(game_id, user_id, version, asker)
        async with self.lock(game_id):
            state = await self._state(game)
            panel = await self.panel(game, state, seat)
        if panel is None:
            raise GameError.of("not_your_turn", names=self._waiting_for(game, ENGINES[game.engine].to_act(state)))
        return panel
