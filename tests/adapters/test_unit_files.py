"""Unit-file readers against the real MegaMek fixtures: every fact below was read by a person
from the file itself (or, for internal structure, from the standard table in reference 5.1)."""

from __future__ import annotations

from pathlib import Path

import pytest

from mekref.adapters.megamek.blk_reader import parse_tech_type, parse_transporter
from mekref.adapters.megamek.design import (
    RulesLevel,
    SystemKind,
    TechBase,
    UnitDesign,
    UnitFileError,
)
from mekref.adapters.megamek.structure_tables import (
    fighter_structural_integrity,
    mek_internal,
    protomek_internal,
    vehicle_internal,
)
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.adapters.megamek.unit_kinds import UnitKind

UNITS = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "units"
ALL_UNIT_FILES = sorted(p.name for p in UNITS.iterdir() if p.suffix in {".mtf", ".blk", ".bfs"})


def load(name: str) -> UnitDesign:
    return parse_unit_file((UNITS / name).read_bytes(), name)


@pytest.mark.parametrize("name", ALL_UNIT_FILES)
def test_every_fixture_parses(name: str) -> None:
    design = load(name)
    assert design.chassis
    assert design.source_file == name


def test_fixture_folder_holds_all_seventeen_unit_files() -> None:
    assert len(ALL_UNIT_FILES) == 17


# ---- Meks ---------------------------------------------------------------------------------


def test_atlas() -> None:
    d = load("Atlas AS7-D.mtf")
    assert (d.chassis, d.model, d.mul_id) == ("Atlas", "AS7-D", 140)
    assert d.kind is UnitKind.BIPED_MEK
    assert d.tonnage == 100
    assert d.tech_base is TechBase.INNER_SPHERE
    assert d.rules_level is RulesLevel.INTRODUCTORY
    assert d.intro_year == 2755
    assert (d.walk_mp, d.run_mp, d.jump_mp) == (3, 5, 0)
    assert d.engine is not None and (d.engine.rating, d.engine.type) == (300, "Fusion")
    assert d.armor("Center Torso") == 47
    assert d.rear_armor("Center Torso") == 14
    assert d.armor(4) == 34  # RA armor:34
    assert d.armor("Head") == 9
    # 100 t: HD 3, CT 31, side torsos 21, arms 17, legs 21.
    assert d.internal_by_name == {
        "Head": 3,
        "Center Torso": 31,
        "Right Torso": 21,
        "Left Torso": 21,
        "Right Arm": 17,
        "Left Arm": 17,
        "Right Leg": 21,
        "Left Leg": 21,
    }
    assert d.heat_sinks == 20 and d.heat_sink_type == "Single"
    assert "command_mech" in d.quirks
    # AC/20 fills Right Torso slots 1-10, then two ammo bins in slots 11 and 12.
    assert all(d.slot(2, n).name == "Autocannon/20" for n in range(1, 11))  # type: ignore[union-attr]
    ammo_rt = [b for b in d.ammo_bins if b.location == 2]
    assert [(b.slot, b.ammo_type) for b in ammo_rt] == [
        (11, "IS Ammo AC/20"),
        (12, "IS Ammo AC/20"),
    ]
    assert d.uuid is None  # a pre-0.51 file


def test_mek_center_torso_and_head_systems() -> None:
    d = load("Griffin GRF-1N.mtf")
    assert d.system_at(1, 4) == "gyro"
    assert d.system_at(1, 1) is SystemKind.ENGINE
    assert d.system_at(1, 8) is SystemKind.ENGINE
    assert d.system_at(1, 11) is None  # Heat Sink
    assert d.system_at(0, 3) is SystemKind.COCKPIT
    assert d.system_at(0, 2) is SystemKind.SENSORS
    assert d.system_at(0, 1) is SystemKind.LIFE_SUPPORT
    assert d.system_at(0, 4) is None  # -Empty-
    assert d.slot(0, 4) is not None and d.slot(0, 4).is_empty  # type: ignore[union-attr]
    assert d.system_at(0, 13) is None  # beyond the block
    assert d.system_at(5, 1) is SystemKind.SHOULDER
    assert d.system_at(5, 2) is SystemKind.UPPER_ARM
    assert d.system_at(5, 3) is SystemKind.LOWER_ARM
    assert d.system_at(5, 4) is SystemKind.HAND
    assert d.system_at(7, 1) is SystemKind.HIP
    assert d.system_at(7, 2) is SystemKind.UPPER_LEG
    assert d.system_at(7, 3) is SystemKind.LOWER_LEG
    assert d.system_at(7, 4) is SystemKind.FOOT
    assert len(d.crit_slots[1]) == 12


