"""The typed field readers every rule set's table loader shares."""

from __future__ import annotations

import pytest

from mekref.rules.tables import TableError, bool_field, int_list_field, str_list_field


def test_lists_are_required_unless_optional() -> None:
    assert str_list_field({"a": ["x", "y"]}, "a") == ("x", "y")
    assert str_list_field({}, "a", optional=True) == ()
    assert int_list_field({}, "a", optional=True) == ()
    with pytest.raises(TableError, match="list of text"):
        str_list_field({}, "a")
    with pytest.raises(TableError, match="list of integers"):
        int_list_field({}, "a")


def test_wrong_types_are_refused() -> None:
    with pytest.raises(TableError, match="list of integers"):
        int_list_field({"a": [1, True]}, "a")
    with pytest.raises(TableError, match="list of text"):
        str_list_field({"a": ["x", 1]}, "a", optional=True)
    with pytest.raises(TableError, match="true or false"):
        bool_field({"a": 1}, "a")


def test_a_missing_flag_is_false() -> None:
    assert bool_field({}, "a") is False
    assert bool_field({"a": True}, "a") is True
