"""Typed model of a MegaMek unit-list file (``.mul``), as MegaMek's ``EntityListFile`` writes it.

The model mirrors the file, not the game: a location that is absent from the file is unchanged
from the design, so ``armor`` is ``None`` there. Merging with the design (``condition``) turns
these deltas into absolute numbers. Armor sentinels keep MegaMek's own ``IArmorState`` values so
the writer can give back exactly what was read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields
from enum import StrEnum
from typing import Any, TypeVar

from mekref.adapters.megamek.unit_kinds import KindSource, UnitKind

#: ``IArmorState.ARMOR_NA``: the location has no such armor ("N/A" in the file).
ARMOR_NA = -1
#: ``IArmorState.ARMOR_DESTROYED``: written as "Destroyed" (also stands for ARMOR_DOOMED, -2).
ARMOR_DESTROYED = -3

#: The value MegaMek writes for a dead crew member's hits; 6 hits is death in the rules too.
DEAD_HITS = 6


class RootKind(StrEnum):
    UNIT = "unit"
    RECORD = "record"
    #: A MegaMek savegame read as every owner's own record at once (``savegame_record``).
    SAVEGAME = "savegame"


class Section(StrEnum):
    """Where an entity stood in the file. ``UNIT`` is the body of a plain ``<unit>`` list."""

    UNIT = "unit"
    SURVIVORS = "survivors"
    ALLIES = "allies"
    SALVAGE = "salvage"
    RETREATED = "retreated"
    DEVASTATED = "devastated"


RECORD_SECTIONS = (
    Section.SURVIVORS,
    Section.ALLIES,
    Section.SALVAGE,
    Section.RETREATED,
    Section.DEVASTATED,
)

Attributes = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class CrewMember:
    """One person: the lone ``<pilot>`` or one ``<crewMember>`` of a multi-crew ``<crew>``."""

    name: str
    nick: str = ""
    slot: int | None = None
    gender: str | None = None
    clanperson: bool | None = None
    gunnery: int | None = None
    gunnery_l: int | None = None
    gunnery_m: int | None = None
    gunnery_b: int | None = None
    piloting: int | None = None
    gunnery_aero: int | None = None
    gunnery_aero_l: int | None = None
    gunnery_aero_m: int | None = None
    gunnery_aero_b: int | None = None
    piloting_aero: int | None = None
    artillery: int | None = None
    toughness: int | None = None
    fatigue: int | None = None
    #: 0-5 as written; ``DEAD_HITS`` when the file says ``Dead``.
    hits: int = 0
    external_id: str | None = None
    #: Attributes this model does not name (portraits, extraData, newer MegaMek additions).
    extra: Attributes = ()

    @property
    def dead(self) -> bool:
        return self.hits >= DEAD_HITS


@dataclass(frozen=True)
class Crew:
    """Crew-wide state; ``crew_type`` is ``None`` for a single ``<pilot>`` element."""

    members: tuple[CrewMember, ...]
    size: int | None = None
    crew_type: str | None = None
    ejected: bool = False
    init_bonus: int | None = None
    command_bonus: int | None = None
    advantages: tuple[str, ...] = ()
    #: The ``edge`` attribute split on ``::``: ``edge N`` (the point count) and the triggers.
    edge: tuple[str, ...] = ()
    autoeject: bool | None = None
    #: Crew-wide attributes this model does not name (implants, conditional ejection...).
    extra: Attributes = ()

    @property
    def edge_points(self) -> int | None:
        for item in self.edge:
            if item.startswith("edge ") and item[5:].strip().isdigit():
                return int(item[5:])
        return None


@dataclass(frozen=True)
class Slot:
    """A critical slot. ``index`` is 1-based; ``None`` where MegaMek wrote ``index="N/A"``."""

    index: int | None
    type: str
    shots: int | None = None
    is_hit: bool = False
    is_destroyed: bool | None = None
    is_missing: bool = False
    is_rear: bool = False
    is_turreted: bool = False
    armor_hit: bool = False
    is_repairable: bool | None = None
    munition: str | None = None
    capacity: str | None = None
    quirks: str | None = None
    extra: Attributes = ()

    @property
    def is_system(self) -> bool:
        return self.type == "System"

    @property
    def is_empty(self) -> bool:
        return self.type == "Empty"

    @property
    def damaged(self) -> bool:
        return self.is_hit or bool(self.is_destroyed) or self.is_missing


@dataclass(frozen=True)
class Location:
    """A ``<location>`` that differs from the design. Armor values are absolute, not deltas."""

    index: int
    #: The free text MegaMek writes after the tag, e.g. "Right Torso" (may be empty).
    name: str = ""
    destroyed: bool = False
    blown_off: bool = False
    breached: bool = False
    armor: int | None = None
    internal: int | None = None
    rear: int | None = None
    stabilizer_hit: bool = False
    slots: tuple[Slot, ...] = ()
    #: Children this model does not know, as raw XML, kept for the writer.
    unknown: tuple[str, ...] = ()

    @property
    def lost(self) -> bool:
        """Destroyed, or blown off: a limb blown off is gone too, whatever armour and structure
        MegaMek writes for it (ruling R-IMP-7)."""
        return self.destroyed or self.blown_off


@dataclass(frozen=True)
class Kill:
    """``<kill killed=... killer=...>``: keyed by display name, killer an externalId or None."""

    killed: str
    killer: str | None


@dataclass(frozen=True)
class Bomb:
    type: str
    load: int
    internal: bool | None = None


@dataclass(frozen=True)
class Entity:
    """One ``<entity>``. ``movement_mode`` is the file's ``type`` attribute (not the unit kind)."""

    chassis: str
    model: str
    movement_mode: str
    section: Section = Section.UNIT
    external_id: str | None = None
    commander: bool | None = None
    offboard: bool | None = None
    hidden: bool | None = None
    deployment: int | None = None
    never_deployed: bool | None = None
    velocity: int | None = None
    altitude: int | None = None
    elevation: int | None = None
    quirks: tuple[str, ...] = ()
    unit_file_uuid: str | None = None
    entity_form: str | None = None
    pick_up_id: str | None = None
    crew: Crew | None = None
    locations: tuple[Location, ...] = ()
    #: Tanks: ``<motive damage penalty>``; the pre-0.44 ``<movement speed>`` is kept apart.
    motive_damage: int | None = None
    motive_penalty: int | None = None
    legacy_movement_speed: int | None = None
    turret_lock: int | None = None
    tank_crits: Attributes = ()
    aero_crits: Attributes = ()
    dropship_crits: Attributes = ()
    structural_integrity: int | None = None
    heat_sinks: int | None = None
    fuel: int | None = None
    bombs: tuple[Bomb, ...] | None = None
    game_id: int | None = None
    force: str | None = None
    conveyance_id: int | None = None
    escape_craft: tuple[str, ...] = ()
    ejected_men: int | None = None
    escape_pods: int | None = None
    #: Entity attributes this model does not name (deployment zones, camo, C3 ids, newer ones).
    extra: Attributes = ()
    #: Child elements kept verbatim (transport bays, C3 sets, towing, embedded designs, unknown).
    preserved: tuple[str, ...] = ()
    #: Line in the file where the entity starts (for messages); not written back.
    line: int | None = field(default=None, compare=False)

    @property
    def members(self) -> tuple[CrewMember, ...]:
        return self.crew.members if self.crew else ()

    @property
    def display_name(self) -> str:
        """MegaMek's short display name: chassis and model, as used by ``<kill killed>``."""
        return f"{self.chassis} {self.model}".strip()

    @property
    def is_ejected_crew(self) -> bool:
        """An ejected crew or MekWarrior on foot: people who left a unit, not a unit.

        MegaMek writes them as their own entity with chassis ``Pilot``/``MekWarrior`` (older:
        ``MechWarrior``), movement ``Leg`` and an ``<ONumberOfMen>`` count.
        """
        return self.ejected_men is not None or (
            self.chassis in _EJECTED_CHASSIS and self.movement_mode == "Leg"
        )

    def location(self, index: int) -> Location | None:
        for loc in self.locations:
            if loc.index == index:
                return loc
        return None


