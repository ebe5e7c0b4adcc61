"""Ave Caesar played through Discord only: slash commands and clicks in, recorded requests out."""

from __future__ import annotations

import copy
import json
import re

from engines import ENGINES
from engines.rng import Rng
from host.presenters import PRESENTERS
from tests.cogs.driver import boards, game_over, latest_board, to_act
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, public_messages, strings, thread_of
from tests.discord_harness import button, components

ENGINE = ENGINES["ave-caesar"]
PRESENTER = PRESENTERS["ave-caesar"]
MOVE = re.compile(r"^(\d) → (\d+)")


async def live(h, game_id: int = 1):
    game = await h.bot.service.store.get_game(game_id)
    return game, ENGINE.from_json(game.snapshot)


def since(h, before: int) -> list[dict]:
    return list(h.fake.messages.values())[before:]


def ephemeral_panel(h, before: int) -> dict | None:
    found = [m for m in since(h, before) if m["flags"] & 64 and components(m)]
    return found[-1] if found else None


def prefixed(message: dict, *prefixes: str) -> list[dict]:
    return [c for c in components(message) if c["custom_id"].startswith(prefixes)]


async def open_panel(h, thread: int, user: int) -> dict:
    """Press "Take your turn" on the newest board; returns the private (ephemeral) panel."""
    board = latest_board(h, thread)
    before = len(h.fake.messages)
    await h.click(user, board, button(board, "Take your turn")["custom_id"])
    panel = ephemeral_panel(h, before)
    assert panel is not None, "Take your turn gave no panel"
    return panel


async def wish(h, rng: Rng) -> tuple[int, int] | None:
    """(card, marker number) a sensible driver picks: what the AI driver would play in this position."""
    import ai

    game, state = await live(h)
    seat = ENGINE.to_act(state)[0]
    action = ai.choose(ENGINE, state, seat, rng)
    marker = next(c["n"] for c in ENGINE.view(state, seat)["choices"] if c["to"] == action["to"])
    return action["card"], marker


def move_of(label: str) -> re.Match[str]:
    """A destination's label read as (card, its number on the track picture): "4 → 2: outer lane, curve"."""
    found = MOVE.match(label)
    assert found is not None, label
    return found


def opened(message: dict, *prefixes: str) -> list[dict]:
    """Components below the card row (the opened card's destinations)."""
    return [c for row in (message.get("components") or [])[1:] for c in row.get("components", [])
            if c.get("custom_id", "").startswith(prefixes)]


def first_step(panel: dict) -> dict[int, dict]:
    """The card row of a private panel: card value -> its "Card v" group button, or the move's own button
    when that card reaches only one destination (one click instead of two)."""
    row = {}
    for c in prefixed(panel, "gh:gb:", "gh:a:", "gh:s:"):
        if c["custom_id"].startswith("gh:gb:"):
            assert c["label"].startswith("Card "), c["label"]
            row[int(c["label"].split()[-1])] = c
        else:
            assert c["custom_id"].startswith("gh:a:") and MOVE.match(c["label"]), "first step: only the cards"
            row[int(move_of(c["label"])[1])] = c
    return row


async def drive(h, thread: int, rng: Rng, *, checks: bool = True, smart: bool = False) -> int:
    """One move the way a person makes it: Take your turn, a card button, then a destination (at random, or
    with ``smart`` the card and marker a good driver would pick, found by their labels)."""
    board = latest_board(h, thread)
    users = to_act(board)
    assert users, f"nobody to act: {board['content']!r}"
    user = users[0]
    wanted = await wish(h, rng) if smart else None
    panel = await open_panel(h, thread, user)
    cards = first_step(panel)
    assert cards
    value = wanted[0] if wanted else rng.choice(sorted(cards))
    card = cards[value]
    await h.click(user, panel, card["custom_id"])
    if card["custom_id"].startswith("gh:a:"):
        return user  # the card's only destination
    shown = h.fake.messages[int(panel["id"])]
    buttons, selects = opened(shown, "gh:a:"), opened(shown, "gh:s:")
    if checks:
        labels = [b["label"] for b in buttons] + [o["label"] for s in selects for o in s["options"]]
        assert labels and all(int(move_of(x)[1]) == value for x in labels), labels
    if wanted:
        prefix = f"{wanted[0]} → {wanted[1]}"
        for select in selects:
            option = next((o for o in select["options"] if move_of(o["label"])[0] == prefix), None)
            if option:
                await h.click(user, shown, select["custom_id"], values=[option["value"]])
                return user
        await h.click(user, shown, next(b for b in buttons if move_of(b["label"])[0] == prefix)["custom_id"])
    elif selects:
        select = rng.choice(selects)
        await h.click(user, shown, select["custom_id"], values=[rng.choice(select["options"])["value"]])
    else:
        await h.click(user, shown, rng.choice(buttons)["custom_id"])
    return user


