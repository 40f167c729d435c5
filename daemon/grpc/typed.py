"""Rules values into the typed gRPC messages, and typed commands back into rules values.

The rules engine speaks canonical JSON (:mod:`mekref.rules.codec`); each rule set's ``.proto``
(:mod:`mekref.daemon.grpc.proto_schema`) has one message per dataclass. These functions walk the
JSON and the dataclass's shape together, so a value whose JSON does not fit its declared type (a
side's cut that reshaped a field, say) is an error here rather than a message quietly missing
data. Commands come back as the same JSON the JSON door takes, so both doors run one decoder.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, TypeVar

from google.protobuf.message import Message

from mekref.daemon.grpc.proto_schema import side_view_type, snake, wrapper_name
from mekref.daemon.grpc.shapes import (
    ENUM_SUFFIX,
    FRACTION_SUFFIX,
    POSITIONS,
    Fixed,
    MapOf,
    Maybe,
    Record,
    Repeated,
    Scalar,
    Shape,
    enum_names,
    enum_sibling,
    fraction_sibling,
    record_fields,
)
from mekref.rules.codec import to_jsonable
from mekref.rules.kernel import RuleSet
from mekref.rules.registry import ruleset
from mekref.v1 import rulesets_pb2


class TypedError(ValueError):
    """A value does not fit its typed message (names the field)."""


def module_of(game: RuleSet[Any]) -> Any:
    """The message holding a rule set's messages (``mekref.v1.tripwire_pb2.Tripwire``)."""
    module = importlib.import_module(f"mekref.v1.{game.name}_pb2")
    return getattr(module, wrapper_name(game))


# -- JSON into messages -----------------------------------------------------------------------


M = TypeVar("M", bound=Message)


def fill(message: M, cls: type, data: Mapping[str, Any]) -> M:
    """Set ``message`` (the message of dataclass ``cls``) from ``cls``'s canonical JSON. Keys
    the JSON leaves out (a side's cut, fields at their omitted default) stay unset."""
    if not isinstance(data, Mapping):
        raise TypedError(f"{cls.__name__}: expected an object, got {type(data).__name__}")
    shapes = {f.name: f.shape for f in record_fields(cls)}
    for key, value in data.items():
        shape = shapes.get(key)
        if shape is None:
            raise TypedError(f"{cls.__name__} has no field {key!r}")
        try:
            _set(message, key, shape, value)
        except TypedError as exc:
            raise TypedError(f"{cls.__name__}.{key}: {exc}") from None
    return message


def _scalar(shape: Scalar, value: Any) -> Any:
    ok = {
        "string": isinstance(value, str),
        "int64": isinstance(value, int) and not isinstance(value, bool),
        "bool": isinstance(value, bool),
    }[shape.proto]
    if not ok:
        raise TypedError(f"expected {shape.proto}, got {type(value).__name__}")
    return value


def _fraction(text: Any, into: Message) -> Message:
    """Set a ``mekref.v1.Fraction`` from a fraction's text ("n/d" or "n")."""
    try:
        value = Fraction(text)
    except (TypeError, ValueError, ZeroDivisionError):
        raise TypedError(f"expected an exact fraction as text, got {text!r}") from None
    into.num, into.den = value.numerator, value.denominator  # type: ignore[attr-defined]
    return into


def _set_fraction_sibling(message: Message, name: str, shape: Shape, value: Any) -> None:
    """Fill ``<name>_fraction`` beside a fraction field's text (``value`` already checked)."""
    sibling = fraction_sibling(shape)
    if sibling is None or value is None:
        return
    container = getattr(message, name + FRACTION_SUFFIX)
    match sibling:
        case Repeated():
            for v in value:
                _fraction(v, container.add())
        case MapOf():
            for key, v in value.items():
                _fraction(v, container[key])
        case _:
            _fraction(value, container)


def _enum_numbers(message: Message, field: str, spec: Any) -> dict[str, int]:
    """Each value's number in the enum of ``message``'s field ``field`` (by the value's name,
    so the numbers the generator kept in the .proto are the only ones)."""
    fd = message.DESCRIPTOR.fields_by_name[field]
    if fd.message_type is not None:  # a map: the enum is its entries' value
        fd = fd.message_type.fields_by_name["value"]
    enum = fd.enum_type
    if enum is None:
        raise TypedError(f"{field} is no enum field: run make proto-schema")
    names = enum_names(spec, enum.name) or {}
    return {value: enum.values_by_name[n].number for value, n in names.items()}


