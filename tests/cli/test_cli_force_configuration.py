"""``mekref force configuration`` through the installed console script (ruling R-FORCE-13).

L24: "Omni-units/BattleArmour may be purchased at the start of the game with more than one
configuration (See Repairs and Rearming)." L99: "Each extra configuration beyond the first costs
you must may the cost of a Reconfigure Omni-Pod or Reconfigure Battle Armor before the start of
the campaign. The BV cost for the unit is considered to be the highest BV cost of the possible
configurations."
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref

UNITS = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "units"
#: An Atlas (MegaMek's AS7-D design: no omni) and a squad of Elementals (battle armor), both
#: with their real designs under tests/fixtures/megamek/units.
MUL = """<?xml version="1.0" encoding="UTF-8"?>
<unit version="0.49.19" >
  <entity chassis="Atlas" model="AS7-D" type="Biped" commander="true">
    <pilot name="Karl Weber" gunnery="2" piloting="3"/>
    <Force force="Alpha Company|2||Command Lance|3"/>
  </entity>
  <entity chassis="Elemental Battle Armor" model="[Laser](Sqd5)" type="Leg">
    <pilot name="Star Elementals" gunnery="3" piloting="4"/>
    <Force force="Charlie Company|4||Infantry|5"/>
  </entity>
</unit>
"""


def _campaign(tmp_path: Path) -> tuple[str, dict[str, str]]:
    db = str(tmp_path / "c.db")
    mul = tmp_path / "red.mul"
    mul.write_text(MUL, encoding="utf-8")
    # Each unit's own BV (a company's BV is not known while one has none, R-VP-6).
    bvs = tmp_path / "Imported.txt"
    bvs.write_text("Chassis|Model|MUL ID|Tonnage|BV|Cost\nAtlas|AS7-D|140|100|1897|\n"
                   "Elemental Battle Armor|[Laser](Sqd5)|0|5|350|\n", encoding="utf-8")  # fmt: skip
    steps = (
        ("campaign", "new", "--db", db, "--name", "T", "--seed", "1", "--side", "red:Red",
         "--side", "blue:Blue"),
        ("force", "import", "--db", db, "--side", "red", str(mul), "--units-dir", str(UNITS),
         "--bv-table", str(bvs), "--unchecked", "--referee", "Ann", "--reason", "two units"),
        ("pool", "open", "--db", db, "--side", "red", "--id", "union", "--name", "Union",
         "--dropship", "Union"),
    )  # fmt: skip
    for argv in steps:
        done = mekref(*argv)
        assert done.returncode == 0, done.stderr
    report = json.loads(mekref("report", "--db", db, "--json").stdout)
    return db, {u["chassis"]: u["id"] for u in report["units"]}


def test_battle_armor_buys_a_configuration_at_the_reconfigure_price(tmp_path: Path) -> None:
    """L92: "| Reconfigure Battle Armor **** | 0 |": bought for 0 SP, the BV read from the
    table given (``--bv-table``) by the unit's chassis and the configuration's model."""
    db, ids = _campaign(tmp_path)
    table = tmp_path / "Units.txt"
    table.write_text(
        "Chassis|Model|MUL ID|Tonnage|BV|Cost\nElemental Battle Armor|[Flamer](Sqd5)|0|5|390|\n",
        encoding="utf-8",
    )
    squad = ids["Elemental Battle Armor"][:8]  # the id as the report prints it
    done = mekref("force", "configuration", "--db", db, "--unit", squad, "--add",
                  "[Flamer](Sqd5)", "--bv-table", str(table), "--pool", "union")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "configuration [Flamer](Sqd5) (BV 390) bought for 0 SP from union (L99)" in done.stdout
    assert "configurations: [Laser](Sqd5), [Flamer](Sqd5)" in done.stdout
    assert "force construction counts it at 390 BV, its highest configuration's (L99)" in (
        done.stdout
    )
    again = mekref("force", "configuration", "--db", db, "--unit", squad, "--add",
                   "[Flamer](Sqd5)", "--bv", "390", "--pool", "union")  # fmt: skip
    assert again.returncode != 0 and "nothing to buy" in again.stderr


def test_a_configuration_of_a_unit_that_is_no_omni_is_refused_quoting_l24(
    tmp_path: Path,
) -> None:
    db, ids = _campaign(tmp_path)
    atlas = ids["Atlas"]
    buy = ("force", "configuration", "--db", db, "--unit", atlas, "--add", "AS7-K",
           "--pool", "union")  # fmt: skip
    refused = mekref(*buy, "--bv", "2000")
    assert refused.returncode != 0
    assert "only omni units and battle armor have configurations" in refused.stderr
    assert '[line 24: "- Omni-units/BattleArmour may be purchased at the start' in refused.stderr
    neither = mekref(*buy)
    assert neither.returncode != 0
    assert "the BV of 'AS7-K' is needed: give --bv N, or --bv-table Units.txt" in neither.stderr
    # A model the BV table lacks is named, never counted as 0.
    table = tmp_path / "Units.txt"
    table.write_text("Chassis|Model|MUL ID|Tonnage|BV|Cost\nAtlas|AS7-D|140|100|1897|\n")
    unknown = mekref(*buy, "--bv-table", str(table))
    assert unknown.returncode != 0
    assert "Atlas AS7-K: no BV: neither chassis+model is in" in unknown.stderr
    # On the referee's word it is bought (L91: 100 t / 4 = 25 SP) and the violation recorded.
    done = mekref(*buy, "--bv", "2000", "--referee", "Ann", "--reason", "house rule")
    assert done.returncode == 0, done.stderr
    assert "bought for 25 SP from union" in done.stdout
    assert "accepted by Ann (house rule): configurations.units" in done.stdout
