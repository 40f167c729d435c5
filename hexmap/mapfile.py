"""Parse a hand-written TOML map file into a :class:`HexMap`, with errors a referee can act on.

The format is described in docs/hexmap.md. Hex positions are MegaMek-style "CCRR" labels;
wherever a list of hexes is expected an item may also be a straight run along one column or
row, ``"0103-0903"``, or an inclusive rectangle, ``"0101:0510"``.
"""

from __future__ import annotations

import difflib
import itertools
import tomllib
from collections.abc import Iterable
from types import MappingProxyType
from typing import Any

from mekref.hexmap.geometry import (
    Hex,
    LabelError,
    Offset,
    are_adjacent,
    hex_to_offset,
    iter_rect,
    label,
    offset_to_hex,
    parse_offset,
)
from mekref.hexmap.model import HexMap, Location, Region, River, Road
from mekref.hexmap.tables import facility_table, terrain_table

MAX_SIDE = 99  # "CCRR" labels have two digits per coordinate
CLIMATE_RANGE = (-2, 2)


class MapError(ValueError):
    """A map file that cannot be used; the message names the file, the place and the fix."""

    def __init__(self, source_name: str, where: str, problem: str, fix: str) -> None:
        self.source_name = source_name
        self.where = where
        self.problem = problem
        self.fix = fix
        super().__init__(f"{source_name}: {where}: {problem}. {fix}")


class _Ctx:
    def __init__(self, source_name: str, width: int, height: int) -> None:
        self.source = source_name
        self.width = width
        self.height = height

    def fail(self, where: str, problem: str, fix: str) -> MapError:
        return MapError(self.source, where, problem, fix)

    def bounds_text(self) -> str:
        return f"columns 01-{self.width:02d}, rows 01-{self.height:02d}"

    def hex(self, text: object, where: str, *, allow_outside: bool = False) -> Hex:
        if not isinstance(text, str):
            raise self.fail(where, f"{text!r} is not a hex label", "Write it as a quoted 'CCRR'")
        try:
            o = parse_offset(text)
        except LabelError as exc:
            raise self.fail(where, str(exc), "Fix the label") from None
        if not allow_outside and not (1 <= o.col <= self.width and 1 <= o.row <= self.height):
            raise self.fail(
                f"{where}, hex {o.label}",
                f"the hex is outside the {self.width}x{self.height} map ({self.bounds_text()})",
                "Move it onto the map or enlarge [map] width/height",
            )
        return offset_to_hex(o)

    def hex_set(self, items: object, where: str) -> list[Hex]:
        """Expand a list of labels, runs and rectangles, keeping the order they were written in."""
        if not isinstance(items, list) or not items:
            raise self.fail(where, "expected a non-empty list of hex labels", "e.g. ['0504']")
        out: list[Hex] = []
        for item in items:
            out.extend(self._expand(item, where))
        return out

    def _expand(self, item: object, where: str) -> list[Hex]:
        if isinstance(item, str) and ":" in item:
            a_text, _, b_text = item.partition(":")
            corner_a = hex_to_offset(self.hex(a_text, where))
            corner_b = hex_to_offset(self.hex(b_text, where))
            return [offset_to_hex(o) for o in iter_rect(corner_a, corner_b)]
        if isinstance(item, str) and "-" in item:
            a_text, _, b_text = item.partition("-")
            a = hex_to_offset(self.hex(a_text, where))
            b = hex_to_offset(self.hex(b_text, where))
            if a.col != b.col and a.row != b.row:
                raise self.fail(
                    f"{where}, run {item!r}",
                    "a run must stay in one column or one row",
                    "Use 'CCRR:CCRR' for a rectangle, or split it into runs",
                )
            # Keep the direction the referee wrote, so a road run reads from its first hex.
            cols = _steps(a.col, b.col)
            rows = _steps(a.row, b.row)
            if a.col == b.col:
                return [offset_to_hex(Offset(a.col, r)) for r in rows]
            return [offset_to_hex(Offset(c, a.row)) for c in cols]
        return [self.hex(item, where)]


def _steps(a: int, b: int) -> range:
    return range(a, b + 1) if a <= b else range(a, b - 1, -1)


# The keys each table may hold: a misspelt key would otherwise be silently ignored, and a
# location written with "warchets = 1000" would quietly hold no WarChest at all.
KEYS: dict[str, frozenset[str]] = {
    "": frozenset({"map", "terrain", "road", "river", "location", "region"}),
    "map": frozenset({"name", "width", "height", "hex_km", "default_terrain"}),
    "terrain": frozenset({"type", "hexes"}),
    "road": frozenset({"name", "path"}),
    "river": frozenset({"name", "edges"}),
    "location": frozenset({"name", "hex", "warchest", "facilities", "notes"}),
    "region": frozenset({"name", "climate", "hexes"}),
}


