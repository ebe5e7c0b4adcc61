"""Discord's contract, as a fake Discord must enforce it: every request the bot sends is checked against
Discord's own OpenAPI description (``openapi.json`` beside this file, see SOURCE.md) and against the documented
rules that description lacks (``/work/shared/discord/README.md``, Discord's documentation).

Both fakes of the suite (the in-process harness, ``tests/discord_harness.py``, and the loopback server,
``tests/fake_server.py``) make one call per request: ``fake.contract.check(request)``. A request Discord would
refuse raises :class:`Refusal` (``400`` with Discord's code: 50035 Invalid Form Body, 50006 for an empty message,
40060 for an interaction acknowledged twice, 10015 for a followup before any response) and is recorded in
``Contract.violations``; the suite's autouse fixture (``tests/conftest.py``) fails the test that caused it. A test
that provokes a violation on purpose takes it with :meth:`Contract.take`.

What is checked:

- the route exists in Discord's API for that method (path templates of the description, literal segments
  such as ``@original`` before parameters), its path and query parameters fit their schemas, and the body fits
  the operation's ``requestBody`` schema for the content type sent (JSON, or the ``payload_json`` part and the
  ``files[n]`` parts of a multipart upload). A union told apart by ``type`` (interaction callbacks, components,
  command options) is checked against the member of that type, for a precise message and speed;
- application commands (:func:`command_problems`): at most 8,000 characters per command (name, description,
  every option's, subcommand's and group's name and description, every choice's name and value; of a field with
  localizations only the longest variant counts), 25 options per command or subcommand, 25 subcommands or
  groups per level, 25 choices, names (lower case where the script has case) and descriptions (1-100, required
  for slash commands), required options before optional ones, choices or autocomplete (not both), unique names,
  known locales, 100 slash commands per bulk overwrite;
- messages (:func:`message_problems`), wherever one is created or edited (REST, followups, interaction
  responses): content 2,000; 10 embeds of 6,000 characters together (title 256, description 4,096, 25 fields of
  256/1,024, footer 2,048, author 256); classic components: 5 action rows of 5 buttons or one select; components
  v2 (flag 32768): 40 components counting nested ones, 4,000 characters of text across them, no content or
  embeds, every uploaded file referenced by a File, Thumbnail or MediaGallery component, the flag never removed by
  an edit; custom_id 1-100 characters and unique within the message; link buttons with a url and no custom_id,
  other buttons the reverse; a button has a label or an emoji; selects 1-25 options, unique values, at most
  ``max_values`` defaults, ``min_values <= max_values <= options``; allowed_mentions ``parse`` and a list of the
  same kind not together; 10 files and the upload size limit (10 MiB, or the interaction's
  ``attachment_size_limit``); a new message is not empty;
- interactions (state per token): the callback type fits the interaction type (autocomplete answers with
  choices, a command cannot be "updated"...), one callback per interaction, no followup before the callback, and
  a deferral's visibility holds: the first followup after a deferral replaces the "thinking" message and cannot
  change public to ephemeral or back (Discord ignores the flag, so a refusal after a public defer is shown to
  everyone).

Deliberate relaxation: Discord accepts snowflakes as JSON integers as well as strings (discord.py sends
``recipient_id`` and attachment ids as integers), so the description's ``SnowflakeType`` is widened to both.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

SPEC_PATH = Path(__file__).with_name("openapi.json")

IS_COMPONENTS_V2 = 1 << 15
EPHEMERAL = 1 << 6
COMMAND_CHARS = 8000
DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024

#: interaction type -> the callback types Discord accepts for it (PING, APPLICATION_COMMAND, MESSAGE_COMPONENT,
#: APPLICATION_COMMAND_AUTOCOMPLETE, MODAL_SUBMIT)
CALLBACKS_FOR = {1: {1}, 2: {4, 5, 9, 12}, 3: {4, 5, 6, 7, 9, 12}, 4: {8}, 5: {4, 5, 6, 7}}
INTERACTION_NAMES = {1: "a ping", 2: "a slash command", 3: "a component click", 4: "an autocomplete request",
                     5: "a modal submit"}


# -- requests, refusals, violations ---------------------------------------------------------------------------


@dataclass
class Upload:
    """One file part of a multipart request."""

    field: str  # "files[0]"...
    filename: str
    size: int


@dataclass
class Request:
    """A request as Discord receives it: method, the path after ``/api/v10`` (no query), query parameters, the
    JSON body (for a multipart upload: its ``payload_json``) and the uploaded files."""

    method: str
    path: str
    query: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    uploads: list[Upload] = field(default_factory=list)
    multipart: bool = False


@dataclass
class Violation:
    method: str
    path: str
    code: int
    problems: list[str]

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.code}: " + "; ".join(self.problems)


class Refusal(Exception):
    """What Discord answers to a request that breaks its contract."""

    def __init__(self, status: int, code: int, message: str, problems: list[str]) -> None:
        super().__init__(f"{message}: " + "; ".join(problems))
        self.status, self.code, self.message, self.problems = status, code, message, problems

    def body(self) -> dict:
        """The JSON error body, shaped like Discord's (``errors`` holds the problems)."""
        return {"code": self.code, "message": f"{self.message}: " + "; ".join(self.problems)[:1500],
                "errors": {"_contract": {"_errors": [{"code": "CONTRACT", "message": p} for p in self.problems]}}}


