"""The shape of a rules value as protobuf sees it, read from its dataclass type hints.

One reading serves both directions of the typed API: :mod:`mekref.daemon.grpc.proto_schema`
writes a ``.proto`` message for each shape, and :mod:`mekref.daemon.grpc.typed` fills those
messages from the rules' canonical JSON (and reads commands back). Deriving both from the same
hints the codec decodes with is what keeps the wire contract and the stored format in step.

Mapping: ``str``/``Fraction`` ("n/d") and text enums are ``string``, a fraction also as a
``mekref.v1.Fraction`` sibling field (``<name>_fraction``, the text one deprecated), a text
whose values are a closed list (a Python ``Enum`` of strings, or a ``str`` field whose
``metadata["allowed"]`` lists them, :mod:`mekref.rules.allowed`) also as a protobuf enum
sibling (``<name>_enum``, the text one deprecated); ``int`` and number enums ``int64``;
``T | None`` an ``optional`` field; tuples of any length, lists and frozensets ``repeated``;
``Mapping[str, V]`` a ``map<string, V>``; a fixed tuple such as ``tuple[str, int]`` a small
message with fields ``first``, ``second``...; a repeated or map value that is itself
repeated, a map or optional gets a one-field wrapper message (protobuf cannot nest them).
"""

from __future__ import annotations

import dataclasses
import functools
import re
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, Union

from mekref.rules.codec import Parted

#: Field names of a fixed tuple's message, by position.
POSITIONS: tuple[str, ...] = ("first", "second", "third", "fourth", "fifth", "sixth")


class ShapeError(TypeError):
    """A type hint the typed API cannot carry (say which, so the value's type can change)."""


@dataclass(frozen=True)
class EnumSpec:
    """A closed list of text values, as a protobuf enum: ``name`` (a Python enum's class name,
    or the record's and field's for an allowed-values field), ``module`` (to tell two enums
    of one name apart in a file) and the values in the rules' spelling."""

    name: str
    module: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Scalar:
    """A protobuf scalar: ``string``, ``int64`` or ``bool``. ``note`` says what the text holds
    (a fraction, an enum's values) for the .proto comment."""

    proto: str
    note: str = ""
    #: An exact fraction as text ("n/d"): the field gets a ``Fraction`` sibling (below).
    fraction: bool = False
    #: A text of a closed list: the field gets an enum sibling (below); as the sibling's own
    #: shape, the enum its type is.
    enum: EnumSpec | None = None


@dataclass(frozen=True)
class Maybe:
    """``T | None``: a field with presence; absent means None."""

    inner: Shape


@dataclass(frozen=True)
class Repeated:
    inner: Shape


@dataclass(frozen=True)
class MapOf:
    """``Mapping[str, V]``."""

    inner: Shape


@dataclass(frozen=True)
class Fixed:
    """``tuple[A, B, ...]`` of a fixed length: a message of positional fields."""

    items: tuple[Shape, ...]


@dataclass(frozen=True)
class Record:
    """A dataclass: a message of its fields, in declaration order."""

    cls: type


Shape = Scalar | Maybe | Repeated | MapOf | Fixed | Record

STRING = Scalar("string")
INT = Scalar("int64")
BOOL = Scalar("bool")


def shape_of(hint: Any) -> Shape:
    """The shape of a type hint (raises :class:`ShapeError` for one protobuf cannot carry)."""
    if hint is str:
        return STRING
    if hint is bool:
        return BOOL
    if hint is int:
        return INT
    if hint is Fraction:
        return Scalar("string", 'an exact fraction as text, "n/d" or "n"', fraction=True)
    if isinstance(hint, type) and issubclass(hint, Enum):
        values = [m.value for m in hint]
        kinds = {type(v) for v in values}
        note = "one of: " + ", ".join(str(v) for v in values)
        if kinds == {str}:
            spec = EnumSpec(
                pascal(hint.__name__), hint.__module__.rsplit(".", 1)[-1], tuple(values)
            )
            return Scalar("string", note, enum=spec if enum_names(spec) else None)
        if kinds == {int}:
            return Scalar("int64", note)
        raise ShapeError(f"enum {hint.__name__} mixes value types")
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return Record(hint)
    if isinstance(hint, type) and issubclass(hint, Parted):
        return shape_of(hint.mapping_hint())  # a mapping with indexes: a map all the same
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1 and len(args) == 2:
            inner = shape_of(rest[0])
            if isinstance(inner, Maybe | Repeated | MapOf):
                raise ShapeError(f"{hint}: an optional list or map has no protobuf form")
            return Maybe(inner)
        raise ShapeError(f"{hint}: unions other than 'T | None' have no protobuf form")
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return Repeated(shape_of(args[0]))
        if not args or len(args) > len(POSITIONS):
            raise ShapeError(f"{hint}: a fixed tuple of 1 to {len(POSITIONS)} items")
        return Fixed(tuple(shape_of(a) for a in args))
    if origin in (list, frozenset, set):
        return Repeated(shape_of(args[0]))
    if isinstance(origin, type) and issubclass(origin, Mapping):
        if args[0] is not str:
            raise ShapeError(f"{hint}: map keys must be str")
        return MapOf(shape_of(args[1]))
    raise ShapeError(f"{hint!r} has no protobuf form")


#: ``mekref.v1.Fraction`` (common.proto): ``num`` and ``den``, the fraction in lowest terms.
FRACTION = Scalar("Fraction")
#: The suffix of a fraction field's sibling: ``tonnage`` (text) beside ``tonnage_fraction``.
FRACTION_SUFFIX = "_fraction"


