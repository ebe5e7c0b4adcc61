"""Troja played through Discord only: slash commands and clicks in, recorded requests out."""

from __future__ import annotations

import copy
import json

import pytest

from engines import ENGINES
from engines.rng import Rng
from engines.troja import name as troja_name
from render import troja as troja_render
from tests.cogs.driver import boards, game_over, latest_board, take_turn, to_act
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, thread_of
from tests.discord_harness import button, components
from tests.engines.test_troja_support import give, table

ENGINE = ENGINES["troja"]
PUBLIC_CONTROLS = ("gh:t:", "gh:h:")  # Take your turn, My hand


async def live_state(h, game_id: int = 1):
    game = await h.bot.service.store.get_game(game_id)
    return game, ENGINE.from_json(game.snapshot)


def public_messages(h, thread: int) -> list[dict]:
    return [m for m in h.messages_in(thread) if not m["flags"] & 64]


def replies_since(h, before: int) -> list[dict]:
    return list(h.fake.messages.values())[before:]


def choices_of(message: dict) -> list[tuple[str, dict, dict | None]]:
    """(label, component, select option or None) of every choice of a panel message."""
    out = []
    for comp in components(message):
        if comp["custom_id"].startswith("gh:a:"):
            out.append((comp["label"], comp, None))
        elif comp["custom_id"].startswith("gh:s:"):
            out.extend((opt["label"], comp, opt) for opt in comp["options"])
    return out


async def choose(h, user: int, message: dict, *words: str) -> str:
    """Click the one choice whose label contains every word; returns its label."""
    found = [c for c in choices_of(message) if all(w.lower() in c[0].lower() for w in words)]
    assert len(found) >= 1, f"no choice with {words} in {[c[0] for c in choices_of(message)]}"
    label, comp, option = found[0]
    if option is None:
        await h.click(user, message, comp["custom_id"])
    else:
        await h.click(user, message, comp["custom_id"], values=[option["value"]])
    return label


async def open_panel(h, thread: int, user: int) -> dict:
    """Take your turn on the newest board: the user's private panel."""
    board = latest_board(h, thread)
    before = len(h.fake.messages)
    await h.click(user, board, button(board, "Take your turn")["custom_id"])
    panels = [m for m in replies_since(h, before) if m["flags"] & 64 and components(m)]
    assert panels, f"no private panel for {user}: {[m['content'] for m in replies_since(h, before)]}"
    return panels[-1]


#: the copy of Hermes' Gift in Ann's arranged hand: it decides the digest of her fate-window choices (one with a
#: letter; test_an_all_digit_digest_survives_a_pass_too makes every digest all digits)
ARRANGED_HERMES = "hermes_gift#1"


@pytest.fixture
def arranged(monkeypatch):
    """Games start at a fixed table: Achilles (Ann, seat A) to play with Trojan Spearmen, Archers and Hermes'
    Gift in hand, Nestor (Bob, seat B) holding only Apollo's Arrow (an intervention: nothing he may add to a
    challenge)."""
    real_new_game = type(ENGINE).new_game.__get__(ENGINE)

    def new_game(num_players, seed, options=None):
        monkeypatch.setattr(ENGINE, "new_game", real_new_game)  # table() deals a real game first
        try:
            state = table(["achilles", "nestor"], seed=seed)
        finally:
            monkeypatch.setattr(ENGINE, "new_game", new_game)
        state["options"] = {"max_rounds": (options or {}).get("max_rounds", 30)}
        give(state, 0, "spearmen", "archers", ARRANGED_HERMES)
        give(state, 1, "apollo_arrow")
        return state

    monkeypatch.setattr(ENGINE, "new_game", new_game)


async def open_two_humans(h) -> int:
    await h.slash(ANN, "troja new", name="Ann", players=2)
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    return thread


def assert_board_is_public_safe(board: dict) -> None:
    """A public board offers no choice itself (every Troja choice opens privately)."""
    assert all(c["custom_id"].startswith(PUBLIC_CONTROLS) for c in components(board)), components(board)


# -- /troja new ---------------------------------------------------------------------------------------


