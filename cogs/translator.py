"""Slash-command descriptions in the user's language (``data/locales/commands.json``), through discord.py's
Translator: Discord shows Hungarian or Polish descriptions to clients in those languages."""

from __future__ import annotations

import json
from pathlib import Path

import discord
from discord import app_commands

TABLE = Path(__file__).resolve().parent.parent / "data" / "locales" / "commands.json"
LOCALES = {discord.Locale.hungarian: "hu", discord.Locale.polish: "pl"}


class Translator(app_commands.Translator):
    def __init__(self) -> None:
        super().__init__()
        self.table = {k: v for k, v in json.loads(TABLE.read_text(encoding="utf-8")).items()
                      if not k.startswith("_")}

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = LOCALES.get(locale)
        if lang is None or context.location is app_commands.TranslationContextLocation.command_name \
                or context.location is app_commands.TranslationContextLocation.group_name \
                or context.location is app_commands.TranslationContextLocation.parameter_name:
            return None  # names stay the same everywhere, so help texts and examples keep working
        return self.table.get(string.message, {}).get(lang)
