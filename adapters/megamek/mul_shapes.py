"""Start tags read when their fields are first read: the shapes behind
:class:`~mekref.adapters.megamek.mul_model.FromTag`.

A shape is a start tag's attribute names, in order, for one kind of element (an entity, a
lone pilot, a crew member...): where each field's attribute stands and how the tree reader
(:mod:`mul_reader`) converts it. MegaMek writes the same attributes in the same order on
every unit, so a file has a handful of shapes; each element keeps only its values.

What the tree reader refuses is checked when the element is read (:meth:`Shape.check`):
its numbers are converted there, and a missing required attribute is found. So a file is
refused, or not, at read time exactly as before; only the conversion of what is accepted
waits until a field is read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from mekref.adapters.megamek.mul_model import DEAD_HITS, CrewMember, sparse
from mekref.adapters.megamek.mul_vocabulary import (
    CREW_ATTRIBUTES,
    ENTITY_ATTRIBUTES,
    ENTITY_EXTRA_KNOWN,
    PERSON_ATTRIBUTES,
    PERSON_EXTRA,
    PERSON_NUMBERS,
    PILOT_NAMED,
)

_make_crewmember = sparse(CrewMember)
Convert = Callable[[str | None, object], object]

_FLAGS = {"true": True, "false": False}


def flag(raw: str) -> bool:
    """MegaMek's "true"/"false", read as the tree reader reads it (anything else is False)."""
    value = _FLAGS.get(raw)
    return raw.strip().lower() == "true" if value is None else value


def split(raw: str | None) -> tuple[str, ...]:
    """A ``::``-separated list (quirks, advantages, edge)."""
    return tuple(part for part in raw.split("::") if part) if raw else ()


def _text(raw: str | None, default: object) -> object:
    return default if raw is None else raw


def _text_or_empty(raw: str | None, default: object) -> object:
    return "" if raw is None else raw


def _flag_or_none(raw: str | None, default: object) -> object:
    return None if raw is None else flag(raw)


def _true(raw: str | None, default: object) -> object:
    return raw is not None and flag(raw)


def _number(raw: str | None, default: object) -> object:
    return None if raw is None else int(raw)


def _external_id(raw: str | None, default: object) -> object:
    return None if raw in (None, "", "-1") else raw


def _split(raw: str | None, default: object) -> object:
    return split(raw)


def hits(raw: str) -> int:
    """A person's ``hits``: 0-5 as written, DEAD_HITS for "Dead" (and for more, which only a
    hand edit writes)."""
    if raw.strip() == "Dead":
        return DEAD_HITS
    return min(max(int(raw), 0), DEAD_HITS)


def person(shape: Shape, values: tuple[str, ...]) -> CrewMember:
    """One person read from a start tag whose values ``shape.check`` accepted."""
    state: dict[str, Any] = {"_shape": shape, "_values": values}
    if shape.hits is not None:
        state["hits"] = hits(values[shape.hits])
    if shape.slot is not None:
        state["slot"] = int(values[shape.slot])
    return _make_crewmember(state)


class Kind:
    """One kind of element: its fields (field -> attribute, conversion), the attributes that
    must be whole numbers, and which attributes go to ``extra``."""

    def __init__(
        self,
        name: str,
        fields: Mapping[str, tuple[str, Convert]],
        numbers: Sequence[str],
        is_extra: Callable[[str], bool],
        *,
        required: str | None = None,
        known_extra: frozenset[str] | None = None,
        person: Kind | None = None,
        hits: bool = False,
    ) -> None:
        self.name = name
        self.fields = fields
        self.numbers = frozenset(numbers)
        self.is_extra = is_extra
        self.required = required
        #: The ``extra`` attributes MegaMek writes, when the others are to be reported.
        self.known_extra = known_extra
        #: A lone ``<pilot>``: the kind of the one person its attributes also describe.
        self.person = person
        #: Whether its ``hits`` (a person's: a number or "Dead") are read and checked.
        self.hits = hits
        self.shapes: dict[tuple[str, ...], Shape] = {}
        self._last: Shape | None = None

    def shape(self, names: tuple[str, ...]) -> Shape:
        # A file repeats one shape unit after unit: comparing with the last one found spares
        # hashing every name (lxml makes new strings for them on every element).
        last = self._last
        if last is not None and last.names == names:
            return last
        shape = self.shapes.get(names)
        if shape is None:
            if len(self.shapes) >= _MAX_SHAPES:
                self.shapes.clear()  # a crafted file with ever new shapes: keep memory bounded
            shape = self.shapes[names] = Shape(self, names)
        self._last = shape
        return shape

    def __reduce__(self) -> tuple[Callable[[str], Kind], tuple[str]]:
        # A model read by the event reader pickles its shapes by name (the conversions are
        # functions of this module, found again by the kind's name).
        return _kind_named, (self.name,)


#: Shapes kept per kind; real files have a few, from a few MegaMek versions.
_MAX_SHAPES = 256
#: One string per attribute name kept in ``extra`` (lxml makes a new one on every element).
_NAMES = {name: name for name in ENTITY_EXTRA_KNOWN | PERSON_EXTRA}


