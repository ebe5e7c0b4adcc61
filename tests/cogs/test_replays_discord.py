"""Replays through Discord: /game replay posts an animated GIF, step-through buttons walk the game (public and
one's own view), /game history lists past games with Replay buttons, /game export gives a record that
``bench.replay`` replays to the same result."""

from __future__ import annotations

import asyncio
import io
import json

import discord
from PIL import Image

from bench import replay as bench_replay
from engines import ENGINES
from engines.rng import Rng
from host import replays
from tests.cogs.driver import game_over, latest_board, take_turn
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, thread_of
from tests.discord_harness import GUILD_ID, components
from tests.host.test_replays import play_into_store


def _file(h, name: str) -> bytes:
    for sent in reversed(h.fake.sent):
        if name in sent.files:
            return sent.files[name]
    raise AssertionError(f"no file {name} was sent")


def _newest(h, since: int) -> list[dict]:
    return list(h.fake.messages.values())[since:]


async def _finished_game(h, key="troja", **options) -> int:
    await h.slash(ANN, f"{key} new", name="Ann", opponent="ai", **options)
    thread = thread_of(h)
    for _ in range(600):
        if game_over(latest_board(h, thread)):
            break
        await take_turn(h, thread, Rng(2))
    assert game_over(latest_board(h, thread))
    return thread


async def test_replay_steps_history_and_export_of_a_finished_game(harness, tmp_path):
    h = harness
    thread = await _finished_game(h)
    game = await h.bot.service.game(1)
    assert game.status == "finished"
    # a running game cannot be replayed, and says why
    before = len(h.fake.messages)
    await h.slash(ANN, "troja new", name="Ann", opponent="ai")
    await h.slash(ANN, "game replay", game=2, name="Ann")
    assert any("not over yet" in m["content"] for m in _newest(h, before))

    before = len(h.fake.messages)
    await h.slash(BOB, "game replay", channel_id=thread, game=1, name="Bob")
    posted = [m for m in _newest(h, before) if m["attachments"]]
    assert posted and posted[-1]["attachments"][0]["filename"] == "replay-troja-1.gif"
    gif = Image.open(io.BytesIO(_file(h, "replay-troja-1.gif")))
    assert gif.format == "GIF" and gif.n_frames == min(game.version + 1, 120)
    assert len(_file(h, "replay-troja-1.gif")) < 8 * 1024 * 1024
    if game.version > 40:  # a long game: a progress message first, which became the replay
        assert "Replay of game #1" in posted[-1]["content"]

    # step-through: Bob (no seat) gets the public view only, and can walk it
    start = next(c for c in components(posted[-1]) if c["custom_id"] == "gh:rp:1:0:0")
    before = len(h.fake.messages)
    await h.click(BOB, posted[-1], start["custom_id"], name="Bob")
    panel = [m for m in _newest(h, before) if m["flags"] & 64 and components(m)][-1]
    assert "step 0 of" in panel["content"] and "begins" in panel["content"]
    ids = [c["custom_id"] for c in components(panel)]
    assert "gh:rp:1:1:0:3" in ids and not any(i.startswith("gh:rp:1:0:1") for i in ids)  # no "my view" for Bob
    await h.click(BOB, panel, "gh:rp:1:1:0:3", name="Bob")
    panel = h.fake.messages[int(panel["id"])]
    assert "step 1 of" in panel["content"]
    # Ann may switch to her own view
    before = len(h.fake.messages)
    await h.slash(ANN, "game steps", game=1, step=3, name="Ann")
    mine = [m for m in _newest(h, before) if m["flags"] & 64 and components(m)][-1]
    toggle = next(c for c in components(mine) if c["custom_id"] == "gh:rp:1:3:1:6")
    await h.click(ANN, mine, toggle["custom_id"], name="Ann")
    assert "(your own view)" in h.fake.messages[int(mine["id"])]["content"]

    # history: Ann's finished game with a Replay button
    before = len(h.fake.messages)
    ann = {"id": str(ANN), "username": "ann", "discriminator": "0", "global_name": "Ann", "avatar": None}
    await h.slash(BOB, "game history", user=discord.Object(ANN), resolved={"users": {str(ANN): ann}}, name="Bob")
    page = _newest(h, before)[-1]
    assert "#1" in page["content"] and "Troja" in page["content"] and "AI" in page["content"]
    assert any(c["custom_id"] == "gh:rv:1" for c in components(page))

    # export and bench.replay
    await h.slash(ANN, "game export", game=1, name="Ann")
    record = json.loads(_file(h, "game-1.json"))
    assert record["seed"] == game.seed and record["rules_version"] == game.rules_version
    assert len(record["actions"]) == game.version
    path = tmp_path / "game-1.json"
    path.write_bytes(_file(h, "game-1.json"))
    assert bench_replay.main([str(path)]) == 0
    record["actions"] = record["actions"][:-1]  # a record cut short does not give the result
    path.write_text(json.dumps(record))
    assert bench_replay.main([str(path)]) != 0
    h.assert_no_errors()


