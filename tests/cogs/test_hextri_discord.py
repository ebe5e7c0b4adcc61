"""HEX-TRI played through Discord only: slash commands and clicks in, recorded requests out.

Moves are a two-step choice on the public board (the figure's field, then the destination with its mana
cost); battle losses are a simultaneous decision that each involved player makes privately."""

from __future__ import annotations

import copy

import pytest

from engines import ENGINES
from engines.rng import Rng
from host.service import choices_digest
from tests.cogs.driver import boards, game_over, latest_board, to_act
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, thread_of
from tests.discord_harness import button, components

ENGINE = ENGINES["hextri"]
PASS = "Pass this go"


async def live_state(h, game_id: int = 1):
    """The stored game and its HEX-TRI state (loaded by this game's engine, whatever its rules version)."""
    game = await h.bot.service.store.get_game(game_id)
    return game, ENGINES["hextri"].from_json(game.snapshot)


def replies_since(h, before: int) -> list[dict]:
    return list(h.fake.messages.values())[before:]


def group_controls(message: dict) -> list[dict]:
    """The first step of a two-step panel: group buttons, or the group select."""
    return [c for c in components(message) if c["custom_id"].startswith(("gh:gb:", "gh:g:"))]


def action_controls(message: dict) -> list[dict]:
    return [c for c in components(message) if c["custom_id"].startswith(("gh:a:", "gh:s:"))]


def ways_controls(message: dict) -> list[dict]:
    """Buttons of destinations that open the choice of who pays (a select's options carry it in their value)."""
    return [c for c in components(message) if c["custom_id"].startswith("gh:w:")]


async def open_group(h, user: int, message: dict, name: str) -> dict | None:
    """Click the group called ``name`` (a button, or an option of the group select); the opened message.
    A group of one choice is that choice's own button: clicking it acts at once (None is returned)."""
    for c in action_controls(message):
        if c["type"] == 2 and c["label"] == name:
            await h.click(user, message, c["custom_id"])
            return None
    for c in group_controls(message):
        if c["type"] == 2 and c["label"] == name:
            await h.click(user, message, c["custom_id"])
            break
        if c["type"] == 3:
            value = next((o["value"] for o in c["options"] if o["label"] == name), None)
            if value is not None:
                await h.click(user, message, c["custom_id"], values=[value])
                break
    else:
        raise AssertionError(f"no group {name!r} in {[c.get('label') or c.get('options') for c in group_controls(message)]}")
    return h.fake.messages[int(message["id"])]


def group_names(message: dict) -> list[str]:
    """The first step's entries: groups to open, and one-choice groups shown as their action's button."""
    out = []
    for row in message.get("components") or []:
        for c in row.get("components", []):
            if c.get("custom_id", "").startswith(("gh:gb:", "gh:g:")) or (
                    c.get("custom_id", "").startswith("gh:a:") and c["type"] == 2):
                out += [c["label"]] if c["type"] == 2 else [o["label"] for o in c["options"]]
    return out


async def act_on(h, user: int, message: dict, label: str) -> None:
    """Click the action ``label`` (a button, or an option of one of the selects) of an opened panel."""
    for c in action_controls(message):
        if c["type"] == 2 and c["label"] == label:
            await h.click(user, message, c["custom_id"])
            return
        if c["type"] == 3:
            value = next((o["value"] for o in c["options"] if o["label"] == label), None)
            if value is not None:
                await h.click(user, message, c["custom_id"], values=[value])
                return
    raise AssertionError(f"no action {label!r}")


