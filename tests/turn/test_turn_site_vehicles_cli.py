"""The vehicles a facility includes change hands with their site (ruling T-SV1 in
docs/turn.md), through the installed ``mekref`` console script.

L271: "Supply Dump – Baggage trains (Food/Water) can be reset. Supply Dumps include 8 unarmed
Flatbed Trucks. ICE Engine units can also be refuelled."
L272: "Ammo Dump – Any standard ammo type can be purchased with WarChest points. Ammo Dumps
include 4 J-37 Ordinance Transports. ..."
L273: "AeroSpace Fuel Dump – AeroSpace units can replenish fuel points. Fuel dumps include 4
Tanker Trucks."
L59: "Any unit can carry 5x its Cargo Capacity in WarChest Points (e.g. A 10 to flatbed truck
can carry 50 WP)." The J-37's 21 t of cargo is MegaMek's, as quoted in MegaMek/megameklab
issue 136 ("Cargo Space (1 door) - 21 tons").
"""

from __future__ import annotations

from pathlib import Path

from ginestra_cli import UNITS, ok

from mekref.daemon.samples.ginestra import FOLDER

FDB = "Forward Deployment Base (1712)"


def _sites(db: str, side: str) -> str:
    return " ".join(ok("force", "list", "--db", db, "--side", side).split())


def test_ruling_t_sv1_a_sites_vehicles_change_hands_with_it(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    ok("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
       "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    for side in ("loyalist", "rebel"):
        ok("force", "import", "--db", db, "--side", side, str(FOLDER / f"{side}.mul"),
           "--units-dir", str(UNITS),
           "--unchecked", "--referee", "Ref", "--reason", "x")  # fmt: skip
    # The sample's set-up, with Alpha Lance a hex short of the rebels' empty base (1712: Ammo
    # Dump, Supply Dump) instead of garrisoning the Manufacturing Facility.
    text = (FOLDER / "strategic.toml").read_text(encoding="utf-8")
    moved = text.replace('hex = "1105"                # garrisons', 'hex = "1612"  #', 1)
    assert moved != text
    (tmp_path / "strategic.toml").write_text(moved, encoding="utf-8")
    ok("turn", "setup", "--db", db, "--file", str(tmp_path / "strategic.toml"))

    rebel = _sites(db, "rebel")
    assert "vehicles the held facilities include (L271-L273, ruling T-SV1):" in rebel
    assert (
        f"rebel: {FDB}: 8 x Flatbed Truck (supply_dump, L271, unarmed): 50 WP each (L59: 5 a "
        "cargo ton; 10 t per L59)" in rebel
    )
    assert (
        f"rebel: {FDB}: 4 x J-37 Ordnance Transport (ammo_dump, L272): 105 WP each (L59: 5 a "
        "cargo ton; 21 t per MegaMek's J-37, megameklab issue 136)" in rebel
    )
    # No design is bundled: said, never a default one.
    assert "no MegaMek design is bundled, so it goes into no scenario file" in rebel
    loyal = _sites(db, "loyalist")
    assert FDB not in loyal
    assert (
        "loyalist: Bagnorgeio Space Port (0610): 4 x Tanker Truck (fuel_dump, L273): WP carried "
        "not known (no source gives its cargo capacity)" in loyal
    )

    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
       "--order", "alpha:move:1712")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    # T-C1: the loyalists alone stand in 1712 at the end of the day: the base and the trucks
    # and J-37s it includes are theirs now.
    loyal = _sites(db, "loyalist")
    assert f"loyalist: {FDB}: 8 x Flatbed Truck" in loyal
    assert f"loyalist: {FDB}: 4 x J-37 Ordnance Transport" in loyal
    assert FDB not in _sites(db, "rebel")
