"""Slash-command descriptions in the user's language, through discord.py's Translator: Discord shows Hungarian
or Polish descriptions to clients in those languages. The commands' own texts are in
``data/locales/commands.json``; a game's option descriptions and choices come from its presenter's English
table (``data/locales/<game>/en.json``), so they are found there and taken from the same game's hu/pl table."""

from __future__ import annotations

import json
from pathlib import Path

import discord
from discord import app_commands

LOCALE_DIR = Path(__file__).resolve().parent.parent / "data" / "locales"
TABLE = LOCALE_DIR / "commands.json"
LOCALES = {discord.Locale.hungarian: "hu", discord.Locale.polish: "pl"}


class Translator(app_commands.Translator):
    def __init__(self) -> None:
        super().__init__()
        self.table = {k: v for k, v in json.loads(TABLE.read_text(encoding="utf-8")).items()
                      if not k.startswith("_")}
        # English text -> {lang: text} from the games' string tables
        for english in sorted(LOCALE_DIR.glob("*/en.json")):
            game = json.loads(english.read_text(encoding="utf-8"))
            others = {lang: json.loads((english.parent / f"{lang}.json").read_text(encoding="utf-8"))
                      for lang in LOCALES.values() if (english.parent / f"{lang}.json").exists()}
            for key, text in game.items():
                found = {lang: table[key] for lang, table in others.items() if table.get(key)}
                if found and "{" not in text:
                    self.table.setdefault(text, found)

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None or context.location is app_commands.TranslationContextLocation.command_name \
                or context.location is app_commands.TranslationContextLocation.group_name \
                or context.location is app_commands.TranslationContextLocation.parameter_name:
            return None  # names stay the same everywhere, so help texts and examples keep working
        return self.table.get(string.message, {}).get(lang)
