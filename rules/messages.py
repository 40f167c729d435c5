"""Commands and events as frozen dataclasses that serialise to canonical JSON dicts.

Every message serialises to ``{"type": <registered name>, ...fields}`` and comes back through
the registry of its kind, so the daemon's store can keep events as JSON text and a client can
send commands as JSON. Type names are part of the stored format: never rename one; add a new
type instead.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from mekref.rules.codec import CodecError, canonical_json, decode, to_jsonable
from mekref.rules.dice import Roll


@dataclass(frozen=True, kw_only=True)
class Event:
    """Something that happened. ``rolls`` holds every die the decision used, in order."""

    TYPE: ClassVar[str] = ""
    rolls: tuple[Roll, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Command:
    """Something someone asked for. ``actor`` says who (a side's token holder or the referee)."""

    TYPE: ClassVar[str] = ""
    actor: str


@dataclass(frozen=True, kw_only=True)
class RefereeNote:
    """Who overrode or accepted something, and why: overrides are never anonymous."""

    referee: str
    reason: str

    def __post_init__(self) -> None:
        if not self.referee.strip() or not self.reason.strip():
            raise ValueError("a referee decision names the referee and gives a reason")


M = TypeVar("M", Event, Command)


class Registry(Generic[M]):
    """Type name -> class, for one kind of message."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._by_name: dict[str, type[M]] = {}

    def register(self, name: str) -> Any:
        def wrap(cls: type[M]) -> type[M]:
            if name in self._by_name:
                raise ValueError(f"{self.kind} type {name!r} is registered twice")
            cls.TYPE = name
            self._by_name[name] = cls
            return cls

        return wrap

    def names(self) -> tuple[str, ...]:
        return tuple(sorted(self._by_name))

    def classes(self) -> tuple[type[M], ...]:
        return tuple(self._by_name[n] for n in self.names())

    def to_json(self, message: M) -> dict[str, Any]:
        name = type(message).TYPE
        if self._by_name.get(name) is not type(message):
            raise CodecError(f"{type(message).__name__} is not a registered {self.kind}")
        body = to_jsonable(message)
        assert isinstance(body, dict)
        return {"type": name, **body}

    def from_json(self, data: dict[str, Any]) -> M:
        # Decoding a stored event must know every rule module's types, however we got here.
        from mekref.rules.plugins import load_extensions

        load_extensions()
        name = data.get("type")
        if not isinstance(name, str) or name not in self._by_name:
            raise CodecError(f"unknown {self.kind} type {name!r}")
        return decode(self._by_name[name], {k: v for k, v in data.items() if k != "type"})


EVENTS: Registry[Event] = Registry("event")
COMMANDS: Registry[Command] = Registry("command")


def event_to_json(event: Event) -> dict[str, Any]:
    return EVENTS.to_json(event)


def event_from_json(data: dict[str, Any]) -> Event:
    return EVENTS.from_json(data)


def command_to_json(command: Command) -> dict[str, Any]:
    return COMMANDS.to_json(command)


def command_from_json(data: dict[str, Any]) -> Command:
    return COMMANDS.from_json(data)


def event_text(event: Event) -> str:
    """The canonical JSON text the event store keeps (``NewEvent.payload``), byte for byte."""
    return canonical_json(event_to_json(event))


def event_from_text(text: str) -> Event:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise CodecError("an event is a JSON object")
    return event_from_json(data)
