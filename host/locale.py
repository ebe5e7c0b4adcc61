"""Player-facing strings of the host and the cogs, from ``data/locales/<lang>.json`` (English first;
missing keys fall back to English)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "data" / "locales"
DEFAULT = "en"


@lru_cache(maxsize=8)
def _table(lang: str) -> dict[str, str]:
    path = LOCALES / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def language(locale: str | None) -> str:
    """Discord locale ('hu', 'pl', 'en-US', ...) -> one of our languages."""
    if not locale:
        return DEFAULT
    lang = str(locale).split("-")[0].lower()
    return lang if (LOCALES / f"{lang}.json").exists() else DEFAULT


def t(key: str, lang: str | None = None, **fields) -> str:
    """The string ``key`` in ``lang`` with ``{fields}`` filled in."""
    table = _table(language(lang))
    template = table.get(key) or _table(DEFAULT).get(key)
    if template is None:
        raise KeyError(f"missing string {key!r}")
    return template.format(**fields)


@lru_cache(maxsize=32)
def _game_table(game: str, lang: str) -> dict[str, str]:
    path = LOCALES / game / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def game_text(game: str, key: str, lang: str | None = None, **fields) -> str:
    """A game's own string (``data/locales/<game>/<lang>.json``), English when missing in ``lang``."""
    table = _game_table(game, language(lang))
    template = table.get(key) or _game_table(game, DEFAULT).get(key)
    if template is None:
        raise KeyError(f"missing string {key!r} of {game}")
    return template.format(**fields)
