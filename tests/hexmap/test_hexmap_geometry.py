"""Properties of the hex geometry, and the label convention pinned to MegaMek's layout."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mekref.hexmap.geometry import (
    DIRECTIONS,
    Hex,
    LabelError,
    Offset,
    are_adjacent,
    distance,
    facing_sides,
    hex_range,
    hex_to_offset,
    is_connected,
    label,
    line,
    neighbours,
    offset_to_hex,
    parse_label,
    ring,
    sector,
    spiral,
    touches,
)

coords = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coords, coords)
radii = st.integers(min_value=0, max_value=12)


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes)
def test_six_distinct_neighbours_all_at_distance_one(h: Hex) -> None:
    ns = neighbours(h)
    assert len(set(ns)) == 6
    assert all(distance(h, n) == 1 and are_adjacent(h, n) for n in ns)


@given(hexes, st.integers(min_value=1, max_value=12))
def test_ring_has_6k_hexes_all_at_distance_k(center: Hex, k: int) -> None:
    r = ring(center, k)
    assert len(r) == len(set(r)) == 6 * k
    assert all(distance(center, h) == k for h in r)
    # Consecutive ring hexes touch, including the wrap-around: it is a closed loop.
    assert all(are_adjacent(a, b) for a, b in zip(r, r[1:] + r[:1], strict=True))


@given(hexes, radii)
def test_spiral_covers_every_hex_within_radius_once(center: Hex, k: int) -> None:
    s = spiral(center, k)
    assert len(s) == len(set(s)) == 1 + 3 * k * (k + 1)
    assert s[0] == center
    assert set(s) == hex_range(center, k)
    assert all(distance(center, h) <= k for h in s)


@given(hexes, hexes)
def test_line_has_distance_plus_one_contiguous_hexes(a: Hex, b: Hex) -> None:
    ln = line(a, b)
    assert len(ln) == distance(a, b) + 1
    assert ln[0] == a and ln[-1] == b
    assert all(are_adjacent(x, y) for x, y in itertools.pairwise(ln))


@given(hexes)
def test_offset_round_trip(h: Hex) -> None:
    assert offset_to_hex(hex_to_offset(h)) == h


@given(st.integers(min_value=1, max_value=99), st.integers(min_value=1, max_value=99))
def test_label_round_trip(col: int, row: int) -> None:
    o = Offset(col, row)
    assert hex_to_offset(offset_to_hex(o)) == o
    assert parse_label(o.label) == offset_to_hex(o)
    assert label(parse_label(o.label)) == o.label


def test_labels_follow_megamek_column_shift() -> None:
    # MegaMek pushes every even-numbered column half a hex down: 0201 touches 0101 and 0102,
    # while 0301 touches 0201 and 0202 only on its lower side.
    assert {label(n) for n in neighbours(parse_label("0201"))} >= {"0101", "0102", "0301", "0302"}
    assert {label(n) for n in neighbours(parse_label("0302"))} >= {"0201", "0202", "0401", "0402"}
    assert label(parse_label("0504")) == "0504"
    assert hex_to_offset(parse_label("0504")) == Offset(5, 4)


@pytest.mark.parametrize("bad", ["504", "05041", "ab04", "0004", "0500", ""])
def test_bad_labels_are_rejected_with_the_expected_form(bad: str) -> None:
    with pytest.raises(LabelError, match=r"0504|01"):
        parse_label(bad)


def test_runs_along_rows_and_columns_are_contiguous() -> None:
    row = [offset_to_hex(Offset(c, 7)) for c in range(1, 12)]
    col = [offset_to_hex(Offset(4, r)) for r in range(1, 12)]
    for run in (row, col):
        assert all(are_adjacent(a, b) for a, b in itertools.pairwise(run))


def test_region_helpers() -> None:
    a = hex_range(Hex(0, 0), 1)
    b = frozenset(ring(Hex(0, 0), 2))
    far = hex_range(Hex(10, 0), 1)
    assert touches(a, b) and not touches(a, far)
    assert is_connected(a) and is_connected(b)
    assert not is_connected(a | far)


@given(hexes, st.integers(min_value=1, max_value=8))
def test_six_sectors_cover_the_range(center: Hex, k: int) -> None:
    wedges = [sector(center, i, k) for i in range(6)]
    assert frozenset().union(*wedges) == hex_range(center, k) - {center}
    # Rotational symmetry: every wedge holds as many hexes as the others.
    assert len({len(w) for w in wedges}) == 1


@given(hexes, st.integers(min_value=0, max_value=5), st.integers(min_value=1, max_value=9))
def test_a_hex_straight_out_of_a_side_faces_only_that_side(c: Hex, side: int, k: int) -> None:
    assert facing_sides(c, c + DIRECTIONS[side].scale(k)) == (side,)
    assert facing_sides(c, c) == ()