async def test_new_troja_offers_its_options_and_refuses_bad_values(harness):
    h = harness
    payload = [c.to_dict(h.bot.tree) for c in h.bot.tree.get_commands()]
    group = next(c for c in payload if c["name"] == "troja")
    troja = next(o for o in group["options"] if o["name"] == "new")
    options = {o["name"]: o for o in troja["options"]}
    assert (options["players"]["min_value"], options["players"]["max_value"]) == (2, 4)
    assert (options["max_rounds"]["min_value"], options["max_rounds"]["max_value"]) == (0, 200)
    assert "2-4" in options["players"]["description"] and "default 30" in options["max_rounds"]["description"]
    # values Discord's own checks would stop still get a clear answer, and no game is opened
    before = len(h.fake.messages)
    await h.slash(ANN, "troja new", name="Ann", max_rounds=3)
    assert any("max_rounds is 0 (no limit, the book's game) or a number of rounds from 5 to 200" in m["content"]
               and m["flags"] & 64 for m in replies_since(h, before))
    before = len(h.fake.messages)
    await h.slash(ANN, "troja new", name="Ann", players=5)
    assert any("2 to 4 heroes" in m["content"] and m["flags"] & 64 for m in replies_since(h, before))
    assert await h.bot.service.store.get_game(1) is None
    # three seats, labelled by the letters of the board picture
    await h.slash(ANN, "troja new", name="Ann", players=3, max_rounds=8)
    lobby = h.messages_in(thread_of(h))[0]
    seats = lobby["embeds"][0]["fields"][0]
    assert "(1/3)" in seats["name"] and "Seat A: Ann" in seats["value"] and "Seat C" in seats["value"]
    game = await h.bot.service.store.get_game(1)
    assert game.options["engine"] == {"max_rounds": 8} and game.num_players == 3
    # 0: the book's game, with no round limit
    await h.slash(ANN, "troja new", name="Ann", opponent="ai", max_rounds=0)
    game = await h.bot.service.store.get_game(2)
    assert game.options["engine"] == {"max_rounds": 0}
    h.assert_no_errors()


async def test_rules_pages(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "rules", game="troja")
    reply = replies_since(h, before)[-1]
    embed = reply["embeds"][0]
    assert embed["title"].startswith("Troja") and "24 Glory" in embed["description"]
    from cogs.rules import pages
    headings = [heading for heading, _ in pages("troja")]
    assert "Playing it here" in headings and all(len(body) < 4000 for _, body in pages("troja"))
    h.assert_no_errors()


# -- complete games -----------------------------------------------------------------------------------------


async def test_ann_plays_a_complete_two_player_game_against_the_ai(harness, monkeypatch):
    h = harness
    pictured = []  # the players' names each table picture is drawn with
    real_render = troja_render.render_public
    monkeypatch.setattr(troja_render, "render_public",
                        lambda view, *a, **k: pictured.append(view.get("player_names")) or real_render(view, *a, **k))
    await h.slash(ANN, "troja new", name="Ann", opponent="ai", max_rounds=12)  # two heroes
    thread = thread_of(h)
    # the first board says who plays which hero and who begins
    game, state = await live_state(h)
    first = latest_board(h, thread)["content"]
    heroes = [troja_name(p["hero"]) for p in state["players"]]
    assert f"🛡️ The heroes: **Ann** (A) — {heroes[0]} (patron " in first and f"**AI** (B) — {heroes[1]}" in first
    assert "and begins." in first and "📜 **Round 1**" in first
    rng = Rng(7)
    for _ in range(3000):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert to_act(board) == [ANN], "only the person is ever asked; the AI moves by itself"
        assert_board_is_public_safe(board)
        game, state = await live_state(h)
        # no card in a hand (nor the deck order) is named on the public board
        hidden = ENGINE.secrets(state, 0) | ENGINE.secrets(state, 1) | ENGINE.secrets(state, None)
        assert not any(cid in json.dumps(board) for cid in hidden)
        await take_turn(h, thread, rng)
    board = latest_board(h, thread)
    assert game_over(board), "the game did not finish"
    game, state = await live_state(h)
    assert game.status == "finished" and game.seats[1].is_ai
    text = "\n".join(m["content"] for m in public_messages(h, thread))
    # the narration tells the story: challenges, fights with fate cards and totals, Glory, the result
    for phrase in ("🥊", "Fate for the attacker", "Fate for the defender", "Glory", "Round 2", "'s turn",
                   "Winner:" if game.result["details"]["winner"] is not None else "First place shared"):
        assert phrase in text, phrase
    if game.result["details"]["reason"] == "glory":
        assert "reaches **24 Glory** and wins" in board["content"]
    assert "1. " in board["content"] and f"<@{ANN}>" in board["content"]
    assert [c["custom_id"] for c in components(board)] == ["gh:rm:1"], "a finished game offers only a rematch"
    assert all(m["attachments"][0]["filename"].endswith(".png") for m in boards(h, thread))
    # every table picture names the players next to their heroes
    assert pictured and all(names == ["Ann", "AI"] for names in pictured)
    # routine lines are left out: the end of a turn (the next line says whose turn), a duel's second line
    assert "ends the turn" not in text and "🥊 Duel on STRENGTH — attacker: **" not in text
    # every DM shows the hand, or (issue 25: the hand picture only when something new came in) lists it in
    # words or says it is the one above
    dms = h.dm_messages(ANN)
    assert dms and dms[0]["attachments"]
    assert all(m["attachments"] or "🃏 **Your hand now:**" in m["content"] or "Your hand has not changed"
               in m["content"] for m in dms)
    h.assert_no_errors()


