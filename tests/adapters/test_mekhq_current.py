"""MekHQ campaigns as MekHQ writes them today (givenName/surname, ``Gunnery/Mek``, attribute
modifiers, the commander flag, formation commanders, injuries, ``<formations>``), read beside
the same campaign in the old shape; ``force import`` and ``inspect`` through the installed
console script (rulings R-IMP-4, R-IMP-5)."""

from __future__ import annotations

import gzip
import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mekhq_crew import campaign_import, target_number
from mekref.adapters.megamek.mekhq_reader import read_campaign_bytes
from mekref.adapters.megamek.mekhq_skills import (
    ANTI_MEK,
    GUN_BA,
    GUN_MEK,
    GUN_PROTO,
    PILOT_GVEE,
    PILOT_MEK,
    attribute_modifier,
    canonical_skill,
    skills_for,
)
from mekref.adapters.megamek.unit_kinds import UnitKind

MEKHQ = Path(__file__).resolve().parents[1] / "fixtures" / "mekhq"
OLD = MEKHQ / "FoxsTeeth.cpnx"
CURRENT = MEKHQ / "derived" / "FoxsTeeth-current.cpnx"
SCRIPT = MEKHQ / "derived" / "make_current_format.py"
#: Wide enough that table cells (crew names with their skills) do not wrap.
WIDE = {"COLUMNS": "240"}


def test_the_committed_fixture_is_what_its_script_makes() -> None:
    """The derived file's origin is provable: the script turns the real file into it."""
    spec = importlib.util.spec_from_file_location("make_current_format", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = "\n".join(module.convert(OLD.read_text(encoding="utf-8").split("\n")))
    assert made == CURRENT.read_text(encoding="utf-8")


def test_every_renamed_skill_maps_to_its_current_name() -> None:
    # SkillType "<50.01 compatibility handler", 0.49.12 and "<50.07" (updateSkillName).
    assert canonical_skill("Gunnery/Mech") == GUN_MEK == canonical_skill("gunnery/mek")
    assert canonical_skill("Piloting/Mech") == PILOT_MEK
    assert canonical_skill("Gunnery/Battlesuit") == GUN_BA
    assert canonical_skill("Gunnery/ProtoMech") == GUN_PROTO == canonical_skill("Gunnery/Protomek")
    assert canonical_skill("Anti-Mech") == ANTI_MEK == canonical_skill("Anti-Mek")
    assert canonical_skill("Tactics") == "Tactics/Any"
    assert canonical_skill("Demolitions (RP Only)") == "Demolitions"
    assert canonical_skill("Art/Cooking (RP Only)") == "Art/Cooking (RP Only)"
    assert canonical_skill("Gunnery/Vehicle") == "Gunnery/Vehicle"  # never renamed
    # getGunnerySkillFor / getDrivingSkillFor
    assert skills_for(UnitKind.TANK, "Tracked") == ("Gunnery/Vehicle", PILOT_GVEE)
    assert skills_for(UnitKind.TANK, "Hydrofoil") == ("Gunnery/Vehicle", "Piloting/Naval")
    assert skills_for(UnitKind.VTOL, "VTOL") == ("Gunnery/Vehicle", "Piloting/VTOL")
    assert skills_for(UnitKind.BATTLE_ARMOR, "Jump") == (GUN_BA, ANTI_MEK)
    assert skills_for(UnitKind.CONVENTIONAL_INFANTRY, "Leg") == ("Small Arms", ANTI_MEK)
    assert skills_for(UnitKind.PROTOMEK, "Biped") == (GUN_PROTO, GUN_PROTO)
    assert skills_for(UnitKind.CONVENTIONAL_FIGHTER, "Aerodyne") == (
        "Gunnery/Aircraft", "Piloting/Aircraft")  # fmt: skip
    # Skill.getIndividualAttributeModifier (ATOW p. 41)
    table = {0: -4, 1: -2, 2: -1, 3: -1, 4: 0, 6: 0, 7: 1, 9: 1, 10: 2, 12: 4, 18: 5}
    assert {s: attribute_modifier(s) for s in table} == table


def test_old_and_current_shapes_read_the_same_people() -> None:
    old = read_campaign_bytes(OLD.read_bytes(), str(OLD))
    new = read_campaign_bytes(CURRENT.read_bytes(), str(CURRENT))
    assert (old.version, new.version) == (None, "0.50.10")
    assert {p.name for p in old.people} < {p.name for p in new.people}
    hill_old = next(p for p in old.people if p.name == "Dave Hill")
    hill_new = next(p for p in new.people if p.name == "Dave Hill")
    assert hill_new.skill("Gunnery/Mech") == hill_new.skill(GUN_MEK) == hill_old.skill(GUN_MEK)
    for skill in (GUN_MEK, PILOT_MEK, "Gunnery/Mech"):
        assert target_number(hill_new, skill, new.skill_types) == target_number(
            hill_old, skill, old.skill_types
        )
    # <isCountUp> (0.50.07 on) is read like <countUp>: Tactics counts up, so no target number.
    assert target_number(hill_new, "Tactics", new.skill_types) is None
    ian = next(p for p in new.people if p.name == "Ian McKinnon")
    assert (ian.commander, ian.rank) == (True, 11)
    sara = next(p for p in new.people if p.name == "Sara Lytton")
    assert sara.hits == 2 and [i.describe() for i in sara.injuries] == [
        "A broken left arm; severity 1; 20 days to heal"
    ]
    # MekHQ writes <hits> only above 0: the others have none and are unhurt.
    assert hill_new.hits == 0
    [company] = new.forces
    assert company.commander_id == ian.person_id
    assert [c.name for c in company.children][-1] == "Aerospace Flight"


def test_attribute_modifiers_lower_the_target_number() -> None:
    new = read_campaign_bytes(CURRENT.read_bytes(), str(CURRENT))
    grey = next(p for p in new.people if p.name == "Robert Grey")
    # Gunnery/Mek 7 - level 3 - Reflexes 8 (+1) = 3; Piloting/Mek 8 - 3 - 1 = 4.
    assert (target_number(grey, GUN_MEK, new.skill_types),
            target_number(grey, PILOT_MEK, new.skill_types)) == (3, 4)  # fmt: skip


def _campaign(units: str, people: str, skill_types: str = "") -> bytes:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<campaign version="0.50.10">\n'
        f"<info><name>T</name></info><units>{units}</units><personnel>{people}</personnel>"
        f"<skillTypes>{skill_types}</skillTypes></campaign>\n"
    ).encode()