async def play_two_step(h, user: int, message: dict, rng: Rng, pass_weight: float = 0.3) -> None:
    """A person's decision on a two-step panel: maybe pass, else a random figure and a random destination."""
    names = group_names(message)
    assert names, f"panel without groups: {message['content']!r}"
    movers = [n for n in names if n != PASS]
    name = PASS if PASS in names and (not movers or rng.below(100) < pass_weight * 100) else rng.choice(movers)
    opened = await open_group(h, user, message, name)
    if opened is None:
        return
    comps = action_controls(opened) + ways_controls(opened)
    assert comps, "an opened group offers its choices"
    choice = rng.choice(comps)
    if choice["type"] == 3:
        value = rng.choice(choice["options"])["value"]
        await h.click(user, opened, choice["custom_id"], values=[value])
        ways = value.startswith("w")
    else:
        await h.click(user, opened, choice["custom_id"])
        ways = choice["custom_id"].startswith("gh:w:")
    if ways:  # the destination could be paid from other fields: who pays, the third step
        opened = h.fake.messages[int(message["id"])]
        pick = next(c for c in action_controls(opened) if c["type"] == 3)
        await h.click(user, opened, pick["custom_id"], values=[rng.choice(pick["options"])["value"]])


def board_pngs(h) -> list[bytes]:
    """Every board picture posted, in order."""
    return [data for sent in h.fake.sent for name, data in sent.files.items() if name.startswith("hextri-")]


# -- /hextri new ----------------------------------------------------------------------------------


async def test_new_game_offers_the_options_with_descriptions(harness):
    tree = harness.bot.tree
    group = next(c.to_dict(tree) for c in tree.get_commands() if c.name == "hextri")
    hextri = next(o for o in group["options"] if o["name"] == "new")
    options = {o["name"]: o for o in hextri["options"]}
    assert set(options) >= {"players", "radius", "leader_escape", "victory", "round_limit"}
    assert (options["players"]["min_value"], options["players"]["max_value"]) == (2, 6)
    assert (options["radius"]["min_value"], options["radius"]["max_value"]) == (2, 5)
    assert (options["round_limit"]["min_value"], options["round_limit"]["max_value"]) == (0, 999)
    assert options["leader_escape"]["type"] == 5
    assert {c["value"] for c in options["victory"]["choices"]} == {"first_blood", "last_leader", "first_blood_play_on"}
    for name in ("players", "radius", "leader_escape", "victory", "round_limit"):
        assert 10 <= len(options[name]["description"]) <= 100, name


@pytest.mark.parametrize("opts, message", [
    ({"radius": 9}, "radius must be a whole number from 2 to 5"),
    ({"players": 7}, "played by 2 to 6 players"),
    ({"round_limit": -1}, "round_limit must be a whole number from 0 to 999"),
    ({"victory": "sudden_death"}, "victory must be one of"),
])
async def test_bad_options_are_refused_clearly_and_open_nothing(harness, opts, message):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "hextri new", name="Ann", **opts)
    refusals = [m for m in replies_since(h, before) if m["flags"] & 64]
    assert any(message in m["content"] for m in refusals), [m["content"] for m in replies_since(h, before)]
    assert await h.bot.service.store.get_game(1) is None, "a refused game is not created"
    h.assert_no_errors()


async def test_lobby_waits_for_the_chosen_number_of_players_and_uses_the_options(harness):
    h = harness
    await h.slash(ANN, "hextri new", name="Ann", players=3, radius=2, leader_escape=True,
                  victory="last_leader", round_limit=9)
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    assert "Seats (1/3)" in lobby["embeds"][0]["fields"][0]["name"]
    assert "Vermilion A: Ann" in lobby["embeds"][0]["fields"][0]["value"]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    await h.click(CAROL, lobby, button(lobby, "Join")["custom_id"], name="Carol")
    game, state = await live_state(h)
    assert game.status == "running" and state["num_players"] == 3
    assert state["options"] == {"radius": 2, "leader_escape": True, "victory": "last_leader", "round_limit": 9}
    board = latest_board(h, thread)
    assert "round 1/9" in board["content"]
    assert "Ann (Vermilion A), Bob (Blue B), Carol (Green C)" in board["content"]
    h.assert_no_errors()


# -- a whole game ----------------------------------------------------------------------------------------


