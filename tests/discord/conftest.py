"""The contract's own tests use the in-process fake Discord with the bot (tests/cogs/conftest.py)."""

from tests.cogs.conftest import harness  # noqa: F401
