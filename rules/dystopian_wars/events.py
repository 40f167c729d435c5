"""What happened in a Dystopian Wars campaign. Each event carries everything its fold needs."""

from __future__ import annotations

from dataclasses import field

from mekref.rules.dystopian_wars.model import (
    Battle,
    FieldOrder,
    Fleet,
    MarAssignment,
    RepairBill,
    Squadron,
    Stake,
    Territory,
    TerritoryChoice,
)
from mekref.rules.messages import Event, event_type
from mekref.rules.record_type import Record, record

#: What defends a staked territory: its fortress, flak towers and the towers its holder named
#: (lines 111 and 122, "Fortress, 2 Flak Towers, 2 Rocket/ Gun/ Tesla Towers").
FORTIFICATIONS = ("Fortress", "Flak Tower", "Rocket Tower", "Gun Tower", "Tesla Tower")
#: How a battle was won: a field order met, more victory points, or neither (a draw).
BATTLE_WON_BY = ("field_order", "victory_points", "draw")
#: How the campaign was won: by territories held, or the commodore's.
WIN_CONDITIONS = ("territories", "commodore")


@event_type("DWCampaignCreated")
@record
class CampaignCreated(Event):
    seed: str
    fleets: tuple[Fleet, ...]
    actor: str
    field_orders: tuple[FieldOrder, ...] = ()


@event_type("DWMapSet")
@record
class MapSet(Event):
    borders: tuple[tuple[str, str], ...]
    reason: str
    actor: str


@event_type("DWMarAssigned")
@record
class MarAssigned(Event):
    assignment: MarAssignment


@event_type("DWWingMarChosen")
@record
class WingMarChosen(Event):
    choice: TerritoryChoice  # one MAR, for all the fleet's wings of Tiny Flyers


@event_type("DWTowersChosen")
@record
class TowersChosen(Event):
    choice: TerritoryChoice  # one kind per tower


@record
class ExtraWing(Record):
    """One "1 extra Wing TT’s" of a territory the fleet uses (lines 112-113)."""

    territory_id: str
    territory: str  # the row's name
    line: int
    #: The Airbase's MAR for all the fleet's wings; None: the row gives none, or not chosen.
    mar: str | None = None
    mar_choices: tuple[str, ...] = ()  # what the row offers (empty: no MAR)


@event_type("DWAirWings")
@record
class AirWings(Event):
    """At the start of a battle: the extra wings of Tiny Flyers a fleet fields free (DW-36)."""

    battle_id: str
    fleet_id: str
    wings: tuple[ExtraWing, ...]


@event_type("DWFortificationsDefend")
@record
class FortificationsDefend(Event):
    """A staked territory's fortifications fight for its holder in this battle (DW-38)."""

    battle_id: str
    fleet_id: str
    territory_id: str
    territory: str  # the row's name
    line: int
    fortifications: tuple[str, ...] = field(metadata={"allowed": FORTIFICATIONS})
    towers_not_chosen: int = 0  # towers whose kind the holder has not named


@event_type("DWTerritoriesGenerated")
@record
class TerritoriesGenerated(Event):
    territories: tuple[Territory, ...]


@event_type("DWTerritoryGranted")
@record
class TerritoryGranted(Event):
    territory_id: str
    fleet_id: str | None
    reason: str
    actor: str


@record
class StrategyScore(Record):
    fleet_id: str
    die: int
    bonus: int  # the rank's Activation Bonus plus Tactical Prowess (0 for a stand-in)
    total: int


@event_type("DWBattleSetUp")
@record
class BattleSetUp(Event):
    battle: Battle
    strategy: tuple[StrategyScore, ...]  # the deciding round of the strategy roll
    size_die: int


@event_type("DWSquadronsBroken")
@record
class SquadronsBroken(Event):
    """Squadrons starting this battle Broken (Opium Traders' roll of 1, or shore leave)."""

    fleet_id: str
    squadron_ids: tuple[str, ...]


@event_type("DWStaked")
@record
class Staked(Event):
    battle_id: str
    stake: Stake


@event_type("DWBattleResolved")
@record
class BattleResolved(Event):
    battle_id: str
    battle_type: str
    victor: str | None  # None: a draw
    how: str = field(metadata={"allowed": BATTLE_WON_BY})  # "field_order" ...
    victory_points: tuple[int, int]


@event_type("DWLoansEnded")
@record
class LoansEnded(Event):
    territory_ids: tuple[str, ...]


@event_type("DWTerritoryTaken")
@record
class TerritoryTaken(Event):
    territory_id: str
    from_fleet: str
    to_fleet: str


@event_type("DWTerritoryLent")
@record
class TerritoryLent(Event):
    """A Raid: the victor has the territory's RP and MARs for one battle (line 205)."""

    territory_id: str
    from_fleet: str
    to_fleet: str


@event_type("DWSquadronAfterBattle")
@record
class SquadronAfterBattle(Event):
    fleet_id: str
    squadron_id: str
    ships: int
    destroyed: bool
    bill: RepairBill
    xp_change: int
    xp: int
    reasons: tuple[str, ...]
    broken_next_battle: bool


@event_type("DWSkillGained")
@record
class SkillGained(Event):
    fleet_id: str
    squadron_id: str
    at_xp: int  # the experience break rolled for
    skill_set: str | None
    skill: str | None  # None: every skill already held or not applicable


@event_type("DWCommodoreExperience")
@record
class CommodoreExperience(Event):
    fleet_id: str
    xp_change: int
    xp: int
    reasons: tuple[str, ...]


@event_type("DWTacticalProwess")
@record
class TacticalProwess(Event):
    fleet_id: str
    change: int
    prowess: int
    genius: bool  # a double 6 was rolled: Dash and Elan for the commodore's ship
    ineptitude: bool  # a double 1 was rolled: Chaos and Disarray until repaired


@event_type("DWCommodoreInjury")
@record
class CommodoreInjury(Event):
    fleet_id: str
    result: str  # a key of the injury table
    hospital_reroll: bool
    successor: str | None  # the new commodore when the old one is dead


@event_type("DWGameMissed")
@record
class GameMissed(Event):
    fleet_id: str
    games_to_miss: int  # left after this battle


@event_type("DWRequisitionGranted")
@record
class RequisitionGranted(Event):
    fleet_id: str
    territory_rp: tuple[tuple[str, int], ...]  # (territory, RP) in territory order
    prize_rp: int
    total: int


@event_type("DWRepaired")
@record
class Repaired(Event):
    fleet_id: str
    squadron_id: str
    rp_spent: int
    free: bool
    complete: bool  # False: points applied, the ship stays in dry dock


@event_type("DWSquadronRequisitioned")
@record
class SquadronRequisitioned(Event):
    fleet_id: str
    squadron: Squadron
    rp_spent: int


@event_type("DWCommodoreReleased")
@record
class CommodoreReleased(Event):
    fleet_id: str
    ransom_rp: int


@event_type("DWCampaignWon")
@record
class CampaignWon(Event):
    fleet_id: str
    condition: str = field(metadata={"allowed": WIN_CONDITIONS})  # "territories" or "commodore"
