"""/leaderboard: the server's ratings (openskill) of a game, from finished games between people, in the reader's
language; games against the AI and other servers' games do not count."""

from __future__ import annotations

import discord

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
    ratings = [float(line.split("— ")[1].split(" ")[0]) for line in lines]
    assert ratings[0] > ratings[1] > ratings[2], "the conservative rating (mu - 3 sigma), best first"
    h.payloads.locales[BOB] = "hu"
    hungarian = await board(h, BOB)
    assert "ranglista" in hungarian["embeds"][0]["title"] and "győzelem" in hungarian["embeds"][0]["description"]
    h.assert_no_errors()


async def test_a_profile_shows_ratings_games_and_wins_per_game(harness):
    h = harness
    await finished(h, {ANN: 1, BOB: 2})
    await finished(h, {BOB: 1, ANN: 2})
    await finished(h, {ANN: 1, CAROL: 2})
    before = len(h.fake.messages)
    ann = {"id": str(ANN), "username": "ann", "discriminator": "0", "global_name": "Ann", "avatar": None}
    await h.slash(BOB, "profile", user=discord.Object(ANN), resolved={"users": {str(ANN): ann}}, name="Bob")
    (reply,) = [m for m in list(h.fake.messages.values())[before:] if m["embeds"]]
    (field,) = reply["embeds"][0]["fields"]
    assert field["name"] == "Hector and Achilles"
    assert "3 played, 2 won" in field["value"] and "#1" in field["value"]
    before = len(h.fake.messages)
    await h.slash(CAROL, "profile", name="Carol")  # one's own: one game, lost
    (mine,) = [m for m in list(h.fake.messages.values())[before:] if m["embeds"]]
    assert "1 played, 0 won" in mine["embeds"][0]["fields"][0]["value"]
    h.assert_no_errors()