_EJECTED_CHASSIS = frozenset({"Pilot", "MekWarrior", "MechWarrior", "Ejected Crew"})


@dataclass(frozen=True)
class KindGuess:
    kind: UnitKind
    source: KindSource


@dataclass(frozen=True)
class Notice:
    """Something the reader tolerated or kept that a person may want to know about."""

    line: int | None
    message: str


@dataclass(frozen=True)
class MulFile:
    root: RootKind
    version: str | None
    entities: tuple[Entity, ...] = ()
    kills: tuple[Kill, ...] = ()
    total_generic_bv: int | None = None
    notices: tuple[Notice, ...] = field(default=(), compare=False)
    #: A savegame's moment: MegaMek's round and phase ("VICTORY", "END_REPORT"...) when it
    #: was saved (ruling SG-7 orders two saves of one game by them); None for a MUL.
    game_round: int | None = None
    game_phase: str | None = None

    def section(self, section: Section) -> tuple[Entity, ...]:
        return tuple(e for e in self.entities if e.section is section)


_M = TypeVar("_M")
_SHAPES: dict[type[Any], tuple[dict[str, object], frozenset[str], frozenset[str]]] = {}


def build(cls: type[_M], **values: object) -> _M:
    """Make a frozen model object the way the reader needs it: fast.

    A frozen dataclass's ``__init__`` sets every field through ``object.__setattr__``; for an
    Entity's 45 fields that is about 10 µs, and a large record holds hundreds of entities and
    thousands of slots. This fills the same instance ``__dict__`` directly (defaults first)
    and checks the names, so the object is the one ``cls(**values)`` would make: equal,
    hashable, and still frozen against later assignment.
    """
    shape = _SHAPES.get(cls)
    if shape is None:
        defaults: dict[str, object] = {}
        required: set[str] = set()
        for f in fields(cls):  # type: ignore[arg-type]
            if f.default is not MISSING:
                defaults[f.name] = f.default
            elif f.default_factory is not MISSING:
                raise TypeError(f"{cls.__name__}.{f.name} has a default factory; use the class")
            else:
                required.add(f.name)
        names = frozenset(defaults) | required
        shape = _SHAPES[cls] = (defaults, frozenset(required), names)
    known, needed, names = shape
    obj = object.__new__(cls)
    state = obj.__dict__
    state.update(known)
    state.update(values)
    # The names are checked on every call, so a misspelt one fails at once. With no unknown name
    # (one subset test in C), the state holds every field exactly when its size is the number of
    # fields: cheaper than a second subset test, which runs only to word the error.
    if not (values.keys() <= names and len(state) == len(names)):
        unknown = sorted(values.keys() - names)
        missing = sorted(needed - values.keys())
        raise TypeError(f"{cls.__name__}: unknown {unknown}, missing {missing}")
    return obj