def _skill_type(name: str, target: int) -> str:
    return (f"<skillType><name>{name}</name><target>{target}</target>"
            "<isCountUp>false</isCountUp></skillType>")  # fmt: skip


def _person(pid: str, name: str, skills: dict[str, int], hits: int = 0) -> str:
    given, surname = name.split(" ")
    rows = "".join(f"<skill><type>{t}</type><level>{lv}</level><bonus>0</bonus></skill>"
                   for t, lv in skills.items())  # fmt: skip
    wounds = f"<hits>{hits}</hits>" if hits else ""
    return (f'<person id="{pid}"><id>{pid}</id><givenName>{given}</givenName>'
            f"<surname>{surname}</surname>{wounds}{rows}</person>")  # fmt: skip


def _squad(gun: str, anti: str) -> bytes:
    troopers = "".join(f'<location index="{i}"> Trooper {i}</location>' for i in range(1, 5))
    unit = (f'<unit id="ba"><entity chassis="Elemental" model="[Laser]" type="Jump">{troopers}'
            "</entity>" + "".join(f"<gunnerId>p{i}</gunnerId><driverId>p{i}</driverId>"
                                  for i in range(4)) + "</unit>")  # fmt: skip
    people = "".join(
        _person(f"p{i}", f"Point {i}", {gun: lv, anti: 4}) for i, lv in enumerate((4, 5, 5, 6))
    )
    types = _skill_type(gun, 7) + _skill_type(anti, 8)
    return _campaign(unit, people, types)


@pytest.mark.parametrize(
    ("gun", "anti"),
    [("Gunnery/Battlesuit", "Anti-Mech"), ("Gunnery/BattleArmor", "Anti-Mek (Climbing)")],
)
def test_battle_armour_reads_under_old_and_current_names(gun: str, anti: str) -> None:
    imp = campaign_import(read_campaign_bytes(_squad(gun, anti), "ba.cpnx"), "ba.cpnx")
    (crew,) = imp.crews
    assert crew.kind is UnitKind.BATTLE_ARMOR
    # Unit.resetPilotAndEntity: the mean of the soldiers' values, rounded half up:
    # gunnery 7 - (4, 5, 5, 6) = (3, 2, 2, 1) -> 2; anti-Mek 8 - 4 = 4.
    assert crew.member is not None
    assert (crew.member.gunnery, crew.member.piloting) == (2, 4)
    assert crew.member.name == "Point 0 (+3 crew)"


