"""The SQLite backend: :class:`SqliteStore`, one aiosqlite connection in WAL mode, schema migrations by
``PRAGMA user_version``. The SQL it runs is store/base.py's; only the dialect lives here.

Durability: ``synchronous=FULL`` fsyncs the WAL in every COMMIT, so a write the caller was told about (and a move
the player was answered for) survives a power cut, not only a crash (``bench/storage.py`` measures the cost).

WAL checkpoints (copying the log back into the database file, with an fsync) cost 15-25 ms. SQLite's automatic
checkpoint would run them inside whichever commit crosses the threshold, i.e. in a player's click; here they
run once writes have paused for ``CHECKPOINT_IDLE_S``, and inline only when ``CHECKPOINT_MAX_COMMITS`` commits
came without a pause (a very busy server), so the WAL file cannot grow without bound. A checkpoint needs the
connection to itself (no open transaction, no half-read statement, else SQLITE_LOCKED): it takes the write lock,
and every read fetches its rows in one call (``_rows``), so no statement stays open across an ``await``.

Opening checks the file (``PRAGMA quick_check``, a schema not newer than ``MIGRATIONS``, a write probe) and
raises :class:`StorageError` with a one-line reason, after closing the connection (its worker thread is not a
daemon).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from store.base import FIRST_ID, Statement, StorageError, Store, VersionConflict, _forget_written
from store.migrations import MIGRATIONS, steps

log = logging.getLogger(__name__)

CHECKPOINT_IDLE_S = 1.0
CHECKPOINT_MAX_COMMITS = 2000
SYNCHRONOUS = ("FULL", "NORMAL", "EXTRA", "OFF")


class SqliteStore(Store):
    """:class:`Store` on SQLite. Open with ``await SqliteStore.open(path)``; close with ``await store.close()``
    (aiosqlite's worker thread is not a daemon: an unclosed store hangs interpreter exit)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        super().__init__()
        self._db = db
        # aiosqlite serialises statements, not transactions: writers (and the checkpoint) take this lock so
        # that no other coroutine's statement lands inside an open transaction.
        self._write = asyncio.Lock()
        self._commits_since_checkpoint = 0
        self._idle_timer: asyncio.TimerHandle | None = None
        self._last_commit = 0.0  # (the loop's time of the last commit)
        self._checkpointing: asyncio.Task | None = None
        #: transactions waiting for the connection, and the task that runs them (group commit, see
        #: :meth:`_transaction`)
        self._waiting: list[_Waiting] = []
        self._runner: asyncio.Task | None = None

    @classmethod
    async def open(cls, path: str | Path, *, synchronous: str = "FULL") -> SqliteStore:
        """Open (creating if needed), check and migrate the database; raises :class:`StorageError` with a
        one-line reason if it cannot be used. ``synchronous="NORMAL"`` trades power-cut safety for speed
        (benchmarks only)."""
        if synchronous.upper() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
        if str(path) != ":memory:":
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(f"cannot create the folder {Path(path).parent}: {exc.strerror}") from exc
        try:
            db = await aiosqlite.connect(str(path), isolation_level=None)  # on failure it stops its thread
        except sqlite3.Error as exc:
            raise StorageError(_explain(exc)) from exc
        try:
            db.row_factory = aiosqlite.Row
            await db.execute_fetchall("PRAGMA busy_timeout=5000")  # first: the pragmas below may wait for a lock
            await db.execute_fetchall("PRAGMA journal_mode=WAL")
            await db.execute_fetchall(f"PRAGMA synchronous={synchronous.upper()}")
            await db.execute_fetchall("PRAGMA foreign_keys=ON")
            await db.execute_fetchall("PRAGMA wal_autocheckpoint=0")  # see the module docstring
            store = cls(db)
            await store._check()
            await store._migrate()
            await store._columns()  # now, not in the middle of the first listing
        except BaseException as exc:
            await _close_quietly(db)
            if isinstance(exc, sqlite3.Error):
                raise StorageError(_explain(exc)) from exc
            raise
        return store

    async def _check(self) -> None:
        """Refuse a damaged file, a schema from a newer version of the code, and a file we cannot write."""
        problems = [r[0] for r in await self._rows("PRAGMA quick_check")]
        if problems != ["ok"]:
            first = " ".join(str(problems[0]).split()) if problems else "no answer"
            raise StorageError(f"the database file is damaged (quick_check: {first[:200]}); "
                               "restore a backup or move the file away")
        version = await self.schema_version()
        if version > len(MIGRATIONS):
            raise StorageError(f"the database has schema version {version}, newer than this code's "
                               f"{len(MIGRATIONS)}: it was written by a newer version of the bot; run that "
                               "version or restore a backup")
        # a read-only file opens fine and reads fine; a write probe (rolled back) finds it, and a write lock
        # held by another process (a second bot on the same file) too, after busy_timeout
        async with self._write:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                await self._db.execute(f"PRAGMA user_version = {version}")
            finally:
                await self._rollback()

    async def close(self) -> None:
        """Close the connection; never raises a background task's error (those are logged)."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        try:
            # (transactions already handed over are finished first, and their callers answered)
            running = [t for t in (self._runner, self._checkpointing) if t is not None]
            await asyncio.gather(*running, return_exceptions=True)
        finally:
            try:
                await self._db.close()  # closing the last connection checkpoints the WAL; the thread stops
            except sqlite3.Error as exc:  # committed data is safe in the WAL; the next opening recovers it
                log.warning("closing the database: %s", exc)

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file now (PASSIVE: never waits for readers)."""
        async with self._write:
            self._commits_since_checkpoint = 0
            await self._rows("PRAGMA wal_checkpoint(PASSIVE)")

    def _after_commit(self) -> None:
        self._commits_since_checkpoint += 1
        loop = asyncio.get_running_loop()
        self._last_commit = loop.time()
        # one timer while commits keep coming (not a new one per commit): when it fires it looks again
        if self._idle_timer is None:
            self._idle_timer = loop.call_later(CHECKPOINT_IDLE_S, self._checkpoint_when_idle)

    def _checkpoint_when_idle(self) -> None:
        loop = asyncio.get_running_loop()
        idle = loop.time() - self._last_commit
        if idle < CHECKPOINT_IDLE_S:  # written to since the timer was set: wait for the rest of the pause
            self._idle_timer = loop.call_later(CHECKPOINT_IDLE_S - idle, self._checkpoint_when_idle)
            return
        self._idle_timer = None
        if self._checkpointing is None or self._checkpointing.done():
            self._checkpointing = loop.create_task(self._background_checkpoint())

    async def _background_checkpoint(self) -> None:
        """The idle checkpoint: its failure is logged here (nobody awaits this task); the next commit retries."""
        try:
            await self.checkpoint()
        except (sqlite3.Error, ValueError) as exc:  # ValueError: aiosqlite's "Connection closed"
            log.warning("idle WAL checkpoint failed (retried after the next write): %s", exc)

    async def _migrate(self) -> None:
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS[current:], start=current + 1):
            async with self._write:
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in steps(script, "sqlite"):
                        await self._db.execute(statement)
                    await self._db.execute(f"PRAGMA user_version = {number}")
                    await self._db.execute("COMMIT")
                except BaseException as exc:
                    await self._rollback(exc)
                    raise

    async def schema_version(self) -> int:
        ((version,),) = await self._rows("PRAGMA user_version")
        return version

    async def journal_mode(self) -> str:
        ((mode,),) = await self._rows("PRAGMA journal_mode")
        return mode

    # -- the dialect ----------------------------------------------------------------------------------

    async def _rows(self, sql: str, params: tuple = ()) -> list:
        """All rows of a query, fetched in one call to the worker thread: the statement is finished before
        anything else (a checkpoint, another coroutine's statement) can run on the connection."""
        return list(await self._db.execute_fetchall(sql, params))

    async def _rows_many(self, queries: list[Statement]) -> list[list]:
        """The rows of each query, in order, in one call to the worker thread (one hand-over instead of one per
        query: issue 29); each statement finished before the next, as :meth:`_rows`."""
        return await self._db._execute(self._fetch_many, queries)

    def _fetch_many(self, queries: list[Statement]) -> list[list]:
        conn = self._db._conn
        return [conn.execute(sql, params).fetchall() for sql, params in queries]

    async def _rollback(self, cause: BaseException | None = None) -> None:
        """Roll back the open transaction, if any, without hiding ``cause``: SQLite has already rolled back by
        itself after some errors (SQLITE_FULL, SQLITE_IOERR), and a ROLLBACK then would only fail with
        "no transaction is active"."""
        # after an sqlite3 error the failed statement has finished, so in_transaction is exact; after a
        # cancellation the statement may still be running in the worker thread: ROLLBACK goes behind it
        if isinstance(cause, sqlite3.Error) and not self._db.in_transaction:
            return
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            if "no transaction is active" not in str(exc):
                log.error("ROLLBACK failed (after %r): %s", cause, exc)


    @staticmethod
    def _raw(column: str) -> str:
        """SQL for the bytes of a text column, as stored: never decoded by the driver, which would fail the whole
        query on bytes that are not UTF-8 text (they are decoded row by row: :func:`_text`)."""
        return f"CAST({column} AS BLOB)"

    async def _column_names(self, table: str) -> list[str]:
        return [r["name"] for r in await self._rows(f"PRAGMA table_info({table})")]

    @staticmethod
    def _undecodable(exc: BaseException) -> bool:
        """Whether a query failed on stored bytes that are not text in the connection's encoding."""
        return isinstance(exc, UnicodeDecodeError) or (
            isinstance(exc, sqlite3.OperationalError) and "Could not decode" in str(exc))

    @staticmethod
    def _json_set(column: str, key: str) -> str:
        """SQL for ``column`` (JSON text) with ``key`` set to the next parameter (an integer)."""
        return f"json_set({column}, '$.{key}', ?)"

    @staticmethod
    def _json_int(column: str, key: str) -> str:
        """SQL for the integer at ``key`` of ``column`` (JSON text)."""
        return f"json_extract({column}, '$.{key}')"

    @staticmethod
    def _json_remove(column: str, key: str) -> str:
        """SQL for ``column`` (JSON text) without ``key``."""
        return f"json_remove({column}, '$.{key}')"

    # -- transactions -------------------------------------------------------------------------------

    async def _transaction(self, statements: list[Statement], guard: Statement | None = None,
                           *, first_id: bool = False) -> Any:
        """Run statements atomically; ``guard`` (an UPDATE) must change exactly one row, else VersionConflict.
        Returns the id of the row the last statement inserted; with ``first_id``, of the row the first one
        inserted, which later statements may use as the parameter ``FIRST_ID`` (a tournament and its first
        entry, a game and its seats). A failure is raised as SQLite reported it (e.g. "database or disk is
        full")."""
        _forget_written(statements, guard)
        # Group commit (issue 29): the transactions that came while the connection was busy run together, each
        # in its own savepoint - one that fails is rolled back alone and fails alone - and one COMMIT makes them
        # all durable with one fsync; nobody is answered before that COMMIT. The whole group is one call to the
        # connection's worker thread, so no other statement lands inside it, and a cancelled caller cannot leave
        # a half-run transaction behind: the worker finishes it, committed or rolled back (a transaction whose
        # caller was cancelled before it started never runs).
        waiting = _Waiting(statements, guard, asyncio.get_running_loop().create_future())
        self._waiting.append(waiting)
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._run_waiting())
        try:
            first, last_id = await asyncio.shield(waiting.done)
        except asyncio.CancelledError:
            if waiting in self._waiting:
                self._waiting.remove(waiting)
            raise
        return first if first_id else last_id

    async def _run_waiting(self) -> None:
        """Run the waiting transactions, a group at a time, until none waits (see :meth:`_transaction`)."""
        while self._waiting:
            async with self._write:
                group, self._waiting = self._waiting, []
                if not group:
                    continue
                try:
                    outcomes = await self._db._execute(self._run_group, [(w.statements, w.guard) for w in group])
                except BaseException as exc:  # the whole group failed (BEGIN, COMMIT, a full disk): nothing saved
                    for w in group:
                        if not w.done.done():
                            w.done.set_exception(exc)
                    if not isinstance(exc, Exception):
                        raise
                    continue
                for w, outcome in zip(group, outcomes):
                    if w.done.done():
                        continue
                    if isinstance(outcome, BaseException):
                        w.done.set_exception(outcome)
                    else:
                        w.done.set_result(outcome)
                if self._commits_since_checkpoint >= CHECKPOINT_MAX_COMMITS:
                    self._commits_since_checkpoint = 0
                    try:
                        await self._rows("PRAGMA wal_checkpoint(PASSIVE)")
                    except sqlite3.Error as exc:  # the commit is done: a checkpoint failure is not its failure
                        log.warning("WAL checkpoint after %d commits failed: %s", CHECKPOINT_MAX_COMMITS, exc)
            self._after_commit()

    def _run_group(self, group: list[tuple[list[Statement], Statement | None]]
                   ) -> list[tuple[int | None, int | None] | Exception]:
        """:meth:`_run_waiting`'s body, run in the connection's worker thread: per transaction its (first, last)
        inserted ids, or the error it failed with (rolled back alone). A failure that ends the whole SQLite
        transaction (SQLite rolls back by itself after SQLITE_FULL, SQLITE_IOERR; a failed COMMIT) is raised."""
        conn = self._db._conn
        if len(group) == 1:  # (alone: its own SQLite transaction, without a savepoint's two more statements)
            return [self._run_alone(conn, *group[0])]
        conn.execute("BEGIN IMMEDIATE")
        outcomes: list[tuple[int | None, int | None] | Exception] = []
        try:
            for statements, guard in group:
                conn.execute("SAVEPOINT one")
                try:
                    outcomes.append(_run_statements(conn, statements, guard))
                except Exception as exc:
                    if not conn.in_transaction:  # SQLite rolled the whole transaction back itself
                        raise
                    conn.execute("ROLLBACK TO one")
                    outcomes.append(exc)
                conn.execute("RELEASE one")
            conn.execute("COMMIT")
        except BaseException as exc:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error as again:
                    log.error("ROLLBACK failed (after %r): %s", exc, again)
            raise
        return outcomes

    @staticmethod
    def _run_alone(conn: sqlite3.Connection, statements: list[Statement], guard: Statement | None
                   ) -> tuple[int | None, int | None] | Exception:
        """:meth:`_run_group` of a group of one: the transaction's own failure (rolled back) is returned as in a
        group; a failed COMMIT or ROLLBACK is raised."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            outcome = _run_statements(conn, statements, guard)
        except Exception as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            return exc
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error as again:
                    log.error("ROLLBACK failed after a failed COMMIT: %s", again)
            raise
        return outcome

    async def _text_columns(self, table: str) -> set[str]:
        return {r["name"] for r in await self._rows(f"PRAGMA table_info({table})") if r["type"].upper() == "TEXT"}


@dataclass(eq=False)
class _Waiting:
    """A transaction waiting for the connection, and its caller's answer: (first, last) inserted ids."""

    statements: list[Statement]
    guard: Statement | None
    done: asyncio.Future


