"""Commands of the house-rule modules (registered as ``HR...``)."""

from __future__ import annotations

from dataclasses import dataclass

from mekref.rules.messages import Command, RefereeNote, command_type


@command_type("HRSetUp")
@dataclass(frozen=True, kw_only=True)
class SetUp(Command):
    seed: str


@command_type("HRAddPilot")
@dataclass(frozen=True, kw_only=True)
class AddPilot(Command):
    pilot_id: str
    name: str
    #: None: roll the starting experience (line 153).
    starting_xp: int | None = None


@dataclass(frozen=True, kw_only=True)
class PilotHits:
    pilot_id: str
    hits: int  # hits taken in this battle


@command_type("HRReportBattle")
@dataclass(frozen=True, kw_only=True)
class ReportBattle(Command):
    battle_id: str
    fought: tuple[str, ...]
    hits: tuple[PilotHits, ...] = ()


@command_type("HRReturnFromRehabilitation")
@dataclass(frozen=True, kw_only=True)
class ReturnFromRehabilitation(Command):
    pilot_id: str
    note: RefereeNote


@command_type("HRMoraleTest")
@dataclass(frozen=True, kw_only=True)
class MoraleTestCommand(Command):
    unit_id: str
    turn: int
    skill: str  # "Green", "Regular", "Veteran", "Elite"
    nationality: str  # "Kuritan" ... "Word of Blake"
    situations: tuple[str, ...] = ()  # keys of the situation rows ("force_50", "inferno" ...)


@command_type("HRRandomDamage")
@dataclass(frozen=True, kw_only=True)
class RandomDamage(Command):
    unit_id: str
    weapons: tuple[str, ...] = ()
    ammo_types: tuple[str, ...] = ()
    kind: str = "biped_mek"  # a UnitKind value: biped or quad 'Mech, LAM, QuadVee, tank
    locations: tuple[str, ...] = ()  # the unit's location names, when known (a tank's turret)


@command_type("HRMapSheets")
@dataclass(frozen=True, kw_only=True)
class MapSheets(Command):
    """Roll the battlefield: the terrain (unless named) and ``maps`` sheets from its table."""

    battle_id: str
    terrain: str | None = None  # a terrain group ("Hills" ...) or "Solaris VII"
    maps: int = 1


@command_type("HRRetreat")
@dataclass(frozen=True, kw_only=True)
class Retreat(Command):
    unit_id: str
    piloting: int
    modifiers: tuple[str, ...] = ()
    weapons: tuple[str, ...] = ()
    ammo_types: tuple[str, ...] = ()


@command_type("HRAcquire")
@dataclass(frozen=True, kw_only=True)
class Acquire(Command):
    item: str
    availability: str  # "common", "uncommon", "rare", "specific_vehicle", "specific_mech"
    base_cost: int
    logistics_skill: int | None = None


@command_type("HRBuy")
@dataclass(frozen=True, kw_only=True)
class Buy(Command):
    """Buy one bid of the last search for ``item``; a bargain's damage is rolled then (L206)."""

    item: str
    bid: int  # 1-based, as the search listed them


@command_type("HRMissionRoll")
@dataclass(frozen=True, kw_only=True)
class MissionRollCommand(Command):
    mission: str


@command_type("HRRepairAttempt")
@dataclass(frozen=True, kw_only=True)
class RepairAttempt(Command):
    part_id: str
    job: str  # "repair" or "replace"
    team_id: str
    rating: str  # "green", "regular", "veteran", "elite"
    target_number: int  # before the cumulative Elite modifier


@command_type("HRExchangeFluctuation")
@dataclass(frozen=True, kw_only=True)
class ExchangeFluctuation(Command):
    currency: str
