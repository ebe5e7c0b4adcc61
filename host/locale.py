"""Player-facing strings of the host and the cogs, from ``data/locales/<lang>.json``, and each game's own
sentences from ``data/locales/<game>/<lang>.json`` (English first; missing keys fall back to English).

Whom a string is for decides its language: a reply to one person is in that person's Discord language (the
caller passes it); everything said about a game in its thread - narration, prompts, buttons - is in the
game's language, chosen when the game was created. The game service sets that language for the task that
handles the game (:func:`use_language`), so presenters need not pass it around."""

from __future__ import annotations

import json
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

LOCALES = Path(__file__).resolve().parent.parent / "data" / "locales"
DEFAULT = "en"
#: the languages a game can be played in, with their own names (the /<game> new "language" option)
LANGUAGES = {"en": "English", "hu": "Magyar", "pl": "Polski"}

_GAME_LANGUAGE: ContextVar[str | None] = ContextVar("game_language", default=None)


def use_language(lang: str | None) -> None:
    """Make ``lang`` the language of strings asked for without one, for the rest of the current task."""
    _GAME_LANGUAGE.set(language(lang) if lang else None)


def current_language() -> str:
    """The language set by :func:`use_language` for this task, else English."""
    return _GAME_LANGUAGE.get() or DEFAULT


@lru_cache(maxsize=8)
def _table(lang: str) -> dict[str, str]:
    path = LOCALES / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def language(locale: str | None) -> str:
    """Discord locale ('hu', 'pl', 'en-US', ...) -> one of our languages."""
    if not locale:
        return DEFAULT
    known = _LANGUAGE_OF.get(locale) if isinstance(locale, str) else None
    if known is not None:
        return known
    lang = str(locale).split("-")[0].lower()
    return lang if lang in LANGUAGES else DEFAULT


#: what :func:`language` says of the locales that are ours already (asked for every string a move says)
_LANGUAGE_OF = {lang: lang for lang in LANGUAGES}


def t(key: str, lang: str | None = None, /, **fields) -> str:
    """The string ``key`` in ``lang`` (default: the current game's language) with ``{fields}`` filled in.
    ``key`` and ``lang`` are positional-only, so a string may have fields of those names (``{key}``)."""
    table = _table(language(lang or _GAME_LANGUAGE.get()))
    template = table.get(key) or _table(DEFAULT).get(key)
    if template is None:
        raise KeyError(f"missing string {key!r}")
    return template.format(**fields)


@lru_cache(maxsize=32)
def _game_table(game: str, lang: str) -> dict[str, str]:
    path = LOCALES / game / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def game_text(game: str, key: str, lang: str | None = None, /, **fields) -> str:
    """A game's own string (``data/locales/<game>/<lang>.json``; default: the current game's language),
    English when missing in ``lang``."""
    lang = language(lang or _GAME_LANGUAGE.get())
    try:
        # a panel of hundreds of moves asks for the same few phrases again and again
        # (with the types: 1, 1.0 and True are equal keys but are written differently)
        return _game_text(game, lang, key, tuple(fields.items()), tuple(map(type, fields.values())))
    except TypeError:  # a field that cannot be a cache key
        return _game_template(game, lang, key).format(**fields)


@lru_cache(maxsize=16384)
def _game_text(game: str, lang: str, key: str, fields: tuple, types: tuple) -> str:
    return _game_template(game, lang, key).format(**dict(fields))


def _game_template(game: str, lang: str, key: str) -> str:
    template = _game_table(game, lang).get(key) or _game_table(game, DEFAULT).get(key)
    if template is None:
        raise KeyError(f"missing string {key!r} of {game}")
    return template
