"""DATABASE_URL chooses PostgreSQL; without it the bot keeps its SQLite file at DATABASE_PATH."""

import pytest

from settings import Settings
from store import SqliteStore, connect
from store.postgres import PostgresStore, _numbered


def test_database_url_is_read_and_checked():
    assert Settings.from_env({}).database_url is None
    assert Settings.from_env({"DATABASE_URL": " "}).database_url is None
    url = "postgresql://bot:secret@db:5432/gamehost"
    assert Settings.from_env({"DATABASE_URL": url}).database_url == url
    with pytest.raises(SystemExit, match="must be a PostgreSQL URL"):
        Settings.from_env({"DATABASE_URL": "mysql://bot@db/gamehost"})


async def test_connect_opens_sqlite_for_a_path(tmp_path):
    store = await connect(tmp_path / "g.db")
    try:
        assert type(store) is SqliteStore and (tmp_path / "g.db").is_file()
    finally:
        await store.close()


async def test_connect_opens_postgres_for_a_url(database, backend):
    store = await connect(database)
    try:
        assert isinstance(store, PostgresStore) == (backend == "postgres")
    finally:
        await store.close()


def test_placeholders_are_numbered_in_order():
    assert _numbered("UPDATE t SET a = ?, b = ? WHERE id = ? AND x IN (?,?)") == \
        "UPDATE t SET a = $1, b = $2 WHERE id = $3 AND x IN ($4,$5)"