async def test_complete_game_against_the_ai_by_clicks(harness):
    h = harness
    await h.slash(ANN, "hextri new", name="Ann", opponent="ai", round_limit=4)
    thread = thread_of(h)
    rng = Rng(11)
    for _ in range(200):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert to_act(board) == [ANN], "only the person is asked; the AI moves by itself"
        # perfect information: the choices sit on the public board, no Take your turn / My hand buttons
        labels = [c.get("label") for c in components(board)]
        assert "Take your turn" not in labels and "My hand" not in labels
        assert PASS in group_names(board), "passing is one click"
        assert "movement" in board["content"] and "mana to spend" in board["content"]
        await play_two_step(h, ANN, board, rng)
        h.assert_no_errors()
    board = latest_board(h, thread)
    assert game_over(board), "the game did not finish"
    game, state = await live_state(h)
    assert game.status == "finished" and game.seats[1].is_ai
    assert game.result["details"]["reason"] in ("round_limit", "leader_down", "leaders_fell_together")
    text = "\n".join(m["content"] for m in boards(h, thread))
    # a per-round summary of production (and the rounds themselves) in the thread
    for rnd in range(1, game.result["details"]["round"] + 1):
        assert f"💎 Round {rnd}" in text, f"no production summary for round {rnd}"
    assert "**Round 2**" in text and "moves first" in text
    assert "leader enters the board at" in text
    assert ("Winner:" in board["content"]) or ("draw" in board["content"])
    assert " on the board, " in board["content"] and f"<@{ANN}>" in board["content"]
    assert [c["custom_id"] for c in components(board)] == ["gh:rm:1"], "a finished game offers only a rematch"
    # every board carried a picture, one per turn of Ann's (her further moves in a turn update its board: issue
    # 25), and the last one
    log = await h.bot.service.store.actions(1)
    turns = sum(1 for i, a in enumerate(log) if a["user_id"] == ANN and (i == 0 or log[i - 1]["user_id"] != ANN))
    assert len(boards(h, thread)) == turns + 1
    assert all(m["attachments"][0]["filename"].endswith(".png") for m in boards(h, thread))
    h.assert_no_errors()


async def test_three_players_two_of_them_ai_on_a_small_board(harness):
    h = harness
    await h.slash(ANN, "hextri new", name="Ann", opponent="ai", players=3, radius=2, round_limit=3)
    thread = thread_of(h)
    game, state = await live_state(h)
    assert [s.is_ai for s in game.seats] == [False, True, True] and state["options"]["radius"] == 2
    rng = Rng(4)
    for _ in range(100):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert to_act(board) == [ANN]
        await play_two_step(h, ANN, board, rng, pass_weight=0.5)
    board = latest_board(h, thread)
    assert game_over(board)
    text = "\n".join(m["content"] for m in boards(h, thread))
    assert "**AI 2** (B)" in text and "**AI 3** (C)" in text, "both AI seats moved and were narrated"
    assert len([line for line in board["content"].splitlines() if line[:2] in ("1.", "2.", "3.")]) == 3
    h.assert_no_errors()


# -- battles: two people decide at once ------------------------------------------------------------------


def battle_start(real_new_game):
    """A new game in which Ann's and Bob's leaders each stand with two figures on the centre HEX H-D4; each
    has one more figure on a HEX of his own with 2 mana."""

    def new_game(num_players, seed, options=None):
        state = real_new_game(num_players, seed, options)
        for p, home in zip(state["players"][:2], ("H-A1", "H-G1")):
            p["on"] = {"H-D4": 3, home: 1}
            p["leader"] = "H-D4"
            p["waiting"] = 5
            state["mana"][home] = 2
        return state

    return new_game


