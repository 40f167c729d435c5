"""The TripWire tables as the deciders consult them: force checks, WarChest, injuries.

The rule set's deciders receive one :class:`TripWire` (``tripwire_rules()``); it loads the TOML
tables once per process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

from mekref.rules.dice import Dice, Roll
from mekref.rules.tripwire import injuries, warchest
from mekref.rules.tripwire.force_check import check_force
from mekref.rules.tripwire.force_report import ForceReport
from mekref.rules.tripwire.model import ForceDescription
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables


@dataclass(frozen=True)
class TripWire:
    name: str = "tripwire"
    tables: TripWireTables = field(default_factory=load_tables)

    def check_force(self, force: ForceDescription) -> ForceReport:
        return check_force(force, self.tables)

    def location_wp(self, location: str) -> int:
        return warchest.location_wp(location, self.tables)

    def dropship_wp(self, dropship_class: str) -> int:
        return warchest.transport_wp(dropship_class, self.tables)

    def cargo_wp_capacity(self, cargo_tons: Fraction) -> int:
        return warchest.cargo_wp_capacity(cargo_tons, self.tables)

    def kia_hits(self) -> int:
        return self.tables.injury_rules.kia_hits

    def heal_cost(self, hits: int) -> int:
        return injuries.heal_cost(hits, self.tables)

    def needs_hospital(self, hits: int) -> bool:
        return injuries.needs_hospital(hits, self.tables)

    def death_roll_due(self, hits: int) -> bool:
        return injuries.death_roll_due(hits, self.tables)

    def roll_death(self, dice: Dice, person_id: str) -> tuple[Roll, bool, Dice]:
        result, dice = injuries.roll_death(dice, person_id, self.tables)
        return result.roll, result.dies, dice


@cache
def tripwire_rules() -> TripWire:
    """The one TripWire judgement every decision uses (tables are read once)."""
    return TripWire()
