"""Ruling BR-18 (docs/rulings.md): a unit's booked damage corrected by the referee's figures.

The figures start from the damage the battle booked: only the locations named change, each to
the armour and structure left; the rules' ``CorrectCondition`` (revised SG-7) prices the repair
again from the result, by L74 (``| Repair ‘Mechs Entire Armor* # | Tonnage |``), shared by the
points lost (R-COST-1).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_correct import CorrectCondition, UnitCorrection
from mekref.rules.tripwire.battle_correct_unit import (
    LocationFix,
    booked_damage,
    corrected_damage,
    location_named,
)
from mekref.rules.tripwire.battle_model import AmmoBinLoad, RecordSection, UnitDamage
from mekref.rules.tripwire.battle_resolution import repair_line
from mekref.rules.tripwire.table_loader import load_tables

from .states import NOTE, campaign, close, file, fu, mek_locations, run, seen, submit

L74 = "L74: | Repair ‘Mechs Entire Armor* # | Tonnage |"
WHO = "Griffin GRF-1N (r1)"
BOOKED = UnitDamage(
    locations=mek_locations(armor_lost=4),
    critical_hits=1,
    ammo_bins=(AmmoBinLoad(location="Left Leg", slot=1, ammo_type="IS Ammo AC/5", shots=10),),
)


def _fix(loc: str, **figures: object) -> LocationFix:
    return LocationFix(location=loc, **figures)  # type: ignore[arg-type]


def test_only_the_locations_named_change_the_rest_stays_as_booked() -> None:
    after = corrected_damage(BOOKED, [_fix("CT", armor=10)], WHO)
    ct, leg = after.locations
    assert (ct.armor_now, ct.internal_now) == (10, 10)
    assert leg == BOOKED.locations[1]
    assert after == replace(BOOKED, locations=(ct, leg))  # crits, bins: as booked
    gone = corrected_damage(BOOKED, [_fix("left leg", destroyed=True)], WHO)
    assert gone.locations[1].internal_gone and gone.locations[1].armor_now == 0
    # A location lost comes back only with its structure given.
    back = corrected_damage(gone, [_fix("Left Leg", armor=10, internal=8)], WHO)
    assert back.locations == BOOKED.locations


def test_a_location_by_megameks_name_or_short_name_else_refused_naming_them() -> None:
    assert location_named(BOOKED, "ct", WHO) == "Center Torso"
    assert location_named(BOOKED, "CENTER  torso", WHO) == "Center Torso"
    assert location_named(BOOKED, "LL", WHO) == "Left Leg"
    with pytest.raises(Refusal, match=r"has no location 'RT'; its locations: Center Torso "
                       r"\(CT\), Left Leg \(LL\)"):  # fmt: skip
        corrected_damage(BOOKED, [_fix("RT", armor=1)], WHO)


@pytest.mark.parametrize(
    ("fixes", "why"),
    [
        ([_fix("CT", armor=21)], "armour left runs from 0 to 20, got 21"),
        ([_fix("CT", internal=-1)], "structure left runs from 0 to 10, got -1"),
        ([_fix("CT", internal=0, armor=3)], "keeps no armour"),
        ([_fix("CT", destroyed=True, armor=0)], "--destroyed leaves no armour"),
        ([_fix("CT", armor=1), _fix("Center Torso", internal=1)], "given twice"),
        ([], "give the corrected figures"),
    ],
)
def test_figures_out_of_range_are_refused(fixes: list[LocationFix], why: str) -> None:
    with pytest.raises(Refusal, match=why):
        corrected_damage(BOOKED, fixes, WHO)


def test_l74_the_repair_is_priced_again_and_a_unit_not_in_the_battle_is_refused() -> None:
    assert "Tonnage" in L74
    state = campaign((fu("r1"), fu("r2")), (fu("b1"),))
    events, state = run(
        state,
        submit(file("a", seen("r1", RecordSection.SURVIVORS), seen("b1", RecordSection.SURVIVORS))),
    )
    battle_id = events[0].battle_id  # type: ignore[attr-defined]
    # r2 stayed out of it: the referee closes the battle without it.
    _, state = run(state, close(battle_id, "red"))
    battle = state.battles.battles[battle_id]
    with pytest.raises(Refusal, match="booked no outcome for unit r2: it did not fight"):
        booked_damage(battle, "r2")
    damage = corrected_damage(booked_damage(battle, "r1"), [_fix("CT", armor=12)], WHO)
    fix = (UnitCorrection(unit_id="r1", damage=damage),)
    [event], after = run(state, CorrectCondition(battle_id=battle_id, note=NOTE, units=fix,
                                                 actor="Ann"))  # fmt: skip
    [unit] = event.units  # type: ignore[attr-defined]
    assert unit.repair == repair_line(state.units["r1"], damage, load_tables())
    assert unit.repair.armor_sp > 0 == unit.previous_total_sp
    assert after.battles.unit_damage["r1"] == damage
