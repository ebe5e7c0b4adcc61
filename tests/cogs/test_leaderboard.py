"""/leaderboard: the server's Elo table of a game, from finished games between people, in the reader's
language; games against the AI and other servers' games do not count."""

from __future__ import annotations

from tests.cogs.test_hector_achilles_discord import ANN, BOB, CAROL
from tests.discord_harness import GUILD_ID


async def finished(h, places: dict[int, int], guild: int = GUILD_ID, ai: bool = False) -> None:
    """A finished Hector and Achilles game in the store: ``places[user] = place``."""
    store = h.bot.service.store
    users = list(places)
    gid = await store.create_game(engine="hector-achilles", options={}, seed=1, num_players=2, guild_id=guild,
                                  channel_id=1, host_user_id=users[0])
    for seat, user in enumerate(users):
        await store.set_seat(gid, seat, user_id=user, name={ANN: "Ann", BOB: "Bob", CAROL: "Carol"}[user])
    if ai:
        await store.set_seat(gid, 1, ai_level="standard", name="AI")
    await store.start_game(gid, num_players=2, snapshot={}, rules_version=1)
    result = {"places": [places[u] for u in users] + ([2] if ai else []), "scores": [0, 0], "reason": "test"}
    await store.commit_action(gid, expected_version=0, seat=0, user_id=users[0], action={"type": "x"}, events=[],
                              snapshot={}, result=result)


async def board(h, user: int) -> dict:
    before = len(h.fake.messages)
    await h.slash(user, "leaderboard", game="hector-achilles", name="Somebody")
    (reply,) = [m for m in list(h.fake.messages.values())[before:] if m["embeds"]]
    return reply


async def test_the_leaderboard_ranks_people_by_their_finished_games(harness):
    h = harness
    empty = await board(h, CAROL)
    assert "No finished games" in empty["embeds"][0]["description"]
    await finished(h, {ANN: 1, BOB: 2})
    await finished(h, {ANN: 1, BOB: 2})
    await finished(h, {BOB: 1, CAROL: 2})
    await finished(h, {CAROL: 1}, ai=True)  # against the AI: not counted
    await finished(h, {CAROL: 1, ANN: 2}, guild=999)  # another server: not counted
    reply = await board(h, CAROL)
    assert not reply["flags"] & 64, "the table is for everybody in the channel"
    lines = reply["embeds"][0]["description"].split("\n")
    assert [line.split("**")[1] for line in lines] == ["Ann", "Bob", "Carol"]
    assert lines[0].startswith("🥇") and "(2 played, 2 won)" in lines[0]
    assert "(3 played, 1 won)" in lines[1] and "(1 played, 0 won)" in lines[2]
    ratings = [int(line.split("— ")[1].split(" ")[0]) for line in lines]
    assert ratings[0] > 1500 > ratings[2]
    h.payloads.locales[BOB] = "hu"
    hungarian = await board(h, BOB)
    assert "ranglista" in hungarian["embeds"][0]["title"] and "győzelem" in hungarian["embeds"][0]["description"]
    h.assert_no_errors()
