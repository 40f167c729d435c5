"""The strategic map as typed, immutable data: terrain, roads, rivers, locations, regions."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from mekref.hexmap.geometry import Hex, Offset, hex_to_offset, label, offset_to_hex, touches


@dataclass(frozen=True, slots=True)
class Location:
    """A named strategic location: what it holds and how many WarChest Points sit there."""

    name: str
    hex: Hex
    warchest: int
    facilities: frozenset[str]
    notes: str = ""


@dataclass(frozen=True, slots=True)
class Region:
    """A named set of hexes sharing a weather system (the "sector" of the sensor rules)."""

    name: str
    hexes: frozenset[Hex]
    climate: int = 0


@dataclass(frozen=True, slots=True)
class Road:
    name: str
    path: tuple[Hex, ...]


@dataclass(frozen=True, slots=True)
class River:
    """A river runs along hex edges; each edge is the pair of hexes it separates."""

    name: str
    edges: tuple[frozenset[Hex], ...]


@dataclass(frozen=True, slots=True)
class HexMap:
    name: str
    width: int
    height: int
    hex_km: int
    default_terrain: str
    terrain: Mapping[Hex, str]
    roads: tuple[Road, ...] = ()
    rivers: tuple[River, ...] = ()
    locations: tuple[Location, ...] = ()
    regions: tuple[Region, ...] = ()
    # Derived lookups, filled in by __post_init__ so a hand-built HexMap behaves like a parsed one.
    _road_steps: frozenset[tuple[Hex, Hex]] = field(
        default=frozenset(), init=False, repr=False, compare=False
    )
    _river_edges: frozenset[frozenset[Hex]] = field(
        default=frozenset(), init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        steps: set[tuple[Hex, Hex]] = set()
        for road in self.roads:
            for a, b in itertools.pairwise(road.path):
                steps.add((a, b))
                steps.add((b, a))
        object.__setattr__(self, "_road_steps", frozenset(steps))
        object.__setattr__(
            self, "_river_edges", frozenset(e for river in self.rivers for e in river.edges)
        )

    def in_bounds(self, h: Hex) -> bool:
        o = hex_to_offset(h)
        return 1 <= o.col <= self.width and 1 <= o.row <= self.height

    def hexes(self) -> Iterator[Hex]:
        """Every hex on the map, column by column, top to bottom: a stable drawing order."""
        for col in range(1, self.width + 1):
            for row in range(1, self.height + 1):
                yield offset_to_hex(Offset(col, row))

    def terrain_at(self, h: Hex) -> str:
        return self.terrain.get(h, self.default_terrain)

    def is_road_step(self, a: Hex, b: Hex) -> bool:
        return (a, b) in self._road_steps

    def crosses_river(self, a: Hex, b: Hex) -> bool:
        return frozenset((a, b)) in self._river_edges

    def location_at(self, h: Hex) -> Location | None:
        for loc in self.locations:
            if loc.hex == h:
                return loc
        return None

    def location(self, name: str) -> Location:
        for loc in self.locations:
            if loc.name == name:
                return loc
        known = ", ".join(loc.name for loc in self.locations)
        raise KeyError(f"no location named {name!r} on map {self.name!r}; known: {known}")

    def region_of(self, h: Hex) -> Region | None:
        for region in self.regions:
            if h in region.hexes:
                return region
        return None

    def adjacent_regions(self, region: Region) -> tuple[Region, ...]:
        """Regions sharing an edge with ``region``, in map-file order."""
        return tuple(
            other
            for other in self.regions
            if other.name != region.name and touches(region.hexes, other.hexes)
        )

    def describe(self, h: Hex) -> str:
        """A hex as a referee would say it: label, plus the location there if any."""
        loc = self.location_at(h)
        return f"{label(h)} ({loc.name})" if loc else label(h)
