"""The house rules' maintenance check as an option of a TripWire campaign (house rules line 94,
TripWire line 199). Rulings HOUSE-40 to HOUSE-43; the console script's run is in
tests/turn/test_turn_house_maintenance_cli.py.

House L94: "Maintenance has a -3 TN modifier. Add 1 to the MOS target for all good effects on the
Maintenance Check Table."
TripWire L199: "Maintenance – One day in every 7 days of operation standard maintenance must be
conducted (6 hours per unit). If this is not done, roll for location (using front) and roll a
critical hit (2 if a floating grit is rolled). this can be ignored by the Rugged quirk."

The dice (the kernel's named rolls, read from the seeds): seed "9" rolls 3 for "maintenance
check 1, g1" and then 5 for "maintenance check location (front), g1" (the Right Leg); seed "15"
rolls 12 for the check.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hr_helpers import GRIFFIN, GRIFFIN_UNIT, LINES, UNITS

from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.rules.codec import canonical_json
from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.acting_side import acting_side
from mekref.rules.tripwire.battle_model import BattleLedger, Fate
from mekref.rules.tripwire.designs import stored_design
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, MaintenanceQuality
from mekref.rules.tripwire.turn import rolled_damage as rd
from mekref.rules.tripwire.turn.events import UnitDamageRolled
from mekref.rules.tripwire.turn.house_maintenance import (
    CheckMaintenance,
    HouseMaintenanceChecked,
    decide,
    evolve,
)
from mekref.rules.tripwire.turn.state import Formation, StrategicState

TRIPWIRE_TEXT = Path(__file__).parents[1] / "rules" / "data" / "operation_tripwire.txt"
L94 = (
    "Maintenance has a -3 TN modifier. Add 1 to the MOS target for all good effects on the "
    "Maintenance Check Table."
)
L199 = (
    "Maintenance – One day in every 7 days of operation standard maintenance must be conducted "
    "(6 hours per unit). If this is not done, roll for location (using front) and roll a "
    "critical hit (2 if a floating grit is rolled). this can be ignored by the Rugged quirk."
)
BULLDOG = parse_unit_file(
    (UNITS / "Bulldog Medium Tank.blk").read_bytes(), "Bulldog Medium Tank.blk"
)
UNIT = GRIFFIN_UNIT


def _state(
    *, action: str = "maintenance", house: bool = True, design: bool = True
) -> CampaignState:
    """Day 2 being written; formation alpha (the Griffin) took ``action`` on day 1."""
    alpha = Formation(
        formation_id="alpha",
        side_id="s",
        name="Alpha",
        unit_ids=("g1",),
        hex="1105",
        action_streak=(action, 1) if action else ("", 0),
    )
    strategic = StrategicState(
        map_name="ginestra",
        map_text="",
        attacker="t",
        defender="s",
        day=2,
        formations={"alpha": alpha},
    )
    battles = BattleLedger()
    if design:
        battles = BattleLedger(
            designs={"griffin": stored_design(GRIFFIN)}, unit_designs={"g1": "griffin"}
        )
    return CampaignState(
        created=True,
        name="c",
        ruleset="tripwire",
        seed="1",
        units={"g1": UNIT},
        strategic=strategic,
        battles=battles,
        house_rules=house,
    )


def _check(state: CampaignState, seed: str, tn: int, quality: str = "") -> list[Event]:
    cmd = CheckMaintenance(actor="r", unit_id="g1", target_number=tn, quality=quality)
    return decide(state, cmd, Dice(seed), TripWire())


def test_the_sources_say_what_the_tests_quote() -> None:
    assert L94 in LINES[93]
    assert TRIPWIRE_TEXT.read_text("utf-8").splitlines()[198] == L199


def test_ruling_refused_without_the_house_rules_out_of_play_or_not_maintained() -> None:
    """HOUSE-40, HOUSE-41: without the house rules the refusal quotes L94; a unit out of play
    is refused; a formation whose last day resolved was not maintenance is refused quoting
    L199 ("standard maintenance must be conducted")."""
    with pytest.raises(Refusal) as no_house:
        _check(_state(house=False), "9", 7, "A")
    assert no_house.value.code == "no_house_rules" and "L94" in str(no_house.value)
    gone = replace(_state(), battles=BattleLedger(fates={"g1": Fate.TRULY_DESTROYED}))
    with pytest.raises(Refusal) as out:
        _check(gone, "9", 7, "A")
    assert out.value.code == "out_of_play" and "truly destroyed" in str(out.value)
    with pytest.raises(Refusal) as idle:
        _check(_state(action="guard"), "9", 7, "A")
    assert idle.value.code == "not_maintained" and "L199" in str(idle.value)
    with pytest.raises(Refusal):
        _check(_state(action=""), "9", 7, "A")


def test_ruling_the_grade_is_named_once_then_kept() -> None:
    """HOUSE-41: the first check needs --quality (never a default); the grade it leaves is
    kept and the next check reuses it; one check per maintenance day."""
    with pytest.raises(Refusal) as missing:
        _check(_state(), "15", 7)
    assert missing.value.code == "no_quality" and "--quality" in str(missing.value)
    (checked,) = _check(_state(), "15", 7, "A")
    assert isinstance(checked, HouseMaintenanceChecked)
    after = evolve(_state(), checked)
    assert after.house_quality == {"g1": MaintenanceQuality(grade="B", checks=1, last_day=1)}
    with pytest.raises(Refusal) as again:
        _check(after, "15", 7)
    assert again.value.code == "already_checked"
    # Next week's maintenance day (day 8 resolved, day 9 written): B is reused.
    s = after.strategic
    assert s is not None
    later = replace(after, strategic=replace(s, day=9))
    (second,) = _check(later, "15", 7)
    assert isinstance(second, HouseMaintenanceChecked)
    assert (second.check.quality_before, second.check.roll, second.check.margin) == ("B", 5, 1)
    assert second.rolls[0].name == "maintenance check 2, g1"
    with pytest.raises(Refusal) as other:
        _check(later, "15", 7, "D")
    assert other.value.code == "quality_kept"
    # The grade is left out of the state's JSON until a check names one (old logs unchanged).
    assert "house_quality" not in canonical_json(_state())


def test_ruling_the_target_is_the_referees_less_three_and_good_effects_need_one_more() -> None:
    """HOUSE-40 and L94: roll 12 against the referee's 11 - 3 = 8 is a margin of +4, the
    table's good effect for A; with L94's +1 it needs +5, so A stays A. Against 10 - 3 = 7 the
    margin is +5: A becomes B."""
    (stays,) = _check(_state(), "15", 11, "A")
    assert isinstance(stays, HouseMaintenanceChecked)
    c = stays.check
    assert (c.base_target, c.target, c.roll, c.margin, c.improve_needed) == (11, 8, 12, 4, 5)
    assert c.quality_after == "A"
    (better,) = _check(_state(), "15", 10, "A")
    assert isinstance(better, HouseMaintenanceChecked)
    assert (better.check.margin, better.check.quality_after) == (5, "B")


def test_ruling_damage_points_land_at_a_front_location_roll() -> None:
    """HOUSE-42: roll 3 against 10 - 3 = 7 is a margin of -4: grade A takes 2 points (its band
    -4). L199's "roll for location (using front)": a 5 is the Right Leg, which loses 2 armour.
    The damage is a UnitDamageRolled with cause "maintenance check" (what the report prices)."""
    checked, damaged = _check(_state(), "9", 10, "A")
    assert isinstance(checked, HouseMaintenanceChecked) and isinstance(damaged, UnitDamageRolled)
    assert (checked.check.margin, checked.check.damage, checked.check.destroyed) == (-4, 2, False)
    assert damaged.cause == "maintenance check"
    assert [r.name for r in damaged.rolls] == ["maintenance check location (front), g1"]
    assert damaged.rolls[0].total == 5
    assert [(x.location, x.armor, x.internal) for x in damaged.lines] == [("Right Leg", 2, 0)]
    assert damaged.fate is Fate.DAMAGED
    assert damaged.notes[0].startswith("maintenance check: 2d6 3 vs TN 7 (base 10, -3 by L94)")


def test_ruling_a_destroyed_part_is_a_critical_hit_there() -> None:
    """HOUSE-42: roll 3 against 13 - 3 = 10 is a margin of -7: grade A takes 4 points, which
    destroy the part (the table's destroyed_at). The part is one critical hit on the Right Leg
    (its slot rolled, T-DM3), and no armour."""
    checked, damaged = _check(_state(), "9", 13, "A")
    assert isinstance(checked, HouseMaintenanceChecked) and isinstance(damaged, UnitDamageRolled)
    assert (checked.check.damage, checked.check.destroyed) == (4, True)
    (line,) = damaged.lines
    assert line.location == "Right Leg" and line.slot is not None and not line.armor
    assert damaged.damage.critical_hits == 1


def test_ruling_a_vehicles_destroyed_part_and_a_unit_without_design_are_the_referees() -> None:
    """HOUSE-42, T-DM5: a vehicle's points land on its front column; its destroyed part is a
    note. A unit without a design: the check is recorded, the damage left to the referee."""
    tank = replace(UNIT, kind=UnitKind.COMBAT_VEHICLE)
    fresh = rd.condition_of(tank, BULLDOG, None, None)
    applied, _, _ = rd.maintenance_check(
        tank, BULLDOG, fresh, Fate.OPERATIONAL, 7, 4, True, Dice("1")
    )
    assert not applied.hits and "the referee applies it" in applied.notes[0]
    points, _, _ = rd.maintenance_check(
        tank, BULLDOG, fresh, Fate.OPERATIONAL, 7, 2, False, Dice("1")
    )
    assert [(x.armor, x.internal) for x in points.hits] == [(2, 0)]
    (alone,) = _check(_state(design=False), "9", 10, "A")
    assert isinstance(alone, HouseMaintenanceChecked)
    assert "no design" in alone.notes[0] and "the referee applies" in alone.notes[0]


def test_ruling_the_check_is_the_referees_command() -> None:
    """HOUSE-43: no side gives it (acting_side None), over gRPC too."""
    cmd = CheckMaintenance(actor="r", unit_id="g1", target_number=7, quality="A")
    assert acting_side(_state(), cmd) is None


def test_a_good_check_raises_the_grade_and_leaves_the_condition() -> None:
    """L94: roll 12 against 7 - 3 = 4 is a margin of +8; C's good effect (table +5) needs +6:
    C becomes D. No damage band is reached: no location roll, no rolled damage."""
    events = _check(_state(), "15", 7, "C")
    (checked,) = events
    assert isinstance(checked, HouseMaintenanceChecked)
    assert (checked.check.margin, checked.check.improve_needed) == (8, 6)
    assert (checked.check.quality_after, checked.check.damage) == ("D", 0)
    after = evolve(_state(), checked)
    assert after.battles == _state().battles
    assert after.house_quality["g1"].grade == "D"
