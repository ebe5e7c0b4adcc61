"""Plays games through Discord the way people do: read the newest board in the thread, see who is
mentioned, click "Take your turn" (or a public action button), pick one of the offered components."""

from __future__ import annotations

import asyncio
import re

from engines.rng import Rng
from tests.discord_harness import components

MENTION = re.compile(r"<@(\d+)>")


def boards(h, thread_id: int) -> list[dict]:
    """Board posts of a thread (messages with an image attachment), oldest first."""
    return [m for m in h.messages_in(thread_id) if m["attachments"] and not m["flags"] & 64]


def latest_board(h, thread_id: int) -> dict:
    found = boards(h, thread_id)
    assert found, "no board was posted"
    return found[-1]


def to_act(board: dict) -> list[int]:
    """Users asked to act by a board (the mentions on its "your turn" lines)."""
    return [int(u) for line in board["content"].splitlines() if "your turn" in line
            for u in MENTION.findall(line)]


def newest_ephemeral(h, since: int) -> dict | None:
    eph = [m for m in list(h.fake.messages.values())[since:] if m["flags"] & 64 and components(m)]
    return eph[-1] if eph else None


CHOICES = ("gh:a:", "gh:s:")
GROUPS = ("gh:g:", "gh:gb:")


async def pick(h, user_id: int, message: dict, rng: Rng) -> None:
    """Choose one component of a panel message: a button, an option of a select, or a group first (then one
    of its choices)."""
    comps = [c for c in components(message) if c["custom_id"].startswith(CHOICES + GROUPS)]
    assert comps, f"panel without choices: {message['content']!r}"
    choice = rng.choice(comps)
    if choice["custom_id"].startswith(GROUPS):
        if choice["custom_id"].startswith("gh:g:"):
            await h.click(user_id, message, choice["custom_id"], values=[rng.choice(choice["options"])["value"]])
        else:
            await h.click(user_id, message, choice["custom_id"])
        message = h.fake.messages[int(message["id"])]
        comps = [c for c in components(message) if c["custom_id"].startswith(CHOICES)]
        assert comps, "an opened group offers no choice"
        choice = rng.choice(comps)
    since = len(h.fake.messages)
    if choice["custom_id"].startswith("gh:s:"):
        await h.click(user_id, message, choice["custom_id"], values=[rng.choice(choice["options"])["value"]])
    else:
        await h.click(user_id, message, choice["custom_id"])
    await confirm_if_asked(h, user_id, since)


async def confirm_if_asked(h, user_id: int, since: int) -> None:
    """A choice that loses something for good is asked about first ("Are you sure?"): this player says yes."""
    asked = [m for m in list(h.fake.messages.values())[since:]
             if m["flags"] & 64 and any(c["custom_id"].startswith("gh:cf:") for c in components(m))]
    if asked:
        yes = next(c for c in components(asked[-1]) if c["custom_id"].startswith("gh:cf:"))
        await h.click(user_id, asked[-1], yes["custom_id"])


async def first_board(h, thread_id: int, timeout: float = 30.0) -> dict:
    """The newest board, waiting for the first one: against the real bot process a board is drawn in a worker
    and may come after the game's other messages (a loaded host takes its time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not boards(h, thread_id) and loop.time() < deadline:
        await asyncio.sleep(0.05)
    return latest_board(h, thread_id)


async def take_turn(h, thread_id: int, rng: Rng) -> int:
    """One decision by the (first) mentioned player of the newest board; returns who acted."""
    board = await first_board(h, thread_id)
    users = to_act(board)
    assert users, f"nobody to act on the newest board: {board['content']!r}"
    user = users[0]
    public = [c for c in components(board) if c["custom_id"].startswith(CHOICES + GROUPS)]
    if public:
        await pick(h, user, board, rng)
        return user
    turn = next(c for c in components(board) if c["custom_id"].startswith("gh:t:"))
    since = len(h.fake.messages)
    await h.click(user, board, turn["custom_id"])
    panel = newest_ephemeral(h, since)
    assert panel is not None, "Take your turn gave no panel"
    await pick(h, user, panel, rng)
    return user


def game_over(board: dict) -> bool:
    return "Game over" in board["content"]


def passes_next(engine, state) -> bool:
    """Whether every choice of the first seat to act hands the turn on (it is no longer to act after it)."""
    seat = engine.to_act(state)[0]
    for action in engine.legal_actions(state, seat):
        after = engine.from_json(engine.to_json(state))
        engine.apply(after, seat, action)
        if seat in engine.to_act(after):
            return False
    return True


async def until_the_turn_passes_next(h, thread_id: int, rng: Rng, game_id: int = 1, limit: int = 60,
                                    state_of=None) -> None:
    """Play on until whatever the person to act does next hands the turn to someone else (so that their next
    decision posts a new board rather than updating the one that is up: issue 25's one board per turn).
    ``state_of``: (engine, state) of the game now (default: through the in-process bot's service)."""
    from engines import ENGINES

    async def in_process():
        game = await h.bot.service.game(game_id)
        return ENGINES[game.engine], await h.bot.service.state_of(game)

    for _ in range(limit):
        engine, state = await (state_of or in_process)()
        if passes_next(engine, state):
            return
        await take_turn(h, thread_id, rng)
    raise AssertionError("the turn never came to a decision that passes it")


class DmLog:
    """Every DM the bot sends or edits, as its player gets it: (user, "post" or "edit", message id, its text
    after the request, the pictures uploaded with it: file name -> bytes). Wraps the fake Discord's REST and
    webhook answers (a post, a channel edit, an interaction's own update of the DM clicked in)."""

    def __init__(self, fake) -> None:
        self.fake = fake
        self.entries: list[tuple[int, str, int, str, dict[str, bytes]]] = []
        rest, webhook = fake.rest, fake.webhook

        async def on_rest(method, path, p, payload, files):
            result = await rest(method, path, p, payload, files)
            cid = int(p["channel_id"]) if "channel_id" in p else None
            if cid in fake.dm_channels and path == "/channels/{channel_id}/messages" and method == "POST":
                self._log("post", int(result["id"]), files)
            elif cid in fake.dm_channels and path.endswith("{message_id}") and method == "PATCH":
                self._log("edit", int(p["message_id"]), files)
            return result

        async def on_webhook(method, path, p, data, files):
            token = p.get("webhook_token")
            clicked = fake._clicked.get(token)
            result = await webhook(method, path, p, data, files)
            mid = None
            if path.endswith("/callback") and (data or {}).get("type") == 7:
                mid = clicked
            elif method == "PATCH" and p.get("message_id") in (None, "@original"):
                mid = fake.interaction_messages.get(token)
            message = fake.messages.get(mid) if mid is not None else None
            if mid is not None and message is not None and int(message["channel_id"]) in fake.dm_channels \
                    and not message["flags"] & 64:
                self._log("edit", mid, files)
            return result

        fake.rest, fake.webhook = on_rest, on_webhook

    def _log(self, kind: str, message_id: int, files: dict[str, bytes]) -> None:
        message = self.fake.messages[message_id]
        user = self.fake.dm_channels[int(message["channel_id"])]
        self.entries.append((user, kind, message_id, message["content"], dict(files or {})))
