"""Shared fixtures: ``database`` runs a test once per store backend (SQLite, PostgreSQL; see tests/backends.py)."""

import pytest

from tests.backends import BACKENDS, database_for


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture
async def database(backend, tmp_path):
    """An SQLite path or a fresh PostgreSQL database URL, for ``await Store.connect(database)``."""
    async with database_for(backend, tmp_path) as target:
        yield target