def test_griffin() -> None:
    d = load("Griffin GRF-1N.mtf")
    assert d.tonnage == 55 and d.walk_mp == 5 and d.jump_mp == 5 and d.run_mp == 8
    assert d.armor("Left Torso") == 20 and d.rear_armor("Left Torso") == 6
    # 55 t: CT 18, side torsos 13, arms 9, legs 13.
    assert d.internal("Center Torso") == 18
    assert d.internal("Right Arm") == 9
    assert d.internal("Left Leg") == 13
    assert [(w.name, w.location_name) for w in d.equipment] == [
        ("PPC", "Right Arm"),
        ("LRM 10", "Right Torso"),
    ]
    assert [(b.location_name, b.slot) for b in d.ammo_bins] == [
        ("Right Torso", 5),
        ("Right Torso", 6),
    ]
    assert d.extra["weaponquirk"] == ("jettison_capable:RA:4:PPC",)
    assert d.extra["role"] == ("Sniper",)


def test_shadow_hawk_capitalised_keys() -> None:
    d = load("Shadow Hawk SHD-2H.mtf")
    assert (d.tonnage, d.walk_mp, d.jump_mp, d.mul_id) == (55, 5, 3, 2901)
    assert d.armor("Center Torso") == 23
    assert d.rear_armor(1) == 8
    assert d.structure_type == "Standard"
    # Head slot 4 holds the SRM 2, CT slot 12 its ammo.
    assert d.slot(0, 4) is not None and d.slot(0, 4).name == "SRM 2"  # type: ignore[union-attr]
    assert any(b.location == 1 and b.slot == 12 for b in d.ammo_bins)


def test_wolverine_and_jenner() -> None:
    w = load("Wolverine WVR-6R.mtf")
    assert w.armor("Head") == 8 and w.armor("Right Arm") == 16
    assert w.system_at(1, 4) is SystemKind.GYRO
    j = load("Jenner JR7-D.mtf")
    assert (j.tonnage, j.walk_mp, j.run_mp, j.jump_mp) == (35, 7, 11, 5)
    # 35 t: CT 11, side torsos 8, arms 6, legs 8.
    assert (j.internal(1), j.internal(2), j.internal(4), j.internal(6)) == (11, 8, 6, 8)
    assert j.engine is not None and j.engine.rating == 245


def test_locust_has_uuid_and_mg_ammo_in_ct() -> None:
    d = load("Locust LCT-1V.mtf")
    assert d.uuid == "019f583e-c25b-7e1d-a2f6-f2b3763ac718"
    assert (d.tonnage, d.walk_mp, d.run_mp) == (20, 8, 12)
    # 20 t: HD 3, CT 6, side torsos 5, arms 3, legs 4.
    assert d.internal("Center Torso") == 6 and d.internal("Left Leg") == 4
    assert [(b.location, b.slot, b.ammo_type) for b in d.ammo_bins] == [
        (1, 12, "IS Ammo MG - Full")
    ]
    # No lower arm or hand actuators: slot 3 of each arm is the machine gun.
    assert d.system_at(5, 3) is None and d.slot(5, 3).name == "Machine Gun"  # type: ignore[union-attr]
    assert d.extra["generator"] == ("MegaMek Suite 0.51.01 on 2026-07-12",)