async def test_battle_losses_are_asked_of_both_players_at_once(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(ENGINE, "new_game", battle_start(ENGINE.new_game))
    await h.slash(ANN, "hextri new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    _, state = await live_state(h)
    first = ENGINE.to_act(state)[0]
    users = [ANN, BOB] if first == 0 else [BOB, ANN]
    # both pass: the movement phase ends, nothing is produced on the contested HEX, the battle begins
    for n, user in enumerate(users):
        board = latest_board(h, thread)
        assert to_act(board) == [user]
        before = len(h.fake.messages)
        assert await open_group(h, user, board, PASS) is None, "passing is one click"
        asked = [m for m in replies_since(h, before) if "Are you sure?" in m["content"]]
        if n == 0:
            assert not asked, "the first pass ends nothing"
        else:  # the second ends the movement phase while a move is possible: asked first (issue 25)
            (ask,) = asked
            assert "your pass ends the movement phase" in ask["content"]
            await h.click(user, ask, button(ask, "Yes, do it")["custom_id"])
            await h.settle()
    board = latest_board(h, thread)
    assert set(to_act(board)) == {ANN, BOB}, "both players are asked at once"
    assert "Battle losses to choose: **Ann** (A), **Bob** (B) on H-D4 — is the leader among them?" in board["content"]
    assert "you have 3 figures there and lose 2 of them" in board["content"]
    assert "💎 Round 1 production: **Ann** (A) +1 (H-A1 +1); **Bob** (B) +1 (H-G1 +1)." in board["content"]
    labels = [c.get("label") for c in components(board)]
    assert "Take your turn" in labels and not action_controls(board) and not group_controls(board), \
        "several players decide: the choices are private, the board only has Take your turn"
    _, state = await live_state(h)
    assert state["phase"] == "losses" and sorted(ENGINE.to_act(state)) == [0, 1]
    # each got the decision by DM as well
    dm_ann, dm_bob = h.dm_messages(ANN)[-1], h.dm_messages(BOB)[-1]
    assert "battle on H-D4" in dm_ann["content"] and group_controls(dm_ann)
    assert "battle on H-D4" in dm_bob["content"] and group_controls(dm_bob)
    stale_bob = copy.deepcopy(dm_bob)  # his DM as his screen shows it until its update arrives
    dms_of_bob = len(h.dm_messages(BOB))
    # Ann decides through Take your turn (an ephemeral panel only she sees)
    before = len(h.fake.messages)
    await h.click(ANN, board, button(board, "Take your turn")["custom_id"], name="Ann")
    panel = next(m for m in replies_since(h, before) if m["flags"] & 64 and components(m))
    opened = await open_group(h, ANN, panel, "Battle on H-D4")
    assert {c["label"] for c in action_controls(opened)} == {
        "Lose 2 ordinary figures, keep the leader", "Lose the leader among the 2 (your team leaves!)"}
    await act_on(h, ANN, opened, "Lose 2 ordinary figures, keep the leader")
    board = latest_board(h, thread)
    assert to_act(board) == [BOB], "Ann has decided; Bob still must"
    assert "**Ann** (A) has chosen their losses." in board["content"]
    assert "keep the leader" not in board["content"] and "Done" not in board["content"], \
        "Ann's choice stays hidden until Bob decides"
    # Ann's DM panel is now out of date; Bob decides from his DM
    before = len(h.fake.messages)
    await h.click(ANN, dm_ann, group_controls(dm_ann)[0]["custom_id"], name="Ann")
    assert any("out of date" in m["content"] for m in replies_since(h, before))
    before = len(h.fake.messages)
    await h.click(BOB, stale_bob, group_controls(stale_bob)[0]["custom_id"], name="Bob")
    assert any("out of date" in m["content"] for m in replies_since(h, before)), \
        "the DM was sent before Ann decided: its version is stale"
    # the same decision goes on: Bob's DM of it was brought up to date in place, not sent again (issue 25)
    fresh = [m for m in h.dm_messages(BOB) if group_controls(m)]
    assert fresh[-1]["id"] == stale_bob["id"] and len(h.dm_messages(BOB)) == dms_of_bob + 1
    assert fresh[-1]["components"] != stale_bob["components"], "Bob's DM panel was not brought up to date"
    dm_bob = fresh[-1]
    opened = await open_group(h, BOB, dm_bob, "Battle on H-D4")
    await act_on(h, BOB, opened, "Lose 2 ordinary figures, keep the leader")
    board = latest_board(h, thread)
    assert "⚔️ Battle on H-D4 (**Ann** (A) 3 · **Bob** (B) 3): **Ann** (A) loses 2, **Bob** (B) loses 2; " \
           "the HEX stays contested." in board["content"]
    assert "**Round 2**" in board["content"]
    _, state = await live_state(h)
    assert state["phase"] == "move" and state["round"] == 2
    assert state["players"][0]["on"]["H-D4"] == 1 and state["players"][1]["on"]["H-D4"] == 1
    assert state["mana"]["H-D4"] == 4, "every removed figure leaves 1 mana"
    h.assert_no_errors()


async def test_a_leader_given_up_in_battle_ends_a_two_player_game(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(ENGINE, "new_game", battle_start(ENGINE.new_game))
    await h.slash(ANN, "hextri new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    for _ in range(2):
        await h.slash(to_act(latest_board(h, thread))[0], "game play", channel_id=thread, move="pass")
    await h.slash(BOB, "game play", channel_id=thread, move="lose leader")
    await h.slash(ANN, "game play", channel_id=thread, move="keep")
    board = latest_board(h, thread)
    assert game_over(board)
    assert "💀 **Bob** (B)'s leader falls!" in board["content"]
    assert "🏆 **Ann** (A) wins — the enemy leader is down." in board["content"]
    assert "Winner: **Ann** (A)" in board["content"]
    h.assert_no_errors()


# -- typed moves, groups and paging ----------------------------------------------------------------------


async def test_typed_moves_with_field_names(harness, monkeypatch):
    h = harness
    await h.slash(ANN, "hextri new", name="Ann", opponent="ai", round_limit=5)
    thread = thread_of(h)
    game, state = await live_state(h)
    version = game.version

    async def refused(move: str, words: str) -> None:
        before = len(h.fake.messages)
        await h.slash(ANN, "game play", channel_id=thread, name="Ann", move=move)
        replies = [m["content"] for m in replies_since(h, before) if m["flags"] & 64]
        assert any(words in r for r in replies), (move, replies)
        assert (await live_state(h))[0].version == version, f"{move!r} changed the game"

    await refused("H-D4 T-A1", "You have no figure on H-D4")
    await refused("off H-Z9", "There is no field H-Z9")
    await refused("off H-D4", "H-D4 is out of reach for your leader from off the board")
    await refused("fly away", "I do not understand")
    await refused("off T-A1 T-A2 T-A4", "T-A1 costs no mana")
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="leader off t a1")
    log = await h.bot.service.store.actions(1)
    mine = [a for a in log if a["user_id"] == ANN]
    assert mine[0]["action"]["to"] == "T-A1" and mine[0]["action"]["leader"] is True
    board = latest_board(h, thread)
    assert "👑 **Ann** (A)'s leader enters the board at T-A1 (free step)." in board["content"]
    # nobody has mana in round 1: both are passed over, round 2 gives the leaders a new free step
    board = latest_board(h, thread)
    assert "cannot move this round: no mana on a field where only their figures stand, and the leader's free step " \
        "is used" in board["content"] and "**Round 2**" in board["content"]
    game, _ = await live_state(h)
    version = game.version
    await refused("off T-A4", "None of your figures can enter the board now")
    await refused("leader T-A1 T-A2", "T-A2 is out of reach for your leader on T-A1")
    # only the leader stands on T-A1: "T-A1 H-A1" moves him without saying so
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="t-a1 → h-a1")
    game, state = await live_state(h)
    assert game.version > version and state["players"][0]["leader"] == "H-A1"
    assert "👑 **Ann** (A)'s leader moves T-A1 → H-A1 (free step)." in latest_board(h, thread)["content"]
    if ANN in to_act(latest_board(h, thread)):
        version = game.version
        await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="pass")
        assert (await live_state(h))[0].version > version
    h.assert_no_errors()


def rich_start(real_new_game):
    """Radius 5, Ann's leader and four figures on the centre HEX with plenty of mana."""

    def new_game(num_players, seed, options=None):
        state = real_new_game(num_players, seed, options)
        p = state["players"][0]
        p["on"] = {"H-F6": 5}
        p["leader"] = "H-F6"
        p["waiting"] = 4
        state["mana"] = {"H-F6": 60}
        state["turn"] = 0
        state["first"] = 0
        return state

    return new_game


async def test_huge_destination_lists_are_grouped_and_paged(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(ENGINE, "new_game", rich_start(ENGINE.new_game))
    await h.slash(ANN, "hextri new", name="Ann", opponent="ai", radius=5, round_limit=3)
    thread = thread_of(h)
    board = latest_board(h, thread)
    _, state = await live_state(h)
    legal = ENGINE.legal_actions(state, 0)
    figure_moves = [a for a in legal if a["type"] == "move" and a["from"] == "H-F6" and not a["leader"]]
    assert len(figure_moves) > 100
    names = group_names(board)
    assert names == ["Enter a figure (4 waiting)", "Figure on H-F6 (4 here)", "Leader 👑 on H-F6", PASS]
    opened = await open_group(h, ANN, board, "Figure on H-F6 (4 here)")
    selects = [c for c in action_controls(opened) if c["type"] == 3]
    pager = [c for c in components(opened) if c["custom_id"].startswith("gh:pg:")]
    assert selects and pager and len(components(opened)) <= 25
    first_page = {o["label"] for s in selects for o in s["options"]}
    assert "H-A1 (10 mana)" in first_page, "destinations in board order, each with its mana cost"
    # turn the pages to the last one: together they offer every destination of the figure exactly once
    nxt = next(c for c in pager if "▶" in c["label"])
    pages = int(nxt["label"].split("/")[1].split()[0])
    assert pages >= 2
    seen = sorted(first_page)
    for _ in range(pages - 1):
        await h.click(ANN, opened, next(c for c in components(opened)
                                         if c["custom_id"].startswith("gh:pg:") and "▶" in c["label"])["custom_id"])
        opened = h.fake.messages[int(board["id"])]
        seen += [o["label"] for s in action_controls(opened) if s["type"] == 3 for o in s["options"]]
    assert sorted(label.split()[0] for label in seen) == sorted(a["to"] for a in figure_moves)
    last_page = {o["label"] for s in action_controls(opened) if s["type"] == 3 for o in s["options"]}
    target = sorted(last_page)[-1]
    await act_on(h, ANN, opened, target)
    log = await h.bot.service.store.actions(1)
    assert log[0]["action"]["from"] == "H-F6" and log[0]["action"]["to"] == target.split()[0]
    assert "**Ann** (A) moves a figure H-F6 → " in latest_board(h, thread)["content"]
    h.assert_no_errors()


def two_payers_start(real_new_game):
    """Radius 3, Ann to move first: her leader and two figures on H-D4, one figure on H-C3, 1 mana on each."""

    def new_game(num_players, seed, options=None):
        state = real_new_game(num_players, seed, options)
        p = state["players"][0]
        p["on"] = {"H-D4": 3, "H-C3": 1}
        p["leader"] = "H-D4"
        p["waiting"] = 4
        state["mana"] = {"H-D4": 1, "H-C3": 1}
        state["turn"] = 0
        state["first"] = 0
        return state

    return new_game


def with_button(message: dict, custom_id: str) -> dict:
    """``message`` as a client would show it with one more button (a custom_id made by hand)."""
    shown = copy.deepcopy(message)
    shown["components"] = [*(shown.get("components") or ())[:4],
                           {"type": 1, "components": [{"type": 2, "style": 2, "label": "?", "custom_id": custom_id}]}]
    return shown


def option(message: dict, label: str) -> tuple[dict, dict]:
    """(the select, its option) labelled ``label``."""
    for c in action_controls(message):
        for o in c.get("options") or ():
            if o["label"] == label:
                return c, o
    raise AssertionError(f"no option {label!r}")


async def test_who_pays_is_a_third_step_when_other_fields_could_pay(harness, monkeypatch):
    """Figure, then destination, then who pays: the destination of a move two fields could pay opens a select
    of the ways to pay it (the default first) with a way back; the chosen way is what the move takes. Stale
    and forged choices of a way are refused and change nothing."""
    h = harness
    monkeypatch.setattr(ENGINE, "new_game", two_payers_start(ENGINE.new_game))
    await h.slash(ANN, "hextri new", name="Ann", opponent="ai", round_limit=3)
    thread = thread_of(h)
    board = latest_board(h, thread)
    figure = "Figure on H-D4 (2 here)"
    opened = await open_group(h, ANN, board, figure)
    select, dest = option(opened, "T-D7 (1 mana)")
    assert dest["value"].startswith("w") and dest["description"] == "1 step · other fields could pay: you choose next"
    await h.click(ANN, opened, select["custom_id"], values=[dest["value"]])
    ways = h.fake.messages[int(board["id"])]
    (pick,) = [c for c in action_controls(ways) if c["type"] == 3]
    assert pick["placeholder"] == "T-D7 (1 mana): who pays?"
    assert [(o["label"], o.get("description")) for o in pick["options"]] == [
        ("H-C3 (default)", "most mana first · mana left: H-C3 0"), ("H-D4", "spares H-C3 · mana left: H-D4 0")]
    back = button(ways, f"◀ {figure}")
    assert back["custom_id"].startswith("gh:gb:") and len(components(ways)) == 2
    # back to the figure's destinations, and forward again
    await h.click(ANN, ways, back["custom_id"])
    again = h.fake.messages[int(board["id"])]
    assert option(again, "T-D7 (1 mana)")[1]["value"] == dest["value"]
    await h.click(ANN, again, select["custom_id"], values=[dest["value"]])
    ways = h.fake.messages[int(board["id"])]
    (pick,) = [c for c in action_controls(ways) if c["type"] == 3]
    # the same third step from a destination shown as a button (a group of five or fewer)
    index = dest["value"][1:]
    await h.click(ANN, with_button(board, f"gh:w:1:0:0:{index}"), f"gh:w:1:0:0:{index}")
    assert [c.get("placeholder") for c in action_controls(h.fake.messages[int(board["id"])])] == [
        "T-D7 (1 mana): who pays?"]
    # forged values: a way that does not exist, a malformed value, a choice that does not exist, a button of a
    # way that does not exist; nothing changes
    digest = pick["custom_id"].rsplit(":", 1)[1]
    for custom_id in ("gh:w:1:0:0:99999", f"gh:a:1:0:0:{index}:{digest}:7"):
        before = len(h.fake.messages)
        await h.click(ANN, with_button(ways, custom_id), custom_id)
        assert any("That choice no longer exists" in m["content"] and m["flags"] & 64
                   for m in replies_since(h, before)), custom_id
    # a board drawn before the upgrade, when every way to pay was listed: the same version, other choices
    # (its digest is of that longer list), so its indices mean other moves now: refused, with what to do
    _, state = await live_state(h)
    legal = ENGINE.legal_actions(state, 0)
    old_list = [dict(a, sources=w) for a in legal if a["type"] == "move"
                for w in ([a["sources"]] + [v["sources"] for v in ENGINE.variants(state, 0, a)[1:]])]
    old_list = [{k: v for k, v in a.items() if k != "other_ways"} for a in old_list] + [{"type": "pass"}]
    custom_id = f"gh:a:1:0:0:{index}:{choices_digest(old_list)}"
    before = len(h.fake.messages)
    await h.click(ANN, with_button(ways, custom_id), custom_id)
    assert any("drawn by an older version of the bot" in m["content"] and "/game hand" in m["content"]
               and m["flags"] & 64 for m in replies_since(h, before))
    assert (await live_state(h))[0].version == 0
    for value, words in ((f"{index}.7", "That choice no longer exists"), (f"w{index}.1", "That choice no longer"),
                         ("99999", "That choice no longer exists")):
        before = len(h.fake.messages)
        await h.click(ANN, ways, pick["custom_id"], values=[value])
        assert any(words in m["content"] and m["flags"] & 64 for m in replies_since(h, before)), value
        assert (await live_state(h))[0].version == 0
    as_shown = copy.deepcopy(ways)  # the panel as Ann's client shows it (the bot clears it a moment later)
    await h.click(ANN, ways, pick["custom_id"], values=[next(o["value"] for o in pick["options"]
                                                             if o["label"] == "H-D4")])
    log = await h.bot.service.store.actions(1)
    assert log[0]["action"] == {"type": "move", "from": "H-D4", "to": "T-D7", "leader": False, "cost": 1,
                                "sources": ["H-D4"], "other_ways": True}
    game, state = await live_state(h)
    assert "H-D4" not in state["mana"] and state["mana"]["H-C3"] == 1, "H-D4 paid"
    assert "**Ann** (A) moves a figure H-D4 → T-D7 (1 mana)." in latest_board(h, thread)["content"]
    # the spent panel of ways, clicked again: out of date
    before = len(h.fake.messages)
    await h.click(ANN, as_shown, pick["custom_id"], values=[pick["options"][0]["value"]])
    assert any("out of date" in m["content"] and m["flags"] & 64 for m in replies_since(h, before))
    assert (await live_state(h))[0].version == game.version
    h.assert_no_errors()


async def test_typed_moves_name_any_way_to_pay(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(ENGINE, "new_game", two_payers_start(ENGINE.new_game))
    await h.slash(ANN, "hextri new", name="Ann", opponent="ai", round_limit=3)
    thread = thread_of(h)
    before = len(h.fake.messages)
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="H-D4 T-D8 H-C3 H-C3")
    assert any("T-D8 costs 1 mana: name one paying field per paid step" in m["content"]
               for m in replies_since(h, before))
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="H-D4 T-D8 T-A1")
    assert any("T-D8 cannot be paid from T-A1" in m["content"] for m in replies_since(h, before))
    assert (await live_state(h))[0].version == 0
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="H-D4 T-D8 H-D4")
    log = await h.bot.service.store.actions(1)
    assert (log[0]["action"]["to"], log[0]["action"]["sources"]) == ("T-D8", ["H-D4"])
    h.assert_no_errors()


