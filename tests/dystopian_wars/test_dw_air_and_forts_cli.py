"""Airfield/Airbase wings and Fleet Base/Eyrie fortifications (lines 111-113, 122; rulings
DW-35 to DW-38) through the installed console script, with typed ``--type``/``--field``
commands: the choices, the refusals quoting the line, the battle's events and ``game report``."""

from __future__ import annotations

import re
from pathlib import Path

from console_script import mekref
from dw_cli import CliCampaign

# The console prints a refusal's quoted line with its tabs expanded: the quotes are the columns.
L111 = "line 111: Fleet Base"
L111_TOWERS = "1 Wing TF’s (inc)       Fortress, 2 Flak Towers, 2 Rocket/ Gun/ Tesla Towers"
L122 = "Defended by a Fortress!"


Campaign = CliCampaign


def test_wings_and_fortifications_through_the_console_script(tmp_path: Path) -> None:
    game = Campaign(tmp_path)
    out = game.ok("brit", "DWChooseWingMAR", fleet_id="brit", territory_id="airbase-1",
                  mar="large fuel tanks")  # fmt: skip
    assert "brit's wings of Tiny Flyers have Large Fuel Tanks from territory airbase-1" in out
    err = game.refused("sun", "DWChooseWingMAR", fleet_id="sun", territory_id="airbase-2",
                       mar="Sturginum Boost")  # fmt: skip
    # A MAR no Airbase offers is refused as typed, with the values the field takes (the rules'
    # own refusal, quoting L113, is tested in test_dw_air_and_forts.py).
    assert 'mar=\'Sturginum Boost\' is none of: "Large Fuel Tanks", "Better Engines"' in err
    out = game.ok("sun", "DWChooseTowers", fleet_id="sun", territory_id="fleet_base-2",
                  towers=["Gun", "tesla"])  # fmt: skip
    assert "sun builds Gun and Tesla towers at territory fleet_base-2" in out
    err = game.refused("brit", "DWChooseTowers", fleet_id="brit", territory_id="fleet_base-1",
                       towers=["Gun"])  # fmt: skip
    assert "Fleet Base has 2 towers, each one of Rocket, Gun, Tesla" in err
    assert L111 in err and L111_TOWERS in err
    game.ok("ref", "DWGrantTerritory", territory_id="scientists_eyrie", fleet_id="sun",
            reason="the map's Eyrie")  # fmt: skip
    err = game.refused("sun", "DWChooseTowers", fleet_id="sun", territory_id="scientists_eyrie",
                       towers=["Gun"])  # fmt: skip
    assert "no_towers: Scientist’s Eyrie Research Station has no towers to choose" in err
    assert L122 in err

    out = game.ok("ref", "DWStartBattle", battle_id="b1", fleets=["brit", "sun"])
    assert (
        "brit fields 1 extra wing of Tiny Flyers, free: Airbase airbase-1 (line 113), with Large "
        "Fuel Tanks for all its wings"
    ) in out
    assert (
        "sun fields 1 extra wing of Tiny Flyers, free: Airbase airbase-2 (line 113), its MAR not "
        "chosen (Large Fuel Tanks or Better Engines: DWChooseWingMAR)"
    ) in out
    found = re.search(r": (\w+) stakes first", out)
    assert found is not None
    chooser = found.group(1)
    mine, theirs = ("fleet_base-1", "scientists_eyrie") if chooser == "brit" else (
        "scientists_eyrie", "fleet_base-1")  # fmt: skip
    out = game.ok(chooser, "DWStake", fleet_id=chooser, own=mine, enemy=theirs)
    assert (
        "brit's Fleet Base fleet_base-1 is defended by a Fortress, 2 Flak Towers, 2 towers of a "
        "kind not chosen (DWChooseTowers) (line 111)"
    ) in out
    assert (
        "sun's Scientist’s Eyrie Research Station scientists_eyrie is defended by a Fortress "
        "(line 122)"
    ) in out

    shown = mekref("game", "report", "--db", game.db, "--campaign", "dw")
    assert shown.returncode == 0, shown.stderr
    assert "1 extra wing of Tiny Flyers (airbase-1, wing MAR Large Fuel Tanks)" in shown.stdout
    assert "fleet_base-2 defended by Fortress, 2 Flak Towers, Gun Tower, Tesla Tower" in (
        shown.stdout
    )
    assert "scientists_eyrie defended by Fortress" in shown.stdout
