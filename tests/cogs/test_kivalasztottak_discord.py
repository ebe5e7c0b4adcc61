"""Kiválasztottak played through Discord only: slash commands and clicks in, recorded requests out.

Positions for the targeted tests (a siege with team selection, ranks and a targeted attack; the priority
settings; the order of timed effects) are built with the engine's test helpers and put in place of the live
game between two clicks: the bot then offers and applies everything through its ordinary Discord path.
"""

from __future__ import annotations

import json

from engines import ENGINES
from engines.rng import Rng
from tests.cogs.driver import boards, game_over, latest_board, newest_ephemeral, take_turn, to_act
from tests.discord_harness import button, components
from tests.engines.kivalasztottak.helpers import add, blank

ANN = 111_111_111_111_111_111
BOB = 222_222_222_222_222_222
ENGINE = ENGINES["kivalasztottak"]
ACTION_PREFIXES = ("gh:a:", "gh:s:", "gh:g:", "gh:gb:")


# -- helpers ------------------------------------------------------------------------------------------------

def thread_of(h) -> int:
    threads = [cid for cid, c in h.fake.channels.items() if c["type"] == 11]
    assert threads, "no thread was created"
    return threads[-1]


def since(h, before: int) -> list[dict]:
    return list(h.fake.messages.values())[before:]


def public_messages(h, thread: int) -> list[dict]:
    return [m for m in h.messages_in(thread) if not m["flags"] & 64]


async def live(h, game_id: int = 1):
    game = await h.bot.service.store.get_game(game_id)
    return game, ENGINE.from_json(game.snapshot)


def rig(h, state: dict, game_id: int = 1) -> None:
    """Put a hand-built position in place of the live game (same version: the next panel is built from it)."""
    live = h.bot.service._live[game_id]
    h.bot.service._live[game_id] = type(live)(live.version, state)  # a fresh entry: nothing computed for it yet


def offered(message: dict) -> dict[str, tuple[str, str | None]]:
    """Visible choices of a panel: label -> (custom_id, select value or None)."""
    out = {}
    for c in components(message):
        if c["custom_id"].startswith("gh:a:"):
            out[c["label"]] = (c["custom_id"], None)
        elif c["custom_id"].startswith("gh:s:"):
            for o in c["options"]:
                out[o["label"]] = (c["custom_id"], o["value"])
    return out


def groups_of(message: dict) -> dict[str, tuple[str, str | None]]:
    out = {}
    for c in components(message):
        if c["custom_id"].startswith("gh:gb:"):
            out[c["label"]] = (c["custom_id"], None)
        elif c["custom_id"].startswith("gh:g:"):
            for o in c["options"]:
                out[o["label"]] = (c["custom_id"], o["value"])
    return out


async def open_panel(h, thread: int, user: int) -> dict:
    """The message with ``user``'s choices: the board itself, or the private panel of "Take your turn"."""
    board = latest_board(h, thread)
    if any(c["custom_id"].startswith(ACTION_PREFIXES) for c in components(board)):
        return board
    before = len(h.fake.messages)
    await h.click(user, board, button(board, "Take your turn")["custom_id"])
    panel = newest_ephemeral(h, before)
    assert panel is not None, "Take your turn gave no panel"
    return panel


async def choose(h, user: int, message: dict, label: str, group: str | None = None) -> None:
    """Click the choice ``label`` (opening ``group`` first when the panel shows groups)."""
    names = groups_of(message)
    if names and label not in offered(message):
        assert group in names, f"no group {group!r} in {list(names)}"
        custom_id, value = names[group]
        await h.click(user, message, custom_id, values=[value] if value is not None else None)
        message = h.fake.messages[int(message["id"])]
    choices = offered(message)
    assert label in choices, f"no choice {label!r} in {list(choices)}"
    custom_id, value = choices[label]
    await h.click(user, message, custom_id, values=[value] if value is not None else None)


