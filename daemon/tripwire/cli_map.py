"""``mekref map``: the strategic map as SVG or PNG, for one side (fog of war), the referee or
a map file.

``map render --side S`` draws what one side may know: its own formations, the enemy formations
its sensors revealed this turn, and greys out every hex it cannot see; without ``--side`` it
draws the referee's whole map (every side's formations, no fog), as ``report --overview``
without ``--side`` is the referee's whole. ``map show`` draws a map
without a campaign (the bundled Ginestra map, or a map file being written by hand).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mekref.daemon.cli_common import EXIT_OK, CliError, add_command, add_db, guarded, out_console
from mekref.daemon.tripwire.cli_campaign import campaign_state, require_side
from mekref.hexmap import (
    FormationMarker,
    HexMap,
    MapError,
    Sensor,
    SensorKind,
    location_sensors,
    parse_label,
    parse_map,
    render_svg,
    sample_map,
    visible_hexes,
)
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.mapdata import hexmap_of
from mekref.rules.tripwire.turn.state import IN_ORBIT, Sighting
from mekref.rules.tripwire.turn.view import side_view

HELP = "draw the strategic map as SVG or PNG (map render, map show)"
EPILOG = """\
examples:
  mekref map show -o ginestra.svg                        the bundled Ginestra map
  mekref map show --map my-planet.toml -o check.svg      check a map file while writing it
  mekref map render --db ginestra.db --side rebel -o rebel.svg   what the rebels know (fog of war)
  mekref map render --db ginestra.db --side rebel -o rebel.png   the same, as a picture
  mekref map render --db ginestra.db -o referee.png              the referee: every side, no fog

