"""Extra hours on the move through the installed ``mekref`` console script (ruling T-H1 in
docs/turn.md).

L166: "Each day has 6 useful hours. Additional hours can be used but this will cause Force
Fatigue."
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from ginestra_cli import day_zero, ok


def test_four_extra_hours_take_alpha_as_far_as_a_forced_march(tmp_path: Path) -> None:
    """Alpha (1105, 3 MP) has 5 MP on a forced march; 4 extra hours give 3 x 10/6 = 5 too. The
    forced march's part of the route is refused as a plain move, accepted with
    ``extra_hours=4``, and alpha ends the day there with 4 fatigue."""
    db = day_zero(tmp_path)
    forced = json.loads(ok("route", "--db", db, "--side", "loyalist", "--formation", "alpha",
                           "--to", "1210", "--forced-march", "--json"))  # fmt: skip
    order = "alpha:move:" + ",".join(forced["today"])
    plain = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                   "--order", order)  # fmt: skip
    assert plain.returncode == 3 and "over_budget" in plain.stderr
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", order, "--param", "alpha:extra_hours=4")  # fmt: skip
    said = ok("turn", "resolve", "--db", db, "--day", "1")
    assert "alpha: 4 extra hours on the move, +4 fatigue (L166" in said
    listed = json.loads(ok("formation", "list", "--db", db, "--side", "loyalist", "--json"))
    (alpha,) = [f for f in listed["formations"] if f["formation"] == "alpha"]
    assert (alpha["hex"], alpha["fatigue"]) == (forced["today"][-1], 4)
