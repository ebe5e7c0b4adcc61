"""``make demo``: AI-vs-AI games of every implemented game through the game service (store, AI turns,
rendering), writing every public image, the final result and the whole narration (read page by page, as
``/game log`` does) into ``demo/<game>/``. ``DEMO_LANG=hu`` (or ``pl``) plays them in Hungarian (Polish):
pictures and narration (``demo/<game>/narration.txt``).

    python -m bench.demo [--short] [--out FOLDER] [GAME ...]

``--short`` plays short games (one race, a small board, a few rounds): the test run's smoke test
(tests/test_demo.py)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import sys
from pathlib import Path

from engines import ENGINES
from host.presenters import presenter_for
from host.service import GameService
from render import RENDERERS
from store import SqliteStore, Store

OUT = Path("demo")
#: the options of ``--short``: each game over in a few dozen moves
SHORT = {"ave-caesar": {"races": 1}, "hextri": {"radius": 2, "round_limit": 2}, "troja": {"max_rounds": 5},
         "kivalasztottak": {"round_limit": 1}}


async def demo_game(key: str, store: Store, seed: int, out: Path = OUT, options: dict | None = None) -> dict:
    folder = out / key
    folder.mkdir(parents=True, exist_ok=True)
    engine = ENGINES[key]
    renderer = RENDERERS.get(key)
    service = GameService(store, seed_source=lambda: seed)
    count = 0

    def record(game, state, events) -> None:
        nonlocal count
        count += 1
        if renderer is not None:
            view = {**engine.view(state, None), "player_names": service.names(game), "lang": game.lang}
            (folder / f"{count:04d}.png").write_bytes(renderer.render_public(view))

    service.observers.append(record)
    try:
        outcome = await service.ai_match(key, options=options, lang=os.environ.get("DEMO_LANG") or None)
        game = outcome.game
        presenter = presenter_for(key)
        summary = {"game": key, "title": engine.title, "seed": seed, "actions": count,
                   "players": service.names(game), "result": game.result,
                   "summary": presenter.ending_lines(service.how_it_ended(game), service.names(game))}
        (folder / "result.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
        told = await narration(service, game.id)
        (folder / "narration.txt").write_text("\n".join(told) + "\n", encoding="utf-8")
    finally:
        service.close()
    return summary


async def narration(service: GameService, game_id: int) -> list[str]:
    """The whole game told again, page after page of ``/game log`` (a game of any length)."""
    told, start = [], 1
    while True:
        page = await service.log(game_id, start=start)
        told += page.lines
        if page.last >= page.total:
            return told
        start = page.last + 1


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="short games (the test run's smoke test)")
    parser.add_argument("--out", type=Path, default=OUT, help="the folder to write (replaced)")
    parser.add_argument("games", nargs="*", choices=[[], *ENGINES], help="only these games (default: all)")
    args = parser.parse_args(argv)
    out: Path = args.out
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    store = await SqliteStore.open(out / "demo.db", synchronous="OFF")  # a throw-away database: no need to sync
    try:
        for key in args.games or ENGINES:
            options = SHORT.get(key) if args.short else None
            summary = await demo_game(key, store, seed=2026, out=out, options=options)
            print(f"{summary['title']}: {summary['actions']} actions, images in {out}/{key}/ — "
                  + "; ".join(summary["summary"]))
    finally:
        await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
