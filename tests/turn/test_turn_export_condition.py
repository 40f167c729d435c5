"""Scenario export carries the ammunition left and the critical damage of the last battle.

TripWire, line 23: "Each unit must select is standard load out of ammunition. This may not change
through the campaign." (the import list's bins are that load); line 155: "If these forces are later
deployed in a scenario they do so in a damaged state, or holding less ammo." Ruling T-X3. End to
end: the force comes in from a unit list with full LRM bins, fights (the battle file says 2 shots
left in one bin and a gyro hit), and the next export reads back with the same ammunition and
system hits.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.design import SystemKind
from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.adapters.megamek.mul_model import Entity, Location, MulFile, RootKind, Section, Slot
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul
from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.cli import main
from mekref.daemon.store import open_store

ROOT = Path(__file__).parents[2]
UNITS = ROOT / "tests" / "fixtures" / "megamek" / "units"
GRIFFIN = parse_mtf((UNITS / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "griffin")
ENGAGEMENT = "day1-1105-1"
# The Griffin's two LRM-10 bins: Right Torso (MUL location 2), slots 5 and 6, 12 shots a ton.
FULL_BINS = (
    '<location index="2"> Right Torso\n'
    '<slot index="5" type="IS Ammo LRM-10" shots="12"/>\n'
    '<slot index="6" type="IS Ammo LRM-10" shots="12"/>\n'
    "</location>\n"
)


def _griffin(mul: MulFile) -> Entity:
    (griffin,) = [e for e in mul.entities if e.chassis == "Griffin"]
    return griffin


def _bins(entity: Entity) -> list[tuple[str, int | None, str, int]]:
    cond = merge_condition(entity, GRIFFIN)
    return sorted((a.location, a.slot, a.ammo_type, a.shots) for a in cond.ammo)


@pytest.fixture
def fought(tmp_path: Path) -> tuple[str, Path]:
    """Day 1 of the Ginestra demo, with the Griffin imported carrying its bins, then the
    battle files: Griffin bin 5 down to 2 shots, a gyro hit (Center Torso slot 4)."""
    from mekref.daemon.samples.ginestra import FOLDER

    loyal = (FOLDER / "loyalist.mul").read_text(encoding="utf-8")
    griffin_line = '<entity chassis="Griffin" model="GRF-1N" type="Biped">\n'
    assert griffin_line in loyal
    (tmp_path / "loyalist.mul").write_text(
        loyal.replace(griffin_line, griffin_line + FULL_BINS), encoding="utf-8"
    )
    db = str(tmp_path / "g.db")
    assert main(["campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "3065",
                 "--side", "loyalist:Loyalists", "--side", "rebel:Rebels"]) == 0  # fmt: skip
    for side, path in (("loyalist", tmp_path / "loyalist.mul"), ("rebel", FOLDER / "rebel.mul")):
        assert main(["force", "import", "--db", db, "--side", side, str(path),
                     "--units-dir", str(UNITS), "--unchecked", "--referee", "Ref",
                     "--reason", "test forces"]) == 0  # fmt: skip
    assert main(["turn", "setup", "--db", db]) == 0
    assert main(["orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
                 "--order", "bravo:orbital_insertion::1105"]) == 0  # fmt: skip
    assert main(["orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                 "--order", "alpha:guard"]) == 0  # fmt: skip
    assert main(["turn", "resolve", "--db", db, "--day", "1"]) == 0
    out = tmp_path / "before"
    for side in ("loyalist", "rebel"):
        assert main(["engagement", "export", "--db", db, "--side", side, "-o", str(out),
                     "--units-dir", str(UNITS)]) == 0  # fmt: skip
    loyal_mul = read_mul_bytes((out / f"{ENGAGEMENT}-loyalist.mul").read_bytes())
    rebel_mul = read_mul_bytes((out / f"{ENGAGEMENT}-rebel.mul").read_bytes())
    # Before the battle the export writes the standard load recorded at import.
    assert _bins(_griffin(loyal_mul)) == [
        ("Right Torso", 5, "IS Ammo LRM-10", 12),
        ("Right Torso", 6, "IS Ammo LRM-10", 12),
    ]
    hit = []
    for e in loyal_mul.entities:
        if e.chassis == "Griffin":
            e = replace(
                e,
                locations=(
                    Location(
                        index=1,
                        name="Center Torso",
                        slots=(Slot(index=4, type="System", is_hit=True, is_destroyed=False),),
                    ),
                    Location(
                        index=2,
                        name="Right Torso",
                        slots=(
                            Slot(index=5, type="IS Ammo LRM-10", shots=2),
                            Slot(index=6, type="IS Ammo LRM-10", shots=12),
                        ),
                    ),
                ),
            )
        hit.append(replace(e, section=Section.SURVIVORS))
    records = []
    for name, entities in (
        ("loyalist-record.mul", hit),
        ("rebel-record.mul", [replace(e, section=Section.SURVIVORS) for e in rebel_mul.entities]),
    ):
        path = tmp_path / name
        path.write_text(
            write_mul(
                MulFile(
                    root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION, entities=tuple(entities)
                )
            ),
            encoding="utf-8",
        )
        records.append(str(path))
    assert main(["battle", "ingest", "--db", db, *records, "--control", "loyalist",
                 "--units-dir", str(UNITS)]) == 0  # fmt: skip
    return db, tmp_path


def _export(db: str, folder: Path) -> Entity:
    assert main(["engagement", "export", "--db", db, "--side", "loyalist", "-o", str(folder),
                 "--units-dir", str(UNITS)]) == 0  # fmt: skip
    return _griffin(read_mul_bytes((folder / f"{ENGAGEMENT}-loyalist.mul").read_bytes()))


def test_ammo_left_and_a_gyro_hit_survive_the_round_trip(fought: tuple[str, Path]) -> None:
    db, tmp = fought
    griffin = _export(db, tmp / "after")
    assert _bins(griffin) == [
        ("Right Torso", 5, "IS Ammo LRM-10", 2),
        ("Right Torso", 6, "IS Ammo LRM-10", 12),
    ]
    cond = merge_condition(griffin, GRIFFIN)
    assert cond.hits(SystemKind.GYRO) == 1 and cond.unidentified_system_hits == 0
    (ct,) = [loc for loc in griffin.locations if loc.index == 1]
    (gyro,) = ct.slots
    assert (gyro.index, gyro.type, gyro.is_hit, gyro.is_destroyed) == (4, "System", True, False)


def _griffin_id(db: str) -> str:
    store = open_store(db)
    try:
        (cid,) = [c.id for c in store.list_campaigns()]
        state = CampaignRunner(store).load(cid).state
    finally:
        store.close()
    (uid,) = [u.unit_id for u in state.units.values() if u.chassis == "Griffin"]
    return uid


def test_rearming_fills_the_bins_and_repairs_clear_the_slots(fought: tuple[str, Path]) -> None:
    """Line 68: "| Reload | 1 hour |" fills the bins to the standard load (line 23); line 70:
    "| Repair Internal Structure/Criticals | 6 hours |" mends the gyro."""
    db, tmp = fought
    uid = _griffin_id(db)
    assert main(["pool", "open", "--db", db, "--side", "loyalist", "--id", "chest",
                 "--name", "Chest", "--dropship", "Union", "--balance", "250"]) == 0  # fmt: skip
    books = [
        "--referee",
        "ref",
        "--reason",
        "the chest's Union stands beside the Griffin",
    ]  # R-WHERE-1
    assert main(["spend", "rearm", "--db", db, "--unit", uid, "--pool", "chest", *books]) == 0
    griffin = _export(db, tmp / "rearmed")
    assert [s for _, _, _, s in _bins(griffin)] == [12, 12]
    assert merge_condition(griffin, GRIFFIN).hits(SystemKind.GYRO) == 1
    assert main(["spend", "repair", "--db", db, "--unit", uid, "--pool", "chest",
                 "--task", "internal", "--repair-facility", *books]) == 0  # fmt: skip
    griffin = _export(db, tmp / "repaired")
    assert merge_condition(griffin, GRIFFIN).hits(SystemKind.GYRO) == 0
    assert [s for _, _, _, s in _bins(griffin)] == [12, 12]


def test_the_recorded_bins_and_slots_keep_their_codec_round_trip() -> None:
    from mekref.rules.codec import canonical_json, decode, to_jsonable
    from mekref.rules.tripwire.battle_model import AmmoBinLoad, SlotDamage, UnitDamage

    damage = UnitDamage(
        ammo_bins=(
            AmmoBinLoad(location="Right Torso", slot=5, ammo_type="IS Ammo LRM-10", shots=2),
        ),
        damaged_slots=(
            SlotDamage(
                location="Center Torso", slot=4, item="System", system="gyro", hit=True,
                destroyed=False,
            ),
        ),
    )  # fmt: skip
    back = decode(UnitDamage, to_jsonable(damage))
    assert back == damage and canonical_json(back) == canonical_json(damage)
    # An event stored before the fields existed decodes with nothing recorded.
    old = {
        k: v
        for k, v in to_jsonable(UnitDamage()).items()
        if k not in ("ammo_bins", "damaged_slots")
    }
    assert decode(UnitDamage, old) == UnitDamage()


def test_the_export_uses_the_design_kept_at_import(fought: tuple[str, Path]) -> None:
    """Issue 11: the scenario export lays the battle damage on the design the campaign kept
    from ``force import``; without ``--units-dir`` it writes the same file as with it."""
    from console_script import mekref

    db, tmp = fought
    for folder, extra in (("with", ("--units-dir", str(UNITS))), ("without", ())):
        done = mekref("engagement", "export", "--db", db, "--side", "loyalist",
                      "-o", str(tmp / folder), *extra)  # fmt: skip
        assert done.returncode == 0, done.stderr
    name = f"{ENGAGEMENT}-loyalist.mul"
    assert (tmp / "without" / name).read_bytes() == (tmp / "with" / name).read_bytes()
    griffin = _griffin(read_mul_bytes((tmp / "without" / name).read_bytes()))
    assert merge_condition(griffin, GRIFFIN).hits(SystemKind.GYRO) == 1