def test_marauder() -> None:
    d = load("Marauder MAD-3R.mtf")
    assert (d.tonnage, d.walk_mp, d.mul_id) == (75, 4, 2038)
    assert d.internal("Center Torso") == 23 and d.internal("Right Arm") == 12
    assert d.armor("Center Torso") == 35 and d.rear_armor("Center Torso") == 10
    assert d.total_armor == 9 + 35 + 10 + 2 * (17 + 8) + 2 * 22 + 2 * 18


def test_lam() -> None:
    d = load("Shadow Hawk LAM SHD-X2.mtf")
    assert d.kind is UnitKind.LAM
    assert d.rules_level is RulesLevel.EXPERIMENTAL
    assert d.heat_sinks == 10 and d.heat_sink_type == "Double"
    assert d.extra["lam"] == ("Bimodal",)
    assert d.system_at(3, 1) is SystemKind.LANDING_GEAR
    assert d.system_at(3, 2) is SystemKind.AVIONICS
    assert d.system_at(0, 4) is SystemKind.AVIONICS
    assert d.system_at(1, 4) is SystemKind.GYRO
    assert d.slot(3, 5) is not None and d.slot(3, 5).name == "ISERLargeLaser"  # type: ignore[union-attr]


# ---- Vehicles -----------------------------------------------------------------------------


def test_bulldog_tank() -> None:
    d = load("Bulldog Medium Tank.blk")
    assert d.kind is UnitKind.TANK and d.movement_mode == "Tracked"
    assert (d.chassis, d.model, d.mul_id) == ("Bulldog Medium Tank", "", 441)
    assert d.tonnage == 60
    assert (d.walk_mp, d.run_mp) == (4, 6)
    assert d.rules_level is RulesLevel.INTRODUCTORY and d.tech_base is TechBase.INNER_SPHERE
    assert d.armor_by_name == {"Front": 24, "Right": 20, "Left": 20, "Rear": 20, "Turret": 20}
    assert d.armor("Body") is None
    # 10 % of 60 t in every location but the Body.
    assert d.internal_by_name == {"Front": 6, "Right": 6, "Left": 6, "Rear": 6, "Turret": 6}
    assert d.engine is not None and d.engine.type == "ICE" and d.engine.rating == 240
    turret = [e.name for e in d.equipment if e.location_name == "Turret"]
    assert turret == ["SRM 4", "SRM 4", "Large Laser"]
    assert [b.ammo_type for b in d.ammo_bins] == [
        "IS Ammo SRM-4",
        "IS Ammo SRM-4",
        "IS Machine Gun Ammo - Half",
    ]
    assert d.extra["fueltype"] == ("PETROCHEMICALS",)


def test_maxim_hover_transport() -> None:
    d = load("Maxim Heavy Hover Transport (Fire Support).blk")
    assert d.movement_mode == "Hover" and d.tonnage == 50 and d.walk_mp == 8
    assert d.armor("Front") == 25 and d.armor("Rear") == 16 and d.armor("Turret") == 20
    assert d.internal("Left") == 5
    assert d.troop_tons == 3.0 and d.cargo_tons == 0.0
    assert d.engine is not None and d.engine.rating == 165  # "PowerTech 165 Highlift ICE"


def test_soar_support_vtol() -> None:
    d = load("SOAR VTOL.blk")
    assert d.kind is UnitKind.SUPPORT_VTOL and d.support_vehicle
    assert d.tonnage == 15 and d.walk_mp == 8
    assert d.armor_by_name == {"Front": 5, "Right": 3, "Left": 3, "Rear": 2, "Rotor": 2}
    # The rotor gets the same ceil(15 / 10) = 2 as every other location (Tank.autoSetInternal).
    assert d.internal("Rotor") == 2 and d.internal("Front") == 2
    assert d.engine is not None and d.engine.type == "Fuel Cell"
    assert d.cargo_tons == pytest.approx(0.05)
    assert [b.kind for b in d.bays] == ["cargobay", "standardseats"]


# ---- Aero ---------------------------------------------------------------------------------


