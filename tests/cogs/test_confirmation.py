"""Issue 25, item 4: choices that lose something for good ask "Are you sure?" first (a private question with
a confirming and a cancelling button), through the real dispatch; a player may turn the questions off in
``/game settings``."""

from __future__ import annotations

from engines import ENGINES
from engines.rng import Rng
from tests.cogs.driver import latest_board, take_turn
from tests.cogs.test_hector_achilles_discord import ANN, BOB, thread_of
from tests.cogs.test_troja_discord import choices_of, open_panel
from tests.discord_harness import button, components


def replies_since(h, before: int) -> list[dict]:
    return list(h.fake.messages.values())[before:]


async def panel_with_retreat(h, thread: int) -> dict:
    """Ann's private panel (against the AI) at a decision that offers a retreat."""
    rng = Rng(4)
    for _ in range(60):
        await h.settle()
        if not any(c.get("label") == "Take your turn" for c in components(latest_board(h, thread))):
            await take_turn(h, thread, rng)  # a public choice on the board (a vanguard, the fate tile)
            continue
        panel = await open_panel(h, thread, ANN)
        if any(label.startswith("Retreat") for label, _, _ in choices_of(panel)):
            return panel
        await take_turn(h, thread, rng)
    raise AssertionError("no retreat was offered")


async def click_retreat(h, panel: dict) -> list[dict]:
    (label, comp, option), *_ = [c for c in choices_of(panel) if c[0].startswith("Retreat")]
    before = len(h.fake.messages)
    if option is None:
        await h.click(ANN, panel, comp["custom_id"], name="Ann")
    else:
        await h.click(ANN, panel, comp["custom_id"], values=[option["value"]], name="Ann")
    return replies_since(h, before)


