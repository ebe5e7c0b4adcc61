"""What both dialects of the store share: every query and write of the game host, written once in the SQL that
SQLite and PostgreSQL both accept, over a handful of dialect methods (:class:`Store`'s abstract ones) that
store/sqlite.py and store/postgres.py implement.

Every accepted action is one transaction: append to the action log, replace the snapshot, bump the
version — guarded by the version the caller saw, so a stale or duplicate write can never land twice.

One damaged game stays local: a game row whose JSON cannot be read, or whose text columns hold bytes that are not
UTF-8, is logged once and left out of listings (or, asked for, listed with ``GameRow.damage``); only that game
fails. Listings never read snapshots, snapshots are read as their stored bytes (:meth:`Store._raw`) and decoded
here, and a query the driver fails on undecodable bytes elsewhere in a row is read again row by row as bytes
(:meth:`Store._raw_rows`), so the driver never fails a whole query for one row.
"""

from __future__ import annotations

import json
import logging
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Protocol

import orjson

from store.rows import DeadLetter, GameRow, MatchRow, OutboxEntry, PublicationTrouble, SeatRow, Tournament


class Shards(Protocol):
    """A shard filter (host/shards.py ``Shards``): the condition on a guild id column that selects one process's
    games, in SQL both backends accept."""

    def sql(self, column: str) -> str: ...


log = logging.getLogger(__name__)

#: one SQL statement and its parameters (``?`` placeholders; store/postgres.py numbers them)
Statement = tuple[str, tuple[Any, ...]]


class StorageError(Exception):
    """The database cannot be used (damaged, read-only, locked, from a newer version); ``str()`` is one line."""


class DamagedRow(ValueError):
    """A stored row that cannot be read back: invalid JSON in a game's options, snapshot or result (``kind``
    "json"), or bytes that are not UTF-8 text (``kind`` "bytes")."""

    def __init__(self, message: str, *, where: tuple[int, str], kind: str = "json") -> None:
        super().__init__(message)
        self.where = where  # (game id, column)
        self.kind = kind


#: a parameter of ``Store._transaction`` standing for the id the transaction's first INSERT gave its row
FIRST_ID = object()


class VersionConflict(Exception):
    """The game moved on since the caller read it (a stale click, or two writers racing)."""


_SAID_NOW: list = [None, ""]  # [the second, said as ISO text]: a move writes "now" several times


def _now() -> str:
    second = int(time.time())  # (the clock datetime.now reads)
    if _SAID_NOW[0] != second:
        _SAID_NOW[:] = [second, datetime.fromtimestamp(second, UTC).isoformat(timespec="seconds")]
    return _SAID_NOW[1]


def _now_exact() -> str:
    """Now to the microsecond: an order of use (the replay cache's), where seconds would tie."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


def _dumps(obj: Any) -> str:
    # no sort_keys: dicts keep their order through JSON, and sorting a large snapshot costs time per action.
    # orjson writes the same compact text several times as fast; what it cannot write (a lone surrogate, an
    # integer past 64 bits, a type JSON lacks) goes to the standard library, which fails on it as it always did
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # (orjson.JSONEncodeError)
        pass
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _loads(text: str | bytes) -> Any:
    """JSON text's value: orjson's parser, else (and for what it refuses, e.g. NaN) the standard library's."""
    try:
        return orjson.loads(text)
    except ValueError:  # (orjson.JSONDecodeError)
        pass
    return json.loads(text)


