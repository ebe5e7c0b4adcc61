"""The game store: one aiosqlite connection in WAL mode, schema migrations by ``PRAGMA user_version``.

Every accepted action is one transaction: append to the action log, replace the snapshot, bump the
version — guarded by the version the caller saw, so a stale or duplicate write can never land twice.

WAL checkpoints (copying the log back into the database file, with an fsync) cost 15-25 ms. SQLite's automatic
checkpoint would run them inside whichever commit crosses the threshold, i.e. in a player's click; here they
run once writes have paused for ``CHECKPOINT_IDLE_S``, and inline only when ``CHECKPOINT_MAX_COMMITS`` commits
came without a pause (a very busy server), so the WAL file cannot grow without bound.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from store.migrations import MIGRATIONS

CHECKPOINT_IDLE_S = 1.0
CHECKPOINT_MAX_COMMITS = 2000


class VersionConflict(Exception):
    """The game moved on since the caller read it (a stale click, or two writers racing)."""


@dataclass
class SeatRow:
    seat: int
    user_id: int | None
    ai_level: str | None
    name: str
    dm_closed: bool = False

    @property
    def is_ai(self) -> bool:
        return self.ai_level is not None


@dataclass
class GameRow:
    id: int
    engine: str
    options: dict
    seed: int
    status: str
    num_players: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    board_message_id: int | None
    host_user_id: int
    version: int
    rules_version: int | None
    snapshot: dict | None
    result: dict | None
    created_at: str
    updated_at: str
    seats: list[SeatRow] = field(default_factory=list)
    tournament_id: int | None = None

    @property
    def lang(self) -> str:
        """The language the game is played in (narration, prompts, buttons): "en", "hu" or "pl"."""
        return self.options.get("lang") or "en"

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def seat_row(self, seat: int) -> SeatRow | None:
        for s in self.seats:
            if s.seat == seat:
                return s
        return None


@dataclass
class Tournament:
    id: int
    engine: str
    lang: str
    status: str
    guild_id: int | None
    channel_id: int | None
    organizer_id: int
    entries: list[tuple[int, str]]  # (user id, name) in the order they joined


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(obj: Any) -> str:
    # no sort_keys: dicts keep their order through JSON, and sorting a large snapshot costs time per action
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Store:
    """Async persistence. Open with ``await Store.open(path)`` (SQLite) or ``await Store.connect(path_or_url)``
    (PostgreSQL for a ``postgresql://`` URL: store/postgres.py, the same methods over asyncpg); close with
    ``await store.close()`` (aiosqlite's worker thread is not a daemon: an unclosed store hangs interpreter exit)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        # aiosqlite serialises statements, not transactions: writers take this lock so that no other
        # coroutine's statement lands inside an open transaction.
        self._write = asyncio.Lock()
        self._commits_since_checkpoint = 0
        self._idle_timer: asyncio.TimerHandle | None = None
        self._checkpointing: asyncio.Task | None = None

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA busy_timeout=5000")
        await db.execute("PRAGMA wal_autocheckpoint=0")  # see the module docstring
        store = cls(db)
        await store._migrate()
        return store

    async def close(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        if self._checkpointing is not None:
            await self._checkpointing
        await self._db.close()  # closing the last connection checkpoints the WAL

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file now (PASSIVE: never waits for readers)."""
        async with self._write:
            self._commits_since_checkpoint = 0
            await self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _after_commit(self) -> None:
        self._commits_since_checkpoint += 1
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        loop = asyncio.get_running_loop()
        self._idle_timer = loop.call_later(CHECKPOINT_IDLE_S, self._checkpoint_when_idle)

    def _checkpoint_when_idle(self) -> None:
        self._idle_timer = None
        if self._checkpointing is None or self._checkpointing.done():
            self._checkpointing = asyncio.get_running_loop().create_task(self.checkpoint())

    async def _migrate(self) -> None:
        async with self._db.execute("PRAGMA user_version") as cur:
            (current,) = await cur.fetchone()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._write:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in [s for s in script.split(";") if s.strip()]:
                        await self._db.execute(statement)
                    await self._db.execute(f"PRAGMA user_version = {number}")
                    await self._db.execute("COMMIT")
                except BaseException:
                    await self._db.execute("ROLLBACK")
                    raise

    async def schema_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cur:
            (version,) = await cur.fetchone()
        return version

    async def journal_mode(self) -> str:
        async with self._db.execute("PRAGMA journal_mode") as cur:
            (mode,) = await cur.fetchone()
        return mode

    @classmethod
    async def connect(cls, target: str | Path) -> Store:
        """The store at ``target``: a PostgreSQL URL (``postgresql://…``, see store/postgres.py) or else the path
        of an SQLite file."""
        from store.postgres import PostgresStore, is_postgres_url

        if is_postgres_url(target):
            return await PostgresStore.open(str(target))
        return await cls.open(target)

    # -- the dialect: what a backend (store/postgres.py) overrides ----------------------------------

    async def _fetchall(self, sql: str, params: tuple = ()) -> list:
        async with self._db.execute(sql, params) as cur:
            return await cur.fetchall()

    async def _fetchone(self, sql: str, params: tuple = ()):
        async with self._db.execute(sql, params) as cur:
            return await cur.fetchone()

    @staticmethod
    def _json_set(column: str, key: str) -> str:
        """SQL for ``column`` (JSON text) with ``key`` set to the next parameter (an integer)."""
        return f"json_set({column}, '$.{key}', ?)"

    @staticmethod
    def _json_int(column: str, key: str) -> str:
        """SQL for the integer at ``key`` of ``column`` (JSON text)."""
        return f"json_extract({column}, '$.{key}')"

    # -- transactions -------------------------------------------------------------------------------

    async def _transaction(self, statements: list[tuple[str, tuple]], guard: tuple[str, tuple] | None = None):
        """Run statements atomically; ``guard`` (an UPDATE) must change exactly one row, else VersionConflict."""
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                if guard is not None:
                    cur = await self._db.execute(*guard)
                    if cur.rowcount != 1:
                        raise VersionConflict("the game has moved on")
                last_id = None
                for sql, params in statements:
                    cur = await self._db.execute(sql, params)
                    last_id = cur.lastrowid
                await self._db.execute("COMMIT")
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            if self._commits_since_checkpoint >= CHECKPOINT_MAX_COMMITS:
                self._commits_since_checkpoint = 0
                await self._db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        self._after_commit()
        return last_id

    # -- games and seats ----------------------------------------------------------------------------

    async def create_game(self, *, engine: str, options: dict, seed: int, num_players: int,
                          guild_id: int | None, channel_id: int | None, host_user_id: int) -> int:
        now = _now()
        return await self._transaction([(
            "INSERT INTO games (engine, options, seed, status, num_players, guild_id, channel_id, host_user_id,"
            " created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
            (engine, _dumps(options), seed, num_players, guild_id, channel_id, host_user_id, now, now),
        )])

    async def set_seat(self, game_id: int, seat: int, *, user_id: int | None = None, ai_level: str | None = None,
                       name: str, publish: list[str] | None = None) -> None:
        """Create or replace a seat (a person, or an AI of ``ai_level``); ``publish``: narration to post with
        the next board (an outbox entry in the same transaction, e.g. when the AI takes over a running seat)."""
        statements = [
            ("INSERT INTO seats (game_id, seat, user_id, ai_level, name) VALUES (?, ?, ?, ?, ?)"
             " ON CONFLICT (game_id, seat) DO UPDATE SET user_id = excluded.user_id,"
             " ai_level = excluded.ai_level, name = excluded.name, dm_closed = 0",
             (game_id, seat, user_id, ai_level, name)),
            ("UPDATE games SET updated_at = ? WHERE id = ?", (_now(), game_id)),
        ]
        if publish is not None:
            statements.append(_outbox_entry(game_id, None, None, publish))
        await self._transaction(statements)

    async def remove_seat(self, game_id: int, seat: int) -> None:
        await self._transaction([("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))])

    async def reseat(self, game_id: int, order: list[int]) -> None:
        """Renumber seats so that old seat ``order[i]`` becomes seat i (lobby only)."""
        statements = [("UPDATE seats SET seat = -1 - seat WHERE game_id = ?", (game_id,))]
        statements += [("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (new, game_id, -1 - old))
                       for new, old in enumerate(order)]
        await self._transaction(statements)

    async def set_dm_closed(self, game_id: int, seat: int, closed: bool) -> None:
        await self._transaction([("UPDATE seats SET dm_closed = ? WHERE game_id = ? AND seat = ?",
                                  (int(closed), game_id, seat))])

    async def set_places(self, game_id: int, *, thread_id: int | None = None,
                         board_message_id: int | None = None) -> None:
        """Remember where the game lives on Discord (its thread, its latest board message)."""
        sets, params = [], []
        if thread_id is not None:
            sets.append("thread_id = ?")
            params.append(thread_id)
        if board_message_id is not None:
            sets.append("board_message_id = ?")
            params.append(board_message_id)
        if not sets:
            return
        await self._transaction([(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*params, game_id))])

    async def set_announcement(self, game_id: int, message_id: int) -> None:
        """Remember the channel message that announced the game (``options.announcement``), to update it when
        the game starts."""
        await self._transaction([(f"UPDATE games SET options = {self._json_set('options', 'announcement')} WHERE id = ?",
                                  (message_id, game_id))])

    async def rematch_of(self, game_id: int) -> GameRow | None:
        """The first game opened as a rematch of ``game_id`` (``options.rematch_of``) that was not abandoned."""
        found = await self._games(f"SELECT * FROM games WHERE {self._json_int('options', 'rematch_of')} = ?"
                                  " AND status != 'abandoned' ORDER BY id LIMIT 1", (game_id,))
        return found[0] if found else None

    async def start_game(self, game_id: int, *, num_players: int, snapshot: dict, rules_version: int,
                         publish: list[str] | None = None) -> None:
        """Lobby -> running, with the initial snapshot at version 0 (and the opening narration in the outbox)."""
        await self._transaction([_outbox_entry(game_id, 0, None, publish or [])], guard=(
            "UPDATE games SET status = 'running', num_players = ?, snapshot = ?, rules_version = ?, version = 0,"
            " updated_at = ? WHERE id = ? AND status = 'lobby'",
            (num_players, _dumps(snapshot), rules_version, _now(), game_id)))

    async def commit_action(self, game_id: int, *, expected_version: int, seat: int, user_id: int | None,
                            action: dict, events: list, snapshot: dict, result: dict | None,
                            publish: list[str] | None = None) -> int:
        """Append one action, replace the snapshot, bump the version and record what must be published (the
        outbox entry with the action's narration ``publish``), atomically. Returns the new version."""
        now = _now()
        status = "finished" if result is not None else "running"
        version = expected_version + 1
        await self._transaction(
            [("INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
              " VALUES (?, ?, ?, ?, ?, ?, ?)",
              (game_id, version, seat, user_id, _dumps(action), _dumps(events), now)),
             _outbox_entry(game_id, version, version, publish or [])],
            guard=("UPDATE games SET version = version + 1, snapshot = ?, status = ?, result = ?, updated_at = ?"
                   " WHERE id = ? AND version = ? AND status = 'running'",
                   (_dumps(snapshot), status, _dumps(result) if result is not None else None, now, game_id,
                    expected_version)),
        )
        return expected_version + 1

    async def set_status(self, game_id: int, status: str, result: dict | None = None) -> None:
        await self._transaction([("UPDATE games SET status = ?, result = COALESCE(?, result), updated_at = ?"
                                  " WHERE id = ?",
                                  (status, _dumps(result) if result is not None else None, _now(), game_id))])

    async def get_game(self, game_id: int, *, with_snapshot: bool = True) -> GameRow | None:
        """A game with its seats; ``with_snapshot=False`` skips parsing the (possibly large) snapshot."""
        row = await self._fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            return None
        game = _game_row(row, with_snapshot=with_snapshot)
        game.seats = await self._seats(game_id)
        return game

    async def snapshot(self, game_id: int) -> tuple[int, dict | None]:
        """(version, snapshot) of a game, read together."""
        row = await self._fetchone("SELECT version, snapshot FROM games WHERE id = ?", (game_id,))
        return row["version"], json.loads(row["snapshot"]) if row["snapshot"] else None

    async def _seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow(r["seat"], r["user_id"], r["ai_level"], r["name"], bool(r["dm_closed"])) for r in rows]

    async def list_games(self, *, guild_id: int | None = None, statuses: tuple[str, ...] = ("lobby", "running"),
                         user_id: int | None = None, thread_id: int | None = None,
                         limit: int = 25) -> list[GameRow]:
        """Games filtered by guild, status, participant or thread; newest first, without snapshots."""
        where = [f"g.status IN ({','.join('?' * len(statuses))})"]
        params: list[Any] = list(statuses)
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        if thread_id is not None:
            where.append("g.thread_id = ?")
            params.append(thread_id)
        if user_id is not None:
            where.append("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)")
            params.append(user_id)
        sql = (f"SELECT g.* FROM games g WHERE {' AND '.join(where)} ORDER BY g.id DESC LIMIT ?")
        return await self._games(sql, (*params, limit))

    # -- tournaments (round-robin leagues) -----------------------------------------------------------

    async def create_tournament(self, *, engine: str, lang: str, guild_id: int | None, channel_id: int | None,
                                organizer_id: int) -> int:
        return await self._transaction([(
            "INSERT INTO tournaments (engine, lang, status, guild_id, channel_id, organizer_id, created_at)"
            " VALUES (?, ?, 'open', ?, ?, ?, ?)", (engine, lang, guild_id, channel_id, organizer_id, _now()))])

    async def tournament(self, tournament_id: int) -> Tournament | None:
        row = await self._fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        if row is None:
            return None
        entries = [(r["user_id"], r["name"]) for r in await self._fetchall(
            "SELECT user_id, name FROM tournament_entries WHERE tournament_id = ? ORDER BY joined", (tournament_id,))]
        return Tournament(row["id"], row["engine"], row["lang"], row["status"], row["guild_id"], row["channel_id"],
                          row["organizer_id"], entries)

    async def add_entry(self, tournament_id: int, user_id: int, name: str) -> None:
        await self._transaction([(
            "INSERT INTO tournament_entries (tournament_id, user_id, name, joined) VALUES (?, ?, ?,"
            " (SELECT COUNT(*) FROM tournament_entries WHERE tournament_id = ?))",
            (tournament_id, user_id, name, tournament_id))])

    async def set_tournament_status(self, tournament_id: int, status: str) -> None:
        await self._transaction([("UPDATE tournaments SET status = ? WHERE id = ?", (status, tournament_id))])

    async def link_game(self, game_id: int, tournament_id: int) -> None:
        await self._transaction([("UPDATE games SET tournament_id = ? WHERE id = ?", (tournament_id, game_id))])

    async def tournament_games(self, tournament_id: int) -> list[GameRow]:
        return await self._games("SELECT * FROM games WHERE tournament_id = ? ORDER BY id", (tournament_id,))

    async def finished_games(self, *, engine: str, guild_id: int | None) -> list[GameRow]:
        """A server's finished games of one kind, in the order they ended, with seats and results."""
        return await self._games("SELECT * FROM games WHERE status = 'finished' AND engine = ?"
                                 " AND guild_id IS NOT DISTINCT FROM ?"
                                 " ORDER BY updated_at, id", (engine, guild_id))

    async def waiting_games(self, cutoff: datetime, *, after_id: int = 0, limit: int = 200) -> list[tuple[int, int]]:
        """(id, version) of up to ``limit`` running games unchanged since ``cutoff`` whose current board has not
        been reminded of yet, with ids above ``after_id``, in id order: the reminders read due games in batches,
        without their rows."""
        rows = await self._fetchall(
            "SELECT id, version FROM games WHERE status = 'running' AND updated_at < ?"
            " AND reminded_version < version AND id > ? ORDER BY id LIMIT ?",
            (cutoff.astimezone(UTC).isoformat(timespec="seconds"), after_id, limit))
        return [(r["id"], r["version"]) for r in rows]

    async def _games(self, sql: str, params: tuple) -> list[GameRow]:
        """The games a query selects (``SELECT g.*`` or ``*`` of games), with their seats, without snapshots."""
        rows = await self._fetchall(sql, params)
        games = [_game_row(r, with_snapshot=False) for r in rows]
        for g in games:
            g.seats = await self._seats(g.id)
        return games

    async def set_reminded_many(self, boards: list[tuple[int, int]]) -> None:
        """Mark these boards (game id, version) as reminded of, in one transaction (never lowering a mark)."""
        if boards:
            await self._transaction([("UPDATE games SET reminded_version = ? WHERE id = ? AND reminded_version < ?",
                                      (version, game_id, version)) for game_id, version in boards])

    async def actions(self, game_id: int, after: int = 0) -> list[dict]:
        """The action log in order (from sequence number ``after + 1`` on):
        ``{"seq", "seat", "user_id", "action", "events", "created_at"}``."""
        rows = await self._fetchall("SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq",
                                    (game_id, after))
        return [{"seq": r["seq"], "seat": r["seat"], "user_id": r["user_id"], "action": json.loads(r["action"]),
                 "events": json.loads(r["events"]), "created_at": r["created_at"]} for r in rows]

    # -- the outbox (what committed changes still owe the players) -----------------------------------

    async def add_outbox(self, game_id: int, lines: list[str], *, next_try: datetime | None = None) -> None:
        """An outbox entry of its own (narration without an action, or a retry marker when ``lines`` is empty)."""
        await self._transaction([_outbox_entry(game_id, None, None, lines, next_try)])

    async def outbox(self, game_id: int) -> list[dict]:
        """A game's pending entries, oldest first: ``{"id", "version", "seq", "lines", "posted", "attempts",
        "created_at"}``."""
        rows = await self._fetchall("SELECT * FROM outbox WHERE game_id = ? ORDER BY id", (game_id,))
        return [{"id": r["id"], "version": r["version"], "seq": r["seq"], "lines": json.loads(r["lines"]),
                 "posted": bool(r["posted"]), "attempts": r["attempts"], "created_at": r["created_at"]}
                for r in rows]

    async def pending_publications(self, now: datetime | None = None, *, created_before: datetime | None = None,
                                   guild_ids=None) -> list[int]:
        """Games with outbox entries due by ``now`` (all of them without ``now``) and written before
        ``created_before``, oldest entry first; ``guild_ids``: the guilds this process serves (None: all)."""
        sql = ("SELECT o.game_id, g.guild_id, MIN(o.id) AS first FROM outbox o JOIN games g ON g.id = o.game_id"
               " WHERE o.next_try <= ? AND o.created_at <= ? GROUP BY o.game_id, g.guild_id ORDER BY first")
        due = _stamp(now) if now is not None else "9999"
        made = _stamp(created_before) if created_before is not None else "9999"
        rows = await self._fetchall(sql, (due, made))
        return [r["game_id"] for r in rows if guild_ids is None or r["guild_id"] in guild_ids]

    async def outbox_failed(self, game_id: int, upto: int, error: str, next_try: datetime) -> None:
        """Delivery of a game's entries up to ``upto`` failed: count the attempt, try again at ``next_try``."""
        await self._transaction([("UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try = ?"
                                  " WHERE game_id = ? AND id <= ?", (error[:500], _stamp(next_try), game_id, upto))])

    async def outbox_posted(self, game_id: int, upto: int, board_message_id: int) -> None:
        """The board for entries up to ``upto`` is up (message ``board_message_id``); their DMs may be owed."""
        await self._transaction([
            ("UPDATE outbox SET posted = 1 WHERE game_id = ? AND id <= ?", (game_id, upto)),
            ("UPDATE games SET board_message_id = ? WHERE id = ?", (board_message_id, game_id)),
        ])

    async def outbox_done(self, game_id: int, upto: int, *, retry_at: datetime | None = None) -> None:
        """Entries up to ``upto`` are delivered; ``retry_at``: the game still owes work (an AI turn that failed),
        so a marker entry due then stays behind."""
        statements = [("DELETE FROM outbox WHERE game_id = ? AND id <= ?", (game_id, upto))]
        if retry_at is not None:
            statements.append(_outbox_entry(game_id, None, None, [], retry_at))
        await self._transaction(statements)

    # -- settings -----------------------------------------------------------------------------------

    async def user_settings(self, user_id: int) -> dict:
        row = await self._fetchone("SELECT settings FROM user_settings WHERE user_id = ?", (user_id,))
        return json.loads(row["settings"]) if row else {}

    async def set_user_settings(self, user_id: int, settings: dict) -> None:
        await self._transaction([("INSERT INTO user_settings (user_id, settings) VALUES (?, ?) ON CONFLICT"
                                  " (user_id) DO UPDATE SET settings = excluded.settings",
                                  (user_id, _dumps(settings)))])


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds")


def _outbox_entry(game_id: int, version: int | None, seq: int | None, lines: list[str],
                  next_try: datetime | None = None) -> tuple[str, tuple]:
    """The INSERT of an outbox entry (``version`` None: the game's current version; due at once without
    ``next_try``)."""
    due = _stamp(next_try) if next_try is not None else ""
    if version is None:
        return ("INSERT INTO outbox (game_id, version, seq, lines, created_at, next_try)"
                " VALUES (?, (SELECT version FROM games WHERE id = ?), ?, ?, ?, ?)",
                (game_id, game_id, seq, _dumps(lines), _now(), due))
    return ("INSERT INTO outbox (game_id, version, seq, lines, created_at, next_try) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, version, seq, _dumps(lines), _now(), due))


def _game_row(r, with_snapshot: bool = True) -> GameRow:
    return GameRow(
        id=r["id"], engine=r["engine"], options=json.loads(r["options"]), seed=r["seed"], status=r["status"],
        num_players=r["num_players"], guild_id=r["guild_id"], channel_id=r["channel_id"],
        thread_id=r["thread_id"], board_message_id=r["board_message_id"], host_user_id=r["host_user_id"],
        version=r["version"], rules_version=r["rules_version"],
        snapshot=json.loads(r["snapshot"]) if with_snapshot and r["snapshot"] else None,
        result=json.loads(r["result"]) if r["result"] else None,
        created_at=r["created_at"], updated_at=r["updated_at"], tournament_id=r["tournament_id"],
    )