async def _stored_game(h, key: str, *, seed: int, host: int = ANN) -> int:
    """A finished game saved straight into the bot's store: Ann in seat 0 (and its host), an AI in seat 1."""
    return await play_into_store(h.bot.service.store, key, seed=seed, rules_version=ENGINES[key].rules_version,
                                 guild_id=GUILD_ID, user_id=ANN, host_user_id=host)


async def test_only_the_games_host_may_reveal_the_hands_in_a_replay(harness):
    h = harness
    game = await _stored_game(h, "troja", seed=2)
    before = len(h.fake.messages)
    await h.slash(BOB, "game replay", game=game, hands=True, name="Bob")
    said = _newest(h, before)
    assert len(said) == 1 and said[0]["flags"] & 64 and not said[0]["attachments"]
    assert "Only the host of game #1" in said[0]["content"]
    assert not any(".gif" in name for sent in h.fake.sent for name in sent.files)

    before = len(h.fake.messages)
    await h.slash(ANN, "game replay", game=game, hands=True, name="Ann")
    posted = [m for m in _newest(h, before) if m["attachments"]][-1]
    assert "every player's hand" in posted["content"]
    data = _file(h, f"replay-troja-{game}.gif")
    plain = replays.animate((await replays.record_of(h.bot.service, game, None))[1])
    assert Image.open(io.BytesIO(data)).n_frames == plain.shown + 2 and len(data) < 8 * 1024 * 1024

    # a game without hidden cards: the replay, and a word that there is nothing to reveal
    hextri = await _stored_game(h, "hextri", seed=5)  # a short random game (55 actions)
    before = len(h.fake.messages)
    await h.slash(ANN, "game replay", game=hextri, hands=True, name="Ann")
    posted = [m for m in _newest(h, before) if m["attachments"]][-1]
    assert "HEX-TRI has no hidden cards" in posted["content"]
    h.assert_no_errors()


async def test_history_pages_forward_and_back_keep_the_kind_and_replay_from_a_page(harness):
    h = harness
    store = h.bot.service.store
    hextri = [await _stored_game(h, "hextri", seed=5) for _ in range(12)]  # short random games (55 actions)
    troja = await _stored_game(h, "troja", seed=2)
    before = len(h.fake.messages)
    await h.slash(ANN, "game history", game="hextri", name="Ann")
    page = _newest(h, before)[-1]
    assert page["flags"] & 64 and "(page 1 of 2)" in page["content"]
    replay_ids = [c["custom_id"] for c in components(page) if c["custom_id"].startswith("gh:rv:")]
    assert replay_ids == [f"gh:rv:{g}" for g in sorted(hextri, reverse=True)[:10]]  # newest first
    arrows = {c.get("emoji", {}).get("name"): c for c in components(page) if c["custom_id"].startswith("gh:hy:")}
    assert arrows["◀"].get("disabled") and not arrows["▶"].get("disabled")

    await h.click(ANN, page, arrows["▶"]["custom_id"], name="Ann")
    page = h.fake.messages[int(page["id"])]  # the same message, turned to page 2
    assert "(page 2 of 2)" in page["content"] and f"#{troja}" not in page["content"]
    assert [c["custom_id"] for c in components(page) if c["custom_id"].startswith("gh:rv:")] == [
        f"gh:rv:{g}" for g in sorted(hextri, reverse=True)[10:]]
    arrows = {c.get("emoji", {}).get("name"): c for c in components(page) if c["custom_id"].startswith("gh:hy:")}
    assert arrows["▶"].get("disabled") and not arrows["◀"].get("disabled")
    await h.click(ANN, page, arrows["◀"]["custom_id"], name="Ann")
    page = h.fake.messages[int(page["id"])]
    assert "(page 1 of 2)" in page["content"] and f"#{hextri[-1]}" in page["content"]

    # the Replay button of a line posts that game's replay
    before = len(h.fake.messages)
    await h.click(ANN, page, f"gh:rv:{hextri[-1]}", name="Ann")
    posted = [m for m in _newest(h, before) if m["attachments"]]
    assert posted and posted[-1]["attachments"][0]["filename"] == f"replay-hextri-{hextri[-1]}.gif"
    assert f"Replay of game #{hextri[-1]}" in posted[-1]["content"]
    record = (await replays.record_of(h.bot.service, hextri[-1], None))[1]
    gif = Image.open(io.BytesIO(_file(h, f"replay-hextri-{hextri[-1]}.gif")))
    # every step, or (over 3 MB so) fewer pictures, and the message says how many for how many moves
    assert gif.n_frames == len(record.actions) + 1 or (
        f"{gif.n_frames} pictures for {len(record.actions)} moves" in posted[-1]["content"])
    # without a kind, both kinds are listed
    before = len(h.fake.messages)
    await h.slash(ANN, "game history", name="Ann")
    assert f"#{troja}" in _newest(h, before)[-1]["content"]
    assert await store.get_game(troja)  # (the troja game was there all along, only filtered out)
    h.assert_no_errors()


