"""Spending between tracks, the messages: repairs, re-arming, training, hiring, selling,
scrapping, ransom.

Each command names the WarChest pool that pays (or receives). Healing a person and moving WP
between pools are the campaign basics' ``HealPerson`` and ``TransferWarChest``. The decisions
live in :mod:`.spending_units` and :mod:`.spending_people`.
"""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.messages import Command, Event, RefereeNote, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.tripwire.battle_model import UnitDamage
from mekref.rules.tripwire.training import Skill, TrainingRoute


class RepairTask(StrEnum):
    ARMOR = "armor"
    INTERNAL = "internal"  # internal structure and critical hits (and DropShip landing gear)
    REARM = "rearm"


class Disposal(StrEnum):
    SCRAP = "scrap"
    SELL = "sell"


# --- commands ---------------------------------------------------------------------------------


@command_type("RepairUnit")
@record
class RepairUnit(Command):
    unit_id: str
    pool_id: str
    task: RepairTask
    # On the strategic map the bay is read from the map (R-WHERE-3).
    at_repair_facility: bool = False  # the referee vouches for a repair bay (needs ``note``)
    # The referee's word where the map cannot say (no position) or is overruled (R-WHERE-1):
    # who and why, recorded in the event; the facility flags count only with it.
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # R-WHERE-1
    # A house-rules campaign's re-arm: the bid bought of each open offer, (item, bid number)
    # (rulings HOUSE-46, HOUSE-47). Left out of the JSON while empty.
    bids: tuple[tuple[str, int], ...] = field(default=(), metadata=OMIT_IF_DEFAULT)


@command_type("HealVehicleCrew")
@record
class HealVehicleCrew(Command):
    """Heal one driver/commander hit of a vehicle crew (60 SP, always a MASH or hospital)."""

    unit_id: str
    pool_id: str
    at_hospital: bool = False  # the referee vouches for a MASH unit or hospital (needs ``note``)
    # The referee's word where the map cannot say (no position) or is overruled (R-WHERE-1):
    # who and why, recorded in the event; the facility flags count only with it.
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # R-WHERE-1


@command_type("ReplaceDropShipCrew")
@record
class ReplaceDropShipCrew(Command):
    """Replace or heal DropShip crew members: 100 SP each."""

    unit_id: str
    pool_id: str
    members: int


@command_type("ReconfigureUnit")
@record
class ReconfigureUnit(Command):
    """Swap an omni unit's pods (or a battle armor's weapons) to a configuration of ``bv``."""

    unit_id: str
    pool_id: str
    configuration: str
    bv: int
    # The referee's word where the map cannot say (no position) or is overruled (R-WHERE-1):
    # who and why, recorded in the event; the facility flags count only with it.
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # R-WHERE-1


@command_type("ChangeFormation")
@record
class ChangeFormation(Command):
    side_id: str
    pool_id: str
    lance: str
    formation: str


@command_type("DisposeUnit")
@record
class DisposeUnit(Command):
    """Scrap or sell a unit; the WP go into ``pool_id``."""

    unit_id: str
    pool_id: str
    how: Disposal


@command_type("RansomPerson")
@record
class RansomPerson(Command):
    """The person's own side pays 100 WP to get them back from their captor.

    L351: "Players may at the end of the campaign pay 100 WP to return captured personnel".
    Allowed once the strategic map has ended the campaign; ``note``: the referee's word that
    the campaign has ended (a campaign played without the strategic map) or an override.
    """

    person_id: str
    pool_id: str
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@command_type("RecruitCaptured")
@record
class RecruitCaptured(Command):
    """The captor rolls 2d6 (+1 per unrest over 7 of the opponent); on 8+ it pays to hire.

    ``opponent_unrest``: the captive's side's unrest rating; on the strategic map it comes from
    the map (None), and a value that differs is refused; without the map it must be given.
    """

    person_id: str
    pool_id: str
    opponent_unrest: int | None = None


@command_type("TrainSkill")
@record
class TrainSkill(Command):
    person_id: str
    pool_id: str
    skill: Skill
    route: TrainingRoute = TrainingRoute.KILL
    # The referee's word to train without a kill (L110) or a second time this track (BR-9),
    # recorded in the event.
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@command_type("HirePerson")
@record
class HirePerson(Command):
    """A new, unassigned pilot or crew at ``gunnery``/``piloting``; the id comes from the caller."""

    person_id: str
    side_id: str
    pool_id: str
    name: str
    gunnery: int
    piloting: int
    vehicle_crew: bool = False
    # The Recruit column hired from: "mechwarrior", "aerospace_pilot" or "vehicle_crew" (lines
    # 220-231); it sets the type the person crews (R-SEAT-2). None: a pilot of either column.
    hire_as: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # The referee's word to hire without a recruit found (R-HIRE-2), recorded in the event.
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@command_type("SeatSparePilot")
@record
class SeatSparePilot(Command):
    """Medical leave (or a death): an unassigned person takes the unit's seat."""

    unit_id: str
    leaving_person_id: str
    spare_person_id: str


