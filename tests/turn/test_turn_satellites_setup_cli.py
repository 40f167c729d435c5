"""Satellites listed in the strategic set-up file, placed by ``mekref turn setup`` through the
installed console script (ruling T-OR1 in docs/turn.md).

L270: "Satellites – Unmanned surveillance satellites in Low planetary orbit (LPO) can monitor
3 adjacent sectors". The bundled Ginestra set-up lists none (its dice stay as they were): the
test appends examples/strategic-satellites.toml to a copy of it.
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, ok

from mekref.daemon.samples.ginestra import FOLDER

EXAMPLE = Path(__file__).parents[2] / "examples" / "strategic-satellites.toml"


def test_turn_setup_places_the_files_satellites(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    for side in ("loyalist", "rebel"):
        ok("force", "import", "--db", db, "--side", side, str(FOLDER / f"{side}.mul"),
           "--units-dir", str(UNITS), "--unchecked",
           "--referee", "Ref", "--reason", "x")  # fmt: skip
    setup = (FOLDER / "strategic.toml").read_text(encoding="utf-8")
    setup += "\n" + EXAMPLE.read_text(encoding="utf-8")
    good = tmp_path / "strategic.toml"
    good.write_text(setup, encoding="utf-8")
    # A malformed entry is refused naming the entry and the field, and nothing is recorded.
    bad = tmp_path / "bad.toml"
    bad.write_text(setup.replace('orbit = "lpo"', 'orbit = "leo"'), encoding="utf-8")
    refused = mekref("turn", "setup", "--db", db, "--file", str(bad))
    assert refused.returncode == 3
    assert "[[satellite]] entry 2 (id 'sat-track'): orbit: one of geostationary, lpo" in (
        refused.stderr
    )
    assert "nothing recorded" in refused.stderr
    said = ok("turn", "setup", "--db", db, "--file", str(good))
    assert "loyalist: satellite sat-north in geostationary orbit over 0508" in said
    assert "rebel: satellite sat-track in lpo orbit over 1612" in said
    listed = json.loads(ok("satellite", "list", "--db", db, "--json"))
    assert [(s["id"], s["owner"], s["orbit"], s["hex"], s["monitoring"]) for s in listed] == [
        ("sat-north", "loyalist", "geostationary", "0508", True),
        ("sat-track", "rebel", "lpo", "1612", True),
    ]