def _set_enum_sibling(message: Message, name: str, shape: Shape, value: Any) -> None:
    """Fill ``<name>_enum`` beside a closed-list text (``value`` already checked as text). A
    text outside the list (a side's cut, an old event) leaves the enum unset: the text says."""
    sibling = enum_sibling(shape)
    if sibling is None or value is None:
        return
    other = name + ENUM_SUFFIX
    spec = sibling.inner.enum if isinstance(sibling, Repeated | MapOf) else sibling.enum  # type: ignore[union-attr]
    numbers = _enum_numbers(message, other, spec)
    container = getattr(message, other)
    match sibling:
        case Repeated():
            if all(v in numbers for v in value):
                container.extend(numbers[v] for v in value)
        case MapOf():
            for key, v in value.items():
                if v in numbers:
                    container[key] = numbers[v]
        case _:
            if value in numbers:
                setattr(message, other, numbers[value])


def _set(message: Message, name: str, shape: Shape, value: Any) -> None:
    _set_value(message, name, shape, value)
    _set_fraction_sibling(message, name, shape, value)
    _set_enum_sibling(message, name, shape, value)


def _set_value(message: Message, name: str, shape: Shape, value: Any) -> None:
    if value is None:
        if isinstance(shape, Maybe):
            return
        raise TypedError("null where a value is required")
    match shape:
        case Maybe(inner):
            _set_value(message, name, inner, value)
        case Scalar():
            setattr(message, name, _scalar(shape, value))
        case Record() | Fixed():
            sub = getattr(message, name)
            sub.SetInParent()
            _fill_item(sub, shape, value)
        case Repeated(inner):
            if not isinstance(value, list):
                raise TypedError(f"expected a list, got {type(value).__name__}")
            container = getattr(message, name)
            if isinstance(inner, Scalar):
                container.extend(_scalar(inner, v) for v in value)
            else:
                for v in value:
                    _fill_item(container.add(), inner, v)
        case MapOf(inner):
            if not isinstance(value, Mapping):
                raise TypedError(f"expected an object, got {type(value).__name__}")
            container = getattr(message, name)
            for key, v in value.items():
                if isinstance(inner, Scalar):
                    container[key] = _scalar(inner, v)
                else:
                    _fill_item(container[key], inner, v)


def _fill_item(message: Message, shape: Shape, value: Any) -> None:
    """Fill a message that stands for ``shape``: a record, a fixed tuple or a wrapper."""
    match shape:
        case Record(cls):
            fill(message, cls, value)
        case Fixed(items):
            if not isinstance(value, list) or len(value) != len(items):
                raise TypedError(f"expected a list of {len(items)}")
            for position, item, v in zip(POSITIONS, items, value, strict=False):
                _set(message, position, item, v)
        case _:
            _set(message, "items", shape, value)


# -- messages into JSON (commands) ------------------------------------------------------------


def read(message: Message, cls: type) -> dict[str, Any]:
    """The JSON of dataclass ``cls`` from its message. A field the message leaves unset is left
    out when it has a default (the default applies) and given as protobuf's zero otherwise, so
    the decoder's own checks (a required field, an allowed value) decide exactly as for JSON."""
    out: dict[str, Any] = {}
    for f in record_fields(cls):
        shape = f.shape
        exact = _from_sibling(message, f.name, shape)
        if exact is not None:
            out[f.name] = exact
        elif isinstance(shape, Repeated | MapOf):
            value = _get(message, f.name, shape)
            if value or not f.has_default:
                out[f.name] = value
        elif isinstance(shape, Maybe | Record | Fixed) or f.has_default:
            if message.HasField(f.name):
                out[f.name] = _get(message, f.name, shape)
            elif isinstance(shape, Maybe) and not f.has_default:
                out[f.name] = None
        else:
            out[f.name] = _get(message, f.name, shape)
    return out


def _text(fraction: Any) -> str:
    if fraction.den < 1:
        raise TypedError(f"a fraction's den must be 1 or more, not {fraction.den}")
    return str(to_jsonable(Fraction(fraction.num, fraction.den)))  # the codec's "n/d"


