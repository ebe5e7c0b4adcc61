"""Servers are fenced off: a game (or league) exists only on the server it was opened on; in a direct message
a person sees only the games they have a seat in; a moderator acts only on their own server's games. Every
command and every kind of control is tried from outside, through the real discord.py dispatch."""

from __future__ import annotations

import pytest

from tests.cogs.driver import latest_board
from tests.cogs.fence import from_dm, from_other_server, message_with, send
from tests.cogs.test_commands import MANAGE
from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL, thread_of
from tests.discord_harness import CHANNEL_ID, button, components

NO_SUCH = "There is no game #"


async def two_games(h) -> tuple[int, int]:
    """Game 1: Ann's open lobby; game 2: Ann against the AI, running. Both on the harness's server."""
    await h.slash(ANN, "hector-achilles new", name="Ann")
    lobby_thread = thread_of(h)
    await h.slash(ANN, "hector-achilles new", name="Ann", opponent="ai")
    return lobby_thread, thread_of(h)


async def snapshot(h) -> list[tuple]:
    rows = [await h.bot.service.store.get_game(i) for i in (1, 2)]
    return [(g.status, g.version, [(s.seat, s.user_id) for s in g.seats]) for g in rows]


def refused(replies: list[dict], game: int) -> bool:
    """Every reply is private, says "no such game" and shows nothing of the game (no board, no buttons)."""
    return bool(replies) and all(m["flags"] & 64 for m in replies) and any(
        f"{NO_SUCH}{game}." in m["content"] for m in replies) and not any(
        m["attachments"] or components(m) or m["embeds"] for m in replies)


COMMANDS = [  # (user, command, options, game it names)
    (CAROL, "game join", {"game": 1}, 1),
    (ANN, "game start", {"game": 1}, 1),
    (CAROL, "game status", {"game": 2}, 2),
    (CAROL, "game log", {"game": 2}, 2),
    (ANN, "game hand", {"game": 2}, 2),
    (ANN, "game play", {"game": 2, "move": "vanguard"}, 2),
    (ANN, "game leave", {"game": 2}, 2),
]


@pytest.mark.parametrize(("user", "command", "options", "game"), COMMANDS, ids=[c[1] for c in COMMANDS])
async def test_a_game_does_not_exist_on_another_server(harness, user, command, options, game):
    h = harness
    await two_games(h)
    before = await snapshot(h)
    replies = await send(h, from_other_server(h, h.payloads.slash(user, command, name="X", **options)))
    assert refused(replies, game), [m["content"] for m in replies]
    # exactly what a game number nobody ever used gets: nothing tells that the game exists
    unused = await send(h, from_other_server(h, h.payloads.slash(user, command, name="X",
                                                                 **{**options, "game": 99})))
    assert [m["content"].replace("#99", f"#{game}") for m in unused] == [m["content"] for m in replies]
    assert await snapshot(h) == before
    h.assert_no_errors()


async def test_a_moderator_of_another_server_cannot_abandon_a_game(harness):
    h = harness
    await two_games(h)
    replies = await send(h, from_other_server(h, h.payloads.slash(CAROL, "game abandon", name="Mod",
                                                                  permissions=MANAGE, game=2)))
    assert any(f"{NO_SUCH}2." in m["content"] for m in replies)
    assert (await h.bot.service.game(2)).status == "running"
    # on the game's own server, the same moderator can
    await h.slash(CAROL, "game abandon", name="Mod", permissions=MANAGE, game=2)
    assert (await h.bot.service.game(2)).status == "abandoned"
    h.assert_no_errors()


async def test_game_list_and_the_thread_lookup_stay_on_their_server(harness):
    h = harness
    _, thread = await two_games(h)
    replies = await send(h, from_other_server(h, h.payloads.slash(CAROL, "game list", name="Carol")))
    assert [m["content"] for m in replies] == ["No open or running games here."]
    # Ann's only running game is not "hers" on another server either
    replies = await send(h, from_other_server(h, h.payloads.slash(ANN, "game status", name="Ann")))
    assert not any(m["attachments"] for m in replies)
    assert any("No game of yours" in m["content"] or "no game" in m["content"].lower() for m in replies)
    # at home both games are listed
    before = len(h.fake.messages)
    await h.slash(CAROL, "game list", name="Carol")
    listing = list(h.fake.messages.values())[before:][-1]["embeds"][0]["description"]
    assert "**#1**" in listing and "**#2**" in listing
    h.assert_no_errors()


