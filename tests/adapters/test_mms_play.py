"""A scenario file that gives the intended game: random boards from RandomDirs, crits both
loaders read, vehicle criticals as MegaMek's critical types, battle armour armour one higher,
what v1 cannot hold named, the options the content needs merged over the host's own, and the
YAML (v2) check over MegaMek's own v2 scenario. Rulings MMS-4 to MMS-8 (docs/megamek-adapter.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mekref.adapters.megamek.mms_check import check_mms, check_playable, parse_mms
from mekref.adapters.megamek.mms_check_v2 import check_mms_v2, scenario_version
from mekref.adapters.megamek.mms_condition import AERO, BATTLE_ARMOR, TANK, unit_condition
from mekref.adapters.megamek.mms_options import (
    content_options,
    merged_options,
    read_game_options,
)
from mekref.adapters.megamek.mms_writer import (
    MmsFaction,
    MmsScenario,
    MmsUnit,
    game_options_xml,
    mms_gaps,
    write_mms,
)
from mekref.adapters.megamek.mul_model import Crew, CrewMember, Entity, Location, Slot

SCENARIOS = Path(__file__).parents[1] / "fixtures" / "megamek" / "scenarios"


def _one(unit: MmsUnit, maps: tuple[str, ...] = ("RANDOM",), dirs: tuple[str, ...] = ("M",)) -> str:
    return write_mms(
        MmsScenario(
            name="T", description="", maps=maps, random_dirs=dirs,
            factions=(MmsFaction(name="A", units=(unit,)),),
        )
    )  # fmt: skip


def test_a_random_board_is_drawn_from_random_dirs_or_refused() -> None:
    atlas = MmsUnit(entity=Entity(chassis="Atlas", model="AS7-D", movement_mode="Biped"))
    m = parse_mms(_one(atlas, dirs=("Map Set 2", "Map Set 3")))
    assert m.get("RandomDirs") == "Map Set 2,Map Set 3"
    assert check_playable(m, None) == []
    with pytest.raises(ValueError, match="RandomDirs"):
        _one(atlas, dirs=())
    named = parse_mms(_one(atlas, maps=("Map Set 2/16x17 BattleTech",), dirs=()))
    assert named.get("RandomDirs") is None and check_playable(named, None) == []
    # MegaMek's own files draw RANDOM boards from the top of data/boards: loadable, not playable.
    bare = parse_mms("MMSVersion=1\nName=T\nMaps=RANDOM\nFactions=A\n")
    assert check_mms(bare) == []
    assert any("RANDOM board without RandomDirs" in p for p in check_playable(bare, None))
    # Fewer boards named than BoardWidth x BoardHeight: the rest are RANDOM to MegaMek.
    short = parse_mms("MMSVersion=1\nName=T\nBoardHeight=2\nMaps=Map Set 2/x\nFactions=A\n")
    assert any("RANDOM board without RandomDirs" in p for p in check_playable(short, None))


def test_a_vehicle_gets_critical_types_and_the_rest_is_named() -> None:
    tank = Entity(
        chassis="Vedette", model="V7", movement_mode="Tracked",
        tank_crits=(("sensors", "2"), ("commander", "hit"), ("driver", "hit")),
        motive_damage=2, motive_penalty=1, turret_lock=1,
        locations=(
            Location(index=1, armor=10, stabilizer_hit=True,
                     slots=(Slot(index=1, type="AC/5", is_hit=True),)),
        ),
    )  # fmt: skip
    cond = unit_condition(tank, TANK)
    # Tank.CRIT_SENSOR (4) twice, Tank.CRIT_COMMANDER (5); never the weapon's slot number.
    assert cond.crits == ("0:4", "0:4", "0:5")
    gaps = " | ".join(cond.gaps)
    for needle in ("driver=hit", "hit AC/5", "stabiliser hit", "motive damage 2", "turret lock"):
        assert needle in gaps
    text = _one(MmsUnit(entity=tank, unit_class=TANK))
    m = parse_mms(text)
    (unit,) = m.units()
    assert (
        m.unit_value(unit.key, "CritHit") == m.unit_value(unit.key, "CriticalHit") == "0:4,0:4,0:5"
    )
    assert "motive damage 2" in text and check_mms(m) == [] and check_playable(m, None) == []


def test_battle_armour_armour_is_written_one_higher_and_aero_si_is_named() -> None:
    ba = Entity(
        chassis="Elemental", model="[Laser]", movement_mode="Leg",
        locations=(Location(index=1, armor=3, internal=1), Location(index=2, armor=0, internal=1)),
    )  # fmt: skip
    cond = unit_condition(ba, BATTLE_ARMOR)
    assert cond.damage == ("N1:4", "I1:1", "N2:0", "I2:1")  # the loader sets 4 - 1 = 3
    assert any("one point below full stays at full" in g for g in cond.gaps)
    fighter = Entity(chassis="Stuka", model="STU-K5", movement_mode="Aerodyne",
                     structural_integrity=6, aero_crits=(("avionics", "1"),))  # fmt: skip
    gaps = mms_gaps(
        MmsScenario(name="T", description="", maps=(), random_dirs=("M",),
                    factions=(MmsFaction(name="A", units=(MmsUnit(entity=fighter,
                                                                  unit_class=AERO),)),))
    )  # fmt: skip
    assert any("structural integrity 6 not carried" in g for g in gaps)
    assert any("aero critical avionics=1" in g for g in gaps)


def _ace() -> Entity:
    return Entity(
        chassis="Griffin", model="GRF-1N", movement_mode="Biped",
        crew=Crew(
            members=(CrewMember(name="Ace", gunnery=3, piloting=4),),
            advantages=("dodge_maneuver",), edge=("edge 2", "edge_when_tac"),
            extra=(("implants", "vdni"),),
        ),
    )  # fmt: skip


def test_the_content_names_the_options_it_needs_and_the_check_holds_them_to_it() -> None:
    s = MmsScenario(name="T", description="", maps=(), random_dirs=("M",),
                    factions=(MmsFaction(name="A", units=(MmsUnit(entity=_ace()),)),))  # fmt: skip
    need = content_options(s)
    assert list(need) == ["pilot_advantages", "edge", "manei_domini"]
    m = parse_mms(write_mms(s))
    assert any("need edge" in p and "no GameOptionsFile" in p for p in check_playable(m, None))
    off = check_playable(m, {"edge": "false", "pilot_advantages": "true"})
    assert off == [f"{m.units()[0].key}: pilot options need edge, the options file leaves it off"]
    assert check_playable(m, {"edge": "true", "pilot_advantages": "true"}) == []


def test_the_host_options_are_kept_and_the_needed_ones_switched_on() -> None:
    host = game_options_xml((("double_blind", "true"), ("edge", "false"), ("year", "3025")))
    pairs = read_game_options(host.encode(), "gameoptions.xml")
    merged = merged_options(pairs, {"edge": "true", "pilot_advantages": "true"})
    assert merged == (
        ("double_blind", "true"), ("edge", "true"), ("year", "3025"),
        ("pilot_advantages", "true"),
    )  # fmt: skip
    for bad, needle in ((b"<opts/>", "root <opts>"), (b"<options", "not readable XML")):
        with pytest.raises(ValueError, match=needle):
            read_game_options(bad, "x.xml")


def test_megameks_own_v2_scenario_passes_the_v2_check() -> None:
    text = (SCENARIOS / "LoweringTheBoom.mms").read_text(encoding="utf-8")
    assert scenario_version(text) == 2 and check_mms_v2(text) == []
    v1 = (SCENARIOS / "1-FirstRun.mms").read_text(encoding="utf-8")
    assert scenario_version(v1) == 1
    broken = text.replace("\nmap:", "\nmapp:").replace("deploy: N\n", "deploy: North\n")
    problems = check_mms_v2(broken)
    assert any("missingMap" in p for p in problems)
    assert any("'North' is not a MegaMek deployment area" in p for p in problems)
