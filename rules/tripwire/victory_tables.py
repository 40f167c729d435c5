"""TripWire's victory and retreat tables (``tables/victory.toml``): the victory points a battle
scores and the conditions under which a side may retreat. Read by :func:`.table_loader.load_tables`
with the rest of the campaign tables."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.tables import (
    SourceRef,
    fraction_field,
    int_field,
    row_record,
    rows,
    section,
    source_of,
    str_field,
    str_list_field,
)


@record
class BattleVpRow(Record):
    key: str
    vp: int
    fraction: Fraction | None
    ref: SourceRef


@record
class VictoryTables(Record):
    battle: dict[str, BattleVpRow]
    retire_fraction: Fraction
    retire_ref: SourceRef
    ends_at_vp: int
    vp_floor: int
    campaign_ref: SourceRef


@record
class RetreatConditionRow(Record):
    key: str
    threshold: Fraction | None
    ref: SourceRef


@record
class RetreatTables(Record):
    conditions: dict[str, RetreatConditionRow]
    before_battle_allowed: tuple[str, ...]
    before_battle_ref: SourceRef
    rescue_hexes: int
    capture_ref: SourceRef
    infantry_surrender_move: int
    infantry_ref: SourceRef


def victory_tables(data: dict[str, Any]) -> VictoryTables:
    retire = section(data, "retire")
    campaign = section(data, "campaign")
    return VictoryTables(
        battle={
            str_field(r, "key"): row_record(
                BattleVpRow, r, fraction=optional_fraction(r, "fraction")
            )
            for r in rows(data, "battle")
        },
        retire_fraction=fraction_field(retire, "fraction_of_starting_bv"),
        retire_ref=source_of(retire),
        ends_at_vp=int_field(campaign, "ends_at_vp"),
        vp_floor=int_field(campaign, "vp_floor"),
        campaign_ref=source_of(campaign),
    )


def retreat_tables(data: dict[str, Any]) -> RetreatTables:
    conditions = {}
    for r in rows(data, "condition"):
        threshold = optional_fraction(r, "bv_ratio") or optional_fraction(r, "fraction")
        conditions[str_field(r, "key")] = RetreatConditionRow(
            key=str_field(r, "key"), threshold=threshold, ref=source_of(r)
        )
    before = section(data, "before_battle")
    capture = section(data, "capture")
    infantry = section(data, "infantry")
    return RetreatTables(
        conditions=conditions,
        before_battle_allowed=str_list_field(before, "allowed"),
        before_battle_ref=source_of(before),
        rescue_hexes=int_field(capture, "rescue_hexes"),
        capture_ref=source_of(capture),
        infantry_surrender_move=int_field(infantry, "surrender_at_move"),
        infantry_ref=source_of(infantry),
    )


def optional_fraction(row: dict[str, Any], name: str) -> Fraction | None:
    """The row's fraction ``name``, or None when the row has none."""
    return fraction_field(row, name) if name in row else None
