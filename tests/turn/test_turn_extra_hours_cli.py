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


def test_route_plans_with_extra_hours_and_gives_the_order_that_carries_them(
    tmp_path: Path,
) -> None:
    """``mekref route --extra-hours 4``: L166's extra hours checked before ordering them. Alpha's
    3 MP become 3 x 10/6 = 5, today's part is the forced march's, and the order it prints
    (``--order ... --param alpha:extra_hours=4``) is accepted as it is."""
    db = day_zero(tmp_path)
    route = ("route", "--db", db, "--side", "loyalist", "--formation", "alpha", "--to", "1210")
    forced = json.loads(ok(*route, "--forced-march", "--json"))
    plan = json.loads(ok(*route, "--extra-hours", "4", "--json"))
    assert plan["today"] == forced["today"] and plan["mp_per_day"] == 5
    assert (plan["extra_hours"], plan["param"]) == (4, "alpha:extra_hours=4")
    shown = ok(*route, "--extra-hours", "4")
    assert f"--order {plan['order']} --param alpha:extra_hours=4" in shown
    assert "4 extra hours on the move: +4 fatigue (L166, T-H1)" in shown
    stored = ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                "--order", plan["order"], "--param", plan["param"])  # fmt: skip
    assert "1 order(s) stored" in stored
    too_many = mekref(*route, "--extra-hours", "19")
    assert too_many.returncode == 3
    assert "extra_hours: a whole number of hours from 1 to 18 past the 6 useful ones" in (
        too_many.stderr
    )
