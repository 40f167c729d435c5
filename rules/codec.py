"""Canonical JSON for the rules engine's values: dataclasses in, plain dicts out, and back.

The daemon stores events as JSON text and CI compares state hashes across machines, so the
encoding must be canonical: keys sorted, no insignificant whitespace, no floats (their text form
is not stable across producers), tuples as lists, enums as their values, fractions as "n/d".
Decoding is driven by the dataclass type hints, so a stored event comes back as the exact frozen
value that was appended.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import types
import typing
from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

JsonValue = Any
T = TypeVar("T")


class CodecError(ValueError):
    """A value could not be encoded to, or decoded from, canonical JSON."""


def to_jsonable(value: object) -> JsonValue:
    """Turn a rules value into JSON-ready builtins (dict/list/str/int/bool/None)."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, Enum):
        return to_jsonable(value.value)
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        # Exact rationals as text: "35/2" is stable where 17.5 might become 17.499999.
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, float):
        raise CodecError("floats are not allowed in rules values; use int or Fraction")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            f.name: to_jsonable(getattr(value, f.name))
            for f in dataclasses.fields(value)
            if not _omitted(f, getattr(value, f.name))
        }
    if isinstance(value, Mapping):
        out: dict[str, JsonValue] = {}
        for key, item in value.items():
            if not isinstance(key, str):
                raise CodecError(f"mapping keys must be str, got {type(key).__name__}")
            out[key] = to_jsonable(item)
        return out
    if isinstance(value, tuple | list | frozenset):
        items = [to_jsonable(v) for v in value]
        if isinstance(value, frozenset):
            items.sort(key=canonical_json)
        return items
    raise CodecError(f"cannot encode {type(value).__name__}")


#: Field metadata for a field added to a stored value after values were recorded: while it
#: holds its default it is left out of the JSON, so events and states recorded before the
#: field existed keep their text and their state hash (``field(default=..., metadata=...)``).
OMIT_IF_DEFAULT: Mapping[str, bool] = types.MappingProxyType({"omit_if_default": True})


def _omitted(f: dataclasses.Field[Any], value: object) -> bool:
    if not f.metadata.get("omit_if_default"):
        return False
    if f.default is not dataclasses.MISSING:
        return bool(value == f.default)
    if f.default_factory is not dataclasses.MISSING:
        return bool(value == f.default_factory())
    return False


def canonical_json(value: object) -> str:
    """The one text form of a value: sorted keys, compact separators, UTF-8 kept as is."""
    return json.dumps(to_jsonable(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(value: object) -> str:
    """sha256 of the canonical JSON of ``value``: equal values hash equal on any machine.

    Every rule set's ``state_hash`` is this; replays compare it."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def from_jsonable(hint: Any, data: JsonValue) -> Any:
    """Rebuild a value of type ``hint`` from what :func:`to_jsonable` produced."""
    origin = get_origin(hint)
    if hint is Any:
        return data
    if origin is Union or origin is types.UnionType:
        options = get_args(hint)
        if data is None and type(None) in options:
            return None
        errors: list[str] = []
        for option in options:
            if option is type(None):
                continue
            try:
                return from_jsonable(option, data)
            except (CodecError, TypeError, ValueError) as exc:
                errors.append(str(exc))
        raise CodecError(f"no option of {hint} accepts {data!r}: {errors}")
    if origin is typing.Literal:
        if data not in get_args(hint):
            raise CodecError(f"{data!r} is not one of {get_args(hint)}")
        return data
    if origin is tuple:
        args = get_args(hint)
        if not isinstance(data, list):
            raise CodecError(f"expected a list for {hint}, got {type(data).__name__}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_jsonable(args[0], item) for item in data)
        if len(args) != len(data):
            raise CodecError(f"expected {len(args)} items for {hint}")
        return tuple(from_jsonable(a, item) for a, item in zip(args, data, strict=True))
    if origin is frozenset:
        (arg,) = get_args(hint)
        return frozenset(from_jsonable(arg, item) for item in data)
    if origin in (dict, Mapping) or origin is typing.Mapping:
        key_hint, value_hint = get_args(hint)
        if not isinstance(data, dict):
            raise CodecError(f"expected an object for {hint}")
        return {from_jsonable(key_hint, k): from_jsonable(value_hint, v) for k, v in data.items()}
    if isinstance(hint, type):
        return _from_jsonable_class(hint, data)
    raise CodecError(f"unsupported type hint {hint!r}")


@functools.cache
def _fields_of(cls: type) -> dict[str, Any]:
    """Field name -> resolved type hint. Resolving hints is slow and a class never changes, so
    decoding a long event log would otherwise spend most of its time here."""
    hints = get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _from_jsonable_class(cls: type, data: JsonValue) -> Any:
    if issubclass(cls, Enum):
        return cls(data)
    if cls is bool:
        if not isinstance(data, bool):
            raise CodecError(f"expected bool, got {data!r}")
        return data
    if cls is int:
        if isinstance(data, bool) or not isinstance(data, int):
            raise CodecError(f"expected int, got {data!r}")
        return data
    if cls is str:
        if not isinstance(data, str):
            raise CodecError(f"expected str, got {data!r}")
        return data
    if cls is Fraction:
        # People write positions and sizes as numbers (12, 12.5) as often as text ("25/2");
        # a float is read through its shortest decimal form, so 12.5 is exactly 25/2.
        if isinstance(data, bool) or not isinstance(data, (str, int, float)):
            raise CodecError(f"expected a number such as 12, 12.5 or '25/2', got {data!r}")
        try:
            return Fraction(repr(data) if isinstance(data, float) else data)
        except (ValueError, ZeroDivisionError):
            raise CodecError(
                f"expected a number such as 12, 12.5 or '25/2', got {data!r}"
            ) from None
    if dataclasses.is_dataclass(cls):
        if not isinstance(data, dict):
            raise CodecError(f"expected an object for {cls.__name__}")
        fields = _fields_of(cls)
        kwargs: dict[str, Any] = {}
        unknown = set(data) - fields.keys() - {"type"}
        if unknown:
            raise CodecError(f"unknown fields for {cls.__name__}: {sorted(unknown)}")
        for name, hint in fields.items():
            if name in data:
                kwargs[name] = from_jsonable(hint, data[name])
        try:
            return cls(**kwargs)
        except (TypeError, ValueError) as exc:  # a missing field, or a value the class refuses
            raise CodecError(f"cannot build {cls.__name__}: {exc}") from exc
    raise CodecError(f"unsupported class {cls.__name__}")


def decode(cls: type[T], data: JsonValue) -> T:
    """Typed front door of :func:`from_jsonable` for a dataclass."""
    value = from_jsonable(cls, data)
    if not isinstance(value, cls):
        raise CodecError(f"decoded {type(value).__name__}, expected {cls.__name__}")
    return value
