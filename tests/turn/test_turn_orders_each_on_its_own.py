"""Ruling T-O3: each order of a submission stands or falls on its own (issue: one bad hex or a
fuel shortfall refused a side's whole day of orders)."""

from __future__ import annotations

from pathlib import Path

from console_script import mekref
from ginestra_cli import day_zero, ok


def test_the_good_orders_are_stored_and_the_bad_one_named(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    done = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                  "--order", "alpha:guard", "--order", "l-guard:teleport",
                  "--order", "l-militia:guard")  # fmt: skip
    assert done.returncode == 3, done.stderr  # partly refused: the refused part changed nothing
    assert "2 order(s) stored for loyalist, day 1" in done.stdout
    assert "refused: l-guard: orders[1].action: 'teleport' is not an action" in done.stdout
    listed = ok("orders", "list", "--db", db, "--side", "loyalist", "--json")
    assert '"alpha"' in listed and '"l-militia"' in listed and '"l-guard"' not in listed
    # Resolving the day names the formation left without an order.
    out = " ".join(ok("turn", "resolve", "--db", db, "--day", "1").split())
    assert "loyalist: no order for l-air, l-guard for day 1" in out


def test_a_submission_whose_every_order_is_refused_stores_nothing(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    done = mekref("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                  "--order", "alpha:teleport", "--order", "l-guard:fly")  # fmt: skip
    assert done.returncode == 3
    assert "orders[0].action: 'teleport' is not an action" in done.stderr
    assert "orders[1].action: 'fly' is not an action" in done.stderr
    listed = ok("orders", "list", "--db", db, "--side", "loyalist", "--json")
    assert '"orders": []' in listed
