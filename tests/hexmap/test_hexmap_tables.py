"""Each bundled table row checked against the source row it cites, quoted here verbatim."""

from __future__ import annotations

import re

import pytest

from mekref.hexmap.movement import FormationMovement, formation_speed, strategic_mp
from mekref.hexmap.tables import (
    MovementMode,
    facility_table,
    movement_rules,
    sensor_rules,
    table_sources,
    terrain_table,
)


@pytest.mark.parametrize(
    ("quoted_row", "speeds", "mp"),
    [
        ("| Formation speed 1-2 | 1 |", (1, 2), 1),
        ("| Formation speed 3-4 | 2 |", (3, 4), 2),
        ("| Formation speed 5-6 | 3 |", (5, 6), 3),
        ("| Formation speed 7-8 | 4 |", (7, 8), 4),
        ("| Formation speed 9-10 | 5 |", (9, 10), 5),
        ("| Formation speed 11+ | 6 |", (11, 12, 20), 6),
    ],
)
def test_strategic_mp_per_day(quoted_row: str, speeds: tuple[int, ...], mp: int) -> None:
    assert any(quoted_row in r.source for r in movement_rules().strategic_mp)
    for speed in speeds:
        assert strategic_mp(speed) == mp


def test_formation_speed_is_the_slowest_walk_mp() -> None:
    # "Formation speed is calculated by taking the Walk/Cruise MP of the slowest unit in the
    # formation."
    assert formation_speed([6, 4, 5]) == 4
    assert strategic_mp(formation_speed([6, 4, 5])) == 2
    with pytest.raises(ValueError):
        formation_speed([])


@pytest.mark.parametrize(
    ("quoted_row", "terrain_ids", "cost"),
    [
        ("| Easy Terrain (Flat plains or following a Road) | 1 |", ["plains"], 1),
        ("| Light terrain (Light Woods) | 2 |", ["light_woods"], 2),
        (
            "| Difficult terrain (Heavy Woods, Swamp, River crossing) | 3 |",
            ["heavy_woods", "swamp"],
            3,
        ),
        ("| Very Difficult terrain (Mountains) | 4 |", ["mountains"], 4),
    ],
)
def test_terrain_entry_costs(quoted_row: str, terrain_ids: list[str], cost: int) -> None:
    for tid in terrain_ids:
        t = terrain_table()[tid]
        assert quoted_row in t.source
        assert t.cost == cost


def test_vehicle_modifiers_quote_their_rows() -> None:
    rules = movement_rules()
    sources = table_sources("movement.toml")
    assert any("| Off-road Vehicle (Wheeled, Hover) | +1 Movement Cost |" in s for s in sources)
    assert rules.off_road_extra_cost == 1
    assert rules.off_road_modes == {MovementMode.WHEELED, MovementMode.HOVER}
    assert any(
        "| Road movement (Tracked, Wheeled Vehicles) | +1 Movement points |" in s for s in sources
    )
    assert rules.road_bonus_mp == 1
    assert rules.road_bonus_modes == {MovementMode.TRACKED, MovementMode.WHEELED}
    assert any("*VTOL’s ignore these modifiers" in s for s in sources)
    assert rules.terrain_free_modes == {MovementMode.VTOL}


def test_forced_march() -> None:
    # "Forced March – The formation makes great haste in its movement and has 1.5 x movement
    # points. For each strategic turn in a forced march, the formation gains a point of fatigue."
    assert any("1.5 x movement points" in s for s in table_sources("movement.toml"))
    walk6 = FormationMovement.of(6, "leg", forced_march=True)
    assert walk6.base_mp == 5  # 3 x 1.5 = 4.5, rounded up (ruling R4)
    assert walk6.fatigue_gained == 1
    assert FormationMovement.of(11, "leg", forced_march=True).base_mp == 9
    assert FormationMovement.of(1, "leg", forced_march=True).base_mp == 2
    assert FormationMovement.of(6, "leg").fatigue_gained == 0


def test_radar_range_is_eight_fifty_km_hexes() -> None:
    # "RADAR – Any aerospace asset that is not flying above level 1 (Nape of Earth) within 400 km
    # of the RADAR station detected." and "Each hex on the Strategic Map is 50 km across."
    assert sensor_rules().radar_range_km == 400
    assert any("within 400 km of the RADAR station" in s for s in table_sources("sensors.toml"))
    assert any(
        "Each hex on the Strategic Map is 50 km across." in s for s in table_sources("sensors.toml")
    )


def test_satellite_sees_its_hex_and_the_six_around() -> None:
    # "Once in orbit, they may observe the hex they are above and the six hexes surrounding the
    # centre hex."
    assert sensor_rules().satellite_radius == 1


def test_dropports_bring_radar_array_and_satlink() -> None:
    # "All DropPorts have a Control Tower (Command Building) with RADAR, a Deep Space Array, and
    # SatLink."
    table = facility_table()
    for size in ("small", "medium", "large"):
        f = table[f"dropport_{size}"]
        assert {"radar", "deep_space_array", "satlink"} <= f.implies
        assert "All DropPorts have a Control Tower" in f.source


@pytest.mark.parametrize(
    "name", ["terrain.toml", "movement.toml", "facilities.toml", "sensors.toml"]
)
def test_every_row_cites_a_line_or_a_ruling(name: str) -> None:
    for source in table_sources(name):
        cited = re.search(r"\d{3}_[0-9a-f]{16}\.txt:\d+ \".+\"", source)
        assert cited or source.startswith("ruling R"), source