async def two_players(h) -> int:
    await h.slash(ANN, "kivalasztottak new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    return thread


# -- /kivalasztottak new -------------------------------------------------------------------------------------------

async def test_new_game_offers_a_deck_per_player_and_refuses_bad_values(harness):
    h = harness
    tree = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    group = next(c for c in tree if c["name"] == "kivalasztottak")
    kv = next(o for o in group["options"] if o["name"] == "new")
    options = {o["name"]: o for o in kv["options"]}
    assert {"deck", "opponent_deck", "round_limit", "opponent"} <= set(options)
    assert options["deck"]["autocomplete"] and options["opponent_deck"]["autocomplete"]  # typed, with suggestions
    assert options["round_limit"]["min_value"] == 0 and options["round_limit"]["max_value"] == 200

    before = len(h.fake.messages)
    await h.slash(ANN, "kivalasztottak new", name="Ann", opponent="ai", deck="dragons")
    replies = since(h, before)
    assert any("You have no deck called dragons" in m["content"] for m in replies)
    await h.slash(ANN, "kivalasztottak new", name="Ann", opponent="ai", round_limit=-3)
    assert any("round_limit must be" in m["content"] for m in since(h, before))
    assert not [c for c in h.fake.channels.values() if c["type"] == 11], "a refused game opened no thread"

    await h.slash(ANN, "kivalasztottak new", name="Ann", opponent="ai", deck="medveklan", round_limit=7)
    game, state = await live(h)
    assert state["options"] == {"decks": ["medveklan", "vadaszhaz"], "round_limit": 7}
    board = latest_board(h, thread_of(h))
    assert "Ann (A), AI (B)" in board["content"] and to_act(board) == [ANN]
    assert ("Decks: **Ann** (A) plays The Bear Clan (A Medve-klán); **AI** (B) plays The Hunters' Lodge (A Vadászház)."
            in board["content"]) and "🎲 The die makes **" in board["content"]
    h.assert_no_errors()


# -- a whole game -----------------------------------------------------------------------------------------------

async def test_complete_game_against_the_ai(harness):
    """One person (random clicks, the simple policy of the driver) against the AI, three rounds."""
    h = harness
    await h.slash(ANN, "kivalasztottak new", name="Ann", opponent="ai", round_limit=3)
    thread = thread_of(h)
    rng = Rng(4)
    for _ in range(400):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert to_act(board) == [ANN], "only the person is ever asked; the AI moves by itself"
        game, state = await live(h)
        hidden = ENGINE.secrets(state, None) | ENGINE.secrets(state, 0) | ENGINE.secrets(state, 1)
        text = json.dumps(board)
        assert not any(f'"{s}"' in text or f" {s}" in text for s in hidden), "a hidden card id in the thread"
        # choices that show the hand or face-down cards never sit on the public board
        for comp in components(board):
            if comp["custom_id"].startswith("gh:a:"):
                _, _, _, version, seat, index = comp["custom_id"].split(":")[:6]
                action = ENGINE.legal_actions(state, int(seat))[int(index)]
                assert action["type"] not in ("pass", "summon", "activate_obstacle", "attach_reward",
                                              "discard", "bottom", "tower_order", "keep", "mulligan"), action
        await take_turn(h, thread, rng)
        h.assert_no_errors()
    board = latest_board(h, thread)
    assert game_over(board), "the game did not finish"
    game, state = await live(h)
    assert game.status == "finished" and state["result"]["reason"] in ("round_limit", "dp11", "towers", "dp19")
    assert ("Winner:" in board["content"] or "A draw" in board["content"]) and "DP" in board["content"]
    assert [c["custom_id"] for c in components(board)] == ["gh:rm:1"], "a finished game offers only a rematch"
    narration = "\n".join(m["content"] for m in public_messages(h, thread))
    for line in ("🌅 **Round 1** begins.", "🌅 **Round 3** begins.", "Maneuvers phase:", "Resource phase: +4 MP",
                 "summons **", "resolves.", "enters **"):
        assert line in narration, line
    assert all(m["attachments"][0]["filename"].endswith(".png") for m in boards(h, thread))
    assert len(await h.bot.service.store.actions(1)) == game.version
    h.assert_no_errors()


async def test_priority_choices_open_privately_and_the_hand_stays_out_of_the_thread(harness):
    h = harness
    await h.slash(ANN, "kivalasztottak new", name="Ann", opponent="ai")
    thread = thread_of(h)
    board = latest_board(h, thread)
    # the tower order names face-down levels: a private panel, nothing on the board
    assert "set up your tower" in board["content"]
    assert not [c for c in components(board) if c["custom_id"].startswith(ACTION_PREFIXES)]
    panel = await open_panel(h, thread, ANN)
    assert panel["flags"] & 64 and any("(WALL" in label for label in offered(panel))
    await choose(h, ANN, panel, next(iter(offered(panel))))
    panel = await open_panel(h, thread, ANN)
    await choose(h, ANN, panel, "Keep these 7 cards")
    game, state = await live(h)
    while ENGINE.to_act(state) == [0] and state["pending"]:  # e.g. nothing: round 1 starts with priority
        await take_turn(h, thread, Rng(1))
        game, state = await live(h)
    board = latest_board(h, thread)
    assert "you are the active player" in board["content"] or "time thread" in board["content"]
    assert button(board, "Take your turn") and button(board, "My hand")
    hand_names = {c["name"] for c in ENGINE.view(state, 0)["hand"]}
    panel = await open_panel(h, thread, ANN)
    seen = set(offered(panel)) | set(groups_of(panel))
    assert any(name in label for name in hand_names for label in seen), "the private panel shows the hand"
    public = json.dumps([m for m in public_messages(h, thread)])
    assert not any(f"Summon {name}" in public for name in hand_names)
    towers = {c["name"] for c in ENGINE.view(state, 0)["players"][0]["towers"]}
    assert not any(name in public for name in towers), "face-down tower levels are never named in the thread"
    h.assert_no_errors()


# -- team selection, ranks and targets by buttons -------------------------------------------------------------

async def test_siege_with_team_selection_blocking_ranks_and_a_targeted_attack(harness):
    h = harness
    thread = await two_players(h)
    st = blank(mp=(20, 20))
    dorgan = add(st, 0, "dorgan", "row")
    add(st, 0, "vadasz", "row")
    stroke = add(st, 0, "kardcsapas", "hand")
    warrior = add(st, 1, "klanharcos", "row")
    rig(h, st)
    # Ann starts the siege from her private panel (the maneuver group), then forms her team on the board
    panel = await open_panel(h, thread, ANN)
    await choose(h, ANN, panel, "Siege the enemy's tower level 1 (2 MP)", group="Start a maneuver")
    board = latest_board(h, thread)
    assert "⚔️ **Ann** (A) starts a **siege** of **Bob** (B)'s tower level 1 (2 MP)." in board["content"]
    assert to_act(board) == [ANN] and "choose your team for the siege" in board["content"]
    assert set(offered(board)) == {"Dorgan Bloodhand (level 4)", "Hunter (level 2)"}  # public buttons
    await choose(h, ANN, board, "Dorgan Bloodhand (level 4)")
    board = latest_board(h, thread)
    assert "Dorgan Bloodhand joins **Ann** (A)'s team." in board["content"]
    await choose(h, ANN, board, "The team of 1 (level 4) sets out")
    # the threads of the siege's steps pass until Bob decides about the WALL or about blocking
    for _ in range(20):
        board = latest_board(h, thread)
        if "block it" in board["content"] or "WALL" in board["content"] and "let it go on" in board["content"]:
            break
        user = to_act(board)[0]
        panel = await open_panel(h, thread, user)
        await choose(h, user, panel, next(label for label in offered(panel) if label.startswith("Pass")))
    board = latest_board(h, thread)
    narration = "\n".join(m["content"] for m in public_messages(h, thread))
    assert "The besieged level is revealed: **" in narration
    if "let it go on" in board["content"]:
        await choose(h, BOB, board, "Let the siege go on")
        board = latest_board(h, thread)
    assert to_act(board) == [BOB] and set(offered(board)) == {"Clan Warrior (level 2)", "Do not block"}
    await choose(h, BOB, board, "Clan Warrior (level 2)")
    await choose(h, BOB, latest_board(h, thread), "The team of 1 (level 2) sets out")
    for _ in range(20):  # the combat's preparation thread
        board = latest_board(h, thread)
        if "arrange your team" in board["content"]:
            break
        user = to_act(board)[0]
        panel = await open_panel(h, thread, user)
        await choose(h, user, panel, next(label for label in offered(panel) if label.startswith("Pass")))
    board = latest_board(h, thread)
    assert "⚔️ **Combat!**" in "\n".join(m["content"] for m in public_messages(h, thread))
    assert to_act(board) == [ANN] and set(offered(board)) == {"Everyone in front: Dorgan Bloodhand"}
    await choose(h, ANN, board, "Everyone in front: Dorgan Bloodhand")
    await choose(h, BOB, latest_board(h, thread), "Everyone in front: Clan Warrior")
    board = latest_board(h, thread)
    assert "Combat round 1." in board["content"]
    # the attack card: summoner → target, chosen privately
    game, state = await live(h)
    acting = ENGINE.to_act(state)[0]
    if acting == 1:
        panel = await open_panel(h, thread, BOB)
        await choose(h, BOB, panel, "Pass")
    panel = await open_panel(h, thread, ANN)
    await choose(h, ANN, panel, "Sword Stroke: Dorgan Bloodhand → Clan Warrior", group="Sword Stroke (1 MP)")
    board = latest_board(h, thread)
    assert "**Ann** (A) plays **Sword Stroke** (1 MP): Dorgan Bloodhand attacks Clan Warrior." in board["content"]
    assert "🎲 Dorgan Bloodhand attacks Clan Warrior with Sword Stroke: " in board["content"]
    log = await h.bot.service.store.actions(1)
    summons = [e["action"] for e in log if e["action"]["type"] == "summon"]
    assert summons == [{"type": "summon", "card": stroke, "by": dorgan, "target": warrior}]
    h.assert_no_errors()


# -- the priority settings -----------------------------------------------------------------------------------

def _answer_position(bob_hand=()) -> dict:
    """Ann may summon a Hunter; Bob has Ugra Bearthroat (a public fast ability) in his Row."""
    st = blank(mp=(10, 10))
    add(st, 0, "vadasz", "hand")
    add(st, 1, "ugra", "row", dmg=1)  # wounded: his heal is on offer
    add(st, 1, "klanharcos", "hand")  # not a fast card: something for Bob's own action once the thread closes
    for key in bob_hand:
        add(st, 1, key, "hand")
    return st


async def _ann_summons_hunter(h, thread) -> dict:
    panel = await open_panel(h, thread, ANN)
    await choose(h, ANN, panel, "Summon Hunter (2 MP)")
    return latest_board(h, thread)


async def test_stop_when_the_opponent_acts_on_asks_to_answer(harness):
    h = harness
    thread = await two_players(h)
    rig(h, _answer_position())
    board = await _ann_summons_hunter(h, thread)
    assert "**Ann** (A) summons **Hunter** (2 MP)." in board["content"]
    assert to_act(board) == [BOB]
    assert "time thread (1 open), on top: Hunter (put by your opponent)" in board["content"]
    panel = await open_panel(h, thread, BOB)
    assert set(offered(panel)) == {"Pass (your opponent may still act)", "Ugra Bearthroat: heals 2 levels"}
    h.assert_no_errors()


async def test_stop_when_the_opponent_acts_off_passes_inside_the_thread(harness):
    h = harness
    thread = await two_players(h)
    await h.slash(BOB, "game settings", name="Bob", stop_when_opponent_acts=False)
    assert (await h.bot.service.store.user_settings(BOB))["stop_on_opponent"] is False
    rig(h, _answer_position())
    game, _ = await live(h)
    version = game.version
    board = await _ann_summons_hunter(h, thread)
    # Bob was passed for (by his own setting) inside the thread, although Ugra could have healed: he is asked
    # again only for his own action once the Hunter is in Ann's Row and the thread has closed
    assert "Hunter enters **Ann** (A)'s Row." in board["content"] and "time thread" not in board["content"]
    assert to_act(board) == [BOB] and "you are the active player" in board["content"]
    log = (await h.bot.service.store.actions(1))[version:]
    bob_passes = [e for e in log if e["seat"] == 1]
    assert len(bob_passes) == 2
    assert all(e["action"] == {"type": "pass"} and e["user_id"] == BOB for e in bob_passes)
    # with a fast card in his hand (Refuge) he is asked to answer after all
    rig(h, _answer_position(bob_hand=("menedek",)))
    board = await _ann_summons_hunter(h, thread)
    assert to_act(board) == [BOB] and "on top: Hunter (put by your opponent)" in board["content"]
    panel = await open_panel(h, thread, BOB)
    assert set(offered(panel)) == {"Pass (your opponent may still act)", "Refuge → Ugra Bearthroat",
                                   "Ugra Bearthroat: heals 2 levels"}
    h.assert_no_errors()


async def test_auto_pass_setting(harness):
    h = harness
    thread = await two_players(h)
    st = blank(mp=(10, 10))
    add(st, 0, "vadasz", "hand")
    rig(h, st)
    board = await _ann_summons_hunter(h, thread)
    # Bob can do nothing but pass: by default the bot passes for him
    assert "Hunter enters **Ann** (A)'s Row." in board["content"] and BOB not in to_act(board)
    await h.slash(BOB, "game settings", name="Bob", auto_pass=False)
    st = blank(mp=(10, 10))
    add(st, 0, "vadasz", "hand")
    rig(h, st)
    board = await _ann_summons_hunter(h, thread)
    assert to_act(board) == [BOB] and "on top: Hunter" in board["content"]
    panel = await open_panel(h, thread, BOB)
    assert list(offered(panel)) == ["Pass (your opponent may still act)"]
    h.assert_no_errors()


# -- the order of timed effects, typed moves ------------------------------------------------------------------

async def test_order_of_timed_effects_by_buttons(harness):
    h = harness
    thread = await two_players(h)
    st = blank(mp=(10, 10))
    add(st, 0, "vadaszkunyho", "buildings")
    add(st, 0, "orhaz", "buildings")
    rig(h, st)
    await choose(h, ANN, await open_panel(h, thread, ANN), "Pass")  # Bob can only pass: passed for him
    board = latest_board(h, thread)
    assert "Both players passed: the round closes." in board["content"]
    for user in to_act(board):
        await choose(h, user, await open_panel(h, thread, user), "Keep my hand")
    board = latest_board(h, thread)
    assert "🌅 **Round 2** begins." in board["content"] and to_act(board) == [ANN]
    assert set(offered(board)) == {"Hunting Lodge: +1 MP", "Guardhouse on the Pass: opponent loses 1 MP"}
    await choose(h, ANN, board, "Guardhouse on the Pass: opponent loses 1 MP")
    narration = "\n".join(m["content"] for m in public_messages(h, thread))
    assert "⏳ **Ann** (A)'s **Guardhouse on the Pass** (round opening) goes on the time thread." in narration
    assert "⏳ **Ann** (A)'s **Hunting Lodge** (round opening) goes on the time thread." in narration
    h.assert_no_errors()


async def test_typed_moves(harness):
    h = harness
    thread = await two_players(h)
    st = blank(mp=(10, 10))
    add(st, 0, "vadasz", "hand")
    add(st, 0, "fejvadasz", "hand")
    rig(h, st)
    version = (await live(h))[0].version
    before = len(h.fake.messages)
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="hunter")
    assert any("fits 2 choices" in m["content"] and m["flags"] & 64 for m in since(h, before))
    assert (await live(h))[0].version == version, "an ambiguous text changes nothing"
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="summon bounty")
    assert "**Ann** (A) summons **Bounty Hunter** (3 MP)." in latest_board(h, thread)["content"]
    assert (await h.bot.service.store.actions(1))[-1]["action"]["type"] in ("summon", "pass")
    h.assert_no_errors()


