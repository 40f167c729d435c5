"""Shared helpers for the house-rule tests: the source text and a real biped 'Mech condition."""

from __future__ import annotations

from pathlib import Path

from mekref.adapters.megamek.condition import UnitCondition, merge_condition
from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.unit_file import parse_unit_file

HERE = Path(__file__).parent
LINES = (HERE / "data" / "house_rules.txt").read_text("utf-8").splitlines()
UNITS = HERE.parent / "fixtures" / "megamek" / "units"


def griffin() -> UnitCondition:
    """Griffin GRF-1N, undamaged (a 55-ton biped with an LRM 10 and its ammunition)."""
    name = "Griffin GRF-1N.mtf"
    design = parse_unit_file((UNITS / name).read_bytes(), name)
    return merge_condition(Entity("Griffin", "GRF-1N", "Biped"), design)


def bulldog() -> UnitCondition:
    """Bulldog Medium Tank, undamaged (a tracked tank with a turret)."""
    name = "Bulldog Medium Tank.blk"
    design = parse_unit_file((UNITS / name).read_bytes(), name)
    return merge_condition(Entity(design.chassis, design.model, "Tracked"), design)
