"""The levels are ordered: normal beats easy (statistical, slow)."""

from __future__ import annotations

import pytest

from bench.arena import QUICK_OPTIONS, TARGET, match


@pytest.mark.slow
@pytest.mark.parametrize("key", ["hector-achilles", "ave-caesar", "kivalasztottak"])
def test_normal_beats_easy(key):
    assert match(key, "normal", "easy", 30, workers=1, options=QUICK_OPTIONS.get(key)) >= TARGET