def lines_of(h, thread: int) -> str:
    return "\n".join(m["content"] for m in public_messages(h, thread))


async def all_narrated(h, thread: int, names: list[str]) -> list[dict]:
    """Every logged event that a player cares about has its line in the thread; returns the events."""
    text = lines_of(h, thread)
    events = [e for a in await h.bot.service.store.actions(1) for e in a["events"]]
    for event in events:
        line = PRESENTER.narrate(event, names)
        if event["type"] != "game_over":
            assert line and all(part in text for part in line.split("\n")), event
    assert text.count("**Ave Caesar!**") == sum(e["type"] == "ave_caesar" for e in events)
    return events


def board_images(h) -> list[bytes]:
    return [data for sent in h.fake.sent for name, data in sent.files.items()
            if name.startswith("ave-caesar-")]


async def test_options_of_game_new_are_described_with_their_limits(harness):
    tree = harness.bot.tree
    group = next(c.to_dict(tree) for c in tree.get_commands() if c.name == "ave-caesar")
    command = next(o for o in group["options"] if o["name"] == "new")
    options = {o["name"]: o for o in command["options"]}
    assert set(options) == {"opponent", "level", "invite", "language", "time_control", "on_timeout", "players",
                            "chariots_per_player", "races", "neutral_chariots",
                            "turn_order", "track", "neutral_vote"}
    assert {c["value"] for c in options["level"]["choices"]} == {"easy", "normal", "hard"}
    assert (options["players"]["min_value"], options["players"]["max_value"]) == (2, 6)
    assert (options["chariots_per_player"]["min_value"], options["chariots_per_player"]["max_value"]) == (1, 3)
    assert (options["races"]["min_value"], options["races"]["max_value"]) == (1, 4)
    assert options["neutral_chariots"]["type"] == 5
    assert {c["value"] for c in options["turn_order"]["choices"]} == {"seat", "previous_results"}
    assert any("Previous results" in c["name"] for c in options["turn_order"]["choices"])
    assert {c["value"] for c in options["track"]["choices"]} == {"A", "B"}
    assert all(1 <= len(o["description"]) <= 100 for o in options.values())


async def test_impossible_option_combinations_are_refused_with_a_clear_message(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "ave-caesar new", name="Ann", players=3, chariots_per_player=3)
    assert any("3 players x 3 chariots is more than the 6 chariots" in m["content"] and m["flags"] & 64
               for m in since(h, before))
    before = len(h.fake.messages)
    await h.slash(ANN, "ave-caesar new", name="Ann", players=6, neutral_chariots=True)
    assert any("Neutral chariots need a free start space" in m["content"] for m in since(h, before))
    before = len(h.fake.messages)
    await h.slash(ANN, "ave-caesar new", name="Ann", players=7)  # Discord's own range check aside
    assert any("for 2 to 6 players, not 7" in m["content"] for m in since(h, before))
    assert not [c for c in h.fake.channels.values() if c["type"] == 11], "a refused game opens no thread"
    assert await h.bot.service.store.list_games() == []
    h.assert_no_errors()


