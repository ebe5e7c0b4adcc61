"""Translations: every Hungarian and Polish string table says everything the English one says, with the same
``{placeholders}`` (a missing or misspelt one would break a sentence mid-game), and translated rules pages
keep the English page structure."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ROOT / "data" / "locales"
RULES = ROOT / "data" / "rules"


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


def _tables() -> list[tuple[Path, Path]]:
    pairs = []
    for en in sorted(LOCALES.rglob("en.json")):
        for other in sorted(en.parent.glob("*.json")):
            if other.name not in ("en.json", "commands.json"):
                pairs.append((en, other))
    return pairs


@pytest.mark.parametrize(("en", "other"), _tables(), ids=lambda p: str(p.relative_to(LOCALES)))
def test_a_translation_has_every_string_with_the_same_placeholders(en, other):
    english = json.loads(en.read_text(encoding="utf-8"))
    translated = json.loads(other.read_text(encoding="utf-8"))
    assert not set(english) - set(translated), f"missing in {other.name}: {sorted(set(english) - set(translated))}"
    assert not set(translated) - set(english), f"unknown keys: {sorted(set(translated) - set(english))}"
    for key, text in english.items():
        assert _fields(translated[key]) == _fields(text), (key, text, translated[key])
        assert translated[key].strip() or not text.strip(), key


def _rules() -> list[Path]:
    return sorted(p for p in RULES.glob("*.*.md"))


@pytest.mark.parametrize("page", _rules(), ids=lambda p: p.name)
def test_a_translated_rules_page_has_the_english_sections(page):
    key = page.name.split(".")[0]
    english = (RULES / f"{key}.md").read_text(encoding="utf-8")
    count = len(re.findall(r"^## ", english, flags=re.M))
    assert len(re.findall(r"^## ", page.read_text(encoding="utf-8"), flags=re.M)) == count


def test_every_picture_word_a_renderer_asks_for_is_in_its_english_table():
    # renderers say ``say("key", ...)`` with ``say = kit.words(game, view)``
    for module in sorted((ROOT / "render").glob("*.py")):
        source = module.read_text(encoding="utf-8")
        keys = set(re.findall(r"\bsay\(\s*\"(\w+)\"", source))
        if not keys:
            continue
        game = re.search(r"kit\.words\(\s*\"([\w-]+)\"", source) or re.search(r"^GAME = \"([\w-]+)\"", source, re.M)
        assert game, f"{module.name}: which game's words?"
        table = json.loads((LOCALES / game.group(1) / "picture" / "en.json").read_text(encoding="utf-8"))
        assert keys <= set(table), f"{module.name}: missing {sorted(keys - set(table))}"


def test_cached_game_strings_keep_their_fields_apart():
    from host.locale import game_text

    assert game_text("hextri", "label_move", "en", to="H-C4", cost="free") == "H-C4 (free)"
    assert game_text("hextri", "label_move", "en", to="H-C4", cost=1) == "H-C4 (1)"
    assert game_text("hextri", "label_move", "en", to="H-C4", cost=True) == "H-C4 (True)"  # not the cached 1
    assert game_text("hextri", "label_move", "en", to=["H-C4"], cost=1) == "['H-C4'] (1)"  # unhashable: no cache