def test_rapier_fighter() -> None:
    d = load("Rapier RPR-300.blk")
    assert d.kind is UnitKind.AEROSPACE_FIGHTER
    assert d.tonnage == 85 and d.safe_thrust == 6 and d.max_thrust == 9
    assert d.armor_by_name == {"Nose": 78, "Left Wing": 58, "Right Wing": 58, "Aft": 38}
    # Aero.autoSetSI: max(floor(85 / 10), 6) = 8.
    assert d.structural_integrity == 8
    assert d.engine is not None and d.engine.rating == 340  # "AeroFord 340"
    assert d.heat_sinks == 11 and d.heat_sink_type == "Double"
    assert [b.location_name for b in d.ammo_bins] == ["Fuselage"] * 4


def test_union_dropship() -> None:
    d = load("Union (2708).blk")
    assert d.kind is UnitKind.DROPSHIP and d.movement_mode == "Spheroid"
    assert d.tonnage == 3600 and d.safe_thrust == 3
    assert d.structural_integrity == 11
    assert d.armor_by_name == {"Nose": 180, "Left Side": 180, "Right Side": 180, "Aft": 104}
    assert d.cargo_tons == 74.5
    meks = [b for b in d.bays if b.kind == "mekbay"]
    assert [(b.capacity, b.doors) for b in meks] == [(4.0, 2), (8.0, 2)]
    asf = next(b for b in d.bays if b.kind == "asfbay")
    assert (asf.capacity, asf.doors, asf.bay_number) == (2.0, 2, 3)
    assert d.crew is not None
    assert (d.crew.crew, d.crew.officers, d.crew.gunners, d.crew.escape_pods) == (42, 3, 6, 7)
    rear_left = [e for e in d.equipment if e.location_name == "Left Side" and e.rear]
    assert [e.name for e in rear_left] == ["Large Laser", "Medium Laser", "Medium Laser"]
    assert rear_left[0].bay_start
    nose_ammo = [(b.ammo_type, b.shots) for b in d.ammo_bins if b.location == 0]
    assert nose_ammo == [("IS Ammo AC/5", 20), ("IS Ammo LRM-20", 24)]
    assert d.engine is None  # large craft: engine_type is not meaningful


def test_gazelle_dropship() -> None:
    d = load("Gazelle (Heavy Vehicle).blk")
    assert d.movement_mode == "Aerodyne" and d.tonnage == 2900 and d.structural_integrity == 8
    assert d.cargo_tons == 68.5
    heavy = next(b for b in d.bays if b.kind == "heavyvehiclebay")
    assert (heavy.capacity, heavy.doors) == (15.0, 1)
    assert d.crew is not None and d.crew.life_boats == 4


# ---- Infantry and BSA -----------------------------------------------------------------------


def test_elemental_battle_armor() -> None:
    d = load("Elemental Battle Armor [Laser](Sqd5).blk")
    assert d.kind is UnitKind.BATTLE_ARMOR
    assert d.tech_base is TechBase.CLAN and d.rules_level is RulesLevel.STANDARD
    assert d.trooper_count == 5 and d.ba_weight_class == "Medium"
    assert (d.walk_mp, d.jump_mp) == (1, 3)
    assert d.uuid == "019f583e-a1e0-785d-a983-829ca2dd427c"
    assert [loc.name for loc in d.locations] == ["Squad"] + [f"Trooper {n}" for n in range(1, 6)]
    assert d.armor("Trooper 3") == 10 and d.internal("Trooper 3") == 1
    assert d.internal("Squad") is None
    assert [(b.ammo_type, b.shots) for b in d.ammo_bins] == [("BA-SRM2 Ammo", 2)]
    assert any(e.name == "BAJumpJet" for e in d.equipment)


def test_foot_platoon_is_seven_by_four() -> None:
    d = load("Foot Platoon (Rifle).blk")
    assert d.kind is UnitKind.CONVENTIONAL_INFANTRY
    assert (d.squad_size, d.squad_count, d.trooper_count) == (7, 4, 28)
    assert d.internal("Troopers") == 28
    assert d.movement_mode == "Leg" and d.tonnage is None
    assert d.extra["primary"] == ("Auto-Rifle",)


