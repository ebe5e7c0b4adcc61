"""Every game has its /rules pages, within an embed's limits, with notes on playing it here."""

import pytest

from cogs.rules import pages
from engines import ENGINES


@pytest.mark.parametrize("key", list(ENGINES))
def test_every_game_has_rules_pages(key):
    found = pages(key)
    assert len(found) >= 4, "the rules in a few pages"
    for heading, body in found:
        assert 1 <= len(heading) <= 200 and 1 <= len(body) <= 4096
    assert any("here" in heading.lower() for heading, _ in found), "a page on playing it on Discord"


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
@pytest.mark.parametrize("key", list(ENGINES))
def test_every_rules_page_tells_the_time_controls_and_what_a_timeout_does(key, lang):
    """/rules in every language has a page on clocks: the controls offered, the short limit of decisions made
    at once, what running out of time does (AI or forfeit), resigning and going away."""
    found = pages(key, lang)
    (clock_page,) = [body for _, body in found if "`time_control`" in body]
    for words in ("`on_timeout`", "**AI**", "**Forfeit**", "`/game resign`", "`/game away days days:N`",
                  "`/game away off`", "14"):
        assert words in clock_page, (key, lang, words)
    assert all(("1 " + u) in clock_page for u in {"en": ("hour", "day"), "hu": ("óra", "nap"),
                                                  "pl": ("godzina", "dzień")}[lang])


@pytest.mark.parametrize("lang", ["en", "hu", "pl"])
@pytest.mark.parametrize("key", list(ENGINES))
def test_every_rules_page_tells_how_a_game_ends(key, lang):
    """/rules says what each end does: by the rules, resigning / out of time / dropped, an organizer's
    decision, abandoned; in a game of three or more, that the order of leaving decides the places."""
    found = pages(key, lang)
    (page,) = [body for _, body in found if "`/tournament adjudicate`" in body]
    for words in ("`/game resign`", "`on_timeout:forfeit`", "`/game abandon`", "`/game history`", "`/profile`"):
        assert words in page, (key, lang, words)
    first_is_last = {"en": "the first to leave is last", "hu": "aki elsőként lépett ki, az az utolsó",
                     "pl": "kto odszedł pierwszy, jest ostatni"}[lang]
    assert (first_is_last in " ".join(page.split())) == (ENGINES[key].max_players > 2), (key, lang)
