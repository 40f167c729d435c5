"""MegaMek scenario files: MegaMek's own pass the checker; what the writer makes passes it too.

The checker (``mms_check``) follows MegaMek's loader (``ScenarioV1``); the fixtures are MegaMek's
own scenarios (tests/fixtures/megamek/scenarios/README.md).
"""

from __future__ import annotations

from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mekref.adapters.megamek.mms_check import check_mms, parse_mms
from mekref.adapters.megamek.mms_writer import (
    MmsConditions,
    MmsFaction,
    MmsScenario,
    MmsUnit,
    game_options_xml,
    mms_gaps,
    write_mms,
)
from mekref.adapters.megamek.mul_model import (
    ARMOR_DESTROYED,
    Crew,
    CrewMember,
    Entity,
    Location,
    Slot,
)

SCENARIOS = Path(__file__).parents[1] / "fixtures" / "megamek" / "scenarios"


@pytest.mark.parametrize(
    "name",
    [
        "1-FirstRun.mms", "1-TheMistake.mms", "1-ClashInTheCanyon.mms",
        "1-SmokeJaguarVsSteinerDavion.mms",
    ],
)  # fmt: skip
def test_megamek_scenarios_pass_the_check(name: str) -> None:
    assert check_mms(parse_mms((SCENARIOS / name).read_text(encoding="utf-8"))) == []


def test_megameks_example_is_flagged_exactly_where_megamek_skips_data() -> None:
    m = parse_mms((SCENARIOS / "Example.mms").read_text(encoding="utf-8"))
    found = check_mms(m)
    # MegaMek's loader logs "Undeclared unit encountered, ignoring" for these: the example names
    # a faction (Kurita) and a unit (PlayerB's second) it never declares.
    flagged = {p.split(":")[0] for p in found}
    assert all(p.endswith("data for a unit no faction declares") for p in found)
    assert flagged == {
        "Unit_PlayerB_2_Advantages", "Unit_PlayerB_2_AutoEject",
        *(f"Unit_Kurita_{n}_DamageSpecific" for n in (1, 2, 3, 4, 5)),
        *(f"Unit_Kurita_{n}_CritHit" for n in (1, 4, 5, 6)),
        "Unit_Kurita_6_SetAmmoTo",
    }  # fmt: skip
    assert [u.name for u in m.units()] == [
        "Archer ARC-2R", "Hunchback HBK-4G", "Atlas AS7-D", "Locust LCT-1M",
    ]  # fmt: skip


def test_parsing_reads_unit_lines_and_damage_like_megamek() -> None:
    m = parse_mms((SCENARIOS / "1-TheMistake.mms").read_text(encoding="utf-8"))
    units = {u.key: u for u in m.units()}
    assert len(units) == 16 and m.factions == ("RedfieldsRenegades", "LoneStar")
    hunch = units["Unit_RedfieldsRenegades_4"]
    assert (hunch.name, hunch.pilot, hunch.gunnery, hunch.piloting) == (
        "Hunchback HBK-4G", "Curtis Jenkins", 2, 4,
    )  # fmt: skip
    assert m.unit_value("Unit_LoneStar_5", "DamageSpecific") == "N1:0,I1:4,R3:0,I3:8"
    assert m.unit_value("Unit_RedfieldsRenegades_4", "SetAmmoTo") == "3:1-4"


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("Maps=RANDOM\n", None),
        ("Unit_A_2=Atlas AS7-D,Pilot,x,4\n", "does not parse"),
        ("Unit_A_1=Atlas AS7-D,Pilot,4,4\n", "declared 2 times"),
        ("Unit_A_1_DamageSpecific=N1:0,Q2:3\n", "'Q2:3'"),
        ("Unit_A_1_CritHit=1-3\n", "'1-3'"),
        ("Unit_A_1_SetAmmoTo=2:5\n", "'2:5'"),
        ("Unit_A_2_PilotHits=1\n", "no faction declares"),
        ("Unit_A_1_Colour=red\n", "unknown unit data"),
        ("Location_A=North\n", "not a MegaMek deployment area"),
        ("PlanetaryConditionsWeather=15\n", "outside MegaMek's 0..14"),
        ("Mpas=RANDOM\n", "not a key"),
        ("a line without equals\n", "line without"),
    ],
)
def test_the_check_catches_what_megamek_would_trip_on(line: str, needle: str | None) -> None:
    base = "MMSVersion=1\nName=T\nFactions=A,B\nUnit_A_1=Atlas AS7-D,Pilot,4,5\n"
    if needle is None:  # without Maps the loader dereferences null
        assert check_mms(parse_mms(base)) == ["Maps: missing"]
        assert check_mms(parse_mms(base + line)) == []
        return
    problems = check_mms(parse_mms(base + "Maps=RANDOM\n" + line))
    assert any(needle in p for p in problems), problems