class Shape:
    """Where a kind's attributes stand in one start tag's values."""

    __slots__ = (
        "extra",
        "hits",
        "kind",
        "missing",
        "names",
        "numbers",
        "person",
        "positions",
        "slot",
        "unknown",
    )

    def __init__(self, kind: Kind, names: tuple[str, ...]) -> None:
        self.kind = kind
        self.names = names
        self.positions = {name: at for at, name in enumerate(names)}
        self.numbers = tuple(at for at, name in enumerate(names) if name in kind.numbers)
        self.extra = tuple((_NAMES.get(n, n), at) for at, n in enumerate(names) if kind.is_extra(n))
        #: Attributes no MegaMek version we know writes (reported once per file).
        known = kind.known_extra
        self.unknown = () if known is None else tuple(n for n, _ in self.extra if n not in known)
        self.missing = kind.required is not None and kind.required not in self.positions
        self.hits = self.positions.get("hits") if kind.hits else None
        self.slot = self.positions.get("slot") if "slot" in kind.numbers else None
        self.person = None if kind.person is None else kind.person.shape(names)

    def __reduce__(self) -> tuple[Callable[[tuple[str, ...]], Shape], tuple[tuple[str, ...]]]:
        return self.kind.shape, (self.names,)

    def check(self, values: Sequence[str]) -> None:
        """Raise ``ValueError`` where the tree reader refuses the element: its numbers, and a
        person's hits (a number or "Dead")."""
        for at in self.numbers:
            int(values[at])
        if self.hits is not None:
            hits(values[self.hits])

    def read(self, field: str, state: dict[str, Any], default: object) -> Any:
        values = state["_values"]
        if field == "line":
            return state["_document"].line(state["_nth"])
        if field == "extra":
            return tuple([(name, values[at]) for name, at in self.extra])
        if field == "members" and self.person is not None:
            return (person(self.person, values),)
        known = self.kind.fields.get(field)
        if known is None:
            return default
        attribute, convert = known
        at = self.positions.get(attribute)
        return convert(None if at is None else values[at], default)


ENTITY = Kind(
    "entity",
    {
        "chassis": ("chassis", _text),
        "model": ("model", _text_or_empty),
        "movement_mode": ("type", _text_or_empty),
        "unit_file_uuid": ("unitFileUUID", _text),
        "entity_form": ("entityForm", _text),
        "pick_up_id": ("pickUpId", _text),
        "commander": ("commander", _flag_or_none),
        "offboard": ("offboard", _flag_or_none),
        "hidden": ("hidden", _flag_or_none),
        "never_deployed": ("neverDeployed", _flag_or_none),
        "deployment": ("deployment", _number),
        "velocity": ("velocity", _number),
        "altitude": ("altitude", _number),
        "elevation": ("elevation", _number),
        "external_id": ("externalId", _external_id),
        "quirks": ("quirks", _split),
    },
    ("deployment", "velocity", "altitude", "elevation"),
    lambda name: name not in ENTITY_ATTRIBUTES,
    required="chassis",
    known_extra=ENTITY_EXTRA_KNOWN,
)

_PERSON_FIELDS: dict[str, tuple[str, Convert]] = {
    "name": ("name", _text_or_empty),
    "nick": ("nick", _text),
    "gender": ("gender", _text),
    "clanperson": ("clanperson", _flag_or_none),
    "external_id": ("externalId", _external_id),
    **{field: (attribute, _number) for attribute, field in PERSON_NUMBERS.items()},
}

#: A lone ``<pilot>``'s person: the attributes it does not name belong to the crew.
PILOT = Kind(
    "pilot",
    _PERSON_FIELDS,
    tuple(PERSON_NUMBERS),
    lambda name: name in PERSON_EXTRA and name not in PERSON_ATTRIBUTES,
    hits=True,
)
#: A ``<crewMember>``: every attribute it does not name is the person's (but its slot).
CREW_MEMBER = Kind(
    "crewMember",
    _PERSON_FIELDS,
    (*PERSON_NUMBERS, "slot"),
    lambda name: name not in PERSON_ATTRIBUTES and name != "slot",
    hits=True,
)

_CREW_FIELDS: dict[str, tuple[str, Convert]] = {
    "size": ("size", _number),
    "init_bonus": ("initB", _number),
    "command_bonus": ("commandB", _number),
    "ejected": ("ejected", _true),
    "advantages": ("advantages", _split),
    "edge": ("edge", _split),
    "autoeject": ("autoeject", _flag_or_none),
}
#: A lone ``<pilot>`` as a crew: the crew-wide attributes, and the person (its ``members``)
#: read from the same ones. Its ``crew_type`` stays ``None``.
PILOT_CREW = Kind(
    "pilot crew",
    _CREW_FIELDS,
    ("size", "initB", "commandB", *PERSON_NUMBERS),
    lambda name: name not in PILOT_NAMED,
    person=PILOT,
    hits=True,
)
#: A ``<crew>`` of several members.
CREW = Kind(
    "crew",
    {**_CREW_FIELDS, "crew_type": ("crewType", _text_or_empty)},
    ("size", "initB", "commandB"),
    lambda name: name not in CREW_ATTRIBUTES,
)


_KINDS = {kind.name: kind for kind in (ENTITY, PILOT, CREW_MEMBER, PILOT_CREW, CREW)}


def _kind_named(name: str) -> Kind:
    return _KINDS[name]
