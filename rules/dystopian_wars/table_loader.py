"""The Dystopian Wars campaign tables, loaded once from ``tables/*.toml`` into typed rows."""

from __future__ import annotations

from functools import cache
from typing import Any

from mekref.rules.record_type import Record, record
from mekref.rules.tables import (
    FieldRow,
    SourceRef,
    TableError,
    bool_field,
    int_field,
    int_list_field,
    load_toml,
    rows,
    section,
    source_of,
    str_field,
    str_list_field,
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


def _optional_int(row: dict[str, Any], name: str) -> int | None:
    return int_field(row, name) if name in row else None


def _territory(r: dict[str, Any]) -> TerritoryRow:
    row = TerritoryRow(
        key=str_field(r, "key"),
        name=str_field(r, "name"),
        pair=str_field(r, "pair"),
        large=bool_field(r, "large"),
        rp=_optional_int(r, "rp"),
        rp_die=_optional_int(r, "rp_die"),
        shore_leave=_optional_int(r, "shore_leave") or 0,
        hospital=bool_field(r, "hospital"),
        broken_on=_optional_int(r, "broken_on"),
        free_replacement=str_list_field(r, "free_replacement", optional=True),
        dual_shields=bool_field(r, "dual_shields"),
        ref=source_of(r),
        mar_grants=tuple(_mar_grant(g) for g in r.get("mar_grants", [])),
        included_wing=bool_field(r, "included_wing"),
        extra_wings=_optional_int(r, "extra_wings") or 0,
        wing_mars=str_list_field(r, "wing_mars", optional=True),
        fortifications=str_list_field(r, "fortifications", optional=True),
        towers=_optional_int(r, "towers") or 0,
        tower_kinds=str_list_field(r, "tower_kinds", optional=True),
    )
    if row.towers and not row.tower_kinds:
        raise TableError(f"territory {row.key!r} has towers but no tower_kinds")
    if (row.rp is None) == (row.rp_die is None):
        raise TableError(f"territory {row.key!r} needs exactly one of rp and rp_die")
    return row


def _mar_grant(g: Any) -> MarGrant:
    if not isinstance(g, dict):
        raise TableError(f"a MAR grant is a table, not {g!r}")
    return MarGrant(
        mars=str_list_field(g, "mars"), classes=str_list_field(g, "classes", optional=True)
    )


def _xp(data: dict[str, Any], name: str) -> dict[str, XpRow]:
    return {
        str_field(r, "key"): XpRow(key=str_field(r, "key"), xp=int_field(r, "xp"), ref=source_of(r))
        for r in rows(data, name)
    }


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
        battle_sizes=_battle_sizes(),
        repairs={
            str_field(r, "key"): RepairRow(
                key=str_field(r, "key"),
                minor=int_field(r, "minor"),
                major=int_field(r, "major"),
                replacement=int_field(r, "replacement"),
                ref=source_of(r),
            )
            for r in rows(_load("repair_costs"), "row")
        },
        squadron_xp=_xp(exp, "squadron_xp"),
        skill_breaks={
            str_field(r, "key"): SkillBreaksRow(
                key=str_field(r, "key"), breaks=int_list_field(r, "breaks"), ref=source_of(r)
            )
            for r in rows(exp, "skill_breaks")
        },
        skill_sets=tuple(
            BandRow(
                key=str_field(r, "key"),
                low=int_field(r, "low"),
                high=int_field(r, "high"),
                ref=source_of(r),
            )
            for r in rows(exp, "skill_set")
        ),
        skills={
            (str_field(r, "set"), int_field(r, "face")): SkillRow(
                skill_set=str_field(r, "set"),
                face=int_field(r, "face"),
                name=str_field(r, "name"),
                ref=source_of(r),
            )
            for r in rows(exp, "skill")
        },
        commodore_xp=_xp(exp, "commodore_xp"),
        ranks=_ranks(exp),
        injuries=_injuries(exp),
    )


def _battle_sizes() -> tuple[BattleSizeRow, ...]:
    return tuple(
        BattleSizeRow(
            key=str_field(r, "key"),
            low=int_field(r, "low"),
            high=int_field(r, "high"),
            points=int_field(r, "points"),
            stakes=int_field(r, "stakes"),
            conquest=str_field(r, "conquest"),
            ref=source_of(r),
            small_medium_only=bool_field(r, "small_medium_only"),
            max_dreadnoughts=_optional_int(r, "max_dreadnoughts"),
            max_other_large=_optional_int(r, "max_other_large"),
        )
        for r in rows(_load("battle_size"), "size")
    )


def _ranks(exp: dict[str, Any]) -> tuple[RankRow, ...]:
    return tuple(
        RankRow(
            rank=int_field(r, "rank"),
            name=str_field(r, "name"),
            min_xp=int_field(r, "min_xp"),
            bonus=int_field(r, "bonus"),
            mars=str_list_field(r, "mars", optional=True),
            ref=source_of(r),
        )
        for r in rows(exp, "rank")
    )


def _injuries(exp: dict[str, Any]) -> tuple[InjuryRow, ...]:
    return tuple(
        InjuryRow(
            key=str_field(r, "key"),
            low=int_field(r, "low"),
            high=int_field(r, "high"),
            miss_games=int_field(r, "miss_games"),
            xp=int_field(r, "xp"),
            ref=source_of(r),
        )
        for r in rows(exp, "injury")
    )
