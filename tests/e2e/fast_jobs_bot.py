"""``tests/run_bot.py`` with the background jobs on short timers (an e2e test cannot wait ten minutes for a
reminder round): the reminders and the clocks every second. Everything else is the real, unmodified bot."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import bot  # noqa: E402
import tests.run_bot  # noqa: E402, F401 - redirects discord.py to the fake Discord
from cogs.clocks import Clocks  # noqa: E402
from cogs.reminders import Reminders  # noqa: E402

# the class-level loops: each cog instance copies its loop, with these intervals, when it is created
Reminders.loop.change_interval(seconds=1)
Clocks.loop.change_interval(seconds=1)

if __name__ == "__main__":
    sys.exit(bot.main())
