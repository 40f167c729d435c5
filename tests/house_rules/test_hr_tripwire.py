"""The house rules as options of a TripWire campaign: random pre-battle damage (house rules lines
134-152) laid on a TripWire unit's stored condition, and the morale test (lines 105-133).
Rulings HOUSE-31 to HOUSE-35; the console script's runs are in
tests/turn/test_turn_house_pre_damage_cli.py.

L134: "Utilize the random damage table to represent units that have been engaged in combat
before the actual battle. For each unit roll 1d6 and divide the result by 2 rounding down. This
result is the number of times to roll on the Random Damage Table for that unit. Roll 3d6 when
consulting the Random Damage Table."
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hr_helpers import GRIFFIN, GRIFFIN_UNIT, LINES, UNITS

from mekref.adapters.megamek.design import SystemKind
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.rules.codec import canonical_json, decode, to_jsonable
from mekref.rules.dice import Dice
from mekref.rules.house_rules.random_damage import (
    DamageResult,
    Effect,
    LocationDamage,
    PreBattleDamage,
)
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import AmmoBinLoad, BattleLedger, Fate, UnitDamage
from mekref.rules.tripwire.commands import CreateCampaign, SideSpec
from mekref.rules.tripwire.events import CampaignCreated
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, Person
from mekref.rules.tripwire.turn import damage_work
from mekref.rules.tripwire.turn import rolled_damage as rd
from mekref.rules.tripwire.turn.house_morale import HouseMoraleTested, TestMorale
from mekref.rules.tripwire.turn.pre_damage import RollPreBattleDamage, decide, weapons_of

UNIT = GRIFFIN_UNIT


def _fresh() -> UnitDamage:
    return rd.condition_of(UNIT, GRIFFIN, None, None)


def _rolled(
    *damage: LocationDamage, effects: tuple[Effect, ...] = (), roll: int = 5, line: int = 139
) -> PreBattleDamage:
    result = DamageResult(roll=roll, kind="x", line=line, damage=damage, effects=effects)
    return PreBattleDamage(unit_id="g1", count_roll=2, results=(result,))


def _lay(
    rolled: PreBattleDamage, loadout: tuple[AmmoBinLoad, ...] = ()
) -> tuple[damage_work.Applied, tuple[str, ...]]:
    applied, rolls, _ = rd.pre_battle(
        UNIT, GRIFFIN, _fresh(), Fate.OPERATIONAL, rolled, Dice("1"), loadout
    )
    return applied, tuple(r.name for r in rolls)


def _loc(damage: UnitDamage, name: str) -> tuple[int, int]:
    (loc,) = [x for x in damage.locations if x.name == name]
    return loc.armor_now, loc.internal_now


def test_ruling_pre_battle_damage_is_laid_as_tripwire_rolled_damage() -> None:
    """HOUSE-31. L148: "10 points of damage to one location. Use front hit location table and
    ignore head hits." — laid as T-DM1/T-DM3 lay rolled damage: armour, then structure (which
    rolls for criticals), then inward; damage on the head is a hit on the MechWarrior (T-DM4)."""
    assert LINES[147].startswith("14 | 10 points of damage to one location.")
    armor, internal = _loc(_fresh(), "Left Arm")
    points = armor + 2
    applied, rolls = _lay(_rolled(LocationDamage(location="Left Arm", points=points)))
    assert _loc(applied.damage, "Left Arm") == (0, internal - 2)
    assert applied.fate is Fate.DAMAGED
    # Structure damaged: a roll on the Determining Critical Hits table, named for the unit.
    assert "pre-battle damage, g1: critical chance, Left Arm" in rolls
    # The house rules' own condition (HOUSE-12) rolls no criticals; the campaign's does.
    applied, _ = _lay(_rolled(LocationDamage(location="Head", points=2), roll=16, line=150))
    assert applied.head_hits == 1


def test_ruling_front_and_back_is_one_armour_figure() -> None:
    """HOUSE-32. L149: "Roll 1d6, apply result as damage to all left side locations front and
    back." — the campaign keeps a location's armour as one figure (T-X2): the side torso's
    front and rear hits both come off it, each from its own side of the kept split."""
    assert LINES[148].startswith("15 | Roll 1d6, apply result as damage to all left side")
    armor, _ = _loc(_fresh(), "Left Torso")
    applied, _ = _lay(
        _rolled(
            LocationDamage(location="Left Torso", points=3),
            LocationDamage(location="Left Torso", points=3, rear=True),
            roll=15,
            line=149,
        )
    )
    assert _loc(applied.damage, "Left Torso")[0] == armor - 6
    # The rear's share is kept (T-X2): the rear hit took its 3 from the rear, the front hit
    # its 3 from the front.
    (torso,) = [x for x in applied.damage.locations if x.name == "Left Torso"]
    assert torso.rear_max is not None and torso.rear_now == torso.rear_max - 3


def _slots(damage: UnitDamage) -> list[tuple[str, int | None, str | None]]:
    return [(s.location, s.slot, s.system or s.item) for s in damage.damaged_slots]


def test_ruling_the_effects_mark_the_slots_they_name() -> None:
    """HOUSE-33. L147 "Engine has one critical hit." L145 "Leg actuator damaged. Determine at
    random and ignore hip." L143 "One weapon is unusable." L146 "Two heat sinks damaged."
    L144 "One weapon generates +2 heat per use." """
    effects = (
        Effect(kind="engine_hit", detail=SystemKind.ENGINE.value),
        Effect(kind="leg_actuator", detail=SystemKind.FOOT.value, location="Left Leg"),
        Effect(kind="weapon_unusable", detail="PPC"),
        Effect(kind="heat_sinks", count=2),
        Effect(kind="weapon_heat", detail="Medium Laser", count=2),
    )
    applied, _ = _lay(_rolled(effects=effects))
    slots = _slots(applied.damage)
    assert slots[0] == ("Center Torso", 1, "engine")
    assert slots[1][0] == "Left Leg" and slots[1][2] == "foot"
    assert slots[2] == ("Right Arm", 5, "PPC")
    # The Griffin has one heat sink with a critical slot; the other is in the engine.
    assert slots[3][2] == "Heat Sink" and len(slots) == 4
    assert applied.damage.critical_hits == 4
    assert any("1 heat sink(s) damaged" in n for n in applied.notes)
    assert any("Medium Laser generates +2 heat per use (L144)" in n for n in applied.notes)


def test_ruling_ammunition_expended_or_halved_is_billed_on_rearming() -> None:
    """HOUSE-33. L137 "All ammunition expended." L140 "Ammo in one weapon is halved." — the
    bins go out with the shots left, and re-arming bills what was lost."""
    lrm = "IS Ammo LRM-10"
    # The import's load (T-X3): the Griffin's two LRM-10 bins, 12 shots a ton, full.
    load = (
        AmmoBinLoad(location="Right Torso", slot=5, ammo_type=lrm, shots=12),
        AmmoBinLoad(location="Right Torso", slot=6, ammo_type=lrm, shots=12),
    )
    assert rd.ammo_types(GRIFFIN, load) == (lrm,)
    halved, _ = _lay(_rolled(effects=(Effect(kind="ammo_halved", detail=lrm),)), load)
    assert [b.shots for b in halved.damage.ammo_bins] == [6, 6]
    assert sum(u.tons for u in halved.damage.ammo_used) == Fraction(6, 12) + Fraction(6, 12)
    spent, _ = _lay(_rolled(effects=(Effect(kind="ammo_expended"),)), load)
    assert [b.shots for b in spent.damage.ammo_bins] == [0, 0]
    assert sum(u.tons for u in spent.damage.ammo_used) == 2
    # No count of the shots (no import load, never fought): the design's bins were full; all
    # of it is lost when expended, and halving is the referee's (a note, never a guess).
    assert rd.ammo_types(GRIFFIN, ()) == (lrm,)
    spent, _ = _lay(_rolled(effects=(Effect(kind="ammo_expended"),)))
    assert [(b.slot, b.shots) for b in spent.damage.ammo_bins] == [(5, 0), (6, 0)]
    assert sum(u.tons for u in spent.damage.ammo_used) == 2
    halved, _ = _lay(_rolled(effects=(Effect(kind="ammo_halved", detail=lrm),)))
    assert halved.damage.ammo_bins == () and any("no count of its shots" in n for n in halved.notes)


def _state(**kw: object) -> CampaignState:
    return CampaignState(created=True, name="c", ruleset="tripwire", seed="1", **kw)  # type: ignore[arg-type]


def test_ruling_refused_without_the_house_rules_or_for_a_unit_out_of_play() -> None:
    """HOUSE-31, HOUSE-34: the option is the campaign's; a unit destroyed, captured or missing
    fights no battle to be damaged before."""
    cmd = RollPreBattleDamage(actor="referee", unit_id="g1")
    with pytest.raises(Refusal) as refused:
        decide(_state(units={"g1": UNIT}), cmd, Dice("1"), TripWire())
    assert refused.value.code == "no_house_rules" and "L134" in refused.value.message
    with pytest.raises(Refusal) as refused:
        decide(_state(house_rules=True), cmd, Dice("1"), TripWire())
    assert refused.value.code == "unknown_unit"
    for fate in (Fate.TRULY_DESTROYED, Fate.CAPTURED, Fate.MISSING):
        out = _state(house_rules=True, units={"g1": UNIT}, battles=BattleLedger(fates={"g1": fate}))
        with pytest.raises(Refusal) as exc:
            decide(out, cmd, Dice("1"), TripWire())
        assert exc.value.code == "out_of_play"


def test_the_option_is_recorded_at_creation_and_old_logs_read_unchanged() -> None:
    sides = (SideSpec(side_id="a", name="A"), SideSpec(side_id="b", name="B"))
    create = CreateCampaign(
        actor="cli", name="c", ruleset="tripwire", seed="1", sides=sides, house_rules=True
    )
    (created,) = TRIPWIRE.decide(CampaignState(), create, Dice("1"))
    assert isinstance(created, CampaignCreated) and created.house_rules
    assert TRIPWIRE.evolve(CampaignState(), created).house_rules
    # Without the option the event and the state write no field: older logs and state hashes
    # stay byte for byte what they were.
    plain = CampaignCreated(name="c", ruleset="tripwire", seed="1", sides=sides, actor="cli")
    assert "house_rules" not in to_jsonable(plain)
    assert decode(CampaignCreated, to_jsonable(plain)) == plain
    assert "house_rules" not in canonical_json(CampaignState())


# --- the morale test (house rules lines 105-133) ------------------------------------------------

PILOT = Person(person_id="p1", side_id="s", name="Kai", unit_id="g1", gunnery=3, piloting=4)
CREWED = replace(UNIT, crew=("p1",))


def _morale(state: CampaignState, **kw: Any) -> list[Any]:
    fields: dict[str, Any] = {"battle": "day1-1105-1", "turn": 3, "nationality": "Steiner"}
    cmd = TestMorale(actor="referee", unit_id="g1", **(fields | kw))
    return TRIPWIRE.decide(state, cmd, Dice(state.seed, state.rolls_used))


def test_ruling_the_morale_test_in_a_tripwire_battle() -> None:
    """HOUSE-35. L107: "To test for morale roll 2d6, applying modifiers for unit skill,
    nationality and situation. On a result of 2 or less they route, 3-5 fighting withdrawal,
    6-8 stand ground, 9-11 advance, 12 or more fight to the death. If a unit gets a result of
    less than 2 or greater than 12, the unit no longer makes morale checks." The pilot's
    Piloting 4 and Gunnery 3 combine to 7: Veteran (L163 "Veteran | 4 | 3 | 6 or 7 |"), +1."""
    assert LINES[162].startswith("Veteran | 4 | 3 | 6 or 7 |")
    state = _state(house_rules=True, units={"g1": CREWED}, people={"p1": PILOT})
    (event,) = _morale(state, situations=("force_50",))
    assert isinstance(event, HouseMoraleTested)
    test = event.test
    assert event.skill == "Veteran" and test.reasons == ("Veteran", "Steiner", "force_50")
    assert test.modifier == 1 + 0 - 1
    (roll,) = event.rolls
    assert roll.name == "morale test, unit g1, turn 3" and test.die_total == roll.total
    assert test.total == roll.total + test.modifier
    bands = ((2, "rout"), (5, "fighting_withdrawal"), (8, "stand_ground"), (11, "advance"))
    assert test.result == next((k for top, k in bands if test.total <= top), "fight_to_the_death")
    # The referee may not name another skill than the pilot's rank (HOUSE-27).
    with pytest.raises(Refusal) as refused:
        _morale(state, skill="Green")
    assert refused.value.code == "skill_mismatch"


def test_ruling_a_unit_past_the_bands_tests_no_more_in_that_battle() -> None:
    """HOUSE-35: below 2 or above 12 the unit makes no more morale checks in that battle; its
    next battle tests it again."""
    state = _state(house_rules=True, units={"g1": CREWED}, people={"p1": PILOT})
    worst = ("force_75", "cruise_missile", "force_commander_out", "lance_commander_out")
    # -8 of situations, +1 Veteran, -2 Pirate: a total of 2d6 - 9, below 2 on a 10 or less.
    state = next(
        s for s in (replace(state, seed=str(n)) for n in range(50))
        if _morale(s, nationality="Pirate", situations=worst)[0].test.total < 2
    )  # fmt: skip
    (event,) = _morale(state, nationality="Pirate", situations=worst)
    assert event.test.exempt_from_now and event.test.result == "rout"
    after = TRIPWIRE.evolve(state, event)
    assert after.house_morale_exempt == {"day1-1105-1": ("g1",)}
    with pytest.raises(Refusal) as refused:
        _morale(after)
    assert refused.value.code == "no_more_morale" and "L107" in refused.value.message
    assert len(_morale(after, battle="day2-0508-1")) == 1


def test_ruling_morale_is_for_meks_and_vehicles_of_a_house_rules_campaign() -> None:
    """HOUSE-35. L105: "The following rules apply only to 'Mechs and vehicles. Infantry uses the
    morale rules from Tactical Operations." """
    people = {"p1": PILOT}
    with pytest.raises(Refusal) as refused:
        _morale(_state(units={"g1": CREWED}, people=people))
    assert refused.value.code == "no_house_rules"
    foot = replace(CREWED, kind=UnitKind.CONVENTIONAL_INFANTRY)
    with pytest.raises(Refusal) as refused:
        _morale(_state(house_rules=True, units={"g1": foot}, people=people))
    assert refused.value.code == "not_mek_or_vehicle" and "L105" in refused.value.message
    # No pilot on record: the referee names the skill.
    with pytest.raises(Refusal) as refused:
        _morale(_state(house_rules=True, units={"g1": UNIT}))
    assert refused.value.code == "no_skill"
    (event,) = _morale(_state(house_rules=True, units={"g1": UNIT}), skill="Green")
    assert event.skill == "Green" and event.test.reasons[0] == "Green"