async def test_lobby_waits_for_as_many_seats_as_the_options_allow(harness):
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", chariots_per_player=2)
    lobby = h.messages_in(thread_of(h))[0]
    seats = lobby["embeds"][0]["fields"][0]
    assert seats["name"] == "Seats (1/3):" and "Chariots A: Ann" in seats["value"]
    await h.slash(BOB, "ave-caesar new", name="Bob")
    lobby = h.messages_in(thread_of(h))[0]
    assert lobby["embeds"][0]["fields"][0]["name"] == "Seats (1/6):"
    # the host starts with two: the engine's default for two players is three chariots each
    await h.click(CAROL, lobby, button(lobby, "Join")["custom_id"], name="Carol")
    await h.click(BOB, lobby, button(lobby, "Start")["custom_id"], name="Bob")
    game, state = await live(h, 2)
    assert game.status == "running" and len(state["chariots"]) == 6
    assert [ch["label"] for ch in state["chariots"]] == ["A1", "B1", "A2", "B2", "A3", "B3"]
    h.assert_no_errors()


async def test_ai_fills_the_seats_up_to_players_and_only_the_person_is_asked(harness):
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", players=4, track="B", races=2,
                  turn_order="previous_results")
    thread = thread_of(h)
    game, state = await live(h)
    assert game.status == "running" and game.num_players == 4
    assert [s.is_ai for s in sorted(game.seats, key=lambda s: s.seat)] == [False, True, True, True]
    assert state["race"]["track"] == "B" and len(state["chariots"]) == 4
    assert state["options"] == {"chariots_per_player": 1, "races": 2, "neutral_chariots": False,
                                "turn_order": "previous_results", "track": "B"}
    board = latest_board(h, thread)
    assert to_act(board) == [ANN]
    assert "begins!" in h.messages_in(thread)[1]["content"] or "begins!" in board["content"]
    # the AI chariots that start before Ann have moved already, narrated with their labels
    moved_before = [e for a in await h.bot.service.store.actions(1) for e in a["events"] if e["type"] == "moved"]
    game, _ = await live(h)
    for event in moved_before:
        ai_name = game.seat_row(event["seat"]).name
        assert f"{event['label']} (**{ai_name}**) plays a {event['card']} (" in lines_of(h, thread)
    assert "race 1/2: move **A**" in board["content"] and "pick a card, then a destination" in board["content"]
    h.assert_no_errors()


async def test_two_step_private_panel_card_then_numbered_destination(harness):
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", players=2)
    thread = thread_of(h)
    board = latest_board(h, thread)
    # the public board never offers a move: every move names a card of the hidden hand
    assert not prefixed(board, "gh:a:", "gh:s:", "gh:g:", "gh:gb:")
    assert button(board, "Take your turn") and button(board, "My hand")
    game, state = await live(h)
    view = ENGINE.view(state, 0)
    panel = await open_panel(h, thread, ANN)
    assert panel["attachments"], "the private picture with the numbered markers comes with the panel"
    cards = first_step(panel)
    as_shown = copy.deepcopy(panel)  # the panel as Ann's client keeps showing it
    playable = sorted({a["card"] for a in view["legal"]})
    assert sorted(cards) == playable
    reach = {v: sorted(c["n"] for c in view["choices"] if any(m["card"] == v for m in c["moves"]))
             for v in playable}
    for v, c in cards.items():  # a card button, or the move itself when the card has one destination
        assert c["label"] == (f"Card {v}" if len(reach[v]) > 1 else f"{v} → {reach[v][0]}")
    value = max(playable, key=lambda v: len(reach[v]))
    assert len(reach[value]) > 1
    # Bob may not open Ann's groups
    before = len(h.fake.messages)
    await h.click(BOB, panel, cards[value]["custom_id"], name="Bob")
    assert any("not playing" in m["content"] for m in since(h, before))
    await h.click(ANN, panel, cards[value]["custom_id"])
    shown = h.fake.messages[int(panel["id"])]
    labels = [b["label"] for b in opened(shown, "gh:a:")] + \
             [o["label"] for s in opened(shown, "gh:s:") for o in s["options"]]
    assert sorted(int(move_of(x)[2]) for x in labels) == reach[value]
    assert all(x.startswith(f"{value} → ") for x in labels)
    # choose the first destination: the panel says what was done, the thread gets the new board
    action = opened(shown, "gh:a:")
    before_boards = len(boards(h, thread))
    if action:
        label = action[0]["label"]
        await h.click(ANN, shown, action[0]["custom_id"])
    else:
        select = opened(shown, "gh:s:")[0]
        label = select["options"][0]["label"]
        await h.click(ANN, shown, select["custom_id"], values=[select["options"][0]["value"]])
    assert h.fake.messages[int(panel["id"])]["content"] == f"Done: {label}"
    assert len(boards(h, thread)) > before_boards
    me = view["chariots"][view["turn"]]["label"]
    assert f"{me} (**Ann**) plays a {value} (" in latest_board(h, thread)["content"]
    # the spent panel's card buttons are out of date now
    before = len(h.fake.messages)
    await h.click(ANN, as_shown, cards[value]["custom_id"])
    assert any("out of date" in m["content"] for m in since(h, before))
    h.assert_no_errors()


