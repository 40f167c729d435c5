"""Random pre-battle damage: the 3d6 table's rows, and the damage applied to a unit's condition."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest
from hr_helpers import griffin

from mekref.adapters.megamek.condition import AmmoCondition
from mekref.adapters.megamek.design import SystemKind
from mekref.adapters.megamek.unit_kinds import UnitKind
from mekref.rules.dice import Dice
from mekref.rules.house_rules.random_damage import (
    ARMOR_OR_AMMO,
    BIPED_LOCATIONS,
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


def test_only_biped_meks() -> None:
    tank = replace(griffin(), kind=UnitKind.TANK)
    with pytest.raises(Refusal) as info:
        apply_to_condition(tank, _damage())
    assert info.value.code == "not_a_biped_mek"
