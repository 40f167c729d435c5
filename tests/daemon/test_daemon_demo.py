"""Issue 32: the demo shows the product at its best. The bundled sample records its units'
designs, so its first books price every unit (no ``?`` in a priced column, no "no design
known"), and the demo prints paths relative to its folder, never a temporary or install path.

Through the installed console script (``mekref replay`` then ``mekref report``) and through
``make demo``'s first command (``python -m mekref.daemon.tripwire.demo``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from console_script import mekref

from mekref.daemon.samples.replay import FOLDER as SAMPLE

#: The units table's priced columns (armor, internal, rearm, total SP) in a report's text.
PRICED = slice(4, 8)


def _unit_rows(report: str) -> list[list[str]]:
    """The cells of each row of the units table of ``mekref report``'s text."""
    lines = report.splitlines()
    start = lines.index("units")
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("└"):
            break
        if line.startswith("│"):
            rows.append([cell.strip() for cell in line.strip("│").split("│")])
    return rows


def _assert_priced(report: str) -> None:
    rows = _unit_rows(report)
    assert len(rows) == 14, report
    for row in rows:
        assert "?" not in row[PRICED], row
    assert "no design known" not in report


def test_the_replayed_sample_prices_every_unit(tmp_path: Path) -> None:
    db = str(tmp_path / "sample.db")
    done = mekref("replay", str(SAMPLE), "--db", db, "--log-level", "warning")
    assert done.returncode == 0, done.stderr
    assert "no design known" not in done.stderr and "unpriced" not in done.stderr
    shown = mekref("report", "--db", db)
    assert shown.returncode == 0, shown.stderr
    _assert_priced(shown.stdout)
    books = json.loads(mekref("report", "--db", db, "--json").stdout)
    assert len(books["units"]) == 14
    for unit in books["units"]:
        assert unit["repair_priced"], unit["chassis"]
        repair = unit["repair"]
        assert None not in (repair["armor_sp"], repair["internal_sp"], repair["total_sp"])
    # Real damage, measured against the designs: the Atlas III's bill is not nothing.
    atlas = next(u for u in books["units"] if u["chassis"] == "Atlas III")
    assert atlas["repair"]["total_sp"] > 0


def test_make_demo_prices_its_first_books_and_shows_no_absolute_path() -> None:
    with tempfile.TemporaryDirectory(prefix="dd-") as tmp:
        # As `make demo | less` runs it: off a terminal, no COLUMNS.
        env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
        env |= {"NO_COLOR": "1", "TMPDIR": tmp}
        out = subprocess.run(
            [sys.executable, "-m", "mekref.daemon.tripwire.demo"],
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
            check=False,
        )
    assert out.returncode == 0, out.stdout + out.stderr
    text = out.stdout + out.stderr
    assert "designs recorded for 14 unit(s)" in text
    first = text.split("6. mekref report", 1)[1].split("7. mekref report --overview", 1)[0]
    _assert_priced(first.split("\n", 1)[1])
    # Paths read relative to the demo's folder: "inbox/01-bob.mul", never its temporary path.
    assert tmp not in text and "__editable__" not in text
    assert "inbox/01-bob.mul" in text and "quarantine/truncated.mul" in text
    # Lines stay whole off a terminal (rich would cut them at 80 columns, mid-sentence).
    assert "waiting (sides ['fedsuns', 'wob'], reported ['wob'])" in text
    assert "wait until MegaMek has finished, or save the unit list again\n" in text