def sparse(cls: type[_M]) -> Callable[[dict[str, Any]], _M]:
    """A maker of frozen ``cls`` objects whose instance dictionary is the ``state`` it is given,
    holding only some of the fields: a dataclass keeps each default as a class attribute, so
    an absent field reads as its default, and a field read from its start tag (:class:`FromTag`)
    reads there.

    The object equals, hashes and prints as ``cls(**fields)`` would (the generated methods read
    the fields as attributes) and stays frozen. For the event reader, which names the fields
    itself (its tests compare every object with the tree reader's): no name is checked here.
    An Entity's 45 fields took 1.6 kB per instance as a full dictionary; most are defaults.
    The dictionary is set through the class's own ``__dict__`` descriptor: a third of the cost
    of ``object.__setattr__``, and a large record makes a hundred thousand of these."""
    new = object.__new__
    set_state = vars(cls)["__dict__"].__set__

    def make(state: dict[str, Any]) -> _M:
        obj = new(cls)
        set_state(obj, state)
        return obj

    return make


class FromTag:
    """A field read from its element's start tag, or from the file, when it is first read,
    then kept.

    The event reader checks at read time every value the tree reader would refuse, and keeps
    the start tag's attribute values with the conversions of this kind of element (the
    ``_shape`` in the object's dictionary) instead of converting every field: most fields of
    most units are never read, and converting them was most of a read's time. An object made
    any other way holds its fields in its dictionary, which comes first."""

    __slots__ = ("default", "name")

    def __init__(self, name: str, default: object) -> None:
        self.name = name
        self.default = default

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        if obj is None:
            return self.default
        state = obj.__dict__
        shape = state.get("_shape")
        if shape is None:
            return self.default
        value = state[self.name] = shape.read(self.name, state, self.default)
        return value


def _from_tag(cls: type[Any], *names: str) -> None:
    """Make ``names`` of ``cls`` readable from the start tag (the defaults stay the same)."""
    for f in fields(cls):
        if f.name in names:
            default = None if f.default is MISSING else f.default
            setattr(cls, f.name, FromTag(f.name, default))


_from_tag(
    Entity,
    "chassis",
    "model",
    "movement_mode",
    "external_id",
    "commander",
    "offboard",
    "hidden",
    "deployment",
    "never_deployed",
    "velocity",
    "altitude",
    "elevation",
    "quirks",
    "unit_file_uuid",
    "entity_form",
    "pick_up_id",
    "extra",
    "line",
)
_from_tag(Location, "name", "blown_off")
_from_tag(
    CrewMember,
    *(f.name for f in fields(CrewMember) if f.name not in ("slot", "hits")),
)
_from_tag(Crew, *(f.name for f in fields(Crew)))
