"""Merging a MUL entity with its design gives absolute numbers the rules engine can price."""

from __future__ import annotations

from pathlib import Path

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.design import SystemKind, UnitDesign
from mekref.adapters.megamek.mul_model import ARMOR_DESTROYED, Entity, Location, Slot
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.adapters.megamek.unit_kinds import KindSource, UnitKind

UNITS = Path(__file__).parent.parent / "fixtures" / "megamek" / "units"
FIXTURES = UNITS.parent


def _design(name: str) -> UnitDesign:
    return parse_unit_file((UNITS / name).read_bytes(), name)


def test_untouched_locations_take_the_design_values() -> None:
    # Griffin GRF-1N.mtf: "CT armor:20", "RTC armor:7"; 55 t -> CT internal 18 (standard table).
    griffin = _design("Griffin GRF-1N.mtf")
    cond = merge_condition(Entity("Griffin", "GRF-1N", "Biped"), griffin)
    ct = cond.location("Center Torso")
    assert ct is not None
    assert (ct.armor, ct.armor_max, ct.rear, ct.internal, ct.internal_max) == (20, 20, 7, 18, 18)
    assert cond.armor_lost == 0 and cond.internal_lost == 0
    assert cond.kind is UnitKind.BIPED_MEK and cond.kind_source is KindSource.DESIGN


def test_written_damage_is_absolute_and_destroyed_sentinel_counts_as_zero() -> None:
    griffin = _design("Griffin GRF-1N.mtf")
    entity = Entity(
        "Griffin",
        "GRF-1N",
        "Biped",
        locations=(
            Location(1, "Center Torso", armor=4, internal=10, rear=ARMOR_DESTROYED),
            Location(4, "Right Arm", destroyed=True),
        ),
    )
    cond = merge_condition(entity, griffin)
    ct = cond.location("Center Torso")
    assert ct is not None
    assert (ct.armor, ct.internal, ct.rear) == (4, 10, 0)
    # CT: 16 front + 7 rear armor lost, 8 internal lost; Right Arm: 14 armor ("RA armor:14"),
    # 9 internal (55 t arm) all gone.
    assert cond.armor_lost == 16 + 7 + 14
    assert cond.internal_lost == 8 + 9
    assert cond.destroyed_locations == ("Right Arm",)


def test_system_slot_hit_is_identified_from_the_crit_table() -> None:
    # Griffin GRF-1N.mtf Center Torso slots 4-7 are the Gyro.
    griffin = _design("Griffin GRF-1N.mtf")
    entity = Entity(
        "Griffin",
        "GRF-1N",
        "Biped",
        locations=(
            Location(
                1,
                "Center Torso",
                slots=(
                    Slot(4, "System", is_hit=True, is_destroyed=True),
                    Slot(1, "System", is_hit=True, is_destroyed=True),
                ),
            ),
        ),
    )
    cond = merge_condition(entity, griffin)
    assert cond.hits(SystemKind.GYRO) == 1
    assert cond.hits(SystemKind.ENGINE) == 1
    assert cond.unidentified_system_hits == 0


def test_a_lost_arm_takes_its_actuators_with_it() -> None:
    griffin = _design("Griffin GRF-1N.mtf")
    cond = merge_condition(
        Entity("Griffin", "GRF-1N", "Biped", locations=(Location(5, "Left Arm", destroyed=True),)),
        griffin,
    )
    assert cond.hits(SystemKind.SHOULDER) == 1
    assert cond.hits(SystemKind.UPPER_ARM) == 1


def test_without_a_design_only_the_files_numbers_are_known() -> None:
    # clusterstrike: the Atlas III's Left Torso "<armor points="1"/>", internal 20, rear Destroyed.
    mul = read_mul_bytes((FIXTURES / "clusterstrike-batchall-record.mul").read_bytes())
    atlas = mul.entities[0]
    cond = merge_condition(atlas, None)
    lt = cond.location("Left Torso")
    assert lt is not None
    assert (lt.armor, lt.internal, lt.rear) == (1, 20, 0)
    assert cond.kind_source is KindSource.SHAPE
    # Three CT System slots are hit, but no design says what they are.
    assert cond.unidentified_system_hits == 3
    assert "Left Arm" in cond.destroyed_locations


def test_battle_armor_troopers_and_infantry_survivors() -> None:
    elemental = _design("Elemental Battle Armor [Laser](Sqd5).blk")
    squad = Entity(
        "Elemental Battle Armor",
        "[Laser](Sqd5)",
        "Jump",
        locations=(Location(2, "Trooper 2", destroyed=True),),
    )
    cond = merge_condition(squad, elemental)
    assert (cond.troopers, cond.troopers_max) == (4, 5)
    rifles = _design("Foot Platoon (Rifle).blk")
    platoon = Entity(
        "Foot Platoon", "(Rifle)", "Leg", locations=(Location(0, "Troopers", internal=17),)
    )
    cond = merge_condition(platoon, rifles)
    assert (cond.troopers, cond.troopers_max) == (17, 28)


def test_ammo_bins_carry_shots_left() -> None:
    mul = read_mul_bytes((FIXTURES / "clusterstrike-batchall-record.mul").read_bytes())
    cond = merge_condition(mul.entities[0], None)
    hag = [a for a in cond.ammo if a.ammo_type == "Hyper-Assault Gauss Rifle/30 Ammo"]
    assert [a.shots for a in hag] == [0, 0, 3, 4]
