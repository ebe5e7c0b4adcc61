"""Presenters: how a game's actions become buttons and its events become sentences, and which options
``/<game> new`` offers. One module per game (``GAME`` + ``PRESENTER``), discovered like engines; what they
build on is in ``host/presenters/base.py``. No discord import: the cogs do the Discord part."""

from __future__ import annotations

import importlib
import pkgutil

from host.presenters.base import OptionSpec, Presenter, Refined, ending_headline

__all__ = ["PRESENTERS", "OptionSpec", "Presenter", "Refined", "ending_headline", "presenter_for"]


class _Default(Presenter):
    pass


def _discover() -> dict[str, Presenter]:
    found: dict[str, Presenter] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        presenter = getattr(module, "PRESENTER", None)
        if presenter is not None:
            found[presenter.game] = presenter
    return found


PRESENTERS: dict[str, Presenter] = _discover()


def presenter_for(key: str) -> Presenter:
    return PRESENTERS.get(key) or _Default()
