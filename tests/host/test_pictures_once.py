"""A picture is drawn once per version of its game (host/pictures.py): ``/game status``, a DM that
shows the board, a board rebuilt by the outbox and a retried post reuse it; a new version or a new clock text draws it
again; the pictures kept stay within their bounds. A move's board is drawn while the move is being saved, and is
shown only if it is the picture of what was saved."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from host.pictures import Pictures
from host.service import GameError, GameService
from store import SqliteStore

ANN, BOB = 1, 2
#: the clock stands still: the strip's "1 day left" would become "23 h 59 min left" (a new picture) a second later
NOW = datetime(2026, 3, 1, 12, tzinfo=UTC)


@pytest.fixture
async def store(tmp_path):
    s = await SqliteStore.open(tmp_path / "g.db")
    yield s
    await s.close()


def count_draws(service: GameService) -> list[tuple[str, str]]:
    """The renderer calls the service's workers really make (cache hits are not drawn)."""
    calls: list[tuple[str, str]] = []
    draw = service.workers.draw

    async def counted(key, method, *args):
        calls.append((key, method))
        return await draw(key, method, *args)

    service.workers.draw = counted
    return calls


async def two_player(service: GameService, key: str):
    game, _ = await service.create(key, user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    return await service.join(game.id, BOB, "Bob")


async def test_status_and_the_hand_reuse_the_pictures_of_the_move(store):
    service = GameService(store, seed_source=lambda: 5, clock=lambda: NOW)
    calls = count_draws(service)
    game, outcome = await two_player(service, "hector-achilles")
    assert calls.count(("hector-achilles", "render_public")) == 1
    hands = calls.count(("hector-achilles", "render_private"))
    assert hands == len(outcome.nudges) >= 1
    asked = outcome.nudges[0]
    status = await service.status(game.id)
    assert status.board.image == outcome.board.image
    mine = await service.private(game.id, asked.user_id)
    assert mine.image == asked.image
    assert calls.count(("hector-achilles", "render_public")) == 1, "/game status drew the board again"
    assert calls.count(("hector-achilles", "render_private")) == hands, "the hand was drawn again"
    # the other player's hand was never drawn for this version: drawn once, then kept
    other = next(s.user_id for s in game.seats if s.user_id != asked.user_id)
    first = await service.private(game.id, other)
    again = await service.private(game.id, other)
    assert first.image == again.image and calls.count(("hector-achilles", "render_private")) == hands + 1
    # a move makes a new version: its pictures are new
    panel = asked.panel
    moved = await service.act(game.id, asked.user_id, panel.version, 0, panel.digest)
    assert moved.game.version > game.version
    assert calls.count(("hector-achilles", "render_public")) == 2
    assert moved.board.image != outcome.board.image


async def test_a_rebuilt_board_and_a_dm_of_the_board_are_not_drawn_again(store):
    """HEX-TRI has no private pictures: its DMs and /game hand show the public board, drawn once; the outbox's
    rebuilt board (a clock warning owed, a retry) reuses it too."""
    service = GameService(store, seed_source=lambda: 7, clock=lambda: NOW)
    calls = count_draws(service)
    game, outcome = await two_player(service, "hextri")
    assert calls == [("hextri", "render_public")]
    assert outcome.nudges and all(n.image == outcome.board.image for n in outcome.nudges)
    mine = await service.private(game.id, ANN)
    assert mine.image == outcome.board.image
    async with service.lock(game.id):
        rebuilt = await service.outcome_for(await service.game(game.id), ["retry"], [], renudge=True,
                                            warnings={0: "a warning"})
    assert rebuilt.board.image == outcome.board.image
    assert calls == [("hextri", "render_public")]


async def test_what_the_picture_shows_besides_the_position_draws_it_again(store, monkeypatch):
    """The clock strip's words are part of the picture: a new text, a new picture."""
    service = GameService(store, seed_source=lambda: 7, clock=lambda: NOW)
    game, outcome = await two_player(service, "hextri")
    calls = count_draws(service)
    strip = [{"text": "Ann: 2 h left", "urgent": False}]

    async def clock(game):
        return list(strip)

    monkeypatch.setattr(service, "_picture_clock", clock)
    with_clock = (await service.status(game.id)).board.image
    assert with_clock != outcome.board.image and len(calls) == 1
    assert (await service.status(game.id)).board.image == with_clock and len(calls) == 1
    strip[0] = {"text": "Ann: 59 min left", "urgent": True}
    assert (await service.status(game.id)).board.image != with_clock and len(calls) == 2


async def test_a_picture_that_failed_is_drawn_again(store, monkeypatch):
    service = GameService(store, seed_source=lambda: 7, clock=lambda: NOW)
    game, outcome = await two_player(service, "hextri")
    service.pictures = Pictures()  # forget the board of the move
    draw = service.workers.draw
    failures = [RuntimeError("out of memory")]

    async def flaky(key, method, *args):
        if failures:
            raise failures.pop()
        return await draw(key, method, *args)

    monkeypatch.setattr(service.workers, "draw", flaky)
    with pytest.raises(GameError, match="board"):
        await service.status(game.id)
    assert (await service.status(game.id)).board.image == outcome.board.image


def test_the_pictures_kept_are_bounded_by_count_and_bytes():
    kept = Pictures(entries=3, size=100)
    for i in range(5):
        kept.put(i, bytes(10))
    assert len(kept) == 3 and kept.get(0) is None and kept.get(1) is None and kept.get(4) == bytes(10)
    kept.get(2)  # used: the least recently used is now 3
    kept.put(5, bytes(70))
    assert kept.get(3) is None and kept.get(2) is not None and kept.bytes <= 100
    kept.put(6, bytes(101))  # larger than the whole budget: not kept, nothing dropped for it
    assert kept.get(6) is None and kept.get(5) is not None
    kept.put(5, bytes(20))  # a key drawn again replaces its old bytes
    assert len(kept) == 3 and kept.bytes == sum(len(kept.get(k)) for k in (2, 4, 5)) == 40


async def test_a_state_read_again_from_the_store_is_drawn_again(store):
    """A picture is reused only for the state the service holds: once that state is dropped (evicted, or a
    restart) and read again, what the store holds is drawn, not what was drawn before."""
    service = GameService(store, seed_source=lambda: 7, clock=lambda: NOW)
    game, outcome = await two_player(service, "hextri")
    calls = count_draws(service)
    await service.status(game.id)
    assert calls == []
    service._live.pop(game.id, None)
    again = await service.status(game.id)
    assert calls == [("hextri", "render_public")] and again.board.image == outcome.board.image
    await service.status(game.id)
    assert len(calls) == 1, "the state read again is held now: its picture is kept"


def slow_disk(store, monkeypatch, calls: list, fault: Exception | None = None) -> list[list]:
    """The store's commit of a move takes 50 ms (a slow disk) and then saves it, or fails with ``fault``; returns
    the renderer calls made by the time each commit reached the disk."""
    commit, seen = store.commit_action, []

    async def slow(*args, **kwargs):
        await asyncio.sleep(0.05)
        seen.append(list(calls))
        if fault is not None:
            raise fault
        return await commit(*args, **kwargs)

    monkeypatch.setattr(store, "commit_action", slow)
    return seen


async def test_a_moves_board_is_drawn_while_the_move_is_saved(store, monkeypatch):
    """Issue 29: the board of a move is drawn while its commit waits for the disk, not after, and it is the very
    picture of the position saved (with its clock strip): a service that reads the game from the store draws the
    same bytes."""
    service = GameService(store, seed_source=lambda: 5, clock=lambda: NOW)
    game, outcome = await two_player(service, "hector-achilles")
    calls = count_draws(service)
    during = slow_disk(store, monkeypatch, calls)
    asked = outcome.nudges[0]
    moved = await service.act(game.id, asked.user_id, asked.panel.version, 0, asked.panel.digest)
    assert ("hector-achilles", "render_public") in during[0], "the board waited for the commit"
    assert calls.count(("hector-achilles", "render_public")) == 1, "the board was drawn twice"
    assert moved.board.image is not None and moved.board.image != outcome.board.image
    fresh = GameService(store, seed_source=lambda: 5, clock=lambda: NOW)
    assert (await fresh.status(game.id)).board.image == moved.board.image


async def test_a_move_that_was_not_saved_shows_no_board_of_it(store, monkeypatch):
    service = GameService(store, seed_source=lambda: 5, clock=lambda: NOW)
    game, outcome = await two_player(service, "hector-achilles")
    calls = count_draws(service)
    slow_disk(store, monkeypatch, calls, OSError("disk full"))
    asked = outcome.nudges[0]
    with pytest.raises(OSError):
        await service.act(game.id, asked.user_id, asked.panel.version, 0, asked.panel.digest)
    assert game.id not in service._early
    monkeypatch.undo()
    status = await service.status(game.id)
    assert status.game.version == game.version and status.board.image == outcome.board.image


async def test_a_board_whose_picture_changed_during_the_commit_is_drawn_again(store, monkeypatch):
    """The clock strip's words changed while the move was being saved (an hour went by): the picture drawn
    before the commit is not the board's, the board's own is drawn (and the other left to finish)."""
    now = [NOW]
    service = GameService(store, seed_source=lambda: 5, clock=lambda: now[0])
    game, outcome = await two_player(service, "hector-achilles")
    commit = store.commit_action

    early: list[asyncio.Future] = []
    draw = service.workers.draw

    async def slow_before_the_hour(key, method, *args):
        if now[0] == NOW:  # the picture started before the commit is still being drawn when the board is built
            await asyncio.sleep(0.3)
        return await draw(key, method, *args)

    monkeypatch.setattr(service.workers, "draw", slow_before_the_hour)
    calls = count_draws(service)

    async def an_hour_later(*args, **kwargs):
        early.append(service._early[game.id][1])
        await asyncio.sleep(0.05)
        now[0] = NOW + timedelta(hours=1)
        return await commit(*args, **kwargs)

    monkeypatch.setattr(store, "commit_action", an_hour_later)
    asked = outcome.nudges[0]
    moved = await service.act(game.id, asked.user_id, asked.panel.version, 0, asked.panel.digest)
    assert calls.count(("hector-achilles", "render_public")) == 2
    fresh = GameService(store, seed_source=lambda: 5, clock=lambda: now[0])
    assert (await fresh.status(game.id)).board.image == moved.board.image
    assert game.id not in service._early
    # the picture nobody shows was left to finish: cancelling a job that runs stops its worker process
    await asyncio.wait_for(asyncio.shield(early[0]), 10)
    assert not early[0].cancelled() and not service._unwanted


async def until_the_ai_answers(service, game_id: int, user_id: int, calls: list, during: list) -> int:
    """``user_id`` makes the first listed move until one is answered by the AI at once (two commits in one
    action); asserts that no board was drawn ahead of the AI's move and the board of the AI's move was drawn
    once. Returns the version reached."""
    for _ in range(40):
        game = await service.game(game_id)
        before, commits = len(calls), len(during)
        outcome = await service.act(game_id, user_id, game.version, 0)
        if len(during) - commits >= 2:
            break
    else:
        pytest.fail("the AI never answered")
    assert during[commits] == calls[:before], "a board was drawn ahead of the AI's move"
    assert calls[before:].count((game.engine, "render_public")) == 1
    return outcome.game.version


async def test_no_board_is_drawn_ahead_of_an_ais_move(store, monkeypatch):
    """A move after which the AI is to act: its board is never shown (the AI moves on at once), so it is not
    drawn while the move is saved; the board shown is the one after the AI's move."""
    service = GameService(store, seed_source=lambda: 5, clock=lambda: NOW)
    game, outcome = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1,
                                         channel_id=1, opponent="ai")
    assert outcome is not None
    calls = count_draws(service)
    during = slow_disk(store, monkeypatch, calls)
    version = await until_the_ai_answers(service, game.id, ANN, calls, during)
    fresh = GameService(store, seed_source=lambda: 5, clock=lambda: NOW)
    status = await fresh.status(game.id)
    assert status.game.version == version and status.board.image == (await service.status(game.id)).board.image


async def test_no_board_is_drawn_ahead_of_the_move_the_ai_makes_for_a_player_out_of_time(store, monkeypatch):
    now = [NOW]
    service = GameService(store, seed_source=lambda: 5, clock=lambda: now[0])
    game, _ = await service.create("hector-achilles", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1,
                                   time_control="1h", on_timeout="ai")
    game, outcome = await service.join(game.id, BOB, "Bob")
    now[0] = NOW + timedelta(minutes=61)
    await service.expire_clocks(now[0])  # Ann's time ran out: the AI plays her seat, and has made her move
    assert (await service._seat_clocks(game.id))[0].stand_in
    calls = count_draws(service)
    during = slow_disk(store, monkeypatch, calls)
    version = await until_the_ai_answers(service, game.id, BOB, calls, during)
    fresh = GameService(store, seed_source=lambda: 5, clock=lambda: now[0])
    status = await fresh.status(game.id)
    assert status.game.version == version and status.board.image == (await service.status(game.id)).board.image
