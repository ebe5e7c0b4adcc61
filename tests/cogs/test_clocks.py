"""Turn clocks through the real discord.py dispatch, with the service's clock driven by the test: the option of
``/<game> new``, the time left on the board and in ``/game list``, a timeout narrated in the thread, ``/game
resign`` with its confirmation button, and ``/game away``; then every time control through ``/<game> new``
with the time left on the board picture, warnings by DM, the seat handed back by a click, a simultaneous
decision's default, a forfeit at a table of three, a restart during a countdown, a clock that ran out while the
bot was down, and a league that counts a forfeit on time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot import create_bot
from engines import ENGINES
from engines.rng import Rng
from host import clock as clocks
from host.ending import Departure, Ending, How
from host.service import GameService
from host.tournaments import tournaments_of
from render import kit
from settings import Settings
from store import SqliteStore
from tests.cogs.driver import latest_board, take_turn, to_act
from tests.cogs.test_hector_achilles_discord import ANN, BOB, thread_of
from tests.discord_harness import CHANNEL_ID, Harness, button, components


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now


async def _game(h, **options) -> int:
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "hector-achilles new", name="Ann", **options)
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby)["custom_id"], name="Bob")  # Join, in any language
    return thread, clock


def _replies(h, since: int) -> list[dict]:
    return list(h.fake.messages.values())[since:]


async def test_a_timed_out_player_is_replaced_by_the_ai_and_told_in_the_thread(harness):
    h = harness
    thread, clock = await _game(h, time_control="1h", on_timeout="ai")
    board = latest_board(h, thread)
    deadline = int((clock.now + timedelta(hours=1)).timestamp())
    assert f"⏳ Ann: time runs out <t:{deadline}:R>" in board["content"]
    before = len(h.fake.messages)
    await h.slash(BOB, "game list")
    (listing,) = [m for m in _replies(h, before) if m["embeds"]]
    assert "⏳ 1h" in listing["embeds"][0]["description"]
    cog = h.bot.get_cog("Clocks")

    async def run_for(minutes: int) -> list[int]:
        """The clock job as it runs: a tick a minute (a longer gap would be an outage, given back to every clock)."""
        changed = []
        for _ in range(minutes):
            clock.now += timedelta(minutes=1)
            changed += await cog.tick()
        await h.settle()
        return changed

    assert await run_for(31) == [1]
    assert any("half of your time" in m["content"] and f"<@{ANN}>" in m["content"] for m in h.messages_in(thread))
    assert await run_for(30) == [1]
    texts = "\n".join(m["content"] for m in h.messages_in(thread))
    assert f"<@{ANN}> ran out of time: the AI plays their seat until they are back" in texts
    assert "🤖 The AI plays for Ann" in latest_board(h, thread)["content"]
    h.assert_no_errors()


async def test_forfeit_is_the_hosts_choice_and_resign_asks_first(harness):
    h = harness
    thread, clock = await _game(h, time_control="none")
    before = len(h.fake.messages)
    await h.slash(ANN, "game resign", channel_id=thread)
    (ask,) = [m for m in _replies(h, before) if "Resign game #1?" in m["content"]]
    assert ask["flags"] & 64
    assert (await h.bot.service.game(1)).status == "running", "nothing happens before the confirmation"
    await h.click(ANN, ask, button(ask, "Resign")["custom_id"])
    await h.settle()
    game = await h.bot.service.game(1)
    assert game.status == "finished" and game.result["places"] == [2, 1]
    assert any("Ann resigned game #1" in m["content"] for m in h.messages_in(thread))
    h.assert_no_errors()


async def test_away_pauses_the_clock_and_shows_it(harness):
    h = harness
    thread, clock = await _game(h, time_control="12h")
    before = len(h.fake.messages)
    await h.slash(ANN, "game away days", days=3)
    (reply,) = [m for m in _replies(h, before) if "You are away until" in m["content"]]
    assert reply["flags"] & 64
    before = len(h.fake.messages)
    await h.slash(BOB, "game status", channel_id=thread)
    assert any("✈️ Ann is away until" in m["content"] for m in _replies(h, before))
    clock.now += timedelta(days=2)
    assert await h.bot.get_cog("Clocks").tick() == []  # no warning, no timeout while away
    before = len(h.fake.messages)
    await h.slash(ANN, "game away off")
    assert any("clocks run again" in m["content"] for m in _replies(h, before))
    h.assert_no_errors()


# -- the clock on the board picture, every time control, warnings by DM, hand-back, restarts, leagues -------

CY = 303


@pytest.fixture
def strips(monkeypatch):
    """The clock strips drawn on board pictures, newest last (render/kit.py ``_clock_strip_of``: every board
    picture asks it once for its strip, whether the strip is then put on top or written with it)."""
    drawn: list[list[str]] = []
    real = kit._clock_strip_of

    def spy(img, view):
        drawn.append([e["text"] for e in view.get("clock") or []])
        return real(img, view)

    monkeypatch.setattr(kit, "_clock_strip_of", spy)
    return drawn


async def _ticks(h, clock, minutes: int) -> list[int]:
    """The clock job as it runs: a tick a minute (a longer gap would be an outage, given back)."""
    cog, changed = h.bot.get_cog("Clocks"), []
    for _ in range(minutes):
        clock.now += timedelta(minutes=1)
        changed += await cog.tick()
    await h.settle()
    return changed


@pytest.mark.parametrize("control", list(clocks.TIME_CONTROLS))
async def test_every_time_control_through_game_new_is_on_the_board_and_its_picture(harness, strips, control):
    h = harness
    thread, clock = await _game(h, time_control=control)
    game = await h.bot.service.game(1)
    assert game.options["clock"] == {"control": control, "on_timeout": "ai"}
    board = latest_board(h, thread)
    tc = clocks.TIME_CONTROLS[control]
    if not tc.timed:
        assert "⏳" not in board["content"] and strips[-1] == []
        return
    deadline = int(clock.now.timestamp()) + tc.limit
    assert f"⏳ Ann: time runs out <t:{deadline}:R>" in board["content"]
    words = {"1h": "1 h", "12h": "12 h", "1d": "1 day", "3d": "3 days", "bank": "3 days"}[control]
    assert strips[-1] == [f"Ann: {words} left"], "the picture says the time left of the seat to act"
    h.assert_no_errors()


async def test_the_picture_speaks_the_games_language_and_counts_down(harness, strips):
    h = harness
    thread, clock = await _game(h, time_control="12h", language="pl")
    assert strips[-1] == ["Ann – pozostały czas: 12 godz."]
    clock.now += timedelta(hours=3, minutes=20)
    await h.slash(BOB, "game status", channel_id=thread)
    assert strips[-1] == ["Ann – pozostały czas: 8 godz. 40 min"]
    h.assert_no_errors()


async def test_a_warning_is_dmed_too_and_a_click_hands_the_seat_back_after_a_timeout(harness, strips):
    h = harness
    thread, clock = await _game(h, time_control="12h", on_timeout="ai")
    dms = len(h.dm_messages(ANN))
    assert dms >= 1 and "Time runs out <t:" in h.dm_messages(ANN)[-1]["content"], "the turn DM tells the time"
    await _ticks(h, clock, 6 * 60 + 1)
    warned = h.dm_messages(ANN)[dms:]
    assert [m for m in warned if "Half of your time for your move in game #1" in m["content"]], "half-time DM"
    assert any(f"<@{ANN}>, half of your time" in m["content"] for m in h.messages_in(thread))
    await _ticks(h, clock, 5 * 60)
    assert any("One hour left for your move in game #1" in m["content"] for m in h.dm_messages(ANN))
    assert strips[-1] == ["Ann: 1 h left"], "the board posted with the warning"
    await _ticks(h, clock, 60)
    board = latest_board(h, thread)
    assert "🤖 The AI plays for Ann" in board["content"] and "Ann: the AI plays (time ran out)" in strips[-1]
    # the AI played Ann's move; any click of hers hands the seat back
    await h.click(ANN, board, button(board, "My hand")["custom_id"])
    await h.settle()
    assert not (await h.bot.service._seat_clocks(1))[0].stand_in
    assert any("Ann is back and plays their own seat again" in m["content"] for m in h.messages_in(thread))
    h.assert_no_errors()


async def test_a_dm_warning_is_not_sent_to_closed_dms_but_the_thread_still_warns(harness):
    h = harness
    thread, clock = await _game(h, time_control="1h")
    await h.slash(ANN, "game settings", dm=False)
    dms = len(h.dm_messages(ANN))
    await _ticks(h, clock, 31)
    assert len(h.dm_messages(ANN)) == dms
    assert any(f"<@{ANN}>, half of your time" in m["content"] for m in h.messages_in(thread))
    h.assert_no_errors()


async def test_a_simultaneous_decision_defaults_after_its_short_limit(harness):
    """Kiválasztottak opens with both players ordering their tower levels at once: 10 minutes with 1 h."""
    h = harness
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "kivalasztottak new", name="Ann", time_control="1h")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    board = latest_board(h, thread)
    assert set(to_act(board)) == {ANN, BOB}
    ends = int(clock.now.timestamp()) + 10 * 60
    assert f"⏳ Ann: time runs out <t:{ends}:R>" in board["content"]
    await _ticks(h, clock, 11)
    texts = "\n".join(m["content"] for m in h.messages_in(thread))
    assert "Ann ran out of time; the default choice was made for them" in texts
    assert "Bob ran out of time; the default choice was made for them" in texts
    game = await h.bot.service.game(1)
    assert game.status == "running" and not any(c.stand_in for c in (await h.bot.service._seat_clocks(1)).values())
    h.assert_no_errors()


async def test_a_default_choice_and_its_narration_are_one_save(harness, monkeypatch):
    """A crash while the default of a simultaneous decision is saved leaves no "ran out of time" line behind
    (the next clock round makes the choice again and tells it once)."""
    h = harness
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "kivalasztottak new", name="Ann", time_control="1h")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    store = h.bot.service.store
    real = store.commit_action

    async def dies(*args, **kwargs):
        raise RuntimeError("the process died")

    monkeypatch.setattr(store, "commit_action", dies)
    clock.now += timedelta(minutes=11)
    with pytest.raises(RuntimeError):
        await h.bot.service.expire_clocks()
    assert not any("ran out of time" in line for e in await store.outbox(1) for line in e.lines)
    monkeypatch.setattr(store, "commit_action", real)
    await _ticks(h, clock, 1)
    texts = "\n".join(m["content"] for m in h.messages_in(thread))
    assert texts.count("Ann ran out of time; the default choice was made for them") == 1
    assert texts.count("Bob ran out of time; the default choice was made for them") == 1
    h.assert_no_errors()


async def test_a_forfeit_in_a_three_player_game_lets_the_ai_finish_the_seat(harness, strips):
    h = harness
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "hextri new", name="Ann", players=3, radius=2, round_limit=1, time_control="1h",
                  on_timeout="forfeit")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    await h.click(CY, h.fake.messages[int(lobby["id"])], button(lobby, "Join")["custom_id"], name="Cy")
    game = await h.bot.service.game(1)
    assert game.status == "running"
    first = to_act(latest_board(h, thread))[0]
    name = game.seat_row(game.seat_of(first)).name
    await _ticks(h, clock, 61)
    texts = "\n".join(m["content"] for m in h.messages_in(thread))
    assert f"{name} ran out of time in game #1 and forfeits: placed after everyone still playing." in texts
    assert "The AI finishes their seat." in texts
    assert f"{name}: forfeited, the AI finishes" in strips[-1]
    rng = Rng(3)
    for _ in range(200):
        game = await h.bot.service.game(1)
        if game.status != "running":
            break
        assert first not in to_act(latest_board(h, thread)), "the AI plays the forfeited seat"
        await take_turn(h, thread, rng)
    game = await h.bot.service.game(1)
    assert game.status == "finished"
    ended = Ending.from_json(game.result)
    assert ended.places[game.seat_of(first)] == 3 and ended.left == (Departure(game.seat_of(first), How.TIMEOUT, 0),)
    h.assert_no_errors()


async def _restart(h, tmp_path, monkeypatch, clock, *, same_discord: bool = False) -> Harness:
    """The bot stops; a new bot on the same database comes up (its service on the same test clock);
    ``same_discord``: talking to the same (fake) Discord, with its threads and DMs so far."""
    await h.stop()
    store = await SqliteStore.open(tmp_path / "bot.db")
    seeds = iter(range(5000, 6000))
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0), store=store,
                     service=GameService(store, seed_source=lambda: next(seeds), clock=clock))
    h2 = Harness(bot, monkeypatch)
    if same_discord:
        h2.fake, h2.payloads = h.fake, h.payloads
    return await h2.start()


def _half_time_dms(h, user_id: int) -> list[dict]:
    return [m for m in h.dm_messages(user_id) if "Half of your time for your move in game #1" in m["content"]]


async def test_a_warning_dm_owed_at_a_restart_is_sent_once_by_the_next_bot(harness, tmp_path, monkeypatch):
    """The clock round saves a warning, and the bot stops before the board that carries it is published: the
    next bot's publisher posts the thread's warning and DMs it to the player, once."""
    h = harness
    thread, clock = await _game(h, time_control="1h")
    await _ticks(h, clock, 29)
    assert not _half_time_dms(h, ANN)
    clock.now += timedelta(minutes=1)
    assert await h.bot.service.expire_clocks() == [1]  # saved; the crash comes before publish()
    assert not _half_time_dms(h, ANN)
    h2 = await _restart(h, tmp_path, monkeypatch, clock, same_discord=True)
    try:
        assert await h2.bot.get_cog("Publisher").publish_pending(grace=timedelta(0)) == 1
        await h2.settle()
        assert any(f"<@{ANN}>, half of your time" in m["content"] for m in h2.messages_in(thread))
        (dm,) = _half_time_dms(h2, ANN)
        assert "Time runs out <t:" in dm["content"], "the warning comes with the turn's DM"
        dms = len(h2.dm_messages(ANN))
        # nothing repeats it: another publisher round, the clock job's next minutes, the next boards' DMs
        assert await h2.bot.get_cog("Publisher").publish_pending(grace=timedelta(0)) == 0
        await _ticks(h2, clock, 5)
        rng = Rng(4)
        for _ in range(30):  # (one DM per turn since issue 25: on until Ann's next turn)
            await take_turn(h2, thread, rng)
            await h2.bot.get_cog("Publisher").publish_pending(grace=timedelta(0))
            if len(h2.dm_messages(ANN)) > dms:
                break
        assert len(h2.dm_messages(ANN)) > dms, "Ann was DMed for her later turns"
        assert len(_half_time_dms(h2, ANN)) == 1, "the warning was DMed once"
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_a_crash_right_after_a_resignation_still_posts_the_last_board(harness, tmp_path, monkeypatch):
    """Resigning a game of two ends it, and its clocks, result and last board are one save: the bot dying at the
    next save still owes the board, which the next bot posts once."""
    h = harness
    thread, clock = await _game(h, time_control="1d")
    store = h.bot.service.store
    real, over = store._transaction, False

    async def dies_after_the_end(statements, *args, **kwargs):
        nonlocal over
        if over:
            raise RuntimeError("the process died")
        done = await real(statements, *args, **kwargs)
        over = any("SET status = ?" in sql and params[0] == "finished" for sql, params in statements)
        return done

    monkeypatch.setattr(store, "_transaction", dies_after_the_end)
    try:
        await h.bot.service.resign(1, ANN)
    except RuntimeError:
        pass  # the old code died here, between the end of the game and its board
    assert over
    assert any("Ann resigned game #1" in line for e in await store.outbox(1) for line in e.lines)
    monkeypatch.setattr(store, "_transaction", real)
    h2 = await _restart(h, tmp_path, monkeypatch, clock, same_discord=True)
    try:
        assert await h2.bot.get_cog("Publisher").publish_pending(grace=timedelta(0)) == 1
        await h2.settle()
        game = await h2.bot.service.game(1)
        assert game.status == "finished" and game.result["places"] == [2, 1]
        assert (await h2.bot.service._seat_clocks(1))[0].forfeited
        told = [m for m in h2.messages_in(thread) if "Ann resigned game #1" in m["content"]]
        assert len(told) == 1 and "Game over" in latest_board(h2, thread)["content"]
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_a_warning_dm_is_sent_once_without_a_restart(harness):
    h = harness
    thread, clock = await _game(h, time_control="1h")
    await _ticks(h, clock, 35)
    assert len(_half_time_dms(h, ANN)) == 1
    dms = len(h.dm_messages(ANN))
    rng = Rng(4)
    for _ in range(30):  # (one DM per turn since issue 25: on until Ann's next turn)
        await take_turn(h, thread, rng)
        if len(h.dm_messages(ANN)) > dms:
            break
    await _ticks(h, clock, 5)
    assert len(h.dm_messages(ANN)) > dms, "Ann was DMed for her later turns"
    assert len(_half_time_dms(h, ANN)) == 1, "the warning was DMed once"
    h.assert_no_errors()


async def test_a_restart_during_a_countdown_goes_on_and_gives_the_downtime_back(harness, tmp_path, monkeypatch):
    h = harness
    thread, clock = await _game(h, time_control="12h")
    deadline = int(clock.now.timestamp()) + 12 * 3600
    await _ticks(h, clock, 60)  # an hour of the countdown, then the bot is down for five hours
    clock.now += timedelta(hours=5)
    h2 = await _restart(h, tmp_path, monkeypatch, clock)
    try:
        assert await h2.bot.get_cog("Clocks").tick() == []  # start-up: no timeout, the outage given back
        later = deadline + 5 * 3600
        assert (await h2.bot.service._seat_clocks(1))[0].deadline == later
        before = len(h2.fake.messages)
        await h2.slash(BOB, "game status", channel_id=thread)
        assert any(f"⏳ Ann: time runs out <t:{later}:R>" in m["content"] for m in _replies(h2, before))
        await _ticks(h2, clock, 11 * 60 - 1)  # the eleven hours Ann had left, but one minute
        assert int(clock.now.timestamp()) == later - 60
        assert not (await h2.bot.service._seat_clocks(1))[0].stand_in, "the clock runs out only at its end"
        await _ticks(h2, clock, 1)
        assert (await h2.bot.service._seat_clocks(1))[0].stand_in
        assert any(f"<@{ANN}> ran out of time" in m["content"] for m in h2.messages_in(thread))
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_a_clock_that_ran_out_while_the_bot_was_down_is_handled_at_start_up(harness, tmp_path, monkeypatch):
    """A short restart (not an outage: under clock.OUTAGE_AFTER) across the deadline: the first round of the
    new bot's clock job times the seat out and tells the thread."""
    h = harness
    thread, clock = await _game(h, time_control="1h", on_timeout="forfeit")
    await _ticks(h, clock, 59)
    clock.now += timedelta(seconds=90)  # down for 90 s; the deadline passed meanwhile
    h2 = await _restart(h, tmp_path, monkeypatch, clock)
    try:
        assert await h2.bot.get_cog("Clocks").tick() == [1]
        await h2.settle()
        game = await h2.bot.service.game(1)
        assert game.status == "finished" and game.result["places"] == [2, 1]
        assert any("Ann ran out of time in game #1 and forfeits" in m["content"] for m in h2.messages_in(thread))
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_away_is_on_the_picture_for_the_others(harness, strips):
    h = harness
    thread, clock = await _game(h, time_control="1d")
    await h.slash(ANN, "game away days", days=2)
    await h.slash(BOB, "game status", channel_id=thread)
    assert strips[-1] == ["Ann: away, clock paused"]
    h.assert_no_errors()