def _check_keys(entry: dict[str, Any], table: str, where: str, source: str) -> None:
    allowed = KEYS[table]
    for key in sorted(set(entry) - allowed):
        close = difflib.get_close_matches(key, sorted(allowed), n=1)
        hint = f"Did you mean {close[0]!r}?" if close else "Remove it"
        raise MapError(
            source, where, f"unknown key {key!r} (known: {', '.join(sorted(allowed))})", hint
        )


def _table(data: dict[str, Any], key: str, source: str) -> list[dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise MapError(source, f"[[{key}]]", "expected an array of tables", f"Write [[{key}]]")
    for i, entry in enumerate(value, start=1):
        _check_keys(entry, key, f"[[{key}]] #{i}", source)
    return value


def _require(entry: dict[str, Any], key: str, kind: type, where: str, source: str) -> Any:
    if key not in entry:
        raise MapError(source, where, f"missing {key!r}", f"Add {key} = ...")
    value = entry[key]
    # bool is an int in Python; a map never means True when it writes a number.
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise MapError(
            source, where, f"{key!r} must be a {kind.__name__}, got {value!r}", "Fix the value"
        )
    return value


def parse_map(text: str, source_name: str) -> HexMap:
    """Parse map-file ``text``; ``source_name`` (usually the path) appears in every error."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(source_name, "TOML syntax", str(exc), "Fix the syntax there") from None

    _check_keys(data, "", "top level", source_name)
    header = data.get("map")
    if not isinstance(header, dict):
        raise MapError(source_name, "[map]", "missing the [map] table", "Add [map] with size")
    _check_keys(header, "map", "[map]", source_name)
    name = _require(header, "name", str, "[map]", source_name)
    width = _require(header, "width", int, "[map]", source_name)
    height = _require(header, "height", int, "[map]", source_name)
    hex_km = header.get("hex_km", 50)
    for key, value in (("width", width), ("height", height)):
        if not 1 <= value <= MAX_SIDE:
            raise MapError(
                source_name, "[map]", f"{key} {value} is outside 1-{MAX_SIDE}", "Fix the size"
            )
    if not isinstance(hex_km, int) or isinstance(hex_km, bool) or hex_km <= 0:
        raise MapError(source_name, "[map]", f"hex_km {hex_km!r}", "Use a positive integer")
    ctx = _Ctx(source_name, width, height)

    terrains = terrain_table()
    known_terrain = ", ".join(sorted(terrains))

    def check_terrain(value: object, where: str) -> str:
        if not isinstance(value, str) or value not in terrains:
            raise ctx.fail(where, f"unknown terrain {value!r}", f"Use one of: {known_terrain}")
        return value

    default = check_terrain(header.get("default_terrain", "plains"), "[map] default_terrain")

    # Later entries paint over earlier ones, so a referee can lay a forest and cut a clearing.
    terrain: dict[Hex, str] = {}
    for i, entry in enumerate(_table(data, "terrain", source_name), start=1):
        where = f"[[terrain]] #{i}"
        kind = check_terrain(entry.get("type"), where)
        for h in ctx.hex_set(entry.get("hexes"), where):
            terrain[h] = kind

    roads = tuple(
        _parse_road(ctx, e, i) for i, e in enumerate(_table(data, "road", source_name), 1)
    )
    rivers = tuple(
        _parse_river(ctx, e, i) for i, e in enumerate(_table(data, "river", source_name), 1)
    )
    locations = _parse_locations(ctx, _table(data, "location", source_name))
    regions = _parse_regions(ctx, _table(data, "region", source_name))

    return HexMap(
        name=name,
        width=width,
        height=height,
        hex_km=hex_km,
        default_terrain=default,
        terrain=MappingProxyType(terrain),
        roads=roads,
        rivers=rivers,
        locations=locations,
        regions=regions,
    )


def _parse_road(ctx: _Ctx, entry: dict[str, Any], i: int) -> Road:
    name = entry.get("name", f"road #{i}")
    where = f"[[road]] {name!r}"
    path = ctx.hex_set(entry.get("path"), where)
    if len(path) < 2:
        raise ctx.fail(where, "a road needs at least two hexes", "Add the hexes it runs through")
    for a, b in itertools.pairwise(path):
        if not are_adjacent(a, b):
            raise ctx.fail(
                f"{where}, hex {label(b)}",
                f"the road is not contiguous: {label(b)} does not touch {label(a)}",
                "List every hex the road passes through, in order",
            )
    return Road(name=str(name), path=tuple(path))


def _split_edge(ctx: _Ctx, item: object, where: str) -> frozenset[Hex]:
    if not isinstance(item, str) or item.count("/") != 1:
        raise ctx.fail(where, f"{item!r} is not a hex edge", "Write an edge as 'CCRR/CCRR'")
    a_text, b_text = item.split("/")
    # One side of a border edge may lie off the map: a river can run along the map's rim.
    a = ctx.hex(a_text, where, allow_outside=True)
    b = ctx.hex(b_text, where, allow_outside=True)
    if not are_adjacent(a, b):
        raise ctx.fail(
            f"{where}, edge {item}",
            "the two hexes do not share an edge",
            "Name two neighbouring hexes; the river runs between them",
        )
    if not (_inside(ctx, a) or _inside(ctx, b)):
        raise ctx.fail(
            f"{where}, edge {item}", "the edge is entirely off the map", "Move it onto the map"
        )
    return frozenset((a, b))


def _inside(ctx: _Ctx, h: Hex) -> bool:
    o = hex_to_offset(h)
    return 1 <= o.col <= ctx.width and 1 <= o.row <= ctx.height


def _edges_meet(e: frozenset[Hex], f: frozenset[Hex]) -> bool:
    # Two edges share a corner exactly when their hexes include three mutually adjacent hexes.
    union = e | f
    return (
        e != f
        and len(union) == 3
        and all(are_adjacent(x, y) for x in union for y in union if x != y)
    )


def _parse_river(ctx: _Ctx, entry: dict[str, Any], i: int) -> River:
    name = entry.get("name", f"river #{i}")
    where = f"[[river]] {name!r}"
    raw = entry.get("edges")
    if not isinstance(raw, list) or not raw:
        raise ctx.fail(where, "missing 'edges'", "e.g. edges = ['0504/0505', '0504/0604']")
    edges = [_split_edge(ctx, item, where) for item in raw]
    for prev, item, edge in zip(edges, raw[1:], edges[1:], strict=False):
        if not _edges_meet(prev, edge):
            raise ctx.fail(
                f"{where}, edge {item}",
                "the river is not contiguous: this edge shares no corner with the one before",
                "List the edges in the order the river flows, with no gaps",
            )
    return River(name=str(name), edges=tuple(edges))


def _parse_locations(ctx: _Ctx, entries: Iterable[dict[str, Any]]) -> tuple[Location, ...]:
    facilities = facility_table()
    known = ", ".join(sorted(facilities))
    seen_names: dict[str, int] = {}
    seen_hexes: dict[Hex, str] = {}
    out: list[Location] = []
    for i, entry in enumerate(entries, start=1):
        name = _require(entry, "name", str, f"[[location]] #{i}", ctx.source)
        where = f"[[location]] {name!r}"
        if name in seen_names:
            raise ctx.fail(
                where,
                f"duplicate location: {name!r} is already location #{seen_names[name]}",
                "Give every location a unique name",
            )
        seen_names[name] = i
        h = ctx.hex(entry.get("hex"), where)
        if h in seen_hexes:
            raise ctx.fail(
                f"{where}, hex {label(h)}",
                f"{seen_hexes[h]!r} is already in this hex",
                "Put one location per strategic hex (merge them or move one)",
            )
        seen_hexes[h] = name
        warchest = entry.get("warchest", 0)
        if not isinstance(warchest, int) or isinstance(warchest, bool) or warchest < 0:
            raise ctx.fail(where, f"warchest {warchest!r}", "Use a whole number of WP, 0 or more")
        raw_fac = entry.get("facilities", [])
        if not isinstance(raw_fac, list):
            raise ctx.fail(where, "facilities must be a list", "e.g. ['hospital', 'radar']")
        fac: set[str] = set()
        for f in raw_fac:
            if f not in facilities:
                raise ctx.fail(where, f"unknown facility {f!r}", f"Use one of: {known}")
            fac.add(f)
            fac.update(facilities[f].implies)
        notes = entry.get("notes", "")
        out.append(Location(str(name), h, warchest, frozenset(fac), str(notes)))
    return tuple(out)


def _parse_regions(ctx: _Ctx, entries: Iterable[dict[str, Any]]) -> tuple[Region, ...]:
    owner: dict[Hex, str] = {}
    out: list[Region] = []
    for i, entry in enumerate(entries, start=1):
        name = _require(entry, "name", str, f"[[region]] #{i}", ctx.source)
        where = f"[[region]] {name!r}"
        if any(r.name == name for r in out):
            raise ctx.fail(where, "duplicate region name", "Give every region a unique name")
        climate = entry.get("climate", 0)
        lo, hi = CLIMATE_RANGE
        if not isinstance(climate, int) or isinstance(climate, bool) or not lo <= climate <= hi:
            raise ctx.fail(
                where,
                f"climate {climate!r} is outside {lo:+d}..{hi:+d}",
                "The weather table allows a mod of -2 to +2",
            )
        hexes = frozenset(ctx.hex_set(entry.get("hexes"), where))
        for h in sorted(hexes):
            if h in owner:
                raise ctx.fail(
                    f"{where}, hex {label(h)}",
                    f"the hex is already in region {owner[h]!r}",
                    "Regions may not overlap; remove it from one of them",
                )
            owner[h] = name
        out.append(Region(str(name), hexes, climate))
    return tuple(out)