def _from_fraction_sibling(message: Message, name: str, shape: Shape) -> Any:
    """A fraction field's value from its ``<name>_fraction`` sibling as text, or None when
    the sibling is not given. Given both ways, the two must be the same fraction."""
    sibling = fraction_sibling(shape)
    if sibling is None:
        return None
    other = name + FRACTION_SUFFIX
    container = getattr(message, other)
    match sibling:
        case Repeated():
            value: Any = [_text(v) for v in container] or None
        case MapOf():
            value = {k: _text(v) for k, v in container.items()} or None
        case _:
            value = _text(container) if message.HasField(other) else None
    text = _get(message, name, shape)
    if value is not None and text and _exact(text) != _exact(value):
        raise TypedError(f"{name} and {other} give two different values")
    return value


def _from_sibling(message: Message, name: str, shape: Shape) -> Any:
    """A field's value from its typed sibling (fraction or enum), or None when not given."""
    exact = _from_fraction_sibling(message, name, shape)
    return exact if exact is not None else _from_enum_sibling(message, name, shape)


def _from_enum_sibling(message: Message, name: str, shape: Shape) -> Any:
    """A closed-list field's value from its ``<name>_enum`` sibling as the rules' text, or None
    when the sibling is not given (0, unspecified). Given both ways, the two must agree (the
    text compared without case, as the rules read it)."""
    sibling = enum_sibling(shape)
    if sibling is None:
        return None
    other = name + ENUM_SUFFIX
    spec = sibling.inner.enum if isinstance(sibling, Repeated | MapOf) else sibling.enum  # type: ignore[union-attr]
    by_number = {n: v for v, n in _enum_numbers(message, other, spec).items()}

    def text(number: int) -> str:
        if number not in by_number:
            raise TypedError(f"{other}: {number} is none of its values")
        return by_number[number]

    container = getattr(message, other)
    match sibling:
        case Repeated():
            value: Any = [text(v) for v in container] or None
        case MapOf():
            value = {k: text(v) for k, v in container.items()} or None
        case _:
            value = text(container) if container else None
    given = _get(message, name, shape)
    if value is not None and given and _folded(given) != _folded(value):
        raise TypedError(f"{name} and {other} give two different values")
    return value


def _folded(value: Any) -> Any:
    if isinstance(value, list):
        return [v.casefold() for v in value]
    if isinstance(value, dict):
        return {k: v.casefold() for k, v in value.items()}
    return value.casefold()


def _exact(value: Any) -> Any:
    if isinstance(value, list):
        return [Fraction(v) for v in value]
    if isinstance(value, dict):
        return {k: Fraction(v) for k, v in value.items()}
    return Fraction(value)


def _get(message: Message, name: str, shape: Shape) -> Any:
    match shape:
        case Maybe(inner):
            return _get(message, name, inner) if message.HasField(name) else None
        case Scalar():
            return getattr(message, name)
        case Record() | Fixed():
            return _read_item(getattr(message, name), shape)
        case Repeated(inner):
            container = getattr(message, name)
            if isinstance(inner, Scalar):
                return list(container)
            return [_read_item(item, inner) for item in container]
        case MapOf(inner):
            container = getattr(message, name)
            if isinstance(inner, Scalar):
                return dict(container)
            return {k: _read_item(v, inner) for k, v in container.items()}
    raise AssertionError(shape)


def _read_item(message: Message, shape: Shape) -> Any:
    match shape:
        case Record(cls):
            return read(message, cls)
        case Fixed(items):
            return [_value(message, p, s) for p, s in zip(POSITIONS, items, strict=False)]
        case _:
            return _value(message, "items", shape)


def _value(message: Message, name: str, shape: Shape) -> Any:
    exact = _from_sibling(message, name, shape)
    return _get(message, name, shape) if exact is None else exact


# -- the envelopes ----------------------------------------------------------------------------


def event_message(game: RuleSet[Any], data: Mapping[str, Any], type_name: str = "") -> Message:
    """A rules event's JSON (perhaps cut for a side) as the rule set's ``Event`` message; its
    type is ``type_name`` or the JSON's ``"type"``."""
    cls = game.events.class_of(type_name or str(data.get("type")))
    envelope: Message = module_of(game).Event()
    # The envelope's member says the type; the JSON's "type" is that, not a field.
    body = {k: v for k, v in data.items() if k != "type"}
    fill(getattr(envelope, snake(cls.TYPE)), cls, body).SetInParent()
    return envelope


