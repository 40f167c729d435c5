"""`mekref route`: the cheapest legal path for a formation and today's part as an order (issue:
orders must list every hex, with no way to ask for a route)."""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from ginestra_cli import day_zero, ok


def test_route_gives_the_path_and_todays_order_which_the_rules_accept(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    # Alpha (the Ginestra sample) stands in 1105 with 3 MP a day; 1210 is 6 hexes off.
    shown = ok("route", "--db", db, "--side", "loyalist", "--formation", "alpha", "--to", "1210")
    assert "alpha from 1105 to 1210" in shown and "3 MP a day off the road" in shown
    plan = json.loads(ok("route", "--db", db, "--side", "loyalist", "--formation", "alpha",
                          "--to", "1210", "--json"))  # fmt: skip
    assert plan["path"][-1] == "1210" and plan["cost_mp"] >= len(plan["path"])
    assert plan["today"] == plan["path"][: len(plan["today"])] and plan["today"]
    assert plan["order"] == "alpha:move:" + ",".join(plan["today"])
    # Today's part is an order the rules accept as it is.
    stored = ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                 "--order", plan["order"])  # fmt: skip
    assert "1 order(s) stored" in stored
    forced = json.loads(ok("route", "--db", db, "--side", "loyalist", "--formation", "alpha",
                            "--to", "1210", "--forced-march", "--json"))  # fmt: skip
    assert len(forced["today"]) > len(plan["today"]) and forced["action"] == "forced_march"


def test_route_refuses_what_it_cannot_plan_in_one_line(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    for formation, to, said in (
        ("alpha", "2020", "to: 2020 is off the map"),
        ("bravo", "1210", "'bravo' is not a formation of 'loyalist'"),  # the enemy's: no leak
        ("alpha", "12x", "is not a hex label"),
    ):
        done = mekref("route", "--db", db, "--side", "loyalist", "--formation", formation,
                      "--to", to)  # fmt: skip
        assert done.returncode == 3, done.stderr
        assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1
