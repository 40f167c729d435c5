"""Draw a strategic map as a self-contained SVG document.

Only the formation markers passed in are drawn: filtering them per side (fog of war) is the
caller's job, so a marker that was not handed over cannot leak through the picture.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from xml.sax.saxutils import escape

from mekref.hexmap.geometry import Hex, label, neighbours
from mekref.hexmap.model import HexMap, Location
from mekref.hexmap.render_markers import FormationMarker, formation_badges, marker_key
from mekref.hexmap.tables import facility_table, terrain_table

__all__ = ["FormationMarker", "render_svg", "side_colours"]


SIZE = 30.0  # centre to corner, px
SQRT3 = math.sqrt(3.0)
MARGIN = 24.0
TITLE_H = 40.0
LEGEND_W = 210.0
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
SIDE_PALETTE = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d35400", "#16a085")
ROAD_CASING, ROAD_FILL = "#6b4a2b", "#f3d27a"
RIVER = "#2f7dc9"
REGION_EDGE = "#5b4636"

# Small repeating motifs drawn over the terrain colour, so the map reads like a map even when
# printed in grey. Coordinates are in pattern-tile pixels.
_MOTIFS: dict[str, tuple[int, str]] = {
    "light_woods": (
        14,
        '<circle cx="4" cy="5" r="2.2" fill="#6f9f52"/><circle cx="11" cy="11" r="2.2" '
        'fill="#6f9f52"/>',
    ),
    "heavy_woods": (
        10,
        '<circle cx="3" cy="3" r="2.6" fill="#2f6b34"/><circle cx="8" cy="8" r="2.6" '
        'fill="#2f6b34"/>',
    ),
    "mountains": (
        16,
        '<path d="M2 13 L7 4 L12 13 Z" fill="#7d6a58" stroke="#5e4f41" stroke-width="0.8"/>'
        '<path d="M5.5 7 L7 4 L8.5 7 Z" fill="#f4f1ec"/>',
    ),
    "hills": (
        16,
        '<path d="M2 11 Q7 4 12 11" fill="none" stroke="#a8955a" stroke-width="1.4"/>',
    ),
    "swamp": (
        12,
        '<path d="M2 6 H8 M6 10 H11" stroke="#4f7d69" stroke-width="1.2"/>'
        '<path d="M4 6 V3 M9 10 V7" stroke="#4f7d69" stroke-width="0.9"/>',
    ),
    "water": (
        16,
        '<path d="M1 8 Q4 5 7 8 T13 8" fill="none" stroke="#5d9cc8" stroke-width="1"/>',
    ),
    "badlands": (
        12,
        '<path d="M2 9 L5 6 L8 9" fill="none" stroke="#b08a5e" stroke-width="1"/>'
        '<circle cx="9" cy="3" r="0.9" fill="#b08a5e"/>',
    ),
    "light_urban": (
        12,
        '<rect x="2" y="2" width="4" height="4" fill="#a9a29a"/>'
        '<rect x="8" y="7" width="3" height="3" fill="#a9a29a"/>',
    ),
    "heavy_urban": (
        9,
        '<rect x="1" y="1" width="4" height="4" fill="#7b756e"/>'
        '<rect x="5.5" y="5" width="3" height="3" fill="#7b756e"/>',
    ),
    "coastal": (
        10,
        '<circle cx="3" cy="3" r="0.8" fill="#c8b77f"/><circle cx="8" cy="7" r="0.8" '
        'fill="#c8b77f"/>',
    ),
}


def _center(h: Hex) -> tuple[float, float]:
    x = SIZE * 1.5 * h.q
    y = SIZE * SQRT3 * (h.r + h.q / 2.0)
    return x, y


def _corners(h: Hex) -> list[tuple[float, float]]:
    cx, cy = _center(h)
    return [
        (cx + SIZE * math.cos(math.radians(60 * i)), cy + SIZE * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _points(pts: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in pts)


def _shared_edge(a: Hex, b: Hex) -> tuple[tuple[float, float], tuple[float, float]]:
    ca = _corners(a)
    cb = {(round(x, 3), round(y, 3)) for x, y in _corners(b)}
    shared = [p for p in ca if (round(p[0], 3), round(p[1], 3)) in cb]
    return shared[0], shared[1]


def _text(
    x: float,
    y: float,
    body: str,
    *,
    size: float,
    cls: str = "",
    anchor: str = "middle",
    halo: bool = False,
) -> str:
    klass = f' class="{cls}"' if cls else ""
    attrs = f'x="{_fmt(x)}" y="{_fmt(y)}" font-size="{_fmt(size)}" text-anchor="{anchor}"'
    text = f"<text {attrs}{klass}>{escape(body)}</text>"
    if not halo:
        return text
    # A separate outline copy underneath, because not every renderer honours paint-order.
    return f'<text {attrs}{klass} stroke="#fffdf6" stroke-width="3" stroke-linejoin="round">' + (
        f"{escape(body)}</text>{text}"
    )


def side_colours(sides: Iterable[str]) -> dict[str, str]:
    """A stable colour per side: sides sorted by name take the palette in order."""
    return {s: SIDE_PALETTE[i % len(SIDE_PALETTE)] for i, s in enumerate(sorted(set(sides)))}


def render_svg(
    hexmap: HexMap,
    visible_formations: Sequence[FormationMarker],
    side: str | None = None,
    *,
    visible: Iterable[Hex] | None = None,
    colours: Mapping[str, str] | None = None,
) -> str:
    """The map as SVG text: terrain, rivers, roads, regions, locations, the given formations,
    and a legend. ``visible``, when given, greys out every other hex (fog of war)."""
    hexes = list(hexmap.hexes())
    xs = [x for h in hexes for x, _ in _corners(h)]
    ys = [y for h in hexes for _, y in _corners(h)]
    min_x, min_y = min(xs), min(ys)
    map_w, map_h = max(xs) - min_x, max(ys) - min_y
    ox, oy = MARGIN - min_x, MARGIN + TITLE_H - min_y
    used = sorted({hexmap.terrain_at(h) for h in hexes})
    palette = side_colours(m.side for m in visible_formations)
    if colours:
        palette.update(colours)
    legend_x, legend_y = MARGIN * 2 + map_w, MARGIN + TITLE_H
    legend, legend_end = _legend(
        hexmap, used, palette, visible_formations, legend_x, legend_y, fog=visible is not None
    )
    width = MARGIN * 2 + map_w + LEGEND_W
    # The key of a crowded map may run below the map: the picture grows to hold it.
    height = max(MARGIN * 2 + TITLE_H + map_h, 520.0, legend_end + MARGIN)

    out = _svg_head(hexmap, used, side, width, height)
    out.append(f'<g transform="translate({_fmt(ox)},{_fmt(oy)})">')
    out.append(_terrain_layer(hexmap, hexes))
    out.append(_region_layer(hexmap))
    out.append(_river_layer(hexmap))
    out.append(_road_layer(hexmap))
    out.append(_label_layer(hexes))
    if visible is not None:
        out.append(_fog_layer(hexes, set(visible)))
    out.append('<g id="locations">')
    out.extend(_location(loc) for loc in hexmap.locations)
    out.append("</g>")
    out.append('<g id="formations">')
    out.extend(formation_badges(visible_formations, palette, SIDE_PALETTE[0]))
    out.append("</g>")
    out.append("</g>")
    out.append(legend)
    out.append("</svg>")
    return "\n".join(out)


def _svg_head(
    hexmap: HexMap, used: list[str], side: str | None, width: float, height: float
) -> list[str]:
    """The document's opening: size, style, one terrain pattern per terrain used, the paper and
    the title lines."""
    terrains = terrain_table()
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" '
        f'height="{_fmt(height)}" viewBox="0 0 {_fmt(width)} {_fmt(height)}" '
        f'font-family="{FONT}">',
        f"<title>{escape(hexmap.name)}</title>",
        "<style>"
        ".lbl{fill:#5a5248;opacity:.75}"
        ".loc{font-weight:bold;fill:#2b2118}"
        ".region{fill:#3d2f22;opacity:.35;font-style:italic;letter-spacing:2px}"
        "</style>",
        "<defs>",
    ]
    for tid in used:
        t = terrains[tid]
        tile, motif = _MOTIFS.get(tid, (10, ""))
        out.append(
            f'<pattern id="t-{tid}" width="{tile}" height="{tile}" '
            f'patternUnits="userSpaceOnUse"><rect width="{tile}" height="{tile}" '
            f'fill="{t.fill}"/>{motif}</pattern>'
        )
    out.append("</defs>")
    out.append('<rect width="100%" height="100%" fill="#f7f3ea"/>')
    title = hexmap.name + (f" — {side}" if side else "")
    out.append(_text(MARGIN, MARGIN + 16, title, size=20, anchor="start", cls="loc"))
    subtitle = f"{hexmap.width}×{hexmap.height} hexes, {hexmap.hex_km} km per hex"
    out.append(_text(MARGIN, MARGIN + 32, subtitle, size=11, anchor="start", cls="lbl"))
    return out


def _terrain_layer(hexmap: HexMap, hexes: list[Hex]) -> str:
    terrains = terrain_table()
    parts = ['<g id="terrain">']
    for h in hexes:
        tid = hexmap.terrain_at(h)
        parts.append(
            f'<polygon points="{_points(_corners(h))}" fill="url(#t-{tid})" '
            f'stroke="#fffaf0" stroke-opacity="0.55" stroke-width="0.8">'
            f"<title>{label(h)} {escape(terrains[tid].name)}</title></polygon>"
        )
    parts.append("</g>")
    return "\n".join(parts)


def _label_layer(hexes: list[Hex]) -> str:
    parts = ['<g id="labels">']
    for h in hexes:
        cx, cy = _center(h)
        parts.append(_text(cx, cy - SIZE * 0.58, label(h), size=6.5, cls="lbl"))
    parts.append("</g>")
    return "\n".join(parts)


def _fog_layer(hexes: list[Hex], seen: set[Hex]) -> str:
    """Every hex the side does not see, greyed out."""
    parts = ['<g id="fog">']
    parts.extend(
        f'<polygon points="{_points(_corners(h))}" fill="#4a4a52" fill-opacity="0.38"/>'
        for h in hexes
        if h not in seen
    )
    parts.append("</g>")
    return "\n".join(parts)


def _region_layer(hexmap: HexMap) -> str:
    parts = ['<g id="regions">']
    segs: list[str] = []
    owner = {h: r.name for r in hexmap.regions for h in r.hexes}
    for h in hexmap.hexes():
        for n in neighbours(h):
            # Each border edge once: from the hex that sorts first, or from inside the map.
            if not hexmap.in_bounds(n) or n < h:
                continue
            if owner.get(h) != owner.get(n):
                (x1, y1), (x2, y2) = _shared_edge(h, n)
                segs.append(f"M{_fmt(x1)} {_fmt(y1)}L{_fmt(x2)} {_fmt(y2)}")
    if segs:
        parts.append(
            f'<path d="{"".join(segs)}" stroke="{REGION_EDGE}" stroke-width="1.6" '
            'stroke-dasharray="5 3" fill="none" stroke-linecap="round" opacity="0.8"/>'
        )
    for region in hexmap.regions:
        cx, cy = _center(_label_hex(hexmap, region.hexes))
        parts.append(_text(cx, cy + 4, region.name.upper(), size=13, cls="region"))
    parts.append("</g>")
    return "".join(parts)


def _label_hex(hexmap: HexMap, hexes: frozenset[Hex]) -> Hex:
    """The hex nearest the middle of a region that keeps its name clear of locations."""
    pts = [_center(h) for h in hexes]
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    busy = {loc.hex for loc in hexmap.locations}
    busy |= {n for h in busy for n in neighbours(h)}
    busy |= {n for loc in hexmap.locations for n in neighbours(loc.hex + Hex(0, 1))}
    free = [h for h in hexes if h not in busy and hexmap.in_bounds(h)] or list(hexes)

    def key(h: Hex) -> tuple[float, Hex]:
        x, y = _center(h)
        return ((x - mx) ** 2 + (y - my) ** 2, h)

    return min(free, key=key)


def _river_layer(hexmap: HexMap) -> str:
    parts = ['<g id="rivers">']
    for river in hexmap.rivers:
        segs = []
        for edge in river.edges:
            a, b = sorted(edge)
            (x1, y1), (x2, y2) = _shared_edge(a, b)
            segs.append(f"M{_fmt(x1)} {_fmt(y1)}L{_fmt(x2)} {_fmt(y2)}")
        parts.append(
            f'<path d="{"".join(segs)}" stroke="{RIVER}" stroke-width="4" fill="none" '
            f'stroke-linecap="round" stroke-linejoin="round"><title>{escape(river.name)}'
            "</title></path>"
        )
    parts.append("</g>")
    return "".join(parts)


def _road_layer(hexmap: HexMap) -> str:
    parts = ['<g id="roads" fill="none" stroke-linecap="round" stroke-linejoin="round">']
    for road in hexmap.roads:
        pts = _points(_center(h) for h in road.path)
        parts.append(f'<polyline points="{pts}" stroke="{ROAD_CASING}" stroke-width="5"/>')
        parts.append(
            f'<polyline points="{pts}" stroke="{ROAD_FILL}" stroke-width="2.4">'
            f"<title>{escape(road.name)}</title></polyline>"
        )
    parts.append("</g>")
    return "".join(parts)


def _location(loc: Location) -> str:
    cx, cy = _center(loc.hex)
    facilities = facility_table()
    names = ", ".join(facilities[f].name for f in sorted(loc.facilities) if f in facilities)
    tip = f"{loc.name} ({label(loc.hex)}): {loc.warchest} WP. {names}"
    star = _points(
        (
            cx + (9.0 if i % 2 == 0 else 4.0) * math.cos(math.radians(-90 + 36 * i)),
            cy + (9.0 if i % 2 == 0 else 4.0) * math.sin(math.radians(-90 + 36 * i)),
        )
        for i in range(10)
    )
    return (
        f'<g class="location" data-hex="{label(loc.hex)}"><title>{escape(tip)}</title>'
        f'<circle cx="{_fmt(cx)}" cy="{_fmt(cy)}" r="11" fill="#fffdf6" stroke="#2b2118" '
        'stroke-width="1.5"/>'
        f'<polygon points="{star}" fill="#b3261e"/>'
        + _text(cx, cy + 22, loc.name, size=10.5, cls="loc", halo=True)
        + _text(cx, cy + 33, f"{loc.warchest} WP", size=8.5, cls="lbl", halo=True)
        + "</g>"
    )


def _legend(
    hexmap: HexMap,
    used: Sequence[str],
    palette: Mapping[str, str],
    markers: Sequence[FormationMarker],
    x: float,
    y: float,
    *,
    fog: bool,
) -> tuple[str, float]:
    """The legend box (terrain, features, sides, fog, scale, then the formations' key) and
    the height it reaches."""
    terrains = terrain_table()
    rows: list[str] = []
    yy = y + 22
    rows.append(_text(x + 12, yy, "Legend", size=13, anchor="start", cls="loc"))
    yy += 16
    for tid in used:
        t = terrains[tid]
        cost = "impassable" if t.cost is None else f"{t.cost} MP"
        rows.append(
            f'<rect x="{_fmt(x + 12)}" y="{_fmt(yy - 10)}" width="22" height="14" '
            f'fill="url(#t-{tid})" stroke="#8a8173" stroke-width="0.6"/>'
        )
        rows.append(_text(x + 42, yy + 1, f"{t.name} ({cost})", size=10, anchor="start"))
        yy += 19
    yy += 4
    features, yy = _feature_rows(hexmap, x, yy)
    rows.extend(features)
    for side_name, colour in sorted(palette.items()):
        rows.append(
            f'<rect x="{_fmt(x + 12)}" y="{_fmt(yy - 10)}" width="22" height="14" rx="2" '
            f'fill="{colour}" stroke="#10161f"/>'
        )
        rows.append(_text(x + 42, yy + 1, side_name, size=10, anchor="start"))
        yy += 19
    if fog:
        rows.append(
            f'<rect x="{_fmt(x + 12)}" y="{_fmt(yy - 10)}" width="22" height="14" '
            'fill="#4a4a52" fill-opacity="0.38" stroke="#8a8173" stroke-width="0.6"/>'
        )
        rows.append(_text(x + 42, yy + 1, "Not observed", size=10, anchor="start"))
        yy += 19
    scale, yy = _scale_bar(hexmap, x, yy)
    rows.extend(scale)
    key, yy = marker_key(markers, palette, SIDE_PALETTE[0], x, yy)
    rows.extend(key)
    box = (
        f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(LEGEND_W - MARGIN)}" '
        f'height="{_fmt(yy - y)}" rx="6" fill="#fffdf6" stroke="#cbbfa8"/>'
    )
    return '<g id="legend">' + box + "".join(rows) + "</g>", yy


# The legend's rows for map features: the feature (a HexMap field), its name, and its swatch
# ({line}: a short stroke on the row, {dot}: the centre of a marker on it).
_FEATURE_KEYS = (
    (
        "roads",
        "Road (1 MP)",
        f'<path d="{{line}}" stroke="{ROAD_CASING}" stroke-width="5"/>'
        f'<path d="{{line}}" stroke="{ROAD_FILL}" stroke-width="2.4"/>',
    ),
    (
        "rivers",
        "River (crossing 3 MP)",
        f'<path d="{{line}}" stroke="{RIVER}" stroke-width="4" stroke-linecap="round"/>',
    ),
    (
        "regions",
        "Region border",
        f'<path d="{{line}}" stroke="{REGION_EDGE}" stroke-width="1.6" stroke-dasharray="5 3"/>',
    ),
    (
        "locations",
        "Strategic location",
        '<circle {dot} r="7" fill="#fffdf6" stroke="#2b2118"/>'
        '<circle {dot} r="3.5" fill="#b3261e"/>',
    ),
)


def _feature_rows(hexmap: HexMap, x: float, yy: float) -> tuple[list[str], float]:
    """The legend's rows for the map's roads, rivers, region borders and locations, and the
    height they reach."""
    rows: list[str] = []
    for feature, name, swatch in _FEATURE_KEYS:
        if getattr(hexmap, feature):
            line = f"M{_fmt(x + 12)} {_fmt(yy - 3)}h22"
            dot = f'cx="{_fmt(x + 23)}" cy="{_fmt(yy - 3)}"'
            rows.append(swatch.format(line=line, dot=dot))
            rows.append(_text(x + 42, yy + 1, name, size=10, anchor="start"))
            yy += 19
    return rows, yy


def _scale_bar(hexmap: HexMap, x: float, yy: float) -> tuple[list[str], float]:
    rows: list[str] = []
    # Scale bar: two hexes, centre to centre, in km.
    yy += 6
    bar = SIZE * SQRT3 * 2
    rows.append(
        f'<path d="M{_fmt(x + 12)} {_fmt(yy)}h{_fmt(bar)}M{_fmt(x + 12)} {_fmt(yy - 4)}v8'
        f'M{_fmt(x + 12 + bar / 2)} {_fmt(yy - 3)}v6M{_fmt(x + 12 + bar)} {_fmt(yy - 4)}v8" '
        'stroke="#2b2118" stroke-width="1.2" fill="none"/>'
    )
    rows.append(_text(x + 18 + bar, yy + 4, f"{2 * hexmap.hex_km} km", size=10, anchor="start"))
    yy += 18
    return rows, yy