async def test_other_players_cannot_use_the_public_panel(harness):
    h = harness
    await h.slash(ANN, "hextri new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    board = copy.deepcopy(latest_board(h, thread))
    acting = to_act(board)[0]
    other = BOB if acting == ANN else ANN
    group = group_controls(board)[0]
    for user, words in ((other, "not your turn"), (CAROL, "not playing")):
        before = len(h.fake.messages)
        await h.click(user, board, group["custom_id"], name="someone")
        assert any(words in m["content"] and m["flags"] & 64 for m in replies_since(h, before))
    assert (await live_state(h))[0].version == 0
    h.assert_no_errors()


async def test_rules_pages(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "rules", game="hextri")
    reply = replies_since(h, before)[-1]
    embed = reply["embeds"][0]
    assert reply["flags"] & 64 and embed["title"] == "HEX-TRI — The game in short"
    pages = int(embed["footer"]["text"].split("/")[1].split()[0])
    titles = [embed["title"]]
    for _ in range(pages - 1):
        await h.click(ANN, reply, button(reply, "▶")["custom_id"])
        reply = h.fake.messages[int(reply["id"])]
        titles.append(reply["embeds"][0]["title"])
    assert titles[-1] == "HEX-TRI — Playing it here" and len(set(titles)) == pages >= 6
    assert "/game play" in reply["embeds"][0]["description"]
    h.assert_no_errors()