async def test_controls_of_a_game_do_nothing_on_another_server(harness):
    """Every kind of control of a game, clicked where the game does not belong."""
    h = harness
    lobby_thread, thread = await two_games(h)
    before = await snapshot(h)
    version = before[1][1]
    lobby = h.messages_in(lobby_thread)[0]
    board = latest_board(h, thread)
    act = next(c["custom_id"] for c in components(board) if c["custom_id"].startswith("gh:a:"))
    clicks = [
        (CAROL, lobby, button(lobby, "Join")["custom_id"], None, 1),
        (ANN, lobby, button(lobby, "Start")["custom_id"], None, 1),
        (ANN, board, act, None, 2),
        (ANN, board, button(board, "My hand")["custom_id"], None, 2),
        (ANN, message_with(h, thread, "gh:t:2"), "gh:t:2", None, 2),
        (ANN, message_with(h, thread, f"gh:s:2:{version}:0:0", select=True), f"gh:s:2:{version}:0:0", ["0"], 2),
        (ANN, message_with(h, thread, f"gh:g:2:{version}:0:0", select=True), f"gh:g:2:{version}:0:0", ["0"], 2),
        (ANN, message_with(h, thread, f"gh:gb:2:{version}:0:0"), f"gh:gb:2:{version}:0:0", None, 2),
        (ANN, message_with(h, thread, f"gh:pg:2:{version}:0:0:1"), f"gh:pg:2:{version}:0:0:1", None, 2),
        (ANN, message_with(h, thread, "gh:lg:2:1:0"), "gh:lg:2:1:0", None, 2),  # a page of /game log
        # the ways to make a choice (who pays a HEX-TRI move), as a button and as a select's option
        (ANN, message_with(h, thread, f"gh:w:2:{version}:0:0"), f"gh:w:2:{version}:0:0", None, 2),
        (ANN, message_with(h, thread, f"gh:s:2:{version}:0:0", select=True), f"gh:s:2:{version}:0:0", ["w0"], 2),
        (ANN, message_with(h, thread, f"gh:s:2:{version}:0:0", select=True), f"gh:s:2:{version}:0:0", ["0.1"], 2),
    ]
    for user, message, custom_id, values, game in clicks:
        replies = await send(h, from_other_server(h, h.payloads.click(user, message, custom_id, values=values)))
        assert refused(replies, game), (custom_id, [m["content"] for m in replies])
    assert await snapshot(h) == before
    # Rematch of a finished game
    await h.bot.service.store.set_status(2, "finished", {"places": [1, 2], "scores": [1, 0], "reason": "test"})
    rematch = message_with(h, thread, "gh:rm:2")
    replies = await send(h, from_other_server(h, h.payloads.click(ANN, rematch, "gh:rm:2")))
    assert refused(replies, 2) and await h.bot.service.store.get_game(3) is None
    h.assert_no_errors()


async def test_in_direct_messages_a_person_sees_only_their_own_games(harness):
    h = harness
    await two_games(h)
    before = await snapshot(h)
    # Carol has no seat anywhere: nothing is listed, and no game can be looked at or joined
    replies = await send(h, from_dm(h, h.payloads.slash(CAROL, "game list", name="Carol"), CAROL))
    assert [m["content"] for m in replies] == ["No open or running games here."]
    for command, options, game in [("game status", {"game": 2}, 2), ("game log", {"game": 2}, 2),
                                   ("game hand", {"game": 2}, 2), ("game join", {"game": 1}, 1)]:
        replies = await send(h, from_dm(h, h.payloads.slash(CAROL, command, name="Carol", **options), CAROL))
        assert refused(replies, game), (command, [m["content"] for m in replies])
    assert await snapshot(h) == before
    # Ann's DM lists her two games (opened on the server) and shows her board
    replies = await send(h, from_dm(h, h.payloads.slash(ANN, "game list", name="Ann"), ANN))
    listing = replies[-1]["embeds"][0]["description"]
    assert "**#1**" in listing and "**#2**" in listing
    replies = await send(h, from_dm(h, h.payloads.slash(ANN, "game status", name="Ann", game=2), ANN))
    assert any(m["attachments"] for m in replies)
    h.assert_no_errors()


async def test_in_direct_messages_only_the_games_players_use_its_controls(harness):
    h = harness
    _, thread = await two_games(h)
    board = latest_board(h, thread)
    replies = await send(h, from_dm(h, h.payloads.click(CAROL, board, button(board, "My hand")["custom_id"]), CAROL))
    assert refused(replies, 2)
    # Ann's own DM panel works
    replies = await send(h, from_dm(h, h.payloads.click(ANN, board, button(board, "My hand")["custom_id"]), ANN))
    assert any(m["attachments"] for m in replies)
    h.assert_no_errors()


async def test_a_league_exists_only_on_its_server(harness):
    h = harness
    await h.slash(ANN, "tournament new", game="hector-achilles", name="Ann")
    league = next(m for m in h.messages_in(CHANNEL_ID) if m["embeds"] and "League #1" in m["embeds"][0]["title"])
    for user, custom_id in ((CAROL, button(league, "Join")["custom_id"]), (ANN, button(league, "Start")["custom_id"])):
        replies = await send(h, from_other_server(h, h.payloads.click(user, league, custom_id)))
        assert any("There is no tournament #1." in m["content"] and m["flags"] & 64 for m in replies), replies
    replies = await send(h, from_other_server(h, h.payloads.slash(CAROL, "tournament table", tournament=1)))
    assert [m["content"] for m in replies] == ["There is no tournament #1."] and not replies[0]["embeds"]
    replies = await send(h, from_dm(h, h.payloads.slash(CAROL, "tournament table", tournament=1), CAROL))
    assert [m["content"] for m in replies] == ["There is no tournament #1."]
    league_row = await h.bot.service.store.tournament(1)
    assert league_row.status == "open" and [u for u, _ in league_row.entries] == [ANN]
    # at home Bob joins as before
    await h.click(BOB, league, button(league, "Join")["custom_id"], name="Bob")
    assert [u for u, _ in (await h.bot.service.store.tournament(1)).entries] == [ANN, BOB]
    h.assert_no_errors()
