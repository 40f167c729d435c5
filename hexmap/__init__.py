"""mekref.hexmap: the strategic hex map of a campaign.

Hex geometry, hand-written TOML map files, terrain and strategic movement, path checking and
search, encounters during simultaneous moves, sensor coverage and SVG rendering. Pure: every
function takes data and returns data (only the bundled tables and sample maps are read, from
package data).
"""

from typing import TYPE_CHECKING, Any

from mekref.hexmap.encounters import (
    Encounter,
    EncounterKind,
    MoveOutcome,
    PlannedMove,
    resolve_moves,
)
from mekref.hexmap.geometry import (
    Hex,
    Offset,
    distance,
    facing_sides,
    hex_range,
    hex_to_offset,
    label,
    line,
    neighbours,
    offset_to_hex,
    parse_label,
    ring,
    sector,
    spiral,
)
from mekref.hexmap.mapfile import MapError, parse_map
from mekref.hexmap.mapsheets import mapsheet_for, random_terrain
from mekref.hexmap.model import HexMap, Location, Region, River, Road
from mekref.hexmap.movement import FormationMovement, formation_speed, step_cost, strategic_mp
from mekref.hexmap.paths import (
    PathCheck,
    PathProblem,
    Route,
    cheapest_path,
    path_cost,
    reachable,
    todays_leg,
    validate_path,
)
from mekref.hexmap.samples import sample_map, sample_map_text
from mekref.hexmap.sensors import (
    Coverage,
    Sensor,
    SensorKind,
    location_sensors,
    visible_hexes,
)
from mekref.hexmap.tables import MovementMode

if TYPE_CHECKING:
    from mekref.hexmap.render import FormationMarker, render_svg

#: Names loaded on first use: the SVG renderer's escaping (``xml.sax.saxutils``) brings in
#: ``urllib.request``, ``http.client``, ``ssl`` and ``email``, about 45 ms of every command's
#: start-up, and only the commands that draw a map need it.
_LAZY = {"FormationMarker": "mekref.hexmap.render", "render_svg": "mekref.hexmap.render"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Coverage",
    "Encounter",
    "EncounterKind",
    "FormationMarker",
    "FormationMovement",
    "Hex",
    "HexMap",
    "Location",
    "MapError",
    "MoveOutcome",
    "MovementMode",
    "Offset",
    "PathCheck",
    "PathProblem",
    "PlannedMove",
    "Region",
    "River",
    "Road",
    "Route",
    "Sensor",
    "SensorKind",
    "cheapest_path",
    "distance",
    "facing_sides",
    "formation_speed",
    "hex_range",
    "hex_to_offset",
    "label",
    "line",
    "location_sensors",
    "mapsheet_for",
    "neighbours",
    "offset_to_hex",
    "parse_label",
    "parse_map",
    "path_cost",
    "random_terrain",
    "reachable",
    "render_svg",
    "resolve_moves",
    "ring",
    "sample_map",
    "sample_map_text",
    "sector",
    "spiral",
    "step_cost",
    "strategic_mp",
    "todays_leg",
    "validate_path",
    "visible_hexes",
]
