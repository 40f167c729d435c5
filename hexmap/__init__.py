"""mekref.hexmap: the strategic hex map of a campaign.

Hex geometry, hand-written TOML map files, terrain and strategic movement, path checking and
search, encounters during simultaneous moves, sensor coverage and SVG rendering. Pure: every
function takes data and returns data (only the bundled tables and sample maps are read, from
package data).
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
    from mekref.hexmap.render import FormationMarker, render_svg
    from mekref.hexmap.samples import sample_map, sample_map_text
    from mekref.hexmap.sensors import (
        Coverage,
        Sensor,
        SensorKind,
        location_sensors,
        visible_hexes,
    )
    from mekref.hexmap.tables import MovementMode

#: Every name is loaded from its module on first use, so that a command imports only the parts
#: of the map it touches: the whole package was part of every TripWire command's start-up (the
#: map file reader brings ``tomllib`` and ``importlib.resources``, which bring ``tempfile``,
#: ``shutil`` and ``zipfile``), and ``status`` or a battle file reads no map. The SVG
#: renderer's escaping (``xml.sax.saxutils``) alone brings ``urllib.request``,
#: ``http.client``, ``ssl`` and ``email``.
_LAZY: dict[str, str] = {
    **dict.fromkeys(
        ("Encounter", "EncounterKind", "MoveOutcome", "PlannedMove", "resolve_moves"),
        "mekref.hexmap.encounters",
    ),
    **dict.fromkeys(
        (
            "Hex",
            "Offset",
            "distance",
            "facing_sides",
            "hex_range",
            "hex_to_offset",
            "label",
            "line",
            "neighbours",
            "offset_to_hex",
            "parse_label",
            "ring",
            "sector",
            "spiral",
        ),
        "mekref.hexmap.geometry",
    ),
    **dict.fromkeys(("MapError", "parse_map"), "mekref.hexmap.mapfile"),
    **dict.fromkeys(("mapsheet_for", "random_terrain"), "mekref.hexmap.mapsheets"),
    **dict.fromkeys(("HexMap", "Location", "Region", "River", "Road"), "mekref.hexmap.model"),
    **dict.fromkeys(
        ("FormationMovement", "formation_speed", "step_cost", "strategic_mp"),
        "mekref.hexmap.movement",
    ),
    **dict.fromkeys(
        (
            "PathCheck",
            "PathProblem",
            "Route",
            "cheapest_path",
            "path_cost",
            "reachable",
            "todays_leg",
            "validate_path",
        ),
        "mekref.hexmap.paths",
    ),
    **dict.fromkeys(("sample_map", "sample_map_text"), "mekref.hexmap.samples"),
    **dict.fromkeys(
        ("Coverage", "Sensor", "SensorKind", "location_sensors", "visible_hexes"),
        "mekref.hexmap.sensors",
    ),
    **dict.fromkeys(("MovementMode",), "mekref.hexmap.tables"),
    **dict.fromkeys(("FormationMarker", "render_svg"), "mekref.hexmap.render"),
}


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
