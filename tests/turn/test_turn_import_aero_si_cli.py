"""An aerospace fighter's structural integrity and critical results are kept from import and
written back (issue 26, ruling R-IMP-6).

``tests/fixtures/megamek/derived/damaged-rapier.mul`` is the real
``mekhq-fixedmuls-AlliedASFAceHvy.mul`` made a Rapier RPR-300 (a design bundled in the unit
fixtures) with structural integrity 4 of the design's 8 and one avionics hit (each edit in the
README beside it). ``inspect --json`` and, after ``force import``, ``report --json`` show both
through the installed console script; the condition the campaign keeps goes out as MegaMek's
unit list writes it (``<structural integrity>``, ``<acriticals>``), and the scenario file, which
has no key for either, names them.
"""

from __future__ import annotations

import json
from pathlib import Path

from ginestra_cli import UNITS, ok

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.mms_condition import AERO, unit_condition
from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.rules.tripwire.battle_damage import unit_damage
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.turn.export import with_criticals

DAMAGED = Path(__file__).parents[1] / "fixtures" / "megamek" / "derived" / "damaged-rapier.mul"
DESIGN = UNITS / "Rapier RPR-300.blk"


def test_inspect_and_the_report_show_si_and_the_avionics_hit(tmp_path: Path) -> None:
    seen = json.loads(ok("inspect", str(DAMAGED), "--units-dir", str(UNITS), "--json"))
    (unit,) = seen["units"]
    assert unit["state"] == "damaged"
    assert (unit["structural_integrity"], unit["structural_integrity_max"]) == (4, 8)
    assert unit["criticals"]["aero"] == {"avionics": "1"}
    db = str(tmp_path / "a.db")
    ok("campaign", "new", "--db", db, "--name", "A", "--seed", "1",
       "--side", "a:A", "--side", "b:B")  # fmt: skip
    said = ok("force", "import", "--db", db, "--side", "a", str(DAMAGED), "--units-dir",
              str(UNITS), "--unchecked", "--referee", "Ref", "--reason", "test")  # fmt: skip
    assert "Structural Integrity 0/0 armour, 4/8 structure" in said, said
    assert "aerospace criticals avionics=1" in said, said
    report = json.loads(ok("report", "--db", db, "--json"))
    (row,) = report["units"]
    (si,) = [loc for loc in row["damage"]["locations"] if loc["name"] == "Structural Integrity"]
    assert (si["internal"], si["internal_max"]) == (4, 8)
    assert row["damage"]["criticals"]["aero"] == {"avionics": "1"}
    # The avionics hit is a critical to repair (R-REPAIR-2), priced through the count.
    assert row["damage"]["critical_hits"] == 1


def test_the_kept_condition_goes_out_as_megamek_writes_it() -> None:
    """What the export and ``battle export-record`` lay on the design (``with_criticals``): SI
    below the design's and the aerospace criticals; the ``.mms`` names both (no v1 key)."""
    design = parse_unit_file(DESIGN.read_bytes(), DESIGN.name)
    (read,) = read_mul_bytes(DAMAGED.read_bytes()).entities
    damage = unit_damage(merge_condition(read, design), UnitKind.AEROSPACE_FIGHTER)
    bare = Entity(chassis="Rapier", model="RPR-300", movement_mode="Aerodyne")
    out = with_criticals(bare, damage, design)
    assert out.structural_integrity == 4 and out.aero_crits == (("avionics", "1"),)
    gaps = unit_condition(out, AERO).gaps
    assert "structural integrity 4 not carried (no scenario key)" in gaps
    assert "aero critical avionics=1 not carried (no scenario key)" in gaps
    # A design-whole SI is not written (MegaMek would read it as no change anyway).
    whole = unit_damage(
        merge_condition(Entity(chassis="Rapier", model="RPR-300", movement_mode=""), design),
        UnitKind.AEROSPACE_FIGHTER,
    )
    assert with_criticals(bare, whole, design).structural_integrity is None