def _griffin() -> Entity:
    return Entity(
        chassis="Griffin",
        model="GRF-1N",
        movement_mode="Biped",
        external_id="u-griffin",
        crew=Crew(
            members=(
                CrewMember(name="Anna, the Ace", gunnery=3, piloting=4, hits=2, external_id="p1"),
                CrewMember(name="Second Seat", gunnery=4, piloting=5),
            )
        ),
        locations=(
            Location(index=1, name="Center Torso", armor=12, rear=3, internal=15,
                     slots=(Slot(index=4, type="System", is_hit=True),)),
            Location(index=2, name="Right Torso", armor=ARMOR_DESTROYED, internal=4,
                     slots=(Slot(index=5, type="IS Ammo LRM-10", shots=2),
                            Slot(index=6, type="IS Ammo LRM-10", shots=0, is_hit=True))),
            Location(index=4, name="Right Arm", destroyed=True, internal=0,
                     slots=(Slot(index=1, type="Shoulder", is_missing=True),)),
        ),
    )  # fmt: skip


def _scenario(*units: MmsUnit) -> MmsScenario:
    return MmsScenario(
        name="Test",
        description="a test\nover two lines",
        maps=("Map Set 2/16x17 BattleTech", "RANDOM"),
        random_dirs=("Map Set 2", "Map Set 3"),
        factions=(
            MmsFaction(name="Loyalists", location="N", units=units),
            MmsFaction(
                name="Rebels",
                location="S",
                units=(
                    MmsUnit(entity=Entity(chassis="Atlas", model="AS7-D", movement_mode="Biped")),
                ),
            ),
        ),
        conditions=MmsConditions(weather=3, wind=3),
        options_file="t-options.xml",
    )


def test_the_writer_carries_condition_in_megameks_keys_and_passes_the_check() -> None:
    text = write_mms(_scenario(MmsUnit(entity=_griffin(), deployment_round=3)))
    m = parse_mms(text)
    assert check_mms(m) == []
    (griffin, atlas) = m.units()
    assert (griffin.name, griffin.pilot, griffin.gunnery, griffin.piloting) == (
        "Griffin GRF-1N", "Anna the Ace", 3, 4,
    )  # fmt: skip
    key = griffin.key
    assert m.unit_value(key, "DamageSpecific") == "N1:12,R1:3,I1:15,N2:0,I2:4,I4:0"
    assert m.unit_value(key, "CritHit") == "1:4"  # the hit bin is not hit again
    assert m.unit_value(key, "CriticalHit") == "1:4"  # MegaMek's 2025 loader's key
    assert m.unit_value(key, "SetAmmoTo") == "2:5-2,2:6-0"
    assert m.unit_value(key, "PilotHits") == "2"
    assert m.unit_value(key, "ExternalID") == "u-griffin"
    assert m.unit_value(key, "DeploymentRound") == "3"
    assert m.get("Maps") == "Map Set 2/16x17 BattleTech,RANDOM"
    assert m.get("RandomDirs") == "Map Set 2,Map Set 3"
    assert m.get("BoardHeight") == "2" and m.get("Description") == "a test over two lines"
    assert (m.get("PlanetaryConditionsWeather"), m.get("PlanetaryConditionsWind")) == ("3", "3")
    # An atlas with no crew goes out with MegaMek's default skills, and says so.
    assert (atlas.gunnery, atlas.piloting) == (4, 5)
    gaps = mms_gaps(_scenario(MmsUnit(entity=_griffin())))
    assert any("1 more crew member" in g for g in gaps)
    assert any("hit ammunition slot 2:6" in g for g in gaps)
    assert any("Atlas AS7-D" in g and "no crew recorded" in g for g in gaps)
    assert "# Notes (not read by MegaMek):" in text


def test_faction_names_megamek_cannot_match_are_refused() -> None:
    bad = MmsScenario(name="x", description="", maps=(), factions=(MmsFaction(name="Two Words"),))
    with pytest.raises(ValueError, match="faction names"):
        write_mms(bad)


def test_game_options_file_reads_back_as_megamek_writes_it() -> None:
    xml = game_options_xml((("hidden_units", "true"), ("psr_jump_heavy_woods", "true")))
    root = ElementTree.fromstring(xml)  # our own output, not untrusted input
    pairs = [(o.findtext("optionname"), o.findtext("optionvalue")) for o in root]
    assert root.tag == "options"
    assert pairs == [("hidden_units", "true"), ("psr_jump_heavy_woods", "true")]


_text = st.text(max_size=30)


@settings(max_examples=150, deadline=None)
@given(chassis=_text, model=_text, pilot=_text, ext=_text, shots=st.integers(0, 200))
def test_any_names_still_give_a_file_megamek_reads(
    chassis: str, model: str, pilot: str, ext: str, shots: int
) -> None:
    # Commas, "=", "#", newlines in names or ids must not shift fields or break lines.
    unit = Entity(
        chassis=chassis or "X",
        model=model,
        movement_mode="Biped",
        external_id=ext or None,
        crew=Crew(members=(CrewMember(name=pilot, gunnery=4, piloting=5),)),
        locations=(Location(index=2, slots=(Slot(index=5, type="Ammo", shots=shots),)),),
    )
    m = parse_mms(write_mms(_scenario(MmsUnit(entity=unit))))
    assert check_mms(m) == []
    first = m.units()[0]
    assert (first.gunnery, first.piloting) == (4, 5)
    assert m.unit_value(first.key, "SetAmmoTo") == f"2:5-{shots}"
