"""The typed vocabulary the rules speak: unit kinds, tech bases, skills, force descriptions.

These are the inputs the adapters must fill (from MUL files and unit designs) and the values
campaign events carry. They are deliberately small and independent of MegaMek's own class
hierarchy: the rules only need to know what a unit costs to keep, not how it is built.
"""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from fractions import Fraction

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.record_type import Record, record


class UnitKind(StrEnum):
    """The unit categories the TripWire tables price differently."""

    MEK = "mek"
    COMBAT_VEHICLE = "combat_vehicle"
    VTOL = "vtol"
    SUPPORT_VEHICLE = "support_vehicle"
    AEROSPACE_FIGHTER = "aerospace_fighter"
    BATTLE_ARMOR = "battle_armor"
    CONVENTIONAL_INFANTRY = "conventional_infantry"
    DROPSHIP = "dropship"

    @property
    def is_vehicle(self) -> bool:
        # Line 15 of the source: "Vehicles (Combat Vehicles, VTOL's or Support Vehicles)".
        return self in (UnitKind.COMBAT_VEHICLE, UnitKind.VTOL, UnitKind.SUPPORT_VEHICLE)

    @property
    def is_infantry(self) -> bool:
        return self in (UnitKind.BATTLE_ARMOR, UnitKind.CONVENTIONAL_INFANTRY)


class TechBase(StrEnum):
    INNER_SPHERE = "inner_sphere"
    INNER_SPHERE_MIXED = "inner_sphere_mixed"
    CLAN = "clan"
    CLAN_MIXED = "clan_mixed"


class InfantryMotive(StrEnum):
    FOOT = "foot"
    JUMP = "jump"
    MOTORISED = "motorised"
    MECHANISED = "mechanised"


class UnitRole(StrEnum):
    """Flags the force construction rules care about."""

    FORCE_COMMANDER = "force_commander"  # the company's commander; also leads the command lance
    LANCE_LEADER = "lance_leader"  # the Lieutenant leading a lance
    ARTILLERY = "artillery"  # carries artillery weapons
    SALVAGE = "salvage"  # the company's salvage unit (any MUL of the era)
    COMPACT = "compact"  # has the compact quirk: may exceed the 12 'Mech count
    OMNI = "omni"  # omni unit: can carry one battle armor squad
    # Combat engineers (MegaMek's infantry engineer specializations): repair a destroyed DropPort
    # in one campaign turn (L219, ruling T-EN1).
    ENGINEER = "engineer"


class CompanyRole(StrEnum):
    """Alpha and Bravo are 'Mech companies on a Union; Charlie is the Gazelle support company;
    the L162 planetary militia is the side's own, checked against that line alone."""

    MEK_COMPANY = "mek_company"
    SUPPORT_COMPANY = "support_company"
    MILITIA = "militia"


@record
class MegaMekCrew(Record):
    """A person as MegaMek's unit list wrote them, beyond the skills the rules price.

    Kept from ``force import`` so the scenario export gives MegaMek back what the list had:
    special pilot abilities (``advantages``, L27), edge (``edge``: ``edge N`` and its triggers,
    L26), implants, toughness, the crew's individual and command initiative bonuses (``initB``,
    ``commandB``), auto-ejection, nickname and gender. The crew-wide values are the crew's in
    MegaMek; each member keeps a copy, the first seat's are written back.
    """

    nick: str = ""
    gender: str = ""
    clanperson: bool | None = None
    toughness: int = 0
    advantages: tuple[str, ...] = ()
    edge: tuple[str, ...] = ()
    implants: tuple[str, ...] = ()
    init_bonus: int = 0
    command_bonus: int = 0
    autoeject: bool | None = None


@record
class CrewSkills(Record):
    """One person's seat in a unit. ``piloting`` is Driving or Anti-'Mech where that applies."""

    person_id: str
    name: str
    gunnery: int
    piloting: int
    # What the imported MegaMek list said of the person beyond the priced skills (None: not
    # imported from a list, or imported before it was kept).
    megamek: MegaMekCrew | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # The hits the imported list gave the person (0-6, 6 dead): kept as a battle's are, so
    # they are healed, rolled for at 5 and written back. Left out of the JSON while 0.
    hits: int = field(default=0, metadata=OMIT_IF_DEFAULT)


@record
class ForceUnit(Record):
    """One unit in a force description, with the ids the caller (the daemon) assigned."""

    unit_id: str
    chassis: str
    model: str
    kind: UnitKind
    tonnage: Fraction  # for battle armor: tons per suit
    bv: int
    tech_base: TechBase = TechBase.INNER_SPHERE
    roles: frozenset[UnitRole] = field(default_factory=frozenset)
    crew: tuple[CrewSkills, ...] = ()
    # Infantry and battle armor only.
    infantry_motive: InfantryMotive | None = None
    anti_mech: bool = True
    troopers: int = 0  # platoon strength, or suits in a battle armor squad
    transport_tons: Fraction = Fraction(0)  # what this infantry unit needs in troop space
    # Transport and cargo.
    troop_capacity_tons: Fraction = Fraction(0)
    cargo_tons: Fraction = Fraction(0)
    #: Why the transport check (L49) cannot know what this unit needs (infantry) or offers (a
    #: carrier): no design, field guns of unknown weight. Empty when it knows.
    transport_unknown: str = field(default="", metadata=OMIT_IF_DEFAULT)

    def has(self, role: UnitRole) -> bool:
        return role in self.roles


@record
class Lance(Record):
    name: str
    units: tuple[ForceUnit, ...]


@record
class Company(Record):
    name: str
    role: CompanyRole
    lances: tuple[Lance, ...]

    @property
    def units(self) -> tuple[ForceUnit, ...]:
        return tuple(u for lance in self.lances for u in lance.units)


@record
class ForceDescription(Record):
    """A side's TO&E as the force construction check and the import command see it."""

    companies: tuple[Company, ...]

    @property
    def units(self) -> tuple[ForceUnit, ...]:
        return tuple(u for c in self.companies for u in c.units)