async def test_a_league_counts_a_forfeit_on_time_as_a_loss(harness):
    h = harness
    h.bot.service.clock = clock = Clock()
    await h.slash(ANN, "tournament new", game="hector-achilles", name="Ann")
    post = next(m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "Join" in [
        c.get("label") for c in components(m)])
    await h.click(BOB, post, button(post, "Join")["custom_id"], name="Bob")
    post = h.fake.messages[int(post["id"])]
    await h.click(ANN, post, button(post, "Start")["custom_id"], name="Ann")
    game = await h.bot.service.game(1)
    assert game.options["clock"] == clocks.LEAGUE_CLOCK
    to_act_seat = ENGINES[game.engine].to_act(await h.bot.service.state_of(game))[0]
    first = game.seat_row(to_act_seat)
    await _ticks(h, clock, 24 * 60 + 1)
    game = await h.bot.service.game(1)
    assert game.status == "finished" and game.result["places"][to_act_seat] == 2
    _, rows, over, total = await tournaments_of(h.bot).tournament_table(1)
    assert over == total == 1
    assert rows[-1][1] == first.name and rows[-1][0].points == 0 and rows[0][0].points > 0
    h.assert_no_errors()


async def test_the_clock_options_and_commands_are_described_in_hungarian_and_polish(harness):
    tree = harness.bot.tree
    payload = [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]
    from engines import ENGINES

    game = next(c for c in payload if c["name"] == "game")
    news = [o for c in payload if c["name"] in ENGINES for o in c["options"] if o["name"] == "new"]
    assert len(news) == len(ENGINES)
    for cmd in news:
        options = {o["name"]: o for o in cmd["options"]}
        for name in ("time_control", "on_timeout"):
            assert set(options[name]["description_localizations"]) >= {"hu", "pl"}, (cmd["name"], name)
            assert all(set(c.get("name_localizations") or {}) >= {"hu", "pl"} for c in options[name]["choices"])
    assert options["time_control"]["description_localizations"]["hu"].startswith("Lépésidő")
    for name in ("resign", "away"):
        sub = next(o for o in game["options"] if o["name"] == name)
        assert set(sub["description_localizations"]) >= {"hu", "pl"}, name
