"""Never a silent 0: a battle fought by units imported without a BV (no --bv-table) cannot be
scored. L417: "Each time a battle occurs victory points are gained or lost for each side per
formation involved in the battle", by the share of the enemy's BV destroyed (L419-L424); with no
BV that share is unknown, and the report says so instead of showing a plausible "+0"."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from console_script import mekref

PROJECT = Path(__file__).parents[2]


def test_a_battle_of_units_without_a_bv_says_its_vp_are_not_known(tmp_path: Path) -> None:
    # The Ginestra demo imports the sample forces without a BV table and fights one battle.
    done = mekref("report", "--db", str(_played(tmp_path)), "--json")
    assert done.returncode == 0, done.stderr
    (battle,) = json.loads(done.stdout)["battles"]
    # Alpha 4 and Bravo 4 (the wrecked Jenner is in both records).
    assert len(battle["units_without_bv"]) == 8
    text = mekref("report", "--db", str(tmp_path / "ginestra.db"))
    assert "VP not known: 8 unit(s) of this battle have no BV" in " ".join(text.stdout.split())
    overview = mekref("report", "--db", str(tmp_path / "ginestra.db"), "--overview")
    assert "VP not known" in overview.stdout


def _played(out: Path) -> Path:
    # The Ginestra walk-through of `make demo`, in a process of its own, from the project folder
    # (it reads the fixture unit designs there).
    done = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.samples.ginestra.demo", "--out", str(out)],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return out / "ginestra.db"
