"""Loading rule tables that ship as TOML package data.

Tables are data, not code, so a referee can read and check them against the rule text: every
row carries ``line`` (the 1-based line in the source text) and ``source`` (that line, verbatim).
Reading package data through ``importlib.resources`` is the only I/O the rules core does, and
only at load time.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import MISSING, fields
from fractions import Fraction
from typing import Any, TypeVar, get_type_hints

from mekref.rules.record_type import Record, record


class TableError(ValueError):
    """A table file is missing a field or holds a value of the wrong type."""


@record
class SourceRef(Record):
    """Where a row comes from: the line number in the rule text, and that line, verbatim."""

    line: int
    source: str


def load_toml(package: str, filename: str) -> dict[str, Any]:
    # Imported with the first table read: importlib.resources brings tempfile and random, and
    # many commands (and every refusal's import) read no table.
    import tomllib
    from importlib import resources

    data = resources.files(package).joinpath(filename).read_bytes()
    return tomllib.loads(data.decode("utf-8"))


def source_of(row: dict[str, Any]) -> SourceRef:
    return SourceRef(line=int_field(row, "line"), source=str_field(row, "source"))


def int_field(row: dict[str, Any], name: str) -> int:
    value = row.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise TableError(f"field {name!r} must be an integer in {row!r}")
    return value


def str_field(row: dict[str, Any], name: str) -> str:
    value = row.get(name)
    if not isinstance(value, str):
        raise TableError(f"field {name!r} must be text in {row!r}")
    return value


def fraction_field(row: dict[str, Any], name: str) -> Fraction:
    # Fractions are written as text ("1/2", "5/4") so the table says exactly what the rule says.
    value = row.get(name)
    if isinstance(value, bool):
        raise TableError(f"field {name!r} must be a number in {row!r}")
    if isinstance(value, int | str):
        return Fraction(value)
    raise TableError(f"field {name!r} must be an integer or 'n/d' text in {row!r}")


def bool_field(row: dict[str, Any], name: str) -> bool:
    """A true/false field; a row without it says false."""
    value = row.get(name, False)
    if not isinstance(value, bool):
        raise TableError(f"field {name!r} must be true or false in {row!r}")
    return value


def str_list_field(row: dict[str, Any], name: str, *, optional: bool = False) -> tuple[str, ...]:
    """A list of text; with ``optional``, a row without it holds an empty list."""
    value = row.get(name, [] if optional else None)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TableError(f"field {name!r} must be a list of text in {row!r}")
    return tuple(value)


def int_list_field(row: dict[str, Any], name: str, *, optional: bool = False) -> tuple[int, ...]:
    """A list of integers (never true/false); with ``optional``, a missing field is empty."""
    value = row.get(name, [] if optional else None)
    if not isinstance(value, list) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise TableError(f"field {name!r} must be a list of integers in {row!r}")
    return tuple(value)


def rows(data: dict[str, Any], name: str) -> list[dict[str, Any]]:
    value = data.get(name)
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise TableError(f"expected an array of tables named {name!r}")
    return value


def section(data: dict[str, Any], *path: str) -> dict[str, Any]:
    node: Any = data
    for part in path:
        if not isinstance(node, dict) or not isinstance(node.get(part), dict):
            raise TableError(f"missing section {'.'.join(path)!r}")
        node = node[part]
    result: dict[str, Any] = node
    return result


@record
class FieldRow(Record):
    """A row kept as read, with the rule line it comes from; each field is checked when read."""

    values: dict[str, Any]
    ref: SourceRef

    def int(self, name: str) -> int:
        return int_field(self.values, name)

    def text(self, name: str) -> str:
        return str_field(self.values, name)


R = TypeVar("R", bound=Record)

# How a field of each declared type is read; ``optional`` says a missing field is its type's
# empty value (an integer or a list may be left out of a row only where the rule allows it).
_READERS: dict[Any, Callable[[dict[str, Any], str, bool], Any]] = {
    int: lambda row, name, optional: int_field(row, name) if not optional or name in row else 0,
    str: lambda row, name, optional: str_field(row, name) if not optional or name in row else "",
    bool: lambda row, name, optional: bool_field(row, name),
    Fraction: lambda row, name, optional: fraction_field(row, name),
    int | None: lambda row, name, optional: int_field(row, name) if name in row else None,
    tuple[str, ...]: lambda row, name, optional: str_list_field(row, name, optional=optional),
    tuple[int, ...]: lambda row, name, optional: int_list_field(row, name, optional=optional),
    SourceRef: lambda row, name, optional: source_of(row),
}


_FIELDS: dict[type, tuple[tuple[str, Any, bool], ...]] = {}


def _fields_of(cls: Any) -> tuple[tuple[str, Any, bool], ...]:
    """Each field's name, declared type and whether the class gives it a default."""
    found = _FIELDS.get(cls)
    if found is None:
        hints = get_type_hints(cls)
        found = _FIELDS[cls] = tuple(
            (f.name, hints[f.name], f.default is not MISSING or f.default_factory is not MISSING)
            for f in fields(cls)
        )
    return found


def row_record(
    cls: type[R], row: dict[str, Any], *, optional: Collection[str] = (), **given: Any
) -> R:
    """A row of ``cls`` read from a table row: every field not ``given`` is read under its own
    name by its declared type (a ``SourceRef`` is the row's line and source). A field the class
    gives a default, or one named in ``optional``, may be missing from the row."""
    values = dict(given)
    for name, hint, has_default in _fields_of(cls):
        if name in values:
            continue
        if has_default and name not in row:
            continue  # the class's own default
        reader = _READERS.get(hint)
        if reader is None:
            raise TableError(f"{cls.__name__}.{name}: no table reader for {hint!r}")
        values[name] = reader(row, name, name in optional)
    return cls(**values)


def row_records(cls: type[R], data: dict[str, Any], name: str, **options: Any) -> tuple[R, ...]:
    """Every row of the array of tables ``name``, read as :func:`row_record` reads one."""
    return tuple(row_record(cls, r, **options) for r in rows(data, name))
