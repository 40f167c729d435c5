"""L143 "One weapon is unusable." in a TripWire campaign marks the weapon's critical slot even
when the design's weapon list and its slots spell it differently (``AC/5`` against
``Autocannon/5``, ``ER Large Laser`` against ``ISERLargeLaser``); issue 29."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hr_helpers import GRIFFIN_UNIT, LINES, UNITS

from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.rules.dice import Dice
from mekref.rules.house_rules.random_damage import (
    DamageResult,
    Effect,
    PreBattleDamage,
    same_equipment,
)
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.turn import rolled_damage as rd
from mekref.rules.tripwire.turn.pre_damage import weapons_of


def _design(name: str):  # type: ignore[no-untyped-def]
    return parse_unit_file((UNITS / name).read_bytes(), name)


@pytest.mark.parametrize(
    ("file", "weapon", "slot_name", "location"),
    [
        ("Marauder MAD-3R.mtf", "AC/5", "Autocannon/5", "Right Torso"),
        ("Atlas AS7-D.mtf", "AC/20", "Autocannon/20", "Right Torso"),
    ],
)
def test_a_weapon_made_unusable_marks_its_slot_whatever_the_spelling(
    file: str, weapon: str, slot_name: str, location: str
) -> None:
    assert "One weapon is unusable." in LINES[142]
    design = _design(file)
    assert weapon in weapons_of(design)
    unit = replace(GRIFFIN_UNIT, chassis=design.chassis, model=design.model)
    rolled = PreBattleDamage(
        unit_id="g1",
        count_roll=2,
        results=(
            DamageResult(
                roll=9,
                kind="weapon_unusable",
                line=143,
                effects=(Effect(kind="weapon_unusable", detail=weapon),),
            ),
        ),
    )
    fresh = rd.condition_of(unit, design, None, None)
    applied, _, _ = rd.pre_battle(unit, design, fresh, Fate.OPERATIONAL, rolled, Dice("1"))
    # Before: "AC/5 has no slot to mark; the referee applies it", and no slot was hit.
    assert not any("has no slot to mark" in n for n in applied.notes)
    hit = [(s.location, s.item) for s in applied.damage.damaged_slots]
    assert len(hit) == 1 and hit[0][0] == location and hit[0][1] == slot_name


@pytest.mark.parametrize(
    ("slot", "weapon", "same"),
    [
        ("Autocannon/5", "AC/5", True),
        ("Autocannon/20", "AC/20", True),
        ("ISERLargeLaser", "ER Large Laser", True),
        ("Medium Laser", "Medium Laser", True),
        ("Autocannon/20", "AC/5", False),
        ("IS Ammo AC/5", "AC/5", False),
        ("Large Laser", "ER Large Laser", False),
    ],
)
def test_same_equipment(slot: str, weapon: str, same: bool) -> None:
    assert same_equipment(slot, weapon) is same
