"""Every option of every game is explained where players and admins look: the game's /rules pages in all three
languages, and the game's row of the README's table of games (issue 26)."""

import re
from pathlib import Path

import pytest

from cogs.rules import pages
from engines import ENGINES
from host.presenters import presenter_for

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
LANGS = ("en", "hu", "pl")


def _options(key: str) -> list:
    return list(presenter_for(key).options)


def _readme_row(key: str) -> str:
    title = ENGINES[key].title
    rows = [line for line in README.splitlines() if line.startswith(f"| **{title}** |")]
    assert len(rows) == 1, f"one row for {title} in the README's table of games"
    return rows[0]


def _named(text: str, name: str) -> bool:
    return re.search(rf"(`{re.escape(name)}[`:= ]|\*\*{re.escape(name)}\*\*)", text) is not None


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("key", list(ENGINES))
def test_every_option_is_named_in_the_rules_pages(key, lang):
    text = "\n".join(body for _, body in pages(key, lang))
    missing = [spec.name for spec in _options(key) if not _named(text, spec.name)]
    assert not missing, f"/rules {key} ({lang}) does not name {missing}"


@pytest.mark.parametrize("key", list(ENGINES))
def test_every_option_is_in_the_readme_table(key):
    row = _readme_row(key)
    missing = [spec.name for spec in _options(key) if f"`{spec.name}`" not in row]
    assert not missing, f"README's row for {key} does not name {missing}"


def test_the_options_the_issue_found_missing_are_explained():
    """The three the README left out and the two /rules pages that were silent."""
    assert "`rotate_first`" in _readme_row("troja")
    assert "`round_limit`" in _readme_row("kivalasztottak")
    assert "`first_blood_play_on`" in _readme_row("hextri")
    for lang in LANGS:
        assert _named("\n".join(b for _, b in pages("ave-caesar", lang)), "track")
        hextri = "\n".join(b for _, b in pages("hextri", lang))
        assert "Viadalok" in hextri, lang


def test_a_game_with_options_has_some():
    """The check above cannot pass vacuously: the games that have options list them."""
    assert {key for key in ENGINES if _options(key)} >= {"ave-caesar", "hextri", "troja", "kivalasztottak"}
