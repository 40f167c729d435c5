"""What a battle file says about campaign units and people, as pure data, and the battle ledger.

The daemon turns a MegaMek ``.mul`` into these values (``mekref.rules.tripwire.battle_input``); the
rules never see a ``MulFile``. Every value is a frozen dataclass of builtins, enums and
fractions, so a battle report command and its events serialise to canonical JSON in the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, replace
from enum import StrEnum
from functools import cached_property

from mekref.adapters.megamek.condition import CriticalResults
from mekref.adapters.megamek.mul_model import RootKind
from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.codec_texts import keep_texts
from mekref.rules.dice import Roll
from mekref.rules.messages import RefereeNote
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.battle_book import BattleBook
from mekref.rules.tripwire.battle_book import BattleStatus as BattleStatus  # defined beside it
from mekref.rules.tripwire.design_record import StoredDesign
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.repair import AmmoUse, LocationDamage
from mekref.rules.tripwire.salvage import UnitMobility


class RecordSection(StrEnum):
    """The section of the file an entity stood in (``unit``: a plain unit list)."""

    UNIT = "unit"
    SURVIVORS = "survivors"
    ALLIES = "allies"
    SALVAGE = "salvage"
    RETREATED = "retreated"
    DEVASTATED = "devastated"


class Fate(StrEnum):
    """What became of a unit in one battle (the issue's list, in order of severity)."""

    OPERATIONAL = "operational"
    DAMAGED = "damaged"
    DESTROYED_REPAIRABLE = "destroyed_repairable"  # destroyed in the game, repairable in campaign
    TRULY_DESTROYED = "truly_destroyed"
    UTTERLY_DESTROYED = "utterly_destroyed"
    RETREATED = "retreated"
    CAPTURED = "captured"  # salvaged by the enemy: it changes sides
    MISSING = "missing"  # expected (its side reported) but in no file


class PersonFate(StrEnum):
    ACTIVE = "active"
    INJURED = "injured"
    KIA = "kia"
    DIED_OF_WOUNDS = "died_of_wounds"  # failed the death roll at 5 hits
    CAPTURED = "captured"
    RECOVERED = "recovered"  # ejected, and picked up by their own side


@record
class AmmoBinLoad(Record):
    """One ammunition bin of a unit's standard load (TripWire line 23: it never changes)."""

    location: str
    slot: int | None
    ammo_type: str
    shots: int


@record
class SlotDamage(Record):
    """A damaged critical slot as the last battle file wrote it (``isHit``, ``isDestroyed``,
    ``isMissing``). ``item`` is the slot's ``type`` ("System" or the equipment's name);
    ``system`` the system the design puts there ("gyro"), when the design was known."""

    location: str
    slot: int | None
    item: str
    system: str | None = None
    hit: bool = False
    destroyed: bool | None = None
    missing: bool = False


@record
class UnitDamage(Record):
    """The absolute condition of a unit after a battle, reduced to what the rules price."""

    locations: tuple[LocationDamage, ...] = ()
    critical_hits: int = 0
    ammo_used: tuple[AmmoUse, ...] = ()
    troopers_alive: int | None = None
    troopers_max: int | None = None
    suits_damaged: int = 0
    landing_gear_damaged: bool = False  # DropShips: "Repair Damage to Landing Gear"
    design_known: bool = True  # False: only the file's numbers were known (nothing lost is seen)
    # What the last battle file said, for the scenario export: every ammunition bin with the
    # shots left, and every damaged critical slot. Empty: nothing recorded (as designed).
    ammo_bins: tuple[AmmoBinLoad, ...] = ()
    damaged_slots: tuple[SlotDamage, ...] = ()
    #: What the file keeps outside locations and slots (motive damage, turret lock,
    #: stabilisers, vehicle and aerospace criticals), as written, for the files mekref writes
    #: back (ruling R-IMP-6). Priced only through ``critical_hits``.
    criticals: CriticalResults | None = field(default=None, metadata=OMIT_IF_DEFAULT)

    @property
    def armor_lost(self) -> int:
        return sum(loc.armor_lost for loc in self.locations)

    @property
    def internal_lost(self) -> int:
        return sum(loc.internal_lost for loc in self.locations)


@record
class ReportedPerson(Record):
    person_id: str | None  # the campaign person; None when the file's person is unknown to us
    name: str
    hits: int  # 0-6; 6 is dead ("Dead" in the file)
    ejected: bool = False


@record
class ReportedUnit(Record):
    """One campaign unit as one file saw it."""

    unit_id: str
    display_name: str
    section: RecordSection
    kind: UnitKind
    damage: UnitDamage
    mobility: UnitMobility
    crew: tuple[ReportedPerson, ...] = ()
    crew_damage: int = 0  # vehicles: driver and commander hit results (Heal Vehicle Crew row)
    move_mp: int | None = None  # the design's walk/cruise/ground MP, when the design is known
    matched_by: str = "external_id"  # or "name": chassis + model (+ pilot) was unambiguous


@record
class ReportedEjection(Record):
    """An ejected crew entity: the people on foot, where they stood and who picked them up."""

    person_ids: tuple[str, ...]
    names: tuple[str, ...]
    section: RecordSection
    left_unit_id: str | None
    picked_up_by: str | None  # a campaign unit id, when the file names the rescuer


@record
class ReportedKill(Record):
    """``<kill killed=display name killer=externalId|None>``."""

    killed_name: str
    killed_unit_ids: tuple[str, ...]  # campaign units of that display name in the file
    killer_unit_id: str | None


@record
class BattleFile(Record):
    """One file's content as it was received (kept whole: resolution reads every file)."""

    sha256: str
    path: str
    #: "record", "unit" or "savegame" (MegaMek's root element; ``RootKind``).
    root: str = field(metadata={"allowed": tuple(k.value for k in RootKind)})
    reporting_side: str | None
    units: tuple[ReportedUnit, ...]
    ejections: tuple[ReportedEjection, ...] = ()
    kills: tuple[ReportedKill, ...] = ()
    unmatched: tuple[str, ...] = ()  # entities that are no campaign unit (display names)
    #: The side whose token uploaded the file; None for the referee's doors (a watched folder,
    #: 'battle ingest', a referee token). A savegame a side uploads speaks for that side only
    #: (ruling BR-15); the referee's savegame is every side's own view (SG-1).
    uploaded_by: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    #: A savegame's moment, MegaMek's round and phase when it was saved (ruling SG-7: a later
    #: save of a game already in a battle supersedes the earlier one); unset for a MUL.
    game_round: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    game_phase: str = field(default="", metadata=OMIT_IF_DEFAULT)


#: ``BattleFile.root`` of a MegaMek savegame: the server's whole game, not one player's view.
SAVEGAME_ROOT = "savegame"


def file_views(file: BattleFile, side_of_unit: Mapping[str, str]) -> frozenset[str]:
    """The sides whose own view ``file`` is.

    A record (or unit list) is one player's view: its ``reporting_side``, if any. Ruling SG-1:
    a savegame is the server's whole game, so it is the own view of every side with a unit in
    it (docs/megamek-adapter.md), when the referee's doors brought it. Ruling BR-15: one a
    side uploaded is that side's view only; what it says of other sides' units is a claim."""
    if file.root == SAVEGAME_ROOT:
        sides = frozenset(side_of_unit[u.unit_id] for u in file.units if u.unit_id in side_of_unit)
        if file.uploaded_by is not None:
            return sides & {file.uploaded_by}
        return sides
    return frozenset({file.reporting_side}) if file.reporting_side else frozenset()


# --- the resolution ---------------------------------------------------------------------------


@record
class RepairLine(Record):
    armor_sp: int
    armor_deferred_sp: int
    internal_sp: int
    rearm_sp: int
    total_sp: int
    tech_hours: int
    repairable: bool
    needs_repair_facility: bool
    rules: tuple[str, ...] = ()  # "line N: quoted source"


@record
class UnitOutcome(Record):
    unit_id: str
    side_id: str  # owner before the battle
    fate: Fate
    damage: UnitDamage
    repair: RepairLine
    salvaged_by: str | None = None  # the side that takes it
    salvage_reasons: tuple[str, ...] = ()
    must_withdraw: bool = False  # cannot retreat on its own (line 339)
    scrap_wp: int | None = None  # None: cannot be scrapped
    crew_heal_sp: int = 0  # vehicles: 60 per driver/commander hit
    crew_damage: int = 0  # vehicles: driver/commander hit results still to heal
    surrenders_if_retreating: bool = False  # foot infantry with a move of 1 (line 349)
    reasons: tuple[str, ...] = ()  # why this fate: section, rule rows


@record
class PersonOutcome(Record):
    person_id: str
    side_id: str
    hits_before: int
    hits: int
    fate: PersonFate
    heal_cost_sp: int | None  # the next hit's price; None: nothing to heal or not healable
    needs_hospital: bool
    captured_by: str | None = None
    kills: int = 0
    may_train: bool = False
    death_roll: Roll | None = None


@record
class SideOutcome(Record):
    side_id: str
    starting_bv: int
    destroyed_bv: int
    vp_awards: tuple[str, ...]  # "key: +n (line N)"
    vp_delta: int
    commander_lost: bool
    # None when one of the side's own units has no BV (R-VP-6). Logs written before R-VP-6
    # hold a bool read from the partial sum; reports read it again (``retires_known``).
    retires: bool | None  # at or below 50% of starting BV (line 413); None: not known
    # Ruling R-VP-6: the battle's units (any side) that have no BV, imported without a BV
    # table. While any, the shares of BV destroyed (L419-L424) cannot be told: this side's VP
    # for the battle are unknown, ``vp_delta`` is 0 and ``vp_awards`` empty, and nothing is
    # added to its battle VP. Left out of the JSON while empty (old logs, the replay hash).
    units_without_bv: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)

    @property
    def vp_known(self) -> bool:
        return not self.units_without_bv


