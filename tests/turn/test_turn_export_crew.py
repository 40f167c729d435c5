"""Through the installed console script: the scenario export (``.mul`` and ``.mms``) gives
MegaMek back every pilot ability, edge trigger, nickname, gender and auto-eject setting the
imported list had, with the commander flag, the command initiative bonus and the commanders'
edge derived by the rules (ruling R-CMD-4).

The crews come from a real MekHQ export with abilities and edge
(``mekhq-fixedmuls-AlliedCavLance.mul``), seated in the Ginestra loyalists' first lance so the
strategic map and an engagement exist.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from console_script import mekref

from mekref.adapters.megamek.mms_check import check_mms, parse_mms
from mekref.adapters.megamek.mul_model import Crew, MulFile
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import write_mul
from mekref.daemon.samples.ginestra import FOLDER

ROOT = Path(__file__).parents[2]
UNITS = ROOT / "tests" / "fixtures" / "megamek" / "units"
CAV_LANCE = ROOT / "tests" / "fixtures" / "megamek" / "mekhq-fixedmuls-AlliedCavLance.mul"
ENGAGEMENT = "day1-1105-1"


def _ok(*args: str) -> str:
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _warned(*args: str) -> str:
    """``engagement export``: it must succeed; its warnings (standard error: standard output
    lists only the files written)."""
    done = mekref(*args)
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stdout, done.stdout
    return done.stderr


def _loyalists_with_real_crews(tmp_path: Path) -> tuple[Path, list[Crew]]:
    """The loyalist list with the four cavalry pilots in its first four 'Mechs; the Griffin
    (first seat: Damia Jawaad, 3/4, Veteran, edge 2 in the list) carries the commander flag."""
    loyal = read_mul_bytes((FOLDER / "loyalist.mul").read_bytes())
    crews = [e.crew for e in read_mul_bytes(CAV_LANCE.read_bytes()).entities if e.crew]
    assert len(crews) >= 4 and all(c.advantages and c.edge for c in crews[:4])
    entities = list(loyal.entities)
    for n in range(4):
        entities[n] = replace(entities[n], crew=crews[n], commander=n == 0)
    path = tmp_path / "loyalist.mul"
    path.write_text(write_mul(MulFile(root=loyal.root, version=loyal.version,
                                      entities=tuple(entities))), encoding="utf-8")  # fmt: skip
    return path, [c for c in crews[:4] if c is not None]


def test_abilities_edge_and_the_commander_survive_the_export(tmp_path: Path) -> None:
    path, crews = _loyalists_with_real_crews(tmp_path)
    db = str(tmp_path / "g.db")
    _ok("campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "3065",
        "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side, mul in (("loyalist", path), ("rebel", FOLDER / "rebel.mul")):
        _ok("force", "import", "--db", db, "--side", side, str(mul), "--units-dir", str(UNITS),
            "--unchecked", "--referee", "Ref", "--reason", "test forces")  # fmt: skip
    _ok("turn", "setup", "--db", db)
    _ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
        "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    _ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
        "--order", "alpha:guard")  # fmt: skip
    _ok("turn", "resolve", "--db", db, "--day", "1")

    out = tmp_path / "out"
    said = _warned("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out))
    exported = read_mul_bytes((out / f"{ENGAGEMENT}-loyalist.mul").read_bytes()).entities
    by_pilot = {e.crew.members[0].name: e for e in exported if e.crew and e.crew.members}
    for n, crew in enumerate(crews):
        imported = crew.members[0]
        e = by_pilot[imported.name]
        assert e.crew is not None
        got = e.crew.members[0]
        # Nothing the list had is lost: abilities, edge triggers, nickname, gender, auto-eject.
        assert e.crew.advantages == crew.advantages
        assert [t for t in e.crew.edge if not t.startswith("edge ")] == [
            t for t in crew.edge if not t.startswith("edge ")
        ]
        assert (got.nick, got.gender, got.gunnery, got.piloting) == (
            imported.nick, imported.gender, imported.gunnery, imported.piloting,
        )  # fmt: skip
        assert e.crew.autoeject == crew.autoeject
        if n == 0:
            # L26/L29-L34: a Veteran Force Commander: the flag, Skill Bonus +1 as MegaMek's
            # command initiative bonus, 1 edge point (the list said 2).
            assert e.commander is True
            assert e.crew.command_bonus == 1
            assert e.crew.edge_points == 1
        else:
            # Not commanders: the list's edge goes out as it was, with a warning.
            assert e.commander is not True
            assert e.crew.edge_points == crew.edge_points
    assert "edge 1 (Veteran commander, L26; the list had 2)" in said
    assert "commandB 1 (the Force Commander's Skill Bonus, L29; the list had 0)" in said
    assert "gives edge to commanders only" in said
    # "weapon_specialist AC/10": an ability with a value keeps it.
    assert any("weapon_specialist AC/10" in c.advantages for c in crews)
    assert any(
        "weapon_specialist AC/10" in e.crew.advantages for e in exported if e.crew is not None
    )

    mms_out = tmp_path / "mms"
    said = _warned("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(mms_out),
                   "--format", "mms")  # fmt: skip
    m = parse_mms((mms_out / f"{ENGAGEMENT}.mms").read_text(encoding="utf-8"))
    assert check_mms(m) == []
    units = [u for u in m.units() if u.faction == "Loyalists"]
    (griffin,) = [u for u in units if u.name == "Griffin GRF-1N"]
    assert m.unit_value(griffin.key, "Commander") == "true"
    advantages = (m.unit_value(griffin.key, "Advantages") or "").split(" ")
    # ScenarioV1.parseAdvantages: space-separated, name or name:value.
    assert set(crews[0].advantages) <= set(advantages)
    assert "edge:1" in advantages and "edge_when_headhit" in advantages
    assert all(m.unit_value(u.key, "Commander") is None for u in units if u is not griffin)
    assert any(
        "weapon_specialist:AC/10" in (m.unit_value(u.key, "Advantages") or "") for u in units
    )
    # What the scenario format cannot carry is said, not dropped.
    assert "commandB 1 not carried (no scenario key)" in said
