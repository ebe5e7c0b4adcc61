"""Every way a game can end, in every game, with two players and with three where the game allows, through the
real discord.py dispatch: the game is opened with ``/game new`` (or as a tournament's match), ended the way people
end it (played out, ``/game resign`` and its button, the clock job running out a player's time with
``on_timeout:forfeit``, ``/game abandon``, ``/tournament adjudicate``, ``/tournament drop``, the clock job reaching
a tournament round's deadline), and then everything
a player reads about it must agree with the stored result (host/ending.py): the last board's words (who won and
why, every place, no "your turn"), the last picture (drawn with how it ended instead of whose turn it was), the
step-through and the animated replay, ``/game status``, ``/game history``, ``/profile``, ``/leaderboard`` and the
tournament's table.

A game to be played out is fast-forwarded through the service's own pipeline (each move committed as a click
would be, the AI playing the seats of players who left), and its last board is then posted by the real
publisher. Set ``ENDINGS_PICTURES=<folder>`` to keep every last board (picture and text) for a look."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import discord
import pytest

import ai
from bot import create_bot
from cogs import publish
from engines import ENGINES
from engines.rng import Rng
from host.ending import Ending, How
from host.presenters import presenter_for
from host.service import GameService
from host.tournaments import tournaments_of
from render import RENDERERS
from settings import Settings
from store import SqliteStore
from tests.cogs.driver import latest_board
from tests.discord_harness import CHANNEL_ID, Harness, button
from tests.render.phone import texts_at_phone_width

ANN, BOB, CY = 111_111_111_111_111_111, 222_222_222_222_222_222, 333_333_333_333_333_333
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy"}
#: a tournament's entries (the organizer plays too)
P0, P1, P2 = 101, 102, 103
NAMES |= {P0: "P0", P1: "P1", P2: "P2"}

#: short games: one race, a small board, few rounds
OPTIONS = {"hector-achilles": {}, "ave-caesar": {"races": 1}, "hextri": {"radius": 2, "round_limit": 2},
           "troja": {"max_rounds": 5}, "kivalasztottak": {"round_limit": 2}}
#: the options a game of N players needs at /game new (the others' defaults wait for a larger table)
SIZED = {"ave-caesar", "hextri", "troja"}

ENDS = ("natural", "resigned", "timeout", "abandoned", "adjudicated", "dropped", "deadline")
CASES = [pytest.param(end, key, n, id=f"{end}-{key}-{n}")
         for end in ENDS for key, engine in ENGINES.items() for n in (2, 3)
         if engine.min_players <= n <= engine.max_players]


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
async def h(tmp_path, monkeypatch):
    """A bot on a fast (unsynced) database whose clock the test drives; every public picture drawn is kept."""
    store = await SqliteStore.open(tmp_path / "bot.db", synchronous="OFF")
    seeds = iter(range(3000, 4000))
    service = GameService(store, seed_source=lambda: next(seeds), clock=Clock())
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0), store=store, service=service)
    harness = await Harness(bot, monkeypatch).start()
    harness.pictures = []
    real = service.painter.draw

    async def draw(key, method, *args):
        png = await real(key, method, *args)
        if method == "render_public":
            harness.pictures.append((args[0], png))
        return png

    monkeypatch.setattr(service.painter, "draw", draw)
    yield harness
    await harness.stop()


def since(h, count: int) -> list[dict]:
    return list(h.fake.messages.values())[count:]


def thread_of(h) -> int:
    return [cid for cid, c in h.fake.channels.items() if c["type"] == 11][-1]


def user(uid: int) -> dict:
    return {"users": {str(uid): {"id": str(uid), "username": f"u{uid}", "discriminator": "0",
                                 "global_name": NAMES[uid], "avatar": None}}}


# -- opening a game ----------------------------------------------------------------------------------------

async def open_game(h, key: str, n: int, **clock) -> int:
    """``/game new`` by Ann, the others press Join; the game starts when the table is full."""
    options = dict(OPTIONS[key], **({"players": n} if key in SIZED else {}), **clock)
    await h.slash(ANN, f"{key} new", name="Ann", **options)
    thread = thread_of(h)
    for uid in (BOB, CY)[:n - 1]:
        lobby = h.fake.messages[int(h.messages_in(thread)[0]["id"])]
        await h.click(uid, lobby, button(lobby, "Join")["custom_id"], name=NAMES[uid])
    game = await h.bot.service.game(1)
    assert game.status == "running", "the table is full: the game runs"
    return game.id


async def open_match(h, key: str, n: int, **extra) -> tuple[int, dict]:
    """A one-round Swiss of ``n`` entries at one table: its only match's game (``extra``: more options of
    ``/tournament new``)."""
    text = ",".join(f"{k}={v}" for k, v in OPTIONS[key].items())
    await h.slash(P0, "tournament new", game=key, name="P0", format="swiss", rounds=1,
                  **({"table_size": n} if n > 2 else {}), **({"options": text} if text else {}), **extra)
    for uid in (P1, P2)[:n - 1]:
        post = next(m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "Tournament #1" in m["embeds"][0]["title"])
        await h.click(uid, h.fake.messages[int(post["id"])], button(post, "Join")["custom_id"], name=NAMES[uid])
    post = next(m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "Tournament #1" in m["embeds"][0]["title"])
    await h.click(P0, h.fake.messages[int(post["id"])], button(post, "Start")["custom_id"], name="P0")
    (match,) = await h.bot.service.store.matches(1, 1)
    assert len(match.players) == n and match.game_id is not None
    return match.game_id, match


# -- ending it ---------------------------------------------------------------------------------------------

async def play_out(h, game_id: int, rng: Rng) -> None:
    """Play the game to its end as its players would, each move committed through the service's pipeline (the
    AI plays the seats of players who left); then the real publisher posts its last board (the narration of
    the moves before the last is taken as read, so that the board is the end's)."""
    service = h.bot.service
    async with service.lock(game_id):
        game = await service.game(game_id)
        engine = ENGINES[game.engine]
        for _ in range(20_000):
            if game.status != "running":
                break
            state = await service.state_of(game)
            stand_ins = await service._stand_ins(game)
            seat = next(s for s in engine.to_act(state) if s not in stand_ins)
            await service._commit(game, state, seat, game.seat_row(seat).user_id,
                                  ai.random_player(engine, state, seat, rng))
            await service.run_automatic(game)
        assert game.status == "finished", "the game did not end"
    owed = await service.store.outbox(game_id)
    if len(owed) > 1:
        await service.store.outbox_done(game_id, owed[-2].id)
    await publish.publish(h.bot, game_id=game_id)
    await h.settle()


async def resign(h, game_id: int, uid: int) -> None:
    """``/game resign`` in the game's thread, then the confirmation button."""
    thread = (await h.bot.service.game(game_id)).thread_id
    before = len(h.fake.messages)
    await h.slash(uid, "game resign", channel_id=thread, name=NAMES[uid])
    (ask,) = [m for m in since(h, before) if "Resign game" in m["content"]]
    await h.click(uid, ask, button(ask, "Resign")["custom_id"], name=NAMES[uid])
    await h.settle()


async def run_out_of_time(h, game_id: int) -> int:
    """The clock job, a round a minute, until a seat forfeits on time; returns that seat."""
    service, cog = h.bot.service, h.bot.get_cog("Clocks")
    left = {d["seat"] for d in await service.store.departures(game_id)}
    for _ in range(6 * 60):
        service.clock.now += timedelta(minutes=1)
        await cog.tick()
        await h.settle()
        gone = {d["seat"] for d in await service.store.departures(game_id)} - left
        if gone:
            return gone.pop()
    raise AssertionError("nobody ran out of time")


def ranked_among(places: list[int], seats: list[int]) -> dict[int, int]:
    """Competition ranks of ``seats`` by ``places`` (ties share)."""
    return {s: 1 + sum(1 for q in seats if places[q] < places[s]) for s in seats}


async def end_game(h, end: str, key: str, n: int) -> tuple[int, dict | None, dict]:
    """Open a game and end it the ``end`` way. Returns (game id, its match or None, what the test expects:
    ``how``, ``places`` per seat, ``left`` [(seat, how)] in order, and the people per seat)."""
    service, rng = h.bot.service, Rng(n * 31 + len(key))
    match = None
    if end in ("adjudicated", "dropped", "deadline"):
        game_id, match = await open_match(h, key, n, **({"round_hours": 1} if end == "deadline" else {}))
    else:
        clock = {"time_control": "1h", "on_timeout": "forfeit"} if end == "timeout" else {}
        game_id = await open_game(h, key, n, **clock)
    game = await service.game(game_id)
    people = {s.seat: s.user_id for s in game.seats}
    seats = sorted(people)
    expect: dict = {"people": people, "left": []}
    if end == "natural":
        await play_out(h, game_id, rng)
        state = await service.state_of(await service.game(game_id))
        expect.update(how=How.NATURAL, places=list(ENGINES[key].result(state)["places"]))
    elif end in ("resigned", "dropped"):
        quitter = seats[0]
        if end == "resigned":
            await resign(h, game_id, people[quitter])
        else:
            await h.slash(P0, "tournament drop", tournament=1, player=discord.Object(people[quitter]), name="P0",
                          resolved=user(people[quitter]))
            await h.settle()
        how = How.RESIGNED if end == "resigned" else How.DROPPED
        expect["left"] = [(quitter, how)]
        if n == 2:
            expect.update(how=how, places=[2 if s == quitter else 1 for s in seats])
        else:  # the others play on to the end; the one who left is last
            assert (await service.game(game_id)).status == "running", "a table of three plays on"
            await play_out(h, game_id, rng)
            state = await service.state_of(await service.game(game_id))
            engine_places = ENGINES[key].result(state)["places"]
            stayed = ranked_among(engine_places, seats[1:])
            expect.update(how=How.NATURAL, places=[3 if s == quitter else stayed[s] for s in seats])
    elif end == "timeout":
        first = await run_out_of_time(h, game_id)
        expect["left"] = [(first, How.TIMEOUT)]
        if n == 2:
            expect.update(how=How.TIMEOUT, places=[2 if s == first else 1 for s in seats])
        else:  # the AI plays the seat on; a second time-out leaves one player, who wins
            assert (await service.game(game_id)).status == "running"
            second = await run_out_of_time(h, game_id)
            expect["left"].append((second, How.TIMEOUT))
            places = {first: 3, second: 2}
            expect.update(how=How.TIMEOUT, places=[places.get(s, 1) for s in seats])
    elif end == "abandoned":
        thread = game.thread_id
        await h.slash(ANN, "game abandon", channel_id=thread, name="Ann")
        await h.settle()
        expect.update(how=How.ABANDONED, places=None)
    elif end == "adjudicated":
        winner = people[seats[-1]]
        await h.slash(P0, "tournament adjudicate", tournament=1, match=match.id, winner=discord.Object(winner),
                      name="P0", resolved=user(winner))
        await h.settle()
        expect.update(how=How.ADJUDICATED, places=[1 if s == seats[-1] else 2 for s in seats])
    elif end == "deadline":
        # nobody moves for the round's hour: whoever the match waits for loses it, the others share the first
        # place; a match that waits for everybody (all choose at once) is a draw, nobody wins by seat order
        waiting = set(ENGINES[key].to_act(await service.state_of(game)))
        assert waiting, "somebody is to move at the start"
        if len(waiting) == n:
            waiting = set()
        cog = h.bot.get_cog("Clocks")
        started = service.clock.now
        while (await service.store.match(match.id)).places is None:
            assert service.clock.now - started < timedelta(minutes=70), "settled at the deadline"
            service.clock.now += timedelta(minutes=1)
            await cog.tick()
            await h.settle()
        assert service.clock.now - started > timedelta(minutes=59), "not before the deadline"
        late = {s: n - len(waiting) + 1 + i for i, s in enumerate(sorted(waiting, reverse=True))}
        places = [late.get(s, 1) for s in seats]
        expect.update(how=How.DEADLINE, places=places, left=[(s, How.TIMEOUT) for s in seats if s in waiting])
        late_names = ", ".join(NAMES[people[s]] for s in sorted(waiting))
        expect["notice"] = (f"⏰ Match #{match.id} (round 1) reached the round's deadline: {late_names} ran out of"
                            f" time and lose(s) it." if waiting else f"⏰ Match #{match.id} (round 1) reached the"
                            " round's deadline with every player still to move: it is a draw.")
    return game_id, match, expect


# -- what every player reads ---------------------------------------------------------------------------------

#: the words a picture uses to name whose turn it is (data/locales/<game>/picture/en.json)
TURN_WORDS = ("▶", "TO ACT", "TURN", "to move", "to act", "active:", "Choosing losses")

WHY = {How.RESIGNED: "{who} resigned", How.TIMEOUT: "{who} ran out of time",
       How.DROPPED: "{who} was dropped from the tournament"}
MARK = {How.RESIGNED: "resigned", How.TIMEOUT: "ran out of time", How.DROPPED: "dropped from the tournament"}
#: the shorter words of a picture
PICTURE_MARK = {How.RESIGNED: "resigned", How.TIMEOUT: "out of time", How.DROPPED: "dropped out"}


PICTURE_WHY = {How.RESIGNED: "{who} resigned", How.TIMEOUT: "{who} ran out of time", How.DROPPED: "{who} dropped out",
               How.ADJUDICATED: "the organizer decided", How.DEADLINE: "round deadline"}


def headline(key: str, expect: dict, names: list[str], match: dict | None, picture: bool = False) -> str | None:
    """The sentence that must tell who won and why (None: a game its rules ended with everybody at the table,
    told in the game's own words); ``picture``: as the last picture says it, shorter and without markdown."""
    places, how = expect["places"], expect["how"]

    def who(seat: int) -> str:
        name = presenter_for(key).who(seat, names)
        return name.replace("**", "") if picture else name

    if places is None:
        return "No result — called off by Ann" if picture else "✖️ No result: Ann abandoned the game."
    if how is How.NATURAL and not expect["left"]:
        return None
    why = ""
    if picture and how in PICTURE_WHY:
        why = " — " + PICTURE_WHY[how].format(who=who(expect["left"][-1][0]) if expect["left"] else "")
    elif how is How.ADJUDICATED:
        why = f": the organizer of tournament #1 decided match #{match.id}"
    elif how is How.DEADLINE:
        why = f": match #{match.id} reached the deadline of round 1"
    elif how in WHY:
        why = ": " + WHY[how].format(who=who(expect["left"][-1][0]))
    winners = [s for s, p in enumerate(places) if p == 1]
    if picture:
        if len(winners) == len(places):
            return f"Draw{why}"
        return f"{' & '.join(who(s) for s in winners)} {'wins' if len(winners) == 1 else 'share first place'}{why}"
    if len(winners) == len(places):
        return f"🤝 A draw{why}."
    if len(winners) == 1:
        return f"🏆 {who(winners[0])} wins{why}."
    return f"🏆 {' & '.join(who(s) for s in winners)} share the first place{why}."


def rated(expect: dict) -> list[int]:
    """The seats whose places count in ratings: a game decided at the table, never a seat dropped."""
    if expect["how"] not in (How.NATURAL, How.RESIGNED, How.TIMEOUT, How.DROPPED):
        return []
    dropped = {s for s, how in expect["left"] if how is How.DROPPED}
    return [s for s in expect["people"] if s not in dropped]


@pytest.mark.parametrize(("end", "key", "n"), CASES)
async def test_every_end_is_told_the_same_everywhere(h, end, key, n):
    game_id, match, expect = await end_game(h, end, key, n)
    service = h.bot.service
    game = await service.game(game_id)
    people, names = expect["people"], service.names(game)
    presenter = presenter_for(key)

    # the stored result
    ended = Ending.from_json(game.result, abandoned=game.status == "abandoned")
    assert game.status == ("abandoned" if end == "abandoned" else "finished")
    assert ended.how is expect["how"]
    assert (list(ended.places) if ended.places is not None else None) == expect["places"]
    assert [(d.seat, d.how) for d in ended.left] == expect["left"]

    # the last board: who won and why, every place; nobody is asked to move
    board = latest_board(h, game.thread_id)
    text = board["content"]
    assert ("**Game over.**" if end != "abandoned" else "**Game called off.**") in text
    assert "your turn" not in text.lower()
    if "notice" in expect:
        assert text.splitlines()[0] == expect["notice"]
    head = headline(key, expect, names, match)
    told = text.split("**Game over.**\n" if end != "abandoned" else "**Game called off.**\n", 1)[1].splitlines()
    if head is not None:
        assert told[0] == head
        for seat, place in enumerate(expect["places"] or []):
            mark = dict(expect["left"]).get(seat)
            line = f"{place}. {presenter.who(seat, names)}"
            assert any(t.startswith(line) and (mark is None or t.endswith(" — " + MARK[mark])) for t in told), line
    else:  # the game's own words: the winner named first, no draw unless it is one
        best = [s for s, p in enumerate(expect["places"]) if p == 1]
        if len(best) == 1:
            assert names[best[0]].strip("*") in told[0] and "draw" not in told[0].lower()
    for seat, _ in expect["left"]:  # who left is never announced as the winner
        assert not told[0].startswith(f"🏆 {presenter.who(seat, names)} wins")
    if end != "abandoned":
        assert all(f"<@{u}>" in text for u in people.values()), "the players are thanked by name"

    # the last picture: how it ended instead of whose turn it was (every text drawn on it, as a phone shows it)
    # (the picture the last board was sent with, not the last one drawn: a picture drawn ahead for an earlier
    # version and never shown - the bot lets it finish - may complete after it, and shows that version's turn)
    sent = {data for s in h.fake.sent for name, data in s.files.items() if name.endswith(".png")}
    view, png = next((v, p) for v, p in reversed(h.pictures) if p in sent)
    if os.environ.get("ENDINGS_PICTURES"):
        folder = Path(os.environ["ENDINGS_PICTURES"])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{end}-{key}-{n}.png").write_bytes(png)
        (folder / f"{end}-{key}-{n}.txt").write_text(text, encoding="utf-8")
    drawn = [s for s, _ in texts_at_phone_width(RENDERERS[key].render_public, view)[0]]
    assert not [s for s in drawn if any(w in s for w in TURN_WORDS)], "the last picture names a turn"
    if head is not None:
        shown = headline(key, expect, names, match, picture=True)
        assert view["ending"]["headline"] == shown and shown in " ".join(drawn), (shown, drawn)
        assert view["ending"]["left"] == {str(s): PICTURE_MARK[how] for s, how in expect["left"]}
        for how in {how for _, how in expect["left"]} if n > 2 else ():  # who left is marked (two: the headline)
            assert sum(PICTURE_MARK[how] in s for s in drawn) >= sum(1 for _, h in expect["left"] if h is how), \
                (how, drawn)
    else:
        assert "ending" not in view and ENGINES[key].to_act(await service.state_of(game)) == []

    # /game status says the same
    asker = people[0]
    before = len(h.fake.messages)
    await h.slash(asker, "game status", channel_id=game.thread_id, name=NAMES[asker])
    (status,) = [m for m in since(h, before) if "game #" in m["content"] and m["flags"] & 64]
    assert (head or told[0]) in status["content"] and "your turn" not in status["content"].lower()

    # the step-through's last step ends with it, and the replay is not refused
    before = len(h.fake.messages)
    await h.slash(asker, "game steps", game=game_id, name=NAMES[asker])
    (step,) = [m for m in since(h, before) if "step" in m["content"]]
    assert "rules changed" not in step["content"]
    assert (head or told[0]) in step["content"]
    if expect["left"] and game.status == "finished" and expect["how"] is How.NATURAL:
        # the game went on after somebody left: the step-through says when
        before = len(h.fake.messages)
        await h.slash(asker, "game steps", game=game_id, step=0, name=NAMES[asker])
        (step,) = [m for m in since(h, before) if "step" in m["content"]]
        seat, how = expect["left"][0]
        assert f"🚪 {presenter.who(seat, names)} left the game ({MARK[how]}); the AI finishes their seat." \
            in step["content"]
    if end == "resigned" and n == 2:  # a resigned game of each kind replays as an animation
        before = len(h.fake.messages)
        await h.slash(asker, "game replay", game=game_id, name=NAMES[asker])
        posted = [m for m in since(h, before) if m["attachments"]]
        assert posted and posted[-1]["attachments"][0]["filename"].endswith(".gif")

    # /game history of every player: the result and why
    for seat, uid in people.items():
        before = len(h.fake.messages)
        await h.slash(uid, "game history", name=NAMES[uid])
        (page,) = [m for m in since(h, before) if "Past games" in m["content"]]
        (line,) = [t for t in page["content"].splitlines() if t.startswith(f"**#{game_id}**")]
        places = expect["places"]
        if places is None:
            assert line.endswith(": ✖️ called off, no result")
            continue
        result = ("draw" if len(set(places)) == 1 else "🏆 won" if places[seat] == 1
                  else f"place {places[seat]} of {n}")
        mine = dict(expect["left"]).get(seat)
        if mine is not None:
            result += " — " + MARK[mine]
        elif expect["how"] is How.ADJUDICATED:
            result += " — decided by the organizer"
        elif expect["how"] is How.DEADLINE:
            result += " — settled at the round's deadline"
        elif expect["how"] in WHY:
            result += " — " + WHY[expect["how"]].format(who=names[expect["left"][-1][0]])
        assert line.endswith(": " + result), (line, result)

    # /profile and /leaderboard: the rated games only, with the stored places
    counted = rated(expect) if len(rated(expect)) >= 2 else []
    best = min((expect["places"][s] for s in counted), default=None)
    sole = [s for s in counted if expect["places"][s] == best]
    for seat, uid in people.items():
        before = len(h.fake.messages)
        await h.slash(uid, "profile", name=NAMES[uid])
        (reply,) = [m for m in since(h, before) if m["embeds"]]
        embed = reply["embeds"][0]
        if seat in counted:
            (field,) = embed["fields"]
            won = 1 if expect["places"][seat] == best and len(sole) == 1 else 0
            assert f"1 played, {won} won" in field["value"]
        else:
            assert not embed.get("fields") and embed["description"].startswith("No rated games")
    before = len(h.fake.messages)
    await h.slash(people[0], "leaderboard", game=key, name="x")
    (reply,) = [m for m in since(h, before) if m["embeds"]]
    board_text = reply["embeds"][0]["description"]
    if counted:
        listed = re.findall(r"\*\*(.+?)\*\*", board_text)
        assert sorted(listed) == sorted(names[s] for s in counted)
        if len(sole) == 1:
            assert listed[0] == names[sole[0]], "the winner leads"
    else:
        assert board_text.startswith("No finished games between people")

    # the tournament's table: the match counted with the game's places
    if match is not None:
        settled = await service.store.match(match.id)
        assert settled.places == expect["places"]
        before = len(h.fake.messages)
        await h.slash(P0, "tournament table", tournament=1, name="P0")
        assert [m for m in since(h, before) if m["attachments"]], "the table's picture is posted"
        _, standing = await tournaments_of(h.bot).standings(1)
        rows = {name: r for r, name in standing}
        places = expect["places"]
        for seat, uid in people.items():
            beaten = sum(1 for q in people if q != seat and places[q] > places[seat])
            shared = sum(1 for q in people if q != seat and places[q] == places[seat])
            assert rows[NAMES[uid]].points == Fraction(2 * beaten + shared, 2 * (n - 1)), NAMES[uid]
        if end == "dropped":
            assert rows[NAMES[people[expect["left"][0][0]]]].dropped
    h.assert_no_errors()


async def test_a_result_saved_before_endings_were_typed_still_reads(h):
    """Games finished by older versions: a forfeit stored as ``{"places", "scores", "forfeited"}`` (the engine
    had no result) and a natural end of three with a forfeited seat moved last. Their boards, history and ratings
    read them (Kiválasztottak's presenter once failed on the first with "missing string 'reason_None'")."""
    service = h.bot.service
    game_id = await open_game(h, "kivalasztottak", 2)
    await service.store.set_status(game_id, "finished", {"places": [2, 1], "scores": [0, 0], "forfeited": [0]})
    before = len(h.fake.messages)
    await h.slash(BOB, "game status", game=game_id, name="Bob")
    (status,) = [m for m in since(h, before) if "game #" in m["content"]]
    assert "🏆 Bob (B) wins: Ann (A) forfeited." in status["content"] and "2. Ann (A) — forfeited" in status["content"]
    before = len(h.fake.messages)
    await h.slash(ANN, "game history", name="Ann")
    (page,) = [m for m in since(h, before) if "Past games" in m["content"]]
    assert page["content"].splitlines()[-1].endswith(": place 2 of 2 — forfeited")
    before = len(h.fake.messages)
    await h.slash(ANN, "profile", name="Ann")
    (reply,) = [m for m in since(h, before) if m["embeds"]]
    assert "1 played, 0 won" in reply["embeds"][0]["fields"][0]["value"]
    ended = Ending.from_json({"places": [3, 1, 2], "scores": [9, 4, 2], "reason": "glory", "winner": 0,
                              "forfeited": [0]})
    assert ended.how is How.NATURAL and ended.places == (3, 1, 2) and [d.seat for d in ended.left] == [0]
    assert ended.details["winner"] == 0 and ended.rated_seats() == [0, 1, 2]
    h.assert_no_errors()


async def test_an_organizer_deciding_a_match_played_out_overrules_its_game_everywhere(h):
    """A match of the round still under way was played out; the organizer decides it the other way: the game's
    stored result becomes the decision (told in its thread), and its history, ratings and the table agree."""
    people = [P0, P1, P2, CY]
    await h.slash(P0, "tournament new", game="hextri", name="P0", format="swiss", rounds=2,
                  options="radius=2,round_limit=2")
    for uid in people[1:]:
        post = next(m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "Tournament #1" in m["embeds"][0]["title"])
        await h.click(uid, h.fake.messages[int(post["id"])], button(post, "Join")["custom_id"], name=NAMES[uid])
    post = next(m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "Tournament #1" in m["embeds"][0]["title"])
    await h.click(P0, h.fake.messages[int(post["id"])], button(post, "Start")["custom_id"], name="P0")
    played = (await h.bot.service.store.matches(1, 1))[0]
    await play_out(h, played.game_id, Rng(5))
    game = await h.bot.service.game(played.game_id)
    before = Ending.from_json(game.result)
    assert before.how is How.NATURAL
    loser = max(range(2), key=lambda s: (before.places[s], s))
    winner = played.players[loser]
    await h.slash(P0, "tournament adjudicate", tournament=1, match=played.id, winner=discord.Object(winner),
                  name="P0", resolved=user(winner))
    await h.settle()
    game = await h.bot.service.game(played.game_id)
    after = Ending.from_json(game.result)
    places = [1 if s == loser else 2 for s in range(2)]
    assert after.how is How.ADJUDICATED and list(after.places) == places
    assert (await h.bot.service.store.match(played.id)).places == places
    board = latest_board(h, game.thread_id)["content"]
    assert f"🏆 {presenter_for('hextri').who(loser, h.bot.service.names(game))} wins: the organizer of tournament #1" \
           f" decided match #{played.id}." in board
    before_page = len(h.fake.messages)
    await h.slash(winner, "game history", name=NAMES[winner])
    (page,) = [m for m in since(h, before_page) if "Past games" in m["content"]]
    assert page["content"].splitlines()[-1].endswith(": 🏆 won — decided by the organizer")
    before_page = len(h.fake.messages)
    await h.slash(winner, "profile", name=NAMES[winner])
    (reply,) = [m for m in since(h, before_page) if m["embeds"]]
    assert not reply["embeds"][0].get("fields"), "an organizer's decision is not rated"
    h.assert_no_errors()