# -- the OpenAPI description -----------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def spec() -> dict:
    """Discord's OpenAPI description, with snowflakes accepted as integers too (see the module docstring), and
    its unions told apart by ``type`` checked as such (:func:`_by_type`)."""
    data = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    schemas = data["components"]["schemas"]
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]}
    _by_type(data, schemas)
    return data


def _members_by_type(union: list, schemas: dict) -> list[tuple[list, dict]] | None:
    """(the ``type`` values, member) of a union whose members all require a ``type`` of their own values."""
    out, seen = [], set()
    for member in union:
        ref = member.get("$ref", "") if isinstance(member, dict) else ""
        if not ref.startswith("#/components/schemas/"):
            return None
        target = schemas[ref.rsplit("/", 1)[1]]
        kind = (target.get("properties") or {}).get("type") or {}
        values = kind.get("enum") or ([kind["const"]] if "const" in kind else None)
        if not values or "type" not in (target.get("required") or []) or seen & set(values):
            return None
        seen |= set(values)
        out.append((values, member))
    return out


def _by_type(node: Any, schemas: dict) -> None:
    """Rewrite, in place, Discord's enumerations written as unions of constants into plain enums, and each union (oneOf/anyOf) whose members are told apart by ``type`` (components,
    interaction callbacks, command options) into ``if type is …, then that member``: the same meaning (exactly
    the member of that type must hold), but one member is checked instead of all of them - an order of magnitude
    faster on a message with components - and a failure names that member's own problem. A value of no known
    type falls through to the original union."""
    if isinstance(node, list):
        for item in node:
            _by_type(item, schemas)
        return
    if not isinstance(node, dict):
        return
    for value in node.values():
        _by_type(value, schemas)
    for key in ("oneOf", "anyOf"):  # Discord's enumerations: a const per member (with a title) -> an enum
        union = node.get(key)
        if union and all(isinstance(m, dict) and "const" in m and set(m) <= {"const", "title", "description"}
                         for m in union):
            node.pop(key)
            node["enum"] = [m["const"] for m in union]
    for key in ("oneOf", "anyOf"):
        members = _members_by_type(node[key], schemas) if key in node else None
        if members:
            chain: dict = {key: node.pop(key)}
            for values, member in reversed(members):
                chain = {"if": {"properties": {"type": {"enum": values}}, "required": ["type"]}, "then": member,
                         "else": chain}
            node["allOf"] = [*node.get("allOf", []), chain]


@functools.lru_cache(maxsize=1)
def locales() -> frozenset[str]:
    return frozenset(spec()["components"]["schemas"]["AvailableLocalesEnum"]["enum"])


@dataclass(frozen=True)
class Route:
    template: str
    pattern: re.Pattern
    literals: int

    def params(self, path: str) -> dict[str, str] | None:
        found = self.pattern.fullmatch(path)
        return found.groupdict() if found else None


@functools.lru_cache(maxsize=1)
def routes() -> list[Route]:
    """Every path of the description, the most literal first (``.../messages/@original`` before
    ``.../messages/{message_id}``)."""
    out = []
    for template in spec()["paths"]:
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template))
        literals = sum(1 for part in template.split("/") if part and not part.startswith("{"))
        out.append(Route(template, re.compile(pattern), literals))
    return sorted(out, key=lambda r: -r.literals)


def find_route(path: str) -> tuple[Route, dict[str, str]] | None:
    for route in routes():
        params = route.params(path)
        if params is not None:
            return route, params
    return None


def _validator(schema: dict) -> jsonschema.Draft202012Validator:
    # the schema's "#/components/..." references resolve against a root that carries the components
    root = dict(schema, components=spec()["components"])
    return jsonschema.Draft202012Validator(root)