def test_bfs_battlefield_support_asset() -> None:
    d = load("Foot Platoon (Rifle).bfs")
    assert d.kind is UnitKind.BATTLEFIELD_SUPPORT_ASSET
    assert (d.chassis, d.model) == ("Foot Platoon", "(Rifle)")
    assert d.uuid == "019f5efd-5a92-7299-af72-f45188f52e91"
    assert (d.walk_mp, d.movement_mode) == (1, "INF_LEG")
    assert d.extra["linkedunitid"] == ("019f583e-c003-7c02-b5ed-d81e96df79d5",)
    assert d.extra["specials"] == ("Nimble", "Spotter", "Swarm")
    assert d.extra["damage.perhit"] == ("5",)


def test_protomek_from_megamek_testresources_shape() -> None:
    # Shape of MegaMek's testresources "Centaur.blk" (5 t ProtoMek, fluff trimmed).
    text = (
        "<UnitType>\nProtoMek\n</UnitType>\n<Name>\nCentaur\n</Name>\n<model>\n\n</model>\n"
        "<mul id:>\n509\n</mul id:>\n<year>\n3060\n</year>\n<type>\nClan Level 2\n</type>\n"
        "<motion_type>\nBiped\n</motion_type>\n<cruiseMP>\n6\n</cruiseMP>\n"
        "<jumpingMP>\n0\n</jumpingMP>\n<engine_type>\n0\n</engine_type>\n"
        "<armor>\n3\n7\n2\n2\n4\n2\n</armor>\n"
        "<Body Equipment>\nClan Ammo SRM-2 (10)\nClan Ammo Protomech LRM-3 (8)\n</Body Equipment>\n"
        "<Torso Equipment>\nCLSRM2\nCLLRM3\n</Torso Equipment>\n"
        "<Main Gun Equipment>\nCLERMicroLaser\n</Main Gun Equipment>\n<tonnage>\n5.0\n</tonnage>\n"
    )
    d = parse_unit_file(text.encode(), "Centaur.blk")
    assert d.kind is UnitKind.PROTOMEK and d.tonnage == 5 and d.walk_mp == 6
    assert d.armor_by_name == {
        "Head": 3,
        "Torso": 7,
        "Right Arm": 2,
        "Left Arm": 2,
        "Legs": 4,
        "Main Gun": 2,
    }
    # ProtoMek.autoSetInternal at 5 t: head 1, torso 5, arms 1, legs 3, main gun 1.
    assert d.internal_by_name == {
        "Head": 1,
        "Torso": 5,
        "Right Arm": 1,
        "Left Arm": 1,
        "Legs": 3,
        "Main Gun": 1,
    }
    assert [(b.ammo_type, b.shots) for b in d.ammo_bins] == [
        ("Clan Ammo SRM-2", 10),
        ("Clan Ammo Protomech LRM-3", 8),
    ]


# ---- Derivation tables --------------------------------------------------------------------


def test_structure_types_scale_mek_internals() -> None:
    standard = mek_internal(50, UnitKind.BIPED_MEK, "IS Standard")
    reinforced = mek_internal(50, UnitKind.BIPED_MEK, "IS Reinforced")
    composite = mek_internal(50, UnitKind.BIPED_MEK, "IS Composite")
    endo = mek_internal(50, UnitKind.BIPED_MEK, "IS Endo Steel")
    assert standard is not None and reinforced is not None and composite is not None
    assert endo == standard
    assert reinforced[1] == 32 and reinforced[0] == 6
    assert composite[1] == 8 and composite[0] == 2  # half, rounded up
    assert composite[4] == 4


def test_quad_and_tripod_legs() -> None:
    quad = mek_internal(60, UnitKind.QUAD_MEK, "Standard")
    tripod = mek_internal(60, UnitKind.TRIPOD_MEK, "Standard")
    assert quad is not None and tripod is not None
    assert [quad[i] for i in (4, 5, 6, 7)] == [14, 14, 14, 14]
    assert tripod[8] == 14 and tripod[4] == 10
    assert mek_internal(150, UnitKind.BIPED_MEK, "Standard") is None  # superheavy


