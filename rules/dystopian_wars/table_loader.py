"""The Dystopian Wars campaign tables, loaded once from ``tables/*.toml`` into typed rows."""

from __future__ import annotations

from functools import cache
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.tables import (
    FieldRow,
    SourceRef,
    TableError,
    load_toml,
    row_record,
    row_records,
    rows,
    section,
    source_of,
    str_field,
)

_PACKAGE = "mekref.rules.dystopian_wars.tables"


def _load(name: str) -> dict[str, Any]:
    return load_toml(_PACKAGE, f"{name}.toml")


class Rule(FieldRow):
    """A campaign number (or none) and the line that states it."""


@record
class MarGrant(Record):
    """One "One Squadron has the ... MAR" of a territory row: the MARs offered, and the vessel
    classes that may take it (empty: any)."""

    mars: tuple[str, ...]
    classes: tuple[str, ...] = ()


@record
class TerritoryRow(Record):
    key: str
    name: str
    pair: str
    large: bool
    rp: int | None  # a fixed grant ...
    rp_die: int | None  # ... or one die of this many sides, rolled at each grant
    shore_leave: int
    hospital: bool
    broken_on: int | None
    free_replacement: tuple[str, ...]  # repair-table rows one squadron of may be replaced free
    dual_shields: bool
    ref: SourceRef
    mar_grants: tuple[MarGrant, ...] = ()
    #: The Fleet Base's "1 Wing TF’s (inc)": the roster's free wing, not a second one (DW-35).
    included_wing: bool = False
    #: "1 extra Wing TT’s": wings of Tiny Flyers fielded free in every battle (DW-36).
    extra_wings: int = 0
    #: The Airbase's "All TT’s have either ... MAR": the fleet chooses one (DW-37).
    wing_mars: tuple[str, ...] = ()
    #: What defends the territory when it is staked (DW-38), besides the towers below.
    fortifications: tuple[str, ...] = ()
    towers: int = 0  # towers of a kind the holder chooses ...
    tower_kinds: tuple[str, ...] = ()  # ... from these

    @property
    def special_rules(self) -> tuple[str, ...]:
        # The table's own words (columns 3 and 4 of the row) for scenario sheets.
        return tuple(part.strip() for part in self.ref.source.split("\t")[2:] if part.strip())


@record
class BattleSizeRow(Record):
    key: str
    low: int
    high: int
    points: int
    stakes: int
    conquest: str  # "raid", "take" or "choose"
    ref: SourceRef
    small_medium_only: bool = False  # "Small/Med Only"
    max_dreadnoughts: int | None = None  # "1 DN or 2 other Large/Massive Max": DN ships ...
    max_other_large: int | None = None  # ... or other Large/Massive ships, not both


@record
class RepairRow(Record):
    key: str
    minor: int
    major: int
    replacement: int
    ref: SourceRef


@record
class XpRow(Record):
    key: str
    xp: int
    ref: SourceRef


@record
class SkillBreaksRow(Record):
    key: str
    breaks: tuple[int, ...]
    ref: SourceRef


@record
class BandRow(Record):
    key: str
    low: int
    high: int
    ref: SourceRef


@record
class SkillRow(Record):
    skill_set: str
    face: int
    name: str
    ref: SourceRef


@record
class RankRow(Record):
    rank: int
    name: str
    min_xp: int
    bonus: int
    mars: tuple[str, ...]
    ref: SourceRef


@record
class InjuryRow(Record):
    key: str
    low: int
    high: int
    miss_games: int
    xp: int
    ref: SourceRef


@record
class DystopianTables(Record):
    rules: dict[str, Rule]
    territories: dict[str, TerritoryRow]
    battle_sizes: tuple[BattleSizeRow, ...]
    repairs: dict[str, RepairRow]
    squadron_xp: dict[str, XpRow]
    skill_breaks: dict[str, SkillBreaksRow]
    skill_sets: tuple[BandRow, ...]
    skills: dict[tuple[str, int], SkillRow]
    commodore_xp: dict[str, XpRow]
    ranks: tuple[RankRow, ...]
    injuries: tuple[InjuryRow, ...]

    def rule(self, key: str) -> Rule:
        try:
            return self.rules[key]
        except KeyError:
            raise TableError(f"no campaign rule {key!r}") from None

    def battle_size(self, key: str) -> BattleSizeRow:
        for row in self.battle_sizes:
            if row.key == key:
                return row
        raise TableError(f"no battle size {key!r}")


def _territory(r: dict[str, Any]) -> TerritoryRow:
    row = row_record(
        TerritoryRow,
        r,
        optional=("shore_leave", "free_replacement"),
        mar_grants=tuple(_mar_grant(g) for g in r.get("mar_grants", [])),
    )
    if row.towers and not row.tower_kinds:
        raise TableError(f"territory {row.key!r} has towers but no tower_kinds")
    if (row.rp is None) == (row.rp_die is None):
        raise TableError(f"territory {row.key!r} needs exactly one of rp and rp_die")
    return row


def _mar_grant(g: Any) -> MarGrant:
    if not isinstance(g, dict):
        raise TableError(f"a MAR grant is a table, not {g!r}")
    return row_record(MarGrant, g)


@cache
def load_tables() -> DystopianTables:
    campaign = _load("campaign")
    exp = _load("experience")
    return DystopianTables(
        rules={
            key: Rule(
                values={
                    k: v for k, v in section(campaign, key).items() if k not in ("line", "source")
                },
                ref=source_of(section(campaign, key)),
            )
            for key in campaign
        },
        territories={t.key: t for t in map(_territory, rows(_load("territories"), "territory"))},
        battle_sizes=row_records(BattleSizeRow, _load("battle_size"), "size"),
        repairs={r.key: r for r in row_records(RepairRow, _load("repair_costs"), "row")},
        squadron_xp={r.key: r for r in row_records(XpRow, exp, "squadron_xp")},
        skill_breaks={r.key: r for r in row_records(SkillBreaksRow, exp, "skill_breaks")},
        skill_sets=row_records(BandRow, exp, "skill_set"),
        skills={
            (row.skill_set, row.face): row
            for row in (
                row_record(SkillRow, r, skill_set=str_field(r, "set")) for r in rows(exp, "skill")
            )
        },
        commodore_xp={r.key: r for r in row_records(XpRow, exp, "commodore_xp")},
        ranks=row_records(RankRow, exp, "rank", optional=("mars",)),
        injuries=row_records(InjuryRow, exp, "injury"),
    )
