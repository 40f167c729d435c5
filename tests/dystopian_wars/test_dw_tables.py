"""Every Dystopian Wars table row quotes its line of the rule text verbatim, and the numbers
the loader reads are the numbers on that line."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from mekref.rules.dystopian_wars.experience import injury_row, rank_of
from mekref.rules.dystopian_wars.table_loader import load_tables

LINES = (Path(__file__).parent / "data" / "dystopian_wars.txt").read_text("utf-8").splitlines()
TABLES = resources.files("mekref.rules.dystopian_wars.tables")
FILES = sorted(p.name for p in TABLES.iterdir() if p.name.endswith(".toml"))


def _rows(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "source" in node:
            found.append(node)
        for value in node.values():
            found.extend(_rows(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_rows(value))
    return found


@pytest.mark.parametrize("name", FILES)
def test_every_row_quotes_its_source_line(name: str) -> None:
    rows = _rows(tomllib.loads(TABLES.joinpath(name).read_text(encoding="utf-8")))
    assert rows
    for row in rows:
        assert LINES[row["line"] - 1] == row["source"], (name, row["line"])


def test_repair_rows_are_the_printed_columns() -> None:
    # "Class	Minor Repairs	Major Repairs	Replacement Cost" (line 231)
    for row in load_tables().repairs.values():
        assert row.ref.source.split("\t")[1:] == [
            str(row.minor),
            str(row.major),
            str(row.replacement),
        ]
    assert load_tables().repairs["dreadnought"].replacement == 11


def test_territory_rows() -> None:
    t = load_tables().territories
    assert len(t) == 12
    for row in t.values():
        printed = row.ref.source.split("\t")[1]
        assert printed == (f"+{row.rp}" if row.rp is not None else f"+D{row.rp_die}")
        assert ("(Large)" in row.ref.source) == row.large or row.key == "fleet_base"
    assert t["large_town"].hospital and "Hospital" in t["large_town"].ref.source
    assert t["shipyard"].free_replacement == ("small", "cruiser_bomber")
    assert t["fleet_base"].special_rules[0] == "1 Wing TF’s (inc)"


def test_battle_size_rows() -> None:
    rows = load_tables().battle_sizes
    assert [(r.low, r.high, r.points, r.stakes) for r in rows] == [
        (1, 2, 600, 1),
        (3, 4, 900, 1),
        (5, 6, 1200, 2),
    ]
    for r in rows:
        assert r.ref.source.startswith(f"{r.low}-{r.high}\t") and f"{r.points}pts" in r.ref.source


def test_skill_tables() -> None:
    t = load_tables()
    assert t.skill_breaks["small_medium"].breaks == (2, 5, 9, 14, 20)
    for breaks in t.skill_breaks.values():
        assert breaks.ref.source.split("\t")[1:] == [str(b) for b in breaks.breaks]
    assert len(t.skills) == 18
    for (skill_set, face), row in t.skills.items():
        assert row.ref.source.strip() == f"{face}: {row.name}"
        assert skill_set in ("weapons", "marines", "ship")
    assert [(b.key, b.low, b.high) for b in t.skill_sets] == [
        ("weapons", 1, 2),
        ("marines", 3, 4),
        ("ship", 5, 6),
    ]


def test_experience_rows_print_their_numbers() -> None:
    t = load_tables()
    for row in [*t.squadron_xp.values(), *t.commodore_xp.values()]:
        if row.xp:
            assert f"{row.xp:+d} Exp" in row.ref.source, row.key


def test_rank_table_rows() -> None:
    # 0 / 1-4 / 5-10 / 11-17 / 18+ (lines 342-346)
    assert [rank_of(x).rank for x in (0, 1, 4, 5, 10, 11, 17, 18, 40)] == [
        1,
        2,
        2,
        3,
        3,
        4,
        4,
        5,
        5,
    ]
    assert [rank_of(x).bonus for x in (0, 1, 5, 11, 18)] == [0, 1, 2, 3, 4]
    assert rank_of(18).mars == ("Dash and Elan", "Security Posts", "Icon")
    assert rank_of(18).ref.source.startswith("18+ Exp\t5: Fleet Commodore\t+4")


def test_injury_table_rows() -> None:
    assert [injury_row(d).key for d in range(1, 7)] == [
        "dead",
        "captured",
        "badly_injured",
        "injured",
        "injured",
        "heroic_escape",
    ]
    assert injury_row(3).miss_games == 2 and "Miss Two Games" in injury_row(3).ref.source
    assert injury_row(6).xp == 1 and "+1 XP" in injury_row(6).ref.source


def test_campaign_numbers() -> None:
    t = load_tables()
    assert t.rule("victory_territories").int("territories") == 11
    assert "Conquers 11 Territories" in t.rule("victory_territories").ref.source
    assert t.rule("victory_commodore").int("experience") == 21
    assert t.rule("fleet_points").int("points") == 1500
    assert "750pts" in t.rule("treaty_naval").ref.source
    assert "50%" in t.rule("treaty_large").ref.source
    assert "10%" in t.rule("victor_margin").ref.source
    assert "4 Small Ships, 2 Medium Ships or 1 Large" in t.rule("prize_ratio").ref.source
