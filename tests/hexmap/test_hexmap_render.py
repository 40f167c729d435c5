"""The SVG is well-formed, draws the map, and shows only the formations handed to it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from mekref.hexmap.geometry import parse_label
from mekref.hexmap.mapfile import parse_map
from mekref.hexmap.render import FormationMarker, render_svg
from mekref.hexmap.samples import sample_map

NS = {"svg": "http://www.w3.org/2000/svg"}
G = sample_map()
LYRAN = FormationMarker("lyran-a", "Loyalist", parse_label("0707"), "LG-A")
REBEL = FormationMarker("rebel-hidden", "Rebel", parse_label("1512"), "RM1")


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def formation_ids(root: ET.Element) -> set[str]:
    return {
        g.get("data-id", "")
        for g in root.iter(f"{{{NS['svg']}}}g")
        if g.get("class") == "formation"
    }


def test_hidden_formation_is_absent() -> None:
    everyone = parse(render_svg(G, [LYRAN, REBEL]))
    assert formation_ids(everyone) == {"lyran-a", "rebel-hidden"}
    loyalist_view = render_svg(G, [LYRAN], side="Loyalist")
    root = parse(loyalist_view)
    assert formation_ids(root) == {"lyran-a"}
    assert "rebel-hidden" not in loyalist_view and "RM1" not in loyalist_view
    # The legend lists only the sides drawn, so it cannot hint at the other side's presence.
    assert ">Rebel<" not in loyalist_view


def test_map_content_is_drawn() -> None:
    root = parse(render_svg(G, []))
    hex_polys = root.findall(".//svg:g[@id='terrain']/svg:polygon", NS)
    assert len(hex_polys) == G.width * G.height
    texts = {t.text for t in root.iter(f"{{{NS['svg']}}}text")}
    assert {loc.name for loc in G.locations} <= texts
    assert "0508" in texts and "Legend" in texts
    assert root.findall(".//svg:g[@id='roads']/svg:polyline", NS)
    assert root.findall(".//svg:g[@id='rivers']/svg:path", NS)


def test_fog_covers_unseen_hexes() -> None:
    seen = {parse_label("0707"), parse_label("0708")}
    root = parse(render_svg(G, [LYRAN], side="Loyalist", visible=seen))
    fog = root.findall(".//svg:g[@id='fog']/svg:polygon", NS)
    assert len(fog) == G.width * G.height - 2


def test_names_are_escaped() -> None:
    m = parse_map(
        '[map]\nname = "A & <B>"\nwidth = 3\nheight = 3\n'
        '[[location]]\nname = "Rock & <Roll>"\nhex = "0202"\n',
        "t.toml",
    )
    root = parse(render_svg(m, [FormationMarker('x"<&', "S&S", parse_label("0101"))]))
    texts = {t.text for t in root.iter(f"{{{NS['svg']}}}text")}
    assert "Rock & <Roll>" in texts


def test_rendering_is_deterministic() -> None:
    assert render_svg(G, [REBEL, LYRAN]) == render_svg(G, [LYRAN, REBEL])


def test_labels_are_never_cut_and_the_key_lists_each_marker_in_full() -> None:
    hex_ = parse_label("0610")
    names = ["Alpha Command Lance", "Bravo Fire Lance", "Charlie Company", "Charlie Gazelle"]
    stack = [FormationMarker(f"f{i}", "Loyalist", hex_, name) for i, name in enumerate(names)]
    root = parse(render_svg(G, [*stack, LYRAN]))
    texts = [t.text or "" for t in root.iter(f"{{{NS['svg']}}}text")]
    # Four in one hex: each badge shows its number (map order: hex, side, id); the key gives
    # the number's hex, full name and id, wrapped on lines of its own when long.
    badges = {g.get("data-id"): g.get("data-key") for g in root.iter(f"{{{NS['svg']}}}g")
              if g.get("class") == "formation"}  # fmt: skip
    assert badges == {"f0": "1", "f1": "2", "f2": "3", "f3": "4", "lyran-a": "5"}
    key = {g.get("data-key"): " ".join(t.text or "" for t in g.iter(f"{{{NS['svg']}}}text"))
           for g in root.iter(f"{{{NS['svg']}}}g") if g.get("class") == "key"}  # fmt: skip
    for i, name in enumerate(names):
        assert key[str(i + 1)] == f"{i + 1} 0610 {name} (f{i})"
    assert key["5"] == "5 0707 LG-A (lyran-a)"
    assert not any(t in {"Alpha ", "Charli", "Bravo "} for t in texts)
    # A short label fits its badge: the number and the name, whole.
    assert "5 LG-A" in texts


def test_a_crowded_hex_counts_the_rest_and_the_picture_grows_for_the_key() -> None:
    hex_ = parse_label("0610")
    crowd = [FormationMarker(f"f{i:02}", "Loyalist", hex_, f"Lance {i}") for i in range(40)]
    root = parse(render_svg(G, crowd))
    more = [g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("class") == "more"]
    assert len(more) == 1 and "".join(more[0].itertext()).endswith("+34")
    keys = [g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("class") == "key"]
    assert len(keys) == 40
    last_y = max(float(t.get("y", 0)) for t in keys[-1].iter(f"{{{NS['svg']}}}text"))
    assert float(root.get("height", 0)) > last_y
