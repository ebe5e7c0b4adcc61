"""Replay an exported game record (``/game export``) and check that it comes out as it did:

    python -m bench.replay game-12.json

re-runs the engine from the record's seed, options and rules version over its actions, prints the final result
and exits 0 when the game ends as the record says (the same result when its rules ended it; not ended by the rules
when it was resigned, lost on time, decided by an organizer or called off), 1 when not, 2 when the log does not
replay."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engines import ENGINES
from host.errors import GameError
from host.replays import Record, ends_as_recorded, final_state


def check(data: dict) -> tuple[bool, dict | None]:
    """(the replayed game ends as recorded, the replayed result). A game the rules ended must give the
    recorded result; one ended outside play (resigned, out of time, decided by an organizer, called off:
    host/ending.py) must not have been ended by the rules before its last recorded move."""
    record = Record.from_json(data)
    state = final_state(record)
    result = json.loads(json.dumps(ENGINES[record.engine].result(state)))
    ended = record.ending
    return ended is None or ends_as_recorded(ended, result), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path, help="a game record from /game export")
    args = parser.parse_args(argv)
    data = json.loads(args.file.read_text(encoding="utf-8"))
    try:
        same, result = check(data)
    except (GameError, ValueError, KeyError) as exc:
        print(f"cannot replay {args.file}: {exc}", file=sys.stderr)
        return 2
    engine = ENGINES[data["engine"]]
    print(f"{engine.title} #{data.get('game')}: {len(data['actions'])} actions, rules version "
          f"{data['rules_version']}, seed {data['seed']}")
    print("result: " + json.dumps(result, ensure_ascii=False))
    print("same as recorded" if same else "DIFFERENT from the recorded result: "
          + json.dumps(data.get("result"), ensure_ascii=False))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