async def test_complete_race_two_people_three_chariots_each(harness):
    """Ann and Bob drive three chariots each, every move by clicks; hands never reach the thread; every
    event a player cares about is a line in the thread; the race ends with the results."""
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", players=2, races=1)
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    rng = Rng(3)
    for step in range(400):
        board = latest_board(h, thread)
        if game_over(board):
            break
        game, state = await live(h)
        assert to_act(board) == [game.seat_row(s).user_id for s in ENGINE.to_act(state)]
        if step % 10 == 0:  # hidden cards never travel in a public message
            hidden = set().union(*(ENGINE.secrets(state, s) for s in (0, 1)), ENGINE.secrets(state, None))
            assert not strings(public_messages(h, thread)) & hidden
        await drive(h, thread, rng, checks=step < 30, smart=True)
    board = latest_board(h, thread)
    assert game_over(board), "the race did not finish"
    game, state = await live(h)
    assert game.status == "finished" and [c["custom_id"] for c in components(board)] == ["gh:rm:1"]
    text = lines_of(h, thread)
    assert "wins the race with" in board["content"] or "share first place" in board["content"]
    assert "🏁" in text and "finishes **1st**" in text
    assert "**Race 1 result:**" in board["content"]
    assert f"<@{ANN}>" in board["content"] and f"<@{BOB}>" in board["content"]
    # every logged event of interest was announced in the thread, by chariot label
    log = await h.bot.service.store.actions(1)
    assert len(log) == game.version and all(a["user_id"] in (ANN, BOB) for a in log)
    events = await all_narrated(h, thread, ["Ann", "Bob"])
    kinds = {e["type"] for e in events}
    assert {"moved", "ave_caesar", "new_lap", "finished", "skipped", "race_over", "game_over"} <= kinds
    assert "sits this turn out" in text
    # both players were DMed on their turns: the hand in words and no picture (the track picture on request)
    dms = h.dm_messages(ANN) + h.dm_messages(BOB)
    assert h.dm_messages(ANN) and h.dm_messages(BOB)
    assert not any(m["attachments"] for m in dms)
    assert all("🃏 **Your hand now:**" in m["content"] for m in dms)
    h.assert_no_errors()


async def test_careless_driver_meets_caesars_wrath_and_skips_are_explained(harness):
    """Ann clicks at random against the AI: she misses the alley (warned, then disqualified at the line),
    gets boxed in; each skip happens by itself with a line saying why, and she is never asked for it."""
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", players=2, races=1)
    thread = thread_of(h)
    rng = Rng(2)
    asked = 0
    for _ in range(200):
        if game_over(latest_board(h, thread)):
            break
        await drive(h, thread, rng, checks=False)
        asked += 1
    assert game_over(latest_board(h, thread))
    events = await all_narrated(h, thread, ["Ann", "AI"])
    text = lines_of(h, thread)
    wrath = [e for e in events if e["type"] == "disqualified"]
    assert wrath and "**Caesar's wrath!**" in text and "without paying" in text
    assert all(f"{e['label']} (**Ann**) disqualified" in text for e in wrath if e["seat"] == 0)
    skips = [e for e in events if e["type"] == "skipped"]
    assert skips and "sits this turn out" in text
    log = await h.bot.service.store.actions(1)
    assert asked == sum(1 for a in log if a["user_id"] == ANN), "skipped turns never reach a person"
    h.assert_no_errors()


