"""The typed field readers every rule set's table loader shares."""

from __future__ import annotations

import pytest

from mekref.rules.record_type import Record, record
from mekref.rules.tables import (
    SourceRef,
    TableError,
    bool_field,
    int_list_field,
    row_record,
    str_list_field,
)


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


@record
class _Row(Record):
    key: str
    count: int
    cap: int | None
    tags: tuple[str, ...]
    ref: SourceRef
    bonus: int = 3


def test_a_row_is_read_by_its_declared_types() -> None:
    row = {"key": "a", "count": 2, "line": 7, "source": "a 2"}
    read = row_record(_Row, row, optional=("tags",))
    assert read == _Row(key="a", count=2, cap=None, tags=(), ref=SourceRef(line=7, source="a 2"))
    assert row_record(_Row, {**row, "cap": 1, "bonus": 0}, tags=("t",)).cap == 1
    with pytest.raises(TableError, match="list of text"):
        row_record(_Row, row)
    with pytest.raises(TableError, match="'count' must be an integer"):
        row_record(_Row, {**row, "count": "2"}, optional=("tags",))
