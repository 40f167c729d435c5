"""The house hit-location tables and the targeting-computer focus variant."""

from __future__ import annotations

import pytest

from mekref.rules.house_rules.hit_location import (
    Facing,
    Focus,
    focused_hit,
    low_table,
    side_table,
    tc_focus_options,
    tc_focus_to_hit,
    upper_body_table,
)


def test_every_column_covers_two_to_twelve_exactly_once() -> None:
    for column in ("left", "front", "right"):
        hits = [side_table(column, roll).location for roll in range(2, 13)]
        assert len(hits) == 11
    with pytest.raises(ValueError):
        side_table("front", 13)


def test_side_table_rows_quote_their_line() -> None:
    # L17 "2 | L Torso (crit) | 2 | C Torso (crit) | 2 | R Torso (crit) |"
    hit = side_table("front", 2)
    assert hit.location == "Center Torso" and hit.crit and "C Torso (crit)" in hit.ref.source
    assert side_table("left", 6).location == "Center Torso"  # L20 "6 | C Torso"
    assert side_table("right", 8).location == "Left Torso"  # L22 "... | 8 | L Torso |"
    assert side_table("left", 11).location == "Right Arm"  # L25 "11 | R Arm"


def test_ruling_the_nine_ten_cell_is_the_front_columns() -> None:
    # Ruling HOUSE-3: L23 "9 | R Leg | 9-10 | L Leg | 9 | L Leg |",
    # L24 "10 | L Leg | 10 | R Leg | ||": the front's "9-10" spans rows 9 and 10, so L24's second
    # cell "10 | R Leg" is the right column's row 10.
    assert side_table("front", 9).location == side_table("front", 10).location == "Left Leg"
    assert side_table("right", 9).location == "Left Leg"
    assert side_table("right", 10).location == "Right Leg"
    assert side_table("left", 9).location == "Right Leg"
    assert side_table("left", 10).location == "Left Leg"


def test_the_side_columns_mirror_each_other_and_the_front_mirrors_itself() -> None:
    # Every row of L17-L26 mirrors: the left column's hit on one side is the right column's hit
    # on the other, and the front's roll r mirrors its roll 14 - r (L19 "4-5 | R Leg" against
    # L23 "9-10 | L Leg"). The two tables' only exceptions are the centre torso cells.
    def mirror(location: str) -> str:
        if location.startswith("Left "):
            return "Right " + location.removeprefix("Left ")
        if location.startswith("Right "):
            return "Left " + location.removeprefix("Right ")
        return location

    for roll in range(2, 13):
        assert side_table("right", roll).location == mirror(side_table("left", roll).location)
        assert side_table("front", 14 - roll).location == mirror(
            side_table("front", roll).location
        ) or "Center Torso" in (
            side_table("front", roll).location,
            side_table("front", 14 - roll).location,
        )


def test_ruling_the_low_table_side_columns() -> None:
    # Ruling HOUSE-2: L13 "1- | L Leg | 1-3 | R Leg | 1- | R Leg |" lost its digits: 1-5 the near
    # leg, 6 the far leg; the front column is printed whole.
    assert [low_table("front", r).location for r in range(1, 7)] == ["Right Leg"] * 3 + [
        "Left Leg"
    ] * 3
    assert [low_table("left", r).location for r in range(1, 7)] == ["Left Leg"] * 5 + ["Right Leg"]
    assert [low_table("right", r).location for r in range(1, 7)] == ["Right Leg"] * 5 + ["Left Leg"]


def test_upper_body_table_hits_the_exposed_side() -> None:
    # L1 "2 | L/R Torso (Crit) |", L5 "7 | Center Torso |", L9 "12 | Head |"
    assert upper_body_table("Left", 2).location == "Left Torso" and upper_body_table("Left", 2).crit
    assert upper_body_table("Right", 3).location == "Right Leg"
    assert upper_body_table("Right", 7).location == "Center Torso"
    assert upper_body_table("Left", 12).location == "Head"
    with pytest.raises(ValueError):
        upper_body_table("Up", 7)


def test_tc_focus_options_follow_line_28() -> None:
    assert tc_focus_to_hit() == 1
    assert tc_focus_options(Facing.FRONT, False) == (Focus.UP, Focus.LEFT, Focus.RIGHT, Focus.DOWN)
    assert tc_focus_options(Facing.REAR, True) == (Focus.LEFT, Focus.RIGHT)
    assert tc_focus_options(Facing.LEFT, False) == (Focus.UP, Focus.DOWN)
    assert tc_focus_options(Facing.RIGHT, True) == ()


def test_ruling_focus_up_reads_the_side_faced_or_named() -> None:
    # Ruling HOUSE-1.
    assert focused_hit(Facing.RIGHT, Focus.UP, 2).location == "Right Torso"
    assert focused_hit(Facing.FRONT, Focus.UP, 5, exposed="Left").location == "Left Arm"
    with pytest.raises(ValueError):
        focused_hit(Facing.FRONT, Focus.UP, 5)
    assert focused_hit(Facing.FRONT, Focus.LEFT, 3).location == "Left Arm"
    assert focused_hit(Facing.LEFT, Focus.DOWN, 6).location == "Right Leg"
    with pytest.raises(ValueError):
        focused_hit(Facing.LEFT, Focus.LEFT, 7)
    with pytest.raises(ValueError):
        focused_hit(Facing.FRONT, Focus.UP, 7, partial_cover=True, exposed="Left")
