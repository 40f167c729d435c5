"""Training levels from Gunnery/Piloting, the skill gap rule, and commander benefits."""

from __future__ import annotations

from mekref.rules.tripwire.table_loader import (
    CommanderRow,
    TrainingLevelRow,
    TripWireTables,
    load_tables,
)


def training_level(gunnery: int, piloting: int, tables: TripWireTables | None = None) -> str:
    """The training level of a Gunnery/Piloting pair.

    Ruling R-SKILL-1 (docs/rulings.md): a person is at the best level that lists a pair they
    match or beat on both skills (lower is better). So listed pairs map to their own row, 8/6
    (listed under both Very Green and Green) is Green, and unlisted pairs such as 3/6 fall to the
    best level they fully satisfy (Regular, via 4/6). Anything worse than every listed pair is
    Civilian, the bottom of the table.
    """
    t = tables or load_tables()
    best: TrainingLevelRow = t.training_levels[0]
    for row in t.training_levels:
        if any(gunnery <= g and piloting <= p for g, p in row.combos) and row.rank >= best.rank:
            best = row
    return best.name


def level_rank(name: str, tables: TripWireTables | None = None) -> int:
    return (tables or load_tables()).level(name).rank


def skill_gap_ok(gunnery: int, piloting: int, tables: TripWireTables | None = None) -> bool:
    """ "There should be a maximum difference of 2 between Gunnery and Piloting (or Anti-Mech)"."""
    t = tables or load_tables()
    return abs(gunnery - piloting) <= t.force["skills"].int("max_gap")


def anti_mech_skill(has_anti_mech: bool, skill: int, tables: TripWireTables | None = None) -> int:
    """Infantry without anti-'Mech capability have an Anti-Mech skill of 8 (source line 47)."""
    t = tables or load_tables()
    return skill if has_anti_mech else t.force["skills"].int("no_anti_mech_skill")


def commander_benefits(level: str, tables: TripWireTables | None = None) -> CommanderRow | None:
    """SPAs, SPA points, skill bonus and edge for a commander; None below Veteran."""
    return (tables or load_tables()).commanders.get(level)
