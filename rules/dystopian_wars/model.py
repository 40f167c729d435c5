"""Fleets, squadrons, commodores, territories and the battle in progress."""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from fractions import Fraction

from mekref.rules.record_type import Record, record


class VesselClass(StrEnum):
    """The classes the campaign tables tell apart.

    The first five are the rows of the repair table (lines 232-236); ``MASSIVE`` is a Massive
    vessel that is not a Dreadnought (ruling DW-3).
    """

    SMALL = "small"
    CRUISER_BOMBER = "cruiser_bomber"  # Medium: "Cruisers or Bombers"
    MEDIUM_CAPITAL = "medium_capital"  # Medium: "Med Flyers, Gunships and Carriers"
    LARGE = "large"  # "Battleships, “Specials” and Large Flyers"
    MASSIVE = "massive"
    DREADNOUGHT = "dreadnought"

    @property
    def repair_row(self) -> str:
        # Ruling DW-3: a Massive vessel other than a Dreadnought repairs as a "Special".
        return "large" if self is VesselClass.MASSIVE else self.value

    @property
    def skill_row(self) -> str:
        if self in (VesselClass.SMALL, VesselClass.CRUISER_BOMBER, VesselClass.MEDIUM_CAPITAL):
            return "small_medium"
        return "dreadnought" if self is VesselClass.DREADNOUGHT else "large_massive"

    @property
    def is_medium(self) -> bool:
        return self in (VesselClass.CRUISER_BOMBER, VesselClass.MEDIUM_CAPITAL)

    @property
    def large_or_massive(self) -> bool:
        """The treaty's "Large or Massive Class vessels" (Dreadnoughts are Massive)."""
        return self in (VesselClass.LARGE, VesselClass.MASSIVE, VesselClass.DREADNOUGHT)


class Category(StrEnum):
    NAVAL = "naval"
    AERIAL = "aerial"
    LAND = "land"


class CommodoreStatus(StrEnum):
    ACTIVE = "active"
    CAPTURED = "captured"  # until the ransom is paid


@record
class RepairBill(Record):
    """What a squadron needs after a battle, in table columns (priced by its class row)."""

    minor: bool = False  # damaged ships: the Minor Repairs column, once per squadron
    major_ships: int = 0  # ships lost from a squadron, or a crippled single ship
    replacement: bool = False  # the squadron (or single ship) is gone

    @property
    def empty(self) -> bool:
        return not self.minor and not self.major_ships and not self.replacement


@record
class Squadron(Record):
    squadron_id: str
    name: str
    vessel_class: VesselClass
    category: Category
    ships: int  # afloat now
    ships_max: int
    points: int  # after optional upgrades, before skills
    flagship: bool = False
    shields_per_ship: int = 0
    guardians_per_ship: int = 0
    free_tiny_flyer_wing: bool = False
    xp: int = 0
    skills: tuple[str, ...] = ()
    skill_rolls: int = 0  # experience breaks already rolled for
    destroyed: bool = False
    bill: RepairBill = field(default_factory=RepairBill)
    dry_dock: int = 0  # RP already applied to the bill (line 227, option a)
    broken_next_battle: bool = False

    @property
    def cost(self) -> Fraction:
        """Points with skills: "+10%" of the squadron per skill (line 280)."""
        return Fraction(self.points) * (10 + len(self.skills)) / 10


@record
class Commodore(Record):
    name: str
    xp: int = 0
    prowess: int = 0  # +1 per double 6, -1 per double 1 (Tactical Prowess)
    #: A double 6: "His ship benefits from the Dash and Elan MAR from now on" (line 163).
    dash_and_elan: bool = False
    status: CommodoreStatus = CommodoreStatus.ACTIVE
    games_to_miss: int = 0
    succession: int = 0  # how many commodores this fleet has lost to the injury table

    @property
    def present(self) -> bool:
        return self.status is CommodoreStatus.ACTIVE and self.games_to_miss == 0


