"""``@record``: a frozen, keyword-only dataclass whose ``==``, ``hash`` and ``repr`` are shared.

The rules' values (commands, events, state) are frozen dataclasses. ``dataclasses.dataclass``
writes six methods as source text for each class and compiles them when the class is made
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``): for
the several hundred classes of a rule set that was most of the time a command spends loading
it (``python -X importtime``; ``python -m bench.status --compare-with`` measures the gain). Three
of them do the same thing for every class, over its fields; a record takes those three from
:class:`Record` instead, worked out once per class when first used.

They answer as the generated ones do: ``==`` is ``NotImplemented`` for another class and
compares the ``compare`` fields' tuples; ``hash`` is the hash of that same tuple (so a value
hashes as before and a set of records iterates in the same order); ``repr`` is
``QualName(field=value, ...)`` over the ``repr`` fields, ``...`` for a value that holds
itself. Type checkers see a dataclass (``dataclass_transform``): ``fields``, ``replace`` and
``asdict`` work as on any.

The constructor and the frozen guard are not dataclasses' either: under Python 3.11 each of the
three is its own piece of source text compiled when the class is made, so a command that loaded
a rule set paid for two compiles a class to get the same guard. A record's guard is
:class:`Record`'s (``FrozenInstanceError`` for any attribute set or deleted), its ``__init__``
is compiled from one text (keyword-only parameters, each stored with ``object.__setattr__`` as
a frozen dataclass's are, then ``__post_init__`` if the class has one), and the text
dataclasses would put in an undocumented class's ``__doc__`` is worked out when it is first
read. Dataclasses still collects the fields, so to it a record is a dataclass that is not
frozen (``__dataclass_params__.frozen`` is false); a plain ``@dataclass(frozen=True)`` cannot
derive from one."""

from __future__ import annotations

import dataclasses
import inspect
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

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


class _Factory:
    """The default a parameter shows for a field with a ``default_factory``."""

    def __repr__(self) -> str:
        return "<factory>"


_FACTORY = _Factory()


def _init(cls: type) -> Callable[..., None]:
    """``cls``'s ``__init__`` as a frozen keyword-only dataclass's, from one compiled text."""
    every: dict[str, dataclasses.Field[Any]] = cls.__dataclass_fields__  # type: ignore[attr-defined]
    fields = dataclasses.fields(cls)  # the fields proper, not the ClassVars nor InitVars
    if not all(f.init for f in fields) or any(
        repr(getattr(f, "_field_type", None)) == "_FIELD_INITVAR" for f in every.values()
    ):
        raise TypeError(
            f"{cls.__qualname__}: a field out of __init__ or an InitVar: use @dataclass"
        )
    me = "__record_self__" if "self" in every else "self"
    scope: dict[str, Any] = {"_set": object.__setattr__, "_FACTORY": _FACTORY}
    defaults: dict[str, Any] = {}
    lines = []
    for f in fields:
        value = f.name
        if f.default_factory is not dataclasses.MISSING:
            scope[f"_make_{f.name}"] = f.default_factory
            defaults[f.name] = _FACTORY
            value = f"_make_{f.name}() if {f.name} is _FACTORY else {f.name}"
        elif f.default is not dataclasses.MISSING:
            defaults[f.name] = f.default
        lines.append(f"    _set({me}, {f.name!r}, {value})")
    if hasattr(cls, "__post_init__"):
        lines.append(f"    {me}.__post_init__()")
    names = "".join(f", {f.name}" for f in fields)
    text = f"def __init__({me}{', *' if fields else ''}{names}):\n"
    text += "\n".join(lines or ["    pass"])
    exec(compile(text, "<string>", "exec"), scope)
    init: Callable[..., None] = scope["__init__"]
    init.__kwdefaults__ = defaults or None
    init.__annotations__ = {**{f.name: f.type for f in fields}, "return": None}
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


class _SignatureDoc:
    """An undocumented record's ``__doc__``, the text dataclasses would write (the class name
    and its constructor's signature), worked out when first read."""

    def __get__(self, instance: object, owner: type) -> str:
        try:
            text = str(inspect.signature(owner)).replace(" -> None", "")
        except (TypeError, ValueError):
            text = ""
        return owner.__name__ + text


@dataclass_transform(frozen_default=True, kw_only_default=True)
def record(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True, kw_only=True)`` with ``==``, ``hash`` and ``repr`` from
    :class:`Record` (the class must derive from it, directly or through a base)."""
    if not issubclass(cls, Record):
        raise TypeError(f"{cls.__qualname__}: a @record class derives from Record")
    for name in ("__eq__", "__hash__", "__repr__"):
        if name in vars(cls):
            raise TypeError(f"{cls.__qualname__} defines {name}: use @dataclass")
    documented = bool(vars(cls).get("__doc__"))
    if not documented:
        cls.__doc__ = "(a record)"  # keeps dataclasses from working out a signature now
    made = dataclasses.dataclass(init=False, kw_only=True, eq=False, repr=False)(cls)
    setattr(made, "__init__", _init(made))  # noqa: B010 - mypy refuses assigning a method
    if not documented:
        made.__doc__ = _SignatureDoc()  # type: ignore[assignment]
    return made
