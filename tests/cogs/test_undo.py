"""Issue 25, item 3: a player takes back their own last move within their turn (the board's Undo), through the
real discord.py dispatch - for every game: the game, the hands, the deck and the dice are as they were before the
move, the board and the choices too; nobody else may take it back; a board the game has moved past, a move that
revealed something and a move after which another player (the AI) acted cannot be taken back; the log tells
the undo, a replay shows the final choice only, and a saved undo survives a restart."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest

from bot import create_bot
from engines import ENGINES
from engines.rng import Rng
from host.service import GameService
from host.undo import final_choices, undoable
from settings import Settings
from store import SqliteStore
from tests.cogs.driver import boards, game_over, latest_board, take_turn, to_act
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, thread_of
from tests.discord_harness import Harness, button, components

#: the games with moves that can be taken back (Ave Caesar has none: every move shows a card and draws one)
UNDOABLE = ("hextri", "hector-achilles", "troja", "kivalasztottak")
UNDO_PREFIX = "gh:u:"


def replies_since(h, before: int) -> list[dict]:
    return list(h.fake.messages.values())[before:]


def has_undo(message: dict) -> bool:
    return any(c["custom_id"].startswith(UNDO_PREFIX) for c in components(message))


def controls(message: dict) -> list[tuple]:
    """What a board offers, without the custom_ids (which carry the version): labels and options."""
    return [(c.get("label"), c.get("placeholder"), tuple(o["label"] for o in c.get("options") or ()))
            for c in components(message) if not c["custom_id"].startswith(UNDO_PREFIX)]


async def snapshot(h, game_id: int = 1) -> tuple[int, dict]:
    game = await h.bot.service.store.get_game(game_id)
    return game.version, game.snapshot


async def play_to_undo(h, thread: int, rng: Rng, steps: int = 400) -> tuple[dict, dict, dict]:
    """Ann plays (the AI answers) until the newest board offers her Undo; returns (the snapshot before her
    last move, the board she clicked it on, the board with Undo)."""
    for _ in range(steps):
        board = copy.deepcopy(latest_board(h, thread))  # (a board loses its buttons when the next is posted)
        assert not game_over(board), "the game ended before a move that can be taken back"
        _, before = await snapshot(h)
        await take_turn(h, thread, rng)
        await h.settle()
        newest = copy.deepcopy(latest_board(h, thread))
        if has_undo(newest):
            assert to_act(newest) == [ANN], "Undo only on the board of the player whose move it takes back"
            return before, board, newest
    raise AssertionError("no move that can be taken back was made")


async def click_undo(h, user: int, board: dict) -> list[dict]:
    before = len(h.fake.messages)
    await h.click(user, board, button(board, prefix=UNDO_PREFIX)["custom_id"], name=str(user))
    await h.settle()
    return replies_since(h, before)


def refusals(replies: list[dict]) -> list[str]:
    return [m["content"] for m in replies if m["flags"] & 64]


async def new_game(h, key: str, **options) -> int:
    await h.slash(ANN, f"{key} new", name="Ann", opponent="ai", **options)
    await h.settle()
    return thread_of(h)


@pytest.mark.parametrize("key", UNDOABLE)
async def test_undo_restores_the_game_the_board_and_the_choices(harness, key):
    h = harness
    engine = ENGINES[key]
    thread = await new_game(h, key)
    before, board_before, board = await play_to_undo(h, thread, Rng(5))
    version, after = await snapshot(h)
    last = (await h.bot.service.store.actions(1))[-1]
    assert last["seat"] == 0 and undoable(last)
    assert engine.reversible(engine.from_json(before), 0, last["action"])

    # somebody without a seat, then the right player
    replies = await click_undo(h, CAROL, board)
    assert any("not playing" in text for text in refusals(replies)), refusals(replies)
    assert (await snapshot(h))[0] == version, "a refused Undo changes nothing"
    replies = await click_undo(h, ANN, board)
    assert not refusals(replies), refusals(replies)
    new_version, restored = await snapshot(h)
    assert new_version == version + 1, "an undo is a step of its own"
    # everything, hidden or not (hands, decks, the random generator that rolls the dice), is as before the move
    assert restored == before
    state = engine.from_json(restored)
    original = engine.from_json(before)
    assert engine.to_act(state) == [0]
    assert engine.legal_actions(state, 0) == engine.legal_actions(original, 0)
    for seat in (None, 0, 1):
        assert engine.view(state, seat) == engine.view(original, seat), "no seat's view gains anything"
        assert engine.secrets(state, seat) == engine.secrets(original, seat)
    # the thread is told, and the new board offers what the board before the move offered
    newest = latest_board(h, thread)
    assert "took back" in newest["content"]
    assert controls(newest) == controls(board_before)
    assert not has_undo(newest) or any(undoable(e) and e["seat"] == 0 for e in final_choices(
        await h.bot.service.store.actions(1))), "Undo again only for an earlier move of the same turn"

    # the old board's Undo is out of date now
    replies = await click_undo(h, ANN, board)
    assert any("Too late to take that back" in text for text in refusals(replies)), refusals(replies)
    assert (await snapshot(h))[0] == new_version

    # /game log keeps every step, the undo too
    before_log = len(h.fake.messages)
    await h.slash(ANN, "game log", channel_id=thread, name="Ann")
    told = "\n".join(m["content"] for m in replies_since(h, before_log))
    assert "took back" in told
    h.assert_no_errors()


@pytest.mark.parametrize("key", UNDOABLE)
async def test_no_undo_once_the_ai_has_acted_or_after_a_move_that_cannot_be_taken_back(harness, key):
    h = harness
    thread = await new_game(h, key)
    rng = Rng(9)
    refused_other = refused_final = False
    for _ in range(300):
        board = latest_board(h, thread)
        if game_over(board) or (refused_other and refused_final):
            break
        version, _ = await snapshot(h)
        entries = final_choices(await h.bot.service.store.actions(1))
        if to_act(board) == [ANN] and entries and not has_undo(board):
            # a forged Undo on the current board: the last move was the AI's, or Ann's and final
            other = entries[-1]["seat"] != 0
            forged = {**board, "components": [{"type": 1, "components": [
                {"type": 2, "style": 2, "label": "Undo", "custom_id": f"{UNDO_PREFIX}1:{version}"}]}]}
            replies = await click_undo(h, ANN, forged)
            assert any("nothing you can take back" in text for text in refusals(replies)), refusals(replies)
            after_version, _ = await snapshot(h)
            assert after_version == version, "a refused Undo changes nothing"
            refused_other |= other
            refused_final |= not other
        await take_turn(h, thread, rng)
        await h.settle()
    assert refused_other, "never refused after the AI's move"
    if key != "hextri":  # (HEX-TRI hides nothing: its moves that cannot be taken back hand the turn on)
        assert refused_final, "never refused after Ann's own move that revealed something and kept her turn"
    h.assert_no_errors()


async def test_another_player_cannot_take_back_my_move(harness):
    """Between two people (HEX-TRI, whose choices are on the public board): Bob's click on Ann's Undo is refused
    privately, by name; once Bob has moved, Ann's Undo is out of date."""
    h = harness
    await h.slash(ANN, "hextri new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    await h.settle()
    rng = Rng(3)
    for _ in range(200):
        board = copy.deepcopy(latest_board(h, thread))
        if has_undo(board):
            break
        await take_turn(h, thread, rng)
        await h.settle()
    else:
        raise AssertionError("no Undo offered")
    mover = to_act(board)[0]
    other = BOB if mover == ANN else ANN
    version, state = await snapshot(h)
    replies = await click_undo(h, other, board)
    (text,) = refusals(replies)
    mover_name = "Ann" if mover == ANN else "Bob"
    assert f"Only {mover_name} can take back their own move" in text
    assert await snapshot(h) == (version, state)
    # the mover goes on until the other player acts: the old Undo is refused as out of date
    while to_act(latest_board(h, thread)) == [mover]:
        await take_turn(h, thread, rng)
        await h.settle()
    await take_turn(h, thread, rng)
    await h.settle()
    replies = await click_undo(h, mover, board)
    assert any("Too late to take that back" in t for t in refusals(replies))
    h.assert_no_errors()


async def test_ave_caesar_offers_no_undo(harness):
    """Every Ave Caesar move shows a card to all and draws a new one: nothing can be taken back."""
    h = harness
    thread = await new_game(h, "ave-caesar")
    rng = Rng(2)
    for _ in range(40):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert not has_undo(board)
        await take_turn(h, thread, rng)
        await h.settle()
    assert not any(undoable(e) for e in await h.bot.service.store.actions(1))
    version, _ = await snapshot(h)
    board = latest_board(h, thread)
    forged = {**board, "components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "Undo", "custom_id": f"{UNDO_PREFIX}1:{version}"}]}]}
    replies = await click_undo(h, ANN, forged)
    assert any("nothing you can take back" in t for t in refusals(replies)), refusals(replies)
    h.assert_no_errors()


async def _restart(h, tmp_path, monkeypatch) -> Harness:
    """The bot stops; a new bot on the same database comes up, talking to the same (fake) Discord."""
    await h.stop()
    store = await SqliteStore.open(tmp_path / "bot.db")
    seeds = iter(range(5000, 6000))
    bot = create_bot(Settings(token=None, database_path=str(tmp_path / "bot.db"), sync_commands=False,
                              remind_after_hours=0), store=store,
                     service=GameService(store, seed_source=lambda: next(seeds)))
    h2 = Harness(bot, monkeypatch)
    h2.fake, h2.payloads = h.fake, h.payloads
    return await h2.start()


@pytest.mark.parametrize("key", UNDOABLE)
async def test_an_undo_saved_before_a_crash_is_shown_and_played_on_after_the_restart(harness, tmp_path,
                                                                                     monkeypatch, key):
    h = harness
    thread = await new_game(h, key)
    before, board_before, board = await play_to_undo(h, thread, Rng(5))
    posts = len(boards(h, thread))
    # saved, and the bot stops before the board is posted
    await h.bot.service.undo(1, ANN, (await snapshot(h))[0])
    assert len(boards(h, thread)) == posts
    h2 = await _restart(h, tmp_path, monkeypatch)
    try:
        await h2.bot.get_cog("Publisher").publish_pending(grace=timedelta(0))  # (its start-up round)
        await h2.settle()
        newest = latest_board(h2, thread)
        # the same person is still to decide: the board that is up is updated in place, never posted twice
        assert len(boards(h2, thread)) == posts, "the owed board updates the board that is up"
        assert "took back" in newest["content"]
        assert controls(newest) == controls(board_before)
        undone_at, restored = await snapshot(h2)
        assert restored == before
        # the saved game reloads right: it plays on from the position before the move
        await take_turn(h2, thread, Rng(8))
        await h2.settle()
        version, _ = await snapshot(h2)
        assert version > undone_at
        assert (await h2.bot.service.store.actions(1, after=undone_at))[0]["seat"] == 0
        h2.assert_no_errors()
    finally:
        await h2.stop()


async def test_a_double_click_on_undo_takes_back_one_move(harness):
    """Two clicks on the same Undo at once (a double tap on a phone): one move is taken back, once; the second
    click is told it is too late, and nothing else changes."""
    h = harness
    thread = await new_game(h, "hextri")
    before, _, board = await play_to_undo(h, thread, Rng(5))
    version, _ = await snapshot(h)
    custom_id = button(board, prefix=UNDO_PREFIX)["custom_id"]
    since = len(h.fake.messages)
    posts = len(boards(h, thread))
    for _ in range(2):
        h.bot._connection.parse_interaction_create(h.payloads.click(ANN, board, custom_id, name="Ann"))
    await h.settle()
    assert await snapshot(h) == (version + 1, before)
    assert len([e for e in await h.bot.service.store.actions(1) if e["action"]["type"] == "undo"]) == 1
    # the board that is up tells the undo once, updated in place (one board per turn): no second board
    assert latest_board(h, thread)["content"].count("took back") == 1
    assert len(boards(h, thread)) == posts
    assert [t for t in refusals(replies_since(h, since)) if "Too late to take that back" in t]
    h.assert_no_errors()
