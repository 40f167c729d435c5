"""Commands and events as frozen dataclasses that serialise to canonical JSON dicts.

Every message class carries its stable type name (``TYPE``, set by :func:`command_type` or
:func:`event_type`) and serialises to ``{"type": <name>, ...fields}``. Decoding needs to know
which classes a name may stand for: that is a :class:`Codec`, which each rule set builds from
its own decider and evolver tables (:mod:`mekref.rules.kernel`), so nothing is registered by
importing a module. Type names are part of the stored format: never rename one; add a new
type instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Generic, TypeVar

from mekref.rules import codec_texts
from mekref.rules.codec import CodecError, decode, jsonable_text, to_jsonable
from mekref.rules.dice import Roll
from mekref.rules.record_type import Record, record


@record
class Event(Record):
    """Something that happened. ``rolls`` holds every die the decision used, in order."""

    TYPE: ClassVar[str] = ""
    rolls: tuple[Roll, ...] = ()


@record
class Command(Record):
    """Something someone asked for. ``actor`` says who (a side's token holder or the referee)."""

    TYPE: ClassVar[str] = ""
    actor: str


@record
class RefereeNote(Record):
    """Who overrode or accepted something, and why: overrides are never anonymous."""

    referee: str
    reason: str

    def __post_init__(self) -> None:
        if not self.referee.strip() or not self.reason.strip():
            raise ValueError("a referee decision names the referee and gives a reason")


M = TypeVar("M", Event, Command)
C = TypeVar("C", bound=type[Command])
E = TypeVar("E", bound=type[Event])
T = TypeVar("T", bound=type[Event] | type[Command])


def _type_name_giver(kind: str, name: str) -> Callable[[T], T]:
    if not name or not name.isidentifier():
        raise ValueError(f"{kind} type name {name!r} must be an identifier")

    def wrap(cls: T) -> T:
        cls.TYPE = name
        return cls

    return wrap


def command_type(name: str) -> Callable[[C], C]:
    """Give a command class its stored type name (a class attribute, nothing registered)."""
    return _type_name_giver("command", name)


def event_type(name: str) -> Callable[[E], E]:
    """Give an event class its stored type name (a class attribute, nothing registered)."""
    return _type_name_giver("event", name)


def _type_name(message: Event | Command) -> str:
    name = type(message).TYPE
    if not name:
        raise CodecError(f"{type(message).__name__} has no type name")
    return name


def message_to_json(message: Event | Command) -> dict[str, Any]:
    """``{"type": TYPE, ...fields}`` for any named message."""
    name = _type_name(message)
    body = to_jsonable(message)
    assert isinstance(body, dict)
    return {"type": name, **body}


class Codec(Generic[M]):
    """Type name -> class for one kind of message of one rule set."""

    def __init__(self, kind: str, classes: Iterable[type[M]]) -> None:
        self.kind = kind
        self._by_name: dict[str, type[M]] = {}
        for cls in classes:
            name = cls.TYPE
            if not name:
                raise ValueError(f"{cls.__name__} has no {kind} type name")
            if self._by_name.get(name, cls) is not cls:
                raise ValueError(f"{kind} type {name!r} names two classes")
            self._by_name[name] = cls

    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self._by_name))

    def classes(self) -> tuple[type[M], ...]:
        return tuple(self._by_name[n] for n in self.names())

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def class_of(self, name: str) -> type[M]:
        try:
            return self._by_name[name]
        except KeyError:
            raise CodecError(f"unknown {self.kind} type {name!r}") from None

    def to_json(self, message: M) -> dict[str, Any]:
        if self._by_name.get(type(message).TYPE) is not type(message):
            raise CodecError(f"{type(message).__name__} is not a {self.kind} of this rule set")
        return message_to_json(message)

    def from_json(self, data: dict[str, Any]) -> M:
        name = data.get("type")
        if not isinstance(name, str):
            raise CodecError(f"a {self.kind} is a JSON object with a 'type'")
        cls = self.class_of(name)
        return decode(cls, {k: v for k, v in data.items() if k != "type"})

    def from_text(self, text: str) -> M:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise CodecError(f"a {self.kind} is a JSON object")
        return self.from_json(data)


def event_text(event: Event) -> str:
    """The canonical JSON text the event store keeps (``NewEvent.payload``), byte for byte.

    An event holding a value that keeps its text (a battle file, a resolution:
    ``codec_texts``) is written around that text, which the battle holding the value then
    reuses; any other is encoded whole."""
    if codec_texts.holds_kept(event):
        name = json.dumps(_type_name(event), ensure_ascii=False)
        return codec_texts.object_text(event, {"type": name})
    return jsonable_text(message_to_json(event))


def command_text(command: Command) -> str:
    """The canonical JSON text of a command (what a client sends, what a recording keeps)."""
    return jsonable_text(message_to_json(command))
