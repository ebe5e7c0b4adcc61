"""A click's way (docs/click-path.md): every persistent control of cogs/views.py reaches the bot's ``clicks``
(the typed :class:`cogs.views.Clicks` protocol, cogs/actions.py's ``ClickActions``) with the fields its
custom_id carries, through the real discord.py dispatch; every kind of control has its prefix in
:class:`cogs.views.Prefix`, which also makes the guard that refuses any other kind."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import discord
import pytest

import cogs
from cogs.actions import ClickActions
from cogs.views import UNKNOWN_TEMPLATE, Clicks, Prefix
from tests.cogs.fence import message_with, send
from tests.discord_harness import CHANNEL_ID

ANN = 1001


def _protocol_methods() -> list[str]:
    return sorted(name for name, value in vars(Clicks).items()
                  if inspect.iscoroutinefunction(value) and not name.startswith("_"))


def test_the_bots_clicks_carry_out_every_method_of_the_protocol_with_its_arguments():
    names = _protocol_methods()
    assert len(names) == 12  # (issue 25: undo)
    for name in names:
        declared = list(inspect.signature(getattr(Clicks, name)).parameters.values())[1:]  # without self
        carried = list(inspect.signature(getattr(ClickActions, name)).parameters.values())
        assert [(p.name, p.kind, p.default) for p in carried] == [(p.name, p.kind, p.default) for p in declared], name
        assert inspect.iscoroutinefunction(getattr(ClickActions, name)), name


def test_the_bot_holds_the_clicks(harness):
    assert isinstance(harness.bot.clicks, ClickActions)


class _Recorder:
    """Stands in for the bot's clicks: records each call and answers privately."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    def __getattr__(self, name: str):
        if name not in _protocol_methods():
            raise AttributeError(name)

        async def record(interaction: discord.Interaction, *args, **kwargs) -> None:
            self.calls.append((name, args, kwargs))
            await interaction.response.send_message("ok", ephemeral=True)

        return record


CLICKS = [
    ("gh:a:1:5:0:3", None, ("play", (1, 5, 3, None), {"variant": None})),
    ("gh:a:1:5:0:3:abc1:2", None, ("play", (1, 5, 3, "abc1"), {"variant": 2})),
    ("gh:cf:1:5:0:3:abc1:2", None, ("play", (1, 5, 3, "abc1"), {"variant": 2, "confirmed": True})),
    ("gh:cf:1:5:0:3", None, ("play", (1, 5, 3, None), {"variant": None, "confirmed": True})),
    ("gh:u:1:5", None, ("undo", (1, 5), {})),
    ("gh:w:1:5:0:4", None, ("show_variants", (1, 5, 4), {})),
    ("gh:s:1:5:0:0:abc1", "3", ("play", (1, 5, 3, "abc1"), {"variant": None})),
    ("gh:s:1:5:0:0:abc1", "3.1", ("play", (1, 5, 3, "abc1"), {"variant": 1})),
    ("gh:s:1:5:0:0", "w2", ("show_variants", (1, 5, 2), {})),
    ("gh:g:1:5:0:1", "2", ("show_group", (1, 5, 2, 0), {})),
    ("gh:gb:1:5:0:2", None, ("show_group", (1, 5, 2, 0), {})),
    ("gh:pg:1:5:0:2:1", None, ("show_group", (1, 5, 2, 1), {})),
    ("gh:t:1", None, ("send_private", (1,), {"require_turn": True})),
    ("gh:h:1", None, ("send_private", (1,), {"require_turn": False})),
    ("gh:j:1", None, ("join", (1,), {})),
    ("gh:st:1", None, ("start", (1,), {})),
    ("gh:rm:1", None, ("rematch", (1,), {})),
    ("gh:tj:7", None, ("league_join", (7,), {})),
    ("gh:ts:7", None, ("league_start", (7,), {})),
    ("gh:tl:7", None, ("league_leave", (7,), {})),
    ("gh:tc:7", None, ("league_check_in", (7,), {})),
]


@pytest.mark.parametrize(("custom_id", "value", "call"), CLICKS, ids=[c[0] + (f"={c[1]}" if c[1] else "")
                                                                     for c in CLICKS])
async def test_each_control_reaches_the_bots_clicks_with_its_fields(harness, custom_id, value, call):
    h = harness
    recorder = _Recorder()
    h.bot.clicks = recorder
    message = message_with(h, CHANNEL_ID, custom_id, select=value is not None)
    extra = {"values": [value]} if value is not None else {}
    replies = await send(h, h.payloads.click(ANN, message, custom_id, name="Ann", **extra))
    assert recorder.calls == [call]
    assert [m["content"] for m in replies] == ["ok"]
    h.assert_no_errors()


def _dynamic_items() -> dict[str, type]:
    """Every DynamicItem class of cogs/ (each module imported), by qualified name (discord.py loads an extension
    as a new module object each time, so a class may exist several times)."""
    for info in pkgutil.iter_modules(cogs.__path__):
        importlib.import_module(f"cogs.{info.name}")
    found, todo = {}, [discord.ui.DynamicItem]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.startswith("cogs."):
                found[f"{sub.__module__}.{sub.__qualname__}"] = sub
    return found


def test_every_kind_of_control_has_its_prefix_in_the_enum_and_nothing_else_does():
    prefixes = {}
    for item in _dynamic_items().values():
        pattern = item.__discord_ui_compiled_template__.pattern
        if pattern == UNKNOWN_TEMPLATE:
            continue
        found = re.fullmatch(r"gh:([a-z]+):\(\?P<args>\.\*\)", pattern)
        assert found, f"{item.__name__}: {pattern}"
        assert found[1] in {p.value for p in Prefix}, f"{item.__name__}'s prefix {found[1]} is not in Prefix"
        assert found[1] not in prefixes, f"{item.__name__} and {prefixes.get(found[1])} share {found[1]}"
        prefixes[found[1]] = item.__name__
    # the deck list's text form is a modal, read by its cog: the only prefix without a DynamicItem
    assert set(Prefix) - set(prefixes) == {Prefix.DECK_MODAL}


def test_the_unknown_click_guard_takes_every_other_prefix_and_none_of_the_enums():
    guard = re.compile(UNKNOWN_TEMPLATE)
    for prefix in Prefix:
        assert guard.fullmatch(f"gh:{prefix}:1") is None, prefix
        assert guard.fullmatch(f"gh:{prefix}x:1"), f"gh:{prefix}x:1 (a prefix that only begins like {prefix})"
    for custom_id in ("gh:zz:1", "gh:", "gh:a", "gh::1", "gh:A:1"):
        assert guard.fullmatch(custom_id), custom_id
