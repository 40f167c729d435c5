"""The folded state of a TripWire campaign: sides, units, people, WarChest pools, the dice
cursor, the battles and the strategic map.

Immutable: the kernel's evolve builds a new state for every event. Maps are plain dicts that are
never mutated after construction (copy on write in the evolvers).
"""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from fractions import Fraction

from mekref.rules import snapshot
from mekref.rules.codec import OMIT_IF_DEFAULT, canonical_chunks
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.battle_model import BattleLedger
from mekref.rules.tripwire.house_seam import Acquisition
from mekref.rules.tripwire.house_xp_ledger import HouseExperience
from mekref.rules.tripwire.model import MegaMekCrew, TechBase, UnitKind, UnitRole
from mekref.rules.tripwire.turn.state import StrategicState


class PersonStatus(StrEnum):
    ACTIVE = "active"
    DEAD = "dead"


class PoolKind(StrEnum):
    LOCATION = "location"  # a strategic location the side controls
    DROPSHIP = "dropship"  # a DropShip's stock (Union 250, Gazelle 2,500)
    CARGO = "cargo"  # any unit with cargo space: 5 WP per cargo ton


@record
class Side(Record):
    side_id: str
    name: str


@record
class CampaignUnit(Record):
    unit_id: str
    side_id: str
    chassis: str
    model: str
    kind: UnitKind
    tonnage: Fraction
    bv: int
    tech_base: TechBase
    company: str
    lance: str
    roles: frozenset[UnitRole]
    crew: tuple[str, ...]  # person ids


@record
class Person(Record):
    person_id: str
    side_id: str
    name: str
    unit_id: str | None
    gunnery: int
    piloting: int
    hits: int = 0
    status: PersonStatus = PersonStatus.ACTIVE
    healed_in_track: int | None = None  # the track count when last healed (one hit per track)
    death_rolled: bool = False  # the death roll for the current 5 hits has been made
    # The L124 type a hire was hired as ("BattleMech", "vehicle", "aerospace fighter", R-SEAT-2);
    # None: not hired, or hired before the type was recorded.
    seat_type: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # What the imported MegaMek list said of the person (abilities, edge...), for the export.
    megamek: MegaMekCrew | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # The commander's role (a UnitRole value) the person held in the first seat when their unit
    # was captured with them: L352's "ranked force/lance commander" (ruling R-RECRUIT-2).
    rank: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # The strategic day of the last heal (L276: a hospital heals one wound per day, R-HEAL-4);
    # None: never healed while the map ran.
    healed_on_day: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@record
class Pool(Record):
    pool_id: str
    side_id: str
    name: str
    kind: PoolKind
    balance: int
    capacity: int | None  # None: a location, no limit
    # PoolKind.LOCATION: the map location it belongs to (L57); None in pools opened before it
    # was recorded, whose name is the location's (R-WHERE-2).
    location: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@record
class ForceCheckRecord(Record):
    side_id: str
    checked: bool  # False: imported "unchecked" on the referee's word
    violations: tuple[str, ...]


@record
class MaintenanceQuality(Record):
    """House rules L94: a unit's quality grade on the Maintenance Check Table (A worst .. F
    best), the number of checks it took and the maintenance day of the last (HOUSE-41)."""

    grade: str
    checks: int
    last_day: int


@record
class HouseOffer(Record):
    """Ammunition a side found with the house rules' acquisition roll (HOUSE-45): where, how
    many tons, and the bids a re-arm chooses from (HOUSE-46)."""

    side_id: str
    pool_id: str
    item: str
    tons: int
    acquisition: Acquisition


@record
class CampaignState(Record):
    created: bool = False
    name: str = ""
    ruleset: str = ""
    seed: str = ""
    rolls_used: int = 0  # the next roll index: every roll ever made advanced it
    events_applied: int = 0
    tracks_completed: int = 0
    sides: dict[str, Side] = field(default_factory=dict)
    units: dict[str, CampaignUnit] = field(default_factory=dict)
    people: dict[str, Person] = field(default_factory=dict)
    pools: dict[str, Pool] = field(default_factory=dict)
    force_checks: dict[str, ForceCheckRecord] = field(default_factory=dict)
    # Battles, unit damage carried between tracks, kills and battle VP: the battle rules' own
    # sub-state (rules/tripwire/battles.py folds it).
    battles: BattleLedger = field(default_factory=BattleLedger)
    # The strategic map and the daily turn (formations, orders, weather, unrest): one field so
    # the turn rules keep their own sub-state; None until the map is set up.
    strategic: StrategicState | None = None
    # L84: the bombs bought for each aerospace fighter, by MegaMek bomb type (its internal name)
    # and count, carried into its next scenario export (R-BOMB-1, R-BOMB-2). Left out of the
    # JSON while empty.
    bombs: dict[str, tuple[tuple[str, int], ...]] = field(
        default_factory=dict, metadata=OMIT_IF_DEFAULT
    )
    # The house rules' experience (L153-L154: XP per battle survived, spent on Piloting and
    # Gunnery at the group's costs), rulings HOUSE-36 to HOUSE-39. Left out of the JSON while
    # empty, so a campaign without the house rules keeps its text and hash.
    house_experience: HouseExperience = field(
        default_factory=HouseExperience, metadata=OMIT_IF_DEFAULT
    )
    # The house rules (002_*.txt) as options of this campaign (``campaign new --house-rules``,
    # rulings HOUSE-31 on). Left out of the JSON while False, so older logs decode unchanged.
    house_rules: bool = field(default=False, metadata=OMIT_IF_DEFAULT)
    # House rules L107: the units that make no more morale checks, by battle (HOUSE-35).
    house_morale_exempt: dict[str, tuple[str, ...]] = field(
        default_factory=dict, metadata=OMIT_IF_DEFAULT
    )
    # House rules L94: each unit's maintenance quality grade, once a check named it (HOUSE-41).
    house_quality: dict[str, MaintenanceQuality] = field(
        default_factory=dict, metadata=OMIT_IF_DEFAULT
    )
    # House rules L171-219: open acquisition offers by "side/item" (HOUSE-45, HOUSE-46).
    house_offers: dict[str, HouseOffer] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)


def state_to_text(state: CampaignState) -> str:
    """Canonical JSON of the state; its sha256 is :func:`state_hash`."""
    return "".join(canonical_chunks(state))


def state_from_text(text: str) -> CampaignState:
    """Load a state from :func:`state_to_text`'s text or from a snapshot's (``rules.snapshot``:
    the same JSON, each battle on a line of its own)."""
    return snapshot.state_from_text(CampaignState, text)
