"""Step costs, path validation and cheapest-path search on small maps and on Ginestra."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from mekref.hexmap.geometry import Hex, Offset, label, line, neighbours, offset_to_hex, parse_label
from mekref.hexmap.mapfile import parse_map
from mekref.hexmap.model import HexMap
from mekref.hexmap.movement import FormationMovement, step_cost
from mekref.hexmap.paths import (
    PathProblem,
    cheapest_path,
    path_cost,
    reachable,
    todays_leg,
    validate_path,
)
from mekref.hexmap.samples import sample_map
from mekref.hexmap.tables import MovementMode

STRIP = parse_map(
    """
[map]
name = "Strip"
width = 8
height = 3
[[terrain]]
type = "light_woods"
hexes = ["0301-0303"]
[[terrain]]
type = "heavy_woods"
hexes = ["0401-0403"]
[[terrain]]
type = "mountains"
hexes = ["0501-0503"]
[[terrain]]
type = "water"
hexes = ["0701-0703"]
[[road]]
name = "Pass"
path = ["0102-0802"]
[[river]]
name = "Brook"
edges = ["0201/0301", "0201/0302", "0202/0302", "0202/0303", "0203/0303"]
""",
    "strip.toml",
)

P = parse_label
LEG = FormationMovement.of(6, MovementMode.LEG)  # 3 MP


def cost(m: FormationMovement, a: str, b: str, hexmap: HexMap = STRIP) -> int | None:
    return step_cost(hexmap, m, P(a), P(b))


def test_terrain_costs_for_legs() -> None:
    assert cost(LEG, "0101", "0201") == 1  # plains
    assert cost(LEG, "0201", "0301") == 3  # light woods, but across the brook: river crossing
    assert cost(LEG, "0303", "0403") == 3  # heavy woods
    assert cost(LEG, "0403", "0503") == 4  # mountains
    assert cost(LEG, "0603", "0703") is None  # open water


def test_roads_make_any_terrain_easy_and_bridge_rivers() -> None:
    assert cost(LEG, "0202", "0302") == 1
    assert cost(LEG, "0402", "0502") == 1
    assert cost(LEG, "0602", "0702") == 1  # a causeway over the water


def test_wheeled_and_hover_pay_one_more_off_road() -> None:
    wheeled = FormationMovement.of(6, "wheeled")
    hover = FormationMovement.of(6, "hover")
    assert cost(wheeled, "0101", "0201") == 2
    assert cost(wheeled, "0202", "0302") == 1  # on the road: no off-road penalty
    assert cost(hover, "0601", "0701") == 2  # hover crosses water as easy terrain, off-road
    assert cost(wheeled, "0601", "0701") is None


def test_vtol_ignores_terrain_and_rivers() -> None:
    vtol = FormationMovement.of(6, "vtol")
    assert {
        cost(vtol, a, b) for a, b in [("0403", "0503"), ("0201", "0301"), ("0603", "0703")]
    } == {1}


def test_mixed_formation_pays_its_worst_member() -> None:
    mixed = FormationMovement.of(6, "leg", "wheeled")
    assert cost(mixed, "0101", "0201") == 2
    assert cost(FormationMovement.of(6, "leg", "vtol"), "0603", "0703") is None


def test_road_bonus_only_on_an_all_road_day() -> None:
    tracked = FormationMovement.of(6, "tracked")  # 3 MP, +1 on roads
    on_road = [P(x) for x in ("0102", "0202", "0302", "0402")]
    assert validate_path(STRIP, tracked, on_road).ok  # 3 steps, 3 MP
    four = [*on_road, P("0502")]
    check = validate_path(STRIP, tracked, four)
    assert check.ok and check.budget == 4 and check.cost == 4
    # The same 4 MP cannot be had once the day leaves the road.
    off = [P("0101"), P("0201"), P("0202"), P("0302")]
    assert validate_path(STRIP, tracked, off).budget == 3
    assert not validate_path(STRIP, LEG, four).ok  # legs get no road bonus


def test_validate_path_reports_the_problem_and_hex() -> None:
    chk = validate_path(STRIP, LEG, [P("0101"), P("0301")])
    assert not chk.ok and chk.problem is PathProblem.NOT_ADJACENT and chk.at == P("0301")
    assert chk.step == 1 and "0301" in chk.reason and "not next to 0101" in chk.reason

    chk = validate_path(STRIP, FormationMovement.of(12, "leg"), [P("0601"), P("0701")])
    assert chk.problem is PathProblem.IMPASSABLE and chk.at == P("0701")

    chk = validate_path(STRIP, LEG, [P("0303"), P("0403"), P("0503")])
    assert chk.problem is PathProblem.OVER_BUDGET and chk.at == P("0503")
    assert chk.cost == 3 and chk.budget == 3
    assert "costs 4 MP but only 0 of 3 remain" in chk.reason

    chk = validate_path(STRIP, LEG, [P("0803"), offset_to_hex(Offset(9, 3))])
    assert chk.problem is PathProblem.OFF_MAP
    assert validate_path(STRIP, LEG, []).problem is PathProblem.EMPTY
    assert validate_path(STRIP, LEG, [P("0101")]).ok  # staying put is a legal move


def test_cheapest_path_prefers_the_road() -> None:
    route = cheapest_path(STRIP, LEG, P("0101"), P("0801"))
    assert route is not None
    assert route.cost == path_cost(STRIP, LEG, route.path)
    assert label(route.path[0]) == "0101" and route.path[-1] == P("0801")
    assert route.cost <= 9  # via the road row, not through the woods and mountains
    wheeled = FormationMovement.of(6, "wheeled")
    assert cheapest_path(STRIP, wheeled, P("0101"), P("0702")) is not None  # the causeway
    assert cheapest_path(STRIP, wheeled, P("0101"), P("0701")) is None  # open water


def test_cheapest_path_is_deterministic_and_none_when_cut_off() -> None:
    g = sample_map()
    a, b = P("0508"), P("1712")
    first = cheapest_path(g, LEG, a, b)
    assert first is not None
    assert all(cheapest_path(g, LEG, a, b) == first for _ in range(3))
    assert cheapest_path(g, LEG, a, P("0101")) is None  # open sea


def test_reachable_within_the_day() -> None:
    r = reachable(STRIP, LEG, P("0101"))
    assert r[P("0101")] == 0
    assert all(c <= 3 for c in r.values())
    assert P("0302") in r  # 0101 -> 0102 -> 0202 -> 0302 by road: 3 MP
    tracked = reachable(STRIP, FormationMovement.of(6, "tracked"), P("0102"))
    assert tracked[P("0502")] == 4  # the all-road bonus reaches one hex further


GINESTRA = sample_map()
_all = sorted(GINESTRA.hexes())
map_hexes = st.sampled_from(_all)
modes = st.sampled_from(list(MovementMode))


@settings(max_examples=60, deadline=None)
@given(map_hexes, map_hexes, modes)
def test_cheapest_path_is_never_beaten_by_a_straight_walk(
    a: Hex, b: Hex, mode: MovementMode
) -> None:
    m = FormationMovement.of(11, mode)
    route = cheapest_path(GINESTRA, m, a, b)
    # Any other valid path: the hex line from a to b, when every step of it is legal.
    straight = path_cost(GINESTRA, m, line(a, b))
    if route is None:
        assert straight is None
        return
    assert route.path[0] == a and route.path[-1] == b
    assert path_cost(GINESTRA, m, route.path) == route.cost
    if straight is not None:
        assert route.cost <= straight


@settings(max_examples=60, deadline=None)
@given(map_hexes, st.lists(st.integers(min_value=0, max_value=5), max_size=8), modes)
def test_cheapest_path_beats_random_walks_and_short_ones_validate(
    start: Hex, turns: list[int], mode: MovementMode
) -> None:
    m = FormationMovement.of(11, mode, forced_march=True)  # 9 MP
    walk = [start]
    for t in turns:
        walk.append(neighbours(walk[-1])[t])
    walk_cost = path_cost(GINESTRA, m, walk)
    if walk_cost is None or not all(GINESTRA.in_bounds(h) for h in walk):
        return
    route = cheapest_path(GINESTRA, m, start, walk[-1])
    assert route is not None and route.cost <= walk_cost
    if route.cost <= m.base_mp:
        assert validate_path(GINESTRA, m, route.path).ok
    check = validate_path(GINESTRA, m, walk)
    assert check.ok == (walk_cost <= check.budget)


def test_every_reachable_hex_has_a_valid_path() -> None:
    m = FormationMovement.of(8, "wheeled")
    start = P("0508")
    for h, c in itertools.islice(reachable(GINESTRA, m, start).items(), 40):
        route = cheapest_path(GINESTRA, m, start, h)
        assert route is not None and route.cost <= c + m.road_bonus


def test_todays_leg_cuts_a_long_route_at_the_budget() -> None:
    g = GINESTRA
    route = cheapest_path(g, LEG, P("0508"), P("1712"))
    assert route is not None
    leg = todays_leg(g, LEG, route.path)
    assert leg == route.path[: len(leg)]
    assert validate_path(g, LEG, leg).ok
    assert not validate_path(g, LEG, route.path[: len(leg) + 1]).ok
    # A road-bound tracked column gets its road bonus on the way.
    tracked = FormationMovement.of(6, "tracked")
    road = [P(x) for x in ("0102", "0202", "0302", "0402", "0502", "0602")]
    assert todays_leg(STRIP, tracked, road) == tuple(road[:5])
    assert todays_leg(STRIP, tracked, road[:1]) == (P("0102"),)
