"""Sensor coverage per side: RADAR (air, 8 hexes), satellites, Deep Space Array sectors."""

from __future__ import annotations

from mekref.hexmap.geometry import distance, parse_label
from mekref.hexmap.mapfile import parse_map
from mekref.hexmap.samples import sample_map
from mekref.hexmap.sensors import (
    Sensor,
    SensorKind,
    deep_space_array_regions,
    has_satlink,
    location_sensors,
    radar_radius,
    satellite_regions,
    visible_hexes,
)

P = parse_label
G = sample_map()


def test_radar_sees_aircraft_within_eight_hexes_but_no_ground() -> None:
    # "within 400 km of the RADAR station" over "Each hex on the Strategic Map is 50 km across."
    assert radar_radius(G) == 8
    port = G.location("Bagnorgeio Space Port").hex
    cov = visible_hexes("Loyalist", G, [Sensor("Loyalist", SensorKind.RADAR, port)])
    assert cov.air == {h for h in G.hexes() if distance(h, port) <= 8}
    assert cov.ground == frozenset()


def test_presence_and_satellite_see_the_ground() -> None:
    cov = visible_hexes(
        "Rebel",
        G,
        [
            Sensor("Rebel", SensorKind.PRESENCE, P("1712")),
            Sensor("Rebel", SensorKind.SATELLITE, P("0909")),
            Sensor("Loyalist", SensorKind.SATELLITE, P("0303")),  # another side's: ignored
        ],
    )
    # "Once in orbit, they may observe the hex they are above and the six hexes surrounding"
    assert cov.ground == {P("1712"), P("0909")} | {
        h for h in G.hexes() if distance(h, P("0909")) == 1
    }
    assert not cov.sees_ground(P("0303"))


def test_overflight_and_cap() -> None:
    cov = visible_hexes(
        "L",
        G,
        [
            Sensor("L", SensorKind.OVERFLIGHT, P("0505"), (P("0605"), P("0705"))),
            Sensor("L", SensorKind.COMBAT_AIR_PATROL, P("1010")),
        ],
    )
    assert cov.ground == {P("0505"), P("0605"), P("0705")}
    assert cov.air == {P("1010")}


def test_deep_space_array_watches_its_sector_and_two_neighbours() -> None:
    # "The Deep Space Array can monitor the sector it is in plus the two adjacent ones."
    port = G.location("Bagnorgeio Space Port").hex
    regions = deep_space_array_regions(G, port)
    assert "Castell'Arquato" in regions and len(regions) == 3
    assert "Eastern Highlands" not in regions  # not adjacent to the coast sector


def test_location_sensors_follow_facilities() -> None:
    sensors = location_sensors(G, "Loyalist", ["Bagnorgeio", "Bagnorgeio Space Port"])
    kinds = sorted((s.kind, s.at) for s in sensors)
    port = G.location("Bagnorgeio Space Port").hex
    assert (SensorKind.RADAR, port) in kinds
    assert (SensorKind.DEEP_SPACE_ARRAY, port) in kinds
    assert not any(k is SensorKind.RADAR and h != port for k, h in kinds)
    cov = visible_hexes("Loyalist", G, sensors)
    assert cov.orbital_regions == deep_space_array_regions(G, port)
    assert has_satlink(G, ["Bagnorgeio"])


def test_satellite_monitor_watches_a_small_map_whole() -> None:
    # "... or one region in a smaller campaign map (6000 km across)."
    cov = visible_hexes("L", G, [Sensor("L", SensorKind.SATELLITE_MONITOR, P("0101"))])
    assert cov.orbital_regions == {r.name for r in G.regions}
    assert cov.ground == frozenset() and cov.air == frozenset()


def test_satellite_monitor_on_a_planetary_map_watches_three_sectors() -> None:
    # "... can monitor 3 adjacent sectors on a planetary map (the location it is above plus the
    # two adjacent ones)": 99 hexes of 100 km is wider than 6000 km.
    regions = "".join(
        f'[[region]]\nname = "S{i}"\nhexes = ["{c:02d}01:{min(c + 19, 99):02d}10"]\n'
        for i, c in enumerate(range(1, 99, 20))
    )
    big = parse_map(
        f'[map]\nname = "Planet"\nwidth = 99\nheight = 10\nhex_km = 100\n{regions}', "p"
    )
    assert satellite_regions(big, P("4505")) == {"S1", "S2", "S3"}
