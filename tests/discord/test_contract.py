"""The contract the fakes hold the bot to (tests/discord/contract.py): what Discord refuses is refused, what it
accepts passes, in the harness (discord.py's own requests), in the loopback server (real HTTP) and in a test
run (a violation fails the test that caused it, even when the bot swallows the 400)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.discord.contract import Contract, Refusal, Request, Upload, command_size, find_route
from tests.discord_harness import APP_ID, CHANNEL_ID
from tests.fake_server import FakeDiscordServer

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = f"/channels/{CHANNEL_ID}/messages"
ANN = 100_000_000_000_000_011


def refused(contract: Contract, request: Request) -> Refusal:
    with pytest.raises(Refusal) as caught:
        contract.check(request)
    return caught.value


def message(**body) -> Request:
    return Request("POST", MESSAGES, body=body)


def button(custom_id: str, label: str = "Go", **extra) -> dict:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id, **extra}


def row(*items) -> dict:
    return {"type": 1, "components": list(items)}


# -- routes, parameters, schemas ---------------------------------------------------------------------------


def test_routes_are_discords_own_literal_segments_first():
    route, params = find_route("/webhooks/1/tok/messages/@original")
    assert route.template == "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    route, params = find_route("/webhooks/1/tok/messages/55")
    assert route.template.endswith("/{message_id}") and params["message_id"] == "55"
    assert find_route("/channels/1/no-such-thing") is None


def test_unknown_routes_methods_and_query_parameters_are_refused():
    contract = Contract(watched=False)
    assert "no route" in refused(contract, Request("GET", "/channels/1/no-such-thing")).problems[0]
    assert "no route" in refused(contract, Request("PUT", MESSAGES, body={"content": "x"})).problems[0]
    assert "unknown query parameter" in refused(contract, Request("GET", MESSAGES, {"newest": 5})).problems[0]
    contract.check(Request("GET", MESSAGES, {"limit": "50"}))
    assert "query parameter limit" in refused(contract, Request("GET", MESSAGES, {"limit": "500"})).problems[0]
    # Discord reads 1/true as booleans in a query
    contract.check(Request("POST", "/interactions/1/tok/callback", {"with_response": 1}, {"type": 6}))
    assert len(contract.violations) == 4


def test_bodies_are_checked_against_the_schema_of_their_operation():
    contract = Contract(watched=False)
    problems = refused(contract, Request("POST", f"/channels/{CHANNEL_ID}/threads", body={"name": "x" * 101})).problems
    assert "body.name: 101 characters (at most 100)" in problems
    problems = refused(contract, Request("POST", f"/channels/{CHANNEL_ID}/threads", body={"name": "Game",
                                                                                          "auto_archive_duration": 5})).problems
    assert "auto_archive_duration" in problems[0]
    problems = refused(contract, message(content="hi", embeds=[{"title": "x" * 257}])).problems
    assert problems[0].startswith("body.embeds.0.title")
    problems = refused(contract, message(content="hi", components=[row(button("a", style="big"))])).problems
    assert "body.components.0" in problems[0]
    # a union told apart by "type": the callback's own member is named in the message
    problems = refused(contract, Request("POST", "/interactions/1/tok2/callback",
                                         body={"type": 4, "data": {"content": 7}})).problems
    assert problems == ["body.data.content: 7 is not of type 'string', 'null'"]
    # snowflakes as integers are accepted (discord.py sends recipient_id as an int)
    contract.check(Request("POST", "/users/@me/channels", body={"recipient_id": ANN}))


def test_multipart_uploads_are_checked_by_their_payload_json_and_file_parts():
    contract = Contract(watched=False)
    png = [Upload("files[0]", "board.png", 1000)]
    contract.check(Request("POST", MESSAGES, body={"content": "board", "attachments": [{"id": 0}]}, uploads=png,
                           multipart=True))
    assert "multipart" in refused(contract, Request("POST", MESSAGES, body={}, uploads=png)).problems[0]
    eleven = [Upload(f"files[{i % 10}]", f"{i}.png", 10) for i in range(11)]
    assert any("11 files" in p for p in refused(contract, Request("POST", MESSAGES, body={}, uploads=eleven,
                                                                  multipart=True)).problems)
    big = [Upload("files[0]", "a.gif", 6 * 2**20), Upload("files[1]", "b.gif", 5 * 2**20)]
    assert any("at most 10,485,760" in p for p in refused(contract, Request("POST", MESSAGES, body={}, uploads=big,
                                                                            multipart=True)).problems)
    wrong = [Upload("file", "a.png", 10)]
    assert "files[0]" in refused(contract, Request("POST", MESSAGES, body={}, uploads=wrong,
                                                   multipart=True)).problems[0]


# -- application commands ----------------------------------------------------------------------------------


def _option(name: str, **extra) -> dict:
    return {"type": 3, "name": name, "description": "An option", **extra}


def test_command_size_counts_the_longest_translation_of_every_field():
    command = {"name": "game", "description": "Play", "description_localizations": {"hu": "Játssz most"},
               "options": [_option("move", choices=[{"name": "Left", "value": "l",
                                                     "name_localizations": {"pl": "W lewo"}}])]}
    assert command_size(command) == 4 + 11 + (4 + 9) + (6 + 1)


def test_commands_are_held_to_discords_documented_rules():
    contract = Contract(watched=False)
    path = f"/applications/{APP_ID}/commands"
    good = {"name": "game", "description": "Play", "options": [_option("a", required=True), _option("b")]}
    contract.check(Request("PUT", path, body=[good]))
    cases = {
        "required option after an optional one": {"options": [_option("a"), _option("b", required=True)]},
        "26 items (at most 25)": {"options": [_option(f"o{i}") for i in range(26)]},
        "choices: 26 items (at most 25)": {"options": [_option("a", choices=[{"name": str(i), "value": str(i)}
                                                                       for i in range(26)])]},
        "choices and autocomplete": {"options": [_option("a", autocomplete=True, choices=[{"name": "x",
                                                                                            "value": "x"}])]},
        "must be lower case": {"name": "Game"},
        "description must be 1-100": {"description": ""},
        "unknown locale 'xx'": {"description_localizations": {"xx": "hi"}},
        "subcommands and plain options cannot be mixed": {"options": [_option("a"), {
            "type": 1, "name": "sub", "description": "A subcommand"}]},
        "two options named 'a'": {"options": [_option("a"), _option("a")]},
    }
    for expected, change in cases.items():
        problems = refused(contract, Request("PUT", path, body=[dict(good, **change)])).problems
        assert any(expected in p for p in problems), (expected, problems)
    problems = refused(contract, Request("PUT", path, body=[good, good])).problems
    assert "two commands named 'game'" in problems


# -- messages ----------------------------------------------------------------------------------------------


def test_message_limits_the_schema_does_not_hold():
    contract = Contract(watched=False)
    contract.check(message(content="x" * 2000, components=[row(*[button(f"b{i}") for i in range(5)])]))
    cases = {
        "content: 2001 characters": message(content="x" * 2001),
        "6 action rows": message(components=[row(button(f"b{i}")) for i in range(6)]),
        "custom_id 'same' twice": message(components=[row(button("same"), button("same"))]),
        "holds up to 5 buttons or one select": message(components=[row(button("a"), {
            "type": 3, "custom_id": "s", "options": [{"label": "x", "value": "x"}]})]),
        "a link button needs a url": message(components=[row(button("a", style=5))]),
        "a button needs a label or an emoji": message(components=[row({"type": 2, "style": 1, "custom_id": "a"})]),
        "more default options than max_values": message(components=[row({
            "type": 3, "custom_id": "s", "options": [{"label": "x", "value": "x", "default": True},
                                                     {"label": "y", "value": "y", "default": True}]})]),
        "together (at most 6000)": message(embeds=[{"description": "x" * 4000}, {"description": "y" * 2001}]),
        "parse 'users' and a list of users": message(content="hi", allowed_mentions={"parse": ["users"],
                                                                                     "users": [str(ANN)]}),
    }
    for expected, request in cases.items():
        problems = refused(contract, request).problems
        assert any(expected in p for p in problems), (expected, problems)
    empty = refused(contract, message(content=""))
    assert empty.code == 50006 and empty.problems == ["Cannot send an empty message"]


def test_components_v2_messages():
    contract = Contract(watched=False)
    text = {"type": 10, "content": "A board"}
    picture = {"type": 12, "items": [{"media": {"url": "attachment://board.png"}}]}
    upload = [Upload("files[0]", "board.png", 100)]
    contract.check(Request("POST", MESSAGES, body={"flags": 32768, "components": [
        {"type": 17, "components": [text, picture, row(button("a"))]}]}, uploads=upload, multipart=True))
    cases = {
        "cannot have content": Request("POST", MESSAGES, body={"flags": 32768, "content": "x",
                                                               "components": [text]}),
        "(at most 40)": Request("POST", MESSAGES, body={"flags": 32768, "components": [
            {"type": 17, "components": [text] * 40}]}),
        "of text across the components (at most 4000)": Request("POST", MESSAGES, body={
            "flags": 32768, "components": [{"type": 10, "content": "x" * 3000}, {"type": 10, "content": "y" * 1001}]}),
        "'other.png' is not referenced": Request("POST", MESSAGES, body={"flags": 32768, "components": [
            text, picture]}, uploads=upload + [Upload("files[1]", "other.png", 5)], multipart=True),
        "needs the components v2 flag": message(components=[text]),
    }
    for expected, request in cases.items():
        problems = refused(contract, request).problems
        assert any(expected in p for p in problems), (expected, problems)
    # an edit cannot take the flag away from a components v2 message
    v2 = Contract(message_flags=lambda mid: 32768 if mid == 5 else 0, watched=False)
    problems = refused(v2, Request("PATCH", f"{MESSAGES}/5", body={"flags": 0, "content": "x"})).problems
    assert "the components v2 flag cannot be removed by an edit" in problems
    v2.check(Request("PATCH", f"{MESSAGES}/6", body={"content": "a classic message may have content"}))


# -- interactions ------------------------------------------------------------------------------------------


def test_interaction_answers_follow_the_interaction():
    contract = Contract(watched=False)
    contract.interaction("cmd", 2)
    contract.interaction("auto", 4)
    callback = "/interactions/1/{}/callback"
    assert "cannot answer a slash command" in refused(contract, Request(
        "POST", callback.format("cmd"), body={"type": 7, "data": {"content": "x"}})).problems[0]
    assert "cannot answer an autocomplete request" in refused(contract, Request(
        "POST", callback.format("auto"), body={"type": 4, "data": {"content": "x"}})).problems[0]
    contract.check(Request("POST", callback.format("auto"), body={"type": 8, "data": {"choices": []}}))
    contract.interaction("late", 2)
    early = refused(contract, Request("POST", f"/webhooks/{APP_ID}/late", body={"content": "too early"}))
    assert early.code == 10015
    contract.check(Request("POST", callback.format("cmd"), body={"type": 5, "data": {"flags": 64}}))
    twice = refused(contract, Request("POST", callback.format("cmd"), body={"type": 5}))
    assert twice.code == 40060
    assert [v.code for v in contract.take()] == [50035, 50035, 10015, 40060]


def test_a_deferral_decides_whether_its_first_followup_is_public():
    contract = Contract(watched=False)
    for token, flags in (("public", 0), ("private", 64)):
        contract.interaction(token, 2)
        contract.check(Request("POST", f"/interactions/1/{token}/callback", body={"type": 5, "data": {"flags": flags}}))
    problems = refused(contract, Request("POST", f"/webhooks/{APP_ID}/public", body={
        "content": "Only the organizer can do that", "flags": 64})).problems
    assert "a private answer would be shown to everyone" in problems[0]
    problems = refused(contract, Request("POST", f"/webhooks/{APP_ID}/private", body={"content": "Done!"})).problems
    assert "a public answer would be seen by one person only" in problems[0]
    # once the "thinking…" message is replaced, later followups choose freely
    contract.check(Request("POST", f"/webhooks/{APP_ID}/public", body={"content": "Tournament paused."}))
    contract.check(Request("POST", f"/webhooks/{APP_ID}/public", body={"content": "Just you", "flags": 64}))
    # editing the original resolves the deferral too
    contract.interaction("edited", 2)
    contract.check(Request("POST", "/interactions/1/edited/callback", body={"type": 5}))
    contract.check(Request("PATCH", f"/webhooks/{APP_ID}/edited/messages/@original", body={"content": "Here"}))
    contract.check(Request("POST", f"/webhooks/{APP_ID}/edited", body={"content": "Just you", "flags": 64}))


# -- the fakes ---------------------------------------------------------------------------------------------


async def test_the_harness_refuses_an_ephemeral_answer_after_a_public_defer(harness):
    h = harness

    @app_commands.command(name="refuse", description="Defers publicly, then refuses privately")
    async def refuse(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        try:
            await interaction.followup.send("Only the organizer can do that.", ephemeral=True)
        except discord.HTTPException as exc:
            interaction.extras["refused"] = exc

    h.bot.tree.add_command(refuse)
    await h.slash(ANN, "refuse", name="Ann")
    (violation,) = h.fake.contract.take()
    assert violation.code == 50035 and "would be shown to everyone" in violation.problems[0]
    assert not [m for m in h.fake.messages.values() if "organizer" in m["content"]], "nothing was posted"
    h.assert_no_errors()


async def test_the_loopback_server_answers_400_50035_and_records_it():
    server = await FakeDiscordServer().start()
    try:
        async with aiohttp.ClientSession() as session:
            url = f"{server.api_url}/channels/{CHANNEL_ID}/messages"
            async with session.post(url, json={"content": "x" * 2001}) as response:
                assert response.status == 400
                body = await response.json()
            assert body["code"] == 50035 and "2001 characters" in body["message"]
            form = aiohttp.FormData()
            form.add_field("payload_json", json.dumps({"content": "a board"}), content_type="application/json")
            form.add_field("files[0]", b"PNG", filename="board.png", content_type="image/png")
            async with session.post(url, data=form) as response:
                assert response.status == 200
            # a route Discord does not have is a violation; one it has that this fake lacks is only a 404
            async with session.get(f"{server.api_url}/channels/{CHANNEL_ID}/nonsense") as response:
                assert response.status == 400
            async with session.get(f"{server.api_url}/guilds/{CHANNEL_ID}/emojis") as response:
                assert response.status == 404
        violation, nonsense = server.fake.contract.take()
        assert violation.method == "POST" and violation.path == f"/channels/{CHANNEL_ID}/messages"
        assert "no route GET" in nonsense.problems[0]
        assert server.fake.contract.checked == 4
    finally:
        await server.stop()


def test_a_violation_fails_the_test_even_when_the_bot_swallows_the_400(tmp_path):
    # the suite's own autouse fixture (tests/conftest.py), as a plugin for a test outside tests/
    (tmp_path / "contract_plugin.py").write_text("from tests.conftest import discord_contract  # noqa: F401\n")
    test = tmp_path / "test_swallowed.py"
    test.write_text(textwrap.dedent("""
        from tests.discord.contract import Contract, Refusal, Request

        def test_quietly_broken():
            contract = Contract()
            try:
                contract.check(Request("POST", "/channels/1/messages", body={"content": "x" * 2001}))
            except Refusal:
                pass  # a bot that catches the HTTPException and carries on
    """))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(tmp_path)]))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "contract_plugin", "-p", "no:cacheprovider",
                          "--rootdir", str(tmp_path), str(test)], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 1, run.stdout
    assert "1 passed, 1 error" in run.stdout and "broke Discord's contract" in run.stdout
    assert "content: 2001 characters (at most 2000)" in run.stdout
