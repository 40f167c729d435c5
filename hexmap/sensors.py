"""Sensor coverage: which hexes a side can see, split by what the sensor can detect.

RADAR sees aircraft, not ground forces; satellites and overflights see the ground; a Deep Space
Array watches whole sectors (map regions) for orbital traffic. Whether a satellite feed was
won this turn, or a surveillance roll succeeded, is the rules engine's business: it passes in
only the sensors that are working.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from mekref.hexmap.geometry import Hex, hex_range, neighbours
from mekref.hexmap.model import HexMap, Region
from mekref.hexmap.tables import sensor_rules


class SensorKind(StrEnum):
    PRESENCE = "presence"  # a formation or held location sees its own hex
    RADAR = "radar"
    DEEP_SPACE_ARRAY = "deep_space_array"
    SATELLITE = "satellite"  # a satellite's view of one hex, reached through a SatLink
    SATELLITE_MONITOR = "satellite_monitor"  # a satellite's watch on orbital traffic
    COMBAT_AIR_PATROL = "combat_air_patrol"
    OVERFLIGHT = "overflight"


@dataclass(frozen=True, slots=True)
class Sensor:
    side: str
    kind: SensorKind
    at: Hex
    # Overflight only: the hexes flown over after ``at``.
    route: tuple[Hex, ...] = ()


@dataclass(frozen=True, slots=True)
class Coverage:
    """What one side can see. ``ground`` hexes reveal formations on the ground, ``air`` hexes
    reveal aircraft below orbit, ``orbital_regions`` name the sectors whose landings, hops and
    orbital moves are detected."""

    side: str
    ground: frozenset[Hex] = field(default_factory=frozenset)
    air: frozenset[Hex] = field(default_factory=frozenset)
    orbital_regions: frozenset[str] = field(default_factory=frozenset)

    def sees_ground(self, h: Hex) -> bool:
        return h in self.ground

    def sees_air(self, h: Hex) -> bool:
        return h in self.air


def radar_radius(hexmap: HexMap) -> int:
    """RADAR reach in hexes: 400 km over 50 km hexes is 8; partial hexes do not count."""
    return sensor_rules().radar_range_km // hexmap.hex_km


def deep_space_array_regions(hexmap: HexMap, at: Hex) -> frozenset[str]:
    """The sector the array stands in plus the two adjacent ones (ruling R7 picks which two)."""
    home = hexmap.region_of(at)
    if home is None:
        return frozenset()
    wanted = sensor_rules().deep_space_array_adjacent_sectors
    # The two sectors sharing the longest border are the "adjacent" ones; ties go by name.
    ranked = sorted(hexmap.adjacent_regions(home), key=lambda r: (-_border_length(home, r), r.name))
    return frozenset([home.name, *(r.name for r in ranked[:wanted])])


def satellite_regions(hexmap: HexMap, at: Hex) -> frozenset[str]:
    """Sectors a satellite in low orbit over ``at`` monitors (ruling R12).

    A campaign map no wider than the satellite's region (6000 km) is watched whole; on a
    larger map it is the sector below plus two adjacent, as for a Deep Space Array.
    """
    extent_km = max(hexmap.width, hexmap.height) * hexmap.hex_km
    if extent_km <= sensor_rules().satellite_region_km:
        return frozenset(r.name for r in hexmap.regions)
    return deep_space_array_regions(hexmap, at)


def _border_length(a: Region, b: Region) -> int:
    return sum(1 for h in a.hexes for n in neighbours(h) if n in b.hexes)


def location_sensors(hexmap: HexMap, side: str, held: Iterable[str]) -> list[Sensor]:
    """The standing sensors of the locations ``side`` holds: presence, RADAR, Deep Space Array."""
    out: list[Sensor] = []
    for name in sorted(held):
        loc = hexmap.location(name)
        out.append(Sensor(side, SensorKind.PRESENCE, loc.hex))
        if "radar" in loc.facilities:
            out.append(Sensor(side, SensorKind.RADAR, loc.hex))
        if "deep_space_array" in loc.facilities:
            out.append(Sensor(side, SensorKind.DEEP_SPACE_ARRAY, loc.hex))
    return out


def has_satlink(hexmap: HexMap, held: Iterable[str]) -> bool:
    """Whether any held location can try for the satellite feed (the roll is the rules')."""
    return any("satlink" in hexmap.location(n).facilities for n in held)


def visible_hexes(side: str, hexmap: HexMap, sensors: Iterable[Sensor]) -> Coverage:
    """Combine the working sensors of ``side`` (others' are ignored) into its coverage."""
    rules = sensor_rules()
    ground: set[Hex] = set()
    air: set[Hex] = set()
    orbital: set[str] = set()
    for s in sensors:
        if s.side != side:
            continue
        if s.kind is SensorKind.PRESENCE:
            ground.add(s.at)
            air.add(s.at)
        elif s.kind is SensorKind.RADAR:
            air |= hex_range(s.at, radar_radius(hexmap))
        elif s.kind is SensorKind.DEEP_SPACE_ARRAY:
            orbital |= deep_space_array_regions(hexmap, s.at)
        elif s.kind is SensorKind.SATELLITE:
            ground |= hex_range(s.at, rules.satellite_radius)
        elif s.kind is SensorKind.SATELLITE_MONITOR:
            orbital |= satellite_regions(hexmap, s.at)
        elif s.kind is SensorKind.COMBAT_AIR_PATROL:
            air |= hex_range(s.at, rules.cap_radius)
        elif s.kind is SensorKind.OVERFLIGHT:
            for h in (s.at, *s.route):
                ground |= hex_range(h, rules.overflight_radius)
    on_map = {h for h in ground if hexmap.in_bounds(h)}
    return Coverage(
        side,
        frozenset(on_map),
        frozenset(h for h in air if hexmap.in_bounds(h)),
        frozenset(orbital),
    )
