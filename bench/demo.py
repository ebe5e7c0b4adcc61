"""``make demo``: AI-vs-AI games of every implemented game through the game service (store, AI turns,
rendering), writing every public image and the final result into ``demo/<game>/``. ``DEMO_LANG=hu`` (or
``pl``) plays them in Hungarian (Polish): pictures and narration (``demo/<game>/narration.txt``)."""

from __future__ import annotations

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
from store import Store

OUT = Path("demo")


async def demo_game(key: str, store: Store, seed: int) -> dict:
    folder = OUT / key
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
    outcome = await service.ai_match(key, lang=os.environ.get("DEMO_LANG") or None)
    game = outcome.game
    presenter = presenter_for(key)
    summary = {"game": key, "title": engine.title, "seed": seed, "actions": count,
               "players": service.names(game), "result": game.result,
               "summary": presenter.result_lines(game.result, service.names(game))}
    (folder / "result.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    _, told = await service.history(game.id, moves=count)
    (folder / "narration.txt").write_text("\n".join(told) + "\n", encoding="utf-8")
    return summary


async def main() -> int:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir()
    store = await Store.open(OUT / "demo.db")
    try:
        for key in ENGINES:
            summary = await demo_game(key, store, seed=2026)
            print(f"{summary['title']}: {summary['actions']} actions, images in demo/{key}/ — "
                  + "; ".join(summary["summary"]))
    finally:
        await store.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
