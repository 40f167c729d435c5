"""Commands of the house-rule modules (registered as ``HR...``)."""

from __future__ import annotations

from dataclasses import dataclass

from mekref.rules.messages import COMMANDS, Command, RefereeNote


@COMMANDS.register("HRSetUp")
@dataclass(frozen=True, kw_only=True)
class SetUp(Command):
    seed: str


@COMMANDS.register("HRAddPilot")
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


@COMMANDS.register("HRReportBattle")
@dataclass(frozen=True, kw_only=True)
class ReportBattle(Command):
    battle_id: str
    fought: tuple[str, ...]
    hits: tuple[PilotHits, ...] = ()


@COMMANDS.register("HRReturnFromRehabilitation")
@dataclass(frozen=True, kw_only=True)
class ReturnFromRehabilitation(Command):
    pilot_id: str
    note: RefereeNote


@COMMANDS.register("HRMoraleTest")
@dataclass(frozen=True, kw_only=True)
class MoraleTestCommand(Command):
    unit_id: str
    turn: int
    skill: str  # "Green", "Regular", "Veteran", "Elite"
    nationality: str  # "Kuritan" ... "Word of Blake"
    situations: tuple[str, ...] = ()  # keys of the situation rows ("force_50", "inferno" ...)


@COMMANDS.register("HRRandomDamage")
@dataclass(frozen=True, kw_only=True)
class RandomDamage(Command):
    unit_id: str
    weapons: tuple[str, ...] = ()
    ammo_types: tuple[str, ...] = ()
    kind: str = "biped_mek"  # a UnitKind value: biped or quad 'Mech, LAM, QuadVee, tank
    locations: tuple[str, ...] = ()  # the unit's location names, when known (a tank's turret)


@COMMANDS.register("HRMapSheets")
@dataclass(frozen=True, kw_only=True)
class MapSheets(Command):
    """Roll the battlefield: the terrain (unless named) and ``maps`` sheets from its table."""

    battle_id: str
    terrain: str | None = None  # a terrain group ("Hills" ...) or "Solaris VII"
    maps: int = 1


@COMMANDS.register("HRRetreat")
@dataclass(frozen=True, kw_only=True)
class Retreat(Command):
    unit_id: str
    piloting: int
    modifiers: tuple[str, ...] = ()
    weapons: tuple[str, ...] = ()
    ammo_types: tuple[str, ...] = ()


@COMMANDS.register("HRAcquire")
@dataclass(frozen=True, kw_only=True)
class Acquire(Command):
    item: str
    availability: str  # "common", "uncommon", "rare", "specific_vehicle", "specific_mech"
    base_cost: int
    logistics_skill: int | None = None


@COMMANDS.register("HRMissionRoll")
@dataclass(frozen=True, kw_only=True)
class MissionRollCommand(Command):
    mission: str


@COMMANDS.register("HRRepairAttempt")
@dataclass(frozen=True, kw_only=True)
class RepairAttempt(Command):
    part_id: str
    job: str  # "repair" or "replace"
    team_id: str
    rating: str  # "green", "regular", "veteran", "elite"
    target_number: int  # before the cumulative Elite modifier


@COMMANDS.register("HRExchangeFluctuation")
@dataclass(frozen=True, kw_only=True)
class ExchangeFluctuation(Command):
    currency: str
