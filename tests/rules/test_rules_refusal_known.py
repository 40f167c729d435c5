"""``known``: a lookup that refuses an unknown key with the rule set's own code and words."""

from __future__ import annotations

import pytest

from mekref.rules.refusal import Refusal, known


def test_a_known_key_gives_its_value_and_an_unknown_one_is_refused() -> None:
    table = {"a": 1}
    assert known(table, "a", "unknown_x", "no x {!r}") == 1
    with pytest.raises(Refusal) as refused:
        known(table, "b", "unknown_x", "no x {!r}: add it first")
    assert (refused.value.code, refused.value.message) == ("unknown_x", "no x 'b': add it first")
