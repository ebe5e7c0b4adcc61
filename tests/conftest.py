"""Shared fixtures: ``database`` runs a test once per store backend (SQLite, PostgreSQL; see tests/backends.py);
every fake Discord a test creates holds the bot to Discord's contract (tests/discord/contract.py)."""

import pytest

from tests.backends import BACKENDS, database_for
from tests.discord import contract


@pytest.fixture(params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture
async def database(backend, tmp_path):
    """An SQLite path or a fresh PostgreSQL database URL, for ``await Store.connect(database)``."""
    async with database_for(backend, tmp_path) as target:
        yield target


@pytest.fixture(autouse=True)
def discord_contract():
    """Fail the test if the bot sent any request Discord would refuse, to either fake Discord (the harness or
    the loopback server): the fake answered it with 400 like Discord, and the bot may have carried on. A test
    that provokes a violation on purpose takes it with ``fake.contract.take()``."""
    with contract.session() as contracts:
        yield contracts
    seen = [str(v) for c in contracts for v in c.violations]
    if seen:
        pytest.fail(f"{len(seen)} request(s) broke Discord's contract:\n" + "\n".join(seen[:20]), pytrace=False)


#: lines a test wants shown after the run (the command budget: tests/cogs/test_command_budget.py)
REPORT = pytest.StashKey[list[str]]()


@pytest.fixture
def report_lines(request) -> list[str]:
    """Lines printed in the summary at the end of the run (``make test`` shows them, passing or not)."""
    return request.config.stash.setdefault(REPORT, [])


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    lines = config.stash.get(REPORT, None)
    if lines:
        terminalreporter.section("Discord budgets")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture(autouse=True)
def no_cooldown(monkeypatch):
    """In-process tests run with the members' cooldown off (host/limits.py): most of them open several games in
    a row by one member, faster than any person would. ``tests/cogs/test_limits.py`` turns it back on. (Bot
    processes started by the e2e tests get ``DEFAULT_LIMITS`` from ``start_bot`` to the same end.)"""
    from dataclasses import replace

    from host.limits import LIMITS

    monkeypatch.setitem(LIMITS, "cooldown_seconds", replace(LIMITS["cooldown_seconds"], default=0))
