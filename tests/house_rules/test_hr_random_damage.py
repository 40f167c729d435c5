"""Random pre-battle damage: the 3d6 table's rows, and the damage applied to a unit's condition."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest
from hr_helpers import bulldog, griffin

from mekref.adapters.megamek.condition import AmmoCondition, UnitCondition
from mekref.adapters.megamek.design import SystemKind
from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.rules.dice import Dice
from mekref.rules.house_rules.random_damage import (
    ARMOR_OR_AMMO,
    BIPED_LOCATIONS,
    QUAD_LOCATIONS,
    QUAD_NAMES,
    DamageResult,
    Effect,
    LocationDamage,
    PreBattleDamage,
    apply_to_condition,
    roll_pre_battle_damage,
)
from mekref.rules.refusal import Refusal

WEAPONS = ("LRM 10", "PPC", "Medium Laser")
AMMO = ("IS LRM10 Ammo",)


def _many() -> list[DamageResult]:
    results: list[DamageResult] = []
    for i in range(400):
        damage, _, _ = roll_pre_battle_damage(
            Dice(f"rd-{i}"), "u", weapons=WEAPONS, ammo_types=AMMO, times=3
        )
        results += damage.results
    return results


RESULTS = _many()


def test_count_is_one_d6_halved() -> None:
    # L134 "roll 1d6 and divide the result by 2 rounding down"
    for i in range(30):
        damage, rolls, _ = roll_pre_battle_damage(Dice(f"count-{i}"), "u")
        assert damage.count_roll == rolls[0].total and rolls[0].sides == 6
        top_level = [r for r in rolls if re.fullmatch(r"random damage \d+, unit u", r.name)]
        assert len(top_level) == damage.count_roll // 2


def test_every_row_turns_up_and_reads_as_printed() -> None:
    kinds = Counter(r.kind for r in RESULTS)
    assert set(kinds) == {
        "ammo_expended", "side_damage", "clusters", "ammo_halved", "heat_sinks", "weapon_unusable",
        "weapon_heat", "leg_actuator", "engine_hit", "one_location", "all_locations", "none",
        "roll_twice",
    }  # fmt: skip
    for r in RESULTS:
        assert 3 <= r.roll <= 18 and r.line == r.roll + 134
        points = sum(d.points for d in r.damage)
        if r.kind == "clusters":
            assert [d.points for d in r.damage] == [5] * (points // 5) and points in (20, 25)
            assert points == (20 if r.roll == 5 else 25)
        elif r.kind == "one_location":
            assert len(r.damage) == 1 and points == 10 and r.damage[0].location != "Head"
        elif r.kind == "all_locations":
            assert {d.location for d in r.damage} == set(BIPED_LOCATIONS) and points == 16
        elif r.kind == "heat_sinks":
            assert r.effects[0].count == (1 if r.roll == 7 else 2)
        elif r.kind == "weapon_heat":
            assert r.effects[0].count == 2 and r.effects[0].detail in WEAPONS
        elif r.kind == "leg_actuator":
            effect = r.effects[0]
            assert effect.location in ("Left Leg", "Right Leg") and effect.detail != "hip"
        elif r.kind == "ammo_halved":
            assert r.effects[0].detail == AMMO[0]


def test_ruling_a_side_row_hits_every_location_of_that_side_front_and_back() -> None:
    # Ruling HOUSE-13 (L138 "apply result as damage to all right side locations front and back").
    side = next(r for r in RESULTS if r.kind == "side_damage" and r.roll == 4)
    points = {d.points for d in side.damage}
    assert len(points) == 1 and 1 <= points.pop() <= 6
    assert {(d.location, d.rear) for d in side.damage} == {
        ("Right Arm", False), ("Right Torso", False), ("Right Leg", False), ("Right Torso", True),
    }  # fmt: skip


def test_roll_twice_rolls_two_more() -> None:
    for i, r in enumerate(RESULTS):
        if r.kind == "roll_twice":
            assert len(RESULTS) > i + 2
            return
    pytest.fail("no 18 rolled")


def test_restricting_to_armor_and_ammo_rerolls_the_rest() -> None:
    for i in range(50):
        damage, _, _ = roll_pre_battle_damage(
            Dice(f"only-{i}"), "u", times=1, only_kinds=ARMOR_OR_AMMO
        )
        assert all(r.kind in ARMOR_OR_AMMO for r in damage.results)


def _damage(*hits: LocationDamage, effects: tuple[Effect, ...] = ()) -> PreBattleDamage:
    return PreBattleDamage(
        unit_id="u",
        count_roll=2,
        results=(DamageResult(roll=5, kind="clusters", line=139, damage=hits, effects=effects),),
    )


def test_ruling_damage_goes_armor_then_structure_then_inward() -> None:
    # Ruling HOUSE-12.
    before = griffin()
    arm, torso = before.location("Right Arm"), before.location("Right Torso")
    assert arm is not None and torso is not None
    through = arm.armor + arm.internal
    after = apply_to_condition(
        before, _damage(LocationDamage(location="Right Arm", points=through + 7))
    )
    arm2, torso2 = after.location("Right Arm"), after.location("Right Torso")
    assert arm2 is not None and torso2 is not None
    assert arm2.destroyed and arm2.armor == 0 and arm2.internal == 0
    assert torso2.armor == torso.armor - 7 and torso2.internal == torso.internal
    assert after.armor_lost == arm.armor + 7
    rear = apply_to_condition(
        before, _damage(LocationDamage(location="Right Torso", points=3, rear=True))
    )
    rt = rear.location("Right Torso")
    assert rt is not None and torso.rear is not None and rt.rear == torso.rear - 3


def test_systems_and_ammunition_effects() -> None:
    bins = (
        AmmoCondition("Left Torso", 1, "IS LRM10 Ammo", 12, 12),
        AmmoCondition("Left Torso", 2, "IS LRM10 Ammo", 11, 12),
        AmmoCondition("Right Torso", 1, "IS SRM2 Ammo", 50, 50),
    )
    before = replace(griffin(), ammo=bins)
    ammo_type = "IS LRM10 Ammo"
    after = apply_to_condition(
        before,
        _damage(
            effects=(
                Effect(kind="engine_hit", detail="engine"),
                Effect(kind="leg_actuator", detail="foot", location="Left Leg"),
                Effect(kind="ammo_halved", detail=ammo_type),
            )
        ),
    )
    assert after.hits(SystemKind.ENGINE) == before.hits(SystemKind.ENGINE) + 1
    assert after.hits(SystemKind.FOOT) == 1
    assert [a.shots for a in after.ammo] == [
        a.shots // 2 if a.ammo_type == ammo_type else a.shots for a in before.ammo
    ]
    empty = apply_to_condition(before, _damage(effects=(Effect(kind="ammo_expended"),)))
    assert all(a.shots == 0 for a in empty.ammo)


def test_rolled_damage_applies_to_a_real_condition() -> None:
    before = griffin()
    for i in range(40):
        damage, _, _ = roll_pre_battle_damage(Dice(f"apply-{i}"), "u", times=2)
        after = apply_to_condition(before, damage)
        assert after.armor_lost + after.internal_lost <= sum(d.points for d in damage.damage)
        assert after.entity == before.entity and after.design == before.design


def test_only_meks_and_ground_vehicles() -> None:
    # Rulings HOUSE-20, HOUSE-21: the tables cover 'Mechs and (through the standard table)
    # ground vehicles; other kinds have no hit-location table here.
    vtol = replace(griffin(), kind=UnitKind.VTOL)
    with pytest.raises(Refusal) as info:
        apply_to_condition(vtol, _damage())
    assert info.value.code == "no_hit_location_table"
    with pytest.raises(Refusal) as info:
        roll_pre_battle_damage(Dice("v"), "u", kind=UnitKind.VTOL)
    assert info.value.code == "no_hit_location_table"
    with pytest.raises(Refusal) as info:
        apply_to_condition(bulldog(), _damage())  # rolled for a biped, applied to a tank
    assert info.value.code == "wrong_hit_location_table"


def _rolled(kind: UnitKind, locations: tuple[str, ...] = ()) -> list[DamageResult]:
    results: list[DamageResult] = []
    for i in range(300):
        damage, _, _ = roll_pre_battle_damage(
            Dice(f"{kind}-{i}"), "u", weapons=WEAPONS, times=3, kind=kind, locations=locations
        )
        assert damage.kind is kind
        results += damage.results
    return results


def _quad() -> UnitCondition:
    """The Griffin's numbers on a four-legged body (MegaMek's QuadMek location numbering)."""
    before = griffin()
    locations = tuple(
        replace(loc, name=QUAD_NAMES.get(loc.name, loc.name)) for loc in before.locations
    )
    return replace(before, kind=UnitKind.QUAD_MEK, locations=locations)


def test_ruling_quads_read_the_tables_through_megameks_numbering() -> None:
    # Ruling HOUSE-20. L138 "Roll 1d6, apply result as damage to all right side locations front
    # and back." L145 "Leg actuator damaged. Determine at random and ignore hip."
    results = _rolled(UnitKind.QUAD_MEK)
    placed = {d.location for r in results for d in r.damage}
    assert placed == set(QUAD_LOCATIONS) and "Right Arm" not in placed
    right = next(r for r in results if r.kind == "side_damage" and r.roll == 4)
    assert {(d.location, d.rear) for d in right.damage} == {
        ("Front Right Leg", False), ("Right Torso", False), ("Rear Right Leg", False),
        ("Right Torso", True),
    }  # fmt: skip
    legs = {ef.location for r in results if r.kind == "leg_actuator" for ef in r.effects}
    assert legs == {"Front Right Leg", "Front Left Leg", "Rear Right Leg", "Rear Left Leg"}
    before = _quad()
    leg = before.location("Front Right Leg")
    torso = before.location("Right Torso")
    assert leg is not None and torso is not None
    after = apply_to_condition(
        before,
        PreBattleDamage(
            unit_id="u",
            count_roll=2,
            kind=UnitKind.QUAD_MEK,
            results=(
                DamageResult(
                    roll=14,
                    kind="one_location",
                    line=148,
                    damage=(
                        LocationDamage(
                            location="Front Right Leg", points=leg.armor + leg.internal + 3
                        ),
                    ),
                ),
            ),
        ),
    )
    leg2, torso2 = after.location("Front Right Leg"), after.location("Right Torso")
    assert leg2 is not None and leg2.destroyed and torso2 is not None
    assert torso2.armor == torso.armor - 3


def test_ruling_vehicles_use_the_ground_vehicle_table() -> None:
    # Ruling HOUSE-21. L145 "Leg actuator damaged. Determine at random and ignore hip. Roll again
    # for vehicles." L139 "20 points of damage applied in 5 point clusters using the front hit
    # location table." L150 "Two points of damage to all locations."
    results = _rolled(UnitKind.TANK)
    assert "leg_actuator" not in {r.kind for r in results}
    clusters = {d.location for r in results if r.kind == "clusters" for d in r.damage}
    assert clusters == {"Front", "Right", "Left", "Turret"}  # no Rear from the front
    for r in results:
        if r.kind == "side_damage":
            assert [d.location for d in r.damage] == ["Right" if r.roll == 4 else "Left"]
            assert not r.damage[0].rear
        if r.kind == "all_locations":
            assert [(d.location, d.points) for d in r.damage] == [
                ("Front", 2), ("Right", 2), ("Left", 2), ("Rear", 2), ("Turret", 2),
            ]  # fmt: skip
    no_turret = ("Body", "Front", "Right", "Left", "Rear")
    placed = {d.location for r in _rolled(UnitKind.TANK, no_turret) for d in r.damage}
    assert "Turret" not in placed and "Front" in placed


def test_ruling_vehicle_damage_does_not_transfer() -> None:
    # Ruling HOUSE-22 (MegaMek's Tank.getTransferLocation: the excess is lost).
    before = bulldog()
    front = before.location("Front")
    assert front is not None
    hit = LocationDamage(location="Front", points=front.armor + front.internal + 9)
    damage = PreBattleDamage(
        unit_id="u",
        count_roll=2,
        kind=UnitKind.TANK,
        results=(DamageResult(roll=14, kind="one_location", line=148, damage=(hit,)),),
    )
    after = apply_to_condition(before, damage)
    front2 = after.location("Front")
    assert front2 is not None and front2.destroyed
    assert after.armor_lost == front.armor
    assert [loc for loc in after.locations if loc.name != "Front"] == [
        loc for loc in before.locations if loc.name != "Front"
    ]
    turretless = replace(before, locations=tuple(x for x in before.locations if x.name != "Turret"))
    turret_hit = replace(
        damage,
        results=(
            DamageResult(
                roll=14,
                kind="one_location",
                line=148,
                damage=(LocationDamage(location="Turret", points=4),),
            ),
        ),
    )
    hit_front = apply_to_condition(turretless, turret_hit).location("Front")
    assert hit_front is not None and hit_front.armor == front.armor - 4
