"""The heaviest position of every game (tests/data/worst_positions.json, made by ``bench.worst_positions``) as
running games in a store, every seat a person: ``PLAYER + seat`` of server ``GUILD``."""

from __future__ import annotations

import json
from pathlib import Path

from engines import ENGINES

WORST = json.loads((Path(__file__).resolve().parent.parent / "data" / "worst_positions.json").read_text())
GUILD = 4242
PLAYER = 7_000_000


async def seat_worst(store, key: str, *, ai_seats: tuple[int, ...] = (), channel_id: int | None = None,
                     thread_id: int | None = None, guild_id: int = GUILD) -> int:
    """A running game of ``key`` in its worst position; returns its id."""
    entry = WORST[key]
    engine = ENGINES[key]
    n = entry["players"]
    game_id = await store.create_game(engine=key, options={"engine": entry["options"], "players": n, "lang": "en"},
                                      seed=entry["seed"], num_players=n, guild_id=guild_id, channel_id=channel_id,
                                      host_user_id=PLAYER)
    for seat in range(n):
        if seat in ai_seats:
            await store.set_seat(game_id, seat, ai_level="normal", name=f"AI {seat + 1}")
        else:
            await store.set_seat(game_id, seat, user_id=PLAYER + seat, name=f"Player {seat + 1}")
    await store.start_game(game_id, num_players=n, snapshot=entry["snapshot"],
                           rules_version=entry["snapshot"].get("rules_version", engine.rules_version))
    if thread_id is not None:
        await store.set_places(game_id, thread_id=thread_id)
    return game_id


def to_act(key: str) -> list[int]:
    """The seats to act in the worst position of ``key``."""
    engine = ENGINES[key]
    return engine.to_act(engine.from_json(WORST[key]["snapshot"]))


def still_huge(key: str = "hextri") -> bool:
    """Whether today's engine still lists more choices in the worst position of ``key`` than a panel shows (the
    HEX-TRI engine is being changed to list moves by destination, after which its worst position is ordinary)."""
    from host.seatwork import MAX_CHOICES

    engine = ENGINES[key]
    state = engine.from_json(WORST[key]["snapshot"])
    return len(engine.legal_actions(state, to_act(key)[0])) > MAX_CHOICES
