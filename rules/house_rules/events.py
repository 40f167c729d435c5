"""Events of the house-rule modules (registered as ``HR...``); each carries what its fold needs."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mekref.rules.house_rules.acquisition import Acquisition, Bid
from mekref.rules.house_rules.mapsheets import Battlefield
from mekref.rules.house_rules.missions import MissionRoll
from mekref.rules.house_rules.morale import MoraleTest
from mekref.rules.house_rules.pilots import PilotStatus
from mekref.rules.house_rules.random_damage import PreBattleDamage
from mekref.rules.house_rules.repairs import Attempt
from mekref.rules.house_rules.retreat import RetreatResult
from mekref.rules.messages import Event, RefereeNote, event_type


@event_type("HRSetUpDone")
@dataclass(frozen=True, kw_only=True)
class SetUpDone(Event):
    seed: str
    actor: str


@event_type("HRPilotJoined")
@dataclass(frozen=True, kw_only=True)
class PilotJoined(Event):
    pilot_id: str
    name: str
    xp: int


@dataclass(frozen=True, kw_only=True)
class PilotChange:
    pilot_id: str
    fought: bool
    xp_gained: int
    hits_before: int
    hits_after: int
    status: PilotStatus


@event_type("HRBattleReported")
@dataclass(frozen=True, kw_only=True)
class BattleReported(Event):
    battle_id: str
    changes: tuple[PilotChange, ...]


@event_type("HRPilotReturned")
@dataclass(frozen=True, kw_only=True)
class PilotReturned(Event):
    pilot_id: str
    note: RefereeNote


@event_type("HRMoraleTested")
@dataclass(frozen=True, kw_only=True)
class MoraleTested(Event):
    test: MoraleTest


@event_type("HRPreBattleDamageRolled")
@dataclass(frozen=True, kw_only=True)
class PreBattleDamageRolled(Event):
    damage: PreBattleDamage


@event_type("HRMapSheetsRolled")
@dataclass(frozen=True, kw_only=True)
class MapSheetsRolled(Event):
    battle_id: str
    battlefield: Battlefield


@event_type("HRRetreatRolled")
@dataclass(frozen=True, kw_only=True)
class RetreatRolled(Event):
    result: RetreatResult


@event_type("HRAcquisitionRolled")
@dataclass(frozen=True, kw_only=True)
class AcquisitionRolled(Event):
    acquisition: Acquisition


@event_type("HRItemBought")
@dataclass(frozen=True, kw_only=True)
class ItemBought(Event):
    item: str
    bid_number: int
    bid: Bid  # with ``damaged`` decided: True means roll critical damage for the item (L207)


@event_type("HRMissionRolled")
@dataclass(frozen=True, kw_only=True)
class MissionRolled(Event):
    result: MissionRoll


@event_type("HRRepairAttempted")
@dataclass(frozen=True, kw_only=True)
class RepairAttempted(Event):
    part_id: str
    job: str
    attempt: Attempt
    target: int  # the target number with the Elite retry modifier
    roll: int
    mark: str | None  # the botch mark a failure leaves, "(R)", "(V)" or "(E)"


@event_type("HRExchangeRateSet")
@dataclass(frozen=True, kw_only=True)
class ExchangeRateSet(Event):
    currency: str
    c_bills: Fraction