@record
class Conflict(Record):
    """Two files disagree about one unit or person; the owner's file was used."""

    subject: str
    detail: str


@record
class BattleResolution(Record):
    control_side: str
    track: int  # tracks_completed after this battle
    units: tuple[UnitOutcome, ...]
    people: tuple[PersonOutcome, ...]
    sides: tuple[SideOutcome, ...]
    conflicts: tuple[Conflict, ...]
    closed_by: RefereeNote | None = None  # a referee closed it before every side reported


# A file's and a resolution's texts are made once and kept: the event that records one and the
# battle that holds it are written around that text (``codec_texts``).
keep_texts(BattleFile, BattleResolution)


@record
class Battle(Record):
    battle_id: str
    number: int
    status: BattleStatus = BattleStatus.OPEN
    files: tuple[BattleFile, ...] = ()
    control_side: str | None = None
    control_note: RefereeNote | None = None
    resolution: BattleResolution | None = None
    # The engagement of the strategic map it was fought for (rulings T-E8, T-E9); "" when it
    # has none (a books-only campaign, or a battle the referee confirmed without one).
    engagement_id: str = field(default="", metadata=OMIT_IF_DEFAULT)
    # Why it is held: its files match no open engagement. A held battle does not resolve
    # until the referee confirms it (``confirmed``: who and why). "" when not held.
    held: str = field(default="", metadata=OMIT_IF_DEFAULT)
    confirmed: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # Ruling SG-7: the sha256 of each savegame a later save of the same game superseded. The
    # file stays in ``files`` (it was received; its bytes stay "already applied"), but the
    # battle is resolved from ``in_force`` only.
    superseded: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    # Revised SG-7: the sha256 of each later save that corrected the battle once resolved (it
    # supersedes too, but the battle was not resolved from it: its booked condition was fixed).
    corrected_by: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)

    @property
    def in_force(self) -> tuple[BattleFile, ...]:
        """The files the battle is resolved from: every file but the superseded ones."""
        if not self.superseded:
            return self.files
        return tuple(f for f in self.files if f.sha256 not in self.superseded)

    @cached_property
    def unit_ids(self) -> frozenset[str]:
        # Asked of every open battle for each file that arrives (which battle it joins, which
        # sides it waits for): kept on the instance, so a battle of many files is walked once.
        # A battle is immutable; a new file makes a new one (copy_with copies fields only).
        return frozenset(u.unit_id for f in self.files for u in f.units)


