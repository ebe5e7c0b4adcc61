"""Languages on Discord: a game is played in the language chosen when it was opened (by default the opener's
Discord language), while a reply meant for one person is in that person's language."""

from __future__ import annotations

from host.locale import t
from tests.cogs.driver import latest_board
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, thread_of
from tests.discord_harness import CHANNEL_ID, button, components


async def test_a_hungarian_opener_gets_a_hungarian_game_and_others_get_replies_in_their_language(harness):
    h = harness
    h.payloads.locales[ANN] = "hu"
    await h.slash(ANN, "hector-achilles new", name="Ann")
    thread = thread_of(h)
    lobby = h.messages_in(thread)[0]
    assert lobby["embeds"][0]["title"] == t("lobby_title", "hu", title="Hector and Achilles", game=1)
    announce = [m for m in h.messages_in(CHANNEL_ID) if "Hector and Achilles" in m["content"]][-1]
    assert "játékot nyitott" in announce["content"]
    await h.click(BOB, lobby, button(lobby, "Csatlakozás")["custom_id"], name="Bob")
    board = latest_board(h, thread)
    assert f"<@{ANN}>, te jössz:" in board["content"]
    # Bob (an English client) clicks out of turn: the refusal is his, in English
    action = next(c for c in components(board) if c["custom_id"].startswith("gh:a:"))
    before = len(h.fake.messages)
    await h.click(BOB, board, action["custom_id"], name="Bob")
    refusal = [m for m in list(h.fake.messages.values())[before:] if m["flags"] & 64]
    assert refusal and "It is not your turn" in refusal[-1]["content"]
    h.assert_no_errors()


async def test_the_language_option_overrides_the_openers_own(harness):
    h = harness
    await h.slash(CAROL, "hector-achilles new", name="Carol", opponent="ai", language="pl")
    board = latest_board(h, thread_of(h))
    assert f"<@{CAROL}>, twoja kolej:" in board["content"]
    game = await h.bot.service.game(1)
    assert game.lang == "pl"
    h.assert_no_errors()
