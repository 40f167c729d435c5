"""The formation markers of the map picture and their key.

Every marker is numbered (map order: by hex, then side, then id). In its hex it is a badge in
the side's colour showing the number, followed by the marker's full label when that fits the
badge; a label is never cut. The key beside the map lists every marker by number with its hex
and full label, so a picture without tooltips (a PNG) still tells formations apart.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from mekref.hexmap.geometry import Hex, label

SIZE = 30.0  # centre to corner, px (as in render.py)
SQRT3 = math.sqrt(3.0)
BADGE_H = 12.0
BADGE_FONT = 7.0
# DejaVu Sans Bold advances about 0.63 em per character on average; a label wider than the
# widest badge a hex holds is shown by its number alone (the key gives it in full).
CHAR_W = 0.63 * BADGE_FONT
NAMED_MAX_W = 46.0
NAMED_STACK = 3  # a hex with more markers shows numbers only, in cells shaped like the hex
CELL_W = 18.0
# Where the numbered cells go, from the hex's centre: two, three, two, inside the hexagon.
CELLS = ((-19.0, -23.0), (1.0, -23.0), (-28.0, -10.0), (-9.0, -10.0), (10.0, -10.0),
         (-19.0, 3.0), (1.0, 3.0))  # fmt: skip
KEY_FONT = 9.0
KEY_LINE = 12.0
KEY_WRAP = 30  # characters per key line beside the number


@dataclass(frozen=True, slots=True)
class FormationMarker:
    id: str
    side: str
    hex: Hex
    label: str = ""

    @property
    def text(self) -> str:
        return self.label or self.id

    @property
    def named(self) -> str:
        """The label with the id after it, unless the label holds it: orders name formations
        by id."""
        return self.text if self.id in self.text else f"{self.text} ({self.id})"


def numbered(markers: Sequence[FormationMarker]) -> list[tuple[int, FormationMarker]]:
    """The markers in map order with their key numbers, from 1."""
    order = sorted(markers, key=lambda m: (m.hex, m.side, m.id))
    return [(i, m) for i, m in enumerate(order, start=1)]


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _center(h: Hex) -> tuple[float, float]:
    return SIZE * 1.5 * h.q, SIZE * SQRT3 * (h.r + h.q / 2.0)


def _width(text: str) -> float:
    return len(text) * CHAR_W + 6.0


def _badge(n: int, m: FormationMarker, x: float, y: float, w: float, text: str, colour: str) -> str:
    tip = f"{n}. {m.named}, {m.side}, at {label(m.hex)}"
    return (
        f'<g class="formation" data-id={quoteattr(m.id)} data-side={quoteattr(m.side)} '
        f'data-key="{n}"><title>{escape(tip)}</title>'
        f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(w)}" height="{_fmt(BADGE_H)}" rx="2" '
        f'fill="{colour}" stroke="#10161f" stroke-width="1"/>'
        f'<text x="{_fmt(x + w / 2)}" y="{_fmt(y + 8.8)}" font-size="{_fmt(BADGE_FONT)}" '
        f'text-anchor="middle" font-weight="bold" fill="#ffffff">{escape(text)}</text></g>'
    )


def formation_badges(
    markers: Sequence[FormationMarker], palette: Mapping[str, str], default: str
) -> list[str]:
    """The badges, hex by hex: up to three in a column, each with its full label when it fits;
    more than three as numbers in seven cells (the last counts the rest when more)."""
    by_hex: dict[Hex, list[tuple[int, FormationMarker]]] = {}
    for n, m in numbered(markers):
        by_hex.setdefault(m.hex, []).append((n, m))
    out: list[str] = []
    for h, stack in by_hex.items():
        cx, cy = _center(h)
        if len(stack) <= NAMED_STACK:
            for row, (n, m) in enumerate(stack):
                named = f"{n} {m.text}"
                text = named if _width(named) <= NAMED_MAX_W else str(n)
                w = max(_width(text), 16.0)
                colour = palette.get(m.side, default)
                out.append(_badge(n, m, cx - w / 2, cy - 21 + 13 * row, w, text, colour))
            continue
        shown = stack if len(stack) <= len(CELLS) else stack[: len(CELLS) - 1]
        for (dx, dy), (n, m) in zip(CELLS, shown, strict=False):
            colour = palette.get(m.side, default)
            out.append(_badge(n, m, cx + dx, cy + dy, CELL_W, str(n), colour))
        if len(stack) > len(CELLS):
            rest = len(stack) - len(shown)
            x, y = cx + CELLS[-1][0], cy + CELLS[-1][1]
            out.append(
                f'<g class="more"><title>{rest} more in {label(h)}: see the key</title>'
                f'<rect x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(CELL_W)}" '
                f'height="{_fmt(BADGE_H)}" rx="2" fill="#fffdf6" stroke="#10161f"/>'
                f'<text x="{_fmt(x + CELL_W / 2)}" y="{_fmt(y + 8.8)}" '
                f'font-size="{_fmt(BADGE_FONT)}" text-anchor="middle" font-weight="bold">'
                f"+{rest}</text></g>"
            )
    return out


def marker_key(
    markers: Sequence[FormationMarker],
    palette: Mapping[str, str],
    default: str,
    x: float,
    yy: float,
) -> tuple[list[str], float]:
    """The key's rows (number, hex, full label and id of every marker) and the height they
    reach; nothing when there are no markers."""
    if not markers:
        return [], yy
    rows = [
        f'<text x="{_fmt(x + 12)}" y="{_fmt(yy + 4)}" font-size="11" text-anchor="start" '
        'class="loc">Formations</text>'
    ]
    yy += 20
    for n, m in numbered(markers):
        colour = palette.get(m.side, default)
        rows.append(
            f'<g class="key" data-key="{n}"><rect x="{_fmt(x + 12)}" y="{_fmt(yy - 9)}" '
            f'width="22" height="{_fmt(BADGE_H)}" rx="2" fill="{colour}" stroke="#10161f"/>'
            f'<text x="{_fmt(x + 23)}" y="{_fmt(yy - 0.2)}" font-size="{_fmt(BADGE_FONT)}" '
            f'text-anchor="middle" font-weight="bold" fill="#ffffff">{n}</text>'
        )
        lines = textwrap.wrap(f"{label(m.hex)} {m.named}", KEY_WRAP)
        for line in lines:
            rows.append(
                f'<text x="{_fmt(x + 40)}" y="{_fmt(yy)}" font-size="{_fmt(KEY_FONT)}" '
                f'text-anchor="start">{escape(line)}</text>'
            )
            yy += KEY_LINE
        rows.append("</g>")
        yy += 3
    return rows, yy
