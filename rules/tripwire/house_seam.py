"""The declared seam between TripWire and the house rules: everything TripWire takes from them.

A TripWire campaign created with ``--house-rules`` runs the house rules' mechanics (morale,
experience, pre-battle damage, maintenance, acquisition) inside TripWire's own commands. This
module is the only TripWire module that imports :mod:`mekref.rules.house_rules`; the rest of
TripWire imports these names from here, and the import contract in ``.importlinter`` (rule sets
are independent) allows this one edge and no other. TripWire's state and events hold some of
these values (:class:`Acquisition`, :class:`PreBattleDamage`, :class:`SkillCost`), so the seam
carries types as well as functions; a new need from the house rules is added here, in sight.
"""

from __future__ import annotations

from mekref.rules.house_rules.acquisition import Acquisition, acquire, ammo_tons, buy
from mekref.rules.house_rules.advancement import (
    SkillCost,
    StepPrice,
    check_costs,
    morale_skill_for,
    price_step,
    rank_name,
)
from mekref.rules.house_rules.maintenance import (
    GRADES,
    MaintenanceResult,
    check_quality,
    maintenance_check,
)
from mekref.rules.house_rules.morale import MoraleTest, morale_test
from mekref.rules.house_rules.pilots import xp_per_battle
from mekref.rules.house_rules.random_damage import (
    SUPPORTED_KINDS,
    Effect,
    PreBattleDamage,
    roll_pre_battle_damage,
    same_equipment,
)
from mekref.rules.house_rules.table_loader import load_tables as load_house_tables

__all__ = [
    "GRADES",
    "SUPPORTED_KINDS",
    "Acquisition",
    "Effect",
    "MaintenanceResult",
    "MoraleTest",
    "PreBattleDamage",
    "SkillCost",
    "StepPrice",
    "acquire",
    "ammo_tons",
    "buy",
    "check_costs",
    "check_quality",
    "load_house_tables",
    "maintenance_check",
    "morale_skill_for",
    "morale_test",
    "price_step",
    "rank_name",
    "roll_pre_battle_damage",
    "same_equipment",
    "xp_per_battle",
]