def test_vehicle_and_fighter_formulas() -> None:
    assert vehicle_internal(41, 5) == {1: 5, 2: 5, 3: 5, 4: 5, 5: 5}
    assert fighter_structural_integrity(UnitKind.AEROSPACE_FIGHTER, 30, 7) == 7
    assert fighter_structural_integrity(UnitKind.CONVENTIONAL_FIGHTER, 100, 5) == 5
    assert protomek_internal(10, quad=True, main_gun=True) == {1: 3, 2: 10, 5: 12, 6: 2}
    assert protomek_internal(15, quad=False, main_gun=False) == {1: 4, 2: 15, 3: 4, 4: 4, 5: 8}


def test_tech_type_strings() -> None:
    assert parse_tech_type("IS Level 3") == (TechBase.INNER_SPHERE, RulesLevel.ADVANCED)
    assert parse_tech_type("Clan Level 2") == (TechBase.CLAN, RulesLevel.STANDARD)
    assert parse_tech_type("Mixed (Clan Chassis) Experimental") == (
        TechBase.MIXED_CLAN_CHASSIS,
        RulesLevel.EXPERIMENTAL,
    )
    assert parse_tech_type("Mixed (IS Chassis)") == (TechBase.MIXED_IS_CHASSIS, RulesLevel.STANDARD)
    with pytest.raises(ValueError):
        parse_tech_type("Mixed")


def test_transporter_line_with_omni_and_arts() -> None:
    bay = parse_transporter("ARTSasfbay:6.0:2:1:omni")
    assert (bay.kind, bay.capacity, bay.doors, bay.bay_number, bay.omnipod) == (
        "asfbay",
        6.0,
        2,
        1,
        True,
    )


# ---- Errors -------------------------------------------------------------------------------


def test_truncated_blk_is_refused_with_the_open_tag_line() -> None:
    data = (UNITS / "Bulldog Medium Tank.blk").read_bytes()
    cut = data[: data.index(b"</armor>")]
    with pytest.raises(UnitFileError) as err:
        parse_unit_file(cut, "Bulldog Medium Tank.blk")
    assert err.value.source == "Bulldog Medium Tank.blk"
    assert "never closed" in str(err.value)
    assert err.value.line is not None and cut.decode().splitlines()[err.value.line - 1] == "<armor>"


def test_mtf_without_mass_is_refused() -> None:
    text = (UNITS / "Griffin GRF-1N.mtf").read_text().replace("mass:55\n", "")
    with pytest.raises(UnitFileError, match="missing 'mass:'"):
        parse_unit_file(text.encode(), "Griffin GRF-1N.mtf")


def test_mtf_bad_number_names_the_line() -> None:
    text = (UNITS / "Griffin GRF-1N.mtf").read_text().replace("walk mp:5", "walk mp:five")
    with pytest.raises(UnitFileError) as err:
        parse_unit_file(text.encode(), "g.mtf")
    assert err.value.line == text.splitlines().index("walk mp:five") + 1
    assert "g.mtf:" in str(err.value)


def test_blk_unknown_unit_type_is_kept_and_missing_type_refused() -> None:
    base = (UNITS / "Bulldog Medium Tank.blk").read_text()
    odd = parse_unit_file(
        base.replace("<UnitType>\nTank", "<UnitType>\nSpaceship").encode(), "x.blk"
    )
    assert odd.kind is UnitKind.UNKNOWN and odd.extra["unittype"] == ("Spaceship",)
    assert odd.tonnage == 60
    with pytest.raises(UnitFileError, match="UnitType"):
        parse_unit_file(base.replace("<UnitType>\nTank\n</UnitType>", "").encode(), "x.blk")


