"""``DEFAULT_LIMITS``: the bot's operator sets every server's limits until its admins set their own with
``/limits`` (issue 22); a bad value stops the bot at start with one line naming it."""

from __future__ import annotations

import pytest

from host.limits import LIMITS, ServerLimits
from settings import Settings
from store import SqliteStore

GUILD = 4242


def test_default_limits_are_read_from_the_environment():
    settings = Settings.from_env({"DEFAULT_LIMITS": "cooldown_seconds=10, lobbies_per_member=5"})
    assert settings.default_limits == {"cooldown_seconds": 10, "lobbies_per_member": 5}
    assert Settings.from_env({}).default_limits == {}


@pytest.mark.parametrize(("value", "words"), [
    ("cooldown=3", "'cooldown' is not a limit"),
    ("cooldown_seconds=99999", "cooldown_seconds must be a whole number from 0 to 3600"),
    ("lobbies_per_member=0", "from 1 to 50"),
    ("lobbies_per_member=٣", "from 1 to 50"),  # another script's digit
    ("lobbies_per_member", "from 1 to 50"),
    ("cooldown_seconds=1e3", "from 0 to 3600"),
    ("replays_per_server=" + "9" * 5000, "from 1 to 20"),
])
def test_a_bad_default_limit_stops_the_bot_with_one_line(value, words):
    with pytest.raises(SystemExit) as stopped:
        Settings.from_env({"DEFAULT_LIMITS": value})
    message = str(stopped.value)
    assert message.startswith("DEFAULT_LIMITS: ") and words in message and len(message) < 300, message


async def test_servers_use_the_defaults_until_their_admins_set_their_own(tmp_path):
    store = await SqliteStore.open(tmp_path / "l.db")
    try:
        limits = ServerLimits(store, {"lobbies_per_member": 7, "cooldown_seconds": 20})
        mine = await limits.of(GUILD)
        assert mine["lobbies_per_member"] == 7 and mine["cooldown_seconds"] == 20
        assert mine["replays_per_server"] == LIMITS["replays_per_server"].default  # not set by the operator
        assert (await limits.of(None))["lobbies_per_member"] == 7  # a direct message
        # the server's admin sets one: that one is theirs, the others stay the operator's
        after = await limits.set(GUILD, "lobbies_per_member", 2)
        assert after["lobbies_per_member"] == 2 and after["cooldown_seconds"] == 20
        assert (await limits.of(GUILD + 1))["lobbies_per_member"] == 7  # another server
        # a new process with other defaults: the server keeps its own setting
        again = ServerLimits(store, {"lobbies_per_member": 9, "cooldown_seconds": 1})
        assert (await again.of(GUILD))["lobbies_per_member"] == 2
        assert (await again.of(GUILD))["cooldown_seconds"] == 1
    finally:
        await store.close()