@functools.lru_cache(maxsize=512)
def _body_validator(template: str, method: str, content_type: str) -> jsonschema.Validator | None:
    operation = spec()["paths"][template][method.lower()]
    body = operation.get("requestBody")
    if body is None:
        return None
    content = body["content"].get(content_type)
    return _validator(content["schema"]) if content is not None else None


@functools.lru_cache(maxsize=512)
def _param_validators(template: str, method: str) -> dict[tuple[str, str], tuple[jsonschema.Validator, bool]]:
    """(where, name) -> (validator, required) for the operation's path and query parameters."""
    item = spec()["paths"][template]
    out = {}
    for param in [*item.get("parameters", []), *item[method.lower()].get("parameters", [])]:
        out[(param["in"], param["name"])] = (_validator(param.get("schema") or {}), bool(param.get("required")))
    return out


def _say(error) -> str:
    """A schema error in a few words (the instance itself may be a whole message)."""
    value, limit, instance = error.validator, error.validator_value, error.instance
    if value in ("maxLength", "minLength") and isinstance(instance, str):
        return f"{len(instance)} characters (at {'most' if value == 'maxLength' else 'least'} {limit})"
    if value in ("maxItems", "minItems") and isinstance(instance, list):
        return f"{len(instance)} items (at {'most' if value == 'maxItems' else 'least'} {limit})"
    return error.message[:300]


def _closest_member(error):
    """Why a union (anyOf/oneOf) failed: the error of the member meant (its ``type`` matched), else the member
    that got furthest into the value."""
    members: dict[Any, list] = {}
    for sub in error.context:
        members.setdefault(sub.relative_schema_path[0] if sub.relative_schema_path else None, []).append(sub)
    depth = len(error.absolute_path)

    def wrong_type(errors: list) -> bool:  # this member is for another "type" of object
        return any(e.validator in ("enum", "const") and len(e.absolute_path) == depth + 1
                   and e.absolute_path[-1] == "type" for e in errors)

    meant = [errors for errors in members.values() if not wrong_type(errors)] or list(members.values())
    errors = max(meant, key=lambda errs: (max(len(e.absolute_path) for e in errs), -len(errs)))
    return best_match(errors)


def _schema_problems(validator: jsonschema.Validator, value: Any, where: str) -> list[str]:
    problems = []
    for error in validator.iter_errors(value):
        error = best_match([error]) or error
        while error.context:
            error = _closest_member(error)
        at = ".".join(str(p) for p in error.absolute_path)
        problems.append(f"{where}{'.' + at if at else ''}: {_say(error)}")
        if len(problems) >= 5:
            break
    return problems


def _query_values(raw: Any) -> list[Any]:
    """What a query string value may stand for: Discord reads ``true``/``True``/``1`` and ``false``/``0`` as
    booleans, digits as numbers, anything as a string."""
    text = str(raw).strip()
    out: list[Any] = [text]
    if re.fullmatch(r"-?[0-9]+", text):
        out.append(int(text))
    if text.lower() in ("true", "1", "false", "0"):
        out.append(text.lower() in ("true", "1"))
    return out


def _parameter_problems(template: str, method: str, params: dict[str, str], query: dict[str, Any]) -> list[str]:
    declared = _param_validators(template, method)
    problems = []
    for name, value in params.items():
        found = declared.get(("path", name))
        if found is not None:
            problems += _schema_problems(found[0], value, f"path parameter {name}")
    for name, value in query.items():
        found = declared.get(("query", name))
        if found is None:
            problems.append(f"unknown query parameter {name!r}")
            continue
        validator = found[0]
        candidates = _query_values(value)
        if all(list(validator.iter_errors(c)) for c in candidates):
            problems += _schema_problems(validator, candidates[-1], f"query parameter {name}")
    for (where, name), (_, required) in declared.items():
        if where == "query" and required and name not in query:
            problems.append(f"missing query parameter {name!r}")
    return problems


# -- application commands --------------------------------------------------------------------------------------


def _longest(item: dict, key: str) -> int:
    texts = [item.get(key) or ""] + list((item.get(f"{key}_localizations") or {}).values())
    return max(len(str(t)) for t in texts)


def command_size(command: dict) -> int:
    """Discord's size of a command: name + description + every option's, subcommand's and group's name and
    description + every choice's name and value, summed over the whole command; of a field with localizations
    only the longest variant counts."""
    total = _longest(command, "name") + _longest(command, "description")
    for choice in command.get("choices") or []:
        total += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in command.get("options") or []:
        total += command_size(option)
    return total


