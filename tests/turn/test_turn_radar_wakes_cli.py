"""A Combat Drop from its geostationary orbit, and the RADAR that wakes the interceptors, through
the installed console script (rulings T-OR7, T-RS3).

L211: "Combat Drop (Free Action) – A DropShip can only perform this action when in a
GeoStationary orbit above the target hex. ... Any Radar Station can detect this any AeroSpace
assets on Intercept or CAP can activate."
L268: "RADAR – Any aerospace asset that is not flying above level 1 (Nape of Earth) within 400 km
of the RADAR station detected. Any AeroSpace units on Intercept or on Combat AirPatrol can then
activate."

The Ginestra sample: the rebels' Bravo, at the pirate point, may not drop on 0812 until its
DropShip is in the geostationary orbit above it; on day 2 it drops, the Space Port's RADAR (0610,
150 km off) sees it and the loyalists' Rapier Flight on Intercept flies out to meet it.
"""

from __future__ import annotations

from pathlib import Path

from console_script import mekref
from ginestra_cli import day_zero, ok


def test_a_combat_drop_from_geostationary_orbit_wakes_the_interceptors(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    pirate = mekref("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
                    "--order", "bravo:combat_drop::0812")  # fmt: skip
    assert pirate.returncode == 3, pirate.stderr
    assert 'L211: "A DropShip can only perform this action when in a GeoStationary orbit' in (
        pirate.stderr
    )
    assert "reposition_orbit, orbit=geostationary, target 0812" in pirate.stderr
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
       "--order", "bravo:reposition_orbit::0812",
       "--param", "bravo:orbit=geostationary")  # fmt: skip
    ok("turn", "resolve", "--db", db, "--day", "1")
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "2",
       "--order", "bravo:combat_drop::0812")  # fmt: skip
    ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "2",
       "--order", "l-air:intercept")  # fmt: skip
    said = ok("turn", "resolve", "--db", db, "--day", "2")
    assert (
        "l-air: radar detected enemy bravo (combat_drop) over 0812; l-air on intercept at 0610 "
        "activates and meets it there, 150 km out "
        '(L268: "Any aerospace asset that is not flying above level 1 (Nape of Earth) within '
        "400 km of the RADAR station detected. Any AeroSpace units on Intercept or on Combat "
        'AirPatrol can then activate."; L211: "Any Radar Station can detect this any AeroSpace '
        'assets on Intercept or CAP can activate.")'
    ) in said
    assert "engagement day2-0812-1" in said