async def test_four_seats_with_three_ai_heroes(harness):
    h = harness
    await h.slash(ANN, "troja new", name="Ann", opponent="ai", players=4, max_rounds=5)
    thread = thread_of(h)
    first = latest_board(h, thread)
    game, state = await live_state(h)
    names = [s.name for s in sorted(game.seats, key=lambda s: s.seat)]
    assert ", ".join(f"{n} (Seat {c})" for n, c in zip(names, "ABCD")) in first["content"]
    # the first board says who plays which hero (the picture shows heroes by letter) and who begins
    hero = ENGINE.view(state, None)["players"][3]["hero"]
    assert f"**{names[3]}** (D) — {troja_name(hero)} (patron" in first["content"]
    assert "has the highest POWER and begins" in first["content"]
    rng = Rng(3)
    for _ in range(1500):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert to_act(board) == [ANN]
        await take_turn(h, thread, rng)
    game, _ = await live_state(h)
    assert game.status == "finished" and len(game.seats) == 4
    # the three AI seats are named with their letters, as on the picture
    text = "\n".join(m["content"] for m in public_messages(h, thread))
    assert all(f"**{n}** ({c})" in text for n, c in zip(names[1:], "BCD"))
    # chains of AI turns stay readable: a duel or a turn-start attack is one line, no "ends the turn" lines
    assert "to a duel on STRENGTH!" in text and "at the start of the turn: a " in text
    assert "ends the turn" not in text and "🥊 Duel on STRENGTH — attacker: **" not in text
    assert all(len(m["content"]) <= 2000 for m in public_messages(h, thread))
    h.assert_no_errors()


# -- reaction windows -----------------------------------------------------------------------------------------


def digest_of(message: dict) -> str:
    """The digest of the choices a panel carries (the custom_ids' last part)."""
    found = {c["custom_id"].split(":")[6] for c in components(message) if c["custom_id"].startswith(("gh:a:", "gh:s:"))}
    assert len(found) == 1, found
    return found.pop()


