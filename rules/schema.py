"""What a rule set's commands look like, for people and programs: fields, types, examples.

Derived from the command dataclasses themselves (their type hints and defaults), so the schema
``mekref game commands`` prints and the API's ``ListRuleSets`` returns can never drift from
what the codec accepts. Every example decodes: a test runs each one through the codec.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from functools import cache
from typing import Any, Union, get_args, get_origin, get_type_hints

from mekref.rules.codec import JsonValue, to_jsonable
from mekref.rules.messages import Command
from mekref.rules.record_type import Record, record


@record
class FieldSchema(Record):
    name: str
    type: str  # readable: "str", "int", "list of str", "Position", "one of: a, b"
    required: bool
    #: The values an enum or literal field takes, or a str field's ``metadata["allowed"]``.
    allowed: tuple[str, ...] = ()
    default: JsonValue = None
    doc: str = ""  # a field's ``metadata["doc"]``: what it means, when the type cannot say


@record
class CommandSchema(Record):
    type: str
    doc: str
    fields: tuple[FieldSchema, ...]
    #: Nested objects the fields use, by name, with their own fields.
    objects: tuple[tuple[str, tuple[FieldSchema, ...]], ...]
    example: dict[str, JsonValue]


def command_schema(cls: type[Command]) -> CommandSchema:
    objects: dict[str, tuple[FieldSchema, ...]] = {}
    fields = _fields(cls, objects)
    example = {"type": cls.TYPE, **_example_object(cls)}
    return CommandSchema(
        type=cls.TYPE,
        doc=_doc(cls),
        fields=fields,
        objects=tuple(sorted(objects.items())),
        example=example,
    )


def _doc(cls: type) -> str:
    doc = cls.__doc__ or ""
    if doc.startswith(f"{cls.__name__}("):  # the dataclass's generated signature: no doc
        return ""
    return " ".join(doc.split())


@cache
def _hints(cls: type) -> Mapping[str, Any]:
    return get_type_hints(cls)


def _fields(cls: type, objects: dict[str, tuple[FieldSchema, ...]]) -> tuple[FieldSchema, ...]:
    hints = _hints(cls)
    out: list[FieldSchema] = []
    for f in dataclasses.fields(cls):
        if f.name == "rolls":
            continue
        hint = hints[f.name]
        _collect(hint, objects)
        has_default = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        default: JsonValue = None
        if f.default is not dataclasses.MISSING:
            default = to_jsonable(f.default)
        elif f.default_factory is not dataclasses.MISSING:
            default = to_jsonable(f.default_factory())
        out.append(
            FieldSchema(
                name=f.name,
                type=_type_text(hint),
                required=not has_default,
                allowed=_allowed(hint) or tuple(f.metadata.get("allowed", ())),
                default=default,
                doc=str(f.metadata.get("doc", "")),
            )
        )
    return tuple(out)


def _collect(hint: Any, objects: dict[str, tuple[FieldSchema, ...]]) -> None:
    for inner in _leaves(hint):
        known = isinstance(inner, type) and inner.__name__ in objects
        if dataclasses.is_dataclass(inner) and isinstance(inner, type) and not known:
            objects[inner.__name__] = ()  # placeholder: recursion guard
            objects[inner.__name__] = _fields(inner, objects)


def _leaves(hint: Any) -> list[Any]:
    args = get_args(hint)
    if not args:
        return [hint]
    return [leaf for a in args if a is not Ellipsis for leaf in _leaves(a)]


def _allowed(hint: Any) -> tuple[str, ...]:
    for leaf in _leaves(hint):
        if isinstance(leaf, type) and issubclass(leaf, Enum):
            return tuple(str(m.value) for m in leaf)
    if get_origin(hint) is typing.Literal:
        return tuple(str(a) for a in get_args(hint))
    return ()


def _type_text(hint: Any) -> str:
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        options = [a for a in get_args(hint) if a is not type(None)]
        text = " or ".join(_type_text(a) for a in options)
        return f"{text} or null" if type(None) in get_args(hint) else text
    if origin is typing.Literal:
        return "one of: " + ", ".join(map(str, get_args(hint)))
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return f"list of {_type_text(args[0])}"
        return "[" + ", ".join(_type_text(a) for a in args) + "]"
    if origin is frozenset:
        return f"set of {_type_text(get_args(hint)[0])}"
    if origin in (dict, Mapping) or origin is typing.Mapping:
        key, value = get_args(hint)
        return f"object of {_type_text(key)} -> {_type_text(value)}"
    if hint is Fraction:
        return 'fraction ("n/d" or "n")'
    if isinstance(hint, type) and issubclass(hint, Enum):
        return "one of: " + ", ".join(str(m.value) for m in hint)
    if isinstance(hint, type):
        return hint.__name__
    return str(hint)


def _example_object(cls: type) -> dict[str, JsonValue]:
    hints = _hints(cls)
    out: dict[str, JsonValue] = {}
    for f in dataclasses.fields(cls):
        if f.name == "rolls":
            continue
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            continue  # optional: the example shows what must be given
        allowed = f.metadata.get("allowed", ())
        if hints[f.name] is str and allowed:
            out[f.name] = str(allowed[0])  # a value the field takes, not a placeholder
            continue
        if hints[f.name] == tuple[str, ...] and allowed:
            out[f.name] = [str(allowed[0])]
            continue
        out[f.name] = _example(hints[f.name], f.name)
    return out


def _example(hint: Any, name: str) -> JsonValue:
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        options = [a for a in get_args(hint) if a is not type(None)]
        return _example(options[0], name)
    if origin is typing.Literal:
        first: JsonValue = get_args(hint)[0]
        return first
    if origin is tuple:
        args = get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return [_example(args[0], name)]
        return [_example(a, name) for a in args]
    if origin is frozenset:
        return [_example(get_args(hint)[0], name)]
    if origin in (dict, Mapping) or origin is typing.Mapping:
        key_type, value_type = get_args(hint)
        return {str(_example(key_type, name)): _example(value_type, name)}
    if hint is bool:
        return False
    if hint is int:
        return 1
    if hint is Fraction:
        return "1"
    if hint is str:
        return "referee" if name == "actor" else f"<{name}>"
    if isinstance(hint, type) and issubclass(hint, Enum):
        value: JsonValue = to_jsonable(next(iter(hint)))
        return value
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return _example_object(hint)
    return None
