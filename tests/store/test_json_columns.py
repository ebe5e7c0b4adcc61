"""The store's JSON columns are written and read by orjson (issue 29): the same text as the
standard library's compact JSON, and what orjson cannot write or read goes to the standard library."""

import json

import pytest

from store.base import _dumps, _loads


@pytest.mark.parametrize("value", [
    {"type": "move", "from": "A1", "to": "B2", "sources": ["A1", "A1"], "leader": False},
    [{"type": "card_played", "card": "Hektór", "seat": 1}, {"type": "pass", "seat": 0}],
    ["**Ádám** passes", "Łucja: 🏛️ «ok»", "line\u2028separator", ""],
    {"1": "a DM owed to seat 1", "2": "ő"},
    {2: "an integer key", "rng": 2**64 - 1, "neg": -(2**63)},
    {"big": 2**80, "lone": "\udc00"},
])
def test_the_columns_are_the_standard_librarys_compact_json(value):
    text = _dumps(value)
    assert text == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert _loads(text) == json.loads(text)


def test_what_the_standard_library_reads_is_read():
    assert _loads('{"a": NaN}')["a"] != _loads('{"a": NaN}')["a"]
    assert _loads(b'{"bytes": 1}') == {"bytes": 1}
    with pytest.raises(ValueError):
        _loads("{not json")
    with pytest.raises(TypeError):
        _dumps({"a set": {1, 2}})