class Store(ABC):
    """Async persistence, the same methods on either backend. Open with ``await store.connect(path_or_url)``
    (or ``SqliteStore.open(path)`` / ``PostgresStore.open(url)``); close with ``await store.close()``."""

    def __init__(self) -> None:
        self._damaged: set[tuple[int, str]] = set()  # (game id, column) already logged
        self._game_columns: str | None = None  # see _columns

    # -- the dialect: what store/sqlite.py and store/postgres.py implement ---------------------------

    @abstractmethod
    async def close(self) -> None:
        """Close the connection (or pool); never raises a background task's error."""

    @abstractmethod
    async def checkpoint(self) -> None:
        """Fold the write-ahead log into the database now, where the backend has one to fold."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of migrations (store/migrations.py) the database has had."""

    @abstractmethod
    async def journal_mode(self) -> str:
        """SQLite's journal mode (``wal``); the other backend has none to report."""

    @abstractmethod
    async def _rows(self, sql: str, params: tuple = ()) -> list:
        """All rows of a query (``?`` placeholders), fetched in one call."""

    @abstractmethod
    async def _transaction(self, statements: list[Statement], guard: Statement | None = None,
                           *, first_id: bool = False) -> Any:
        """Run statements atomically; ``guard`` (an UPDATE) must change exactly one row, else VersionConflict.
        Returns the id of the row the last statement inserted; with ``first_id``, of the row the first one
        inserted, which later statements may use as the parameter ``FIRST_ID`` (a tournament and its first
        entry, a game and its seats)."""

    @staticmethod
    @abstractmethod
    def _raw(column: str) -> str:
        """SQL for the bytes of a text column, as stored: never decoded by the driver, which would fail the whole
        query on bytes that are not UTF-8 text (they are decoded row by row: :func:`_text`)."""

    @abstractmethod
    async def _column_names(self, table: str) -> list[str]:
        """A table's columns, in order."""

    @abstractmethod
    async def _text_columns(self, table: str) -> set[str]:
        """A table's text columns."""

    @staticmethod
    @abstractmethod
    def _undecodable(exc: BaseException) -> bool:
        """Whether a query failed on stored bytes that are not text in the connection's encoding."""

    @staticmethod
    @abstractmethod
    def _json_set(column: str, key: str) -> str:
        """SQL for ``column`` (JSON text) with ``key`` set to the next parameter (an integer)."""

    @staticmethod
    @abstractmethod
    def _json_int(column: str, key: str) -> str:
        """SQL for the integer at ``key`` of ``column`` (JSON text)."""

    @staticmethod
    @abstractmethod
    def _json_remove(column: str, key: str) -> str:
        """SQL for ``column`` (JSON text) without ``key``."""

    # -- shared reads ---------------------------------------------------------------------------------

    async def _rows_many(self, queries: list[Statement]) -> list[list]:
        """The rows of each query, in order (SQLite: in one call to the connection's worker thread)."""
        return [await self._rows(sql, params) for sql, params in queries]

    async def _fetchall(self, sql: str, params: tuple = ()) -> list:
        return await self._rows(sql, params)

    async def _fetchone(self, sql: str, params: tuple = ()):
        rows = await self._rows(sql, params)
        return rows[0] if rows else None

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
        statements: list[Statement] = [
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
        statements: list[Statement] = [("UPDATE seats SET seat = -1 - seat WHERE game_id = ?", (game_id,))]
        statements += [("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (new, game_id, -1 - old))
                       for new, old in enumerate(order)]
        await self._transaction(statements)

    async def set_dm_closed(self, game_id: int, seat: int, closed: bool) -> None:
        await self._transaction([("UPDATE seats SET dm_closed = ? WHERE game_id = ? AND seat = ?",
                                  (int(closed), game_id, seat))])

    async def set_places(self, game_id: int, *, thread_id: int | None = None,
                         board_message_id: int | None = None, opening_owed: bool | None = None) -> None:
        """Remember where the game lives on Discord (its thread, its latest board message). ``opening_owed``:
        whether the game's first message is still to be posted at its place (``options.opening_owed``, written
        with the place so that a restart in between posts it: host/places.py)."""
        sets: list[str] = []
        params: list[Any] = []
        if thread_id is not None:
            sets.append("thread_id = ?")
            params.append(thread_id)
        if board_message_id is not None:
            sets.append("board_message_id = ?")
            params.append(board_message_id)
        if opening_owed:
            sets.append(f"options = {self._json_set('options', 'opening_owed')}")
            params.append(1)
        elif opening_owed is not None:
            sets.append(f"options = {self._json_remove('options', 'opening_owed')}")
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
        # the JSON is read here, not in SQL: one game's damaged options must not fail the query for every game
        found = await self._games("SELECT {columns} FROM games g WHERE g.options LIKE ? AND g.status != 'abandoned'"
                                  " ORDER BY g.id", (f'%"rematch_of":{game_id}%',))
        return next((g for g in found if g.options.get("rematch_of") == game_id), None)

    async def start_game(self, game_id: int, *, num_players: int, snapshot: dict, rules_version: int,
                         publish: list[str] | None = None, options: dict | None = None) -> None:
        """Lobby -> running, with the initial snapshot at version 0 (and the opening narration in the outbox);
        ``options``: the game's options as it was dealt, when starting it settled some (a player's own deck)."""
        guard: Statement
        if options is None:
            guard = ("UPDATE games SET status = 'running', num_players = ?, snapshot = ?, rules_version = ?,"
                     " version = 0, updated_at = ? WHERE id = ? AND status = 'lobby'",
                     (num_players, _dumps(snapshot), rules_version, _now(), game_id))
        else:
            guard = ("UPDATE games SET status = 'running', num_players = ?, snapshot = ?, rules_version = ?,"
                     " version = 0, options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                     (num_players, _dumps(snapshot), rules_version, _dumps(options), _now(), game_id))
        await self._transaction([_outbox_entry(game_id, 0, None, publish or [])], guard=guard)

    async def commit_action(self, game_id: int, *, expected_version: int, seat: int, user_id: int | None,
                            action: dict, events: list, snapshot: dict | str, result: dict | None,
                            publish: list[str] | None = None, clocks: list | None = None) -> int:
        """Append one action, replace the snapshot, bump the version and record what must be published (the
        outbox entry with the action's narration ``publish``), atomically; ``clocks``: the game's seat clocks
        after the action (see :meth:`set_clocks`), saved in the same transaction. Returns the new version.
        ``snapshot``: the state's JSON, or that JSON already as text (``engine.json_text``: made once per move,
        the same text serves the store and the host's workers)."""
        now = _now()
        status = "finished" if result is not None else "running"
        version = expected_version + 1
        await self._transaction(
            [("INSERT INTO actions (game_id, seq, seat, user_id, action, events, created_at)"
              " VALUES (?, ?, ?, ?, ?, ?, ?)",
              (game_id, version, seat, user_id, _dumps(action), _dumps(events), now)),
             _outbox_entry(game_id, version, version, publish or []),
             *(_clock_statements(game_id, clocks) if clocks is not None else [])],
            guard=("UPDATE games SET version = version + 1, snapshot = ?, status = ?, result = ?, updated_at = ?"
                   " WHERE id = ? AND version = ? AND status = 'running'",
                   (snapshot if isinstance(snapshot, str) else _dumps(snapshot), status,
                    _dumps(result) if result is not None else None, now, game_id,
                    expected_version)),
        )
        if clocks is not None:
            _remember_clocks(game_id, clocks)
        return expected_version + 1

    async def set_status(self, game_id: int, status: str, result: dict | None = None, *,
                         publish: list[str] | None = None, clocks: list | None = None,
                         dms: dict[int, str] | None = None, depart: tuple[int, str, int | None] | None = None,
                         ) -> None:
        """Change a game's status (and result); ``publish``: narration owed to its thread (an outbox entry, with
        ``dms``: seat -> text owed to that seat's DM), ``clocks``: the game's seat clocks (see :meth:`set_clocks`)
        and ``depart``: a player who left (see :meth:`departures`), in the same transaction, so the change is
        never saved without the board that tells it."""
        statements: list[Statement] = [("UPDATE games SET status = ?, result = COALESCE(?, result), updated_at = ?"
                       " WHERE id = ?",
                       (status, _dumps(result) if result is not None else None, _now(), game_id))]
        if clocks is not None:
            statements += _clock_statements(game_id, clocks)
        if depart is not None:
            statements.append(_departure_statement(game_id, *depart))
        if publish is not None:
            statements.append(_outbox_entry(game_id, None, None, publish, dms=dms))
        await self._transaction(statements)
        if clocks is not None:
            _remember_clocks(game_id, clocks)

    async def get_game(self, game_id: int, *, with_snapshot: bool = True, tolerant: bool = False,
                       along: int | None = None) -> GameRow | None:
        """A game with its seats; ``with_snapshot=False`` skips reading the (possibly large) snapshot. A row that
        cannot be read raises :class:`DamagedRow` (logged once), or with ``tolerant`` comes back with ``damage``
        set and what can be read (its seats, server, thread, status) - enough to list it or end it.

        Read in one call to the database (issue 29). ``along`` (epoch seconds; within :meth:`remembering` only):
        what a move reads besides - the game's clocks, the vacations at ``along`` and its people's settings -
        comes in the same call and is remembered for the rest of the operation."""
        snapshot = f", {self._raw('g.snapshot')} AS snapshot" if with_snapshot else ""
        sql = f"SELECT {await self._columns()}{snapshot} FROM games g WHERE g.id = ?"
        memo = _memo() if along is not None else None
        extra = _along_queries(game_id, along) if memo is not None and along is not None else []
        try:
            rows, seat_rows, *found = await self._rows_many([(sql, (game_id,)), (_SEATS_SQL, (game_id,)), *extra])
        except Exception as exc:
            if not self._undecodable(exc):
                raise
            return await self._get_game_raw(game_id, sql, with_snapshot, tolerant)
        if not rows:
            return None
        game = self._read_game(rows[0], with_snapshot, tolerant)
        game.seats = [_seat_row(r) for r in seat_rows]
        if memo is not None and along is not None:
            self._remember_along(memo, game, along, found)
        return game

    async def _get_game_raw(self, game_id: int, sql: str, with_snapshot: bool, tolerant: bool) -> GameRow | None:
        """:meth:`get_game` of a game whose row or seats hold bytes that are not text: read again query by query,
        the text columns as their stored bytes."""
        try:
            rows = await self._rows(sql, (game_id,))
        except Exception as exc:
            if not self._undecodable(exc):
                raise
            rows = await self._raw_rows(sql, (game_id,))
        if not rows:
            return None
        game = self._read_game(rows[0], with_snapshot, tolerant)
        game.seats = await self._seats(game_id)
        return game

    def _read_game(self, row, with_snapshot: bool, tolerant: bool) -> GameRow:
        problems: list[DamagedRow] = []
        game = _game_row(row, with_snapshot=with_snapshot, problems=problems)
        for problem in problems:
            self._report(problem)
        if problems and not tolerant:
            raise problems[0]
        return game

    def _remember_along(self, memo: dict, game: GameRow, now: int, found: list[list]) -> None:
        """Remember what :func:`_along_queries` read (what the operation wrote meanwhile is kept instead)."""
        clock_rows, away_rows, settings_rows = found
        memo.setdefault(("clocks", game.id), [_clock_dict(r) for r in clock_rows])
        memo.setdefault(("away", now), {r["user_id"]: r["until"] for r in away_rows})
        stored = {r["user_id"]: r["settings"] for r in settings_rows}
        for seat in game.seats:
            if seat.user_id is not None:
                memo.setdefault(("user_settings", seat.user_id),
                                self._settings_of(seat.user_id, stored.get(seat.user_id)))

    async def snapshot(self, game_id: int) -> tuple[int, dict | None]:
        """(version, snapshot) of a game, read together; :class:`DamagedRow` when the snapshot cannot be read."""
        (row,) = await self._rows(f"SELECT id, version, {self._raw('snapshot')} AS snapshot FROM games WHERE id = ?",
                                  (game_id,))
        try:
            return row["version"], _json(row, "snapshot") if row["snapshot"] else None
        except DamagedRow as exc:
            self._report(exc)
            raise

    async def snapshot_problems(self, game_ids: list[int]) -> dict[int, DamagedRow | int | None]:
        """For each game: :class:`DamagedRow` when its snapshot cannot be read, else the ``rules_version`` it was
        saved under (None: not said, or no snapshot) - what a listing needs to mark a game it cannot play."""
        found: dict[int, DamagedRow | int | None] = {}
        for game_id in game_ids:
            rows = await self._rows(f"SELECT id, {self._raw('snapshot')} AS snapshot FROM games WHERE id = ?",
                                    (game_id,))
            if not rows or rows[0]["snapshot"] is None:
                found[game_id] = None
                continue
            try:
                snapshot = _json(rows[0], "snapshot")
            except DamagedRow as exc:
                self._report(exc)
                found[game_id] = exc
                continue
            version = snapshot.get("rules_version") if isinstance(snapshot, dict) else None
            found[game_id] = version if isinstance(version, int) else None
        return found

    async def _seats(self, game_id: int) -> list[SeatRow]:
        sql = _SEATS_SQL
        try:
            rows = await self._rows(sql, (game_id,))
        except Exception as exc:  # a name that is not text: shown with replacement characters
            if not self._undecodable(exc):
                raise
            rows = [{k: _text(v, lenient=True) for k, v in r.items()} for r in await self._raw_rows(sql, (game_id,))]
        return [_seat_row(r) for r in rows]

    async def _columns(self) -> str:
        """The columns of a game row but its snapshot (listings never read snapshots: they are large, and one that
        cannot be read must not fail a listing), as ``g.<name>``; read from the table, so that a column added by
        a migration comes along."""
        if self._game_columns is None:
            self._game_columns = ", ".join(f"g.{name}" for name in await self._column_names("games")
                                           if name != "snapshot")
        return self._game_columns

    async def _raw_rows(self, sql: str, params: tuple) -> list[dict]:
        """The rows of a query that failed on bytes that are not text, read again with every text column as its
        stored bytes (:meth:`_raw`): a row's text columns are bytes then, decoded by :func:`_text`."""
        table = "seats" if " FROM seats " in sql else "games"
        alias = "g." if " FROM games g " in sql else ""
        names = await self._column_names(table)
        texts = await self._text_columns(table)
        select = ", ".join(f"{self._raw(alias + n)} AS {n}" if n in texts else alias + n for n in names)
        rows = await self._rows(sql.replace(sql[len("SELECT "):sql.index(" FROM ")], select, 1), params)
        return [dict(r.items()) if hasattr(r, "items") else {k: r[k] for k in r.keys()} for r in rows]

    async def list_games(self, *, guild_id: int | None = None, statuses: tuple[str, ...] = ("lobby", "running"),
                         user_id: int | None = None, thread_id: int | None = None,
                         limit: int = 25, shards: Shards | None = None, damaged: bool = False) -> list[GameRow]:
        """Games filtered by guild, status, participant, thread or shards (host/shards.py); newest first, without
        snapshots. ``damaged``: rows that cannot be read come too, with ``damage`` set (else they are left out)."""
        where = [f"g.status IN ({','.join('?' * len(statuses))})"]
        params: list[Any] = list(statuses)
        if shards is not None:
            where.append(shards.sql("g.guild_id"))
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        if thread_id is not None:
            where.append("g.thread_id = ?")
            params.append(thread_id)
        if user_id is not None:
            where.append("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)")
            params.append(user_id)
        sql = f"SELECT {{columns}} FROM games g WHERE {' AND '.join(where)} ORDER BY g.id DESC LIMIT ?"
        return await self._games(sql, (*params, limit), damaged=damaged)

    # -- tournaments (round-robin leagues) -----------------------------------------------------------

    async def create_tournament(self, *, engine: str, lang: str, guild_id: int | None, channel_id: int | None,
                                organizer_id: int) -> int:
        return await self._transaction([(
            "INSERT INTO tournaments (engine, lang, status, guild_id, channel_id, organizer_id, created_at)"
            " VALUES (?, ?, 'open', ?, ?, ?, ?)", (engine, lang, guild_id, channel_id, organizer_id, _now()))])

    async def tournament(self, tournament_id: int) -> Tournament | None:
        rows = await self._rows("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        if not rows:
            return None
        row = rows[0]
        entries = [(r["user_id"], r["name"]) for r in await self._rows(
            "SELECT user_id, name FROM tournament_entries WHERE tournament_id = ? ORDER BY joined",
            (tournament_id,))]
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
        return await self._games("SELECT {columns} FROM games g WHERE g.tournament_id = ? ORDER BY g.id",
                                 (tournament_id,))

    async def finished_games(self, *, engine: str, guild_id: int | None) -> list[GameRow]:
        """A server's finished games of one kind, in the order they ended, with seats and results."""
        return await self._games("SELECT {columns} FROM games g WHERE g.status = 'finished' AND g.engine = ?"
                                 " AND g.guild_id IS NOT DISTINCT FROM ?"
                                 " ORDER BY g.updated_at, g.id", (engine, guild_id))

    async def waiting_games(self, cutoff: datetime, *, after_id: int = 0, limit: int = 200,
                            shards: Shards | None = None) -> list[tuple[int, int]]:
        """(id, version) of up to ``limit`` running games unchanged since ``cutoff`` whose current board has not
        been reminded of yet, with ids above ``after_id``, in id order: the reminders read due games in batches,
        without their rows. ``shards``: of these shards' servers only."""
        mine = f" AND {shards.sql('guild_id')}" if shards is not None else ""
        rows = await self._rows(
            "SELECT id, version FROM games WHERE status = 'running' AND updated_at < ?"
            " AND reminded_version < version AND id > ?" + mine + " ORDER BY id LIMIT ?",
            (cutoff.astimezone(UTC).isoformat(timespec="seconds"), after_id, limit))
        return [(r["id"], r["version"]) for r in rows]

    async def _games(self, sql: str, params: tuple, *, damaged: bool = False) -> list[GameRow]:
        """The games a query selects (``SELECT {columns} FROM games g ...``), with their seats, without snapshots.
        A damaged row is logged and left out, or with ``damaged`` listed with ``damage`` set: one broken game must
        not hide a server's other games. Bytes that are not text fail the whole query in the driver: then the
        rows are read again as bytes (:meth:`_raw_rows`) and only the damaged row is marked."""
        query = sql.replace("{columns}", await self._columns())
        try:
            rows = await self._rows(query, params)
        except Exception as exc:
            if not self._undecodable(exc):
                raise
            rows = await self._raw_rows(query, params)
        games = []
        for r in rows:
            problems: list[DamagedRow] = []
            game = _game_row(r, with_snapshot=False, problems=problems)
            for problem in problems:
                self._report(problem)
            if not problems or damaged:
                games.append(game)
        for g in games:
            g.seats = await self._seats(g.id)
        return games

    async def set_reminded_many(self, boards: list[tuple[int, int]]) -> None:
        """Mark these boards (game id, version) as reminded of, in one transaction (never lowering a mark)."""
        if boards:
            await self._transaction([("UPDATE games SET reminded_version = ? WHERE id = ? AND reminded_version < ?",
                                      (version, game_id, version)) for game_id, version in boards])

    async def actions(self, game_id: int, after: int = 0, upto: int | None = None) -> list[dict]:
        """The action log in order (from sequence number ``after + 1`` on, up to ``upto`` when given):
        ``{"seq", "seat", "user_id", "action", "events", "created_at"}``."""
        where, params = ("seq > ?", (game_id, after)) if upto is None else ("seq > ? AND seq <= ?", (game_id, after, upto))
        try:
            rows = await self._rows(f"SELECT * FROM actions WHERE game_id = ? AND {where} ORDER BY seq", params)
        except Exception as exc:
            if not self._undecodable(exc):
                raise
            damaged = DamagedRow(f"game {game_id}: its action log holds bytes that are not UTF-8 text ({exc})",
                                 where=(game_id, "actions"), kind="bytes")
            self._report(damaged)
            raise damaged from exc
        try:
            return [{"seq": r["seq"], "seat": r["seat"], "user_id": r["user_id"], "action": _json(r, "action"),
                     "events": _json(r, "events"), "created_at": r["created_at"]} for r in rows]
        except DamagedRow as exc:
            self._report(exc)
            raise

    # -- the outbox (what committed changes still owe the players) -----------------------------------

    async def add_outbox(self, game_id: int, lines: list[str], *, next_try: datetime | None = None) -> None:
        """An outbox entry of its own (narration without an action, or a retry marker when ``lines`` is empty)."""
        await self._transaction([_outbox_entry(game_id, None, None, lines, next_try)])

    async def outbox(self, game_id: int) -> list[OutboxEntry]:
        """A game's pending entries (not those set aside), oldest first."""
        rows = await self._rows("SELECT * FROM outbox WHERE game_id = ? AND dead_at IS NULL ORDER BY id", (game_id,))
        return [OutboxEntry(id=r["id"], version=r["version"], seq=r["seq"], lines=json.loads(r["lines"]),
                            posted=bool(r["posted"]), attempts=r["attempts"], created_at=r["created_at"],
                            dms={int(seat): text for seat, text in json.loads(r["dms"]).items()})
                for r in rows]

    async def pending_publications(self, now: datetime | None = None, *, created_before: datetime | None = None,
                                   guild_ids=None, shards: Shards | None = None) -> list[int]:
        """Games with outbox entries due by ``now`` (all of them without ``now``) and written before
        ``created_before``, oldest entry first; ``guild_ids``: of these guilds only; ``shards``: of these shards'
        servers only (host/shards.py)."""
        mine = f" AND {shards.sql('g.guild_id')}" if shards is not None else ""
        sql = ("SELECT o.game_id, g.guild_id, MIN(o.id) AS first FROM outbox o JOIN games g ON g.id = o.game_id"
               " WHERE o.next_try <= ? AND o.created_at <= ? AND o.dead_at IS NULL" + mine
               + " GROUP BY o.game_id, g.guild_id ORDER BY first")
        due = _stamp(now) if now is not None else "9999"
        made = _stamp(created_before) if created_before is not None else "9999"
        rows = await self._rows(sql, (due, made))
        return [r["game_id"] for r in rows if guild_ids is None or r["guild_id"] in guild_ids]

    async def gauges(self) -> tuple[dict[str, int], int, int]:
        """(games by status, games whose outbox owes a delivery, games whose publication is set aside), read from
        counters: ``game_counts`` (kept by the database's triggers) and the outbox, which holds only what is
        still owed or set aside."""
        counts = {r["status"]: r["n"] for r in await self._rows("SELECT status, n FROM game_counts")}
        ((owed, dead),) = await self._rows(
            "SELECT COUNT(DISTINCT CASE WHEN dead_at IS NULL THEN game_id END),"
            " COUNT(DISTINCT CASE WHEN dead_at IS NOT NULL THEN game_id END) FROM outbox")
        return counts, owed, dead

    async def outbox_failed(self, game_id: int, upto: int, error: str, next_try: datetime) -> None:
        """Delivery of a game's entries up to ``upto`` failed: count the attempt, try again at ``next_try``."""
        await self._transaction([("UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try = ?"
                                  " WHERE game_id = ? AND id <= ?", (error[:500], _stamp(next_try), game_id, upto))])

    async def outbox_setback(self, game_id: int, error: str, plan: list[tuple[int, datetime | None]]) -> None:
        """A delivery failed once more: each entry of ``plan`` (entry id, next try) counts the failed attempt and
        is tried again then, or, with None, is set aside (a dead letter: kept, never tried again)."""
        now = _now()
        await self._transaction([
            ("UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_try = ?, dead_at = ?"
             " WHERE game_id = ? AND id = ? AND dead_at IS NULL",
             (error[:500], _stamp(when) if when is not None else "", None if when is not None else now,
              game_id, entry)) for entry, when in plan])

    async def dead_letters(self, game_id: int | None = None, *, unnoted: bool = False,
                           shards: Shards | None = None) -> list[DeadLetter]:
        """The games with publications set aside, one :class:`DeadLetter` each; ``game_id``: of that game only;
        ``unnoted``: only those whose thread has not been told yet; ``shards``: of these shards' servers."""
        where = ["o.dead_at IS NOT NULL"]
        params: list[Any] = []
        if game_id is not None:
            where.append("o.game_id = ?")
            params.append(game_id)
        if unnoted:
            where.append("o.noted = 0")
        if shards is not None:
            where.append(shards.sql("g.guild_id"))
        rows = await self._rows(
            "SELECT o.game_id, o.id, o.attempts, o.last_error, o.dead_at, o.noted FROM outbox o"
            f" JOIN games g ON g.id = o.game_id WHERE {' AND '.join(where)} ORDER BY o.game_id, o.id",
            tuple(params))
        games: dict[int, DeadLetter] = {}
        for r in rows:
            dead = games.setdefault(r["game_id"], DeadLetter(r["game_id"], 0, r["id"], 0, None, None, True))
            dead.entries += 1
            dead.upto, dead.attempts = r["id"], max(dead.attempts, r["attempts"])
            dead.last_error, dead.dead_at, dead.noted = r["last_error"], r["dead_at"], dead.noted and bool(r["noted"])
        return list(games.values())

    async def outbox_noted(self, game_id: int, upto: int) -> None:
        """The game's thread has been told about its entries set aside up to ``upto``."""
        await self._transaction([("UPDATE outbox SET noted = 1 WHERE game_id = ? AND id <= ? AND dead_at IS NOT NULL",
                                  (game_id, upto))])

    async def publication_trouble(self, game_id: int) -> PublicationTrouble | None:
        """What went wrong with publishing a game, for /game status; None when nothing failed."""
        rows = await self._rows("SELECT attempts, last_error, next_try, dead_at FROM outbox WHERE game_id = ?"
                                " AND (attempts > 0 OR dead_at IS NOT NULL) ORDER BY id", (game_id,))
        if not rows:
            return None
        pending = [r for r in rows if r["dead_at"] is None]
        dead = [r for r in rows if r["dead_at"] is not None]
        return PublicationTrouble(attempts=max((r["attempts"] for r in pending), default=0),
                                  next_try=min((r["next_try"] for r in pending if r["attempts"]), default=None),
                                  last_error=rows[-1]["last_error"],
                                  set_aside=max((r["attempts"] for r in dead), default=0),
                                  dead_at=dead[-1]["dead_at"] if dead else None)

    async def outbox_posted(self, game_id: int, upto: int, board_message_id: int, *, turn: int | None = None,
                            since: int | None = None) -> None:
        """The board for entries up to ``upto`` is up (message ``board_message_id``); their DMs may be owed.
        ``turn``: the seats (a bit each) of the people that board asks to decide (``options.board_turn``);
        ``since``: the first action it tells (``options.board_since``), so that the next decisions of the same
        turn update it in place, told from there on (host/outbox.py)."""
        await self._transaction([("UPDATE outbox SET posted = 1 WHERE game_id = ? AND id <= ?", (game_id, upto)),
                                 *self._board_statements(game_id, board_message_id, turn, since)])

    async def outbox_done(self, game_id: int, upto: int, *, retry_at: datetime | None = None,
                          set_aside: bool = True) -> None:
        """Entries up to ``upto`` are delivered; ``retry_at``: the game still owes work (an AI turn that failed),
        so a marker entry due then stays behind. ``set_aside``: the entries set aside before go too (a newer board
        is up, or nothing of the game is shown any more); False keeps them."""
        await self._transaction(_done_statements(game_id, upto, retry_at, set_aside))

    async def outbox_delivered(self, game_id: int, upto: int, board_message_id: int, *, turn: int | None = None,
                               since: int | None = None, retry_at: datetime | None = None,
                               set_aside: bool = True) -> None:
        """:meth:`outbox_posted` and :meth:`outbox_done` in one transaction: the board for entries up to ``upto``
        is up (message ``board_message_id``, asking ``turn``, telling from ``since``) and everything they owed is
        delivered (one commit per publication instead of two)."""
        await self._transaction([*self._board_statements(game_id, board_message_id, turn, since),
                                 *_done_statements(game_id, upto, retry_at, set_aside)])

    def _board_statements(self, game_id: int, board_message_id: int, turn: int | None,
                          since: int | None) -> list[Statement]:
        """Record the game's board that is up: its message, and (when given) whom it asks and where it starts."""
        statements: list[Statement] = [("UPDATE games SET board_message_id = ? WHERE id = ?",
                                        (board_message_id, game_id))]
        for key, value in (("board_turn", turn), ("board_since", since)):
            if value is not None:
                statements.append((f"UPDATE games SET options = {self._json_set('options', key)} WHERE id = ?",
                                   (value, game_id)))
        return statements

    # -- turn clocks (host/clock.py) -----------------------------------------------------------------

    @asynccontextmanager
    async def remembering(self) -> AsyncIterator[None]:
        """Within this block (one operation of the game service, under the game's lock) a game's clocks and the
        vacations as of a given second are read from the database at most once: what this store writes in the
        meantime replaces or forgets them. Nothing is remembered past the block, not even by tasks started in
        it."""
        memo: dict = {}
        token = _MEMO.set(memo)
        try:
            yield
        finally:
            memo.clear()
            memo[_CLOSED] = True
            _MEMO.reset(token)

    async def clocks(self, game_id: int, *, shared: bool = False) -> list[dict]:
        """A game's seat clocks (dicts of the ``clocks`` columns but ``game_id``), in seat order. ``shared``:
        within :meth:`remembering`, the remembered list itself (the caller must not change it), the same object
        until the clocks are written or forgotten: a caller may keep what it made of it by that identity."""
        memo, key = _memo(), ("clocks", game_id)
        if memo is None or key not in memo:
            found = [_clock_dict(r) for r in
                     await self._rows("SELECT * FROM clocks WHERE game_id = ? ORDER BY seat", (game_id,))]
            if memo is None:
                return found
            memo[key] = found
        return memo[key] if shared else [dict(row) for row in memo[key]]

    async def set_clocks(self, game_id: int, clocks: list, publish: list[str] | None = None,
                         dms: dict[int, str] | None = None, depart: tuple[int, str, int] | None = None) -> None:
        """Replace a game's seat clocks (objects with the ``clocks`` columns as attributes); ``publish``: narration
        to post with the next board, ``dms`` (seat -> text) to add to those seats' next DM and ``depart``: a
        player who left (see :meth:`departures`), in the same transaction."""
        statements = _clock_statements(game_id, clocks)
        if depart is not None:
            statements.append(_departure_statement(game_id, *depart))
        if publish or dms:
            statements.append(_outbox_entry(game_id, None, None, publish or [], dms=dms))
        await self._transaction(statements)
        _remember_clocks(game_id, clocks)

    async def departures(self, game_id: int) -> list[dict]:
        """The players who left a game before its end, in the order they left: ``{"seat", "how", "step"}``
        (host/ending.py). A seat leaves once."""
        rows = await self._rows("SELECT seat, how, step FROM departures WHERE game_id = ? ORDER BY ord", (game_id,))
        return [{"seat": r["seat"], "how": r["how"], "step": r["step"]} for r in rows]

    async def due_clocks(self, now: int, hour: int = 3600, *, shards: Shards | None = None) -> list[int]:
        """Running games with a clock that may owe something at ``now`` (a timeout or a warning), or with a
        vacation that has ended, in id order; ``shards``: of these shards' servers only."""
        mine = f" AND {shards.sql('g.guild_id')}" if shards is not None else ""
        sql = ("SELECT DISTINCT c.game_id FROM clocks c JOIN games g ON g.id = c.game_id"
               " WHERE g.status = 'running' AND c.deadline IS NOT NULL AND c.paused_at IS NULL AND c.stand_in = 0"
               " AND (c.deadline <= ? OR (c.warned_half = 0 AND c.started + (c.deadline - c.started) / 2 <= ?)"
               " OR (c.warned_hour = 0 AND c.deadline - ? <= ?))" + mine + " ORDER BY c.game_id")
        return [r["game_id"] for r in await self._rows(sql, (now, now, hour, now))]

    async def last_beat(self, name: str = "host") -> int | None:
        """The last heartbeat of ``name`` (None: never)."""
        row = next(iter(await self._rows("SELECT seen FROM heartbeat WHERE name = ?", (name,))), None)
        return row["seen"] if row else None

    async def beat(self, now: int, name: str = "host") -> int | None:
        """Record that the host is up at ``now``; returns the previous heartbeat (None the first time)."""
        row = next(iter(await self._rows("SELECT seen FROM heartbeat WHERE name = ?", (name,))), None)
        await self._transaction([("INSERT INTO heartbeat (name, seen) VALUES (?, ?) ON CONFLICT (name)"
                                  " DO UPDATE SET seen = excluded.seen", (name, now))])
        return row["seen"] if row else None

    async def clock_games(self, *, running: bool = False, user_id: int | None = None,
                          shards: Shards | None = None) -> list[int]:
        """Running games with turn clocks, in id order: ``running``: with a clock running now (not paused);
        ``user_id``: where this person has a seat; ``shards``: of these shards' servers only."""
        where = ["g.status = 'running'"]
        params: list[Any] = []
        if running:
            where.append("c.deadline IS NOT NULL AND c.paused_at IS NULL")
        if user_id is not None:
            where.append("EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)")
            params.append(user_id)
        if shards is not None:
            where.append(shards.sql("g.guild_id"))
        rows = await self._rows("SELECT DISTINCT c.game_id FROM clocks c JOIN games g ON g.id = c.game_id WHERE "
                                + " AND ".join(where) + " ORDER BY c.game_id", tuple(params))
        return [r["game_id"] for r in rows]

    async def shift_clocks(self, seconds: int, *, shards: Shards | None = None,
                           publish: dict[int, list[str]] | None = None) -> None:
        """Give every running, unpaused clock ``seconds`` back (the host was down that long), and move the times
        seats went out by as much (a claim waits for time the absent player could have come back in);
        ``shards``: only the clocks of these shards' games (their process was down, the others were not);
        ``publish``: game -> narration owed to its thread (the moved deadlines), in the same transaction."""
        mine = (" AND EXISTS (SELECT 1 FROM games g WHERE g.id = clocks.game_id AND "
                + shards.sql("g.guild_id") + ")") if shards is not None else ""
        await self._transaction([
            ("UPDATE clocks SET started = started + ?, deadline = deadline + ?"
             " WHERE deadline IS NOT NULL AND paused_at IS NULL" + mine, (seconds, seconds)),
            ("UPDATE clocks SET out_since = out_since + ? WHERE out_since IS NOT NULL AND EXISTS (SELECT 1 FROM"
             " games r WHERE r.id = clocks.game_id AND r.status = 'running')" + mine, (seconds,)),
            *_notes(publish)])

    async def resume_clocks(self, user_id: int, *, at: int, shards: Shards | None = None) -> None:
        """Run a person's paused clocks again as if their vacation ended at ``at`` (their deadlines moved on by the
        pause), in these shards' games only; the vacation itself is ended by :meth:`end_away`. For a vacation
        that ended while the host was down: its clocks stay paused until the host is back."""
        mine = (" AND EXISTS (SELECT 1 FROM games g WHERE g.id = clocks.game_id AND "
                + shards.sql("g.guild_id") + ")") if shards is not None else ""
        await self._transaction([
            ("UPDATE clocks SET started = started + (? - paused_at), deadline = deadline + (? - paused_at),"
             " paused_at = NULL WHERE paused_at IS NOT NULL AND EXISTS (SELECT 1 FROM seats s WHERE"
             " s.game_id = clocks.game_id AND s.seat = clocks.seat AND s.user_id = ?)" + mine,
             (at, at, user_id))])

    async def away(self, user_id: int) -> dict | None:
        """A person's vacation record: ``{"since", "until", "month", "used_days"}`` (since/until None when back)."""
        row = next(iter(await self._rows("SELECT * FROM away WHERE user_id = ?", (user_id,))), None)
        return {k: row[k] for k in ("since", "until", "month", "used_days")} if row else None

    async def away_users(self, now: int) -> dict[int, int]:
        """People on vacation at ``now``: user id -> until."""
        memo, key = _memo(), ("away", now)
        if memo is None or key not in memo:
            rows = await self._rows("SELECT user_id, until FROM away WHERE since IS NOT NULL AND until > ?", (now,))
            found = {r["user_id"]: r["until"] for r in rows}
            if memo is None:
                return found
            memo[key] = found
        return dict(memo[key])

    async def ended_aways(self, now: int) -> list[tuple[int, int]]:
        """(user id, until) of the vacations over by ``now`` that have not been ended yet."""
        rows = await self._rows("SELECT user_id, until FROM away WHERE since IS NOT NULL AND until <= ?", (now,))
        return [(r["user_id"], r["until"]) for r in rows]

    async def set_away(self, user_id: int, *, since: int, until: int, month: str, used_days: int,
                       publish: dict[int, list[str]] | None = None) -> None:
        """Start a vacation: record it and pause the person's running clocks in all their games; ``publish``:
        game -> narration owed to its thread, in the same transaction."""
        await self._transaction([
            ("INSERT INTO away (user_id, since, until, month, used_days) VALUES (?, ?, ?, ?, ?) ON CONFLICT"
             " (user_id) DO UPDATE SET since = excluded.since, until = excluded.until, month = excluded.month,"
             " used_days = excluded.used_days", (user_id, since, until, month, used_days)),
            ("UPDATE clocks SET paused_at = ? WHERE paused_at IS NULL AND deadline IS NOT NULL AND EXISTS"
             " (SELECT 1 FROM seats s WHERE s.game_id = clocks.game_id AND s.seat = clocks.seat AND s.user_id = ?)",
             (since, user_id)),
            *_notes(publish),
        ])

    async def end_away(self, user_id: int, *, at: int, used_days: int | None = None,
                       publish: dict[int, list[str]] | None = None) -> None:
        """End a vacation at ``at``: the person's paused clocks run again, their deadlines moved on by the pause
        (``used_days``: the month's count corrected, e.g. for days given back by coming back early); ``publish``:
        game -> narration owed to its thread, in the same transaction."""
        statements: list[Statement] = [
            ("UPDATE away SET since = NULL, until = NULL, used_days = COALESCE(?, used_days) WHERE user_id = ?",
             (used_days, user_id)),
            ("UPDATE clocks SET started = started + (? - paused_at), deadline = deadline + (? - paused_at),"
             " paused_at = NULL WHERE paused_at IS NOT NULL AND EXISTS (SELECT 1 FROM seats s WHERE"
             " s.game_id = clocks.game_id AND s.seat = clocks.seat AND s.user_id = ?)", (at, at, user_id)),
            *_notes(publish),
        ]
        await self._transaction(statements)

    # -- settings -----------------------------------------------------------------------------------

    async def open_lobbies(self, guild_id: int, *, host_user_id: int | None = None, channel_id: int | None = None,
                           limit: int = 50) -> list[int]:
        """Ids of a server's lobbies (games not started yet) opened by ``host_user_id`` or in ``channel_id``,
        oldest first, at most ``limit``."""
        where, params = ["guild_id = ?", "status = 'lobby'"], [guild_id]
        if host_user_id is not None:
            where.append("host_user_id = ?")
            params.append(host_user_id)
        if channel_id is not None:
            where.append("channel_id = ?")
            params.append(channel_id)
        rows = await self._rows(f"SELECT id FROM games WHERE {' AND '.join(where)} ORDER BY id LIMIT ?",
                                (*params, limit))
        return [r["id"] for r in rows]

    async def open_tournaments(self, guild_id: int, *, organizer_id: int | None = None,
                               channel_id: int | None = None, limit: int = 50) -> list[int]:
        """Ids of a server's tournaments open for registration or under way (not cancelled) organised by
        ``organizer_id`` or in ``channel_id``, oldest first, at most ``limit``."""
        where, params = ["guild_id = ?", "status IN ('open', 'running')", "cancelled = 0"], [guild_id]
        if organizer_id is not None:
            where.append("organizer_id = ?")
            params.append(organizer_id)
        if channel_id is not None:
            where.append("channel_id = ?")
            params.append(channel_id)
        rows = await self._rows(f"SELECT id FROM tournaments WHERE {' AND '.join(where)} ORDER BY id LIMIT ?",
                                (*params, limit))
        return [r["id"] for r in rows]

    async def cached_replay(self, game_id: int, kind: str) -> dict | None:
        """A replay kept by :meth:`cache_replay` (``{"data", "shown", "steps", "revealed"}``), marked as used now;
        None when there is none."""
        rows = await self._rows("SELECT data, shown, steps, revealed FROM replay_cache WHERE game_id = ? AND kind = ?",
                                (game_id, kind))
        if not rows:
            return None
        await self._transaction([("UPDATE replay_cache SET used_at = ? WHERE game_id = ? AND kind = ?",
                                  (_now_exact(), game_id, kind))])
        r = rows[0]
        return {"data": bytes(r["data"]), "shown": r["shown"], "steps": r["steps"], "revealed": r["revealed"]}

    async def cache_replay(self, game_id: int, kind: str, data: bytes, *, shown: int, steps: int, revealed: int,
                           budget: int) -> None:
        """Keep a replay; then, while the cache holds more than ``budget`` bytes, forget the least recently used
        (a replay larger than ``budget`` is not kept)."""
        await self._transaction([
            ("INSERT INTO replay_cache (game_id, kind, data, shown, steps, revealed, size, used_at)"
             " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET data = excluded.data,"
             " shown = excluded.shown, steps = excluded.steps, revealed = excluded.revealed, size = excluded.size,"
             " used_at = excluded.used_at", (game_id, kind, data, shown, steps, revealed, len(data), _now_exact()))])
        rows = await self._rows("SELECT game_id, kind, size FROM replay_cache ORDER BY used_at DESC")
        total, gone = 0, []
        for r in rows:  # the most recently used that fit are kept (one too large never pushes out the rest)
            if total + r["size"] > budget:
                gone.append((r["game_id"], r["kind"]))
            else:
                total += r["size"]
        if gone:
            await self._transaction([("DELETE FROM replay_cache WHERE game_id = ? AND kind = ?", g) for g in gone])

    async def user_settings(self, user_id: int) -> dict:
        memo = _memo()
        if memo is not None and ("user_settings", user_id) in memo:  # (read along with a game: get_game)
            return _loads(_dumps(memo[("user_settings", user_id)]))  # a copy the caller may change
        rows = await self._rows("SELECT settings FROM user_settings WHERE user_id = ?", (user_id,))
        return self._settings_of(user_id, rows[0]["settings"] if rows else None)

    @staticmethod
    def _settings_of(user_id: int, stored: str | None) -> dict:
        """A person's settings as stored (None: none saved): a damaged row is logged and gives the defaults."""
        if stored is None:
            return {}
        try:
            settings = _loads(stored)
        except ValueError:
            settings = None
        if not isinstance(settings, dict):  # a damaged row: the defaults, until the user saves new settings
            log.error("user %s: stored settings are damaged (not a JSON object); using the defaults", user_id)
            return {}
        return settings

    async def set_user_settings(self, user_id: int, settings: dict) -> None:
        await self._transaction([("INSERT INTO user_settings (user_id, settings) VALUES (?, ?) ON CONFLICT"
                                  " (user_id) DO UPDATE SET settings = excluded.settings",
                                  (user_id, _dumps(settings)))])

    # -- players' own decks ---------------------------------------------------------------------------

    async def decks(self, user_id: int, game: str) -> list[dict]:
        """A user's decks of a game, by name: ``{"id", "name", "key", "cards", "updated_at"}`` (``cards`` decoded;
        a damaged row is left out, and logged)."""
        rows = await self._rows("SELECT id, name, name_key, cards, updated_at FROM decks WHERE user_id = ? AND game = ?"
                                " ORDER BY name_key", (user_id, game))
        out = []
        for row in rows:
            try:
                cards = json.loads(row["cards"])
            except ValueError:
                cards = None
            if not isinstance(cards, dict):
                log.error("user %s: the stored deck %r is damaged (not a JSON object)", user_id, row["name"])
                continue
            out.append({"id": row["id"], "name": row["name"], "key": row["name_key"], "cards": cards,
                        "updated_at": row["updated_at"]})
        return out

    async def save_deck(self, user_id: int, game: str, name: str, key: str, cards: dict) -> None:
        """Create or replace the user's deck whose folded name is ``key``."""
        now = _now()
        await self._transaction([("INSERT INTO decks (user_id, game, name, name_key, cards, created_at, updated_at)"
                                  " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game, name_key) DO UPDATE"
                                  " SET name = excluded.name, cards = excluded.cards, updated_at = excluded.updated_at",
                                  (user_id, game, name, key, _dumps(cards), now, now))])

    async def delete_deck(self, user_id: int, game: str, key: str) -> bool:
        """Delete the user's deck; False when there was none of that name."""
        found = await self._rows("SELECT id FROM decks WHERE user_id = ? AND game = ? AND name_key = ?",
                                 (user_id, game, key))
        if not found:
            return False
        await self._transaction([("DELETE FROM decks WHERE user_id = ? AND game = ? AND name_key = ?",
                                  (user_id, game, key))])
        return True

    async def guild_settings(self, guild_id: int) -> dict:
        """A server's own settings (JSON): e.g. the permission problems its admins were told about, its limits
        (host/limits.py)."""
        rows = await self._rows("SELECT settings FROM guild_settings WHERE guild_id = ?", (guild_id,))
        try:
            settings = json.loads(rows[0]["settings"]) if rows else {}
        except ValueError:
            settings = None
        if not isinstance(settings, dict):
            log.error("server %s: stored settings are damaged (not a JSON object); starting afresh", guild_id)
            return {}
        return settings

    async def set_guild_settings(self, guild_id: int, settings: dict) -> None:
        await self._transaction([("INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?) ON CONFLICT"
                                  " (guild_id) DO UPDATE SET settings = excluded.settings",
                                  (guild_id, _dumps(settings)))])

    def _report(self, exc: DamagedRow) -> None:
        """Log a damaged row once per store (listings and reminders meet it again and again)."""
        if exc.where not in self._damaged:
            self._damaged.add(exc.where)
            log.error("%s; only this game is affected", exc)


    # -- tournaments of several formats (migration 6) -------------------------------------------------

    async def create_event(self, *, engine: str, lang: str, guild_id: int | None, channel_id: int | None,
                           organizer_id: int, organizer_name: str, format: str, settings: dict) -> int:
        """A tournament open for registration, with its organizer as its first entry (one transaction)."""
        return await self._transaction([
            ("INSERT INTO tournaments (engine, lang, status, guild_id, channel_id, organizer_id, created_at,"
             " format, settings) VALUES (?, ?, 'open', ?, ?, ?, ?, ?, ?)",
             (engine, lang, guild_id, channel_id, organizer_id, _now(), format, _dumps(settings))),
            ("INSERT INTO tournament_entries (tournament_id, user_id, name, joined) VALUES (?, ?, ?, 0)",
             (FIRST_ID, organizer_id, organizer_name)),
        ], first_id=True)

    async def tournament_extra(self, tournament_id: int) -> dict | None:
        """What migration 6 added to a tournament: format, settings, current_round, paused, cancelled,
        message_id, and ``dropped`` (the set of dropped entries)."""
        row = next(iter(await self._rows("SELECT format, settings, current_round, paused, cancelled, message_id"
                                         " FROM tournaments WHERE id = ?", (tournament_id,))), None)
        if row is None:
            return None
        dropped = {r["user_id"] for r in await self._rows(
            "SELECT user_id FROM tournament_entries WHERE tournament_id = ? AND dropped = 1", (tournament_id,))}
        return {"format": row["format"], "settings": json.loads(row["settings"] or "{}"),
                "current_round": row["current_round"], "paused": bool(row["paused"]),
                "cancelled": bool(row["cancelled"]), "message_id": row["message_id"], "dropped": dropped}

    async def update_tournament(self, tournament_id: int, **fields) -> None:
        """Set some of: status, settings (dict), current_round, paused, cancelled, message_id."""
        allowed = ("status", "settings", "current_round", "paused", "cancelled", "message_id")
        sets, params = [], []
        for name, value in fields.items():
            if name not in allowed:
                raise ValueError(name)
            sets.append(f"{name} = ?")
            params.append(_dumps(value) if name == "settings" else int(value) if isinstance(value, bool) else value)
        if sets:
            await self._transaction([(f"UPDATE tournaments SET {', '.join(sets)} WHERE id = ?",
                                      (*params, tournament_id))])

    async def remove_entry(self, tournament_id: int, user_id: int) -> None:
        await self._transaction([("DELETE FROM tournament_entries WHERE tournament_id = ? AND user_id = ?",
                                  (tournament_id, user_id))])

    async def set_dropped(self, tournament_id: int, user_id: int) -> None:
        await self._transaction([("UPDATE tournament_entries SET dropped = 1 WHERE tournament_id = ? AND user_id = ?",
                                  (tournament_id, user_id))])

    async def add_round(self, tournament_id: int, round_no: int, matches: list[tuple[int, list[int],
                        list[int] | None, str | None]], deadline: datetime | None = None) -> None:
        """A round's matches - (slot, players in seat order, places or None, how) - and the tournament's
        current round, in one transaction (a round exists entirely or not at all)."""
        due = _stamp(deadline) if deadline is not None else None
        statements: list[Statement] = [("INSERT INTO tournament_matches (tournament_id, round_no, slot, players, places, how, deadline)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (tournament_id, round_no, slot, _dumps(players), None if places is None else _dumps(places),
                        how, None if places is not None else due))
                      for slot, players, places, how in matches]
        statements.append(("UPDATE tournaments SET current_round = ? WHERE id = ?", (round_no, tournament_id)))
        await self._transaction(statements)

    async def replace_round(self, tournament_id: int, round_no: int, matches: list[tuple[int, list[int],
                            list[int] | None, str | None]], deadline: datetime | None = None) -> bool:
        """Pair a held round again: its matches (none may have a game yet) replaced by ``matches``, in one
        transaction; False (nothing changed) when one of them has a game already."""
        due = _stamp(deadline) if deadline is not None else None
        statements: list[Statement] = [("DELETE FROM tournament_matches WHERE tournament_id = ? AND round_no = ?",
                       (tournament_id, round_no))]
        statements += [("INSERT INTO tournament_matches (tournament_id, round_no, slot, players, places, how,"
                        " deadline) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (tournament_id, round_no, slot, _dumps(players), None if places is None else _dumps(places),
                         how, None if places is not None else due))
                       for slot, players, places, how in matches]
        try:
            await self._transaction(statements, guard=(
                "UPDATE tournaments SET current_round = current_round WHERE id = ? AND NOT EXISTS (SELECT 1 FROM"
                " tournament_matches WHERE tournament_id = ? AND round_no = ? AND game_id IS NOT NULL)",
                (tournament_id, tournament_id, round_no)))
        except VersionConflict:
            return False
        return True

    async def set_round_deadline(self, tournament_id: int, round_no: int, deadline: datetime | None) -> None:
        """A held round starts now: its unsettled matches' deadline counts from here."""
        await self._transaction([("UPDATE tournament_matches SET deadline = ? WHERE tournament_id = ? AND round_no = ?"
                                  " AND places IS NULL", (_stamp(deadline) if deadline else None, tournament_id,
                                                          round_no))])

    async def corrected_places(self, guild_id: int | None, engine: str) -> dict[int, list[int]]:
        """Places an organizer set afterwards for tournament match games (game id -> places), for the ratings."""
        rows = await self._rows(
            "SELECT m.game_id, m.places FROM tournament_matches m JOIN tournaments t ON t.id = m.tournament_id"
            " WHERE m.how = 'corrected' AND m.game_id IS NOT NULL AND t.engine = ?"
            " AND t.guild_id IS NOT DISTINCT FROM ?", (engine, guild_id))
        return {r["game_id"]: json.loads(r["places"]) for r in rows if r["places"]}

    async def matches(self, tournament_id: int, round_no: int | None = None) -> list[MatchRow]:
        """A tournament's matches (of one round), in round and slot order."""
        sql = "SELECT * FROM tournament_matches WHERE tournament_id = ?"
        params: tuple = (tournament_id,)
        if round_no is not None:
            sql += " AND round_no = ?"
            params += (round_no,)
        return [_match_row(r) for r in await self._rows(sql + " ORDER BY round_no, slot", params)]

    async def match(self, match_id: int) -> MatchRow | None:
        row = next(iter(await self._rows("SELECT * FROM tournament_matches WHERE id = ?", (match_id,))), None)
        return _match_row(row) if row else None

    async def match_of_game(self, game_id: int) -> MatchRow | None:
        row = next(iter(await self._rows("SELECT * FROM tournament_matches WHERE game_id = ?", (game_id,))), None)
        return _match_row(row) if row else None

    async def open_match_game(self, match_id: int, *, tournament_id: int, engine: str, options: dict, seed: int,
                              guild_id: int | None, channel_id: int | None, seats: list[tuple[int, str]]) -> int:
        """The game of a match, with its people seated in the match's order, linked to the match and the
        tournament - one transaction, so a restart finds either no game or a complete one."""
        now = _now()
        statements: list[Statement] = [(
            "INSERT INTO games (engine, options, seed, status, num_players, guild_id, channel_id, host_user_id,"
            " created_at, updated_at, tournament_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
            (engine, _dumps(options), seed, len(seats), guild_id, channel_id, seats[0][0], now, now, tournament_id))]
        statements += [("INSERT INTO seats (game_id, seat, user_id, ai_level, name) VALUES (?, ?, ?, NULL, ?)",
                        (FIRST_ID, seat, user_id, name)) for seat, (user_id, name) in enumerate(seats)]
        statements.append(("UPDATE tournament_matches SET game_id = ? WHERE id = ? AND game_id IS NULL",
                           (FIRST_ID, match_id)))
        return await self._transaction(statements, first_id=True)

    async def next_match_game(self, match_id: int, previous: int, *, tournament_id: int, engine: str, options: dict,
                              seed: int, guild_id: int | None, channel_id: int | None,
                              seats: list[tuple[int, str]]) -> int | None:
        """The next game of a match of several games (best of N), when ``previous`` is still its game: the game,
        its seats and the match pointing at it, in one transaction; None when the match has moved on already."""
        now = _now()
        statements: list[Statement] = [(
            "INSERT INTO games (engine, options, seed, status, num_players, guild_id, channel_id, host_user_id,"
            " created_at, updated_at, tournament_id) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?)",
            (engine, _dumps(options), seed, len(seats), guild_id, channel_id, seats[0][0], now, now, tournament_id))]
        statements += [("INSERT INTO seats (game_id, seat, user_id, ai_level, name) VALUES (?, ?, ?, NULL, ?)",
                        (FIRST_ID, seat, user_id, name)) for seat, (user_id, name) in enumerate(seats)]
        statements.append(("UPDATE tournament_matches SET game_id = ? WHERE id = ?", (FIRST_ID, match_id)))
        try:
            return await self._transaction(statements, first_id=True, guard=(
                "UPDATE tournament_matches SET game_id = game_id WHERE id = ? AND game_id = ? AND places IS NULL",
                (match_id, previous)))
        except VersionConflict:
            return None

    async def match_games(self, tournament_id: int, match_id: int) -> list[GameRow]:
        """The games a match has had (several for a best-of-N match), oldest first."""
        return await self._games(f"SELECT * FROM games WHERE tournament_id = ? AND"
                                 f" {self._json_int('options', 'tournament_match')} = ? ORDER BY id",
                                 (tournament_id, match_id))

    async def settle_match(self, match_id: int, places: list[int], how: str, *, overwrite: bool = False) -> bool:
        """Record the places that count for a match; False when it was settled already (and not ``overwrite``)."""
        try:
            await self._transaction([], guard=(
                "UPDATE tournament_matches SET places = ?, how = ? WHERE id = ?"
                + ("" if overwrite else " AND places IS NULL"), (_dumps(places), how, match_id)))
        except VersionConflict:
            return False
        return True

    async def overdue_matches(self, now: datetime | None = None) -> list[MatchRow]:
        """Unsettled matches of running tournaments whose round deadline has passed (for the clocks)."""
        return [_match_row(r) for r in await self._rows(
            "SELECT m.* FROM tournament_matches m JOIN tournaments t ON t.id = m.tournament_id"
            " WHERE m.places IS NULL AND m.deadline IS NOT NULL AND m.deadline < ? AND t.status = 'running'"
            " ORDER BY m.deadline, m.id", (_stamp(now or datetime.now(UTC)),))]

    async def running_tournaments(self, *, shards: Shards | None = None) -> list[int]:
        """Ids of the running tournaments (``shards``: of these shards' servers only)."""
        mine = f" AND {shards.sql('guild_id')}" if shards is not None else ""
        return [r["id"] for r in await self._rows(
            "SELECT id FROM tournaments WHERE status = 'running'" + mine + " ORDER BY id")]

    async def tournaments_of(self, user_id: int, guild_id: int | None) -> list[int]:
        """Ids of the open and running tournaments ``user_id`` has entered (on one server; None: anywhere)."""
        sql = ("SELECT t.id FROM tournaments t JOIN tournament_entries e ON e.tournament_id = t.id"
               " WHERE e.user_id = ? AND t.status IN ('open', 'running')")
        params: tuple = (user_id,)
        if guild_id is not None:
            sql += " AND t.guild_id = ?"
            params += (guild_id,)
        return [r["id"] for r in await self._rows(sql + " ORDER BY t.id", params)]

    async def finished_games_of(self, *, user_id: int, guild_id: int | None) -> list[GameRow]:
        """A server's finished games with ``user_id`` in them, of every kind, in the order they ended."""
        return await self._games(
            "SELECT {columns} FROM games g WHERE g.status = 'finished' AND g.guild_id IS ? AND EXISTS"
            " (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?) ORDER BY g.updated_at, g.id",
            (guild_id, user_id))


    # -- the web companion (web/, host/weblinks.py) -----------------------------------------------------

    async def web_site(self, guild_id: int) -> dict | None:
        """A server's web settings: ``{"guild_id", "slug", "secret", "mode"}``, or None before its first link."""
        rows = await self._rows("SELECT guild_id, slug, secret, mode, name FROM web_sites WHERE guild_id = ?", (guild_id,))
        return dict(rows[0]) if rows else None

    async def web_site_by_slug(self, slug: str) -> dict | None:
        """The server whose pages live under ``slug`` (None: no such server)."""
        rows = await self._rows("SELECT guild_id, slug, secret, mode, name FROM web_sites WHERE slug = ?", (slug,))
        return dict(rows[0]) if rows else None

    async def add_web_site(self, guild_id: int, *, slug: str, secret: str, mode: str = "unlisted",
                           name: str = "") -> dict:
        """The server's web settings, made with this slug and secret unless it has them already (the first
        writer wins, so two processes never sign one server's links with two secrets)."""
        await self._transaction([("INSERT INTO web_sites (guild_id, slug, secret, mode, name) VALUES (?, ?, ?, ?, ?)"
                                  " ON CONFLICT (guild_id) DO NOTHING", (guild_id, slug, secret, mode, name))])
        site = await self.web_site(guild_id)
        if site is None:  # (only if another process deleted it in between)
            raise StorageError(f"server {guild_id}: its web settings are gone")
        return site

    async def set_web_site(self, guild_id: int, *, mode: str | None = None, name: str | None = None) -> None:
        """Change a server's mode (public, unlisted or off) or its shown name (it must have its row:
        :meth:`add_web_site`)."""
        for column, value in (("mode", mode), ("name", name)):
            if value is not None:
                await self._transaction([(f"UPDATE web_sites SET {column} = ? WHERE guild_id = ?", (value, guild_id))])

    async def public_web_sites(self, limit: int = 200) -> list[dict]:
        """The servers whose pages are public (the index page lists them), oldest first."""
        return [dict(r) for r in await self._rows(
            "SELECT guild_id, slug, secret, mode, name FROM web_sites WHERE mode = 'public' ORDER BY guild_id LIMIT ?",
            (limit,))]

    async def guild_tournaments(self, guild_id: int, *, limit: int = 50) -> list[Tournament]:
        """A server's tournaments, newest first, with their entries."""
        rows = await self._rows("SELECT id FROM tournaments WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
                                (guild_id, limit))
        found = [await self.tournament(r["id"]) for r in rows]
        return [t for t in found if t is not None]

    async def game_versions(self, game_ids: list[int]) -> dict[int, tuple[int, str]]:
        """``{game id: (version, status)}`` of these games: one indexed read, cheap enough to poll every second
        for every game watched on the web (web/live.py)."""
        if not game_ids:
            return {}
        marks = ",".join("?" * len(game_ids))
        return {r["id"]: (r["version"], r["status"]) for r in await self._rows(
            f"SELECT id, version, status FROM games WHERE id IN ({marks})", tuple(game_ids))}

    # -- places: games waiting for their thread, finished games' threads to archive (cogs/places.py) ------

    async def games_waiting_for_place(self, *, shards: Shards | None = None, limit: int = 500) -> list[GameRow]:
        """Games of a server channel whose thread is not open yet (lobby or running, no ``thread_id``), or whose
        first message is still owed there (``options.opening_owed``): games opened by a command first, then tournament matches, each in the order they were made."""
        mine = f" AND {shards.sql('g.guild_id')}" if shards is not None else ""
        return await self._games(
            "SELECT {columns} FROM games g WHERE g.status IN ('lobby', 'running')"
            " AND (g.thread_id IS NULL OR g.options LIKE '%\"opening_owed\"%')"
            " AND g.channel_id IS NOT NULL AND g.guild_id IS NOT NULL" + mine
            + " ORDER BY CASE WHEN g.tournament_id IS NULL THEN 0 ELSE 1 END, g.id LIMIT ?", (limit,))

    async def threads_to_archive(self, *, ended_before: datetime, ended_after: datetime,
                                 guild_id: int | None = None, shards: Shards | None = None,
                                 limit: int = 20) -> list[GameRow]:
        """Games over (finished or abandoned) between ``ended_after`` and ``ended_before`` whose own thread was
        not archived yet (``options.thread_archived``), the longest over first; of one server, or of ``shards``."""
        # (the key is looked for as text: one game's damaged options must not fail the query for every game)
        where = ["g.status IN ('finished', 'abandoned')", "g.thread_id IS NOT NULL", "g.thread_id != g.channel_id",
                 "g.options NOT LIKE '%\"thread_archived\"%'", "g.updated_at < ?", "g.updated_at >= ?"]
        params: list[Any] = [_stamp(ended_before), _stamp(ended_after)]
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        if shards is not None:
            where.append(shards.sql("g.guild_id"))
        return await self._games(f"SELECT {{columns}} FROM games g WHERE {' AND '.join(where)}"
                                 " ORDER BY g.updated_at, g.id LIMIT ?", (*params, limit))

    async def set_thread_archived(self, game_id: int) -> None:
        """The game's thread was archived (or is gone): the archiver leaves it alone from now on."""
        await self._transaction([(f"UPDATE games SET options = {self._json_set('options', 'thread_archived')}"
                                  " WHERE id = ?", (1, game_id))])


def _json(r, column: str) -> Any:
    """A JSON column of a row (text, or its stored bytes: :meth:`Store._raw`), or DamagedRow naming the game (or
    the action's game) and the column."""
    gid = r["game_id"] if "game_id" in r.keys() else r["id"]
    value = r[column]
    if isinstance(value, bytes | bytearray | memoryview):
        try:
            value = bytes(value).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DamagedRow(f"game {gid}: its {column} column holds bytes that are not UTF-8 text ({exc.reason} at "
                             f"byte {exc.start})", where=(gid, column), kind="bytes") from exc
    try:
        return _loads(value)
    except (ValueError, TypeError) as exc:
        raise DamagedRow(f"game {gid}: invalid JSON in its {column} column ({exc})", where=(gid, column)) \
            from exc


def _text(value: Any, *, lenient: bool = False) -> Any:
    """A text column read as its stored bytes (:meth:`Store._raw_rows`), as text: None when it is not UTF-8, or
    with ``lenient`` with replacement characters; anything else as it is."""
    if not isinstance(value, bytes | bytearray | memoryview):
        return value
    try:
        return bytes(value).decode("utf-8")
    except UnicodeDecodeError:
        return bytes(value).decode("utf-8", "replace") if lenient else None


def _match_row(r) -> MatchRow:
    return MatchRow(id=r["id"], tournament_id=r["tournament_id"], round=r["round_no"], slot=r["slot"],
                    players=json.loads(r["players"]), game_id=r["game_id"],
                    places=json.loads(r["places"]) if r["places"] else None, how=r["how"], deadline=r["deadline"])


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds")


def _outbox_entry(game_id: int, version: int | None, seq: int | None, lines: list[str],
                  next_try: datetime | None = None, dms: dict[int, str] | None = None) -> Statement:
    """The INSERT of an outbox entry (``version`` None: the game's current version; due at once without
    ``next_try``; ``dms``: text owed to these seats' next DM, e.g. a clock warning)."""
    due = _stamp(next_try) if next_try is not None else ""
    owed = _dumps({str(seat): text for seat, text in (dms or {}).items()})
    if version is None:
        return ("INSERT INTO outbox (game_id, version, seq, lines, created_at, next_try, dms)"
                " VALUES (?, (SELECT version FROM games WHERE id = ?), ?, ?, ?, ?, ?)",
                (game_id, game_id, seq, _dumps(lines), _now(), due, owed))
    return ("INSERT INTO outbox (game_id, version, seq, lines, created_at, next_try, dms)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, version, seq, _dumps(lines), _now(), due, owed))


def _done_statements(game_id: int, upto: int, retry_at: datetime | None, set_aside: bool) -> list[Statement]:
    """Delete a game's delivered entries (and, with ``set_aside``, those set aside before); a retry marker due at
    ``retry_at`` stays behind when given."""
    keep = "" if set_aside else " AND dead_at IS NULL"
    statements: list[Statement] = [("DELETE FROM outbox WHERE game_id = ? AND id <= ?" + keep, (game_id, upto))]
    if retry_at is not None:
        statements.append(_outbox_entry(game_id, None, None, [], retry_at))
    return statements


def _notes(publish: dict[int, list[str]] | None) -> list[Statement]:
    """Outbox entries owing each game (key) its lines."""
    return [_outbox_entry(game_id, None, None, lines) for game_id, lines in (publish or {}).items() if lines]


# -- reads remembered within one operation (issue 29) ------------------------------------------------------

#: what :meth:`Store.remembering` remembers in the running task: ("clocks", game_id) -> rows,
#: ("away", now) -> vacations; a context variable, so concurrent operations never see each other's
_MEMO: ContextVar[dict | None] = ContextVar("store_memo", default=None)
_CLOSED = ("closed",)


def _memo() -> dict | None:
    """The running operation's remembered reads (None: outside :meth:`Store.remembering`, or after it)."""
    memo = _MEMO.get()
    return None if memo is None or _CLOSED in memo else memo


def _forget_written(statements: list[Statement], guard: Statement | None = None) -> None:
    """Forget the remembered reads of the tables a transaction writes (judged by its SQL: forgetting too much
    only costs a read)."""
    memo = _memo()
    if not memo:
        return
    sql = " ".join(s for s, _ in [*statements, *([guard] if guard else [])]).lower()
    for key in [k for k in memo if k[0] in sql]:
        del memo[key]


def _remember_clocks(game_id: int, clocks: list) -> None:
    """After a transaction wrote a game's clocks: remember them as :meth:`Store.clocks` would read them."""
    if (memo := _memo()) is not None:
        memo[("clocks", game_id)] = sorted(
            ({k: bool(getattr(c, k)) if k in _CLOCK_FLAGS else getattr(c, k) for k in CLOCK_COLUMNS} for c in clocks),
            key=lambda row: row["seat"])


_SEATS_SQL = "SELECT * FROM seats WHERE game_id = ? ORDER BY seat"


def _seat_row(r) -> SeatRow:
    return SeatRow(r["seat"], r["user_id"], r["ai_level"], r["name"], bool(r["dm_closed"]))


def _along_queries(game_id: int, now: int) -> list[Statement]:
    """What a move reads besides its game (see :meth:`Store.get_game`): the game's clocks, the vacations at
    ``now`` and the settings of its people - as :meth:`Store.clocks`, :meth:`Store.away_users` and
    :meth:`Store.user_settings` read them."""
    return [("SELECT * FROM clocks WHERE game_id = ? ORDER BY seat", (game_id,)),
            ("SELECT user_id, until FROM away WHERE since IS NOT NULL AND until > ?", (now,)),
            ("SELECT user_id, settings FROM user_settings WHERE user_id IN"
             " (SELECT user_id FROM seats WHERE game_id = ? AND user_id IS NOT NULL)", (game_id,))]


CLOCK_COLUMNS = ("seat", "started", "deadline", "bank", "paused_at", "warned_half", "warned_hour", "simultaneous",
                 "stand_in", "forfeited", "out_since")
_CLOCK_FLAGS = {"warned_half", "warned_hour", "simultaneous", "stand_in", "forfeited"}


def _clock_dict(r) -> dict:
    return {k: bool(r[k]) if k in _CLOCK_FLAGS else r[k] for k in CLOCK_COLUMNS}


def _clock_statements(game_id: int, clocks: list) -> list[Statement]:
    """Replace a game's clock rows (plain DELETE and INSERTs: portable)."""
    out: list[Statement] = [("DELETE FROM clocks WHERE game_id = ?", (game_id,))]
    for c in clocks:
        values = tuple(int(getattr(c, k)) if k in _CLOCK_FLAGS else getattr(c, k) for k in CLOCK_COLUMNS)
        out.append((f"INSERT INTO clocks (game_id, {', '.join(CLOCK_COLUMNS)}) VALUES"
                    f" (?, {', '.join('?' * len(CLOCK_COLUMNS))})", (game_id, *values)))
    return out


def _departure_statement(game_id: int, seat: int, how: str, step: int | None) -> Statement:
    """Record that ``seat`` left (after the others who did: the next ``ord``); a seat that left already keeps
    its first departure."""
    return ("INSERT INTO departures (game_id, seat, ord, how, step, created_at)"
            " SELECT ?, ?, (SELECT COALESCE(MAX(ord), 0) + 1 FROM departures WHERE game_id = ?), ?, ?, ?"
            " WHERE NOT EXISTS (SELECT 1 FROM departures WHERE game_id = ? AND seat = ?)",
            (game_id, seat, game_id, how, step, _now(), game_id, seat))


def _game_row(r, with_snapshot: bool = True, problems: list[DamagedRow] | None = None) -> GameRow:
    """A game row as read (text, or a text column's bytes: :meth:`Store._raw_rows`). What cannot be read raises
    :class:`DamagedRow`, or with ``problems`` is added there and left at its default (the row's ``damage``)."""
    found: list[DamagedRow] = []

    def json_of(column: str, default: Any) -> Any:
        if r[column] is None:
            return default
        try:
            return _json(r, column)
        except DamagedRow as exc:
            found.append(exc)
            return default

    options = json_of("options", {})
    if not isinstance(options, dict):
        found.append(DamagedRow(f"game {r['id']}: its options column is not a JSON object",
                                where=(r["id"], "options")))
        options = {}
    text = {c: _text(r[c]) for c in ("engine", "status", "created_at", "updated_at")}
    for column, value in text.items():
        if value is None:
            found.append(DamagedRow(f"game {r['id']}: its {column} column holds bytes that are not UTF-8 text",
                                    where=(r["id"], column), kind="bytes"))
    game = GameRow(
        id=r["id"], engine=text["engine"] or "?", options=options, seed=r["seed"], status=text["status"] or "?",
        num_players=r["num_players"], guild_id=r["guild_id"], channel_id=r["channel_id"],
        thread_id=r["thread_id"], board_message_id=r["board_message_id"], host_user_id=r["host_user_id"],
        version=r["version"], rules_version=r["rules_version"],
        snapshot=json_of("snapshot", None) if with_snapshot else None,
        result=json_of("result", None),
        created_at=text["created_at"] or "", updated_at=text["updated_at"] or "", tournament_id=r["tournament_id"],
    )
    if found:
        if problems is None:
            raise found[0]
        problems.extend(found)
        game.damage = "bytes" if any(p.kind == "bytes" for p in found) else "json"
    return game
