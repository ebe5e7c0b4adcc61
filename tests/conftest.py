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


@pytest.fixture(autouse=True)
def no_cooldown(monkeypatch):
    """In-process tests run with the members' cooldown off (host/limits.py): most of them open several games in
    a row by one member, faster than any person would. ``tests/cogs/test_limits.py`` turns it back on. (Bot
    processes started by the e2e tests keep the real default: each opens one game per member and server.)"""
    from dataclasses import replace

    from host.limits import LIMITS

    monkeypatch.setitem(LIMITS, "cooldown_seconds", replace(LIMITS["cooldown_seconds"], default=0))
