"""Hector and Achilles played through Discord only: slash commands and clicks in, recorded requests out."""

from __future__ import annotations

import copy
import json

from engines import ENGINES
from engines.rng import Rng
from tests.cogs.driver import boards, game_over, latest_board, take_turn, to_act
from tests.discord_harness import button, components

ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222
CAROL = 333_333_333_333_333_333
ENGINE = ENGINES["hector-achilles"]


def thread_of(h) -> int:
    threads = [cid for cid, c in h.fake.channels.items() if c["type"] == 11]
    assert threads, "no thread was created"
    return threads[-1]


async def open_two_player_game(h) -> int:
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    assert lobby["embeds"][0]["title"].startswith("Hector and Achilles")
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    return thread


async def live_state(h, game_id: int = 1):
    game = await h.bot.service.store.get_game(game_id)
    return game, ENGINE.from_json(game.snapshot)


def public_messages(h, thread: int) -> list[dict]:
    return [m for m in h.messages_in(thread) if not m["flags"] & 64]


def strings(obj) -> set[str]:
    out, stack = set(), [obj]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.add(item)
        elif isinstance(item, dict):
            stack += list(item.values())
        elif isinstance(item, list):
            stack += item
    return out


async def test_complete_game_between_two_users_through_commands_and_clicks(harness):
    h = harness
    thread = await open_two_player_game(h)
    first = latest_board(h, thread)
    assert "begins" in first["content"] and to_act(first) == [ANN]
    rng = Rng(5)
    seen_versions = set()
    for _ in range(3000):
        board = latest_board(h, thread)
        if game_over(board):
            break
        game, state = await live_state(h)
        # the newest board is for the current version and shows who is to act
        acting_users = [game.seat_row(s).user_id for s in ENGINE.to_act(state)]
        assert to_act(board) == acting_users
        # hidden cards never travel in a public message: no secret id, no hand action on the board
        secret_ids = set().union(*(ENGINE.secrets(state, s) for s in (0, 1)), ENGINE.secrets(state, None))
        assert not strings(board) & secret_ids
        for comp in components(board):
            if comp["custom_id"].startswith("gh:a:"):
                _, _, _, version, seat, index = comp["custom_id"].split(":")[:6]
                action = ENGINE.legal_actions(state, int(seat))[int(index)]
                assert action["type"] not in ("play", "swap_card", "play_hero", "swap_hero"), action
        seen_versions.add(game.version)
        await take_turn(h, thread, rng)
        h.assert_no_errors()
    board = latest_board(h, thread)
    assert game_over(board), "the game did not finish"
    game, state = await live_state(h)
    assert game.status == "finished" and game.result["places"] in ([1, 2], [2, 1], [1, 1])
    assert ("Winner" in board["content"]) or ("draw" in board["content"])
    assert f"<@{ANN}>" in board["content"] and f"<@{BOB}>" in board["content"]
    assert [c["custom_id"] for c in components(board)] == ["gh:rm:1"], "a finished game offers only a rematch"
    # every accepted click is one logged action, and every board carried a picture
    log = await h.bot.service.store.actions(1)
    assert len(log) == game.version >= 40
    assert all(m["attachments"][0]["filename"].endswith(".png") for m in boards(h, thread))
    # only the newest board keeps buttons: older ones were cleared
    with_buttons = [m for m in public_messages(h, thread) if components(m)]
    assert with_buttons == [] or with_buttons == [board]
    # Ann and Bob got their hands by DM on their turns: the picture, or (issue 25: the picture only when a card
    # came in) the hand in words
    assert h.dm_messages(ANN) and h.dm_messages(BOB)
    assert all(m["attachments"] or "🃏 **Your hand now:**" in m["content"] for m in h.dm_messages(ANN))
    h.assert_no_errors()


