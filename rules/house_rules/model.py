"""House-rule campaign state: pilots and staff, morale exemptions, repair jobs, maintenance,
exchange rates.

Fields added after logs were recorded hold OMIT_IF_DEFAULT: while at their default they are left
out of the canonical JSON, so an old log's state keeps its hash."""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.house_rules.acquisition import Acquisition
from mekref.rules.house_rules.advancement import SkillCost
from mekref.rules.house_rules.pilots import PilotStatus
from mekref.rules.house_rules.repairs import BOTCH_MARKS, REPAIR_JOBS, Attempt
from mekref.rules.record_type import Record, record


@record
class Pilot(Record):
    pilot_id: str
    name: str
    xp: int
    hits: int = 0
    status: PilotStatus = PilotStatus.ACTIVE
    battles: int = 0
    #: None: not on record (a pilot added before skills were kept, or without them); such a
    #: pilot cannot spend experience until HRSetPilotSkills (ruling HOUSE-24).
    piloting: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    gunnery: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    lam: bool = field(default=False, metadata=OMIT_IF_DEFAULT)  # pays line 104's extra 6 XP
    xp_spent: int = field(default=0, metadata=OMIT_IF_DEFAULT)


@record
class Technician(Record):
    """Line 168: a technician whose skill follows their MechWarrior's rank."""

    tech_id: str
    name: str
    pilot_id: str
    xp: int = 0


@record
class SupportPerson(Record):
    """Line 170: support personnel (a role other than technician) and their experience."""

    person_id: str
    name: str
    role: str
    xp: int = 0
    contracts: int = 0


@record
class PartJob(Record):
    """One part's repair or replacement attempts (a new part after a failed install starts a
    fresh job under a new id)."""

    part_id: str
    job: str = field(metadata={"allowed": REPAIR_JOBS})
    attempts: tuple[Attempt, ...] = ()
    marks: tuple[str, ...] = field(default=(), metadata={"allowed": BOTCH_MARKS})


@record
class HouseState(Record):
    seed: str = ""
    created: bool = False
    pilots: dict[str, Pilot] = field(default_factory=dict)
    morale_exempt: frozenset[str] = frozenset()
    jobs: dict[str, PartJob] = field(default_factory=dict)
    exchange_rates: dict[str, Fraction] = field(default_factory=dict)
    #: The last search for each item whose bids are still open (bought: closed; a new search
    #: for the item replaces them, ruling HOUSE-23).
    offers: dict[str, Acquisition] = field(default_factory=dict)
    #: The group's price of each skill step (HRSkillCosts, ruling HOUSE-24).
    skill_costs: tuple[SkillCost, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    technicians: dict[str, Technician] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    support: dict[str, SupportPerson] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    #: The quality grade (A-F) each maintained unit or part had after its last check.
    quality: dict[str, str] = field(default_factory=dict, metadata=OMIT_IF_DEFAULT)
    maintenance_checks: int = field(default=0, metadata=OMIT_IF_DEFAULT)
    rolls_used: int = 0
    events_applied: int = 0