async def test_complete_race_alone_against_ai_with_neutral_chariots(harness):
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", players=3, neutral_chariots=True)
    thread = thread_of(h)
    game, state = await live(h)
    assert [ch["label"] for ch in state["chariots"]] == ["A", "B", "C", "N1", "N2", "N3"]
    names = [s.name for s in sorted(game.seats, key=lambda s: s.seat)]
    assert names == ["Ann", "AI 2", "AI 3"], "the host numbers several AI seats"
    rng = Rng(11)
    for _ in range(200):
        board = latest_board(h, thread)
        if game_over(board):
            break
        assert to_act(board) == [ANN], "only the person is asked; AI and neutral chariots move by themselves"
        await drive(h, thread, rng, checks=False)
    board = latest_board(h, thread)
    assert game_over(board)
    text = lines_of(h, thread)
    assert "(neutral) turns up a" in text
    assert "Race 1 result:" in text and "laurels" in board["content"]
    await all_narrated(h, thread, names)
    assert "B (**AI 2**)" in text and "C (**AI 3**)" in text and "AI B" not in text and "AI C" not in text
    result = "\n".join(board["content"].split("\n")[-4:])
    assert "AI 2 — " in result and "AI 3 — " in result and "Ann — " in result
    game, _ = await live(h)
    assert game.status == "finished" and game.seats[1].is_ai
    h.assert_no_errors()


async def test_typed_moves_card_and_marker(harness):
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", players=2)
    thread = thread_of(h)
    game, state = await live(h)
    version = game.version
    view = ENGINE.view(state, 0)
    playable = sorted({a["card"] for a in view["legal"]})
    missing = next(v for v in range(1, 7) if v not in playable)
    before = len(h.fake.messages)
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move=f"{missing} 1")
    refusal = [m for m in since(h, before) if m["flags"] & 64]
    assert any(f"no playable {missing}" in m["content"] for m in refusal)
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move="fast please")
    assert (await live(h))[0].version == version, "a text that is no move changes nothing"
    card = playable[0]
    target = next(c for c in view["choices"] if any(m["card"] == card for m in c["moves"]))
    before = len(h.fake.messages)
    await h.slash(ANN, "game play", channel_id=thread, name="Ann", move=f"{card} -> {target['n']}")
    assert any(m["content"].startswith(f"Done: {card} → {target['n']}") for m in since(h, before))
    log = await h.bot.service.store.actions(1)
    mine = [a for a in log if a["user_id"] == ANN]
    assert mine[0]["action"] == {"type": "move", "chariot": view["turn"], "card": card, "to": target["to"]}
    h.assert_no_errors()


async def test_board_pictures_match_the_narration(harness, tmp_path):
    """The posted boards show the chariots where the engine has them: the picture after a move is the one
    rendered from that version's public view (and a few are written out for a look)."""
    from render import ave_caesar as R

    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", players=2, races=1)
    thread = thread_of(h)
    rng = Rng(4)
    for _ in range(4):
        await drive(h, thread, rng, checks=False)
    game, state = await live(h)
    images = board_images(h)
    # the host adds the players' names: the picture's table names Ann and the AI, not "seat A"
    named = R.render_public({**ENGINE.view(state, None), "player_names": ["Ann", "AI"]})
    assert images[-1] == named != R.render_public(ENGINE.view(state, None))
    for i, data in enumerate(images[-3:]):
        (tmp_path / f"board-{i}.png").write_bytes(data)
    h.assert_no_errors()