_NAME = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
SUB = (1, 2)  # SUB_COMMAND, SUB_COMMAND_GROUP


def _name_problems(item: dict, where: str, chat_input: bool) -> list[str]:
    problems = []
    names = [("", item.get("name") or "")] + [(f" ({lang})", text) for lang, text in
                                               (item.get("name_localizations") or {}).items()]
    for lang, name in names:
        if not 1 <= len(name) <= 32:
            problems.append(f"{where}: name{lang} {name!r} must be 1-32 characters")
        elif chat_input and not _NAME.match(name):
            problems.append(f"{where}: name{lang} {name!r} has characters a slash command name cannot have")
        elif chat_input and name != name.lower():
            problems.append(f"{where}: name{lang} {name!r} must be lower case")
    for lang in (item.get("name_localizations") or {}):
        if lang not in locales():
            problems.append(f"{where}: unknown locale {lang!r} in name_localizations")
    for lang in (item.get("description_localizations") or {}):
        if lang not in locales():
            problems.append(f"{where}: unknown locale {lang!r} in description_localizations")
    return problems


def _description_problems(item: dict, where: str) -> list[str]:
    problems = []
    texts = [("", item.get("description") or "")] + [
        (f" ({lang})", text) for lang, text in (item.get("description_localizations") or {}).items()]
    for lang, text in texts:
        if not 1 <= len(text) <= 100:
            problems.append(f"{where}: description{lang} must be 1-100 characters (has {len(text)})")
    return problems


def _option_problems(option: dict, where: str) -> list[str]:
    where = f"{where} {option.get('name')}"
    problems = _name_problems(option, where, True) + _description_problems(option, where)
    kind = option.get("type")
    choices = option.get("choices") or []
    if len(choices) > 25:
        problems.append(f"{where}: {len(choices)} choices (at most 25)")
    if choices and option.get("autocomplete"):
        problems.append(f"{where}: choices and autocomplete cannot go together")
    for choice in choices:
        texts = [choice.get("name") or ""] + list((choice.get("name_localizations") or {}).values())
        if any(not 1 <= len(t) <= 100 for t in texts):
            problems.append(f"{where}: choice name {choice.get('name')!r} must be 1-100 characters")
        value = choice.get("value")
        if kind == 3 and (not isinstance(value, str) or not 1 <= len(value) <= 100):
            problems.append(f"{where}: choice {choice.get('name')!r} needs a string value of 1-100 characters")
        if kind == 4 and (not isinstance(value, int) or isinstance(value, bool)):
            problems.append(f"{where}: choice {choice.get('name')!r} needs an integer value")
    low, high = option.get("min_value"), option.get("max_value")
    if low is not None and high is not None and low > high:
        problems.append(f"{where}: min_value {low} above max_value {high}")
    low, high = option.get("min_length"), option.get("max_length")
    if low is not None and high is not None and low > high:
        problems.append(f"{where}: min_length {low} above max_length {high}")
    return problems


def _options_problems(options: list[dict], where: str, *, in_group: bool = False) -> list[str]:
    problems = []
    if len(options) > 25:
        problems.append(f"{where}: {len(options)} options (at most 25 per command, subcommand or group)")
    names = [o.get("name") for o in options]
    for name in {n for n in names if names.count(n) > 1}:
        problems.append(f"{where}: two options named {name!r}")
    subs = [o for o in options if o.get("type") in SUB]
    if subs and len(subs) != len(options):
        problems.append(f"{where}: subcommands and plain options cannot be mixed")
    if in_group and any(o.get("type") != 1 for o in options):
        problems.append(f"{where}: a subcommand group holds only subcommands")
    seen_optional = False
    for option in options:
        kind = option.get("type")
        if kind in SUB:
            sub = f"{where} {option.get('name')}"
            problems += _name_problems(option, sub, True) + _description_problems(option, sub)
            problems += _options_problems(option.get("options") or [], sub, in_group=kind == 2)
            continue
        problems += _option_problems(option, where)
        if option.get("required"):
            if seen_optional:
                problems.append(f"{where} {option.get('name')}: a required option after an optional one")
        else:
            seen_optional = True
    return problems


