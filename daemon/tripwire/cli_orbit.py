"""``mekref satellite`` and ``mekref dropship``: satellites in orbit and a DropShip's weekly
hot standby (lines 209, 210, 270, 408 of the TripWire text).

satellite place      referee: a side's surveillance satellite in orbit
satellite move       a side moves its own satellite (geostationary: one region a day)
satellite list       every satellite, where it is and whether it still monitors
satellite forecast   a side with access sees next week's weather change a week early (L385)
dropship readiness   a side's weekly choice for a landed DropShip: hot standby or power down
dropship list        the side's DropShips, their choice this week and their standby fatigue

Anti-Satellite Operations and Reposition Orbit are orders (``mekref orders submit``).
"""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    add_db,
    add_referee,
    guarded,
    out_console,
    print_json,
    referee_only,
)
from mekref.daemon.tripwire.cli_campaign import campaign_state, execute, side_campaign_state
from mekref.daemon.tripwire.orbit_rows import dropships, print_dropships, satellites
from mekref.rules.tripwire.turn.forecast import ForecastWeather
from mekref.rules.tripwire.turn.orbit import (
    ORBITS,
    READINESS,
    ChooseDropShipReadiness,
    PlaceSatellite,
    RepositionSatellite,
    week_of,
)
from mekref.rules.tripwire.turn.orbit_events import WeatherForecastSeen
from mekref.rules.tripwire.turn.weather import level_name

SATELLITE_EPILOG = """\
Satellites (L270) monitor orbital traffic (landings, hops, orbital moves) for a side that
reaches them from a SatLink, or from a formation with a unit carrying 4+ tons of
communications equipment (T-OR8), on 2d6 9+ each day; one that is destroyed (an Anti-Satellite
Operation, L209) monitors nothing. A side's DropShips and fighters in a named orbit watch for
it too, and an enemy reaches their feed on 11+. While the referee has placed no satellite, a
SatLink reaches the planet's network as before. The strategic set-up file may list satellites
as [[satellite]] tables with the same fields, placed by 'mekref turn setup' (T-OR1; see
examples/strategic-satellites.toml).

examples:
  mekref satellite place --db g.db --id sat-1 --owner loyalist --orbit geostationary \\
      --hex 0508 --referee Ann --reason "the planet's network"
  mekref satellite move --db g.db --side loyalist --day 3 --id sat-1 --hex 0808
  mekref satellite list --db g.db
  mekref satellite forecast --db g.db --side loyalist --day 3
  mekref orders submit --db g.db --side rebel --day 3 --order ds:anti_satellite::sat-1
  mekref orders submit --db g.db --side rebel --day 3 --order ds:reposition_orbit::1105 \\
      --param ds:orbit=geostationary
"""

DROPSHIP_EPILOG = """\
L408: "DropShips must also decide each week if they remain on hot standby or power down ...
Each day on hot standby adds a point of fatigue to the DropShip. A DropShip can remain on
indefinite hot standby if it has an extra full crew." Weeks are days 1-7, 8-14, ... A DropShip
powered down this week cannot Respond (L213). A Rest order of its formation clears the fatigue.

examples:
  mekref dropship readiness --db g.db --side rebel --day 2 --unit <id> --mode hot_standby
  mekref dropship readiness --db g.db --side rebel --day 8 --unit <id> --mode hot_standby \\
      --extra-crew
  mekref dropship list --db g.db --side rebel
"""


