"""The game service's Undo (issue 25; the log and replay side is host/undo.py): a person takes back their last
action within their turn - the game played again from its seed without it, saved as a new version with the undo
in the log and its board owed to the thread - and who may do so on the board that is up."""

from __future__ import annotations

import json
import logging
import time

from engines import ENGINES
from host.asker import Asker
from host.errors import GameError, StaleBoard
from host.outcome import Outcome
from host.presenters import presenter_for
from host.service_core import RETRY_SLOW, LiveState, ServiceCore, Slow
from host.undo import MARK, UNDO, final_choices, last_standing, replayed, tell_undo, undoable
from host.workers import Overrun
from store import GameRow, VersionConflict

log = logging.getLogger(__name__)

#: log entries read at a time when looking back for the newest action that stands (an Undo button's question)
UNDO_CHUNK = 20


class Undo(ServiceCore):
    """Undo within a turn of :class:`host.service.GameService`."""

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
            self._live[game.id] = LiveState(new_version, restored)
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
