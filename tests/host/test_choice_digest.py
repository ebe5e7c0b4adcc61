"""The fingerprint of a seat's choices that its buttons carry: what it tells apart, and boards posted by the
version of the bot before it was computed with orjson still play (issue 29)."""

from __future__ import annotations

import pytest

import host.seatwork as seatwork
from engines import ENGINES
from host.seatwork import choices_digest, digest_before_orjson
from host.service import GameService, StaleBoard
from store import SqliteStore
from tests.host.test_service import Both

ANN, BOB = 1, 2


@pytest.fixture
async def store(tmp_path):
    s = await SqliteStore.open(tmp_path / "g.db")
    yield s
    await s.close()


def test_the_fingerprint_tells_other_choices_apart_but_not_key_order():
    moves = [{"type": "move", "from": "H-D4", "to": "T-D7", "sources": ["H-D4"]}, {"type": "pass"}]
    assert choices_digest(moves) == choices_digest([dict(reversed(moves[0].items())), {"type": "pass"}])
    assert choices_digest(moves) != choices_digest(moves[::-1])  # an index means another move
    assert choices_digest(moves) != choices_digest([{**moves[0], "sources": ["T-D7"]}, {"type": "pass"}])
    assert choices_digest([{"type": "pay", "by": {1: 2}}]) == choices_digest([{"type": "pay", "by": {"1": 2}}])
    assert len(choices_digest(moves)) == len(digest_before_orjson(moves)) == 8
    assert choices_digest(moves) != digest_before_orjson(moves)  # (else the test below proves nothing)


async def _two_seats(store, monkeypatch):
    monkeypatch.setitem(ENGINES, "test-both", Both())
    service = GameService(store, seed_source=lambda: 1, render=False)
    game, _ = await service.create("test-both", user_id=ANN, user_name="Ann", guild_id=1, channel_id=1)
    game, outcome = await service.join(game.id, BOB, "Bob")
    return service, game, outcome


async def test_a_board_posted_before_the_upgrade_still_plays(store, monkeypatch):
    service, game, outcome = await _two_seats(store, monkeypatch)
    ann = next(n.panel for n in outcome.nudges if n.user_id == ANN)
    bob = next(n.panel for n in outcome.nudges if n.user_id == BOB)
    legal = ENGINES["test-both"].legal_actions(await service._state(game), 0)
    assert ann.digest == choices_digest(legal)
    older = digest_before_orjson(legal)
    # Bob passes with his board of the same version, fingerprinted the old way: made
    after = await service.act(game.id, BOB, bob.version, 1, digest_before_orjson(
        ENGINES["test-both"].legal_actions(await service._state(game), 1)))
    assert after.game.version == 1
    # Ann's board is one version older, with only Bob's pass since: it still holds with the old fingerprint
    outcome = await service.act(game.id, ANN, ann.version, 0, older)
    assert outcome.game.version == 2 and (await service._state(outcome.game))["plays"] == 1


async def test_another_fingerprint_is_refused_and_worked_out_once_per_turn(store, monkeypatch):
    service, game, outcome = await _two_seats(store, monkeypatch)
    ann = next(n.panel for n in outcome.nudges if n.user_id == ANN)
    counted = []
    real = seatwork.digest_before_orjson
    monkeypatch.setattr(seatwork, "digest_before_orjson", lambda legal: counted.append(1) or real(legal))
    for _ in range(20):  # a flood of forged buttons: each refused, nothing played, the old digest made once
        with pytest.raises(StaleBoard, match="older version of the bot"):
            await service.act(game.id, ANN, ann.version, 0, "0badf00d")
    assert (await service.game(game.id)).version == 0 and len(counted) == 1
    await service.act(game.id, ANN, ann.version, 0, ann.digest)  # the board itself plays
    assert (await service.game(game.id)).version == 1
