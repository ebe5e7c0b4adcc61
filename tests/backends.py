"""The two store backends for tests: an SQLite file, or a fresh PostgreSQL database on the server named by
``TEST_DATABASE_URL`` (``.ci/run`` starts a throw-away server and sets it; without it the PostgreSQL variants
are skipped)."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import uuid
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

BACKENDS = ("sqlite", "postgres")
NO_SERVER = ("TEST_DATABASE_URL is not set, so there is no PostgreSQL server to test against "
             "(.ci/run starts one; or set TEST_DATABASE_URL=postgresql://user@host:port/db)")


def server_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL", "").strip()
    if not url:
        pytest.skip(NO_SERVER)
    return url


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


@contextlib.asynccontextmanager
async def fresh_postgres(encoding: str | None = None) -> AsyncIterator[str]:
    """The URL of a new, empty database on the test server, dropped afterwards; ``encoding`` e.g. "SQL_ASCII" (a
    database made with the C locale, which stores any bytes as text) instead of the server's default."""
    url = server_url()
    name = f"gamehost_test_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(url)
    made = (f" ENCODING '{encoding}' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0" if encoding else "")
    try:
        await admin.execute(f'CREATE DATABASE "{name}"' + made)
        try:
            yield with_database(url, name)
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


@contextlib.asynccontextmanager
async def database_for(backend: str, folder) -> AsyncIterator[str]:
    """Where a store of ``backend`` lives for one test: an SQLite path in ``folder``, or a PostgreSQL URL."""
    if backend == "sqlite":
        yield str(folder / "g.db")
    else:
        async with fresh_postgres() as url:
            yield url


def bot_env(target: str) -> dict[str, str]:
    """The environment that points a bot process at ``target`` (an SQLite path or a PostgreSQL URL)."""
    if target.startswith("postgresql://"):
        return {"DATABASE_URL": target}
    return {"DATABASE_PATH": target, "DATABASE_URL": ""}


async def fetch_row(target: str, sql: str) -> tuple:
    """One row of a query, read outside the bot (the SQL must mean the same in both dialects)."""
    if target.startswith("postgresql://"):
        conn = await asyncpg.connect(target)
        try:
            return tuple(await conn.fetchrow(sql))
        finally:
            await conn.close()
    with sqlite3.connect(target) as conn:
        return conn.execute(sql).fetchone()
