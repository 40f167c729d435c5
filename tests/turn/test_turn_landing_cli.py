"""The engineers' temporary runway and an aerodyne DropShip's landing through the installed
``mekref`` console script, from the Ginestra Day Zero (rulings T-LZ1 to T-LZ5, docs/turn.md).

L409: "Aerodyne DropShips may land on Runways or other suitable flat areas e.g. Highways
(requiring a Piloting Skill), or plains/desert (Engineers require 1 campaign turn to prepare
these creating a temporary runway)."
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from console_script import mekref
from ginestra_cli import UNITS, day_zero, ok

# Combat engineers: MegaMek's foot rifle platoon with the trench engineer specialization bit
# (T-EN1), and a Gazelle, an aerodyne DropShip (its .blk motion type, T-LZ5).
LOYALIST_EXTRA = (
    '\t\t<entity chassis="Sapper Platoon" model="(Rifle)" type="Leg">\n'
    '\t\t\t<pilot name="Sappers" nick="" gunnery="4" piloting="5" ejected="false"/>\n'
    "\t\t</entity>\n"
    '\t\t<entity chassis="Gazelle" model="(Heavy Vehicle)" type="Dropship">\n'
    '\t\t\t<pilot name="Kpt. Eva Serra" nick="" gunnery="4" piloting="5" ejected="false"/>\n'
    "\t\t</entity>\n"
)
SETUP = """
[[unit]]
name = "Sapper Platoon (Rifle)"
crew_slots = 28
[[unit]]
name = "Gazelle (Heavy Vehicle)"
fuel = 1000

[[formation]]
side = "loyalist"
id = "sappers"
name = "Sappers"
hex = "0510"                # plains, no road
units = ["Sapper Platoon (Rifle)"]

[[formation]]
side = "loyalist"
id = "ship"
name = "Gazelle"
hex = "0610"                # Bagnorgeio Space Port
units = ["Gazelle (Heavy Vehicle)"]
"""


def _units(tmp_path: Path) -> Path:
    folder = tmp_path / "units"
    shutil.copytree(UNITS, folder)
    rifle = (UNITS / "Foot Platoon (Rifle).blk").read_text(encoding="utf-8")
    sappers = rifle.replace("<Name>\nFoot Platoon\n</Name>", "<Name>\nSapper Platoon\n</Name>")
    assert sappers != rifle
    (folder / "Sapper Platoon (Rifle).blk").write_text(
        sappers + "\n<specialization>\n32\n</specialization>\n", encoding="utf-8"
    )
    return folder


def test_engineers_prepare_a_runway_and_the_gazelle_lands_on_it(tmp_path: Path) -> None:
    db = day_zero(
        tmp_path,
        extra_units={"loyalist": LOYALIST_EXTRA},
        units_dir=_units(tmp_path),
        extra_setup=SETUP,
    )
    submit = ("orders", "submit", "--db", db, "--side", "loyalist")
    # Day 1: no runway in the plains at 0510 yet: the landing is refused, saying what to do.
    refused = mekref(*submit, "--day", "1", "--order", "ship:suborbital_hop::0510")
    assert refused.returncode == 3
    assert "no_runway" in refused.stderr or "has no runway" in refused.stderr
    assert "L409 'Aerodyne DropShips may land on Runways" in refused.stderr
    assert "prepare_runway" in refused.stderr and "land elsewhere" in refused.stderr
    ok(*submit, "--day", "1", "--order", "sappers:prepare_runway")
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:orbital_insertion::1712")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    # The runway stands from the end of day 1: the referee's report shows it.
    report = json.loads(ok("report", "--db", db, "--json"))
    assert report["strategic"]["runways"] == {"loyalist": ["0510"]}
    assert "temporary runways of loyalist (L409): 0510" in ok("report", "--db", db, "--overview")
    # Day 2: the Gazelle lands on it.
    ok(*submit, "--day", "2", "--order", "ship:suborbital_hop::0510")
    # The Rebel Militia lands there too: an engagement with the Gazelle in it.
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "2",
       "--order", "r-militia:orbital_insertion::0510")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "2")
    listed = json.loads(ok("formation", "list", "--db", db, "--side", "loyalist", "--json"))
    assert {f["formation"]: f["hex"] for f in listed["formations"]}["ship"] == "0510"
    # The scenario file gives MegaMek the Gazelle as the aerodyne its design says it is.
    out = tmp_path / "out"
    ok("engagement", "export", "--db", db, "--side", "loyalist", "-o", str(out))
    (exported,) = out.glob("day2-0510-*-loyalist.mul")
    text = exported.read_text(encoding="utf-8")
    assert 'chassis="Gazelle" model="(Heavy Vehicle)" type="Aerodyne"' in text