def _run_statements(conn: sqlite3.Connection, statements: list[Statement], guard: Statement | None
                    ) -> tuple[int | None, int | None]:
    """One transaction's statements (inside the group's SQLite transaction): (first, last) inserted ids."""
    if guard is not None and conn.execute(*guard).rowcount != 1:
        raise VersionConflict("the game has moved on")
    last_id = first = None
    for sql, params in statements:
        last_id = conn.execute(sql, tuple(first if p is FIRST_ID else p for p in params)).lastrowid
        first = last_id if first is None else first
    return first, last_id


async def _close_quietly(db: aiosqlite.Connection) -> None:
    """Close a connection whose opening failed (aiosqlite stops the worker thread even if closing fails)."""
    try:
        await db.close()
    except Exception as exc:  # noqa: BLE001 - the error that made us close is the one to report
        log.debug("closing the failed connection: %s", exc)


def _explain(exc: sqlite3.Error) -> str:
    """One line saying what is wrong with the database, from an sqlite3 error raised while opening it."""
    name = getattr(exc, "sqlite_errorname", "") or ""
    text = " ".join(str(exc).split())
    if name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
        return f"the database file is damaged ({text}); restore a backup or move the file away"
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return (f"the database is locked by another process ({text}); is another copy of the bot using the "
                "same file?")
    if name.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_PERM", "SQLITE_AUTH")):
        return (f"the database cannot be written ({text}); check the permissions of the file, its folder and "
                "the disk (read-only mount?)")
    if name.startswith("SQLITE_FULL"):
        return f"the disk is full ({text})"
    return f"{text} ({name or type(exc).__name__})"
