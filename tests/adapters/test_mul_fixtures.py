"""Every real MUL fixture, with facts a person reads from the file by eye.

The numbers below were read from the fixture text, not from the reader's output: each test
names the line or element it checks so a reviewer can open the file and compare.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from mekref.adapters.megamek.mul_model import (
    ARMOR_DESTROYED,
    DEAD_HITS,
    Entity,
    MulFile,
    RootKind,
    Section,
)
from mekref.adapters.megamek.mul_reader import read_mul_bytes

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "megamek"
ALL_MULS = sorted(FIXTURES.glob("*.mul"))


def read(name: str) -> MulFile:
    path = FIXTURES / name
    return read_mul_bytes(path.read_bytes(), str(path))


def by_pilot(mul: MulFile, name: str, *, chassis: str | None = None) -> Entity:
    found = [
        e
        for e in mul.entities
        if any(m.name == name for m in e.members) and (chassis is None or e.chassis == chassis)
    ]
    assert len(found) == 1, f"{name!r} crews {len(found)} entities"
    return found[0]


def by_unit(mul: MulFile, chassis: str, model: str) -> list[Entity]:
    return [e for e in mul.entities if e.chassis == chassis and e.model == model]


def sections(mul: MulFile) -> dict[str, int]:
    return dict(Counter(e.section.value for e in mul.entities))


def test_every_fixture_is_covered_here() -> None:
    # A new fixture must get its own test in this file.
    assert {p.name for p in ALL_MULS} == {
        "Clan Boxset RS all.mul",
        "bob.mul",
        "clusterstrike-batchall-record.mul",
        "mekhq-Example.mul",
        "mekhq-fixedmuls-AlliedASFAceHvy.mul",
        "mekhq-fixedmuls-AlliedCavLance.mul",
        "mekhq-fixedmuls-EnemyOffFieldArty.mul",
        "mekhq-fixedmuls-VTOLApocalypse.mul",
        "mekhq-fixedmuls-aceARC2R.mul",
    }


@pytest.mark.parametrize("path", ALL_MULS, ids=lambda p: p.name)
def test_every_fixture_parses_cleanly_with_one_entity_per_tag(path: Path) -> None:
    data = path.read_bytes()
    mul = read_mul_bytes(data, str(path))
    assert len(mul.entities) == data.count(b"<entity ") + data.count(b"<entity\n")
    assert len(mul.kills) == data.count(b"<kill ")
    # Real files need no tolerance beyond what the format itself does (CRLF, free text...).
    assert mul.notices == ()
    assert all(e.line is not None for e in mul.entities)


# --- Clan Boxset RS all.mul -------------------------------------------------------------------


def test_clan_boxset() -> None:
    mul = read("Clan Boxset RS all.mul")
    assert mul.root is RootKind.UNIT
    assert mul.version == "0.47.1-SNAPSHOT"
    assert sections(mul) == {"unit": 24}
    assert mul.kills == ()
    first = mul.entities[0]
    assert (first.chassis, first.model, first.movement_mode) == ("Puma (Adder)", "Prime", "Biped")
    assert first.external_id == "bf1a1452-383b-4d46-afd8-55ec70aaea18"
    assert first.quirks == ("low_profile", "no_twist")
    assert ("camoCategory", "-- No Camo --") in first.extra
    # <pilot ... name="Mary Kim" gunnery="3" gunneryL="4" gunneryM="4" gunneryB="4" piloting="4">
    mary = first.members[0]
    assert mary.name == "Mary Kim"
    assert (mary.gunnery, mary.gunnery_l, mary.gunnery_m, mary.gunnery_b) == (3, 4, 4, 4)
    assert mary.piloting == 4
    assert first.crew is not None and first.crew.autoeject is True and not first.crew.ejected
    # Non-ASCII names survive (UTF-8 file).
    grendel = by_pilot(mul, "Larraya Muñóz")
    assert (grendel.chassis, grendel.model) == ("Grendel (Mongrel)", "Prime")
    rt = grendel.location(2)
    assert rt is not None and rt.name == "Right Torso"
    assert [(s.index, s.type, s.shots) for s in rt.slots] == [(8, "Clan Streak SRM 6 Ammo", 15)]
    # Griffin GRF-1DS: jettison-capable large pulse lasers in the right arm.
    (griffin,) = by_unit(mul, "Griffin", "GRF-1DS")
    arm = griffin.location(4)
    assert arm is not None
    assert [(s.index, s.type, s.quirks, s.is_destroyed) for s in arm.slots] == [
        (8, "ISLargePulseLaser", "jettison_capable", False),
        (9, "ISLargePulseLaser", "jettison_capable", False),
    ]
    assert all(m.hits == 0 and not m.dead for e in mul.entities for m in e.members)


# --- bob.mul ----------------------------------------------------------------------------------


def test_bob_record() -> None:
    mul = read("bob.mul")
    assert mul.root is RootKind.RECORD
    assert mul.version == "0.43.4-git"
    assert sections(mul) == {"survivors": 16, "retreated": 1}
    assert mul.kills == ()
    # The first survivor is the Nekohono'o small craft: SI 16, 295 heat sinks, fuel 11995.
    neko = mul.entities[0]
    assert (neko.chassis, neko.model, neko.movement_mode) == ("Nekohono'o", "(SCL)", "Spheroid")
    assert (neko.velocity, neko.altitude) == (2, 0)
    assert neko.structural_integrity == 16
    assert neko.heat_sinks == 295
    assert neko.fuel == 11995
    assert neko.bombs == ()  # an empty <bombs></bombs> block, not a missing one
    assert neko.crew is not None and neko.crew.size == 7
    achilles = neko.members[0]
    assert (achilles.name, achilles.gunnery, achilles.piloting, achilles.artillery) == (
        "Achilles Kaklamanakis",
        4,
        5,
        4,
    )
    nose = neko.location(0)
    assert nose is not None and nose.name == "Nose"
    assert (nose.slots[0].index, nose.slots[0].type, nose.slots[0].shots) == (
        14,
        "IS MRM 40 Ammo",
        54,
    )
    assert len(by_unit(mul, "Huscarl", "HSCL-1-OA")) == 6
    assert len(by_unit(mul, "Battle Taxi", "NL-42")) == 9
    # The apostrophe name next to the character our copy lost.
    assert by_pilot(mul, "Soo-Yun Ma'n").chassis == "Battle Taxi"
    (condottiere,) = mul.section(Section.RETREATED)
    assert condottiere.chassis == "Condottiere Assault Craft"
    assert condottiere.crew is not None and condottiere.crew.size == 3
    assert (condottiere.structural_integrity, condottiere.heat_sinks, condottiere.fuel) == (
        5,
        11,
        720,
    )
    left_side = condottiere.location(1)
    assert left_side is not None and left_side.name == "Left Side"
    assert [s.shots for s in left_side.slots] == [8, 8]


# --- clusterstrike-batchall-record.mul --------------------------------------------------------


def test_clusterstrike_sections_and_kills() -> None:
    mul = read("clusterstrike-batchall-record.mul")
    assert mul.root is RootKind.RECORD
    assert mul.version == "1337.50.12"
    assert sections(mul) == {"survivors": 1, "allies": 1, "salvage": 8, "devastated": 3}
    assert len(mul.kills) == 5
    kills = {k.killed: k.killer for k in mul.kills}
    assert kills["Pilot Ubaldo bin Abdul (Federated Suns Officer)"] is None  # killer="None"
    assert kills["Rifleman RFL-8D (Federated Suns Officer)"] == (
        "56095766-4d41-46c8-b9e3-742923074c74"
    )
    assert kills["Rifleman RFL-5D (Federated Suns Officer)"] == (
        "8dd295cf-cd61-4532-98fe-cd812054be5b"
    )
    # The Atlas III that scored three of the kills is the only survivor.
    (atlas,) = mul.section(Section.SURVIVORS)
    assert atlas.external_id == "56095766-4d41-46c8-b9e3-742923074c74"
    assert sum(1 for k in mul.kills if k.killer == atlas.external_id) == 3


def test_clusterstrike_damage() -> None:
    mul = read("clusterstrike-batchall-record.mul")
    (atlas,) = mul.section(Section.SURVIVORS)
    ct = atlas.location(1)
    assert ct is not None and ct.name == "Center Torso"
    # <armor points="35"/>, <armor points="21" type="Internal"/>,
    # <armor points="Destroyed" type="Rear"/>
    assert (ct.armor, ct.internal, ct.rear) == (35, 21, ARMOR_DESTROYED)
    assert [(s.index, s.type, s.is_hit, s.is_destroyed) for s in ct.slots][:2] == [
        (1, "System", True, True),
        (3, "System", True, True),
    ]
    rt = atlas.location(2)
    assert rt is not None
    assert [(s.index, s.shots) for s in rt.slots if "Hyper-Assault" in s.type] == [
        (8, 0),
        (9, 0),
        (10, 3),
        (11, 4),
    ]
    left_arm = atlas.location(5)
    assert left_arm is not None and left_arm.destroyed and left_arm.name == "Left Arm"
    assert atlas.force == "Comstar Explorer Remnants|0||Temp Batchall Duty|1||"
    assert atlas.game_id == 41

    # Rifleman RFL-8D: four locations destroyed, the left arm blown off with isMissing slots.
    (rfl8d,) = by_unit(mul, "Rifleman", "RFL-8D")
    assert rfl8d.section is Section.DEVASTATED
    assert [loc.index for loc in rfl8d.locations if loc.destroyed] == [1, 2, 3, 4]
    arm = rfl8d.location(5)
    assert arm is not None
    assert arm.blown_off and arm.name == "Left Arm" and not arm.destroyed
    assert (arm.armor, arm.internal) == (0, 8)
    assert len(arm.slots) == 12 and all(s.is_missing for s in arm.slots)
    assert [s.index for s in arm.slots if s.is_hit] == [4]
    left_leg = rfl8d.location(7)
    assert left_leg is not None and (left_leg.armor, left_leg.internal) == (ARMOR_DESTROYED, 11)


def test_clusterstrike_crews() -> None:
    mul = read("clusterstrike-batchall-record.mul")
    # Fouzia Zand (Bandersnatch): hits="Dead", not ejected.
    bandersnatch = by_pilot(mul, "Fouzia Zand")
    zand = bandersnatch.members[0]
    assert zand.hits == DEAD_HITS and zand.dead
    assert bandersnatch.crew is not None and not bandersnatch.crew.ejected
    # Wilford Abiodun: hits="2" commandB="1" ejected="true" in his Avatar.
    avatar = by_pilot(mul, "Demi-Precentor Epsilon XIII Wilford Abiodun", chassis="Avatar")
    wilford = avatar.members[0]
    assert wilford.hits == 2 and not wilford.dead
    assert avatar.crew is not None and avatar.crew.ejected and avatar.crew.command_bonus == 1
    assert avatar.crew.advantages == ("specialist Ballistic", "blind_fighter")
    assert ("portraitFile", "MW_M_17.png") in wilford.extra
    # &quot; in a name, and non-ASCII letters.
    black_knight = by_pilot(mul, 'Acolyte Epsilon Hayden "Comfort" Megson')
    assert black_knight.section is Section.ALLIES
    flashman = by_pilot(
        mul, 'Demi-Precentor Epsilon XVI Bergljot "Fish Fry" Lönnroth', chassis="Flashman"
    )
    assert flashman.members[0].dead and flashman.commander is True
    # Atlas III pilot: artillery 8, one Edge point.
    (atlas,) = mul.section(Section.SURVIVORS)
    tony = atlas.members[0]
    assert (tony.name, tony.gunnery, tony.piloting, tony.artillery) == (
        "Demi-Precentor Epsilon IX Tony Liu",
        1,
        2,
        8,
    )
    assert tony.gender == "OTHER_MALE" and tony.clanperson is False
    assert atlas.crew is not None and atlas.crew.edge_points == 1


def test_clusterstrike_ejected_pilot_entities() -> None:
    mul = read("clusterstrike-batchall-record.mul")
    ejected = [e for e in mul.entities if e.is_ejected_crew]
    assert [(e.section.value, e.model) for e in ejected] == [
        ("salvage", "Orselina Ríos"),
        ("salvage", "Rauno Kirkcaldie"),
        ("salvage", "Demi-Precentor Epsilon XIII Wilford Abiodun"),
        ("devastated", 'Demi-Precentor Epsilon XVI Bergljot "Fish Fry" Lönnroth'),
        ("devastated", "Ubaldo bin Abdul"),
    ]
    assert all(e.chassis == "Pilot" and e.movement_mode == "Leg" for e in ejected)
    assert all(e.ejected_men == 1 for e in ejected)
    wilford = ejected[2]
    assert wilford.pick_up_id == "077fd543-b634-496f-a6bf-fc79011e5875"
    assert [e.pick_up_id for e in ejected].count(None) == 4
    # An ejected pilot on foot has a "Troopers" location with internal 0.
    fish_fry = ejected[3]
    troopers = fish_fry.location(0)
    assert troopers is not None and troopers.name == "Troopers" and troopers.internal == 0


# --- mekhq-Example.mul ------------------------------------------------------------------------


def test_mekhq_example_old_format() -> None:
    mul = read("mekhq-Example.mul")
    assert mul.root is RootKind.UNIT
    assert mul.version is None  # <unit> without a version attribute
    assert sections(mul) == {"unit": 20}
    # No externalId anywhere in this old file.
    assert all(e.external_id is None for e in mul.entities)
    black_knight = mul.entities[0]
    assert (black_knight.chassis, black_knight.model) == ("Black Knight", "BL-9-KNT")
    pilot = black_knight.members[0]
    assert (pilot.name, pilot.gunnery, pilot.piloting, pilot.hits) == ("Unnamed", 3, 4, 1)
    assert black_knight.crew is not None and black_knight.crew.size is None
    rt = black_knight.location(2)
    assert rt is not None and (rt.armor, rt.internal) == (ARMOR_DESTROYED, 15)
    # Guillotine GLT-5M #1: destroyed right leg (self-closing, name in the tail), rear armor.
    guillotine = by_unit(mul, "Guillotine", "GLT-5M")[0]
    leg = guillotine.location(6)
    assert leg is not None and leg.destroyed and leg.name == "Right Leg"
    ct = guillotine.location(1)
    assert ct is not None and (ct.armor, ct.internal, ct.rear) == (None, None, 5)
    lt = guillotine.location(3)
    assert lt is not None and (lt.armor, lt.rear) == (12, ARMOR_DESTROYED)
    # Bombardier: a hit and destroyed medium laser, ammo bins at 0.
    (bombardier,) = by_unit(mul, "Bombardier", "BMB-14D")
    bct = bombardier.location(1)
    assert bct is not None
    assert [(s.index, s.type, s.is_hit, s.is_destroyed) for s in bct.slots] == [
        (11, "Medium Laser", True, True)
    ]
    blt = bombardier.location(3)
    assert blt is not None and [s.shots for s in blt.slots] == [0, 0, 4]
    # Mad Dog Prime: a Clan pilot with one hit and a destroyed right arm.
    mad_dog = by_pilot(mul, "Star Commander Lucien")
    assert mad_dog.members[0].hits == 1
    assert mad_dog.crew is not None and mad_dog.crew.advantages == ("clan_pilot_training",)
    assert mad_dog.crew.autoeject is False
    arm = mad_dog.location(4)
    assert arm is not None and arm.destroyed and arm.name == "Right Arm"


def test_mekhq_example_tanks_old_movement_and_na_slots() -> None:
    mul = read("mekhq-Example.mul")
    # <entity chassis="Burke" model="" type="Tracked">, <movement speed="2"/> on an LF-only line.
    burke = by_unit(mul, "Burke", "")[0]
    assert burke.movement_mode == "Tracked"
    assert burke.legacy_movement_speed == 2
    assert burke.motive_damage is None
    body = burke.location(0)
    assert body is not None and body.name == "Body"
    assert [(s.index, s.type, s.shots, s.is_destroyed) for s in body.slots] == [
        (1, "IS Ammo LRM-10", 8, None),
        (None, "IS Ammo LRM-10", 8, False),  # index="N/A"
    ]
    fury = by_unit(mul, "Fury", "")[0]
    assert fury.legacy_movement_speed == 4
    fbody = fury.location(0)
    assert fbody is not None
    assert [(s.index, s.shots) for s in fbody.slots] == [(1, 8), (2, 1), (None, 8), (None, 1)]
    hovers = [e for e in mul.entities if e.movement_mode == "Hover"]
    assert [(e.chassis, e.legacy_movement_speed) for e in hovers] == [
        ("Regulator Hovertank", 9),
        ("Saladin Assault Hover Tank", 8),
        ("Zephyr", 9),
        ("Zephyr", 9),
    ]


# --- mekhq-fixedmuls-AlliedASFAceHvy.mul ------------------------------------------------------


def test_allied_asf_ace() -> None:
    mul = read("mekhq-fixedmuls-AlliedASFAceHvy.mul")
    assert (mul.root, mul.version) == (RootKind.UNIT, "0.49.19-SNAPSHOT")
    (tb,) = mul.entities
    assert (tb.chassis, tb.model, tb.movement_mode) == ("Thunderbird", "TRB-D36", "Aerodyne")
    assert (tb.velocity, tb.altitude, tb.never_deployed) == (0, 5, True)
    # <fuel\n\t\t\tleft="400" />, <structural\n\t\t\tintegrity="10" />, <heat sinks="25" />
    assert (tb.fuel, tb.structural_integrity, tb.heat_sinks) == (400, 10, 25)
    assert tb.bombs is not None
    assert [(b.type, b.load, b.internal) for b in tb.bombs] == [
        ("HEBomb", 7, False),
        ("ClusterBomb", 7, False),
        ("FABombSmall Ammo", 4, False),
    ]
    tarvo = tb.members[0]
    assert (tarvo.name, tarvo.nick, tarvo.gunnery, tarvo.piloting) == (
        "Tarvo Guzmán",
        "Wedge",
        3,
        2,
    )
    assert tb.crew is not None and tb.crew.edge_points == 3
    assert "edge_when_aero_alt_loss" in tb.crew.edge
    assert tb.crew.advantages == ("maneuvering_ace", "shaky_stick", "golden_goose")
    fuselage = tb.location(5)
    assert fuselage is not None and fuselage.name == "Fuselage"
    assert [(s.index, s.shots) for s in fuselage.slots] == [(1, 6), (2, 6), (3, 6), (4, 6)]
    assert tb.game_id == 11


# --- mekhq-fixedmuls-AlliedCavLance.mul -------------------------------------------------------


def test_allied_cav_lance_wrapped_attributes() -> None:
    mul = read("mekhq-fixedmuls-AlliedCavLance.mul")
    assert (mul.root, mul.version) == (RootKind.UNIT, "0.49.16-SNAPSHOT")
    assert [e.chassis for e in mul.entities] == ["Ostroc", "Ostsol", "Champion", "Dragon"]
    ostroc = mul.entities[0]
    # externalId sits on the third line of the wrapped <entity> tag.
    assert ostroc.external_id == "ea69d177-10d0-4293-a430-ae1b3c0ec62c"
    assert ostroc.never_deployed is True
    damia = ostroc.members[0]
    assert (damia.name, damia.gender, damia.external_id) == (
        "Damia Jawaad",
        "FEMALE",
        "f5cf4fe5-f366-4577-9e1f-b65eb5133170",
    )
    assert ostroc.crew is not None and ostroc.crew.autoeject is True
    assert ostroc.crew.edge_points == 2
    # "<location index="1"> Center\n\t\tTorso <slot ...": the wrapped name is one name.
    ct = ostroc.location(1)
    assert ct is not None and ct.name == "Center Torso"
    assert [(s.index, s.type, s.shots) for s in ct.slots] == [(12, "IS Ammo SRM-2", 50)]
    champion = mul.entities[2]
    rt = champion.location(2)
    assert rt is not None and rt.name == "Right Torso"
    assert [s.shots for s in rt.slots] == [10, 10]  # the second slot's shots= is wrapped
    arm = champion.location(4)
    assert arm is not None and arm.name == "Right Arm"
    assert [(s.index, s.type, s.is_empty) for s in arm.slots] == [
        (3, "Empty", True),
        (4, "Empty", True),
    ]
    assert champion.game_id == 13  # <Game\n\t\t\tid="13" />
    assert champion.crew is not None
    assert "weapon_specialist AC/10" in champion.crew.advantages


# --- mekhq-fixedmuls-EnemyOffFieldArty.mul ----------------------------------------------------


def test_enemy_off_field_artillery() -> None:
    mul = read("mekhq-fixedmuls-EnemyOffFieldArty.mul")
    assert (mul.root, mul.version) == (RootKind.UNIT, "0.49.19-SNAPSHOT")
    assert [(e.chassis, e.model) for e in mul.entities] == [
        ("Field Artillery", "(Sniper)"),
        ("Field Artillery", "(Sniper)"),
        ("Field Artillery", "(Thumper)"),
        ("Field Artillery", "(Thumper)"),
    ]
    first = mul.entities[0]
    assert first.movement_mode == "Tracked"
    assert first.offboard is True
    extra = dict(first.extra)
    assert extra["offboard_distance"] == "17" and extra["offboard_direction"] == "0"
    assert extra["deploymentZoneAnyNWx"] == "-1"
    guns = first.location(1)
    assert guns is not None and guns.name == "Field Guns" and guns.internal == 0
    assert [(s.index, s.type, s.shots) for s in guns.slots] == [(2, "ISSniperAmmo", 10)]
    assert [e.members[0].name for e in mul.entities] == [
        "Finnian Stainer",
        "Zak Uthman",
        "Greta Kluge",
        "Robbie Berger",
    ]
    assert mul.entities[0].members[0].piloting == 8
    thumper = mul.entities[3].location(1)
    assert thumper is not None and thumper.slots[0].shots == 20


# --- mekhq-fixedmuls-VTOLApocalypse.mul -------------------------------------------------------


def test_vtol_apocalypse() -> None:
    mul = read("mekhq-fixedmuls-VTOLApocalypse.mul")
    assert (mul.root, mul.version) == (RootKind.UNIT, "0.49.15-SNAPSHOT")
    assert len(mul.entities) == 8
    assert all(e.chassis == "Warrior Attack Helicopter" for e in mul.entities)
    assert [e.model for e in mul.entities].count("H-7C") == 4
    first = mul.entities[0]
    assert first.movement_mode == "VTOL"
    assert first.elevation == 1
    assert first.quirks == ("vtol_rotor",)
    # <motive damage="0"\n\t\t\tpenalty="0" />
    assert (first.motive_damage, first.motive_penalty) == (0, 0)
    assert first.crew is not None and first.crew.size == 2
    assert first.members[0].name == "Ghaidaa Abdul-Samad"
    body = first.location(0)
    assert body is not None and body.name == "Body"
    assert [(s.index, s.type, s.shots) for s in body.slots] == [
        (1, "IS Ammo LRM-10", 12),
        (2, "IS Ammo LRM-10", 12),
        (3, "IS Ammo SRM-4", 25),
    ]
    assert all(e.elevation == 1 and e.motive_damage == 0 for e in mul.entities)
    assert by_pilot(mul, "Shih-k'ai Dai").model == "H-7"
    killgore = by_pilot(mul, "Bill Killgore")
    assert killgore.crew is not None and killgore.crew.edge_points == 2


# --- mekhq-fixedmuls-aceARC2R.mul -------------------------------------------------------------


def test_ace_archer() -> None:
    mul = read("mekhq-fixedmuls-aceARC2R.mul")
    assert (mul.root, mul.version) == (RootKind.UNIT, "0.49.13-SNAPSHOT")
    (archer,) = mul.entities
    assert (archer.chassis, archer.model, archer.movement_mode) == ("Archer", "ARC-2R", "Biped")
    assert archer.external_id == "eed587e5-1b46-49b3-a9e8-6855534d90a7"
    graciana = archer.members[0]
    assert (graciana.name, graciana.nick, graciana.gender) == (
        "Graciana Oliwczyk",
        "Babe",
        "FEMALE",
    )
    assert (graciana.gunnery, graciana.piloting) == (2, 3)
    assert graciana.external_id == "16a18fbd-fd45-4b4a-aacf-344cde5e0dc3"
    assert archer.crew is not None
    assert archer.crew.advantages == ("oblique_attacker", "some_like_it_hot")
    assert archer.crew.edge_points == 2 and archer.crew.autoeject is True
    assert [(loc.index, loc.name) for loc in archer.locations] == [
        (2, "Right Torso"),
        (3, "Left Torso"),
    ]
    assert all(s.shots == 6 and s.type == "IS Ammo LRM-20" for loc in archer.locations
               for s in loc.slots)  # fmt: skip
    assert archer.game_id == 2