async def test_first_board_tells_the_start_cards_the_grid_and_the_neutral_moves_before_anyone_is_asked(harness):
    """Against the AI with neutral chariots (seed 1005: Ann and the AI tie twice; the AI's B takes start space
    I): only the players' chariots turn cards, the neutral ones line up behind them (III-VI), and B's move and
    the neutral moves made before Ann is asked are on the first board, in order, and on its picture."""
    from render import ave_caesar as R

    h = harness
    h.bot.service._seed = lambda: 1005
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", neutral_chariots=True)
    thread = thread_of(h)
    game, state = await live(h)
    assert [s.name for s in sorted(game.seats, key=lambda s: s.seat)] == ["Ann", "AI"]
    assert [ch["label"] for ch in state["chariots"]] == ["A", "B", "N1", "N2", "N3", "N4"]
    board = latest_board(h, thread)
    assert len(boards(h, thread)) == 1 and to_act(board) == [ANN]
    lines = board["content"].split("\n")
    assert lines[0].startswith("Game #1 of Ave Caesar begins!")
    assert lines[1] == ("🏟️ **A championship of 4 races.** Race 1 — Track A (Circus Maximus), clockwise, "
                        "three laps.")
    assert lines[2] == "For the start every player's chariot turned up a card: A (**Ann**) 5, B (**AI**) 5."
    assert lines[3] == "Tied at 5, they turned again: A (**Ann**) 4, B (**AI**) 6."
    assert lines[4].startswith("B (**AI**) won the tie-break with a 6 and takes start space I")
    assert lines[5] == ("Start: I B (**AI**), II A (**Ann**), III N1 (neutral), IV N2 (neutral), "
                        "V N3 (neutral), VI N4 (neutral).")
    moved = lines[6:-1]
    assert moved[0].startswith("B (**AI**) plays a ")
    assert [ln.split(" ")[0] for ln in moved[1:]] == ["N1", "N2", "N3", "N4"]
    assert all("(neutral) turns up a" in ln or "(neutral) is boxed in" in ln for ln in moved[1:])
    assert lines[-1].startswith(f"<@{ANN}>, your turn: race 1/4: move **A** (lap 1/3")
    assert "highest card" not in lines[-1]  # said once, above
    # the picture shows those moves (and names the players in its table)
    view = {**ENGINE.view(state, None), "player_names": ["Ann", "AI"]}
    assert [item["chariot"] for item in view["last"]] == [1, 2, 3, 4, 5]
    assert board_images(h)[-1] == R.render_public(view)
    h.assert_no_errors()


async def test_against_the_ai_the_table_is_the_smallest_the_options_allow(harness):
    """Without `players`, opponent:AI seats you and one AI driver, whatever the other options."""
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", chariots_per_player=2)
    game, state = await live(h)
    assert game.status == "running" and game.num_players == 2
    assert [s.name for s in sorted(game.seats, key=lambda s: s.seat)] == ["Ann", "AI"]
    assert [ch["label"] for ch in state["chariots"]] == ["A1", "B1", "A2", "B2"]
    await h.slash(BOB, "ave-caesar new", name="Bob", opponent="ai", neutral_chariots=True, races=2)
    game, state = await live(h, 2)
    assert game.num_players == 2 and [ch["label"] for ch in state["chariots"]] == ["A", "B", "N1", "N2", "N3", "N4"]
    board = latest_board(h, thread_of(h))
    assert "Game #2 of Ave Caesar begins! Bob (Chariots A), AI (Chariots B)" in board["content"]
    assert "**A championship of 2 races.** Race 1" in board["content"]
    # an open lobby still waits for the largest table the options allow
    await h.slash(CAROL, "ave-caesar new", name="Carol", chariots_per_player=2)
    lobby = h.messages_in(thread_of(h))[0]
    assert lobby["embeds"][0]["fields"][0]["name"] == "Seats (1/3):"
    h.assert_no_errors()