def command_json(game: RuleSet[Any], envelope: Message) -> dict[str, Any]:
    """A rule set's ``Command`` message as the command's JSON, with its ``type``."""
    member = envelope.WhichOneof("command")
    if member is None:
        raise TypedError(f"the {game.name} command names no command")
    by_member = {snake(c.TYPE): c for c in game.commands.classes()}
    cls = by_member[member]
    return {"type": cls.TYPE, **read(getattr(envelope, member), cls)}


def view_message(game: RuleSet[Any], data: Any, side: str | None) -> Message:
    """A view's JSON as the rule set's ``View``: the whole state for the referee (``side`` None),
    else the side's view."""
    envelope: Message = module_of(game).View()
    member, cls = ("whole", game.state_type) if side is None else ("side", side_view_type(game))
    fill(getattr(envelope, member), cls, data).SetInParent()
    return envelope


def ruleset_event(
    game: RuleSet[Any], data: Mapping[str, Any], type_name: str = ""
) -> rulesets_pb2.RuleSetEvent:
    """:func:`event_message` inside ``mekref.v1.RuleSetEvent``."""
    envelope = rulesets_pb2.RuleSetEvent()
    getattr(envelope, game.name).CopyFrom(event_message(game, data, type_name))
    return envelope


def ruleset_view(game: RuleSet[Any], data: Any, side: str | None) -> rulesets_pb2.RuleSetView:
    """:func:`view_message` inside ``mekref.v1.RuleSetView``."""
    envelope = rulesets_pb2.RuleSetView()
    getattr(envelope, game.name).CopyFrom(view_message(game, data, side))
    return envelope


def ruleset_command_json(game: RuleSet[Any], envelope: Message) -> dict[str, Any]:
    """A ``mekref.v1.RuleSetCommand`` as the command's JSON; refuses another rule set's."""
    member = envelope.WhichOneof("rule_set")
    if member != game.name:
        raise TypedError(
            f"a {member} command for a {game.name} campaign" if member else "no command given"
        )
    return command_json(game, getattr(envelope, member))


# -- typed views back into JSON (in-process readers: the web pages) ---------------------------


def view_json(envelope: rulesets_pb2.RuleSetView) -> Any:
    """A ``mekref.v1.RuleSetView`` as the view's JSON: every field of the view's dataclass, a
    field the message leaves unset as protobuf's zero (see :func:`read`)."""
    name = envelope.WhichOneof("rule_set")
    if name is None:
        raise TypedError("the view names no rule set")
    game = ruleset(name)
    view = getattr(envelope, name)
    member = view.WhichOneof("view")
    cls = game.state_type if member == "whole" else side_view_type(game)
    return read(getattr(view, member), cls)


def set_fields(message: Message) -> dict[str, Any]:
    """The fields a message sets, as plain values (whole numbers as numbers): what a sender put
    in, nothing the reader's defaults add. For summaries of a cut event, whose left-out
    secrets must not come back as zeros."""
    out: dict[str, Any] = {}
    for fd, value in message.ListFields():
        if any(fd.name.endswith(x) and fd.name.removesuffix(x) in out
               for x in (FRACTION_SUFFIX, ENUM_SUFFIX)):  # fmt: skip
            continue  # the text beside it says the same
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            out[fd.name] = {k: _plain(v) for k, v in value.items()}
        elif fd.is_repeated:
            out[fd.name] = [_plain(v) for v in value]
        else:
            out[fd.name] = _plain(value)
    return out


def _plain(value: Any) -> Any:
    return set_fields(value) if isinstance(value, Message) else value


def event_fields(envelope: rulesets_pb2.RuleSetEvent) -> dict[str, Any]:
    """The fields a ``mekref.v1.RuleSetEvent``'s event sets (:func:`set_fields`)."""
    name = envelope.WhichOneof("rule_set")
    if name is None:
        return {}
    event = getattr(envelope, name)
    member = event.WhichOneof("event")
    return set_fields(getattr(event, member)) if member else {}