def test_a_tank_takes_gunnery_from_the_gunner_and_piloting_from_the_driver() -> None:
    unit = (
        '<unit id="t"><entity chassis="Manticore" model="Heavy Tank" type="Tracked"/>'
        "<driverId>d</driverId><gunnerId>g</gunnerId><vesselCrewId>x</vesselCrewId></unit>"
    )
    people = (_person("d", "Ann Driver", {PILOT_GVEE: 4}, hits=1)
              + _person("g", "Bo Gunner", {"Gunnery/Vehicle": 3})
              + _person("x", "Cy Spare", {}) + _person("s", "Di Clerk", {}))  # fmt: skip
    types = _skill_type(PILOT_GVEE, 8) + _skill_type("Gunnery/Vehicle", 7)
    imp = campaign_import(read_campaign_bytes(_campaign(unit, people, types), "t.cpnx"))
    (crew,) = imp.crews
    assert crew.member is not None
    assert (crew.member.name, crew.member.gunnery, crew.member.piloting, crew.member.hits) == (
        "Ann Driver / Bo Gunner", 4, 4, 1)  # fmt: skip
    assert any("Cy Spare" in line for line in imp.not_taken)  # vessel crew is not seated
    assert any(line.startswith("2 people seated in no unit") for line in imp.not_taken)


def test_a_crew_without_the_skill_is_refused_in_one_line() -> None:
    unit = ('<unit id="m"><entity chassis="Atlas" model="AS7-D" type="Biped"/>'
            "<driverId>p</driverId><gunnerId>p</gunnerId></unit>")  # fmt: skip
    data = _campaign(unit, _person("p", "No Skills", {}), _skill_type(GUN_MEK, 7))
    campaign = read_campaign_bytes(data, "m.cpnx")
    with pytest.raises(MulReadError, match="no Gunnery/Mek target number for No Skills"):
        campaign_import(campaign, "m.cpnx")
    (crew,) = campaign_import(campaign, "m.cpnx", strict=False).crews
    assert crew.member is None and crew.problem is not None


def _new_campaign(tmp_path: Path, name: str = "blue") -> str:
    db = str(tmp_path / "c.db")
    r = mekref("campaign", "new", "--db", db, "--name", "MHQ", "--seed", "7",
               "--side", "blue:Blue", "--side", "red:Red")  # fmt: skip
    assert r.returncode == 0, r.stderr
    return db


#: The file holds one company: the only rules it breaks are the battalion's (L8-L9), which the
#: referee waives for a one-company test force. Its commanders pass unaided (R-IMP-4).
WAIVE = ("--unchecked", "--referee", "Ann", "--reason", "one company of the battalion")


def _only_the_battalion_is_missing(out: str) -> None:
    assert "force construction: 2 violation(s)" in out, out
    assert out.count('[line 8: "') + out.count('[line 9: "') == 2, out


