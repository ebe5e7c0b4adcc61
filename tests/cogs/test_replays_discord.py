"""Replays through Discord: /game replay posts an animated GIF, step-through buttons walk the game (public and
one's own view), /game history lists past games with Replay buttons, /game export gives a record that
``bench.replay`` replays to the same result."""

from __future__ import annotations

import io
import json

import discord
from PIL import Image

from bench import replay as bench_replay
from engines import ENGINES
from engines.rng import Rng
from host import replays
from tests.cogs.driver import game_over, latest_board, take_turn
from tests.cogs.test_hector_achilles_discord import ANN, BOB, thread_of
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
    await h.slash(ANN, f"game new {key}", name="Ann", opponent="ai", **options)
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
    await h.slash(ANN, "game new troja", name="Ann", opponent="ai")
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
    hextri = await _stored_game(h, "hextri", seed=1)
    before = len(h.fake.messages)
    await h.slash(ANN, "game replay", game=hextri, hands=True, name="Ann")
    posted = [m for m in _newest(h, before) if m["attachments"]][-1]
    assert "HEX-TRI has no hidden cards" in posted["content"]
    h.assert_no_errors()