Each formation on the map is a numbered badge in its side's colour, with its name when the
name fits in the hex; the key beside the map lists every number with its hex, full name and
id (a sighting: the id and what the side's sensors showed of it).
"""


def register(sub: Any) -> None:
    kw: dict[str, Any] = {"epilog": EPILOG}
    parser: argparse.ArgumentParser = add_command(sub, "map", help=HELP, **kw)
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    render = add_command(
        actions,
        "render",
        help="a campaign's map: one side's view (fog of war) or, without --side, the referee's",
        **kw,
    )
    add_db(render)
    render.add_argument(
        "--side",
        help="the side whose view to draw: its own formations, what its sensors sighted, fog "
        "over the hexes it cannot see (default: the referee's whole map, every side, no fog)",
    )
    render.set_defaults(handler=guarded(run_render), command_name="map render")
    show = add_command(actions, "show", help="a map without a campaign (default: Ginestra)", **kw)
    show.add_argument("--map", default="ginestra", help="a bundled map name or a map TOML file")
    show.set_defaults(handler=guarded(run_show), command_name="map show")
    for drawing in (render, show):
        drawing.add_argument("-o", "--output", type=Path, help=OUTPUT_HELP)


OUTPUT_HELP = "SVG or PNG file, by its extension (default: SVG on standard output)"


CAIRO_MISSING = (
    "{output}: a PNG map needs the system's cairo library (libcairo), which could not be "
    "loaded ({why}); install it (Debian/Ubuntu: apt install libcairo2; Fedora: dnf install "
    "cairo; macOS: brew install cairo; Windows: the GTK runtime, see docs/cli.md) or write "
    "the SVG, which needs nothing: -o {svg}"
)


def _png_writer() -> Any:
    """cairosvg's ``svg2png``; cairosvg loads libcairo (through cairocffi) when imported, and
    a missing library surfaces as an OSError or ImportError from the import."""
    import cairosvg  # type: ignore[import-untyped]

    return cairosvg.svg2png


MAP_SUFFIXES = (".svg", ".png")


def _check_output(output: Path | None) -> None:
    """The picture's format follows -o's suffix; any other suffix is refused before anything is
    drawn (a ``map.jpg`` holding SVG opens nowhere)."""
    if output is not None and output.suffix.lower() not in MAP_SUFFIXES:
        raise CliError(
            f"-o {output}: the map is written as .svg or .png, chosen by the suffix; "
            f"give {output.with_suffix('.svg').name} or {output.with_suffix('.png').name}"
        )


def _write(svg: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(svg)
        return
    if output.suffix.lower() == ".png":
        # A picture people can paste anywhere; cairosvg draws our SVG with libcairo.
        try:
            svg2png = _png_writer()
        except (ImportError, OSError) as exc:
            why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            svg_path = output.with_suffix(".svg")
            raise CliError(CAIRO_MISSING.format(output=output, why=why, svg=svg_path)) from None
    try:
        if output.suffix.lower() == ".png":
            svg2png(bytestring=svg.encode("utf-8"), write_to=str(output), scale=1.5)
        else:
            output.write_text(svg, encoding="utf-8")
    except OSError as exc:
        raise CliError(f"{output}: cannot write ({exc.strerror})") from exc
    out_console().print(f"wrote {output}")


def side_svg(state: CampaignState, side: str) -> str:
    """The SVG one side may see: own formations, its sightings, fog over the rest."""
    require_side(state, side)
    s = state.strategic
    if s is None:
        raise CliError("the strategic map is not set up in this campaign")
    hexmap = hexmap_of(s)
    view = side_view(state, side)
    markers = [
        FormationMarker(f.formation_id, side, parse_label(f.hex), f.name)
        for f in view.formations
        if f.hex != IN_ORBIT
    ]
    markers += [
        FormationMarker(x.formation_id, x.side_id, parse_label(x.hex), sighting_label(x))
        for x in view.sightings
    ]
    held = [name for name, holder in view.control if holder == side]
    sensors = [Sensor(side, SensorKind.PRESENCE, m.hex) for m in markers if m.side == side]
    sensors += location_sensors(hexmap, side, held)
    cover = visible_hexes(side, hexmap, sensors)
    return render_svg(hexmap, markers, side, visible=cover.ground)


def sighting_label(sighting: Sighting) -> str:
    """What a side's map says of an enemy formation it sighted: which one and how much of it
    its sensors showed, as ``report --overview --side`` lists it."""
    units = "" if sighting.units is None else f", {sighting.units} units"
    return f"{sighting.formation_id} sighted ({sighting.info.replace('_', ' ')}{units})"


REFEREE_TITLE = "referee: every side"


def referee_svg(state: CampaignState) -> str:
    """The referee's whole map: every side's formations where they stand, no fog. Formations
    in orbit stand on no hex and are not drawn (``report --overview`` lists them)."""
    s = state.strategic
    if s is None:
        raise CliError("the strategic map is not set up in this campaign")
    markers = [
        FormationMarker(f.formation_id, f.side_id, parse_label(f.hex), f.name)
        for _, f in sorted(s.formations.items())
        if f.hex != IN_ORBIT
    ]
    return render_svg(hexmap_of(s), markers, REFEREE_TITLE)


def run_render(args: argparse.Namespace) -> int:
    _check_output(args.output)
    state = campaign_state(args)
    svg = referee_svg(state) if args.side is None else side_svg(state, args.side)
    _write(svg, args.output)
    return EXIT_OK


def load_map(name: str) -> HexMap:
    path = Path(name)
    if path.suffix == ".toml" or path.exists():
        try:
            return parse_map(path.read_text(encoding="utf-8"), path.name)
        except OSError as exc:
            raise CliError(f"{path}: cannot read ({exc.strerror})") from exc
        except MapError as exc:
            raise CliError(str(exc)) from exc
    try:
        return sample_map(name)
    except (KeyError, FileNotFoundError, ValueError) as exc:
        raise CliError(f"no bundled map {name!r} and no such file ({exc})") from exc


def run_show(args: argparse.Namespace) -> int:
    _check_output(args.output)
    _write(render_svg(load_map(args.map), []), args.output)
    return EXIT_OK
