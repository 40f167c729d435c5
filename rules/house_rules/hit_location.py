"""The house hit-location tables and the targeting-computer focus variant (lines 1-28)."""

from __future__ import annotations

from enum import StrEnum

from mekref.rules.house_rules.table_loader import HouseTables, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.tables import SourceRef


class Facing(StrEnum):
    """Which side of the target the attacker faces."""

    FRONT = "front"
    REAR = "rear"
    LEFT = "left"
    RIGHT = "right"


class Focus(StrEnum):
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"


@record
class Hit(Record):
    location: str  # a MegaMek biped location name ("Left Torso", "Head" ...)
    crit: bool  # the row is marked "(crit)": roll for a critical hit
    ref: SourceRef


def side_table(column: str, roll: int, tables: HouseTables | None = None) -> Hit:
    """The 2d6 "Left Side | Front | Right Side" table (lines 15-26); column "left" ... "right"."""
    t = tables or load_tables()
    for row in t.rows("hit_locations", "side"):
        if row.text("column") == column and row.in_band(roll):
            return Hit(location=row.text("location"), crit=row.flag("crit"), ref=row.ref)
    raise ValueError(f"no {column} side row for {roll}")


def low_table(column: str, roll: int, tables: HouseTables | None = None) -> Hit:
    """The 1d6 target-low table (lines 11-14): legs only."""
    t = tables or load_tables()
    for row in t.rows("hit_locations", "low"):
        if row.text("column") == column and row.in_band(roll):
            return Hit(location=row.text("location"), crit=False, ref=row.ref)
    raise ValueError(f"no {column} low row for {roll}")


def upper_body_table(exposed: str, roll: int, tables: HouseTables | None = None) -> Hit:
    """The 2d6 partial-cover table (lines 1-10): "L/R" rows hit the exposed side."""
    t = tables or load_tables()
    if exposed not in ("Left", "Right"):
        raise ValueError("the exposed side is Left or Right")
    for row in t.rows("hit_locations", "upper_body"):
        if row.in_band(roll):
            name = row.text("location")
            if row.text("side") == "exposed":
                name = f"{exposed} {name}"
            return Hit(location=name, crit=row.flag("crit"), ref=row.ref)
    raise ValueError(f"no upper-body row for {roll}")


def tc_focus_options(facing: Facing, partial_cover: bool) -> tuple[Focus, ...]:
    """Line 28: the focus choices a targeting computer has, at +1 to hit.

    Facing the front or rear: up, left, right or down; in partial cover only left or right.
    Facing a side: up or down; in partial cover, none.
    """
    if facing in (Facing.FRONT, Facing.REAR):
        if partial_cover:
            return (Focus.LEFT, Focus.RIGHT)
        return (Focus.UP, Focus.LEFT, Focus.RIGHT, Focus.DOWN)
    return () if partial_cover else (Focus.UP, Focus.DOWN)


def tc_focus_to_hit(tables: HouseTables | None = None) -> int:
    return (tables or load_tables()).rule("hit_locations", "tc_focus").int("to_hit")


def focused_hit(
    facing: Facing,
    focus: Focus,
    roll: int,
    *,
    partial_cover: bool = False,
    exposed: str | None = None,
    tables: HouseTables | None = None,
) -> Hit:
    """Where a focused shot lands: 2d6 for up, left and right; 1d6 for down.

    Ruling HOUSE-1: focusing "up" reads the partial-cover table, whose "L/R" rows hit one side:
    the side the attacker faces when facing a side, and the side the attacker names
    (``exposed``) when facing the front or rear.
    """
    if focus not in tc_focus_options(facing, partial_cover):
        raise ValueError(f"cannot focus {focus} when facing the target's {facing}")
    side = {Facing.LEFT: "left", Facing.RIGHT: "right"}.get(facing, "front")
    if focus is Focus.DOWN:
        return low_table(side, roll, tables)
    if focus is Focus.UP:
        if facing in (Facing.LEFT, Facing.RIGHT):
            exposed = facing.value.title()
        if exposed is None:
            raise ValueError("facing the front or rear, name the side focused on (Left/Right)")
        return upper_body_table(exposed, roll, tables)
    return side_table(focus.value, roll, tables)
