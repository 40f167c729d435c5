"""``turn resolve`` says, per side, which formations had no orders for the day (the issue: a
refused submission left a side without orders, and the day ran silently without them)."""

from __future__ import annotations

from pathlib import Path

from console_script import mekref
from ginestra_cli import day_zero, ok


def test_resolve_names_the_sides_and_formations_without_orders(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1", "--order", "alpha:guard")
    refused = mekref("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
                     "--order", "bravo:hold")  # fmt: skip
    assert refused.returncode == 3
    out = " ".join(ok("turn", "resolve", "--db", db, "--day", "1").split())
    assert (
        "loyalist: no order for l-air, l-guard, l-militia for day 1: those formations stayed "
        "where they were and took no action"
    ) in out
    assert "rebel: no orders at all for day 1" in out
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "2",
        "--order", "alpha:guard", "--order", "l-air:rest", "--order", "l-guard:guard",
        "--order", "l-militia:guard")  # fmt: skip
    out = " ".join(ok("turn", "resolve", "--db", db, "--day", "2").split())
    assert "loyalist:" not in out and "rebel: no orders at all for day 2" in out
