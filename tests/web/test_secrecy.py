"""Nothing hidden reaches a web page: the pages draw spectator views only (``engine.view(state, None)``), and no
view they draw carries a card id that a seat holds in secret or that nobody may see (the same check as the boards'
and replays': ``engine.secrets``), for every game, live and in replay."""

from __future__ import annotations

import aiohttp
import pytest

from engines import ENGINES, GAME_ORDER
from host import replays
from tests.web.world import PEOPLE, play_game, world


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(_strings(v) | _strings(k) for k, v in obj.items())) if obj else set()
    if isinstance(obj, list | tuple):
        return set().union(*(_strings(v) for v in obj)) if obj else set()
    return set()


def _hidden(engine, state, seats: int) -> set[str]:
    hidden = set(engine.secrets(state, None))
    for seat in range(seats):
        hidden |= engine.secrets(state, seat)
    return hidden


@pytest.mark.parametrize("key", GAME_ORDER)
async def test_pages_draw_spectator_views_without_a_secret(tmp_path, monkeypatch, key):
    engine = ENGINES[key]
    asked_for: list[int | None] = []
    real_view = type(engine).view

    def view(self, state, seat):
        asked_for.append(seat)
        return real_view(self, state, seat)

    async with world(tmp_path, games=False) as w, aiohttp.ClientSession() as http:
        num = max(engine.min_players, 3) if key == "hextri" else engine.min_players
        running = await play_game(w.store, key, seed=31, people=PEOPLE[:2], num=num, steps=12)
        finished = await play_game(w.store, key, seed=32, people=PEOPLE[:2], num=num)
        drawn: list[dict] = []
        painter = w.service.painter

        async def draw(game_key, method, *args):
            # (what is drawn is the question here, not how: the pictures themselves are tested elsewhere)
            assert method == "render_public", method
            drawn.append(args[0])
            return b"\x89PNG\r\n\x1a\n"

        monkeypatch.setattr(painter, "draw", draw)
        monkeypatch.setattr(type(engine), "view", view)
        # the live page and its board
        game = await w.store.get_game(running)
        url = await w.url("game", running)
        for path in (url, f"{url}/board/{game.version}.png"):
            async with http.get(path) as r:
                assert r.status == 200
        _, snapshot = await w.store.snapshot(running)
        live_hidden = _hidden(engine, engine.from_json(snapshot), num)
        assert drawn and not _strings(drawn[0]) & live_hidden
        # the replay, every step's picture
        done = await w.store.get_game(finished)
        replay = await w.url("replay", finished)
        async with http.get(replay) as r:
            assert r.status == 200
        record = replays.Record(key, done.seed, num, {}, done.rules_version, [
            {"seat": a["seat"], "action": a["action"]} for a in await w.store.actions(finished)], [], "en")
        state = replays.start_state(record)
        drawn.clear()
        for step in range(done.version + 1):
            if step:
                entry = record.actions[step - 1]
                engine.apply(state, entry["seat"], entry["action"])
            async with http.get(f"{replay}/step/{step}.png") as r:
                assert r.status == 200
            leaked = _strings(drawn[-1]) & _hidden(engine, state, num)
            assert not leaked, (step, sorted(leaked)[:5])
        assert len(drawn) == done.version + 1
    assert asked_for and set(asked_for) == {None}, "a page asked for a seat's own view"
