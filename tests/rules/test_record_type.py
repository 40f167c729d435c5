"""``@record`` classes answer ``==``, ``hash`` and ``repr`` as ``@dataclass(frozen=True,
kw_only=True)`` ones do (rules/record_type.py): the same classes declared both ways, compared."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field

import pytest

from mekref.rules import records
from mekref.rules.messages import Command, Event
from mekref.rules.record_type import Record, record
from mekref.rules.records import copy_with


@record
class Point(Record):
    x: int
    y: int = 0
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


@dataclass(frozen=True, kw_only=True)
class PointDc:
    x: int
    y: int = 0
    note: str = field(default="", compare=False)
    secret: str = field(default="", repr=False)


@record
class Empty(Record):
    pass


@dataclass(frozen=True, kw_only=True)
class EmptyDc:
    pass


@record
class One(Record):
    value: object


@dataclass(frozen=True, kw_only=True)
class OneDc:
    value: object


@record
class Moved(Event):
    to: str


def test_equality_and_hash_as_a_dataclass_gives_them() -> None:
    a, b = Point(x=1, y=2, note="a"), Point(x=1, y=2, note="b")
    assert a == b and hash(a) == hash(b)  # a field out of the comparison is out of both
    assert hash(a) == hash(PointDc(x=1, y=2, note="a")) == hash((1, 2, ""))  # x, y, secret
    assert a != Point(x=1, y=3)
    assert hash(Empty()) == hash(EmptyDc()) == hash(())
    assert hash(One(value="v")) == hash(OneDc(value="v")) == hash(("v",))
    assert {Point(x=1), Point(x=1), Point(x=2)} == {Point(x=1), Point(x=2)}


def test_another_class_is_never_equal_even_with_the_same_fields() -> None:
    assert Point(x=1) != PointDc(x=1)
    assert Point(x=1).__eq__(PointDc(x=1)) is NotImplemented
    assert One(value=1) != 1


def test_repr_as_a_dataclass_writes_it() -> None:
    value = Point(x=1, y=2, note="n", secret="s")
    assert repr(value) == repr(PointDc(x=1, y=2, note="n", secret="s")).replace("PointDc", "Point")
    assert repr(value) == "Point(x=1, y=2, note='n')"  # secret: repr=False
    assert repr(Empty()) == "Empty()"
    assert repr(Moved(to="0101")) == "Moved(rolls=(), to='0101')"


def test_a_value_holding_itself_is_shown_as_dataclasses_show_it() -> None:
    holder: list[object] = []
    looped = One(value=holder)
    holder.append(looped)
    plain: list[object] = []
    looped_dc = OneDc(value=plain)
    plain.append(looped_dc)
    assert repr(looped) == repr(looped_dc).replace("OneDc", "One") == "One(value=[...])"


def test_still_a_frozen_keyword_only_dataclass() -> None:
    value = Point(x=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.x = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point(1)  # type: ignore[misc]
    assert dataclasses.replace(value, y=5) == Point(x=1, y=5)
    assert [f.name for f in dataclasses.fields(Moved)] == ["rolls", "to"]


def test_the_rules_messages_are_records() -> None:
    assert issubclass(Event, Record) and issubclass(Command, Record)
    assert "__eq__" not in vars(Moved) and "__repr__" not in vars(Moved)


def test_a_class_with_its_own_methods_or_without_the_base_is_refused() -> None:
    with pytest.raises(TypeError, match="derives from Record"):

        @record
        class Loose:
            x: int

    with pytest.raises(TypeError, match="defines __eq__"):

        @record
        class Own(Record):
            x: int

            def __eq__(self, other: object) -> bool:
                return True


@record
class Listed(Record):
    items: list[int] = field(default_factory=list)
    size: int = 1

    def __post_init__(self) -> None:
        if self.size < 0:
            raise ValueError("size")


@dataclass(frozen=True, kw_only=True)
class ListedDc:
    items: list[int] = field(default_factory=list)
    size: int = 1


def test_the_constructor_as_dataclasses_write_it() -> None:
    assert str(inspect.signature(Point)) == str(inspect.signature(PointDc))
    assert str(inspect.signature(Listed)) == str(inspect.signature(ListedDc))
    a, b = Listed(), Listed()
    assert a.items == [] and a.items is not b.items  # a new list each time, as a factory gives
    assert Listed(items=[1]).items == [1] and Listed().size == 1
    with pytest.raises(ValueError, match="size"):
        Listed(size=-1)  # __post_init__ runs
    with pytest.raises(TypeError):
        Point(x=1, z=2)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]


def test_an_undocumented_record_reads_the_doc_dataclasses_would_write() -> None:
    assert Point.__doc__ == (PointDc.__doc__ or "").replace("PointDc", "Point")
    assert Empty.__doc__ == "Empty()" and Point(x=1).__doc__ == Point.__doc__
    assert Event.__doc__ is not None and Event.__doc__.startswith("Something that happened")


def test_the_frozen_guard_refuses_setting_and_deleting() -> None:
    value = Listed()
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.size = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del value.size  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        value.other = 1  # type: ignore[attr-defined]


def test_a_record_is_still_copied_without_its_init() -> None:
    assert copy_with(Point(x=1, note="n"), y=4) == Point(x=1, y=4, note="n")
    assert records._plain_fields(Point) == {"x", "y", "note", "secret"}
    assert records._plain_fields(Listed) == frozenset()  # __post_init__: through replace


def test_a_field_out_of_init_is_refused() -> None:
    with pytest.raises(TypeError, match="out of __init__"):

        @record
        class Hidden(Record):
            x: int = field(default=0, init=False)
