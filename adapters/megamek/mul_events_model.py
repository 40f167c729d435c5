"""The MUL model built from start tags' attribute dicts, for :mod:`mul_events`.

Each conversion is the tree reader's (:mod:`mul_reader`), written for a dict lxml already
made. A value the tree reader refuses raises ``ValueError`` (``int``) or :class:`EventError`
here, and the event reader then leaves the file to the tree reader, which words the refusal.

Objects are made with :func:`~mekref.adapters.megamek.mul_model.sparse`: only what the file
sets is stored. An entity's, a pilot's and a crew's own attributes are kept as the start tag's
values with their shape (:mod:`mul_shapes`) and converted when a field is first read; a large
record holds tens of thousands of these, and converting every field of each was most of the
read's time, and a full instance dictionary per object most of the model's memory.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mekref.adapters.megamek.mul_model import (
    ARMOR_DESTROYED,
    ARMOR_NA,
    Bomb,
    Crew,
    Entity,
    Kill,
    Location,
    MulFile,
    Notice,
    RootKind,
    Section,
    Slot,
    sparse,
)
from mekref.adapters.megamek.mul_positions import Document, LocationNames
from mekref.adapters.megamek.mul_shapes import (
    CREW,
    CREW_MEMBER,
    ENTITY,
    PILOT_CREW,
    Shape,
    flag,
    person,
)
from mekref.adapters.megamek.mul_vocabulary import (
    ARMOR_FIELDS,
    SLOT_ATTRIBUTES,
)

Attrib = Mapping[str, str]
_make_location = sparse(Location)
_make_slot = sparse(Slot)
_make_crew = sparse(Crew)
_make_mulfile = sparse(MulFile)


class EventError(Exception):
    """Something the tree reader refuses or reports with a line: it reads the file instead."""


#: Entity children read as one number: tag -> ((attribute, field), ...).
_NUMBER_CHILDREN = {
    "Game": (("id", "game_id"),),
    "motive": (("damage", "motive_damage"), ("penalty", "motive_penalty")),
    "movement": (("speed", "legacy_movement_speed"),),
    "turretlock": (("direction", "turret_lock"),),
    "structural": (("integrity", "structural_integrity"),),
    "heat": (("sinks", "heat_sinks"),),
    "fuel": (("left", "fuel"),),
    "Conveyance": (("id", "conveyance_id"),),
    "ONumberOfMen": (("number", "ejected_men"),),
    "ONumberOfPods": (("number", "escape_pods"),),
}
_CRITICALS = {
    "tcriticals": "tank_crits",
    "acriticals": "aero_crits",
    "dcriticals": "dropship_crits",
}


def _opt_int(raw: str | None) -> int | None:
    return None if raw is None else int(raw)


def entity_state(
    attrib: Attrib, section: Section, document: Document, nth: int
) -> tuple[Shape, dict[str, Any]]:
    """An ``<entity>``'s start tag, checked now and kept to be read (:mod:`mul_shapes`); it is
    the ``nth`` of ``document`` (its line is found there when it is read)."""
    shape = ENTITY.shape(tuple(attrib))
    if shape.missing:
        raise EventError  # no chassis
    values = tuple(attrib.values())
    shape.check(values)
    state: dict[str, Any] = {"_shape": shape, "_values": values, "_document": document, "_nth": nth}
    if section is not Section.UNIT:
        state["section"] = section
    return shape, state


def entity_child(state: dict[str, Any], escape_craft: list[str], tag: str, attrib: Attrib) -> bool:
    """Read a child that sets fields of the entity; False for any other tag."""
    numbers = _NUMBER_CHILDREN.get(tag)
    if numbers is not None:
        for attribute, field in numbers:
            raw = attrib.get(attribute)
            state[field] = None if raw is None else int(raw)
    elif tag in _CRITICALS:
        state[_CRITICALS[tag]] = tuple(attrib.items())
    elif tag == "Force":
        state["force"] = attrib.get("force")
    elif tag == "EscapeCraft":
        escape_craft.append(attrib.get("id", ""))
    else:
        return False
    return True


def bomb_of(attrib: Attrib) -> Bomb:
    raw_load, internal = attrib.get("load"), attrib.get("Internal")
    return Bomb(
        type=attrib.get("type", ""),
        load=(None if raw_load is None else int(raw_load)) or 0,
        internal=None if internal is None else internal.strip().lower() == "true",
    )


def armor_of(attrib: Attrib) -> tuple[str, int]:
    """An ``<armor>``: the Location field it sets and its points."""
    field = ARMOR_FIELDS.get(attrib.get("type", "Front"))
    if field is None:
        raise EventError
    raw = attrib.get("points")
    points = _ARMOR_POINTS.get(raw)  # type: ignore[arg-type]
    if points is None:
        raw = (raw or "").strip()
        points = ARMOR_DESTROYED if raw == "Destroyed" else ARMOR_NA if raw == "N/A" else int(raw)
    return field, points


_ARMOR_POINTS = {"Destroyed": ARMOR_DESTROYED, "N/A": ARMOR_NA}
#: What a ``<location>`` child other than a slot or an armor sets.
LOCATION_FLAGS = {"blownOff": "blown_off", "breached": "breached", "stabilizer": "stabilizer_hit"}


def location_flag(attrib: Attrib, tag: str) -> bool:
    """The value of a ``<blownOff>``, ``<breached>`` or ``<stabilizer isHit=...>``."""
    return tag != "stabilizer" or _true(attrib.get("isHit"))


def location_state(attrib: Attrib, names: LocationNames, nth: int) -> dict[str, Any]:
    """The ``nth`` ``<location>`` of the file, from its start tag: its children are read into
    the state, and its name is found in the file when it is read (``names``)."""
    raw_index = attrib.get("index")
    if raw_index is None:
        raise EventError
    state: dict[str, Any] = {"_shape": names, "_nth": nth, "index": int(raw_index)}
    destroyed = attrib.get("isDestroyed")
    if destroyed is not None and flag(destroyed):
        state["destroyed"] = True
    return state


def location_of(state: dict[str, Any], slots: list[Slot]) -> Location:
    if slots:
        state["slots"] = tuple(slots)
    return _make_location(state)


def _true(raw: str | None) -> bool:
    return raw is not None and flag(raw)


def slot_of(attrib: Attrib, made: dict[Any, Slot], key: tuple[Any, Any, Any]) -> Slot:
    """A ``<slot>``. Slots repeat from unit to unit of a design, so each is kept in ``made``
    and shared by every slot written the same way: a plain one (index, type and shots only)
    by ``key``, their raw values, and any other by all its attributes."""
    raw_index, raw_type, raw_shots = key
    if raw_index is None or raw_type is None:
        raise EventError
    plain = len(attrib) == (2 if raw_shots is None else 3)
    whole = key if plain else tuple(attrib.items())
    slot = made.get(whole)
    if slot is not None:
        return slot
    raw_index = raw_index.strip()
    state: dict[str, Any] = {
        "index": None if raw_index == "N/A" else int(raw_index),
        "type": raw_type,
        "shots": None if raw_shots is None else int(raw_shots),
    }
    if not plain:
        extra = []
        for name, raw in attrib.items():
            field = _SLOT_FIELDS.get(name)
            if field is not None:
                state[field] = flag(raw) if field in _SLOT_FLAGS else raw
            elif name not in SLOT_ATTRIBUTES:
                extra.append((name, raw))
        if extra:
            state["extra"] = tuple(extra)
    slot = made[whole] = _make_slot(state)
    return slot


_SLOT_FIELDS = {
    "isHit": "is_hit",
    "isDestroyed": "is_destroyed",
    "isMissing": "is_missing",
    "isRear": "is_rear",
    "isTurreted": "is_turreted",
    "armorHit": "armor_hit",
    "isRepairable": "is_repairable",
    "munition": "munition",
    "capacity": "capacity",
    "quirks": "quirks",
}
_SLOT_FLAGS = frozenset(
    {"is_hit", "is_destroyed", "is_missing", "is_rear", "is_turreted", "armor_hit", "is_repairable"}
)


def pilot_crew(attrib: Attrib) -> Crew:
    """A lone ``<pilot>``: one person, and the crew-wide attributes on the same element (the
    person is made when the crew's ``members`` are first read)."""
    shape = PILOT_CREW.shape(tuple(attrib))
    values = tuple(attrib.values())
    shape.check(values)
    return _make_crew({"_shape": shape, "_values": values})


def crew_of(attrib: Attrib, members: list[Attrib]) -> Crew:
    """A ``<crew>`` and the attributes of its ``<crewMember>`` children."""
    people = []
    for member in members:
        shape, values = CREW_MEMBER.shape(tuple(member)), tuple(member.values())
        shape.check(values)
        people.append(person(shape, values))
    shape, values = CREW.shape(tuple(attrib)), tuple(attrib.values())
    shape.check(values)
    return _make_crew({"_shape": shape, "_values": values, "members": tuple(people)})


def kill_of(attrib: Attrib) -> Kill:
    killer = attrib.get("killer")
    return Kill(
        killed=attrib.get("killed", ""),
        killer=None if killer in (None, "None", "-1") else killer,
    )


def mul_file(
    root: RootKind,
    version: str | None,
    entities: list[Entity],
    kills: list[Kill],
    gbv: int | None,
    notices: tuple[Notice, ...],
) -> MulFile:
    state: dict[str, Any] = {"root": root, "version": version, "entities": tuple(entities)}
    if kills:
        state["kills"] = tuple(kills)
    if gbv is not None:
        state["total_generic_bv"] = gbv
    if notices:
        state["notices"] = notices
    return _make_mulfile(state)
