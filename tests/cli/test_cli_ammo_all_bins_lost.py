"""A unit whose every ammunition bin went with a lost location holds no ammunition.

``tests/fixtures/megamek/derived/rifleman-torsos-lost.mul`` is the real ClusterStrike record's
Rifleman RFL-8D with only its Right and Left Torso destroyed, where the design's six
ISRotaryAC5 Ammo bins sit (20 shots each). MegaMek writes no slot of a destroyed location, so
the list names no bin at all. The books already billed their re-arming (TripWire line 23: the
standard load never changes); ``force list`` and the scenario export must show them empty too,
not full: an empty list of bins meant "nothing recorded: as loaded".
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref_fresh

ROOT = Path(__file__).resolve().parents[2]
LIST = ROOT / "tests" / "fixtures" / "megamek" / "derived" / "rifleman-torsos-lost.mul"
UNITS = ROOT / "daemon" / "samples" / "replay" / "units"


def _ok(*args: str) -> str:
    run = mekref_fresh(*args)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_force_list_shows_the_lost_bins_empty(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    _ok("campaign", "new", "--db", db, "--name", "T", "--side", "a:A", "--side", "b:B")
    imported = _ok("force", "import", "--db", db, "--side", "a", str(LIST), "--units-dir",
                   str(UNITS), "--unchecked", "--referee", "Ref", "--reason", "x")  # fmt: skip
    assert "ISRotaryAC5 Ammo" in imported
    (rifleman,) = json.loads(_ok("force", "list", "--db", db, "--json"))
    bins = [(b["location"], b["shots"], b["full"]) for b in rifleman["ammo"]]
    assert bins == [("Left Torso", 0, 20)] * 3 + [("Right Torso", 0, 20)] * 3
    report = json.loads(_ok("report", "--db", db, "--json"))
    (row,) = report["units"]
    assert row["repair"]["rearm_sp"] > 0  # the books bill what force list shows spent