async def test_public_hand_is_never_in_the_thread_but_my_hand_shows_it(harness):
    h = harness
    thread = await open_two_player_game(h)
    rng = Rng(1)
    # play into the first individual round (vanguard, deck, fate tile) so hands exist
    for _ in range(8):
        game, state = await live_state(h)
        if state["phase"] == "turn":
            break
        await take_turn(h, thread, rng)
    game, state = await live_state(h)
    assert state["phase"] == "turn"
    board = latest_board(h, thread)
    assert button(board, "Take your turn") and button(board, "My hand")
    # Bob asks for his hand while it is Ann's turn: an ephemeral picture, no choices
    before = len(h.fake.messages)
    await h.click(BOB, board, button(board, "My hand")["custom_id"], name="Bob")
    reply = [m for m in list(h.fake.messages.values())[before:] if m["flags"] & 64 and m["attachments"]][-1]
    assert not [c for c in components(reply) if c["custom_id"].startswith("gh:a:")]
    # the thread itself never names Bob's hand cards as choices
    hand_labels = {f"Play {c['colour']} {c['strength']}" for c in ENGINE.view(state, 1)["hand"]}
    text = json.dumps(public_messages(h, thread))
    assert not any(label in text for label in hand_labels)
    h.assert_no_errors()


async def test_foreign_and_out_of_turn_clicks_are_refused(harness):
    h = harness
    thread = await open_two_player_game(h)
    board = latest_board(h, thread)
    game, state = await live_state(h)
    action_button = next(c for c in components(board) if c["custom_id"].startswith("gh:a:"))
    # Carol is not in the game
    before = len(h.fake.messages)
    await h.click(CAROL, board, action_button["custom_id"], name="Carol")
    refusal = list(h.fake.messages.values())[before:]
    assert any("not playing" in m["content"] and m["flags"] & 64 for m in refusal)
    # Bob plays, but it is Ann's turn
    before = len(h.fake.messages)
    await h.click(BOB, board, action_button["custom_id"], name="Bob")
    refusal = list(h.fake.messages.values())[before:]
    assert any("not your turn" in m["content"] and m["flags"] & 64 for m in refusal)
    after, _ = await live_state(h)
    assert after.version == game.version, "a refused click changed the game"
    h.assert_no_errors()


async def test_stale_click_is_answered_out_of_date_and_never_applied(harness):
    h = harness
    thread = await open_two_player_game(h)
    # the board as Ann's client still shows it: its buttons are cleared on Discord a moment later
    old_board = copy.deepcopy(latest_board(h, thread))
    old_button = next(c for c in components(old_board) if c["custom_id"].startswith("gh:a:"))
    # her DM as it was then (since issue 25 it is updated in place while her turn goes on)
    old_dm = copy.deepcopy(next(m for m in h.dm_messages(ANN) if components(m)))
    await h.click(ANN, old_board, old_button["custom_id"], name="Ann")  # accepted: version 0 -> 1
    game, _ = await live_state(h)
    assert game.version >= 1
    before = len(h.fake.messages)
    await h.click(ANN, old_board, old_button["custom_id"], name="Ann")  # the same click again
    replies = list(h.fake.messages.values())[before:]
    assert any("out of date" in m["content"] and m["flags"] & 64 for m in replies)
    again, _ = await live_state(h)
    assert again.version == game.version
    assert len(await h.bot.service.store.actions(1)) == game.version
    # an old DM panel (sent for an earlier turn) is just as out of date
    dm_panel = old_dm
    before = len(h.fake.messages)
    await h.click(ANN, dm_panel, components(dm_panel)[0]["custom_id"], name="Ann")
    replies = list(h.fake.messages.values())[before:]
    assert any("out of date" in m["content"] for m in replies)
    assert (await live_state(h))[0].version == game.version
    h.assert_no_errors()


async def test_closed_dms_are_announced_and_my_hand_still_works(harness):
    h = harness
    h.fake.closed_dms.add(BOB)
    thread = await open_two_player_game(h)
    rng = Rng(2)
    for _ in range(30):
        if any(f"<@{BOB}>" in m["content"] and "DMs are closed" in m["content"] for m in h.messages_in(thread)):
            break
        await take_turn(h, thread, rng)
    notes = [m for m in h.messages_in(thread) if "DMs are closed" in m["content"]]
    assert len(notes) == 1 and f"<@{BOB}>" in notes[0]["content"] and "My hand" in notes[0]["content"]
    game, _ = await live_state(h)
    assert game.seat_row(1).dm_closed
    # Bob takes his turn from the thread: Take your turn opens his private panel
    while BOB not in to_act(latest_board(h, thread)):
        await take_turn(h, thread, rng)
    version = (await live_state(h))[0].version
    assert await take_turn(h, thread, rng) == BOB
    assert (await live_state(h))[0].version > version
    h.assert_no_errors()