async def test_reaction_window_asks_two_humans_privately(harness, arranged):
    h = harness
    thread = await open_two_humans(h)
    board = latest_board(h, thread)
    assert to_act(board) == [ANN] and "your turn with Achilles" in board["content"]
    assert_board_is_public_safe(board)
    panel = await open_panel(h, thread, ANN)
    assert "Trojan Spearmen (TAC 3, Glory 1) → Nestor (B)" in [c[0] for c in choices_of(panel)]
    await choose(h, ANN, panel, "Spearmen", "Nestor")
    panel = await open_panel(h, thread, ANN)
    assert "your challenge on Nestor (B): Trojan Spearmen" in panel["content"]
    await choose(h, ANN, panel, "Launch")
    board = latest_board(h, thread)
    content = board["content"]
    # Bob could add nothing: his auto-pass (on by default) answered the join window for him
    assert "**Ann** (A) launches the challenge on **Bob** (B)" in content and "**Bob** (B) adds nothing." in content
    assert "🥊 Battle on TACTICS — attacker: Trojan Spearmen; defender: **Bob** (B)." in content
    assert "Fate for the attacker" in content and "Fate for the defender" in content
    # the fate window: both may answer; one board mentions both, and its only buttons open private panels
    assert sorted(to_act(board)) == sorted([ANN, BOB])
    assert board["content"].count("your turn: the fight: Trojan Spearmen") == 2
    assert button(board, "Take your turn") and button(board, "My hand")
    assert_board_is_public_safe(board)
    # each gets one private message (DM): a "Play a card" select and a Pass button of its own
    bob_dm = [m for m in h.dm_messages(BOB) if components(m)][-1]
    ann_dm = [m for m in h.dm_messages(ANN) if components(m)][-1]
    for dm in (bob_dm, ann_dm):
        rows = [[c for c in row["components"]] for row in dm["components"]]
        selects = [row[0] for row in rows if row[0]["type"] == 3]
        assert len(selects) == 1 and selects[0]["placeholder"] == "Play a card"
        pass_rows = [row for row in rows if any(c.get("label", "").startswith("Pass") for c in row)]
        assert len(pass_rows) == 1 and len(pass_rows[0]) == 1 and pass_rows[0][0]["type"] == 2
    labels = [c[0] for c in choices_of(bob_dm)]
    assert "Apollo's Arrow: -3 for Trojan Spearmen" in labels and "Pass: let the fight be decided" in labels
    assert "Wrath of Athena: +3 for you (Nestor)" in labels
    hermes = next(opt for _, comp, opt in choices_of(ann_dm) if opt and opt["label"] == "Hermes' Gift: draw 2")
    assert hermes["description"].startswith("Intervention · POWER")  # the select says what the card is
    # nobody sees another's cards: not in the thread, not in the other's DM
    assert "Apollo" not in json.dumps(public_messages(h, thread)) + json.dumps(h.dm_messages(ANN))
    assert "Hermes" not in json.dumps(public_messages(h, thread)) + json.dumps(h.dm_messages(BOB))
    # Bob passes from his DM; the window stays open for Ann alone
    version = (await live_state(h))[0].version
    await choose(h, BOB, bob_dm, "Pass")
    board = latest_board(h, thread)
    assert to_act(board) == [ANN] and f"<@{BOB}>" not in board["content"]
    assert (await live_state(h))[0].version == version + 1
    # Ann's DM is from before Bob's pass, but a pass changes nothing she saw: her card play from it works
    # (the arranged Hermes' Gift copy gives her choices a digest with a letter: see the report on all-digit ones)
    assert not digest_of(ann_dm).isdigit()
    before = len(h.fake.messages)
    await choose(h, ANN, ann_dm, "Hermes")
    assert not any("out of date" in m["content"] for m in replies_since(h, before))
    board = latest_board(h, thread)
    assert "✨ **Ann** (A) plays Hermes' Gift." in board["content"] and "**Ann** (A) draws 2 card(s)." in board["content"]
    assert (await live_state(h))[0].version == version + 2
    # a card played reopens the window for Bob, who had passed
    assert sorted(to_act(board)) == sorted([ANN, BOB])
    # (her DM as her screen shows it now: since issue 25 a DM is updated in place while the turn goes on, but a
    # click may still come from the picture she had before the update arrived)
    ann_panel = copy.deepcopy([m for m in h.dm_messages(ANN) if components(m)][-1])
    bob_dm = [m for m in h.dm_messages(BOB) if components(m)][-1]
    # Bob plays Apollo's Arrow: a play changes the fight, so Ann's panel from before it is refused ...
    await choose(h, BOB, bob_dm, "Apollo")
    board = latest_board(h, thread)
    assert "✨ **Bob** (B) plays Apollo's Arrow for the attacker." in board["content"]
    game, state = await live_state(h)
    assert game.version == version + 3
    before = len(h.fake.messages)
    await choose(h, ANN, ann_panel, "Pass")
    assert any("out of date" in m["content"] and m["flags"] & 64 for m in replies_since(h, before))
    assert (await live_state(h))[0].version == version + 3, "the refused click changed nothing"
    # ... even though her choices are the same: it is the play that makes it stale
    from host.service import choices_digest
    assert digest_of(ann_panel) == choices_digest(ENGINE.legal_actions(state, 0))
    # both pass from the newest panels: the fight is resolved and narrated
    bob_dm = [m for m in h.dm_messages(BOB) if components(m)][-1]
    await choose(h, BOB, bob_dm, "Pass")
    panel = await open_panel(h, thread, ANN)
    await choose(h, ANN, panel, "Pass")
    content = latest_board(h, thread)["content"]
    assert ("beats the challenge" in content) or ("The challenge beats" in content) or ("A tie" in content)
    game, state = await live_state(h)
    assert state["step"] == "main" and state["assault"] is None and state["turn"] == 0
    h.assert_no_errors()