async def test_standings_picture_comes_with_the_board_when_a_race_ends(harness, tmp_path):
    """A two-race championship against the AI: the board that ends race 1 carries a second picture, the
    standings by player name, next to the race result, the championship laurels and the start of race 2
    (who came last and starts on I). Boards before it carry one picture only."""
    from render import ave_caesar as R

    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", players=2, chariots_per_player=1,
                  races=2)
    thread = thread_of(h)
    rng = Rng(5)
    for _ in range(60):
        board = latest_board(h, thread)
        if "**Race 1 result:**" in board["content"]:
            break
        assert len(board["attachments"]) == 1, "no standings picture while race 1 runs"
        await drive(h, thread, rng, checks=False, smart=True)
    board = latest_board(h, thread)
    assert "**Race 1 result:**" in board["content"], "race 1 did not end"
    game, state = await live(h)
    names = [a["filename"] for a in board["attachments"]]
    assert names == [f"ave-caesar-1-v{game.version}.png", f"ave-caesar-1-v{game.version}-1.png"]
    sent = next(s for s in reversed(h.fake.sent) if names[1] in s.files)
    standings = sent.files[names[1]]
    assert standings == R.render_standings({**ENGINE.view(state, None), "player_names": ["Ann", "AI"]})
    assert sent.files[names[0]] == R.render_public({**ENGINE.view(state, None), "player_names": ["Ann", "AI"]})
    (tmp_path / "standings.png").write_bytes(standings)
    (tmp_path / "board.png").write_bytes(sent.files[names[0]])
    text = board["content"]
    assert "Championship after race 1 of 2: " in text and "🏟️ **Race 2 of 2** — Track B" in text
    last = ENGINE.view(state, None)["grid"][0]
    who = f"{'AB'[last]} (**{['Ann', 'AI'][last]}**)"
    assert f"{who} came last in race 1 and starts on I; the others follow in table order." in text
    assert f"Start: I {who}, II " in text
    assert not game_over(board) and to_act(board) == [ANN]
    h.assert_no_errors()


async def test_rules_pages_exist_and_fit(harness):
    from cogs.rules import pages

    found = pages("ave-caesar")
    assert [title for title, _ in found][-1] == "Playing it here"
    assert len(found) >= 5 and all(len(body) < 4000 for _, body in found)
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "rules", game="ave-caesar")
    reply = since(h, before)[-1]
    assert reply["embeds"][0]["title"].startswith("Ave Caesar")
    h.assert_no_errors()


def test_hands_are_secret_choices():
    state = ENGINE.new_game(2, 1, {})
    seat = ENGINE.to_act(state)[0]
    view = ENGINE.view(state, seat)
    choices = [PRESENTER.describe(view, a, i) for i, a in enumerate(ENGINE.legal_actions(state, seat))]
    assert choices and all(c.secret for c in choices)
    assert json.dumps(PRESENTER.prompt(view)).find("AC") == -1



async def test_neutral_chariots_moved_by_the_players_vote(harness):
    """``neutral_vote``: a neutral chariot whose card leaves several spaces waits for every player's vote (the
    AI votes by itself, the person on a private panel); the majority moves it, as the book says."""
    from tests.cogs.driver import take_turn
    h = harness
    await h.slash(ANN, "ave-caesar new", name="Ann", opponent="ai", players=3, neutral_chariots=True,
                  neutral_vote=True, races=1)
    thread = thread_of(h)
    game, state = await live(h)
    assert game.options["engine"]["neutral_vote"] is True
    rng = Rng(3)
    asked_to_vote = 0
    for _ in range(300):
        board = latest_board(h, thread)
        if game_over(board):
            break
        game, state = await live(h)
        if state["race"].get("vote") is not None:
            assert "vote where it goes" in board["content"]
            assert ENGINE.to_act(state) == [0], "the AI drivers voted at once: only Ann is still asked"
            asked_to_vote += 1
        await take_turn(h, thread, rng)
    assert game_over(latest_board(h, thread))
    text = lines_of(h, thread)
    assert asked_to_vote and "the players vote where it goes" in text
    assert "the vote is in (Ann:" in text or "the vote is tied (Ann:" in text
    h.assert_no_errors()