@record
class Fleet(Record):
    fleet_id: str
    player: str
    nation: str
    commodore: Commodore
    squadrons: dict[str, Squadron]
    rp: int = 0  # Requisition Points to spend since the last battle
    #: A double 1: the flagship "suffers from the Chaos and Disarray Critical Effect (but not HP
    #: loss) until repaired" (line 165); cleared by the flagship squadron's next repair.
    flagship_chaos: bool = False
    free_replacements_used: int = 0  # since the last battle


@record
class Territory(Record):
    territory_id: str
    kind: str  # a key of tables/territories.toml
    holder: str | None
    lent_to: str | None = None  # a Raid's victor, until it has fought one battle


@record
class Stake(Record):
    fleet_id: str  # who chose the pair
    own: str
    enemy: str


@record
class FieldOrder(Record):
    """A Field Order of the group's deck: 2.3 says only "As per Spartan Games Update", so the
    orders are the campaign's data (ruling DW-24)."""

    number: int
    name: str
    text: str = ""


@record
class MarAssignment(Record):
    """A territory's "One Squadron has the ... MAR", given to one squadron of the fleet using
    the territory; in force while the fleet holds (or has on loan) the territory."""

    territory_id: str
    grant: int  # which of the row's grants (a Refinery has two)
    fleet_id: str
    squadron_id: str
    mar: str


@record
class TerritoryChoice(Record):
    """What a territory's row leaves to the fleet using it: the Airbase's MAR for all its wings
    (line 113), the Fleet Base's two towers (line 111). In force while that fleet uses it."""

    territory_id: str
    fleet_id: str
    choices: tuple[str, ...]


@record
class Battle(Record):
    battle_id: str
    fleets: tuple[str, str]
    chooser: str  # won the strategy roll: stakes first
    battle_type: str  # a key of tables/battle_size.toml
    points: int
    ranks: tuple[int, int]  # the commodores' ranks when the battle was set up
    present: tuple[bool, bool]  # whether each commodore leads (not injured, not captured)
    stakes: tuple[Stake, ...] = ()
    #: The Field Order each fleet drew (numbers of the campaign's deck), when it has one.
    field_orders: tuple[int, ...] = ()


@record
class DystopianState(Record):
    seed: str = ""
    created: bool = False
    fleets: dict[str, Fleet] = field(default_factory=dict)
    territories: dict[str, Territory] = field(default_factory=dict)
    battle: Battle | None = None
    battles_fought: int = 0
    winner: str | None = None
    win_condition: str | None = None
    field_orders: tuple[FieldOrder, ...] = ()  # the group's deck (2.3)
    #: The campaign map's borders (pairs of territory ids), when the referee has entered it.
    borders: tuple[tuple[str, str], ...] = ()
    mar_assignments: tuple[MarAssignment, ...] = ()
    #: The Airbase's wing MAR (line 113) and the Fleet Base's towers (line 111), as chosen.
    wing_mars: tuple[TerritoryChoice, ...] = ()
    towers: tuple[TerritoryChoice, ...] = ()
    rolls_used: int = 0
    events_applied: int = 0

    def held(self, fleet_id: str) -> tuple[Territory, ...]:
        """Territories whose RP and rules the fleet has now (its own unless raided, plus loans)."""
        return tuple(
            t
            for _, t in sorted(self.territories.items())
            if (t.holder == fleet_id and t.lent_to is None) or t.lent_to == fleet_id
        )

    def owned_count(self, fleet_id: str) -> int:
        return sum(1 for t in self.territories.values() if t.holder == fleet_id)


def field_names(state: DystopianState) -> dict[str, tuple[str, ...]]:
    """The names this campaign's commands take, by field (the ``field_names`` hook): the fleets
    and territories the commands look up in ``state`` (``unknown_fleet``, ``unknown_territory``)
    and every fleet's squadrons."""
    territories = tuple(state.territories)
    return {
        "fleet_id": tuple(state.fleets),
        "fleets": tuple(state.fleets),
        "field_order_first": tuple(state.fleets),
        "territory_id": territories,
        "own": territories,
        "enemy": territories,
        "conquest_choice": territories,
        "squadron_id": tuple(s for f in state.fleets.values() for s in f.squadrons),
    }