async def test_a_retreat_asks_first_and_nothing_happens_until_yes(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    panel = await panel_with_retreat(h, thread)
    version = (await h.bot.service.game(1)).version
    (ask,) = [m for m in await click_retreat(h, panel) if "Are you sure?" in m["content"]]
    assert ask["flags"] & 64, "the question is only for the player"
    assert "Retreat: lose the battle" in ask["content"] and "cannot be taken back" in ask["content"]
    assert "/game settings confirm:False" in ask["content"]
    assert [c["label"] for c in components(ask)] == ["Yes, do it", "No, keep playing"]
    assert (await h.bot.service.game(1)).version == version, "nothing is applied before the second click"
    assert "retreats" not in latest_board(h, thread)["content"]

    # "No": the question goes, the game is as it was
    await h.click(ANN, ask, button(ask, "No, keep playing")["custom_id"], name="Ann")
    ask = h.fake.messages[int(ask["id"])]
    assert ask["content"] == "Cancelled: nothing was changed." and not components(ask)
    assert (await h.bot.service.game(1)).version == version

    # asked again, "Yes": the retreat is made, once
    panel = await open_panel(h, thread, ANN)
    (ask,) = [m for m in await click_retreat(h, panel) if "Are you sure?" in m["content"]]
    await h.click(ANN, ask, button(ask, "Yes, do it")["custom_id"], name="Ann")
    await h.settle()
    assert ask["content"].startswith("Done: Retreat") and not components(ask), "the spent question says what was done"
    game = await h.bot.service.game(1)
    assert game.version > version
    retreats = [a for a in await h.bot.service.store.actions(1) if a["action"]["type"] == "retreat"]
    assert len(retreats) == 1 and retreats[0]["seat"] == 0
    assert any("**Ann** (Achaeans) retreats" in m["content"] for m in h.messages_in(thread))

    h.assert_no_errors()


async def test_a_question_left_open_while_the_game_moves_on_is_out_of_date(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    panel = await panel_with_retreat(h, thread)
    (ask,) = [m for m in await click_retreat(h, panel) if "Are you sure?" in m["content"]]
    # Ann plays something else instead
    other = [c for c in choices_of(panel) if not c[0].startswith("Retreat")]
    fresh = await open_panel(h, thread, ANN)
    label, comp, option = [c for c in choices_of(fresh) if not c[0].startswith("Retreat")][0]
    assert other
    if option is None:
        await h.click(ANN, fresh, comp["custom_id"], name="Ann")
    else:
        await h.click(ANN, fresh, comp["custom_id"], values=[option["value"]], name="Ann")
    await h.settle()
    before = len(h.fake.messages)
    await h.click(ANN, ask, button(ask, "Yes, do it")["custom_id"], name="Ann")
    assert any("out of date" in m["content"] for m in replies_since(h, before))
    assert not [a for a in await h.bot.service.store.actions(1) if a["action"]["type"] == "retreat"]
    h.assert_no_errors()


async def test_turned_off_in_settings_a_retreat_is_made_at_once(harness):
    h = harness
    before = len(h.fake.messages)
    await h.slash(ANN, "game settings", name="Ann", confirm=False)
    (reply,) = replies_since(h, before)
    assert "before choices that lose something for good: **—**" in reply["content"]
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    panel = await panel_with_retreat(h, thread)
    assert not [m for m in await click_retreat(h, panel) if "Are you sure?" in m["content"]]
    await h.settle()
    assert [a for a in await h.bot.service.store.actions(1) if a["action"]["type"] == "retreat"]
    # and on again
    before = len(h.fake.messages)
    await h.slash(ANN, "game settings", name="Ann", confirm=True)
    assert "before choices that lose something for good: **✅**" in replies_since(h, before)[0]["content"]
    h.assert_no_errors()


async def test_ordinary_choices_are_not_asked_about(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    thread = thread_of(h)
    rng = Rng(11)
    for _ in range(15):
        await h.settle()
        before = len(h.fake.messages)
        if not any(c.get("label") == "Take your turn" for c in components(latest_board(h, thread))):
            await take_turn(h, thread, rng)  # a public choice on the board (a vanguard, the fate tile)
            assert not [m for m in replies_since(h, before) if "Are you sure?" in m["content"]]
            continue
        panel = await open_panel(h, thread, ANN)
        label, comp, option = [c for c in choices_of(panel) if not c[0].startswith("Retreat")][0]
        if option is None:
            await h.click(ANN, panel, comp["custom_id"], name="Ann")
        else:
            await h.click(ANN, panel, comp["custom_id"], values=[option["value"]], name="Ann")
        assert not [m for m in replies_since(h, before) if "Are you sure?" in m["content"]]
        if "Game over" in latest_board(h, thread)["content"]:
            break
    h.assert_no_errors()


async def _two_player_game(h) -> int:
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    await h.click(BOB, lobby, button(lobby, "Join")["custom_id"], name="Bob")
    await h.settle()
    return thread


async def test_leaving_a_running_game_asks_first(harness):
    h = harness
    thread = await _two_player_game(h)
    before = len(h.fake.messages)
    await h.slash(BOB, "game leave", channel_id=thread, name="Bob")
    (ask,) = [m for m in replies_since(h, before) if "Leave game #1?" in m["content"]]
    assert ask["flags"] & 64 and "cannot come back" in ask["content"]
    game = await h.bot.service.game(1)
    assert not game.seats[1].is_ai, "Bob keeps his seat until he confirms"
    await h.click(BOB, ask, button(ask, "No, keep playing")["custom_id"], name="Bob")
    assert not (await h.bot.service.game(1)).seats[1].is_ai
    before = len(h.fake.messages)
    await h.slash(BOB, "game leave", channel_id=thread, name="Bob")
    (ask,) = [m for m in replies_since(h, before) if "Leave game #1?" in m["content"]]
    await h.click(BOB, ask, button(ask, "Leave the game")["custom_id"], name="Bob")
    await h.settle()
    assert (await h.bot.service.game(1)).seats[1].is_ai
    assert not components(h.fake.messages[int(ask["id"])]), "the spent question loses its buttons"
    assert any("Bob left game #1" in m["content"] for m in replies_since(h, before))
    h.assert_no_errors()


async def test_leaving_a_lobby_is_not_asked_and_settings_off_leave_at_once(harness):
    h = harness
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = thread_of(h)
    before = len(h.fake.messages)
    await h.slash(ANN, "game leave", channel_id=thread, name="Ann")
    assert not [m for m in replies_since(h, before) if "Leave game" in m["content"]]
    assert any("Ann left game #1" in m["content"] for m in replies_since(h, before))

    thread = await _two_player_game(h)
    await h.slash(BOB, "game settings", name="Bob", confirm=False)
    before = len(h.fake.messages)
    await h.slash(BOB, "game leave", channel_id=thread, name="Bob")
    await h.settle()
    assert not [m for m in replies_since(h, before) if "Leave game" in m["content"]]
    assert (await h.bot.service.game(2)).seats[1].is_ai
    h.assert_no_errors()


async def test_resign_asks_first_unless_turned_off(harness):
    h = harness
    thread = await _two_player_game(h)
    before = len(h.fake.messages)
    await h.slash(ANN, "game resign", channel_id=thread, name="Ann")
    (ask,) = [m for m in replies_since(h, before) if "Resign game #1?" in m["content"]]
    await h.click(ANN, ask, button(ask, "No, keep playing")["custom_id"], name="Ann")
    assert (await h.bot.service.game(1)).status == "running"
    await h.slash(ANN, "game settings", name="Ann", confirm=False)
    before = len(h.fake.messages)
    await h.slash(ANN, "game resign", channel_id=thread, name="Ann")
    await h.settle()
    assert any("resigned" in m["content"].lower() or "gave up" in m["content"].lower()
               for m in replies_since(h, before)), [m["content"] for m in replies_since(h, before)]
    game = await h.bot.service.game(1)
    assert game.status == "finished" and game.result["places"] == [2, 1]
    h.assert_no_errors()


def test_every_game_asks_only_about_what_is_lost_for_good():
    """The presenters' questions: a Hector retreat always; a HEX-TRI pass that ends the movement phase while a
    move is possible; a Kiválasztottak pass that ends the maneuvers phase while something else is possible."""
    from host.presenters import presenter_for
    hector, hextri, kiva = (presenter_for(k) for k in ("hector-achilles", "hextri", "kivalasztottak"))
    assert hector.confirm({}, {"type": "retreat", "shame": 1}, []) is not None
    assert hector.confirm({}, {"type": "play", "card": 1}, []) is None
    move, pas = {"type": "move"}, {"type": "pass"}
    players = [{"alive": True}, {"alive": True}, {"alive": False}]
    assert hextri.confirm({"phase": "move", "passes": 1, "players": players}, pas, [move, pas])
    assert hextri.confirm({"phase": "move", "passes": 0, "players": players}, pas, [move, pas]) is None
    assert hextri.confirm({"phase": "move", "passes": 1, "players": players}, pas, [pas]) is None
    assert hextri.confirm({"phase": "losses", "passes": 1, "players": players}, pas, [move, pas]) is None
    summon = {"type": "summon"}
    base = {"stage": "maneuvers", "thread": None, "maneuver": None}
    assert kiva.confirm({**base, "passes": 1}, pas, [summon, pas])
    assert kiva.confirm({**base, "passes": 0}, pas, [summon, pas]) is None
    assert kiva.confirm({**base, "passes": 1, "thread": []}, pas, [summon, pas]) is None
    assert kiva.confirm({**base, "passes": 1, "maneuver": {"kind": "siege"}}, pas, [summon, pas]) is None
    assert kiva.confirm({**base, "passes": 1}, pas, [pas]) is None
    for key in ENGINES:
        if key not in ("hector-achilles", "hextri", "kivalasztottak"):
            assert presenter_for(key).confirm({}, pas, [move, pas]) is None