async def test_an_all_digit_digest_survives_a_pass_too(harness, arranged, monkeypatch):
    import host.seatwork

    # every fingerprint of choices made of digits alone (as about one in forty is): a button's custom id still
    # reads it as a fingerprint, not as a number
    real = host.seatwork.choices_digest
    monkeypatch.setattr(host.seatwork, "choices_digest", lambda legal: f"{int(real(legal), 16) % 10 ** 8:08d}")
    h = harness
    thread = await open_two_humans(h)
    await choose(h, ANN, await open_panel(h, thread, ANN), "Spearmen", "Nestor")
    await choose(h, ANN, await open_panel(h, thread, ANN), "Launch")
    bob_dm = [m for m in h.dm_messages(BOB) if components(m)][-1]
    ann_dm = [m for m in h.dm_messages(ANN) if components(m)][-1]
    assert digest_of(ann_dm).isdigit()
    await choose(h, BOB, bob_dm, "Pass")
    before = len(h.fake.messages)
    await choose(h, ANN, ann_dm, "Hermes")
    assert not any("out of date" in m["content"] for m in replies_since(h, before))
    assert "✨ **Ann** (A) plays Hermes' Gift." in latest_board(h, thread)["content"]


async def test_auto_pass_only_by_the_players_own_setting(harness, arranged):
    h = harness
    await h.slash(BOB, "game settings", name="Bob", auto_pass=False)
    assert (await h.bot.service.store.user_settings(BOB))["auto_pass"] is False
    thread = await open_two_humans(h)
    panel = await open_panel(h, thread, ANN)
    await choose(h, ANN, panel, "Spearmen", "Nestor")
    panel = await open_panel(h, thread, ANN)
    await choose(h, ANN, panel, "Launch")
    # Bob has nothing to add, but he turned auto-pass off: he is asked like anyone who holds a card
    board = latest_board(h, thread)
    assert to_act(board) == [BOB] and "adds nothing" not in board["content"]
    assert f"<@{BOB}>, your turn: Achilles (A) challenges you with Trojan Spearmen" in board["content"]
    panel = await open_panel(h, thread, BOB)
    assert [c[0] for c in choices_of(panel)] == ["Pass: add nothing"]
    await choose(h, BOB, panel, "Pass")
    assert "**Bob** (B) adds nothing." in latest_board(h, thread)["content"]
    h.assert_no_errors()


async def test_typed_moves_with_game_play(harness, arranged):
    h = harness
    thread = await open_two_humans(h)
    before = len(h.fake.messages)
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="spearmen")
    assert any("matches 2 choices" in m["content"] and m["flags"] & 64 for m in replies_since(h, before))
    assert (await live_state(h))[0].version == 0, "an ambiguous text changes nothing"
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="spearmen nestor")
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="launch")
    log = await h.bot.service.store.actions(1)
    assert [e["action"]["type"] for e in log[:2]] == ["challenge", "launch"]
    assert log[0]["action"]["target"] == 1
    await h.slash(BOB, "game play", channel_id=thread, name="Bob", move="pass")
    log = await h.bot.service.store.actions(1)
    assert log[-1]["seat"] == 1 and log[-1]["action"] == {"type": "pass"} and log[-1]["user_id"] == BOB
    assert to_act(latest_board(h, thread)) == [ANN]
    # someone not in the game, and a move that is no choice, are refused with a message
    before = len(h.fake.messages)
    await h.slash(CAROL, "game play", channel_id=thread, name="Carol", move="pass")
    assert any("not playing" in m["content"] for m in replies_since(h, before))
    before = len(h.fake.messages)
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="summon zeus")
    assert any("matches none of your choices" in m["content"] for m in replies_since(h, before))
    h.assert_no_errors()