async def test_play_alone_against_the_ai(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    rng = Rng(9)
    for _ in range(2000):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert to_act(board) == [ANN], "only the person is ever asked; the AI moves by itself"
        await take_turn(h, thread, rng)
    assert game_over(latest_board(h, thread))
    game, _ = await live_state(h)
    assert game.seats[1].is_ai and game.status == "finished"
    h.assert_no_errors()


async def test_a_whole_game_as_troy_against_the_ai(harness):
    """"Az egyik játékos a trójai seregeket vezeti, a másik az akhájokat": ``side:trojans`` seats the creator
    with the Trojans and the AI with the Achaeans; the game is played to its end through the real dispatch."""
    h = harness
    payload = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    new = next(o for o in next(c for c in payload if c["name"] == "hector-achilles")["options"] if o["name"] == "new")
    side = next(o for o in new["options"] if o["name"] == "side")
    assert [c["value"] for c in side["choices"]] == ["achaeans", "trojans"]
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai", side="trojans")
    thread = thread_of(h)
    game, state = await live_state(h)
    assert game.seat_of(ANN) == 1 and game.seats[0].is_ai and game.seats[0].seat == 0
    assert "Trojans" in latest_board(h, thread)["content"] or to_act(latest_board(h, thread)) == [ANN]
    rng = Rng(4)
    for _ in range(2000):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert to_act(board) == [ANN], "only Troy's player is asked; the Achaean AI moves by itself"
        game, state = await live_state(h)
        assert ENGINE.to_act(state) == [1]
        await take_turn(h, thread, rng)
    assert game_over(latest_board(h, thread))
    game, _ = await live_state(h)
    assert game.status == "finished" and game.seat_of(ANN) == 1
    # a rematch keeps Ann with the Trojans
    rematch = next(m for m in h.messages_in(thread) if "gh:rm:1" in [c["custom_id"] for c in components(m)])
    await h.click(ANN, rematch, "gh:rm:1", name="Ann")
    again = await h.bot.service.store.get_game(2)
    assert {s.seat: (s.user_id, s.is_ai) for s in again.seats} == {0: (None, True), 1: (ANN, False)}
    h.assert_no_errors()


async def test_an_open_game_as_troy_seats_the_joiner_with_the_achaeans(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", side="trojans")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    game, state = await live_state(h)
    assert game.status == "running" and game.seat_of(ANN) == 1 and game.seat_of(BOB) == 0
    h.assert_no_errors()


async def test_typed_moves_with_game_play(harness):
    h = harness
    thread = await open_two_player_game(h)
    before = len(h.fake.messages)
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="deck")
    assert any("matches" in m["content"] and m["flags"] & 64 for m in list(h.fake.messages.values())[before:])
    assert (await live_state(h))[0].version == 0, "an ambiguous text changes nothing"
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="vanguard from deck 2")
    game, state = await live_state(h)
    assert game.version >= 1
    assert (await h.bot.service.store.actions(1))[0]["action"] == {"type": "take_vanguard", "deck": "2"}
    h.assert_no_errors()


async def test_two_step_panels_open_a_group_then_act(harness, monkeypatch):
    from host.presenters import PRESENTERS

    monkeypatch.setattr(PRESENTERS["hector-achilles"], "two_step", True)
    h = harness
    thread = await open_two_player_game(h)
    board = latest_board(h, thread)
    groups = [c for c in components(board) if c["custom_id"].startswith("gh:gb:")]
    assert [g["label"] for g in groups] == ["Vanguard"]
    await h.click(ANN, board, groups[0]["custom_id"], name="Ann")
    opened = h.fake.messages[int(board["id"])]
    actions = [c for c in components(opened) if c["custom_id"].startswith("gh:a:")]
    assert actions and all(a["label"].startswith("Vanguard from") for a in actions)
    await h.click(ANN, opened, actions[0]["custom_id"], name="Ann")
    assert (await live_state(h))[0].version >= 1
    h.assert_no_errors()
