"""Canonical JSON for the rules engine's values: dataclasses in, plain dicts out, and back.

The daemon stores events as JSON text and CI compares state hashes across machines, so the
encoding must be canonical: keys sorted, no insignificant whitespace, no floats (their text form
is not stable across producers), tuples as lists, enums as their values, fractions as "n/d".
Decoding is driven by the dataclass type hints, so a stored event comes back as the exact frozen
value that was appended.
"""

from __future__ import annotations

import abc
import dataclasses
import functools
import hashlib
import json
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from fractions import Fraction
from typing import Any, Self, TypeVar, Union, get_args, get_origin, get_type_hints

JsonValue = Any
T = TypeVar("T")


class CodecError(ValueError):
    """A value could not be encoded to, or decoded from, canonical JSON."""


class Parted(Mapping[str, Any], abc.ABC):
    """A string-keyed mapping that can give each value's canonical JSON without encoding it
    again, and be rebuilt from those texts without decoding them (``rules.snapshot``).

    Its JSON is that of a plain mapping: the same text and the same hash. A campaign's battles
    are one: a snapshot keeps each battle's text apart, so opening a long campaign decodes
    only the battles a rule reads."""

    __slots__ = ()

    @classmethod
    @abc.abstractmethod
    def from_jsonable(cls, data: dict[str, JsonValue]) -> Self:
        """Decode what :func:`to_jsonable` made of one (a plain JSON object)."""

    @classmethod
    @abc.abstractmethod
    def from_parts(cls, texts: Mapping[str, str | memoryview], index: JsonValue) -> Self | None:
        """Rebuild one from :meth:`part_texts` (each a text or a view of its UTF-8 bytes) and
        :meth:`part_index`; None when ``index`` is not one this code can use (the texts are
        then decoded with :meth:`from_jsonable`)."""

    @abc.abstractmethod
    def part_texts(self) -> Iterator[tuple[str, str]]:
        """(key, canonical JSON of the value) for every item, in any order."""

    @abc.abstractmethod
    def part_index(self) -> JsonValue:
        """What :meth:`from_parts` needs besides the texts (derived data, never hashed)."""

    @classmethod
    @abc.abstractmethod
    def mapping_hint(cls) -> Any:
        """The plain type it is the JSON of (``Mapping[str, V]``), for what reads type hints
        (the API's message shapes)."""


def to_jsonable(value: object) -> JsonValue:
    """Turn a rules value into JSON-ready builtins (dict/list/str/int/bool/None)."""
    encoder = _ENCODERS.get(type(value))
    if encoder is None:
        encoder = _encoder_for(type(value))
    return encoder(value)


# Encoding a campaign's state or a battle's events walks hundreds of thousands of values; the
# branch a value takes depends only on its type, so it is chosen once per type and kept here.
_ENCODERS: dict[type, Callable[[Any], JsonValue]] = {}


def _same(value: Any) -> JsonValue:
    return value


#: Types that are their own JSON form (exactly these types: a subclass, such as a StrEnum or an
#: IntEnum, takes its encoder). Checked inline, they skip a lookup and a call for most values.
_PLAIN: frozenset[type] = frozenset({str, int, bool, type(None)})


def _encode_items(items: Any) -> list[JsonValue]:
    out: list[JsonValue] = []
    for item in items:
        tp = type(item)
        out.append(item if tp in _PLAIN else (_ENCODERS.get(tp) or to_jsonable)(item))
    return out


def _encoder_for(tp: type) -> Callable[[Any], JsonValue]:
    encoder = _choose_encoder(tp)
    _ENCODERS[tp] = encoder
    return encoder