@command_type("CombineInfantry")
@record
class CombineInfantry(Command):
    """Two understrength squads/platoons of one type become one (``keep_unit_id`` stays)."""

    keep_unit_id: str
    merge_unit_id: str


@command_type("DeployUnrepaired")
@record
class DeployUnrepaired(Command):
    """The owner chooses not to pay: the unit deploys damaged or short of ammunition."""

    unit_id: str


# --- events -----------------------------------------------------------------------------------


@event_type("UnitRepaired")
@record
class UnitRepaired(Event):
    unit_id: str
    pool_id: str
    task: RepairTask
    cost_sp: int
    tech_hours: int
    damage_after: UnitDamage
    actor: str
    # Where the work was done (the strategic hex; None: the referee's word without a map
    # position) and the technician days it filled, (day, hours) (L64, R-WHERE-4).
    at_hex: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    work_days: tuple[tuple[int, int], ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # R-WHERE-1


@event_type("VehicleCrewHealed")
@record
class VehicleCrewHealed(Event):
    unit_id: str
    pool_id: str
    damage_after: int
    cost_sp: int
    track: int
    actor: str
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # R-WHERE-1


@event_type("DropShipCrewReplaced")
@record
class DropShipCrewReplaced(Event):
    unit_id: str
    pool_id: str
    members: int
    cost_sp: int
    actor: str


@event_type("UnitReconfigured")
@record
class UnitReconfigured(Event):
    unit_id: str
    pool_id: str
    configuration: str
    bv: int
    cost_sp: int
    actor: str
    tech_hours: int = field(default=0, metadata=OMIT_IF_DEFAULT)  # L71, 0 in older events
    # Where the work was done (the strategic hex; None: the referee's word without a map
    # position) and the technician days it filled, (day, hours) (L64, R-WHERE-4).
    at_hex: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    work_days: tuple[tuple[int, int], ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # R-WHERE-1


@event_type("FormationChanged")
@record
class FormationChanged(Event):
    side_id: str
    pool_id: str
    lance: str
    formation: str
    cost_sp: int
    actor: str
    # The strategic day the change was paid on; -1 without a map (R-FORM-1). Older events
    # have none (-1): they paid before the change was limited to one a day.
    day: int = field(default=-1, metadata=OMIT_IF_DEFAULT)


@event_type("UnitDisposed")
@record
class UnitDisposed(Event):
    unit_id: str
    pool_id: str
    how: Disposal
    wp: int
    actor: str


@event_type("PersonRansomed")
@record
class PersonRansomed(Event):
    person_id: str
    pool_id: str
    cost_sp: int
    actor: str
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # R-RANSOM-1


@event_type("CapturedRecruited")
@record
class CapturedRecruited(Event):
    """The recruiting roll (in ``rolls``); on success the captor paid and the person joined."""

    person_id: str
    captor_side: str
    pool_id: str
    succeeds: bool
    modifier: int
    cost_sp: int
    actor: str
    # L352 "(plus the leadership modifier for a ranked force/lance commander)": the part of
    # ``cost_sp`` that is the captive commander's Skill Bonus (ruling R-RECRUIT-2).
    leadership_sp: int = field(default=0, metadata=OMIT_IF_DEFAULT)


@event_type("SkillTrained")
@record
class SkillTrained(Event):
    person_id: str
    pool_id: str
    skill: Skill
    cost_sp: int
    gunnery: int
    piloting: int
    track: int
    actor: str
    # The battle whose kill this training used up (L110: a kill earns one training); None for
    # simulator training and in events recorded before kills were used up.
    kill_battle: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # the override


@event_type("PersonHired")
@record
class PersonHired(Event):
    person_id: str
    side_id: str
    pool_id: str
    name: str
    gunnery: int
    piloting: int
    cost_sp: int
    actor: str
    # The Recruit column the person came from (R-HIRE-2); None: no strategic map, or the
    # referee's word (``note``), or an event recorded before recruits were counted.
    recruit_column: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # The L124 type hired (R-SEAT-2): "BattleMech", "vehicle", "aerospace fighter"; None when
    # the hire did not say (or an event recorded before the type was kept).
    seat_type: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # The training level bought when the skills were rolled (L232, R-HIRE-3); None: skills given.
    rolled_level: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@event_type("SparePilotSeated")
@record
class SparePilotSeated(Event):
    unit_id: str
    leaving_person_id: str
    spare_person_id: str
    actor: str


@event_type("InfantryCombined")
@record
class InfantryCombined(Event):
    keep_unit_id: str
    merge_unit_id: str
    troopers: int
    troopers_max: int
    gunnery: int
    piloting: int
    actor: str


@event_type("DeployedUnrepaired")
@record
class DeployedUnrepaired(Event):
    unit_id: str
    outstanding_sp: int
    actor: str
