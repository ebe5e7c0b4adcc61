"""A server's worth of games for the web companion's tests, browser tests and benchmark: finished games between
people (with Discord-sized ids), a game being played against the AI, an elimination tournament after its first
round, all in a real store behind a real :class:`web.app.WebServer` on a free loopback port."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import ai
from engines import ENGINES
from engines.rng import Rng
from host import replays
from host.service import GameService
from host.tournaments import TournamentService
from host.weblinks import Site, WebLinks
from store import SqliteStore, Store
from web.app import WebServer, make_context

GUILD = 1_234_567_890_123_456_789
OTHER_GUILD = 1_111_111_111_111_111_111
CHANNEL = 1_234_567_890_000_000_001
#: people with Discord-sized ids (none of them may ever appear in a page)
PEOPLE = [(998_877_665_544_332_211 + i, name) for i, name in enumerate(
    ["Ádám", "Zofia Łukasiewicz", "Brigitta", "Kazimierz", "Eszter", "Wojciech", "Csenge", "Małgorzata"])]
PUBLIC_URL = "http://web.test"


@dataclass
class World:
    store: Store
    service: GameService
    tournaments: TournamentService
    links: WebLinks
    site: Site
    server: WebServer
    finished: list[int] = field(default_factory=list)
    running: int | None = None
    tournament: int | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def path(self, url: str | None) -> str:
        """A link the bot would post, on this test server."""
        assert url is not None and url.startswith(PUBLIC_URL)
        return self.base + url[len(PUBLIC_URL):]

    async def url(self, kind: str, number: int) -> str:
        return self.path(await getattr(self.links, kind)(GUILD, number))


async def play_game(store: Store, key: str, *, seed: int, people: list[tuple[int, str]], num: int = 2,
                    guild_id: int = GUILD, steps: int | None = None, lang: str = "en") -> int:
    """A game played by random legal moves and saved as the service saves games (people in the first seats,
    the AI in the rest); to the end, or ``steps`` actions."""
    engine = ENGINES[key]
    game_id = await store.create_game(engine=key, options={"engine": {}, "players": num, "lang": lang}, seed=seed,
                                      num_players=num, guild_id=guild_id, channel_id=CHANNEL,
                                      host_user_id=people[0][0])
    for seat in range(num):
        if seat < len(people):
            await store.set_seat(game_id, seat, user_id=people[seat][0], name=people[seat][1])
        else:
            await store.set_seat(game_id, seat, ai_level="normal", name=f"AI {seat + 1}")
    record = replays.Record(key, seed, num, {}, engine.rules_version, [], [], lang)
    state = replays.start_state(record)
    await store.start_game(game_id, num_players=num, snapshot=engine.to_json(state),
                           rules_version=engine.rules_version)
    rng, version = Rng(seed), 0
    while engine.result(state) is None and (steps is None or version < steps):
        seat = engine.to_act(state)[0]
        action = ai.random_player(engine, state, seat, rng)
        events = engine.apply(state, seat, action)
        version = await store.commit_action(game_id, expected_version=version, seat=seat, user_id=None,
                                            action=action, events=events, snapshot=engine.to_json(state),
                                            result=engine.result(state))
    return game_id


async def elimination(tournaments: TournamentService, people: list[tuple[int, str]], *, key: str = "troja",
                      guild_id: int = GUILD, settle_rounds: int = 1) -> int:
    """An elimination tournament of ``people`` with its first ``settle_rounds`` rounds decided (the better seed
    wins each match)."""
    organizer, name = people[0]
    event = await tournaments.create(key, user_id=organizer, user_name=name, guild_id=guild_id, channel_id=CHANNEL,
                                     format="elimination")
    for user_id, user_name in people[1:]:
        await tournaments.join(event.id, user_id, user_name)
    await tournaments.start(event.id, organizer)
    for _ in range(settle_rounds):
        event = await tournaments.tournament(event.id)
        for match in await tournaments.store.matches(event.id, event.round):
            if match.places is None and len(match.players) == 2:
                await tournaments.adjudicate(event.id, organizer, match.id, [1, 2])
    return event.id


@contextlib.asynccontextmanager
async def world(folder, *, rate_per_minute: int | None = None, poll_s: float = 0.2,
                games: bool = True) -> AsyncIterator[World]:
    """The test server: its store in ``folder``, the web companion on a free loopback port."""
    store = await SqliteStore.open(folder / "web.db")
    seeds = iter(range(1000, 10**6))
    service = GameService(store, seed_source=lambda: next(seeds), render_processes=0)
    tournaments = TournamentService(service)
    links = WebLinks(store, PUBLIC_URL)
    site = await links.site(GUILD, name="Dice & Boards")
    context = make_context(service, tournaments, poll_s=poll_s)
    server = WebServer(context, port=0, rate_per_minute=rate_per_minute)
    await server.start()
    found = World(store, service, tournaments, links, site, server)
    try:
        if games:
            found.finished.append(await play_game(store, "troja", seed=11, people=PEOPLE[:2]))
            found.finished.append(await play_game(store, "hector-achilles", seed=12, people=[PEOPLE[1], PEOPLE[0]]))
            found.finished.append(await play_game(store, "hextri", seed=13, people=PEOPLE[:3], num=3))
            game, _ = await service.create("ave-caesar", user_id=PEOPLE[0][0], user_name=PEOPLE[0][1],
                                           guild_id=GUILD, channel_id=CHANNEL, opponent="ai")
            found.running = game.id
            found.tournament = await elimination(tournaments, PEOPLE)
        yield found
    finally:
        await server.stop()
        service.close()
        await store.close()
