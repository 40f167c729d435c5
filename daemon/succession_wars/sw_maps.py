"""The Succession Wars board of a start command, given by name or as a TOML file.

The rule set's ``SWStartCampaign`` carries the whole board (the rules core reads no files), so
this shell fills it in before decoding: ``"map": "sample"`` names a board shipped with the
package, ``"map": "board.toml"`` is a file beside the command file (or at that path), and
``mekref game start --map FILE.toml`` reads one from anywhere. The TOML format is the shipped
map's (docs/succession-wars.md).
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from mekref.daemon.wing import WingInputError
from mekref.rules.codec import to_jsonable
from mekref.rules.succession_wars.data import load_map, parse_map
from mekref.rules.tables import TableError

MAPS_PACKAGE = "mekref.rules.succession_wars.maps"


class MapInputError(WingInputError, ValueError):
    """A board that cannot be read: the message says which and why."""


def bundled_maps() -> list[str]:
    files = resources.files(MAPS_PACKAGE).iterdir()
    return sorted(f.name.removesuffix(".toml") for f in files if f.name.endswith(".toml"))


def fill_map(data: dict[str, Any], where: str, map_file: Path | None) -> str | None:
    """Replace a named or file board in ``data`` by the board itself, in place.

    Returns a warning to show when ``map_file`` replaced a board the command already held."""
    warning = None
    if map_file is not None:
        if "map" in data:
            warning = f"--map {map_file} replaces the map given in {where}"
        data["map"] = _board_json(_read_file(map_file), str(map_file))
        return warning
    given = data.get("map")
    if not isinstance(given, str):
        return None
    if given in bundled_maps():
        data["map"] = to_jsonable(load_map(given))
        return None
    if given.endswith(".toml"):
        path = Path(given)
        if not path.is_absolute() and where != "stdin":
            path = Path(where).parent / path
        data["map"] = _board_json(_read_file(path), str(path))
        return None
    raise MapInputError(
        f'{where}: "map": {given!r} is neither a bundled map ({", ".join(bundled_maps())}) '
        "nor a .toml file; give a name, a TOML map file, or the board inline"
    )


def _read_file(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MapInputError(f"{path}: cannot read the map ({exc.strerror})") from None


def _board_json(text: str, where: str) -> Any:
    try:
        return to_jsonable(parse_map(text))
    except TableError as exc:
        raise MapInputError(f"{where}: not a Succession Wars map: {exc}") from None
