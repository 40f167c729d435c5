"""The legal Ginestra sample's DropShips through the installed ``mekref`` console script: a
DropShip pool linked to its Union by command after the set-up (ruling T-C3), WarChest Points
loaded into it and unloaded elsewhere by Load/Unload orders (T-WP1), and the landed Union
lifting the lance it carries to orbit and bringing it down again (ruling T-O4).

L57: "Each force has a supply of WarChest Points associate with each Location they control, or
each DropShip or Baggage Train."
L59: "Each Union DropShip carries 250 WP or resources. ... WarChest Points may be moved from one
location to another, but this requires a Load/Unload action."
L207: "Players may use this Free Action multiple times in a strategic turn but each trip after
the first adds 1 fatigue point to the DropShip and all units being carried."
L208: "Orbital Insertion/Achieve Orbit (Free Action) - A DropShip or Aerospace Fighter may reach
orbit or land/enter the atmosphere from orbit."
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_script import mekref
from ginestra_cli import legal_day_zero, ok

SPACE_PORT = "bagnorgeio-space-port"  # 0610, 1000 WP (L158)
FACILITY = "combat-systems-manufacturing-facility"  # 1105, 1000 WP (L160)


def _report(db: str) -> dict[str, Any]:
    report: dict[str, Any] = json.loads(ok("report", "--db", db, "--json"))
    return report


def _balances(db: str) -> dict[str, int]:
    return {p["id"]: p["balance"] for p in _report(db)["pools"] if p["side"] == "loyalist"}


def _unit(db: str, side: str, chassis: str, company: str = "") -> str:
    (unit,) = [u["id"] for u in _report(db)["units"]
               if u["side"] == side and u["chassis"] == chassis
               and (not company or u["company"] == company)]  # fmt: skip
    return str(unit)


def _formations(db: str) -> dict[str, tuple[str, int]]:
    """The loyalists' formations: id -> (hex, number of units)."""
    listed = json.loads(ok("formation", "list", "--db", db, "--side", "loyalist", "--json"))
    return {f["formation"]: (f["hex"], len(f["units"])) for f in listed["formations"]}


def _day(db: str, day: int, *order: str) -> str:
    """The loyalists' order for ``day`` (``order``: the ``--order`` spec and its ``--param``
    arguments), the day resolved (the rebels stay at the pirate point)."""
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", str(day), "--order", *order)
    return ok("turn", "resolve", "--db", db, "--day", str(day))