def with_file(battle: Battle, file: BattleFile) -> Battle:
    """``battle`` with ``file`` received. Its unit ids, when already known, are carried forward
    with the new file's instead of walking every file again (a burst of files for one battle
    otherwise cost each file a walk of all the ones before it)."""
    out = replace(battle, files=(*battle.files, file))
    known = vars(battle).get("unit_ids")  # set by the cached property once asked
    if known is not None:
        vars(out)["unit_ids"] = known | {u.unit_id for u in file.units}
    return out


@record
class BattleLedger(Record):
    """The battle side of a campaign: battles, unit damage carried between tracks, VP."""

    # The battles with their indexes (BR-13's look-ups, open battles): see battle_book.
    battles: BattleBook = field(default_factory=BattleBook)
    loadouts: dict[str, tuple[AmmoBinLoad, ...]] = field(default_factory=dict)
    unit_damage: dict[str, UnitDamage] = field(default_factory=dict)
    fates: dict[str, Fate] = field(default_factory=dict)
    captured_people: dict[str, str] = field(default_factory=dict)  # person -> captor side
    kills: dict[str, int] = field(default_factory=dict)  # person -> kills credited
    may_train: dict[str, int] = field(default_factory=dict)  # person -> battle number earned
    trained: dict[str, int] = field(default_factory=dict)  # person -> track of the last training
    crew_damage: dict[str, int] = field(default_factory=dict)  # vehicle -> crew hits to heal
    crew_healed: dict[str, int] = field(default_factory=dict)  # vehicle -> track of last heal
    victory_points: dict[str, int] = field(default_factory=dict)
    bv_override: dict[str, int] = field(default_factory=dict)  # unit -> BV after reconfiguring
    scrapped: tuple[str, ...] = ()
    sold: tuple[str, ...] = ()
    # The designs seen at force import (content key -> design) and each unit's design key
    # (rules/tripwire/designs.py). Left out of the JSON while empty, so campaigns recorded
    # before designs were kept keep their state hash.
    designs: dict[str, StoredDesign] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    unit_designs: dict[str, str] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # Omni configurations each unit owns besides the one it was imported in (L99: once
    # purchased, changing to one costs nothing).
    configurations: dict[str, tuple[str, ...]] = field(
        default_factory=dict, metadata=OMIT_IF_DEFAULT
    )
    # The highest BV of the configurations a unit bought before the campaign (L99,
    # R-FORCE-13); force construction counts the unit at the higher of it and the unit's own BV
    # read then (``configurations.counted_bv``). Logs recorded before kept the count at the
    # purchase here: the same count, unless a BV was recorded for the unit since.
    construction_bv: dict[str, int] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    # Each TO&E lance's last Formation Type change, "side/lance" -> (strategic day or -1
    # without a map, formation): L95's change is paid once per lance and day (R-FORM-1).
    lance_formations: dict[str, tuple[int, str]] = field(
        default_factory=dict, metadata=OMIT_IF_DEFAULT
    )

    def __post_init__(self) -> None:
        battles: Mapping[str, Battle] = self.battles
        if not isinstance(battles, BattleBook):
            # A plain mapping (a test, a caller building a ledger by hand): indexed here once.
            object.__setattr__(self, "battles", BattleBook(battles))