async def test_a_forged_click_on_another_seats_view_is_refused_and_shows_nothing(harness):
    h = harness
    game = await _stored_game(h, "troja", seed=2)
    await h.bot.service.store.set_seat(game, 1, user_id=BOB, name="Bob")  # Bob played seat 1
    before = len(h.fake.messages)
    await h.slash(BOB, "game steps", game=game, step=3, name="Bob")
    bobs = [m for m in _newest(h, before) if m["flags"] & 64 and components(m)][-1]
    ids = [c["custom_id"] for c in components(bobs)]
    assert f"gh:rp:{game}:3:2:6" in ids and f"gh:rp:{game}:3:1:6" not in ids  # his own view only
    before = len(h.fake.messages)
    await h.slash(ANN, "game steps", game=game, step=3, name="Ann")
    anns = [m for m in _newest(h, before) if m["flags"] & 64 and components(m)][-1]
    assert f"gh:rp:{game}:3:1:6" in [c["custom_id"] for c in components(anns)]  # Ann's "My view" (seat 0)
    shown = anns["content"]

    # Bob clicks Ann's "My view" (a message the bot sent, with seat 0's custom_id): refused, nothing drawn
    files_before, before = len(h.fake.sent), len(h.fake.messages)
    await h.click(BOB, anns, f"gh:rp:{game}:3:1:6", name="Bob")
    said = _newest(h, before)
    assert len(said) == 1 and said[0]["flags"] & 64 and not said[0]["attachments"]
    assert "another player's view" in said[0]["content"]
    assert not any(sent.files for sent in h.fake.sent[files_before:])  # no picture of Ann's hand went out
    assert h.fake.messages[int(anns["id"])]["content"] == shown  # Ann's panel stayed as it was
    # Carol, who had no seat, is refused the same click with her own reason
    files_before, before = len(h.fake.sent), len(h.fake.messages)
    await h.click(CAROL, anns, f"gh:rp:{game}:3:1:6", name="Carol")
    said = _newest(h, before)
    assert len(said) == 1 and "you had no seat" in said[0]["content"]
    assert not any(sent.files for sent in h.fake.sent[files_before:])
    # seat 0's custom_id put on a click of Bob's own panel (where it is not) is dropped before any callback
    files_before = len(h.fake.sent)
    await h.click(BOB, bobs, f"gh:rp:{game}:3:1:6", name="Bob")
    assert not any(sent.files for sent in h.fake.sent[files_before:])

    # his own seat's view works, and is his own picture
    await h.click(BOB, bobs, f"gh:rp:{game}:3:2:6", name="Bob")
    mine = h.fake.messages[int(bobs["id"])]
    assert "(your own view)" in mine["content"]
    _, record = await replays.record_of(h.bot.service, game, None)
    (frame,) = replays.frames(record, 1, upto=3, only={3})
    assert _file(h, f"replay-{game}-3.png") == replays.picture(record, frame, 1)
    h.assert_no_errors()


async def test_a_long_replay_is_drawn_off_the_event_loop_which_keeps_ticking(harness):
    h = harness
    game = await _stored_game(h, "ave-caesar", seed=1)  # a four-race championship, some 500 steps
    loop = asyncio.get_running_loop()

    def gif_sent() -> bool:
        return any(name.endswith(".gif") for sent in h.fake.sent for name in sent.files)

    async def ticker() -> list[float]:
        """How late each 20 ms sleep wakes up, until the replay is posted."""
        late = []
        deadline = loop.time() + 120
        while not gif_sent() and loop.time() < deadline:
            start = loop.time()
            await asyncio.sleep(0.02)
            late.append(loop.time() - start - 0.02)
        return late

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    start = loop.time()
    before = len(h.fake.messages)
    await h.slash(ANN, "game replay", game=game, name="Ann")
    took = loop.time() - start
    late = await ticking
    assert gif_sent()
    assert any("Drawing the replay" in m["content"] for m in _newest(h, before)) or any(
        "Drawing the replay" in str(s.json) for s in h.fake.sent)  # the progress message came first
    assert took > 1.0 and len(late) > 20  # drawing took a while, and the loop kept waking meanwhile
    assert max(late) < 0.25, f"the event loop stalled {max(late):.2f} s while the replay was drawn ({took:.1f} s)"
