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
