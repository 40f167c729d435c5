"""Unit kinds from the entity's shape, and ejected crews linked to the unit they left."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mekref.adapters.megamek.ejections import find_ejections
from mekref.adapters.megamek.kind_inference import infer_kind_from_shape
from mekref.adapters.megamek.mul_model import (
    Crew,
    CrewMember,
    Entity,
    Location,
    MulFile,
    RootKind,
    Section,
)
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.unit_kinds import KindSource, UnitKind

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"


def read(name: str) -> MulFile:
    path = FIXTURES / name
    return read_mul_bytes(path.read_bytes(), str(path))


def kinds(mul: MulFile) -> dict[UnitKind, int]:
    return dict(Counter(infer_kind_from_shape(e).kind for e in mul.entities))


# What a person can tell from each file: Meks move "Biped", the old tanks "Tracked"/"Hover",
# bob.mul's Spheroids and Condottiere have Left/Right Side (small craft), its Huscarls are
# Aerodyne fighters, the artillery is conventional infantry with "Field Guns".
EXPECTED_KINDS = {
    "Clan Boxset RS all.mul": {UnitKind.BIPED_MEK: 24},
    "bob.mul": {UnitKind.SMALL_CRAFT: 11, UnitKind.AEROSPACE_FIGHTER: 6},
    "clusterstrike-batchall-record.mul": {UnitKind.BIPED_MEK: 8, UnitKind.EJECTED_CREW: 5},
    "mekhq-Example.mul": {UnitKind.BIPED_MEK: 10, UnitKind.TANK: 10},
    "mekhq-fixedmuls-AlliedASFAceHvy.mul": {UnitKind.AEROSPACE_FIGHTER: 1},
    "mekhq-fixedmuls-AlliedCavLance.mul": {UnitKind.BIPED_MEK: 4},
    "mekhq-fixedmuls-EnemyOffFieldArty.mul": {UnitKind.CONVENTIONAL_INFANTRY: 4},
    "mekhq-fixedmuls-VTOLApocalypse.mul": {UnitKind.VTOL: 8},
    "mekhq-fixedmuls-aceARC2R.mul": {UnitKind.BIPED_MEK: 1},
}


@pytest.mark.parametrize("name", sorted(EXPECTED_KINDS))
def test_kinds_per_fixture_come_from_shape(name: str) -> None:
    mul = read(name)
    assert kinds(mul) == EXPECTED_KINDS[name]
    assert {infer_kind_from_shape(e).source for e in mul.entities} == {KindSource.SHAPE}


def test_every_fixture_has_expected_kinds() -> None:
    assert set(EXPECTED_KINDS) == {p.name for p in FIXTURES.glob("*.mul")}


def test_named_units_kinds() -> None:
    bob = read("bob.mul")
    by_name = {e.chassis: infer_kind_from_shape(e).kind for e in bob.entities}
    assert by_name["Nekohono'o"] is UnitKind.SMALL_CRAFT
    assert by_name["Huscarl"] is UnitKind.AEROSPACE_FIGHTER
    assert by_name["Condottiere Assault Craft"] is UnitKind.SMALL_CRAFT  # Aerodyne, but sides
    arty = read("mekhq-fixedmuls-EnemyOffFieldArty.mul").entities[0]
    # Movement "Tracked" would say tank; the "Field Guns" location says infantry.
    assert arty.movement_mode == "Tracked"
    assert infer_kind_from_shape(arty).kind is UnitKind.CONVENTIONAL_INFANTRY


def _entity(
    mode: str, *names: str, size: int | None = None, chassis: str = "X", **kw: object
) -> Entity:
    crew = Crew(members=(CrewMember(name="p"),), size=size)
    locations = tuple(Location(index=i, name=n) for i, n in enumerate(names))
    return Entity(chassis, "M", mode, crew=crew, locations=locations, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("entity", "kind"),
    [
        (_entity("Biped", "Head", "Center Torso"), UnitKind.BIPED_MEK),
        (_entity("Quad", "Front Left Leg"), UnitKind.QUAD_MEK),
        (_entity("Tripod", "Center Leg"), UnitKind.TRIPOD_MEK),
        (_entity("Biped", velocity=0), UnitKind.LAM),
        (_entity("Tracked", "Front", "Turret"), UnitKind.TANK),
        (_entity("Wheeled", "Front Right", "Rear Left"), UnitKind.SUPERHEAVY_TANK),
        (_entity("Vtol", "Rotor"), UnitKind.VTOL),  # lower-case spelling occurs too
        (_entity("Aerodyne", "Nose", "Left Wing"), UnitKind.AEROSPACE_FIGHTER),
        (_entity("Spheroid", "Nose", "Left Side"), UnitKind.SMALL_CRAFT),
        (_entity("Leg", "Squad", size=4), UnitKind.BATTLE_ARMOR),
        (_entity("Jump", "Trooper 1", size=5), UnitKind.BATTLE_ARMOR),
        (_entity("Motorized", "Troopers", size=21), UnitKind.CONVENTIONAL_INFANTRY),
        (_entity("Biped", "Main Gun", "Torso"), UnitKind.PROTOMEK),
        (_entity("Jump", size=1), UnitKind.PROTOMEK),
        (_entity("Wheeled", "Guns"), UnitKind.GUN_EMPLACEMENT),
        (_entity("Leg", chassis="MechWarrior"), UnitKind.EJECTED_CREW),
        (
            _entity("Biped", entity_form="BattlefieldSupportAsset"),
            UnitKind.BATTLEFIELD_SUPPORT_ASSET,
        ),
        (_entity("Teleport"), UnitKind.UNKNOWN),
    ],
    ids=lambda v: v.value if isinstance(v, UnitKind) else "",
)
def test_kind_from_constructed_shapes(entity: Entity, kind: UnitKind) -> None:
    guess = infer_kind_from_shape(entity)
    assert guess.kind is kind
    assert guess.source is KindSource.SHAPE


# --- Ejections --------------------------------------------------------------------------------


def test_clusterstrike_ejections_link_to_units_and_rescuers() -> None:
    mul = read("clusterstrike-batchall-record.mul")
    found = {ej.crew_entity.members[0].name: ej for ej in find_ejections(mul)}
    assert len(found) == 5
    left = {
        name: (ej.left_unit.chassis, ej.left_unit.model) if ej.left_unit else None
        for name, ej in found.items()
    }
    assert left == {
        "Orselina Ríos": ("Rifleman", "RFL-5D"),
        "Rauno Kirkcaldie": ("Rifleman", "RFL-8D"),
        "Demi-Precentor Epsilon XIII Wilford Abiodun": ("Avatar", "AV1-O Redline"),
        'Demi-Precentor Epsilon XVI Bergljot "Fish Fry" Lönnroth': (
            "Flashman",
            "FLS-8K (Blueshift)",
        ),
        "Ubaldo bin Abdul": ("Penetrator", "PTR-6M"),
    }
    wilford = found["Demi-Precentor Epsilon XIII Wilford Abiodun"]
    assert wilford.picked_up_by == "077fd543-b634-496f-a6bf-fc79011e5875"
    # The rescuer is the Rifleman RFL-8D, itself devastated in the same record.
    (rescuer,) = [e for e in mul.entities if e.external_id == wilford.picked_up_by]
    assert (rescuer.chassis, rescuer.model, rescuer.section) == (
        "Rifleman",
        "RFL-8D",
        Section.DEVASTATED,
    )
    assert wilford.left_unit is not None and wilford.left_unit.external_id == (
        "78be0c72-b21a-4e68-a76f-6500c6476d07"
    )
    assert all(ej.ambiguous_candidates == () for ej in found.values())
    assert [n for n, ej in found.items() if ej.picked_up_by] == [wilford.crew_entity.model]


@pytest.mark.parametrize("name", sorted(EXPECTED_KINDS))
def test_files_without_ejected_crews_have_no_ejections(name: str) -> None:
    mul = read(name)
    expected = 5 if name.startswith("clusterstrike") else 0
    assert len(find_ejections(mul)) == expected


def _pilot_entity(chassis: str, name: str, *, ejected: bool, ext: str | None = None) -> Entity:
    crew = Crew(members=(CrewMember(name=name, external_id=ext),), ejected=ejected)
    mode = "Leg" if chassis == "Pilot" else "Biped"
    return Entity(chassis, name if chassis == "Pilot" else "M", mode, crew=crew)


def test_ejection_by_name_only_when_ids_are_missing() -> None:
    crew = _pilot_entity("Pilot", "Ann", ejected=True)
    unit = _pilot_entity("Locust", "Ann", ejected=True)
    bystander = _pilot_entity("Wasp", "Ann", ejected=False)  # not ejected: not a candidate
    mul = MulFile(RootKind.RECORD, "0.51.01", (unit, bystander, crew))
    (ej,) = find_ejections(mul)
    assert ej.left_unit is unit and ej.ambiguous_candidates == ()


def test_ambiguous_name_is_reported_not_guessed() -> None:
    crew = _pilot_entity("Pilot", "Ann", ejected=True)
    a = Entity("Locust", "LCT-1V", "Biped", external_id="a", crew=crew.crew)
    b = Entity("Wasp", "WSP-1A", "Biped", external_id="b", crew=crew.crew)
    mul = MulFile(RootKind.RECORD, "0.51.01", (a, b, crew))
    (ej,) = find_ejections(mul)
    assert ej.left_unit is None
    assert set(ej.ambiguous_candidates) == {a, b}


def test_person_id_beats_name() -> None:
    crew = _pilot_entity("Pilot", "Ann", ejected=True, ext="p-1")
    right = _pilot_entity("Locust", "Someone Else", ejected=True, ext="p-1")
    wrong = _pilot_entity("Wasp", "Ann", ejected=True, ext="p-2")
    mul = MulFile(RootKind.RECORD, "0.51.01", (wrong, right, crew))
    (ej,) = find_ejections(mul)
    assert ej.left_unit is right