def test_a_ground_vehicle_takes_pre_battle_damage_on_its_locations() -> None:
    """HOUSE-31, HOUSE-21. L138 "Roll 1d6, apply result as damage to all right side locations
    front and back." — a vehicle's side is one location; its weapons to choose from are its
    equipment but the ammunition; what it has no slot for is the referee's (a note)."""
    name = "Bulldog Medium Tank.blk"
    bulldog = parse_unit_file((UNITS / name).read_bytes(), name)
    tank = replace(UNIT, unit_id="b", kind=UnitKind.COMBAT_VEHICLE, chassis=bulldog.chassis)
    fresh = rd.condition_of(tank, bulldog, None, None)
    weapons = weapons_of(bulldog)
    assert weapons and not any("Ammo" in w for w in weapons)
    rolled = PreBattleDamage(
        unit_id="b",
        count_roll=2,
        kind=bulldog.kind,
        results=(
            DamageResult(
                roll=4,
                kind="side_damage",
                line=138,
                damage=(LocationDamage(location="Right", points=5),),
            ),
            DamageResult(
                roll=13, kind="engine_hit", line=147, effects=(Effect(kind="engine_hit"),)
            ),
        ),
    )
    applied, _, _ = rd.pre_battle(tank, bulldog, fresh, Fate.OPERATIONAL, rolled, Dice("1"))
    right = {loc.name: loc for loc in applied.damage.locations}["Right"]
    assert right.armor_now == right.armor_max - 5
    assert applied.notes == (
        "engine critical hit (L147): no engine slot left to mark; the referee applies it",
    )
    assert applied.fate is Fate.DAMAGED
