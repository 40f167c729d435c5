"""The rule tables bundled under ``hexmap/data/``, as typed frozen records.

The tables ship inside the package and never change at run time, so they are read once, on
first use; user files (maps) are never read here but passed in as text.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any


class MovementMode(StrEnum):
    """How a unit moves on the strategic map; each row of the movement table names one."""

    LEG = "leg"  # 'Mechs, infantry, battle armour: pay terrain, no vehicle modifiers
    TRACKED = "tracked"
    WHEELED = "wheeled"
    HOVER = "hover"
    VTOL = "vtol"


@dataclass(frozen=True, slots=True)
class Terrain:
    id: str
    name: str
    # None: ground units cannot enter at all.
    cost: int | None
    hover_cost: int | None
    mapsheet_terrain: str
    fill: str
    source: str


@dataclass(frozen=True, slots=True)
class StrategicMpRow:
    min_speed: int
    max_speed: int | None
    mp_per_day: int
    source: str


@dataclass(frozen=True, slots=True)
class MovementRules:
    strategic_mp: tuple[StrategicMpRow, ...]
    off_road_extra_cost: int
    off_road_modes: frozenset[MovementMode]
    road_cost: int
    road_bonus_mp: int
    road_bonus_modes: frozenset[MovementMode]
    terrain_free_modes: frozenset[MovementMode]
    river_crossing_cost: int
    forced_march_numerator: int
    forced_march_denominator: int
    forced_march_fatigue: int
    useful_hours: int  # L166: the hours of travel the MP table assumes (T-H1)
    max_hours: int  # the whole day: no more hours than that
    extra_hour_fatigue: int  # L166: fatigue per hour past the useful ones


@dataclass(frozen=True, slots=True)
class Facility:
    id: str
    name: str
    implies: frozenset[str]
    source: str


@dataclass(frozen=True, slots=True)
class SensorRules:
    radar_range_km: int
    satellite_radius: int
    satellite_region_km: int
    deep_space_array_adjacent_sectors: int
    cap_radius: int
    overflight_radius: int


def load_data(name: str) -> dict[str, Any]:
    """A TOML table shipped in ``mekref.hexmap.data`` (package data, never a user path)."""
    # Imported here: ``importlib.resources`` brings ``tempfile``, ``shutil`` and ``zipfile``,
    # and a command that reads no map (``status``, a battle file) should not pay for them.
    import tomllib
    from importlib import resources

    text = resources.files("mekref.hexmap.data").joinpath(name).read_text(encoding="utf-8")
    return tomllib.loads(text)


@cache
def terrain_table() -> dict[str, Terrain]:
    data = load_data("terrain.toml")
    categories: dict[str, int] = {k: int(v["cost"]) for k, v in data["category"].items()}
    table: dict[str, Terrain] = {}
    for row in data["terrain"]:
        cat = row.get("category")
        hover_cat = row.get("hover_category", cat)
        table[row["id"]] = Terrain(
            id=row["id"],
            name=row["name"],
            cost=categories[cat] if cat else None,
            hover_cost=categories[hover_cat] if hover_cat else None,
            mapsheet_terrain=row["mapsheet_terrain"],
            fill=row["fill"],
            source=row["source"],
        )
    return table


@cache
def movement_rules() -> MovementRules:
    data = load_data("movement.toml")
    terrain = load_data("terrain.toml")
    mods = data["modifiers"]
    fm = data["forced_march"]
    rows = tuple(
        StrategicMpRow(
            min_speed=int(r["min_speed"]),
            max_speed=int(r["max_speed"]) if "max_speed" in r else None,
            mp_per_day=int(r["mp_per_day"]),
            source=r["source"],
        )
        for r in data["strategic_mp"]
    )
    return MovementRules(
        strategic_mp=rows,
        off_road_extra_cost=int(mods["off_road_extra_cost"]),
        off_road_modes=frozenset(MovementMode(m) for m in mods["off_road_modes"]),
        road_cost=int(terrain["category"]["easy"]["cost"]),
        road_bonus_mp=int(mods["road_bonus_mp"]),
        road_bonus_modes=frozenset(MovementMode(m) for m in mods["road_bonus_modes"]),
        terrain_free_modes=frozenset(MovementMode(m) for m in mods["terrain_free_modes"]),
        river_crossing_cost=int(terrain["category"][mods["river_crossing_category"]]["cost"]),
        forced_march_numerator=int(fm["mp_numerator"]),
        forced_march_denominator=int(fm["mp_denominator"]),
        forced_march_fatigue=int(fm["fatigue_per_day"]),
        useful_hours=int(data["extra_hours"]["useful_hours"]),
        max_hours=int(data["extra_hours"]["max_hours"]),
        extra_hour_fatigue=int(data["extra_hours"]["fatigue_per_hour"]),
    )


@cache
def facility_table() -> dict[str, Facility]:
    return {
        row["id"]: Facility(
            id=row["id"],
            name=row["name"],
            implies=frozenset(row.get("implies", ())),
            source=row["source"],
        )
        for row in load_data("facilities.toml")["facility"]
    }


@cache
def sensor_rules() -> SensorRules:
    data = load_data("sensors.toml")
    return SensorRules(
        radar_range_km=int(data["radar"]["range_km"]),
        satellite_radius=int(data["satellite"]["radius_hexes"]),
        satellite_region_km=int(data["satellite"]["region_km"]),
        deep_space_array_adjacent_sectors=int(data["deep_space_array"]["adjacent_sectors"]),
        cap_radius=int(data["combat_air_patrol"]["radius_hexes"]),
        overflight_radius=int(data["overflight"]["radius_hexes"]),
    )


def table_sources(name: str) -> list[str]:
    """Every ``source`` string in a bundled table, for tests that check the citations."""
    found: list[str] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key.endswith("source") and isinstance(value, str):
                    found.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(load_data(name))
    return found
