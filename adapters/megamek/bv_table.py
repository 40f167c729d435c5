"""Battle Value from an imported table: no unit file or MUL stores BV (reference 5.4).

Two sources are read:

* MegaMek's ``megamek.utilities.MekCacheCSVTool`` export, ``Units.txt``: pipe-delimited, one
  header row naming the columns (``Chassis|Model|MUL ID|...|BV|Cost|...``). Columns are found
  by header name, so their order and any extra columns do not matter.
* A Master Unit List CSV (masterunitlist.info). Its column names are not fixed across exports,
  so the mapping is explicit: :class:`MulCsvColumns` (defaults ``Id``, ``Name``, ``Class``,
  ``Variant``, ``BattleValue``) can be changed to fit the file at hand.

:meth:`BvTable.bv_for` matches by MUL id first, then by chassis + model, and always returns a
:class:`BvResult` that says how it matched or why there is no BV: never a bare None.
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from mekref.adapters.megamek.catalog import normalise_name
from mekref.adapters.megamek.design import UnitDesign


class BvTableError(ValueError):
    """A BV table that cannot be read: which file, which line, what is wrong."""

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        self.source = source
        self.line = line
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True, slots=True)
class BvRow:
    chassis: str
    model: str
    mul_id: int | None
    bv: int | None
    cost: float | None
    line: int


class BvMatch(StrEnum):
    MUL_ID = "mul_id"
    CHASSIS_MODEL = "chassis_model"


@dataclass(frozen=True, slots=True)
class BvResult:
    """The BV of one design, or the reason there is none (``bv is None``)."""

    unit: str
    bv: int | None
    matched_by: BvMatch | None
    reason: str
    row: BvRow | None = None

    @property
    def found(self) -> bool:
        return self.bv is not None


@dataclass(frozen=True, slots=True)
class MulCsvColumns:
    """Which Master Unit List CSV column holds what. Header matching is case-insensitive.

    ``chassis`` is optional: without it the chassis is the ``name`` minus a trailing
    ``model`` (MUL names read "Atlas AS7-D" with variant "AS7-D")."""

    mul_id: str = "Id"
    name: str = "Name"
    chassis: str | None = "Class"
    model: str = "Variant"
    bv: str = "BattleValue"
    cost: str | None = "Cost"


@dataclass(frozen=True)
class BvTable:
    source: str
    rows: tuple[BvRow, ...]
    _by_id: dict[int, list[BvRow]] = field(init=False, repr=False, compare=False)
    _by_name: dict[tuple[str, str], list[BvRow]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_id: dict[int, list[BvRow]] = defaultdict(list)
        by_name: dict[tuple[str, str], list[BvRow]] = defaultdict(list)
        for row in self.rows:
            if row.mul_id is not None:
                by_id[row.mul_id].append(row)
            by_name[(normalise_name(row.chassis), normalise_name(row.model))].append(row)
        object.__setattr__(self, "_by_id", dict(by_id))
        object.__setattr__(self, "_by_name", dict(by_name))

    def __len__(self) -> int:
        return len(self.rows)

    def bv_for(self, design: UnitDesign) -> BvResult:
        return self.bv_for_unit(design.chassis, design.model, design.mul_id)

    def bv_for_unit(self, chassis: str, model: str, mul_id: int | None = None) -> BvResult:
        unit = f"{chassis} {model}".strip()
        if mul_id is not None and mul_id > 0:
            rows = self._by_id.get(mul_id)
            if rows:
                return _pick(unit, rows, BvMatch.MUL_ID, f"MUL id {mul_id}", self.source)
        rows = self._by_name.get((normalise_name(chassis), normalise_name(model)))
        if rows:
            return _pick(unit, rows, BvMatch.CHASSIS_MODEL, "chassis and model", self.source)
        id_text = f"MUL id {mul_id} nor " if mul_id is not None and mul_id > 0 else ""
        return BvResult(
            unit, None, None, f"no BV: neither {id_text}chassis+model is in {self.source}"
        )


def _pick(unit: str, rows: Sequence[BvRow], how: BvMatch, key: str, source: str) -> BvResult:
    values = sorted({r.bv for r in rows if r.bv is not None})
    if not values:
        return BvResult(unit, None, how, f"no BV: {source} line {rows[0].line} has no BV", rows[0])
    if len(values) > 1:
        lines = ", ".join(str(r.line) for r in rows)
        listed = ", ".join(str(v) for v in values)
        return BvResult(
            unit, None, how, f"no BV: {key} has conflicting BVs {listed} (lines {lines})"
        )
    row = next(r for r in rows if r.bv is not None)
    return BvResult(unit, row.bv, how, f"{key} in {source} line {row.line}", row)


# ---- readers ------------------------------------------------------------------------------


def _int_or_none(text: str | None) -> int | None:
    """Whole numbers as written in exports ("1,897", "1897.0"); blanks, dashes and
    non-positive values (MegaMek writes -1 for "no MUL id") mean "none"."""
    if text is None:
        return None
    cleaned = text.strip().replace(",", "")
    if not cleaned or cleaned in {"-", "N/A"}:
        return None
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return int(value) if value > 0 and value.is_integer() else None


def _float_or_none(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        return float(text.strip().replace(",", ""))
    except ValueError:
        return None


def _header_index(header: Sequence[str]) -> dict[str, int]:
    return {normalise_name(name): i for i, name in enumerate(header)}


def parse_units_txt(text: str, source: str = "Units.txt") -> BvTable:
    """Read a ``MekCacheCSVTool`` ``Units.txt`` export (pipe-delimited, header row first)."""
    lines = text.splitlines()
    header_at = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_at is None:
        raise BvTableError(source, "empty file: expected a header row 'Chassis|Model|...'")
    columns = _header_index([c.strip() for c in lines[header_at].split("|")])
    missing = [c for c in ("chassis", "model", "bv") if c not in columns]
    if missing:
        raise BvTableError(
            source, f"header lacks column(s) {', '.join(missing)}: not a Units.txt", header_at + 1
        )
    mul_col = columns.get("mul id")
    cost_col = columns.get("cost")
    rows: list[BvRow] = []
    for n, line in enumerate(lines[header_at + 1 :], start=header_at + 2):
        if not line.strip():
            continue
        cells = line.split("|")

        def cell(index: int | None, cells: list[str] = cells) -> str | None:
            return cells[index].strip() if index is not None and index < len(cells) else None

        chassis = cell(columns["chassis"])
        if not chassis:
            raise BvTableError(source, "row without a chassis", n)
        rows.append(
            BvRow(
                chassis=chassis,
                model=cell(columns["model"]) or "",
                mul_id=_int_or_none(cell(mul_col)),
                bv=_int_or_none(cell(columns["bv"])),
                cost=_float_or_none(cell(cost_col)),
                line=n,
            )
        )
    return BvTable(source, tuple(rows))


def parse_mul_csv(
    text: str, columns: MulCsvColumns | None = None, source: str = "MUL CSV"
) -> BvTable:
    """Read a Master Unit List CSV export with the given column mapping."""
    mapping = columns or MulCsvColumns()
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise BvTableError(source, "empty file: expected a header row") from None
    index = _header_index(header)

    def col(name: str | None) -> int | None:
        return None if name is None else index.get(normalise_name(name))

    id_col, name_col, chassis_col = col(mapping.mul_id), col(mapping.name), col(mapping.chassis)
    model_col, bv_col, cost_col = col(mapping.model), col(mapping.bv), col(mapping.cost)
    if bv_col is None or (name_col is None and chassis_col is None):
        raise BvTableError(
            source,
            f"header {header!r} lacks the BV column {mapping.bv!r} or a name column "
            f"({mapping.name!r}/{mapping.chassis!r}); pass MulCsvColumns to map the columns",
            1,
        )
    rows: list[BvRow] = []
    for n, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue

        def cell(i: int | None, cells: list[str] = cells) -> str:
            return cells[i].strip() if i is not None and i < len(cells) else ""

        model = cell(model_col)
        chassis = cell(chassis_col)
        if not chassis:
            name = cell(name_col)
            chassis = name[: -len(model)].strip() if model and name.endswith(model) else name
        if not chassis:
            raise BvTableError(source, "row without a name", n)
        rows.append(
            BvRow(
                chassis=chassis,
                model=model,
                mul_id=_int_or_none(cell(id_col)),
                bv=_int_or_none(cell(bv_col)),
                cost=_float_or_none(cell(cost_col)) if cost_col is not None else None,
                line=n,
            )
        )
    return BvTable(source, tuple(rows))
