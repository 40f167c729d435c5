"""Force checks fed from the unit designs (issue: the salvage unit of L20 and the anti-'Mech
capability of L47 were never filled in from the designs, so those checks could never fire).

The variants below are the project's real MegaMek fixture files with one value changed, the
way MegaMek itself writes it (``<antimek>``, ``<weightclass>``, an equipment line)."""

from __future__ import annotations

import shutil
from fractions import Fraction
from pathlib import Path

from console_script import mekref

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.daemon.samples.ginestra import FOLDER
from mekref.rules.tripwire.force_from_design import (
    anti_mech_capable,
    design_roles,
    troop_space_needed,
)
from mekref.rules.tripwire.model import InfantryMotive, UnitKind, UnitRole

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
PLATOON = "Foot Platoon (Rifle).blk"
ELEMENTAL = "Elemental Battle Armor [Laser](Sqd5).blk"
BULLDOG = "Bulldog Medium Tank.blk"


def _design(name: str, old: str = "", new: str = "") -> UnitDesign:
    text = (UNITS / name).read_text(encoding="utf-8")
    if old:
        assert old in text
        text = text.replace(old, new)
    return parse_unit_file(text.encode("utf-8"), name)


def test_l47_anti_mech_capability_comes_from_the_design() -> None:
    # L47: "any Infantry unit with no AntiMech capability e.g. No AntiMech kit, Mechanised or
    # Heavy Assault BA) has an AntiMech skill of 8".
    foot = InfantryMotive.FOOT
    trained = _design(PLATOON)  # <antimek> 5: anti-'Mech gear, as MegaMek reads it
    assert anti_mech_capable(trained, UnitKind.CONVENTIONAL_INFANTRY, foot) is True
    untrained = _design(PLATOON, "<antimek>\n5\n", "<antimek>\n8\n")
    assert anti_mech_capable(untrained, UnitKind.CONVENTIONAL_INFANTRY, foot) is False
    mechanised = InfantryMotive.MECHANISED
    assert anti_mech_capable(trained, UnitKind.CONVENTIONAL_INFANTRY, mechanised) is False
    medium = _design(ELEMENTAL)  # weight class 2: Medium
    assert anti_mech_capable(medium, UnitKind.BATTLE_ARMOR, None) is True
    heavy = _design(ELEMENTAL, "<weightclass>\n2\n", "<weightclass>\n3\n")
    assert anti_mech_capable(heavy, UnitKind.BATTLE_ARMOR, None) is False
    # Ruling R-FORCE-9: without a design nobody knows; the caller says so.
    assert anti_mech_capable(None, UnitKind.CONVENTIONAL_INFANTRY, foot) is None


def test_l20_a_unit_with_recovery_gear_is_a_salvage_unit() -> None:
    # L20: "Alpha and Beta Company may each field 1 salvage unit" (ruling R-FORCE-8).
    plain = _design(BULLDOG)
    assert UnitRole.SALVAGE not in design_roles(plain)
    for gear in ("Lift Hoist", "LiftHoist", "ISLiftHoist", "Salvage Arm"):
        hoisted = _design(BULLDOG, "<Front Equipment>\n", f"<Front Equipment>\n{gear}\n")
        assert UnitRole.SALVAGE in design_roles(hoisted), gear


def test_force_import_checks_the_anti_mech_skill_of_an_untrained_platoon(tmp_path: Path) -> None:
    # The Ginestra militia platoons are 4/5; with a design that has no anti-'Mech gear their
    # anti-'Mech skill is 8, a gap of 4 (L47: "a maximum difference of 2").
    units = tmp_path / "units"
    shutil.copytree(UNITS, units)
    (units / "Foot Platoon (Rifle).bfs").unlink()
    platoon = units / PLATOON
    platoon.write_text(platoon.read_text().replace("<antimek>\n5\n", "<antimek>\n8\n"))
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
                  "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    assert made.returncode == 0, made.stderr
    mul = str(FOLDER / "loyalist.mul")
    checked = mekref("force", "import", "--db", db, "--side", "loyalist", mul,
                     "--units-dir", str(units), "--check-only")  # fmt: skip
    assert "skills.max_gap" in checked.stdout, checked.stdout
    assert "Militia platoon 1 4/8: gunnery and piloting (or anti-'Mech) differ by more than 2" in (
        " ".join(checked.stdout.split())
    )
    # With the real design (anti-'Mech gear, <antimek> 5) the same platoons are legal. The
    # folder also holds a battlefield support asset of the same name: the entity's shape picks
    # the infantry design, so the platoon is not left without one.
    trained = mekref("force", "import", "--db", db, "--side", "loyalist", mul,
                     "--units-dir", str(UNITS), "--check-only")  # fmt: skip
    text = " ".join(trained.stdout.split())
    assert "Militia platoon 1 4/8" not in text and "skills.max_gap" not in text
    assert "no design found" not in text


def test_l49_troop_space_from_the_real_designs() -> None:
    # L49: "vehicles with troop capacity (e.g. Maxim Heavy Hover Tank) for Infantry/Battle
    # Armor". Ruling R-FORCE-5: a platoon takes MegaMek's platoon weight in troop space.
    infantry, foot = UnitKind.CONVENTIONAL_INFANTRY, InfantryMotive.FOOT
    # 28 troopers x (0.085 t on foot + 0.015 t of anti-'Mech gear) = 2.8 t, to the half ton: 3.
    assert troop_space_needed(_design(PLATOON), infantry, foot) == (Fraction(3), "")
    # The Maxim (Fire Support)'s <transporters> line "TroopSpace:3" carries exactly one.
    assert _design("Maxim Heavy Hover Transport (Fire Support).blk").troop_tons == 3.0
    # Without the gear: 28 x 0.085 = 2.38 t -> 2.5; as jump infantry: 28 x 0.18 = 5.04 -> 5.5.
    untrained = _design(PLATOON, "<antimek>\n5\n", "<antimek>\n8\n")
    assert troop_space_needed(untrained, infantry, foot) == (Fraction(5, 2), "")
    jump = InfantryMotive.JUMP
    assert troop_space_needed(_design(PLATOON), infantry, jump) == (Fraction(11, 2), "")
    # Combat engineers (specialization bit 0) add 0.1 t a trooper: 28 x 0.2 = 5.6 -> 6.
    engineers = _design(
        PLATOON, "<squad_size>", "<specialization>\n1\n</specialization>\n\n<squad_size>"
    )
    assert troop_space_needed(engineers, infantry, foot) == (Fraction(6), "")
    # A battle armor squad: its suits times its weight class's tons (Medium: 1 t) = 5 t.
    assert troop_space_needed(_design(ELEMENTAL), UnitKind.BATTLE_ARMOR, None) == (Fraction(5), "")
    # Never a silent 0: without a design, or with field guns of unknown weight, it says why.
    need, why = troop_space_needed(None, infantry, foot)
    assert need == 0 and why == "no design: the troop space it needs is unknown"
    gunned = _design(PLATOON, "<Field Guns Equipment>\n", "<Field Guns Equipment>\nISAC5\n")
    assert troop_space_needed(gunned, infantry, foot) == (
        Fraction(0),
        "its field guns' weight is unknown",
    )