def test_gun_emplacement_without_tonnage() -> None:
    # Shape of MegaMek's testresources "Medium Blaze Turret 3025.blk" (trimmed).
    text = (
        "<UnitType>\nGunEmplacement\n</UnitType>\n<Name>\nMedium Blaze Turret\n</Name>\n"
        "<Model>\n(3025)\n</Model>\n<Year>\n3025\n</Year>\n<Type>\nIS Level 2\n</Type>\n"
        "<Guns Equipment>\nISSRM4\nIS Ammo SRM-4 Inferno\n</Guns Equipment>\n"
    )
    d = parse_unit_file(text.encode(), "turret.blk")
    assert d.kind is UnitKind.GUN_EMPLACEMENT and d.tonnage is None and d.intro_year == 3025
    assert [(b.location_name, b.ammo_type) for b in d.ammo_bins] == [
        ("Guns", "IS Ammo SRM-4 Inferno")
    ]


def test_bfs_is_safe_yaml_only() -> None:
    hostile = b'chassis: !!python/object/apply:os.system ["true"]\n'
    with pytest.raises(UnitFileError, match="not valid YAML"):
        parse_unit_file(hostile, "evil.bfs")


def test_bfs_uses_the_c_safe_loader_when_pyyaml_has_it() -> None:
    import yaml

    from mekref.adapters.megamek import bfs_reader

    expected = yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader
    assert bfs_reader.safe_loader() is expected
    assert issubclass(bfs_reader.safe_loader(), yaml.constructor.SafeConstructor)


def test_unknown_extension() -> None:
    with pytest.raises(UnitFileError, match="not a unit file"):
        parse_unit_file(b"", "notes.txt")


def test_unknown_blk_tags_and_stray_text_are_kept() -> None:
    base = (UNITS / "Bulldog Medium Tank.blk").read_text()
    text = base + "\n<newFancyTag>\nvalue 1\n</newFancyTag>\nstray words\n"
    d = parse_unit_file(text.encode(), "x.blk")
    assert d.extra["newfancytag"] == ("value 1",)
    assert d.extra["(outside tags)"] == (f"line {len(text.splitlines())}: stray words",)


def test_weapons_count_too_large_does_not_swallow_crit_blocks() -> None:
    text = (UNITS / "Griffin GRF-1N.mtf").read_text().replace("Weapons:2", "Weapons:5")
    d = parse_unit_file(text.encode(), "g.mtf")
    assert len(d.equipment) == 2
    assert d.system_at(5, 1) is SystemKind.SHOULDER


def test_quad_tripod_and_omni_configs() -> None:
    base = (UNITS / "Griffin GRF-1N.mtf").read_text()
    omni = parse_unit_file(base.replace("Config:Biped", "Config:Biped Omnimech").encode(), "o.mtf")
    assert omni.kind is UnitKind.BIPED_MEK and omni.omni
    tripod_text = base.replace("Config:Biped", "Config:Tripod").replace(
        "RL armor:18", "RL armor:18\nCL armor:17"
    )
    tripod_text += "\nCenter Leg:\nHip\nUpper Leg Actuator\nLower Leg Actuator\nFoot Actuator\n"
    tripod = parse_unit_file(tripod_text.encode(), "t.mtf")
    assert tripod.kind is UnitKind.TRIPOD_MEK
    assert tripod.armor("Center Leg") == 17 and tripod.internal("Center Leg") == 13
    assert tripod.system_at(8, 4) is SystemKind.FOOT
    quad_text = (
        base.replace("Config:Biped", "Config:Quad")
        .replace("LA armor:14", "FLL armor:14")
        .replace("RA armor:14", "FRL armor:14")
        .replace("LL armor:18", "RLL armor:18")
        .replace("RL armor:18", "RRL armor:18")
    )
    quad = parse_unit_file(quad_text.encode(), "q.mtf")
    assert quad.kind is UnitKind.QUAD_MEK
    assert quad.armor("Front Left Leg") == 14 and quad.internal("Front Left Leg") == 13
    # Biped-named blocks do not belong to a quad: they are left out, not guessed.
    assert 4 not in quad.crit_slots
