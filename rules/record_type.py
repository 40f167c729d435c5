"""``@record``: a frozen, keyword-only dataclass whose ``==``, ``hash`` and ``repr`` are shared.

The rules' values (commands, events, state) are frozen dataclasses. ``dataclasses.dataclass``
writes six methods as source text for each class and compiles them when the class is made
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``): for
the several hundred classes of a rule set that was most of the time a command spends loading
it (``python -X importtime``; ``python -m bench.status --compare-with`` measures the gain). Three
of them do the same thing for every class, over its fields; a record takes those three from
:class:`Record` instead, worked out once per class when first used, and dataclasses still
writes the constructor and the frozen guard.

They answer as the generated ones do: ``==`` is ``NotImplemented`` for another class and
compares the ``compare`` fields' tuples; ``hash`` is the hash of that same tuple (so a value
hashes as before and a set of records iterates in the same order); ``repr`` is
``QualName(field=value, ...)`` over the ``repr`` fields, ``...`` for a value that holds
itself. Type checkers see a dataclass (``dataclass_transform``): ``fields``, ``replace`` and
``asdict`` work as on any."""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the tuple of those attributes (``attrgetter`` gives a bare value for
    one name)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda value: (one(value),)
    if not names:
        return lambda value: ()
    return attrgetter(*names)


class _Shape:
    """What a record class compares and shows, worked out on first use."""

    __slots__ = ("compared", "shown")

    def __init__(self, cls: type) -> None:
        fields = dataclasses.fields(cls)
        self.compared = _getter(tuple(f.name for f in fields if f.compare))
        self.shown = tuple(f.name for f in fields if f.repr)


_SHAPES: dict[type, _Shape] = {}


def _shape(cls: type) -> _Shape:
    found = _SHAPES.get(cls)
    if found is None:
        found = _SHAPES[cls] = _Shape(cls)
    return found


class Record:
    """The shared ``==``, ``hash`` and ``repr`` of :func:`record` classes."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = _shape(self.__class__).compared
        return compared(self) == compared(other)

    def __hash__(self) -> int:
        return hash(_shape(self.__class__).compared(self))

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        shown = _shape(self.__class__).shown
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inner})"


@dataclass_transform(frozen_default=True, kw_only_default=True)
def record(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True, kw_only=True)`` with ``==``, ``hash`` and ``repr`` from
    :class:`Record` (the class must derive from it, directly or through a base)."""
    if not issubclass(cls, Record):
        raise TypeError(f"{cls.__qualname__}: a @record class derives from Record")
    for name in ("__eq__", "__hash__", "__repr__"):
        if name in vars(cls):
            raise TypeError(f"{cls.__qualname__} defines {name}: use @dataclass")
    return dataclasses.dataclass(frozen=True, kw_only=True, eq=False, repr=False)(cls)