def _choose_encoder(tp: type) -> Callable[[Any], JsonValue]:
    # The order of the checks is the order of the values' meaning: bool and str before Enum
    # (a StrEnum is kept as its text), Enum before int (an IntEnum is encoded by its value).
    if tp is type(None) or issubclass(tp, bool | str):
        return _same
    if issubclass(tp, Enum):
        return lambda value: to_jsonable(value.value)
    if issubclass(tp, int):
        return _same
    if issubclass(tp, Fraction):
        # Exact rationals as text: "35/2" is stable where 17.5 might become 17.499999.
        return lambda value: f"{value.numerator}/{value.denominator}"
    if issubclass(tp, float):

        def refuse_float(value: Any) -> JsonValue:
            raise CodecError("floats are not allowed in rules values; use int or Fraction")

        return refuse_float
    if dataclasses.is_dataclass(tp) and not issubclass(tp, type):
        # Generated once for the class (``codec_build``): one expression per field.
        from mekref.rules.codec_build import encoder_of

        return encoder_of(tp)
    if issubclass(tp, Mapping):

        def encode_mapping(value: Any) -> JsonValue:
            out: dict[str, JsonValue] = {}
            for key, item in value.items():
                if not isinstance(key, str):
                    raise CodecError(f"mapping keys must be str, got {type(key).__name__}")
                tp = type(item)
                out[key] = item if tp in _PLAIN else (_ENCODERS.get(tp) or to_jsonable)(item)
            return out

        return encode_mapping
    if issubclass(tp, frozenset):
        return lambda value: sorted(_encode_items(value), key=_canonical_of_jsonable)
    if issubclass(tp, tuple | list):
        return _encode_items

    def refuse(value: Any) -> JsonValue:
        raise CodecError(f"cannot encode {tp.__name__}")

    return refuse


def _canonical_of_jsonable(item: JsonValue) -> str:
    # A frozenset's members are ordered by their canonical text; encoding them is idempotent
    # on what to_jsonable already produced, so the member need not be encoded twice.
    return json.dumps(item, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: Field metadata for a field added to a stored value after values were recorded: while it
#: holds its default it is left out of the JSON, so events and states recorded before the
#: field existed keep their text and their state hash (``field(default=..., metadata=...)``).
OMIT_IF_DEFAULT: Mapping[str, bool] = types.MappingProxyType({"omit_if_default": True})


def _default_of(f: dataclasses.Field[Any]) -> Callable[[], object]:
    """A field's default, as a call (a factory's value is made afresh for each comparison)."""
    if f.default is not dataclasses.MISSING:
        default = f.default
        return lambda: default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory
    raise TypeError(f"OMIT_IF_DEFAULT on field {f.name!r}, which has no default")


# json.dumps with these settings, made once. Without the check for circular references: a
# rules value is a tree of frozen values (a cycle would already have failed in to_jsonable).
_DUMPS = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, check_circular=False
).encode


def canonical_json(value: object) -> str:
    """The one text form of a value: sorted keys, compact separators, UTF-8 kept as is."""
    return _DUMPS(to_jsonable(value))


def jsonable_text(data: JsonValue) -> str:
    """:func:`canonical_json` of what :func:`to_jsonable` already made, without walking it
    again (it is its own JSON form)."""
    return _DUMPS(data)


def content_hash(value: object) -> str:
    """sha256 of the canonical JSON of ``value``: equal values hash equal on any machine.

    Every rule set's ``state_hash`` is this; replays compare it. The text is hashed piece by
    piece (:func:`canonical_chunks`), so a long campaign's battles (a :class:`Parted`
    mapping) are never held as one JSON tree and one string besides the state itself."""
    digest = hashlib.sha256()
    for chunk in canonical_chunks(value):
        digest.update(chunk.encode("utf-8"))
    return digest.hexdigest()


#: How many levels of objects :func:`canonical_chunks` opens before encoding a whole value.
_CHUNK_DEPTH = 4