async def test_rules_pages_explain_the_game_and_the_priority_settings(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "rules", game="kivalasztottak")
    reply = since(h, before)[-1]
    titles = [reply["embeds"][0]["title"]]
    for _ in range(12):
        if button(reply, "▶").get("disabled"):
            break
        await h.click(ANN, reply, button(reply, "▶")["custom_id"])
        reply = h.fake.messages[int(reply["id"])]
        titles.append(reply["embeds"][0]["title"])
    assert titles[0] == "Kiválasztottak — The game in short"
    assert "Kiválasztottak — Priority settings" in titles and "Kiválasztottak — Playing it here" in titles
    h.assert_no_errors()


async def test_a_face_down_obstacle_is_attached_privately_and_never_named_in_the_thread(harness):
    h = harness
    thread = await two_players(h)
    st = blank(mp=(10, 10))
    add(st, 0, "farkasvadaszat", "quests")
    add(st, 0, "verem", "hand")
    rig(h, st)
    panel = await open_panel(h, thread, ANN)
    assert panel["flags"] & 64
    await choose(h, ANN, panel, "Pit face down on Wolf Hunt")
    board = latest_board(h, thread)
    assert "**Ann** (A) attaches a face-down obstacle to Wolf Hunt." in board["content"]
    assert "Pit" not in json.dumps(public_messages(h, thread))
    # Bob's view of the table shows a face-down card, Ann's hand picture still names her own cards only
    game, state = await live(h)
    quest = ENGINE.view(state, 1)["players"][0]["quests"][0]
    assert quest["attached"] == [{"hidden": True, "owner": 0, "type": "obstacle"}]
    h.assert_no_errors()
