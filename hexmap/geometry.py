"""Hex geometry on axial coordinates, and the MegaMek-style "CCRR" labels referees write.

Hexes are flat-topped, like MegaMek boards. Axial ``(q, r)`` is what the maths uses; the label
``"0504"`` is column 05, row 04, counted from 01 at the top-left, with every even-numbered
column (the 0-based odd ones) pushed half a hex down, exactly as MegaMek lays out its boards.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """A hex in axial coordinates; the cube coordinate ``s`` is derived, so it can never drift."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)


# Clockwise from the north-east face of a flat-topped hex; a fixed order keeps every search and
# drawing deterministic.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, -1),  # north-east
    Hex(1, 0),  # south-east
    Hex(0, 1),  # south
    Hex(-1, 1),  # south-west
    Hex(-1, 0),  # north-west
    Hex(0, -1),  # north
)


def neighbours(h: Hex) -> tuple[Hex, ...]:
    return tuple(h + d for d in DIRECTIONS)


def distance(a: Hex, b: Hex) -> int:
    d = a - b
    return max(abs(d.q), abs(d.r), abs(d.s))


def are_adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def _cube_round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


# A line exactly along a hex edge would round the same way at every step only by luck; nudging
# both ends by a tiny, fixed amount makes the choice consistent (and reproducible) instead.
_NUDGE = 1e-6


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a straight line from ``a`` to ``b`` passes through, ``distance + 1`` of them."""
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar = a.q + _NUDGE, a.r + _NUDGE
    bq, br = b.q + _NUDGE, b.r + _NUDGE
    return [_cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n) for i in range(n + 1)]


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` from ``center``, clockwise; ``6 * radius`` of them."""
    if radius < 0:
        raise ValueError(f"ring radius must be >= 0, got {radius}")
    if radius == 0:
        return [center]
    result: list[Hex] = []
    h = center + DIRECTIONS[4].scale(radius)
    for side in range(6):
        for _ in range(radius):
            result.append(h)
            h = h + DIRECTIONS[side]
    return result


def spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius``, centre first, then ring by ring."""
    result: list[Hex] = []
    for k in range(radius + 1):
        result.extend(ring(center, k))
    return result


def hex_range(center: Hex, radius: int) -> frozenset[Hex]:
    return frozenset(spiral(center, radius))


def _dot(a: Hex, b: Hex) -> int:
    return a.q * b.q + a.r * b.r + a.s * b.s


def facing_sides(a: Hex, b: Hex) -> tuple[int, ...]:
    """Index(es) into ``DIRECTIONS`` of the hexside(s) of ``a`` that face ``b``.

    Two when ``b`` lies exactly on the line through a corner of ``a``; empty when ``a == b``.
    """
    if a == b:
        return ()
    d = b - a
    dots = [_dot(d, direction) for direction in DIRECTIONS]
    best = max(dots)
    return tuple(i for i, v in enumerate(dots) if v == best)


def sector(center: Hex, side: int, radius: int) -> frozenset[Hex]:
    """The 60° wedge of hexes within ``radius`` that ``center``'s hexside ``side`` faces.

    Hexes on the line through a corner belong to both wedges that meet there, so the six
    sectors together cover the whole range, overlapping only on those lines.
    """
    if not 0 <= side < len(DIRECTIONS):
        raise ValueError(f"hexside must be 0-5, got {side}")
    return frozenset(h for h in spiral(center, radius) if side in facing_sides(center, h))


# --- offset coordinates and labels -------------------------------------------------------------


@dataclass(frozen=True, order=True, slots=True)
class Offset:
    """A 1-based column/row position as printed on MegaMek boards and referee maps."""

    col: int
    row: int

    @property
    def label(self) -> str:
        return f"{self.col:02d}{self.row:02d}"


def offset_to_hex(o: Offset) -> Hex:
    c, r = o.col - 1, o.row - 1
    return Hex(c, r - (c - (c & 1)) // 2)


def hex_to_offset(h: Hex) -> Offset:
    row = h.r + (h.q - (h.q & 1)) // 2
    return Offset(h.q + 1, row + 1)


def label(h: Hex) -> str:
    """The "CCRR" label of a hex, e.g. ``"0504"``."""
    return hex_to_offset(h).label


class LabelError(ValueError):
    """A hex label that is not four digits "CCRR"."""


def parse_offset(text: str) -> Offset:
    """Parse a "CCRR" label such as ``"0504"`` into its column (5) and row (4)."""
    t = text.strip()
    if len(t) != 4 or not t.isdigit():
        raise LabelError(
            f"{text!r} is not a hex label; write four digits, column then row, e.g. '0504'"
        )
    o = Offset(int(t[:2]), int(t[2:]))
    if o.col < 1 or o.row < 1:
        raise LabelError(f"{text!r}: columns and rows count from 01, e.g. '0101' is the corner")
    return o


def parse_label(text: str) -> Hex:
    """The hex a "CCRR" label names."""
    return offset_to_hex(parse_offset(text))


# --- regions -----------------------------------------------------------------------------------


def edge_neighbours(region: Iterable[Hex]) -> frozenset[Hex]:
    """Hexes outside ``region`` that touch it."""
    inside = frozenset(region)
    return frozenset(n for h in inside for n in neighbours(h) if n not in inside)


def touches(a: Iterable[Hex], b: Iterable[Hex]) -> bool:
    """Whether two disjoint regions share a hex edge (or overlap)."""
    bs = frozenset(b)
    return any(h in bs or not bs.isdisjoint(neighbours(h)) for h in a)


def is_connected(region: Iterable[Hex]) -> bool:
    hexes = frozenset(region)
    if not hexes:
        return True
    start = min(hexes)
    seen = {start}
    todo = [start]
    while todo:
        for n in neighbours(todo.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(hexes)


def iter_rect(a: Offset, b: Offset) -> Iterator[Offset]:
    """Offsets of the inclusive rectangle with corners ``a`` and ``b``, column by column."""
    for col in range(min(a.col, b.col), max(a.col, b.col) + 1):
        for row in range(min(a.row, b.row), max(a.row, b.row) + 1):
            yield Offset(col, row)