def fraction_sibling(shape: Shape) -> Shape | None:
    """The shape of the ``Fraction`` sibling of a field holding fractions as text (a fraction,
    an optional one, a list or a map of them), or None for any other field."""
    match shape:
        case Scalar(fraction=True) | Maybe(Scalar(fraction=True)):
            return FRACTION
        case Repeated(Scalar(fraction=True)):
            return Repeated(FRACTION)
        case MapOf(Scalar(fraction=True)):
            return MapOf(FRACTION)
    return None


#: The suffix of a closed-list text field's enum sibling: ``fate`` beside ``fate_enum``.
ENUM_SUFFIX = "_enum"


def pascal(name: str) -> str:
    """A class name as an enum's: a run of capitals is one word (``SWBuy`` -> ``SwBuy``), so
    every reading of its value prefix is ``SW_BUY_``."""
    return re.sub(r"[A-Z]{2,}(?=[A-Z][a-z]|[0-9]|$)", lambda m: m.group(0).capitalize(), name)


def upper_snake(name: str) -> str:
    """``UnitKind`` -> ``UNIT_KIND`` (buf's spelling of an enum's value prefix)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return spaced.upper()


def enum_names(spec: EnumSpec, enum: str = "") -> dict[str, str] | None:
    """Each value's protobuf name in the enum named ``enum`` (default ``spec.name``):
    ``cruiser_bomber`` -> ``VESSEL_CLASS_CRUISER_BOMBER``; None when two values would share a
    name, or one would have none, or none is left (such a field stays text only). The empty
    text, "not given" where a list allows it, is the enum's zero (``_UNSPECIFIED``), no value."""
    out: dict[str, str] = {}
    for value in spec.values:
        if value == "":
            continue
        name = enum_value_name(enum or spec.name, value)
        if name is None:
            return None
        out[value] = name
    return out if out and len(set(out.values())) == len(out) else None


def enum_value_name(enum: str, value: str) -> str | None:
    """The protobuf name of the rules' text ``value`` in the enum ``enum`` (None: it has none)."""
    word = re.sub(r"[^0-9A-Za-z]+", "_", value).strip("_").upper()
    if not word or word == "UNSPECIFIED":
        return None
    return f"{upper_snake(enum)}_{word}"


def enum_number(enum: Any, value: str) -> Any:
    """The number of the rules' text ``value`` in a generated enum (``Tripwire.UnitKind``); 0,
    not given, for a value outside it (the text beside it still says). Typed ``Any``: the
    generated stubs give each enum a ``ValueType`` of its own."""
    name = enum_value_name(enum.DESCRIPTOR.name, value)
    found = enum.DESCRIPTOR.values_by_name.get(name or "")
    return 0 if found is None else int(found.number)


def enum_sibling(shape: Shape) -> Shape | None:
    """The shape of the enum sibling of a closed-list text field (the value, an optional one,
    a list or a map of them), or None for any other field."""
    match shape:
        case Scalar("string", enum=EnumSpec() as spec):
            return Scalar("enum", enum=spec)
        case Maybe(Scalar("string", enum=EnumSpec() as spec)):
            return Scalar("enum", enum=spec)
        case Repeated(Scalar("string", enum=EnumSpec() as spec)):
            return Repeated(Scalar("enum", enum=spec))
        case MapOf(Scalar("string", enum=EnumSpec() as spec)):
            return MapOf(Scalar("enum", enum=spec))
    return None


def _allowed(cls: type, name: str, shape: Shape, allowed: Any) -> Shape:
    """A ``str`` field (or an optional one, or a list of them) whose metadata lists its values,
    with those values as an enum."""
    values = tuple(str(a) for a in allowed or ())
    spec = EnumSpec(pascal(cls.__name__) + "".join(p.title() for p in name.split("_")),
                    cls.__module__.rsplit(".", 1)[-1], values)  # fmt: skip
    if not values or enum_names(spec) is None:
        return shape
    listed = ", ".join(v for v in values if v)
    note = "one of: " + listed + ("; empty: not given" if "" in values else "")
    text = Scalar("string", note, enum=spec)
    match shape:
        case Scalar("string", "", False, None):
            return text
        case Maybe(Scalar("string", "", False, None)):
            return Maybe(text)
        case Repeated(Scalar("string", "", False, None)):
            return Repeated(text)
    return shape


def needs_wrapper(shape: Shape) -> bool:
    """Whether an item of a repeated field or a map value needs a one-field wrapper message."""
    return isinstance(shape, Maybe | Repeated | MapOf)


@dataclass(frozen=True)
class FieldShape:
    name: str
    shape: Shape
    #: Whether the field may be left out of a command (it has a default): such a scalar gets
    #: presence in protobuf, so "not given" and "given as zero" stay different.
    has_default: bool


@functools.cache
def record_fields(cls: type) -> tuple[FieldShape, ...]:
    """The fields of a dataclass with their shapes, in declaration order."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        try:
            shape = shape_of(hints[f.name])
        except ShapeError as exc:
            raise ShapeError(f"{cls.__qualname__}.{f.name}: {exc}") from None
        if f.metadata.get("allowed"):
            shape = _allowed(cls, f.name, shape, f.metadata["allowed"])
        has_default = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        out.append(FieldShape(f.name, shape, has_default))
    return tuple(out)
