"""The web companion's store methods on both backends: a server's web settings (first writer wins), the public
list, the versions the live pages poll, a server's tournaments."""

from store import Store

GUILD = 1_234_567_890_123_456_789
OTHER = 1_234_567_890_123_456_790
USER = 987_654_321_098_765_432


async def test_web_sites_versions_and_tournaments(database):
    store = await Store.connect(database)
    try:
        assert await store.web_site(GUILD) is None
        made = await store.add_web_site(GUILD, slug="abc", secret="s1", name="Dice")
        assert made == {"guild_id": GUILD, "slug": "abc", "secret": "s1", "mode": "unlisted", "name": "Dice"}
        # a second process making the same server's row keeps the first one's slug and secret
        again = await store.add_web_site(GUILD, slug="xyz", secret="s2")
        assert again["slug"] == "abc" and again["secret"] == "s1"
        assert (await store.web_site_by_slug("abc"))["guild_id"] == GUILD
        assert await store.web_site_by_slug("xyz") is None
        await store.add_web_site(OTHER, slug="def", secret="s3")
        assert await store.public_web_sites() == []
        await store.set_web_site(OTHER, mode="public", name="Board gamers")
        assert [(s["slug"], s["name"]) for s in await store.public_web_sites()] == [("def", "Board gamers")]
        await store.set_web_site(GUILD, mode="off")
        assert (await store.web_site(GUILD))["mode"] == "off"

        gid = await store.create_game(engine="troja", options={}, seed=1, num_players=2, guild_id=GUILD,
                                      channel_id=1, host_user_id=USER)
        assert await store.game_versions([gid, gid + 99]) == {gid: (0, "lobby")}
        assert await store.game_versions([]) == {}
        await store.set_seat(gid, 0, user_id=USER, name="Ann")
        await store.set_seat(gid, 1, ai_level="normal", name="AI")
        await store.start_game(gid, num_players=2, snapshot={"turn": 0}, rules_version=1)
        await store.commit_action(gid, expected_version=0, seat=0, user_id=USER, action={"type": "x"}, events=[],
                                  snapshot={"turn": 1}, result=None)
        assert await store.game_versions([gid]) == {gid: (1, "running")}

        first = await store.create_event(engine="troja", lang="en", guild_id=GUILD, channel_id=1, organizer_id=USER,
                                         organizer_name="Ann", format="swiss", settings={"rounds": 3})
        second = await store.create_event(engine="hextri", lang="hu", guild_id=GUILD, channel_id=1,
                                          organizer_id=USER, organizer_name="Ann", format="elimination", settings={})
        await store.create_event(engine="hextri", lang="hu", guild_id=OTHER, channel_id=1, organizer_id=USER,
                                 organizer_name="Ann", format="elimination", settings={})
        listed = await store.guild_tournaments(GUILD)
        assert [t.id for t in listed] == [second, first] and listed[0].entries == [(USER, "Ann")]
        assert [t.id for t in await store.guild_tournaments(GUILD, limit=1)] == [second]
    finally:
        await store.close()
