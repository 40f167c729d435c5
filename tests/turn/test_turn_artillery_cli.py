"""Out-of-combat unguided artillery by a typed command (``mekref engagement artillery``), and
only a real artillery piece fires (ruling T-A2 in docs/turn.md).

L325: "Roll this number of artillery attacks per artillery piece with a target number to hit of
11." L324: "the defender may employ Out Of Combat Unguided Artillery".
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, day_zero, ok

#: The artillery piece: the Bulldog's own design (tests/fixtures/megamek/units) with its turret
#: weapons swapped for a Sniper artillery piece (MegaMek's ``ISSniperArtillery``) and its SRM
#: ammunition for Sniper rounds. A test design, written here, never stored as a fixture.
_SWAPS = (
    ("<Name>\nBulldog Medium Tank\n</Name>", "<Name>\nArtillery Carrier\n</Name>"),
    ("<model>\n\n</model>", "<model>\nTEST\n</model>"),
    ("<mul id:>\n441\n</mul id:>\n", ""),
    ("SRM 4\nSRM 4\nLarge Laser\n</Turret", "ISSniperArtillery\n</Turret"),
    ("IS Ammo SRM-4\nIS Ammo SRM-4\n", "ISSniperAmmo\n"),
)
CARRIER = """
  <entity chassis="Artillery Carrier" model="TEST" type="Tracked">
    <pilot name="Gun Crew" gunnery="4" piloting="5"/>
  </entity>
"""
SETUP = """
[[unit]]
name = "Artillery Carrier TEST"
walk = 4
mode = "tracked"
crew_slots = 4

[[formation]]
side = "loyalist"
id = "l-arty"
name = "Guns"
hex = "1105"
units = ["Artillery Carrier TEST"]
"""


def _units(folder: Path) -> Path:
    units = folder / "units"
    shutil.copytree(UNITS, units)
    text = (UNITS / "Bulldog Medium Tank.blk").read_text(encoding="utf-8")
    for old, new in _SWAPS:
        assert old in text, old
        text = text.replace(old, new)
    (units / "Artillery Carrier TEST.blk").write_text(text, encoding="utf-8")
    return units


def test_unguided_artillery_fires_only_from_artillery_pieces(tmp_path: Path) -> None:
    units = _units(tmp_path / "designs")
    db = day_zero(tmp_path / "store", extra_units={"loyalist": CARRIER}, units_dir=units,
                  extra_setup=SETUP)  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    assert "engagement day1-1105-1" in ok("turn", "resolve", "--db", db, "--day", "1")
    fire = ("engagement", "artillery", "--db", db, "--engagement", "day1-1105-1", "--side",
            "loyalist", "--run-mp", "5", "--sheets", "2")  # fmt: skip
    refused = mekref(*fire, "--piece", "Griffin GRF-1N")
    assert refused.returncode == 3
    assert "(Griffin GRF-1N) is not an artillery piece: its design carries no artillery" in (
        refused.stderr
    )
    assert 'L325: "Roll this number of artillery attacks per artillery piece"' in refused.stderr
    # Run 5 over 2 sheets (34 hexes): 7 attacks, hitting on 11 (L325, ruling T-A1).
    shown = ok(*fire, "--piece", "artillery carrier test")
    said = "loyalist's unguided artillery on day1-1105-1: 7 attack(s) per piece, hitting on 11+"
    assert said in shown
    assert shown.count("Artillery Carrier TEST (") == 7
    # Evading halves the run (5 -> 2: 17 attacks) and hits on 12 (L325).
    fired = json.loads(ok(*fire, "--piece", "Artillery Carrier TEST", "--evasive", "--json"))
    assert fired["fired"]["attacks_per_piece"] == 17 and fired["fired"]["target_number"] == 12