def canonical_chunks(value: object, depth: int = _CHUNK_DEPTH) -> Iterator[str]:
    """:func:`canonical_json` of ``value`` in pieces whose concatenation is exactly that text.

    A :class:`Parted` mapping gives its values' texts as they are. The objects (dataclasses
    and string-keyed mappings) that hold one among their dataclass fields, within the first
    ``depth`` levels, are opened and written key by key, in the same sorted order
    ``json.dumps(sort_keys=True)`` uses; every other value is encoded whole, as the snapshot's
    text encodes the state around its parted mappings (``rules.snapshot``). Opening them too
    would give the same text at several times the cost: a value of many small objects (a
    map's hexes) costs a call and a key's encoding per object."""
    if isinstance(value, Parted):
        yield "{"
        for n, (key, text) in enumerate(sorted(value.part_texts(), key=lambda kv: kv[0])):
            yield ("," if n else "") + json.dumps(key, ensure_ascii=False) + ":" + text
        yield "}"
        return
    items = object_items(value) if _holds_parted(value, depth) else None
    if items is None:
        yield canonical_json(value)
        return
    yield "{"
    for n, (key, item) in enumerate(sorted(items, key=lambda kv: kv[0])):
        yield ("," if n else "") + json.dumps(key, ensure_ascii=False) + ":"
        yield from canonical_chunks(item, depth - 1)
    yield "}"


def _holds_parted(value: object, depth: int) -> bool:
    """Whether a :class:`Parted` mapping lies in ``value``'s dataclass fields, within
    ``depth`` levels (where the snapshot's text looks for them)."""
    if depth <= 0 or not dataclasses.is_dataclass(value) or isinstance(value, type):
        return False
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        if isinstance(item, Parted) or _holds_parted(item, depth - 1):
            return True
    return False


def object_items(value: object) -> list[tuple[str, object]] | None:
    """The key-value pairs of a value that encodes as a JSON object, else None."""
    tp = type(value)
    if issubclass(tp, str | int | float | Enum | Fraction):
        return None  # encoded as a scalar even if it also looks like a mapping
    if dataclasses.is_dataclass(tp) and not issubclass(tp, type):
        # The same fields to_jsonable writes: OMIT_IF_DEFAULT ones only when they differ.
        pairs_of: list[tuple[str, object]] = []
        for f in dataclasses.fields(tp):
            item = getattr(value, f.name)
            if f.metadata.get("omit_if_default") and bool(item == _default_of(f)()):
                continue
            pairs_of.append((f.name, item))
        return pairs_of
    if isinstance(value, Mapping):
        pairs = list(value.items())
        if all(isinstance(key, str) for key, _ in pairs):
            return pairs
    return None  # a mapping with other keys: canonical_json raises as it always did


def from_jsonable(hint: Any, data: JsonValue) -> Any:
    """Rebuild a value of type ``hint`` from what :func:`to_jsonable` produced."""
    return _decoder(hint)(data)


Decoder = Callable[[JsonValue], Any]
# A decoder per type hint, built once: walking ``get_origin``/``get_args`` for every value of
# a long event log would otherwise cost more than building the values.
_DECODERS: dict[Any, Decoder] = {}


def _decoder(hint: Any) -> Decoder:
    try:
        found = _DECODERS.get(hint)
    except TypeError:  # an unhashable hint (never in this code base): build it every time
        return _build_decoder(hint)
    if found is None:
        found = _build_decoder(hint)
        _DECODERS[hint] = found
    return found


def _build_decoder(hint: Any) -> Decoder:
    origin = get_origin(hint)
    if hint is Any:
        return _same
    if origin is Union or origin is types.UnionType:
        return _union_decoder(hint)
    if origin is typing.Literal:
        allowed = get_args(hint)

        def literal(data: JsonValue) -> Any:
            if data not in allowed:
                raise CodecError(f"{data!r} is not one of {allowed}")
            return data

        return literal
    if origin is tuple:
        return _tuple_decoder(hint)
    if origin is frozenset:
        (arg,) = get_args(hint)

        def a_frozenset(data: JsonValue) -> Any:
            item = _decoder(arg)
            return frozenset(item(x) for x in data)

        return a_frozenset
    if origin in (dict, Mapping) or origin is typing.Mapping:
        key_hint, value_hint = get_args(hint)

        def a_dict(data: JsonValue) -> Any:
            if not isinstance(data, dict):
                raise CodecError(f"expected an object for {hint}")
            key, value = _decoder(key_hint), _decoder(value_hint)
            return {key(k): value(v) for k, v in data.items()}

        return a_dict
    if isinstance(hint, type):
        return _class_decoder(hint)

    def unsupported(data: JsonValue) -> Any:
        raise CodecError(f"unsupported type hint {hint!r}")

    return unsupported