def command_problems(commands: list[dict], *, bulk: bool = True) -> list[str]:
    """Discord's documented rules for application commands that the schema does not hold."""
    problems = []
    chat = [c for c in commands if c.get("type", 1) == 1]
    if bulk and len(chat) > 100:
        problems.append(f"{len(chat)} slash commands (at most 100)")
    for kind in {c.get("type", 1) for c in commands}:
        names = [c.get("name") for c in commands if c.get("type", 1) == kind]
        for name in {n for n in names if names.count(n) > 1}:
            problems.append(f"two commands named {name!r}")
    for command in commands:
        where = f"/{command.get('name')}"
        chat_input = command.get("type", 1) == 1
        problems += _name_problems(command, where, chat_input)
        if chat_input:
            problems += _description_problems(command, where)
            problems += _options_problems(command.get("options") or [], where)
            size = command_size(command)
            if size > COMMAND_CHARS:
                problems.append(f"{where}: {size:,} characters of names, descriptions and choices "
                                f"(at most {COMMAND_CHARS:,} per command)")
    return problems


# -- messages --------------------------------------------------------------------------------------------------


def _walk(components: list[dict]) -> Iterator[dict]:
    """Every component, nested ones included (rows' items, sections' texts and accessory, containers)."""
    for component in components or []:
        if not isinstance(component, dict):
            continue
        yield component
        yield from _walk(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield from _walk([component["accessory"]])


def _component_text(component: dict) -> int:
    size = len(component.get("content") or "") + len(component.get("label") or "")
    size += len(component.get("placeholder") or "")
    for option in component.get("options") or []:
        size += len(option.get("label") or "") + len(option.get("description") or "")
    return size


def _embed_problems(embeds: list[dict]) -> list[str]:
    problems = []
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (at most 10)")
    total = 0
    for i, embed in enumerate(embeds):
        if not isinstance(embed, dict):
            continue
        where = f"embeds[{i}]"
        limits = {"title": 256, "description": 4096}
        for key, limit in limits.items():
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > limit:
                problems.append(f"{where}.{key}: {len(text)} characters (at most {limit})")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(f"{where}: {len(fields)} fields (at most 25)")
        for j, item in enumerate(fields):
            name, value = item.get("name") or "", item.get("value") or ""
            total += len(name) + len(value)
            if not 1 <= len(name) <= 256 or not 1 <= len(value) <= 1024:
                problems.append(f"{where}.fields[{j}]: name 1-256 and value 1-1024 characters")
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048:
            problems.append(f"{where}.footer.text: {len(footer)} characters (at most 2048)")
        if len(author) > 256:
            problems.append(f"{where}.author.name: {len(author)} characters (at most 256)")
    if total > 6000:
        problems.append(f"embeds hold {total} characters together (at most 6000)")
    return problems


def _button_problems(button: dict, where: str) -> list[str]:
    problems = []
    style = button.get("style")
    if style == 5:
        if not button.get("url") or button.get("custom_id"):
            problems.append(f"{where}: a link button needs a url and no custom_id")
    elif style == 6:
        if not button.get("sku_id") or button.get("custom_id"):
            problems.append(f"{where}: a premium button needs a sku_id and no custom_id")
    else:
        if not button.get("custom_id") or button.get("url"):
            problems.append(f"{where}: a button of style {style} needs a custom_id and no url")
    if style != 6 and not button.get("label") and not button.get("emoji"):
        problems.append(f"{where}: a button needs a label or an emoji")
    return problems


def _select_problems(select: dict, where: str) -> list[str]:
    problems = []
    low = select.get("min_values", 1) if select.get("min_values") is not None else 1
    high = select.get("max_values", 1) if select.get("max_values") is not None else 1
    if low > high:
        problems.append(f"{where}: min_values {low} above max_values {high}")
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= 25:
            problems.append(f"{where}: {len(options)} options (1-25)")
        if high > len(options):
            problems.append(f"{where}: max_values {high} above its {len(options)} options")
        values = [o.get("value") for o in options]
        if len(set(values)) != len(values):
            problems.append(f"{where}: two options with the same value")
        if sum(1 for o in options if o.get("default")) > high:
            problems.append(f"{where}: more default options than max_values")
        for o in options:
            if not 1 <= len(o.get("label") or "") <= 100 or not 1 <= len(o.get("value") or "") <= 100:
                problems.append(f"{where}: option label and value must be 1-100 characters")
            if len(o.get("description") or "") > 100:
                problems.append(f"{where}: option description over 100 characters")
    return problems


def _classic_layout_problems(rows: list[dict]) -> list[str]:
    problems = []
    if len(rows) > 5:
        problems.append(f"{len(rows)} action rows (at most 5 without components v2)")
    for i, row in enumerate(rows):
        if row.get("type") != 1:
            problems.append(f"components[{i}]: type {row.get('type')} needs the components v2 flag (32768); "
                            "a classic message holds action rows only")
    return problems


def _row_problems(row: dict, where: str) -> list[str]:
    items = row.get("components") or []
    buttons = [c for c in items if c.get("type") == 2]
    if buttons and len(buttons) != len(items):
        return [f"{where}: an action row holds up to 5 buttons or one select, not both"]
    if not buttons and len(items) > 1:
        return [f"{where}: an action row holds one select"]
    if len(items) > 5 or not items:
        return [f"{where}: an action row holds 1-5 buttons"]
    return []


def _media_urls(components: list[dict]) -> set[str]:
    urls = set()
    for c in _walk(components):
        for media in (c.get("file"), c.get("media")):
            if isinstance(media, dict) and media.get("url"):
                urls.add(media["url"])
        for item in c.get("items") or []:
            if isinstance(item, dict) and isinstance(item.get("media"), dict):
                urls.add(item["media"].get("url"))
    return urls


def message_problems(body: dict | None, uploads: list[Upload], *, create: bool, existing_flags: int = 0,
                     upload_limit: int = DEFAULT_UPLOAD_LIMIT) -> list[tuple[int, str]]:
    """(Discord code, problem) for a message created or edited with ``body`` and ``uploads``."""
    body = body or {}
    if not isinstance(body, dict):
        return []
    problems: list[str] = []
    flags = body.get("flags") or 0
    if existing_flags & IS_COMPONENTS_V2 and "flags" in body and body.get("flags") is not None \
            and not flags & IS_COMPONENTS_V2:
        problems.append("the components v2 flag cannot be removed by an edit")
    v2 = bool((flags | existing_flags) & IS_COMPONENTS_V2)
    content = body.get("content") or ""
    if len(content) > 2000:
        problems.append(f"content: {len(content)} characters (at most 2000)")
    embeds = body.get("embeds") or []
    problems += _embed_problems(embeds)
    components = body.get("components") or []
    everything = list(_walk(components))
    if v2:
        if content or embeds or body.get("poll") or body.get("sticker_ids"):
            problems.append("a components v2 message cannot have content, embeds, stickers or a poll")
        if len(everything) > 40:
            problems.append(f"{len(everything)} components counting nested ones (at most 40)")
        text = sum(_component_text(c) for c in everything)
        if text > 4000:
            problems.append(f"{text} characters of text across the components (at most 4000)")
        referenced = _media_urls(components)
        for upload in uploads:
            if f"attachment://{upload.filename}" not in referenced:
                problems.append(f"file {upload.filename!r} is not referenced by a File, Thumbnail or "
                                "MediaGallery component")
    else:
        problems += _classic_layout_problems(components)
    ids = [c.get("custom_id") for c in everything if c.get("custom_id") is not None]
    for custom_id in {i for i in ids if ids.count(i) > 1}:
        problems.append(f"custom_id {custom_id!r} twice in one message")
    for custom_id in ids:
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
            problems.append(f"custom_id {str(custom_id)[:120]!r} must be 1-100 characters")
    for i, c in enumerate(everything):
        kind = c.get("type")
        where = f"component {i} (type {kind})"
        if kind == 1:
            problems += _row_problems(c, where)
        elif kind == 2:
            problems += _button_problems(c, where)
        elif kind in (3, 5, 6, 7, 8):
            problems += _select_problems(c, where)
    mentions = body.get("allowed_mentions") or {}
    for kind in ("users", "roles"):
        if kind in (mentions.get("parse") or []) and mentions.get(kind):
            problems.append(f"allowed_mentions: parse {kind!r} and a list of {kind} cannot go together")
        if len(mentions.get(kind) or []) > 100:
            problems.append(f"allowed_mentions: more than 100 {kind}")
    if len(uploads) > 10:
        problems.append(f"{len(uploads)} files (at most 10)")
    size = sum(u.size for u in uploads)
    if size > upload_limit:
        problems.append(f"files of {size:,} bytes together (at most {upload_limit:,})")
    out = [(50035, p) for p in problems]
    if create and not (content or embeds or components or uploads or body.get("sticker_ids") or body.get("poll")):
        out.append((50006, "Cannot send an empty message"))
    return out


# -- the contract of one fake Discord --------------------------------------------------------------------------


@dataclass
class _Interaction:
    kind: int | None
    upload_limit: int = DEFAULT_UPLOAD_LIMIT
    answered: int | None = None  # the callback type
    deferred_ephemeral: bool | None = None  # after a type-5 deferral, until its first followup or edit
    clicked_flags: int = 0  # a click's message: what a type-6/7 answer and its @original edits change
    original_flags: int = 0  # the flags of the response message (@original)


_watching: list[list[Contract]] = []


@contextlib.contextmanager
def session() -> Iterator[list[Contract]]:
    """Collect the contracts of every fake Discord created inside (the suite's autouse fixture)."""
    seen: list[Contract] = []
    _watching.append(seen)
    try:
        yield seen
    finally:
        _watching.remove(seen)


class Contract:
    """The contract of one fake Discord: :meth:`check` each request; ``violations`` lists what was refused.

    ``message_flags(message_id)`` (given by the fake) tells the flags of a message it holds, so an edit of a
    components v2 message is checked as one."""

    def __init__(self, message_flags: Callable[[int], int | None] | None = None, *, watched: bool = True) -> None:
        self.violations: list[Violation] = []
        self.checked = 0
        self._interactions: dict[str, _Interaction] = {}
        self._message_flags = message_flags or (lambda _mid: None)
        if watched:  # (a test of the contract itself makes unwatched ones)
            for seen in _watching:
                seen.append(self)

    # -- what the fake tells the contract --

    def interaction(self, token: str, kind: int, *, attachment_size_limit: int | None = None,
                    clicked_flags: int = 0) -> None:
        """An interaction the fake sent to the bot (its type; for a click, the flags of the clicked message)."""
        self._interactions[token] = _Interaction(kind, attachment_size_limit or DEFAULT_UPLOAD_LIMIT,
                                                 clicked_flags=clicked_flags)

    def take(self) -> list[Violation]:
        """The violations so far, forgotten (for a test that provokes them on purpose)."""
        taken, self.violations = self.violations, []
        return taken

    # -- the check --

    def check(self, request: Request) -> None:
        """Raise :class:`Refusal` (and record it) when Discord would refuse ``request``."""
        self.checked += 1
        problems = self._problems(request)
        if not problems:
            return
        code = next((c for c, _ in problems if c != 50035), 50035)
        texts = [p for _, p in problems]
        self.violations.append(Violation(request.method, request.path, code, texts))
        message = {50035: "Invalid Form Body", 50006: "Cannot send an empty message",
                   40060: "Interaction has already been acknowledged", 10015: "Unknown Webhook",
                   10062: "Unknown interaction"}.get(code, "Invalid Form Body")
        raise Refusal(404 if code == 10015 else 400, code, message, texts)

    def _problems(self, request: Request) -> list[tuple[int, str]]:
        found = find_route(request.path)
        method = request.method.upper()
        if found is None or method.lower() not in spec()["paths"][found[0].template]:
            return [(50035, f"Discord's API has no route {method} {request.path}")]
        route, params = found
        problems = [(50035, p) for p in _parameter_problems(route.template, method, params, request.query)]
        problems += [(50035, p) for p in self._body_problems(route.template, method, request)]
        if not problems:  # the documented rules, on a body of the right shape
            problems += self._rules(route.template, method, params, request)
        return problems

    def _body_problems(self, template: str, method: str, request: Request) -> list[str]:
        operation = spec()["paths"][template][method.lower()]
        declared = operation.get("requestBody")
        if declared is None:
            if request.body is not None or request.uploads:
                return [f"{method} {template} takes no body"]
            return []
        if request.body is None and not request.uploads:
            return ["a body is required"] if declared.get("required") else []
        content_type = "multipart/form-data" if request.multipart else "application/json"
        if content_type not in declared["content"]:
            return [f"{method} {template} does not take {content_type}"]
        if request.uploads and not request.multipart:
            return ["files need a multipart/form-data request"]
        validator = _body_validator(template, method, content_type)
        if validator is None:
            return []
        body = request.body if request.body is not None else {}
        if request.multipart:
            body = dict(body) if isinstance(body, dict) else body
            if isinstance(body, dict):
                for upload in request.uploads:
                    body[upload.field] = "<binary>"
            bad = [u.field for u in request.uploads if not re.fullmatch(r"files\[[0-9]\]", u.field)]
            if bad:
                return [f"file parts must be named files[0]..files[9], not {bad}"]
        return _schema_problems(validator, body, "body")

    def _rules(self, template: str, method: str, params: dict, request: Request) -> list[tuple[int, str]]:
        body = request.body
        if template in ("/applications/{application_id}/commands",
                        "/applications/{application_id}/guilds/{guild_id}/commands"):
            if method == "PUT":
                return [(50035, p) for p in command_problems(body or [])]
            if method == "POST":
                return [(50035, p) for p in command_problems([body], bulk=False)]
        if template in ("/applications/{application_id}/commands/{command_id}",
                        "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}") \
                and method == "PATCH" and isinstance(body, dict):
            return [(50035, p) for p in command_problems([dict({"type": 1}, **body)], bulk=False)
                    if "characters" in p or "options" in p]
        if template == "/interactions/{interaction_id}/{interaction_token}/callback":
            return self._callback(params["interaction_token"], request)
        if template.startswith("/webhooks/{webhook_id}/{webhook_token}"):
            return self._webhook(template, method, params, request)
        if template == "/channels/{channel_id}/messages" and method == "POST":
            return message_problems(body, request.uploads, create=True)
        if template == "/channels/{channel_id}/messages/{message_id}" and method == "PATCH":
            existing = self._message_flags(int(params["message_id"])) if params["message_id"].isdigit() else None
            return message_problems(body, request.uploads, create=False, existing_flags=existing or 0)
        return []

    def _callback(self, token: str, request: Request) -> list[tuple[int, str]]:
        body = request.body if isinstance(request.body, dict) else {}
        kind = body.get("type")
        state = self._interactions.setdefault(token, _Interaction(None))
        if state.answered is not None:
            return [(40060, f"the interaction was already answered (callback type {state.answered})")]
        problems: list[tuple[int, str]] = []
        allowed = CALLBACKS_FOR.get(state.kind)
        if allowed is not None and kind not in allowed:
            problems.append((50035, f"callback type {kind} cannot answer {INTERACTION_NAMES[state.kind]} "
                                    f"(allowed: {sorted(allowed)})"))
        data = body.get("data") or {}
        if kind == 4:
            problems += message_problems(data, request.uploads, create=True, upload_limit=state.upload_limit)
        elif kind == 7:
            problems += message_problems(data, request.uploads, create=False, existing_flags=state.clicked_flags,
                                         upload_limit=state.upload_limit)
        if problems:
            return problems
        state.answered = kind
        state.original_flags = state.clicked_flags if kind in (6, 7) else (data.get("flags") or 0)
        if kind == 5:
            state.deferred_ephemeral = bool((data.get("flags") or 0) & EPHEMERAL)
        return []

    def _webhook(self, template: str, method: str, params: dict, request: Request) -> list[tuple[int, str]]:
        token = params["webhook_token"]
        state = self._interactions.get(token)
        body = request.body if isinstance(request.body, dict) else {}
        problems: list[tuple[int, str]] = []
        if state is not None and state.answered is None and method in ("POST", "PATCH"):
            return [(10015, "a followup or an edit of the original response before the interaction was "
                            "answered (respond or defer first)")]
        if template == "/webhooks/{webhook_id}/{webhook_token}" and method == "POST":
            if state is not None and state.deferred_ephemeral is not None:
                asked = bool((body.get("flags") or 0) & EPHEMERAL)
                if asked != state.deferred_ephemeral:
                    was = "ephemerally" if state.deferred_ephemeral else "publicly"
                    problems.append((50035, f"the first followup after a deferral takes the deferral's visibility "
                                            f"(deferred {was}); its ephemeral flag {'would be' if asked else 'is'} "
                                            f"ignored: {'a private answer would be shown to everyone' if asked else 'a public answer would be seen by one person only'}"))
            problems += message_problems(body, request.uploads, create=True,
                                         upload_limit=state.upload_limit if state else DEFAULT_UPLOAD_LIMIT)
            if not problems and state is not None and state.deferred_ephemeral is not None:
                state.deferred_ephemeral = None  # the "thinking" message is now this one
                state.original_flags |= body.get("flags") or 0
            return problems
        if template.startswith("/webhooks/{webhook_id}/{webhook_token}/messages/") and method == "PATCH":
            message_id = params.get("message_id")
            if template.endswith("@original"):
                existing = state.original_flags if state is not None else None
            else:
                existing = self._message_flags(int(message_id)) if message_id and message_id.isdigit() else None
            problems += message_problems(body, request.uploads, create=False, existing_flags=existing or 0,
                                         upload_limit=state.upload_limit if state else DEFAULT_UPLOAD_LIMIT)
            if not problems and state is not None and template.endswith("@original"):
                state.deferred_ephemeral = None
            return problems
        return problems

