"""A Swiss tournament in the real bot process, its matches played by clicks, SIGKILLed mid-round and between
rounds (after a match's result is recorded and before the next round is paired; after a round is paired and
before its games are opened), started again on the same database each time: the event finishes with every
match played once - none lost, none doubled - and the podium posted once. On both store backends."""

from __future__ import annotations

import asyncio
import json
import signal

import pytest

from engines.rng import Rng
from tests.backends import fetch_row
from tests.cogs.driver import take_turn
from tests.discord_harness import CHANNEL_ID, button
from tests.e2e.test_restart import start_bot
from tests.fake_server import FakeDiscordServer, RemoteBot

pytestmark = pytest.mark.e2e

PEOPLE = {401 + i: f"P{i}" for i in range(4)}


async def one(db, sql: str):
    return (await fetch_row(db, sql))[0]


async def match_game(db, round_no: int, slot: int) -> tuple[int | None, str | None, int | None]:
    """(game id, game status, thread id) of a match."""
    row = await fetch_row(db, "SELECT g.id, g.status, g.thread_id FROM tournament_matches m LEFT JOIN games g"
                              f" ON g.id = m.game_id WHERE m.round_no = {round_no} AND m.slot = {slot}")
    return row if row else (None, None, None)


async def wait_for(check, what: str, timeout: float = 40.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        found = await check()
        if found:
            return found
        if loop.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.1)


async def round_open(db, round_no: int) -> bool:
    """Round ``round_no`` is paired and each of its matches has a running game in a thread."""
    if await one(db, f"SELECT COUNT(*) FROM tournament_matches WHERE round_no = {round_no}") != 2:
        return False
    for slot in (0, 1):
        game_id, status, thread = await match_game(db, round_no, slot)
        if game_id is None or thread is None or status not in ("running", "finished"):
            return False
    return True


async def play(remote, db, proc, round_no: int, slot: int, rng: Rng, turns: int | None = None) -> bool:
    """Click through a match (``turns`` decisions, or to its end); False when the process died meanwhile."""
    done = 0
    while turns is None or done < turns:
        game_id, status, thread = await match_game(db, round_no, slot)
        if status != "running":
            return True
        turn = asyncio.ensure_future(take_turn(remote, thread, rng))
        died = asyncio.ensure_future(proc.wait())
        await asyncio.wait({turn, died}, return_when=asyncio.FIRST_COMPLETED)
        if died.done():
            turn.cancel()
            await asyncio.gather(turn, return_exceptions=True)
            return False
        died.cancel()
        turn.result()
        done += 1
    return True


def posted(remote, text: str):
    """A check for :func:`wait_for`: a message with ``text`` is in the tournament's channel."""
    async def check():
        return [m for m in remote.messages_in(CHANNEL_ID) if text in m["content"]]
    return check


def no_traceback(log) -> None:
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[text.index("Traceback") - 500:][:4000]


@pytest.mark.parametrize("point", ["after_settle", "after_pair"])
async def test_a_swiss_event_survives_kills_mid_round_and_between_rounds(tmp_path, database, point):
    server = await FakeDiscordServer().start()
    db, log = database, tmp_path / "bot.log"
    remote = RemoteBot(server)
    proc = await start_bot(server, db, log)
    rng = Rng(21)
    try:
        first = next(iter(PEOPLE))
        await remote.slash(first, "tournament new", game="hextri", name=PEOPLE[first], format="swiss",
                           rounds=2, options="round_limit=2")
        post = next(m for m in remote.messages_in(CHANNEL_ID) if m["embeds"])
        for uid, name in list(PEOPLE.items())[1:]:
            await remote.click(uid, post, button(post, "Join")["custom_id"], name=name)
        post = server.fake.messages[int(post["id"])]
        await remote.click(first, post, button(post, "Start")["custom_id"], name=PEOPLE[first])
        assert await round_open(db, 1)
        # round 1: one match played to its end, the other half-way, then a hard kill
        assert await play(remote, db, proc, 1, 0, rng)
        assert await play(remote, db, proc, 1, 1, rng, turns=3)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        # the second process dies between rounds, at the crash point
        proc = await start_bot(server, db, log, CRASH_AT=f"{point}:1")
        if await play(remote, db, proc, 1, 1, rng):
            # the last click was answered; the round is paired in a worker process, so the crash point comes a
            # moment later
            await asyncio.wait_for(proc.wait(), 60)
        assert proc.returncode == -signal.SIGKILL, "the crash point was reached"
        assert await one(db, "SELECT COUNT(*) FROM tournament_matches WHERE places IS NULL AND round_no = 1") == 0
        # the third carries on: it pairs round 2 (or opens its games) by itself once connected
        proc = await start_bot(server, db, log)
        await wait_for(lambda: round_open(db, 2), "round 2 was paired and its games opened")
        await wait_for(posted(remote, "round 2 has begun"), "round 2 announced")
        assert await play(remote, db, proc, 2, 0, rng, turns=3)
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        proc = await start_bot(server, db, log)
        for slot in (0, 1):
            assert await play(remote, db, proc, 2, slot, rng)
        await wait_for(lambda: one(db, "SELECT COUNT(*) FROM tournaments WHERE status = 'finished'"),
                       "the tournament finished")
        # every match once, each with its own game, played and counted
        assert await one(db, "SELECT COUNT(*) FROM tournament_matches") == 4
        assert await one(db, "SELECT COUNT(DISTINCT game_id) FROM tournament_matches") == 4
        assert await one(db, "SELECT COUNT(*) FROM games WHERE tournament_id = 1") == 4
        assert await one(db, "SELECT COUNT(*) FROM games WHERE tournament_id = 1 AND status = 'finished'") == 4
        assert await one(db, "SELECT COUNT(*) FROM tournament_matches WHERE how = 'played'") == 4
        pairs = [await fetch_row(db, f"SELECT players FROM tournament_matches WHERE round_no = {r} AND slot = {s}")
                 for r in (1, 2) for s in (0, 1)]
        assert len({frozenset(json.loads(p[0])) for p in pairs}) == 4, "no rematch, no match twice"
        texts = [m["content"] for m in remote.messages_in(CHANNEL_ID)]
        assert sum("round 2 has begun" in c for c in texts) == 1, "round 2 announced once"
        await wait_for(posted(remote, "is over! The winner"), "the podium")
        await asyncio.sleep(0.5)
        assert sum("is over! The winner" in m["content"] for m in remote.messages_in(CHANNEL_ID)) == 1
        no_traceback(log)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await server.stop()