def _union_decoder(hint: Any) -> Decoder:
    options = get_args(hint)
    optional = type(None) in options
    others = tuple(o for o in options if o is not type(None))

    def a_union(data: JsonValue) -> Any:
        if data is None and optional:
            return None
        errors: list[str] = []
        for option in others:
            try:
                return _decoder(option)(data)
            except (CodecError, TypeError, ValueError) as exc:
                errors.append(str(exc))
        raise CodecError(f"no option of {hint} accepts {data!r}: {errors}")

    return a_union


def _tuple_decoder(hint: Any) -> Decoder:
    args = get_args(hint)
    if len(args) == 2 and args[1] is Ellipsis:
        (arg, _) = args

        def a_sequence(data: JsonValue) -> Any:
            if not isinstance(data, list):
                raise CodecError(f"expected a list for {hint}, got {type(data).__name__}")
            item = _decoder(arg)
            return tuple(item(x) for x in data)

        return a_sequence

    def a_tuple(data: JsonValue) -> Any:
        if not isinstance(data, list):
            raise CodecError(f"expected a list for {hint}, got {type(data).__name__}")
        if len(args) != len(data):
            raise CodecError(f"expected {len(args)} items for {hint}")
        return tuple(_decoder(a)(x) for a, x in zip(args, data, strict=True))

    return a_tuple


@functools.cache
def _fields_of(cls: type) -> dict[str, Any]:
    """Field name -> resolved type hint. Resolving hints is slow and a class never changes, so
    decoding a long event log would otherwise spend most of its time here."""
    hints = get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _class_decoder(cls: type) -> Decoder:
    if issubclass(cls, Enum):
        return cls
    if issubclass(cls, Parted):
        parted = cls

        def a_parted(data: JsonValue) -> Any:
            if not isinstance(data, dict):
                raise CodecError(f"expected an object for {parted.__name__}")
            return parted.from_jsonable(data)

        return a_parted
    if cls is bool:

        def a_bool(data: JsonValue) -> Any:
            if not isinstance(data, bool):
                raise CodecError(f"expected bool, got {data!r}")
            return data

        return a_bool
    if cls is int:

        def an_int(data: JsonValue) -> Any:
            if isinstance(data, bool) or not isinstance(data, int):
                raise CodecError(f"expected int, got {data!r}")
            return data

        return an_int
    if cls is str:

        def a_str(data: JsonValue) -> Any:
            if not isinstance(data, str):
                raise CodecError(f"expected str, got {data!r}")
            return data

        return a_str
    if cls is Fraction:
        return _fraction
    if dataclasses.is_dataclass(cls):
        return _dataclass_decoder(cls)

    def unsupported(data: JsonValue) -> Any:
        raise CodecError(f"unsupported class {cls.__name__}")

    return unsupported


def _fraction(data: JsonValue) -> Fraction:
    # People write positions and sizes as numbers (12, 12.5) as often as text ("25/2");
    # a float is read through its shortest decimal form, so 12.5 is exactly 25/2.
    if isinstance(data, bool) or not isinstance(data, (str, int, float)):
        raise CodecError(f"expected a number such as 12, 12.5 or '25/2', got {data!r}")
    try:
        return Fraction(repr(data) if isinstance(data, float) else data)
    except (ValueError, ZeroDivisionError):
        raise CodecError(f"expected a number such as 12, 12.5 or '25/2', got {data!r}") from None


def _dataclass_decoder(cls: type) -> Decoder:
    # Generated (``codec_build``) on first use, not here: a class may refer to itself (or to
    # one that refers back), and its hints may name classes defined after it.
    def first_use(data: JsonValue) -> Any:
        from mekref.rules.codec_build import decoder_of

        built = decoder_of(cls)
        _DECODERS[cls] = built
        return built(data)

    return first_use


def decode(cls: type[T], data: JsonValue) -> T:
    """Typed front door of :func:`from_jsonable` for a dataclass."""
    value = from_jsonable(cls, data)
    if not isinstance(value, cls):
        raise CodecError(f"decoded {type(value).__name__}, expected {cls.__name__}")
    return value
