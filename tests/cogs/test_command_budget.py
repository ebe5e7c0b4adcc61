"""The slash commands as the bot registers them, held to Discord's limits (tests/discord/contract.py), with each
command's size printed after the run: Discord refuses the whole bulk overwrite (and so registers nothing) when
one command passes 8,000 characters of names, descriptions and choices, counting the longest translation of each
field. Anyone adding a subcommand or an option sees how much room is left."""

from __future__ import annotations

import discord
import pytest

from tests.discord.contract import COMMAND_CHARS, command_problems, command_size
from tests.discord_harness import GUILD_ID

#: what we aim to stay under, so that the commands others add later still fit
BUDGET = 6000


async def synced_payload(bot) -> list[dict]:
    tree = bot.tree
    return [await c.get_translated_payload(tree, tree.translator) for c in tree.get_commands()]


async def test_every_command_fits_discords_limits_with_room_to_spare(harness, report_lines):
    payload = await synced_payload(harness.bot)
    sizes = sorted(((command_size(c), c["name"]) for c in payload), reverse=True)
    report_lines.append(f"slash commands: characters per command (Discord's limit {COMMAND_CHARS:,}; "
                        f"our budget {BUDGET:,}), all languages' longest texts counted")
    for size, name in sizes:
        bar = "#" * (size * 40 // COMMAND_CHARS)
        report_lines.append(f"  /{name:<16} {size:>5,}  {COMMAND_CHARS - size:>5,} left  {bar}"
                            + ("  OVER BUDGET" if size > BUDGET else ""))
    assert command_problems(payload) == []
    assert all(size <= BUDGET for size, _ in sizes), sizes


async def test_the_tree_the_bot_syncs_is_accepted_by_the_contract(harness):
    h = harness
    synced = await h.bot.tree.sync()
    assert {c.name for c in synced} >= {"game", "rules", "tournament", "troja"}
    put = [s for s in h.fake.sent if s.method == "PUT" and s.path == "/applications/{application_id}/commands"]
    assert len(put) == 1 and h.fake.contract.violations == []
    # where each command may run: games everywhere (servers and the bot's DMs), tournaments and ratings in servers
    by_name = {c["name"]: c for c in put[0].json}
    for name in ("game", "rules", "hextri"):
        assert by_name[name]["contexts"] == [0, 1] and by_name[name]["dm_permission"] is True
    for name in ("tournament", "leaderboard", "profile"):
        assert by_name[name]["contexts"] == [0] and by_name[name]["dm_permission"] is False
    assert all(c["integration_types"] == [0] for c in put[0].json), "installed on servers, not on users"
    # DEV_GUILD_ID: the same tree on one server
    h.bot.tree.copy_global_to(guild=discord.Object(GUILD_ID))
    await h.bot.tree.sync(guild=discord.Object(GUILD_ID))
    assert h.fake.contract.violations == []


async def test_a_command_over_8000_characters_is_refused_and_fails_the_test(harness):
    h = harness
    tree = h.bot.tree
    group = discord.app_commands.Group(name="huge", description="A command too large for Discord")
    for n in range(25):
        sub = discord.app_commands.Group(name=f"part{n}", description="x" * 100, parent=group)
        for m in range(4):
            async def callback(interaction: discord.Interaction) -> None:
                pass
            sub.add_command(discord.app_commands.Command(name=f"sub{m}", description="y" * 100, callback=callback))
    tree.add_command(group)
    payload = await synced_payload(h.bot)
    assert command_size(next(c for c in payload if c["name"] == "huge")) > COMMAND_CHARS
    with pytest.raises(discord.HTTPException) as refused:
        await tree.sync()
    assert refused.value.status == 400 and refused.value.code == 50035
    (violation,) = h.fake.contract.take()
    assert any("/huge:" in p and "at most 8,000 per command" in p for p in violation.problems), violation
