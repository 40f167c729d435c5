"""Shared helpers for the house-rule tests: the source text, a real biped 'Mech condition, and
the Griffin as a TripWire campaign unit for the tests of the house rules in a TripWire campaign."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from mekref.adapters.megamek.condition import UnitCondition, merge_condition
from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.rules.tripwire.model import TechBase, UnitKind
from mekref.rules.tripwire.state import CampaignUnit

HERE = Path(__file__).parent
LINES = (HERE / "data" / "house_rules.txt").read_text("utf-8").splitlines()
UNITS = HERE.parent / "fixtures" / "megamek" / "units"
#: The real Griffin GRF-1N design, and the Griffin as side "s"'s unit "g1" of a TripWire campaign.
GRIFFIN = parse_mtf((UNITS / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "griffin")
GRIFFIN_UNIT = CampaignUnit(
    unit_id="g1",
    side_id="s",
    chassis="Griffin",
    model="GRF-1N",
    kind=UnitKind.MEK,
    tonnage=Fraction(55),
    bv=1,
    tech_base=TechBase.INNER_SPHERE,
    company="",
    lance="",
    roles=frozenset(),
    crew=(),
)


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
