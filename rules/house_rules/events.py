"""Events of the house-rule modules (registered as ``HR...``); each carries what its fold needs."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from mekref.rules.house_rules.acquisition import Acquisition
from mekref.rules.house_rules.mapsheets import Battlefield
from mekref.rules.house_rules.missions import MissionRoll
from mekref.rules.house_rules.morale import MoraleTest
from mekref.rules.house_rules.pilots import PilotStatus
from mekref.rules.house_rules.random_damage import PreBattleDamage
from mekref.rules.house_rules.repairs import Attempt
from mekref.rules.house_rules.retreat import RetreatResult
from mekref.rules.messages import EVENTS, Event, RefereeNote


@EVENTS.register("HRSetUpDone")
@dataclass(frozen=True, kw_only=True)
class SetUpDone(Event):
    seed: str
    actor: str


@EVENTS.register("HRPilotJoined")
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


@EVENTS.register("HRBattleReported")
@dataclass(frozen=True, kw_only=True)
class BattleReported(Event):
    battle_id: str
    changes: tuple[PilotChange, ...]


@EVENTS.register("HRPilotReturned")
@dataclass(frozen=True, kw_only=True)
class PilotReturned(Event):
    pilot_id: str
    note: RefereeNote


@EVENTS.register("HRMoraleTested")
@dataclass(frozen=True, kw_only=True)
class MoraleTested(Event):
    test: MoraleTest


@EVENTS.register("HRPreBattleDamageRolled")
@dataclass(frozen=True, kw_only=True)
class PreBattleDamageRolled(Event):
    damage: PreBattleDamage


@EVENTS.register("HRMapSheetsRolled")
@dataclass(frozen=True, kw_only=True)
class MapSheetsRolled(Event):
    battle_id: str
    battlefield: Battlefield


@EVENTS.register("HRRetreatRolled")
@dataclass(frozen=True, kw_only=True)
class RetreatRolled(Event):
    result: RetreatResult


@EVENTS.register("HRAcquisitionRolled")
@dataclass(frozen=True, kw_only=True)
class AcquisitionRolled(Event):
    acquisition: Acquisition


@EVENTS.register("HRMissionRolled")
@dataclass(frozen=True, kw_only=True)
class MissionRolled(Event):
    result: MissionRoll


@EVENTS.register("HRRepairAttempted")
@dataclass(frozen=True, kw_only=True)
class RepairAttempted(Event):
    part_id: str
    job: str
    attempt: Attempt
    target: int  # the target number with the Elite retry modifier
    roll: int
    mark: str | None  # the botch mark a failure leaves, "(R)", "(V)" or "(E)"


@EVENTS.register("HRExchangeRateSet")
@dataclass(frozen=True, kw_only=True)
class ExchangeRateSet(Event):
    currency: str
    c_bills: Fraction