def register(sub: Any) -> None:
    kw: dict[str, Any] = {
        "epilog": SATELLITE_EPILOG,
        "formatter_class": argparse.RawDescriptionHelpFormatter,
    }
    sat = sub.add_parser("satellite", help="satellites in orbit: place, move, list", **kw)
    acts = sat.add_subparsers(title="actions", metavar="ACTION")
    place = acts.add_parser("place", help="referee: a side's satellite in orbit", **kw)
    add_db(place)
    place.add_argument("--id", required=True, dest="satellite")
    place.add_argument("--owner", required=True, help="the side whose satellite it is")
    place.add_argument("--orbit", required=True, choices=ORBITS)
    place.add_argument("--hex", required=True, help="the hex it is above (or its track crosses)")
    add_referee(place)
    place.set_defaults(handler=guarded(_run_place), command_name="satellite place")
    move = acts.add_parser("move", help="a side moves its own satellite (L210)", **kw)
    add_db(move)
    move.add_argument("--side", required=True)
    move.add_argument("--day", type=int, required=True)
    move.add_argument("--id", required=True, dest="satellite")
    move.add_argument("--hex", required=True)
    move.set_defaults(handler=guarded(_run_move), command_name="satellite move")
    fc = acts.add_parser("forecast", help="next weekly weather change, a week early (L385)", **kw)
    add_db(fc)
    fc.add_argument("--side", required=True)
    fc.add_argument("--day", type=int, required=True, help="the day whose orders are written")
    fc.set_defaults(handler=guarded(_run_forecast), command_name="satellite forecast")
    listing = acts.add_parser("list", help="every satellite and whether it monitors", **kw)
    add_db(listing)
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=guarded(_run_list), command_name="satellite list")

    kw = {"epilog": DROPSHIP_EPILOG, "formatter_class": argparse.RawDescriptionHelpFormatter}
    ds = sub.add_parser("dropship", help="a DropShip's weekly hot standby or power down", **kw)
    ds_acts = ds.add_subparsers(title="actions", metavar="ACTION")
    ready = ds_acts.add_parser("readiness", help="this week's choice for one DropShip", **kw)
    add_db(ready)
    ready.add_argument("--side", required=True)
    ready.add_argument("--day", type=int, required=True)
    ready.add_argument("--unit", required=True, help="the DropShip's unit id")
    ready.add_argument("--mode", required=True, choices=READINESS)
    ready.add_argument(
        "--extra-crew", action="store_true", help="it carries an extra full crew (no fatigue)"
    )
    ready.set_defaults(handler=guarded(_run_readiness), command_name="dropship readiness")
    ds_list = ds_acts.add_parser("list", help="a side's DropShips and their fatigue", **kw)
    add_db(ds_list)
    ds_list.add_argument("--side", required=True)
    ds_list.add_argument("--json", action="store_true")
    ds_list.set_defaults(handler=guarded(_run_ds_list), command_name="dropship list")


def _run_place(args: argparse.Namespace) -> int:
    note = referee_only(
        args, "placing a satellite is the referee's: give --referee NAME and --reason"
    )
    execute(
        args,
        PlaceSatellite(
            actor="referee",
            satellite_id=args.satellite,
            owner=args.owner,
            orbit=args.orbit,
            hex=args.hex,
            note=note,
        ),
    )
    out_console().print(f"{args.satellite} ({args.owner}) in {args.orbit} orbit over {args.hex}")
    return EXIT_OK


def _run_move(args: argparse.Namespace) -> int:
    execute(
        args,
        RepositionSatellite(
            actor=args.side,
            side_id=args.side,
            day=args.day,
            satellite_id=args.satellite,
            hex=args.hex,
        ),
    )
    out_console().print(f"{args.satellite} now over {args.hex}")
    return EXIT_OK


def _run_list(args: argparse.Namespace) -> int:
    rows = satellites(campaign_state(args))
    if args.json:
        print_json(rows)
        return EXIT_OK
    console = out_console()
    if not rows:
        console.print("no satellites placed: a SatLink reaches the planet's network (T-S1)")
    for r in rows:
        state = "monitoring" if r["monitoring"] else f"destroyed on day {r['destroyed_day']}"
        console.print(f"{r['id']} ({r['owner']}): {r['orbit']} over {r['hex']}, {state}")
    return EXIT_OK


def _run_readiness(args: argparse.Namespace) -> int:
    execute(
        args,
        ChooseDropShipReadiness(
            actor=args.side,
            side_id=args.side,
            day=args.day,
            unit_id=args.unit,
            mode=args.mode,
            extra_crew=args.extra_crew,
        ),
    )
    crew = " with an extra full crew" if args.extra_crew else ""
    out_console().print(f"{args.unit}: {args.mode}{crew} for week {week_of(args.day)}")
    return EXIT_OK


def _run_ds_list(args: argparse.Namespace) -> int:
    state = side_campaign_state(args)
    rows = dropships(state, args.side)
    if args.json:
        print_json(rows)
        return EXIT_OK
    if not rows:
        out_console().print(f"{args.side} has no DropShip on the map")
    print_dropships(rows)
    return EXIT_OK


def _run_forecast(args: argparse.Namespace) -> int:
    """L385, ruling T-W4: one try a day; the access roll, then each region's coming weather."""
    done = execute(args, ForecastWeather(actor=args.side, side_id=args.side, day=args.day))
    seen = next(e for e in done.events if isinstance(e, WeatherForecastSeen))
    console = out_console()
    console.print(f"satellite access from {seen.uplink}: {seen.rolls[0].total} (9+ reaches them)")
    if not seen.reached:
        console.print("the satellites are out of reach today: no forecast (L270)")
        return EXIT_OK
    rolls = dict(seen.totals)
    console.print(f"the weekly change of day {seen.change_day} (L385):")
    for w in seen.regions:
        console.print(f"  {w.region}: roll {rolls[w.region]}, then {level_name(w.level)}")
    return EXIT_OK
