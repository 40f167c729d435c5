"""``mekref engagement export`` prints each distinct warning once, on standard error, through
the installed console script on the legal Ginestra sample. The side's list notes come back in
the scenario's notes (which cover every side, each note led by its side's name), and two units
of one design share a note: a line is printed once, with "(N times)" when N units of the
scenario gave it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from console_script import mekref
from ginestra_cli import LEGAL, legal_day_zero
from test_turn_campaign_endings_cli import _engagements
from test_turn_legal_campaign_cli import _orders

WARNING = "mekref engagement export: warning: "


def test_each_export_warning_is_printed_once(tmp_path: Path) -> None:
    db = legal_day_zero(tmp_path)
    day1 = _orders(db, 1, "r-alpha-recon:orbital_insertion::0508")
    (engagement,) = _engagements(day1)
    done = mekref("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(tmp_path),
                  "--units-dir", str(LEGAL / "units"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    # The files written on stdout; the warnings on stderr, each saying whose unit it is about.
    warnings = done.stderr.splitlines()
    assert warnings and all(w.startswith(WARNING) for w in warnings), done.stderr
    repeated = [w for w, n in Counter(warnings).items() if n > 1]
    assert not repeated
    # Two loyalist Jenners and the rebels' one, each with a Veteran commander (L26).
    jenner = [w for w in warnings if "Jenner JR7-D: edge 1" in w]
    assert jenner == [
        f"{WARNING}Loyalists: Jenner JR7-D: edge 1 (Veteran commander, L26; the list had 0) "
        "(2 times)",
        f"{WARNING}Rebels: Jenner JR7-D: edge 1 (Veteran commander, L26; the list had 0)",
    ]
    assert f"wrote {tmp_path / engagement}.mms" in done.stdout
