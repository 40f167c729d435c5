"""The map-file format: the bundled Ginestra map, and errors that say what to fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from mekref.hexmap.geometry import label, parse_label
from mekref.hexmap.mapfile import MapError, parse_map
from mekref.hexmap.samples import sample_map, sample_map_text

MINIMAL = """
[map]
name = "Test"
width = 6
height = 5
default_terrain = "plains"
"""


def parse(extra: str) -> object:
    return parse_map(MINIMAL + extra, "test.toml")


def test_ginestra_has_the_four_tripwire_locations() -> None:
    m = sample_map()
    assert (m.width, m.height, m.hex_km) == (20, 16, 50)
    names = {loc.name for loc in m.locations}
    # "Bagnorgeio: 1000 WP. Capital City." / "Bagnorgeio Space Port: 1000 WP." /
    # "Forward Deployment Base: 1000 WP." / "Combat Systems Manufacturing Facility: 1000 WP."
    assert names == {
        "Bagnorgeio",
        "Bagnorgeio Space Port",
        "Forward Deployment Base",
        "Combat Systems Manufacturing Facility",
    }
    assert all(loc.warchest == 1000 for loc in m.locations)
    port = m.location("Bagnorgeio Space Port")
    assert {"radar", "deep_space_array", "satlink", "repair_ds", "fuel_dump"} <= port.facilities
    assert "hospital" in m.location("Bagnorgeio").facilities
    assert "dropport_small" in m.location("Forward Deployment Base").facilities
    assert {r.name for r in m.regions} == {
        "Castell'Arquato",
        "Arda Valley",
        "Southern Marshes",
        "Eastern Highlands",
    }
    # Every hex is in exactly one region: the weather needs a sector for each.
    assert all(sum(h in r.hexes for r in m.regions) == 1 for h in m.hexes())


def test_runs_rectangles_and_painting_order() -> None:
    m = parse_map(
        MINIMAL
        + """
[[terrain]]
type = "light_woods"
hexes = ["0101:0302"]
[[terrain]]
type = "mountains"
hexes = ["0202", "0405-0605", "0601-0603"]
""",
        "t.toml",
    )
    assert m.terrain_at(parse_label("0101")) == "light_woods"
    assert m.terrain_at(parse_label("0302")) == "light_woods"
    assert m.terrain_at(parse_label("0202")) == "mountains"  # painted over the woods
    assert {m.terrain_at(parse_label(x)) for x in ("0405", "0505", "0605")} == {"mountains"}
    assert {m.terrain_at(parse_label(x)) for x in ("0601", "0602", "0603")} == {"mountains"}
    assert m.terrain_at(parse_label("0604")) == "plains"


def test_roads_and_rivers_are_usable_lookups() -> None:
    m = sample_map()
    assert m.is_road_step(parse_label("0508"), parse_label("0509"))
    assert m.is_road_step(parse_label("0509"), parse_label("0508"))
    assert m.crosses_river(parse_label("0811"), parse_label("0711"))
    assert not m.crosses_river(parse_label("0508"), parse_label("0509"))


@pytest.mark.parametrize(
    ("extra", "fragments"),
    [
        (
            '[[terrain]]\ntype = "lava"\nhexes = ["0101"]',
            ["test.toml", "[[terrain]] #1", "unknown terrain 'lava'", "Use one of:", "plains"],
        ),
        (
            '[[terrain]]\ntype = "swamp"\nhexes = ["0706"]',
            ["test.toml", "hex 0706", "outside the 6x5 map", "columns 01-06, rows 01-05"],
        ),
        (
            '[[location]]\nname = "A"\nhex = "0101"\n[[location]]\nname = "A"\nhex = "0202"',
            ["[[location]] 'A'", "duplicate location", "unique name"],
        ),
        (
            '[[location]]\nname = "A"\nhex = "0101"\n[[location]]\nname = "B"\nhex = "0101"',
            ["[[location]] 'B', hex 0101", "'A' is already in this hex"],
        ),
        (
            '[[location]]\nname = "A"\nhex = "0101"\nfacilities = ["spa"]',
            ["unknown facility 'spa'", "hospital"],
        ),
        (
            '[[road]]\nname = "R"\npath = ["0101", "0102", "0104"]',
            ["[[road]] 'R', hex 0104", "not contiguous", "0104 does not touch 0102"],
        ),
        (
            '[[river]]\nname = "W"\nedges = ["0101/0102", "0404/0405"]',
            ["[[river]] 'W', edge 0404/0405", "not contiguous"],
        ),
        (
            '[[river]]\nname = "W"\nedges = ["0101/0303"]',
            ["edge 0101/0303", "do not share an edge"],
        ),
        (
            '[[region]]\nname = "N"\nhexes = ["0101:0602"]\n'
            '[[region]]\nname = "S"\nhexes = ["0102:0605"]',
            ["[[region]] 'S', hex 0", "already in region 'N'", "may not overlap"],
        ),
        (
            '[[region]]\nname = "N"\nclimate = 3\nhexes = ["0101"]',
            ["climate 3", "-2 to +2"],
        ),
        (
            '[[terrain]]\ntype = "swamp"\nhexes = ["0101-0203"]',
            ["run '0101-0203'", "one column or one row"],
        ),
        ('[[terrain]]\ntype = "swamp"\nhexes = ["A1"]', ["'A1' is not a hex label"]),
        (
            '[[location]]\nname = "A"\nhex = "0101"\nwarchets = 1000',
            ["[[location]] #1", "unknown key 'warchets'", "Did you mean 'warchest'?"],
        ),
        ('[[roads]]\nname = "R"', ["top level", "unknown key 'roads'", "Did you mean 'road'?"]),
    ],
)
def test_errors_name_the_file_the_place_and_the_fix(extra: str, fragments: list[str]) -> None:
    with pytest.raises(MapError) as info:
        parse(extra)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message


def test_syntax_errors_name_the_file_and_line() -> None:
    with pytest.raises(MapError, match=r"broken\.toml: TOML syntax: .*line 2"):
        parse_map('[map]\nname = "x\n', "broken.toml")


def test_missing_header() -> None:
    with pytest.raises(MapError, match=r"x\.toml: \[map\]: missing"):
        parse_map('[[terrain]]\ntype = "plains"\nhexes = ["0101"]', "x.toml")


def test_river_edge_may_sit_on_the_map_rim() -> None:
    # 0606 lies just below the 6x5 map: the river runs along its bottom edge.
    m = parse_map(MINIMAL + '[[river]]\nname = "Rim"\nedges = ["0605/0606"]', "t.toml")
    assert len(m.rivers[0].edges) == 1
    with pytest.raises(MapError, match="entirely off the map"):
        parse_map(MINIMAL + '[[river]]\nname = "Out"\nedges = ["0706/0707"]', "t.toml")


def test_sample_text_parses_to_the_same_map() -> None:
    assert parse_map(sample_map_text("ginestra"), "g") == sample_map()
    assert label(sample_map().location("Bagnorgeio").hex) == "0508"


def test_the_example_in_the_docs_parses() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "hexmap.md"
    text = docs.read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    m = parse_map(example, "docs/hexmap.md")
    assert m.location("Bagnorgeio Space Port").warchest == 1000
    assert m.terrain_at(parse_label("0614")) == "light_woods"
