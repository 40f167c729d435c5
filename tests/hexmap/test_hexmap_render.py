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
