"""Events of the house-rule modules (registered as ``HR...``); each carries what its fold needs."""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.house_rules.acquisition import Acquisition, Bid
from mekref.rules.house_rules.advancement import SkillCost
from mekref.rules.house_rules.maintenance import MaintenanceResult
from mekref.rules.house_rules.mapsheets import Battlefield
from mekref.rules.house_rules.missions import MissionRoll
from mekref.rules.house_rules.morale import MoraleTest
from mekref.rules.house_rules.pilots import PilotStatus
from mekref.rules.house_rules.random_damage import PreBattleDamage
from mekref.rules.house_rules.repairs import BOTCH_MARKS, Attempt
from mekref.rules.house_rules.retreat import RetreatResult
from mekref.rules.messages import Event, RefereeNote, event_type
from mekref.rules.record_type import Record, record


@event_type("HRSetUpDone")
@record
class SetUpDone(Event):
    seed: str
    actor: str


@event_type("HRPilotJoined")
@record
class PilotJoined(Event):
    pilot_id: str
    name: str
    xp: int
    # Added later: logs written before had no skills (the pilot's are then not on record).
    piloting: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    gunnery: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    lam: bool = field(default=False, metadata=OMIT_IF_DEFAULT)


@event_type("HRPilotSkillsSet")
@record
class PilotSkillsSet(Event):
    pilot_id: str
    piloting: int
    gunnery: int
    rank: str


@event_type("HRSkillCostsSet")
@record
class SkillCostsSet(Event):
    costs: tuple[SkillCost, ...]


@event_type("HRSkillImproved")
@record
class SkillImproved(Event):
    pilot_id: str
    skill: str
    before: int
    after: int
    base_xp: int  # the group's cost of the step
    lam_xp: int  # line 104's extra for a LAM pilot
    xp_left: int
    rank_before: str
    rank_after: str


@record
class PilotChange(Record):
    pilot_id: str
    fought: bool
    xp_gained: int
    hits_before: int
    hits_after: int
    status: PilotStatus


@event_type("HRBattleReported")
@record
class BattleReported(Event):
    battle_id: str
    changes: tuple[PilotChange, ...]


@event_type("HRPilotReturned")
@record
class PilotReturned(Event):
    pilot_id: str
    note: RefereeNote


@event_type("HRMoraleTested")
@record
class MoraleTested(Event):
    test: MoraleTest


@event_type("HRPreBattleDamageRolled")
@record
class PreBattleDamageRolled(Event):
    damage: PreBattleDamage


@event_type("HRMapSheetsRolled")
@record
class MapSheetsRolled(Event):
    battle_id: str
    battlefield: Battlefield


@event_type("HRRetreatRolled")
@record
class RetreatRolled(Event):
    result: RetreatResult


@event_type("HRAcquisitionRolled")
@record
class AcquisitionRolled(Event):
    acquisition: Acquisition


@event_type("HRItemBought")
@record
class ItemBought(Event):
    item: str
    bid_number: int
    bid: Bid  # with ``damaged`` decided: True means roll critical damage for the item (L207)


@event_type("HRMissionRolled")
@record
class MissionRolled(Event):
    result: MissionRoll


@event_type("HRRepairAttempted")
@record
class RepairAttempted(Event):
    part_id: str
    job: str
    attempt: Attempt
    target: int  # the target number with the Elite retry modifier
    roll: int
    #: The botch mark a failure leaves, "(R)", "(V)" or "(E)".
    mark: str | None = field(metadata={"allowed": BOTCH_MARKS})


@event_type("HRExchangeRateSet")
@record
class ExchangeRateSet(Event):
    currency: str
    c_bills: Fraction


@event_type("HRTechnicianJoined")
@record
class TechnicianJoined(Event):
    tech_id: str
    name: str
    pilot_id: str


@event_type("HRTechnicianFeatDone")
@record
class TechnicianFeatDone(Event):
    tech_id: str
    feat: str
    unit_id: str
    xp_gained: int


@event_type("HRSupportJoined")
@record
class SupportJoined(Event):
    person_id: str
    name: str
    role: str


@record
class ContractXp(Record):
    person_id: str
    xp_gained: int  # 0 for a medic (line 170)


@event_type("HRContractServedDone")
@record
class ContractServedDone(Event):
    contract_id: str
    gains: tuple[ContractXp, ...]


@event_type("HRMaintenanceChecked")
@record
class MaintenanceChecked(Event):
    result: MaintenanceResult