def test_t_c3_a_union_linked_by_command_carries_wp_and_lifts_its_lance(tmp_path: Path) -> None:
    db = legal_day_zero(tmp_path)
    union = _unit(db, "loyalist", "Union", "Alpha Company")
    ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "union-a", "--name",
       "Alpha's Union", "--dropship", "Union", "--balance", "0")  # fmt: skip
    load = ("l-union-a:load_unload", "--param", f"l-union-a:from={SPACE_PORT}",
            "--param", "l-union-a:to=union-a", "--param", "l-union-a:wp=200")  # fmt: skip
    # Not linked yet: the pool is nowhere, and no unit of the formation carries it (L59).
    refused = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                     "--order", *load)  # fmt: skip
    assert refused.returncode == 3
    assert "neither 'bagnorgeio-space-port' nor 'union-a' is a transport carried" in (
        refused.stderr
    )
    # L57: a location's chest stays where it is; a DropShip pool travels in a DropShip only.
    chest = mekref("pool", "link", "--db", db, "--side", "loyalist", "--pool", SPACE_PORT,
                   "--unit", union[:8])  # fmt: skip
    assert chest.returncode == 3 and "a location's chest" in chest.stderr
    atlas = _unit(db, "loyalist", "Atlas", "Alpha Company")
    mech = mekref("pool", "link", "--db", db, "--side", "loyalist", "--pool", "union-a",
                  "--unit", atlas)  # fmt: skip
    assert mech.returncode == 3 and "not a DropShip" in mech.stderr
    theirs = _unit(db, "rebel", "Union", "Alpha Company")
    other = mekref("pool", "link", "--db", db, "--side", "loyalist", "--pool", "union-a",
                   "--unit", theirs)  # fmt: skip
    assert other.returncode == 3 and f"no unit {theirs!r} of 'loyalist'" in other.stderr
    # Linked by command after the set-up, by the 8-character id the report prints.
    linked = ok("pool", "link", "--db", db, "--side", "loyalist", "--pool", "union-a",
                "--unit", union[:8])  # fmt: skip
    assert f"TransportLinked: side_id=loyalist, pool_id=union-a, unit_id={union}" in linked
    # Day 1: the Union takes Alpha's Command Lance aboard (both at the Space Port) and loads
    # 200 WP from the Space Port's chest (T-WP1).
    ok("formation", "merge", "--db", db, "--side", "loyalist", "--day", "1",
       "--formation", "l-union-a", "--absorb", "l-alpha-command")  # fmt: skip
    _day(db, 1, *load)
    assert _balances(db)[SPACE_PORT] == 800 and _balances(db)["union-a"] == 200
    # Day 2: the landed Union lifts the lance with it (L208, T-O4); the lance alone may not.
    ok("formation", "split", "--db", db, "--side", "loyalist", "--day", "2",
       "--formation", "l-bravo-command", "--new-id", "l-bravo-atlas",
       "--unit", _unit(db, "loyalist", "Atlas", "Bravo Company"))  # fmt: skip
    alone = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "2",
                   "--order", "l-bravo-fire:achieve_orbit")  # fmt: skip
    assert alone.returncode == 3 and "achieve_orbit is for aerospace or dropship units" in (
        alone.stderr
    )
    _day(db, 2, "l-union-a:achieve_orbit")
    assert _formations(db)["l-union-a"] == ("", 5)
    # Day 3: down on the Facility's DropPort (L208), the lance with it.
    _day(db, 3, "l-union-a:orbital_insertion::1105")
    assert _formations(db)["l-union-a"] == ("1105", 5)
    # Day 4: unloaded into the Facility's chest: the WP moved from one location to another
    # only by the two Load/Unload orders (L59).
    _day(db, 4, "l-union-a:load_unload", "--param", "l-union-a:from=union-a",
         "--param", f"l-union-a:to={FACILITY}", "--param", "l-union-a:wp=200")  # fmt: skip
    after = _balances(db)
    assert (after[SPACE_PORT], after[FACILITY], after["union-a"]) == (800, 1200, 0)


def test_t_c3_a_pool_holding_wp_passes_only_to_a_carrier_where_it_is(tmp_path: Path) -> None:
    db = legal_day_zero(tmp_path)
    alpha = _unit(db, "loyalist", "Union", "Alpha Company")
    bravo = _unit(db, "loyalist", "Union", "Bravo Company")
    ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "union-a", "--name",
       "Alpha's Union", "--dropship", "Union")  # fmt: skip
    ok("pool", "link", "--db", db, "--side", "loyalist", "--pool", "union-a", "--unit", alpha)
    again = mekref("pool", "link", "--db", db, "--side", "loyalist", "--pool", "union-a",
                   "--unit", alpha)  # fmt: skip
    assert again.returncode == 3 and "'union-a' is already carried by Union (3055)" in again.stderr
    # One pool a carrier: Alpha's Union cannot take a second.
    ok("pool", "open", "--db", db, "--side", "loyalist", "--id", "union-b", "--name",
       "Bravo's Union", "--dropship", "Union")  # fmt: skip
    second = mekref("pool", "link", "--db", db, "--side", "loyalist", "--pool", "union-b",
                    "--unit", alpha)  # fmt: skip
    assert second.returncode == 3 and "already carries the pool 'union-a'" in second.stderr
    # Bravo's Union lifts off (Day 1); Alpha's 250 WP cannot jump to it from the ground.
    _day(db, 1, "l-union-b:achieve_orbit")
    apart = mekref("pool", "link", "--db", db, "--side", "loyalist", "--pool", "union-a",
                   "--unit", bravo)  # fmt: skip
    assert apart.returncode == 3
    assert "holds 250 WP in 0610, and Union (3055) stands in orbit" in apart.stderr
    # T-C3: Bravo's pool, never linked, holds its 250 WP nowhere on the map: once the first day
    # is resolved, linking it would set them down wherever its carrier stands (L59: WP move
    # only by a Load/Unload action).
    nowhere = mekref("pool", "link", "--db", db, "--side", "loyalist", "--pool", "union-b",
                     "--unit", bravo)  # fmt: skip
    assert nowhere.returncode == 3
    assert "holds 250 WP and stands nowhere on the map" in nowhere.stderr
    assert "mekref spend move --from union-b --to POOL --amount 250" in nowhere.stderr
