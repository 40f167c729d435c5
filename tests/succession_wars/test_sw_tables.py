"""Every Succession Wars table row quotes its line of the rule text, and loads as the text says."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from mekref.rules.succession_wars.data import load_oob_2786, load_oob_3025, load_tables
from mekref.rules.succession_wars.model import Kind
from mekref.rules.succession_wars.start import counters_3025, jumpships_3025

SOURCE = (Path(__file__).parent / "data" / "succession_wars.txt").read_text(encoding="utf-8")
LINES = SOURCE.splitlines()
TABLES = resources.files("mekref.rules.succession_wars.tables")
TABLE_FILES = sorted(p.name for p in TABLES.iterdir() if p.name.endswith(".toml"))


def _rows_with_source(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "source" in node:
            found.append(node)
        for value in node.values():
            found.extend(_rows_with_source(value))
    elif isinstance(node, list):
        for value in node:
            found.extend(_rows_with_source(value))
    return found


def test_the_three_table_files_are_there() -> None:
    assert TABLE_FILES == ["oob_2786.toml", "oob_3025.toml", "tables.toml"]


@pytest.mark.parametrize("name", TABLE_FILES)
def test_every_row_quotes_its_source_line_verbatim(name: str) -> None:
    data = tomllib.loads(TABLES.joinpath(name).read_text(encoding="utf-8"))
    rows = _rows_with_source(data)
    assert rows, f"{name} has no rows with a source"
    for row in rows:
        assert isinstance(row.get("line"), int), row
        assert LINES[row["line"] - 1] == row["source"], (name, row["line"])


def test_price_list() -> None:
    """Price List: 'Mech 8, Mercenary rebuild 6, upgrade 5, conventional 3, JumpShips 12/16/20/25
    for 1/2/3/5 units."""
    t = load_tables()
    assert {k: p.price for k, p in t.prices.items() if not k.startswith("jumpship")} == {
        "house_mech": 8,
        "merc_rebuild": 6,
        "upgrade": 5,
        "conventional": 3,
        "manufacturing_center": 30,  # not printed: ruling SW-03
        "repair_center": 15,  # not printed: ruling SW-03
        "tech_roll": 5,  # not printed: ruling SW-03
    }
    ships = {p.capacity: p.price for k, p in t.prices.items() if k.startswith("jumpship")}
    assert ships == {1: 12, 2: 16, 3: 20, 5: 25}


def test_dice_tables() -> None:
    """Tech Level Table: 1-6 nothing, 7-9 +1, 0 (=10) +2. Center damage: 8-10. Interdiction:
    1-3 the briber, 4-9 the specified forces, 10 both."""
    t = load_tables()
    assert [t.tech_roll[f] for f in range(1, 11)] == [0, 0, 0, 0, 0, 0, 1, 1, 1, 2]
    assert [f for f in range(1, 11) if t.center_damage[f]] == [8, 9, 10]
    assert [t.interdiction[f] for f in (1, 3, 4, 9, 10)] == [
        "briber",
        "briber",
        "specified",
        "specified",
        "both",
    ]
    mods = [(r.low, r.high, r.modifier) for r in t.attack_modifiers]
    assert mods == [(1, 5, 0), (6, 10, 1), (11, 15, 2), (16, 20, 3), (21, 9999, 4)]


def test_tech_events_and_scale_rows() -> None:
    t = load_tables()
    assert t.tech_events == {
        "lose_regional_capital_or_center": -2,
        "lose_house_capital": -5,
        "center_damaged": -1,
        "build_center": 1,
        "repair_center": 1,
        "take_regional_capital": 2,
        "capture_undamaged_center": 1,
    }
    assert [s.level for s in t.tech_scale] == [-10, -7, -5, 0, 7, 10, 12, 15, 17, 20, 24]
    assert (t.tech_low, t.tech_high) == (-10, 25)


def test_event_cards() -> None:
    """48 cards; 1-10 as listed, 11 ends a contract too, 37 is the sample Star League card."""
    t = load_tables()
    assert len(t.cards) == 48
    assert [(t.cards[n].effect, t.cards[n].amount) for n in (1, 2, 3)] == [
        ("advance_tech", 3),
        ("advance_tech", 3),
        ("advance_tech", 5),
    ]
    assert {t.cards[n].effect for n in (4, 5, 6)} == {"new_mercenary"}
    assert {t.cards[n].effect for n in range(7, 12)} == {"contract_ends"}
    assert t.cards[37].effect == "free_unit" and t.cards[37].timing == "spend"
    assert [c.number for c in t.cards.values() if c.name == "Death Commando"] == [47, 48]
    assert t.cards[20].ref is None and t.cards[20].effect == "referee"


def test_order_of_battle_3025() -> None:
    """Spot checks against the text: sequence of play, JumpShips, centers, Leaders."""
    oob = load_oob_3025()
    assert oob.sequence == ("Liao", "Marik", "Steiner", "Kurita", "Davion")
    assert oob.jumpships["Davion"] == (5, 3, 3, 2, 2, 1)
    assert oob.jumpships["Liao"] == (3, 2, 1)
    assert oob.centers["Liao"] == ("Sian", "Capella", "Tikonov")
    leaders = {ld.name: ld for ld in oob.leaders}
    assert (leaders["Hanse Davion"].combat, leaders["Hanse Davion"].admin) == (3, 5)
    assert leaders["Hanse Davion"].loyalty is None  # "*Leader cannot be bribed."
    assert leaders["Michael Hasek-Davion"].loyalty == 3
    wolf = leaders["Jaime Wolf"]
    assert (wolf.combat, wolf.military, wolf.admin, wolf.loyalty, wolf.mercenary) == (
        3,
        2,
        0,
        7,
        True,
    )
    assert wolf.setup == "with Wolf's Dragoons"
    assert [n for _, n in oob.unrated_leaders] == [
        "Isoroku Kurita",
        "Margaret Aten",
        "Beauregard Waslewski",
        "Karl Yadi",
    ]
    assert oob.garrisons == {
        "ComStar": (7, 7, 7, 7),
        "Bandit Kingdoms": (5, 5),
        "Outworlds Alliance": (5, 5),
        "Circinus Federation": (5, 5),
    }


def test_order_of_battle_counters_are_mechs() -> None:
    """Ruling SW-05: every Order of Battle counter is a 'Mech unit; counters not available for
    initial placement start in reserve."""
    counters = counters_3025()
    assert {u.kind for u, _ in counters} == {Kind.MECH}
    lancers = [u for u, _ in counters if u.formation == "Crucis Lancers"]
    assert [(u.value, u.status.value) for u in lancers] == [
        (6, "active"),
        (6, "active"),
        (4, "active"),
        (4, "reserve"),
    ]
    assert len(jumpships_3025()) == 6 + 6 + 4 + 6 + 3


def test_order_of_battle_2786() -> None:
    oob = load_oob_2786()
    assert (oob.units_per_house, oob.value, oob.mercenary_minimum) == (25, 4, 4)
    assert [ld.name for ld in oob.leaders] == [
        "John Davion",
        "Richard Davion",
        "Vance Gentry",
        "Ernest Hapala",
    ]
    assert oob.leaders[0].loyalty is None and oob.leaders[2].loyalty == 8
