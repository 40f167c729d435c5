"""One test per ruling in docs/hexmap.md ("Rulings"), named after it."""

from __future__ import annotations

from mekref.hexmap.encounters import EncounterKind, PlannedMove, resolve_moves
from mekref.hexmap.geometry import hex_to_offset, parse_label
from mekref.hexmap.mapfile import parse_map
from mekref.hexmap.mapsheets import mapsheet_for
from mekref.hexmap.movement import FormationMovement, step_cost, strategic_mp
from mekref.hexmap.paths import validate_path
from mekref.hexmap.samples import sample_map
from mekref.hexmap.sensors import Sensor, SensorKind, deep_space_array_regions, visible_hexes
from mekref.hexmap.tables import terrain_table

P = parse_label
M = parse_map(
    """
[map]
name = "Rulings"
width = 6
height = 4
[[terrain]]
type = "water"
hexes = ["0501-0504"]
[[terrain]]
type = "mountains"
hexes = ["0301-0304"]
[[road]]
name = "R"
path = ["0102-0602"]
[[river]]
name = "Brook"
edges = ["0101/0201", "0101/0102"]
""",
    "rulings.toml",
)


def cost(modes: tuple[str, ...], a: str, b: str) -> int | None:
    return step_cost(M, FormationMovement.of(6, *modes), P(a), P(b))


def test_r1_roads_cost_one_and_bonus_only_on_all_road_days() -> None:
    assert cost(("leg",), "0202", "0302") == 1  # mountains, but on the road
    assert cost(("leg",), "0201", "0301") == 4  # mountains off the road
    tracked = FormationMovement.of(6, "tracked")
    road_day = [P(x) for x in ("0102", "0202", "0302", "0402", "0502")]
    assert validate_path(M, tracked, road_day).ok  # 4 steps on 3 + 1 MP
    mixed_day = [P("0101"), P("0102"), P("0202"), P("0302")]
    assert validate_path(M, tracked, mixed_day).budget == 3


def test_r2_unnamed_terrain() -> None:
    table = terrain_table()
    assert (table["hills"].cost, table["badlands"].cost) == (2, 2)
    assert {table[t].cost for t in ("light_urban", "heavy_urban", "coastal")} == {1}
    assert table["hills"].mapsheet_terrain == "Hills"


def test_r3_water() -> None:
    assert cost(("leg",), "0401", "0501") is None
    assert cost(("tracked",), "0401", "0501") is None
    assert cost(("hover",), "0401", "0501") == 2
    assert cost(("vtol",), "0401", "0501") == 1
    assert cost(("leg",), "0402", "0502") == 1  # causeway


def test_r4_forced_march_rounds_up_then_adds_road_bonus() -> None:
    expected = {1: 2, 3: 3, 5: 5, 7: 6, 9: 8, 11: 9}
    for speed, mp in expected.items():
        assert FormationMovement.of(speed, "leg", forced_march=True).base_mp == mp
    wheeled = FormationMovement.of(5, "wheeled", forced_march=True)
    assert wheeled.budget(all_road=True) == 6


def test_r5_mixed_formation_pays_the_worst() -> None:
    assert cost(("leg", "hover"), "0401", "0402") == 2
    assert cost(("hover", "leg"), "0401", "0501") is None
    assert FormationMovement.of(6, "tracked", "wheeled").road_bonus == 1
    assert FormationMovement.of(6, "tracked", "leg").road_bonus == 0
    assert cost(("vtol", "leg"), "0201", "0301") == 4


def test_r6_steps_are_hexes_entered_and_followers_never_meet() -> None:
    # The slow mountain crawler and the road runner both enter their 2nd hex at step 2.
    out = resolve_moves(
        [
            PlannedMove("crawler", "A", (P("0201"), P("0301"), P("0401"))),
            PlannedMove("runner", "B", (P("0602"), P("0502"), P("0401"))),
        ]
    )
    assert [(e.kind, e.step, e.hexes) for e in out.encounters] == [
        (EncounterKind.SAME_HEX, 2, (P("0401"),))
    ]
    follow = resolve_moves(
        [
            PlannedMove("fox", "A", (P("0102"), P("0202"), P("0302"))),
            PlannedMove("hound", "B", (P("0101"), P("0102"), P("0202"))),
        ]
    )
    assert follow.encounters == ()


def test_r7_deep_space_array_takes_the_two_longest_borders() -> None:
    g = sample_map()
    # The coast sector touches two others, so it watches three sectors; the valley touches
    # three and keeps the two with the longest borders.
    assert deep_space_array_regions(g, P("0610")) == {
        "Castell'Arquato",
        "Arda Valley",
        "Southern Marshes",
    }
    valley = deep_space_array_regions(g, P("1005"))
    assert len(valley) == 3 and "Arda Valley" in valley


def test_r8_radar_rounds_down_and_sees_no_ground() -> None:
    m = parse_map('[map]\nname = "x"\nwidth = 30\nheight = 3\nhex_km = 60\n', "x.toml")
    cov = visible_hexes("A", m, [Sensor("A", SensorKind.RADAR, P("0102"))])
    cols = {hex_to_offset(h).col for h in cov.air}
    assert max(cols) == 1 + 400 // 60  # 6 hexes, not 7
    assert cov.ground == frozenset()


def test_r9_river_crossing_is_max_not_sum() -> None:
    assert cost(("leg",), "0101", "0201") == 3  # plains behind a river
    assert cost(("wheeled",), "0101", "0201") == 4
    assert cost(("vtol",), "0101", "0201") == 1


def test_r10_immobile_formation_has_no_mp() -> None:
    assert strategic_mp(0) == 0
    assert not validate_path(M, FormationMovement.of(0, "leg"), [P("0102"), P("0202")]).ok


def test_r11_blank_map_sheet_rows_mean_roll_again() -> None:
    assert mapsheet_for("badlands", 5) is None
    assert mapsheet_for("water", 6) == "Seaport (Coastal)"


def test_r12_satellite_watches_a_small_map_whole() -> None:
    g = sample_map()
    assert max(g.width, g.height) * g.hex_km <= 6000
    cov = visible_hexes("A", g, [Sensor("A", SensorKind.SATELLITE_MONITOR, P("1010"))])
    assert cov.orbital_regions == {r.name for r in g.regions}
