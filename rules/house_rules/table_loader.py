"""The house-rule tables, loaded once from ``tables/*.toml``.

Rows are kept as :class:`Row` (the table's values plus the quoted source line): the modules that
use a table read the fields they need through typed accessors, so a malformed table fails at load
with the field and row named.
"""

from __future__ import annotations

import builtins
from fractions import Fraction
from functools import cache
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tables import (
    FieldRow,
    TableError,
    fraction_field,
    load_toml,
    source_of,
)

_PACKAGE = "mekref.rules.house_rules.tables"
TABLE_NAMES = (
    "acquisition",
    "currency",
    "experience",
    "hit_locations",
    "mapsheets",
    "missions",
    "morale",
    "random_damage",
    "repairs",
    "retreat",
    "tactical",
)


class Row(FieldRow):
    """A house-rules row: numbers, text, fractions, flags, lists and die bands."""

    def fraction(self, name: str) -> Fraction:
        return fraction_field(self.values, name)

    def flag(self, name: str) -> bool:
        value = self.values.get(name, False)
        if not isinstance(value, bool):
            raise TableError(f"field {name!r} must be true or false in {self.values!r}")
        return value

    def texts(self, name: str) -> tuple[str, ...]:
        value = self.values.get(name, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TableError(f"field {name!r} must be a list of text in {self.values!r}")
        return tuple(value)

    def in_band(self, value: builtins.int) -> bool:
        return self.int("low") <= value <= self.int("high")


def _row(node: dict[str, Any]) -> Row:
    return Row(
        values={k: v for k, v in node.items() if k not in ("line", "source")}, ref=source_of(node)
    )


@record
class HouseTables(Record):
    """Each table file as sections (``[name]``) and row lists (``[[name]]``)."""

    sections: dict[str, dict[str, Row]]
    lists: dict[str, dict[str, tuple[Row, ...]]]

    def rule(self, table: str, name: str) -> Row:
        try:
            return self.sections[table][name]
        except KeyError:
            raise TableError(f"no section [{name}] in {table}.toml") from None

    def rows(self, table: str, name: str) -> tuple[Row, ...]:
        try:
            return self.lists[table][name]
        except KeyError:
            raise TableError(f"no rows [[{name}]] in {table}.toml") from None

    def band(self, table: str, name: str, value: int) -> Row:
        for row in self.rows(table, name):
            if row.in_band(value):
                return row
        raise TableError(f"no row of [[{name}]] in {table}.toml covers {value}")

    def keyed(self, table: str, name: str, key: str) -> Row:
        for row in self.rows(table, name):
            if row.values.get("key") == key:
                return row
        raise TableError(f"no row {key!r} in [[{name}]] of {table}.toml")

    def keys(self, table: str, name: str) -> tuple[str, ...]:
        return tuple(str(row.values.get("key")) for row in self.rows(table, name))

    def choose(self, table: str, name: str, key: str, what: str) -> Row:
        """The row a person named, matched without case or surrounding spaces ("green" is
        "Green"); an unknown name is refused with every name the table has."""
        wanted = key.strip().casefold()
        for row in self.rows(table, name):
            if str(row.values.get("key")).casefold() == wanted:
                return row
        choices = ", ".join(self.keys(table, name))
        raise Refusal(
            f"unknown_{what.replace(' ', '_')}", f"no {what} {key!r}: choose one of {choices}"
        )

    def choose_each(
        self, table: str, name: str, keys: tuple[str, ...], what: str, code: str
    ) -> tuple[str, ...]:
        """The table's own key of each row named (as :meth:`choose` finds it); a row named
        twice is refused with ``code``."""
        chosen = tuple(self.choose(table, name, key, what).text("key") for key in keys)
        if len(set(chosen)) != len(chosen):
            raise Refusal(code, f"each {what} applies once")
        return chosen


@cache
def load_tables() -> HouseTables:
    sections: dict[str, dict[str, Row]] = {}
    lists: dict[str, dict[str, tuple[Row, ...]]] = {}
    for table in TABLE_NAMES:
        data = load_toml(_PACKAGE, f"{table}.toml")
        sections[table] = {k: _row(v) for k, v in data.items() if isinstance(v, dict)}
        lists[table] = {
            k: tuple(_row(r) for r in v) for k, v in data.items() if isinstance(v, list)
        }
    return HouseTables(sections=sections, lists=lists)
