"""What a game's thread and its players' DMs receive over a whole game (issue 25): ``python -m bench.thread``.

Plays whole games to the end, per game, between two people and against the AI, with a seeded random clicker
through the real discord.py dispatch against the recording fake Discord (tests/discord_harness.py: every request
is checked against Discord's OpenAPI), and counts per game: thread posts, thread edits (channel edits and
interaction updates of a board), DMs and DM edits, pictures uploaded (thread and DMs; those of ephemeral panels
apart), and person turns (a person's turn: the acting seat passes to that person from anyone else, read from
the game's action log). Targets: thread posts <= person turns + 2; pictures (thread and DMs) <= 2 per person
turn.

The clicker acts as a player on a phone would: the public board's buttons when it has them, else the newest DM
panel of the player to act, else "Take your turn" (an ephemeral panel). ``--against COMMIT``: the same games
on COMMIT's code (a temporary git worktree running this file), side by side. ``--json``: one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from engines.rng import Rng

ANN, BOB = 10_001, 10_002
MENTION = re.compile(r"<@(\d+)>")
CHOICES = ("gh:a:", "gh:s:")
GROUPS = ("gh:g:", "gh:gb:")

#: (label, slash command, options, against the AI); Ave Caesar: one race of two
GAMES: tuple[tuple[str, str, dict[str, Any], bool], ...] = (
    ("Hector and Achilles", "hector-achilles new", {}, False),
    ("Hector and Achilles", "hector-achilles new", {}, True),
    ("Troja", "troja new", {}, False),
    ("Troja", "troja new", {}, True),
    ("Ave Caesar (1 race)", "ave-caesar new", {"players": 2, "races": 1}, False),
    ("Ave Caesar (1 race)", "ave-caesar new", {"players": 2, "races": 1}, True),
    ("HEX-TRI", "hextri new", {}, False),
    ("HEX-TRI", "hextri new", {}, True),
    ("Kiválasztottak", "kivalasztottak new", {}, False),
    ("Kiválasztottak", "kivalasztottak new", {}, True),
)
FIGURES = ("person_turns", "decisions", "thread_posts", "thread_edits", "dms", "dm_edits", "pictures",
           "ephemeral_pictures")


def components(message: dict) -> list[dict]:
    return [c for row in message.get("components") or [] for c in row.get("components", [])]


class Counter:
    """Classifies every request the bot makes by where it lands (thread, DM, ephemeral, elsewhere)."""

    def __init__(self, fake) -> None:
        self.fake = fake
        self.counts = dict.fromkeys(FIGURES, 0)
        #: pictures uploaded (thread and DMs) per kind: where, post or edit, and what (see :func:`kind_of`)
        self.kinds: dict[str, int] = {}
        #: messages edited at least once
        self.edited: set[int] = set()
        rest, webhook = fake.rest, fake.webhook

        async def on_rest(method, path, p, payload, files):
            result = await rest(method, path, p, payload, files)
            self._rest(method, path, p, files)
            return result

        async def on_webhook(method, path, p, data, files):
            clicked = fake._clicked.get(p.get("webhook_token"))
            result = await webhook(method, path, p, data, files)
            self._webhook(method, path, p, data, files, clicked)
            return result

        fake.rest, fake.webhook = on_rest, on_webhook

    def _where(self, channel_id: int | None, flags: int = 0) -> str:
        if flags & 64:
            return "ephemeral"
        if channel_id in self.fake.dm_channels:
            return "dm"
        channel = self.fake.channels.get(channel_id) if channel_id is not None else None
        return "thread" if channel is not None and channel.get("type") == 11 else "other"

    def _count(self, where: str, edit: bool, files: dict) -> None:
        if where == "thread":
            self.counts["thread_edits" if edit else "thread_posts"] += 1
            self.counts["pictures"] += len(files)
        elif where == "dm":
            self.counts["dm_edits" if edit else "dms"] += 1
            self.counts["pictures"] += len(files)
        if where in ("thread", "dm"):
            for name in files:
                key = f"{where} {'edit' if edit else 'post'}: {kind_of(name)}"
                self.kinds[key] = self.kinds.get(key, 0) + 1
        elif where == "ephemeral":
            self.counts["ephemeral_pictures"] += len(files)

    def _message_place(self, message_id: int | None) -> str:
        message = self.fake.messages.get(message_id) if message_id is not None else None
        if message is None:
            return "other"
        return self._where(int(message["channel_id"]), message.get("flags") or 0)

    def _rest(self, method: str, path: str, p: dict, files: dict) -> None:
        if path == "/channels/{channel_id}/messages" and method == "POST":
            self._count(self._where(int(p["channel_id"])), False, files)
        elif path == "/channels/{channel_id}/messages/{message_id}" and method == "PATCH":
            self.edited.add(int(p["message_id"]))
            self._count(self._message_place(int(p["message_id"])), True, files)

    def _webhook(self, method: str, path: str, p: dict, data, files: dict, clicked: int | None) -> None:
        token = p.get("webhook_token")
        if path.endswith("/callback"):
            kind, inner = data["type"], data.get("data") or {}
            if kind == 4:
                self._count(self._where(self.fake._channel_of.get(token), inner.get("flags") or 0), False, files)
            elif kind == 7 and clicked is not None:
                self.edited.add(clicked)
                self._count(self._message_place(clicked), True, files)
        elif method == "POST":
            self._count(self._where(self.fake._channel_of.get(token), (data or {}).get("flags") or 0), False, files)
        elif method == "PATCH":
            mid = p.get("message_id")
            mid = self.fake.interaction_messages.get(token) if mid in (None, "@original") else int(mid)
            if mid is not None:
                self.edited.add(mid)
            self._count(self._message_place(mid), True, files)


def kind_of(filename: str) -> str:
    """What an uploaded picture is, by its file name (cogs/publish.py names them): a board, a board's further
    picture (e.g. a race's standings), or a hand."""
    if filename.startswith("hand-"):
        return "hand"
    return "extra" if re.search(r"-v\d+-\d+\.png$", filename) else "board"


def _boards(fake, thread: int) -> list[dict]:
    return [m for m in fake.messages.values()
            if int(m["channel_id"]) == thread and m["attachments"] and not m["flags"] & 64]


def _to_act(board: dict) -> list[int]:
    return [int(u) for line in board["content"].splitlines() if "your turn" in line for u in MENTION.findall(line)]


def _version(db: str) -> tuple[str, int]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT status, version FROM games WHERE id = 1").fetchone()


def person_turns(db: str) -> int:
    """Runs of consecutive actions by the same person in the game's log (an AI's move, or another person's,
    ends a run)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT a.user_id, s.ai_level IS NOT NULL FROM actions a LEFT JOIN seats s"
                            " ON s.game_id = a.game_id AND s.seat = a.seat WHERE a.game_id = 1 ORDER BY a.seq"
                            ).fetchall()
    turns, previous = 0, None
    for user_id, is_ai in rows:
        actor = None if user_id is None or is_ai else user_id
        if actor is not None and actor != previous:
            turns += 1
        previous = actor
    return turns


async def _pick(h, user: int, message: dict, rng: Rng) -> None:
    comps = [c for c in components(message) if c["custom_id"].startswith(CHOICES + GROUPS)]
    choice = rng.choice(comps)
    if choice["custom_id"].startswith(GROUPS):
        values = [rng.choice(choice["options"])["value"]] if choice["custom_id"].startswith("gh:g:") else None
        await h.click(user, message, choice["custom_id"], **({"values": values} if values else {}))
        message = h.fake.messages[int(message["id"])]
        comps = [c for c in components(message) if c["custom_id"].startswith(CHOICES)]
        if not comps:
            return
        choice = rng.choice(comps)
    since = len(h.fake.messages)
    if choice["custom_id"].startswith("gh:s:"):
        await h.click(user, message, choice["custom_id"], values=[rng.choice(choice["options"])["value"]])
    else:
        await h.click(user, message, choice["custom_id"])
    asked = [m for m in list(h.fake.messages.values())[since:]
             if m["flags"] & 64 and any(c["custom_id"].startswith("gh:cf:") for c in components(m))]
    if asked:  # "Are you sure?": this player is
        yes = next(c for c in components(asked[-1]) if c["custom_id"].startswith("gh:cf:"))
        await h.click(user, asked[-1], yes["custom_id"])


async def _decide(h, thread: int, db: str, rng: Rng) -> bool | None:
    """One decision of one player to act: True when one was made, False when a click only opened a group or
    the ways of a choice (or was out of date), None when the game is over (or nobody can be asked)."""
    status, version = _version(db)
    if status != "running":
        return None
    found = _boards(h.fake, thread)
    if not found or not _to_act(found[-1]):
        return None
    board = found[-1]
    user = rng.choice(_to_act(board))
    if any(c["custom_id"].startswith(CHOICES + GROUPS) for c in components(board)):
        await _pick(h, user, board, rng)
        if _version(db)[1] != version:
            return True
    dms = [m for m in h.dm_messages(user) if any(c["custom_id"].startswith(CHOICES + GROUPS)
                                                 for c in components(m))]
    if dms:
        await _pick(h, user, dms[-1], rng)
        if _version(db)[1] != version:
            return True
    turn = next((c for c in components(board) if c["custom_id"].startswith("gh:t:")), None)
    if turn is None:
        return _version(db)[1] != version
    since = len(h.fake.messages)
    await h.click(user, board, turn["custom_id"])
    panels = [m for m in list(h.fake.messages.values())[since:] if m["flags"] & 64 and any(
        c["custom_id"].startswith(CHOICES + GROUPS) for c in components(m))]
    if panels:
        await _pick(h, user, panels[-1], rng)
    return True


def transcript(fake, thread: int, edited: set[int]) -> str:
    """The thread as its players see it at the end: every message in order (an edited one as it was last
    edited), its pictures and its buttons; then each player's DMs the same way (a spent one says what was
    done)."""
    out = []
    posts = [m for m in fake.messages.values() if int(m["channel_id"]) == thread and not m["flags"] & 64]
    for n, message in enumerate(posts, start=1):
        text = message["content"] or " / ".join(e.get("title", "") for e in message.get("embeds", []))
        pictures = ", ".join(a["filename"] for a in message["attachments"])
        buttons = ", ".join(c.get("label") or c.get("placeholder") or c["custom_id"] for c in components(message))
        out.append(f"--- post {n}" + (" (edited)" if int(message["id"]) in edited else "")
                   + (f" [{pictures}]" if pictures else "") + (f" {{{buttons}}}" if buttons else ""))
        out.append(text)
    for user in sorted(set(fake.dm_channels.values())):
        channels = {c for c, u in fake.dm_channels.items() if u == user}
        dms = [m for m in fake.messages.values() if int(m["channel_id"]) in channels and not m["flags"] & 64]
        out.append(f"=== the DMs of <@{user}> ({len(dms)})")
        for n, message in enumerate(dms, start=1):
            pictures = ", ".join(a["filename"] for a in message["attachments"])
            out.append(f"--- DM {n}" + (" (edited)" if int(message["id"]) in edited else "")
                       + (f" [{pictures}]" if pictures else ""))
            out.append(message["content"])
    return "\n".join(out)


async def play(label: str, command: str, options: dict, ai: bool, seed: int, limit: int,
               show: bool = False) -> dict:
    """One whole game; its figures (``show``: and its thread's transcript)."""
    from bot import create_bot
    from host.service import GameService
    from settings import Settings
    from store import SqliteStore
    from tests.discord_harness import Harness

    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as monkeypatch:
        db = str(Path(tmp) / "bot.db")
        store = await SqliteStore.open(db)
        seeds = iter(range(seed, seed + 1000))
        service = GameService(store, seed_source=lambda: next(seeds))
        bot = create_bot(Settings(token=None, database_path=db, sync_commands=False, remind_after_hours=0),
                         store=store, service=service)
        h = await Harness(bot, monkeypatch).start()
        counter = Counter(h.fake)
        try:
            for user in (ANN, BOB):  # one decision per click, as on main's default for people who pass by hand
                await service.settings(user, auto_pass=False)
            opening: dict[str, Any] = {"name": "Ann", **options, **({"opponent": "ai"} if ai else {})}
            await h.slash(ANN, command, **opening)
            thread = next(cid for cid, c in h.fake.channels.items() if c["type"] == 11)
            if not ai:
                lobby = h.messages_in(thread)[0]
                join = next(c for c in components(lobby) if c.get("label") == "Join")
                await h.click(BOB, lobby, join["custom_id"], name="Bob")
                start = next((c for c in components(h.fake.messages[int(lobby["id"])])
                              if c.get("label") == "Start"), None)
                if start is not None and _version(db)[0] == "lobby":
                    await h.click(ANN, lobby, start["custom_id"], name="Ann")
            rng = Rng(seed)
            decisions = stalls = 0
            while decisions < limit and stalls < 50:
                made = await _decide(h, thread, db, rng)
                if made is None:
                    break
                decisions, stalls = (decisions + 1, 0) if made else (decisions, stalls + 1)
            figures: dict[str, Any] = dict(counter.counts, decisions=decisions, person_turns=person_turns(db),
                                           finished=_version(db)[0] == "finished",
                                           pictures_by_kind=dict(sorted(counter.kinds.items())))
            last = _boards(h.fake, thread)
            # (the game's last board: its pictures come after the last person turn)
            figures["last_board_pictures"] = len(last[-1]["attachments"]) if last and figures["finished"] else 0
            if show:
                figures["transcript"] = transcript(h.fake, thread, counter.edited)
        finally:
            await h.stop()
            await store.close()
    return {"game": label, "against": "AI" if ai else "people", **figures}


async def run(seed: int, limit: int, only: str | None) -> list[dict]:
    results = []
    for label, command, options, ai in GAMES:
        if only and only not in command:
            continue
        result = await play(label, command, options, ai, seed, limit)
        print(json.dumps(result), file=sys.stderr, flush=True)
        results.append(result)
    return results


def against(commit: str, seed: int, limit: int, only: str | None) -> list[dict]:
    """The same games on ``commit``'s code: this file runs in a temporary worktree of that commit."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", "-q", str(tree), commit], check=True)
        try:
            shutil.copy(Path(__file__), tree / "bench" / "_thread_now.py")
            args = [sys.executable, "-m", "bench._thread_now", "--json", "--seed", str(seed), "--limit", str(limit)]
            run_ = subprocess.run(args + (["--game", only] if only else []), cwd=tree,
                                  env={**os.environ, "PYTHONPATH": str(tree)}, check=True, stdout=subprocess.PIPE,
                                  text=True)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)], check=False)
    return json.loads(run_.stdout.strip().splitlines()[-1])


def table(here: list[dict], there: list[dict] | None, commit: str | None) -> str:
    """A Markdown table: per game, the figures (``commit`` → this tree) and whether the targets are met."""
    head = ("| game | vs | person turns | decisions | thread posts | thread edits | DMs | DM edits | pictures "
            "(thread+DMs) | ephemeral pictures | posts ≤ turns+2 | pictures ≤ 2/turn |")
    lines = [head, "|---" * 12 + "|"]
    for i, now in enumerate(here):
        before = there[i] if there and i < len(there) else None

        def cell(key: str, now=now, before=before) -> str:
            return f"{before[key]} → {now[key]}" if before else str(now[key])

        turns = now["person_turns"]
        posts_ok = "yes" if now["thread_posts"] <= turns + 2 else "**no**"
        pictures_ok = "yes" if now["pictures"] <= 2 * turns else "**no**"
        lines.append(f"| {now['game']}{'' if now['finished'] else ' (not finished)'} | {now['against']} | "
                     + " | ".join(cell(k) for k in FIGURES) + f" | {posts_ok} | {pictures_ok} |")
    if commit:
        lines.append(f"\n(each cell: {commit} → this tree; same seeds, so the games differ only where the "
                     "boards offered differ)")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--limit", type=int, default=1500, help="decisions per game at most")
    parser.add_argument("--game", help="only the games whose command contains this (e.g. troja)")
    parser.add_argument("--against", metavar="COMMIT", help="the same games on COMMIT, side by side")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("--transcript", action="store_true",
                        help="print the thread and the DMs of the game chosen (--game, --opponent) as its players"
                        " see them")
    parser.add_argument("--opponent", choices=("ai", "people"), default="ai", help="(--transcript)")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if args.transcript:
        label, command, options, ai = next(g for g in GAMES if (not args.game or args.game in g[1])
                                           and g[3] == (args.opponent == "ai"))
        figures = asyncio.run(play(label, command, options, ai, args.seed, args.limit, show=True))
        print(figures.pop("transcript"))
        print(json.dumps(figures))
        return 0
    there = against(args.against, args.seed, args.limit, args.game) if args.against else None
    here = asyncio.run(run(args.seed, args.limit, args.game))
    if args.json:
        print(json.dumps(here))
    else:
        print(table(here, there, args.against))
    return 0


if __name__ == "__main__":
    sys.exit(main())