def test_force_import_of_a_current_campaign_needs_no_commander_override(tmp_path: Path) -> None:
    db = _new_campaign(tmp_path)
    src = tmp_path / "Fox's Teeth.cpnx.gz"  # current MekHQ gzips its campaigns
    src.write_bytes(gzip.compress(CURRENT.read_bytes(), mtime=0))
    r = mekref("force", "import", "--db", db, "--side", "blue", str(src), *WAIVE, env=WIDE)
    out = r.stdout
    assert r.returncode == 0, out + r.stderr
    _only_the_battalion_is_missing(out)
    assert "imported 14 units and 14 people for side blue" in out
    for name in ("Ian McKinnon", "Robert Grey", "Sara Lytton", "Kara Voss", "Tomas Reyes"):
        assert name in out
    assert "Force Commander: Ian McKinnon (rank 11) in Black Knight BL-6-KNT Ian" in out
    assert "Medium Lance is led by Paul Danton (rank 10)" in out
    assert ("Robert Grey: Gunnery/Mek 3 = target 7 - level 3 - bonus 0 - attributes +1 "
            "(Reflexes 8: +1, Dexterity 5: +0)") in out  # fmt: skip
    assert "Robert Grey: Piloting/Mek 4 = target 8 - level 3" in out
    assert "Sara Lytton: injury (not kept, only <hits> are): A broken left arm" in out
    assert "Commando COM-2D: Sara Lytton: 2 hit(s)" in out
    assert "not taken: parts in stock, finances" in out
    shown = mekref("force", "commanders", "--db", db, "--json")
    assert shown.returncode == 0, shown.stderr
    roles = {(c["role"], c["person"], c["skills"]) for c in json.loads(shown.stdout)}
    assert roles == {
        ("force commander", "Ian McKinnon", "2/3"),
        ("lance leader", "Ross McKinnon", "3/4"),
        ("lance leader", "Paul Danton", "3/4"),
        ("lance leader", "Kara Voss", "4/5"),
    }


def test_without_the_flag_the_formation_commander_commands(tmp_path: Path) -> None:
    db = _new_campaign(tmp_path)
    src = tmp_path / "no-flag.cpnx"
    text = CURRENT.read_text(encoding="utf-8")
    src.write_text(text.replace("<commander>true</commander>", "<commander>false</commander>"),
                   encoding="utf-8")  # fmt: skip
    r = mekref("force", "import", "--db", db, "--side", "blue", str(src), "--check-only",
               env=WIDE)  # fmt: skip
    assert r.returncode == 3, r.stdout + r.stderr  # one company, no battalion: violations
    assert ("Force Commander of McKinnon's Company (The Fox's Teeth): Ian McKinnon (rank 11) "
            "(MekHQ's commander of that formation)") in r.stdout  # fmt: skip
    _only_the_battalion_is_missing(r.stdout)


def test_the_old_shape_imports_as_before(tmp_path: Path) -> None:
    db = _new_campaign(tmp_path)
    src = tmp_path / "old.cpnx"
    shutil.copy(OLD, src)
    r = mekref("force", "import", "--db", db, "--side", "blue", str(src), "--check-only",
               env=WIDE)  # fmt: skip
    assert r.returncode == 3, r.stdout + r.stderr  # one company, no battalion: violations
    assert "Robert Grey 1/2" in r.stdout and "force construction: 11 violation(s)" in r.stdout
    assert "no Force Commander in the file" in r.stdout
    assert "Recon Lance: no formation commander in the file; its first unit leads it" in r.stdout


def _inspect(path: Path) -> dict[str, Any]:
    r = mekref("inspect", str(path), "--json")
    assert r.returncode == 0, r.stderr
    loaded: dict[str, Any] = json.loads(r.stdout)
    return loaded


def test_inspect_previews_a_campaign(tmp_path: Path) -> None:
    seen = _inspect(CURRENT)
    assert (seen["campaign"], seen["mekhq_version"], len(seen["units"])) == (
        "Fox's Teeth", "0.50.10", 14)  # fmt: skip
    units = {u["unit"]: u for u in seen["units"]}
    commando = units["Commando COM-2D"]
    assert commando["crew"] == {"name": "Sara Lytton", "gunnery": 3, "piloting": 4, "hits": 2}
    assert commando["people"][0]["injuries"] == ["A broken left arm; severity 1; 20 days to heal"]
    assert units["Black Knight BL-6-KNT Ian"]["force_commander"] is True
    assert units["Sparrowhawk SPR-H5"]["toe"][-1] == "Aerospace Flight"
    assert any("Force Commander: Ian McKinnon" in line for line in seen["command"])
    text = mekref("inspect", str(CURRENT), env=WIDE)
    assert text.returncode == 0 and "Ian McKinnon" in text.stdout
    assert "Force Commander" in text.stdout and "not taken:" in text.stdout
    # The old shape too, with its damage; no advice meant for unit lists.
    damaged = _inspect(MEKHQ / "derived" / "FoxsTeeth-damaged.cpnx")
    commando = next(u for u in damaged["units"] if u["unit"] == "Commando COM-2D")
    assert commando["destroyed_locations"] == ["Right Arm"] and commando["crew"]["hits"] == 2
