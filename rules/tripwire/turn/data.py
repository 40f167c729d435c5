"""The daily turn's tables, loaded from ``tables/*.toml``; every row keeps its source line."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.tables import (
    SourceRef,
    TableError,
    int_field,
    load_toml,
    row_records,
    rows,
    source_of,
    str_field,
)

_PACKAGE = "mekref.rules.tripwire.turn.tables"


@cache
def _load(name: str) -> dict[str, Any]:
    return load_toml(_PACKAGE, f"{name}.toml")


def table_rows(name: str, kind: str) -> list[dict[str, Any]]:
    """Raw rows of one kind from one table file (tests quote them)."""
    return rows(_load(name), kind)


@record
class RangeRow(Record):
    """A row keyed by a 2d6 (or level) range, with the row's other fields."""

    low: int
    high: int
    fields: tuple[tuple[str, Any], ...]
    ref: SourceRef

    def get(self, name: str, default: Any = None) -> Any:
        return dict(self.fields).get(name, default)


def _range_rows(name: str, kind: str, low: str, high: str) -> tuple[RangeRow, ...]:
    out = []
    for r in table_rows(name, kind):
        extra = tuple((k, v) for k, v in r.items() if k not in (low, high, "line", "source"))
        out.append(
            RangeRow(low=int_field(r, low), high=int_field(r, high), fields=extra, ref=source_of(r))
        )
    return tuple(out)


def lookup(table: tuple[RangeRow, ...], value: int) -> RangeRow:
    for row in table:
        if row.low <= value <= row.high:
            return row
    raise TableError(f"no row for {value}")


#: The tables of rows keyed by a 2d6 (or level) range: name -> the table file, its rows' kind
#: and the fields that bound each row's range.
_RANGE_TABLES = {
    "weather": ("weather", "weather", "min_roll", "max_roll"),
    "weather_change": ("weather", "change", "min_roll", "max_roll"),
    "unrest": ("unrest", "level", "min_level", "max_level"),
    "recruit": ("recruit", "availability", "min_roll", "max_roll"),
    "arrival": ("engagement", "arrival", "min_walk", "max_walk"),
    "scatter": ("artillery", "scatter", "min_roll", "max_roll"),
}


@cache
def range_table(name: str) -> tuple[RangeRow, ...]:
    """One of the range tables: ``weather`` (and ``weather_change``), ``unrest`` (levels),
    ``recruit`` (availability), ``arrival`` (by walking MP) and ``scatter`` (artillery)."""
    return _range_rows(*_RANGE_TABLES[name])


@cache
def damage_table(kind: str) -> tuple[RangeRow, ...]:
    """A 2d6 table of ``damage.toml`` (hit locations, critical chance)."""
    return _range_rows("damage", kind, "min_roll", "max_roll")


@cache
def surveillance_margins() -> tuple[tuple[int, str, SourceRef], ...]:
    return tuple(
        (int_field(r, "margin"), str_field(r, "info"), source_of(r))
        for r in table_rows("surveillance", "surveillance_margin")
    )


@cache
def identify_margins() -> tuple[tuple[int, str, SourceRef], ...]:
    return tuple(
        (int_field(r, "margin"), str_field(r, "info"), source_of(r))
        for r in table_rows("surveillance", "identify_margin")
    )


@cache
def keyed(name: str, kind: str, value: str = "modifier") -> dict[str, int]:
    """``key -> value`` for rows like ``{key = "looting", amount = 2}``."""
    return {str_field(r, "key"): int_field(r, value) for r in table_rows(name, kind)}


@cache
def single(name: str, kind: str) -> dict[str, Any]:
    """The one row of a kind (a rule with its numbers)."""
    found = table_rows(name, kind)
    if len(found) != 1:
        raise TableError(f"{name}.toml: expected one [[{kind}]] row, found {len(found)}")
    return found[0]


@cache
def fuel_rates() -> dict[str, Fraction]:
    return {
        str_field(r, "key"): Fraction(int_field(r, "numerator"), int_field(r, "denominator"))
        for r in table_rows("fuel", "fuel")
    }


@record
class ActionRow(Record):
    key: str
    kind: str  # standard, free, response
    units: str  # "" any; aerospace; dropship; aerospace_or_dropship
    war_crime: bool
    ref: SourceRef


@cache
def action_rows() -> dict[str, ActionRow]:
    return {a.key: a for a in row_records(ActionRow, _load("actions"), "action")}
