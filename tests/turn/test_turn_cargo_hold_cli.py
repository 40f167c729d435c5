"""Bays and the cargo hold of a DropShip lifting its formation (ruling T-O5), through the
installed ``mekref`` console script on the legal Ginestra sample.

L206: "Load/Unload - Transport ships such as DropShips take time to unload and load cargo from
their cargo bay. Any units in bays (AeroSpace, BattleMech, Vehicle) do not take any time to
deploy or load. Infantry never take time to unload as they can walk off. Units can be carried in
a cargo hold but take 1 day to load/unload."

Alpha's Union (3055) has 12 'Mech bays, 2 fighter bays and a 72.5 t cargo bay (its MegaMek
design, ``<transporters>``): no vehicle bay, so a 60 t Bulldog rides in the hold.
"""

from __future__ import annotations

import json
from pathlib import Path

from console_script import mekref
from ginestra_cli import legal_day_zero, ok


def _bulldogs(db: str) -> list[str]:
    report = json.loads(ok("report", "--db", db, "--json"))
    return [u["id"] for u in report["units"]
            if u["side"] == "loyalist" and u["chassis"] == "Bulldog Medium Tank"
            and u["company"] == "Charlie Company"]  # fmt: skip


def _submit(db: str, order: str) -> tuple[int, str]:
    done = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                  "--order", order)  # fmt: skip
    return done.returncode, done.stdout + done.stderr


def test_t_o5_a_unit_in_the_cargo_hold_makes_the_hop_the_day(tmp_path: Path) -> None:
    db = legal_day_zero(tmp_path)
    move = ("formation", "move", "--db", db, "--side", "loyalist", "--day", "1")
    ok("formation", "merge", "--db", db, "--side", "loyalist", "--day", "1",
       "--formation", "l-union-a", "--absorb", "l-alpha-command")  # fmt: skip
    tank, second = _bulldogs(db)[:2]
    ok(*move, "--unit", tank, "--to", "l-union-a")
    # The 'Mechs ride in 'Mech bays, the Bulldog in the hold: hop and move on the same day is
    # refused, naming the tank and quoting L206.
    code, said = _submit(db, "l-union-a:suborbital_hop:0509:0508")
    assert code == 3, said
    assert "Bulldog Medium Tank" in said and "ride in the cargo hold" in said
    assert "line 206" in said and "Atlas" not in said.split("ride in the cargo hold")[0]
    # The hop alone is the day's action: accepted.
    code, said = _submit(db, "l-union-a:suborbital_hop::0508")
    assert code == 0, said
    ok("orders", "withdraw", "--db", db, "--side", "loyalist", "--day", "1", "l-union-a")
    # A second Bulldog fits neither a bay (none for vehicles) nor what is left of the hold.
    ok(*move, "--unit", second, "--to", "l-union-a")
    code, said = _submit(db, "l-union-a:suborbital_hop::0508")
    assert code == 3 and "no bay of their kind and no room in the cargo hold" in said, said
    assert second[:8] in said and tank[:8] not in said.split("cargo hold for")[1]
