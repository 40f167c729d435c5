"""The house rules played through the installed ``mekref`` console script with typed commands
(``--type``/``--field``, no JSON file): a missed search's offers, what a bargain is, money in
decimals, and table names matched without case (issue 29)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from console_script import mekref
from hr_helpers import LINES

from mekref.rules.house_rules import commands as c
from mekref.rules.house_rules.describe import decimal_text
from mekref.rules.house_rules.table_loader import load_tables


class Game:
    def __init__(self, tmp_path: Path) -> None:
        self.db = str(tmp_path / "hr.db")
        start = mekref("game", "example", "--ruleset", "house_rules").stdout
        began = mekref("game", "start", "--db", self.db, "--ruleset", "house_rules",
                       "--name", "hr", "-", stdin=start)  # fmt: skip
        assert began.returncode == 0, began.stderr

    def do(self, kind: str, **fields: Any) -> subprocess.CompletedProcess[str]:
        args = ["game", "do", "--db", self.db, "--campaign", "hr", "--actor", "ref", "--type", kind]
        for name, value in fields.items():
            args += ["--field", f"{name}={json.dumps(value)}"]
        return mekref(*args)

    def ok(self, kind: str, **fields: Any) -> str:
        done = self.do(kind, **fields)
        assert done.returncode == 0, done.stderr
        return done.stdout


def _line(n: int) -> str:
    return LINES[n - 1]


def test_a_missed_search_lists_the_offers_it_found_and_a_standard_price_is_no_bargain(
    tmp_path: Path,
) -> None:
    # L196 "-6 or less | 1 |": the bids table gives sellers to a missed search (ruling HOUSE-8);
    # before, the words said "not found" while the offers could be bought.
    assert _line(196) == "-6 or less | 1 |"
    game = Game(tmp_path)
    out = game.ok("HRAcquire", item="ER Large Laser 1", availability="RARE", base_cost=200000)
    assert "ER Large Laser 1 (rare): 7 against 10, missed by 3: 2 offer(s)" in out
    assert "offer 1: 280,000 C-bills (standard price)" in out
    assert "not found" not in out
    # L206 "Any time an item is bought at a lower price roll 2d6": a standard price is bought
    # as it is, never "a bargain".
    assert "item is bought at a lower price roll 2d6" in _line(205) + " " + _line(206)
    out = game.ok("HRBuy", item="ER Large Laser 1", bid=1)
    assert "ER Large Laser 1 bought at offer 1 for 280,000 C-bills" in out
    assert "bargain" not in out


def test_money_is_shown_in_decimals(tmp_path: Path) -> None:
    # L227 "L-Bill | 0.45 |": the rate moves by 2d6 % (L230-234); before, "0 C-bills and 54/125".
    assert _line(227) == "L-Bill | 0.45 |"
    game = Game(tmp_path)
    out = game.ok("HRExchangeFluctuation", currency="l-bill")
    assert "1 L-Bill = 0.4005 C-bills" in out
    report = mekref("game", "report", "--db", game.db, "--campaign", "hr").stdout
    assert "1 L-Bill = 0.4005 C-bills" in report


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("54/125", "0.432"),
        ("280000", "280,000"),
        ("1/3", "about 0.33"),
        ("-5/2", "-2.5"),
    ],
)
def test_decimal_text(value: str, text: str) -> None:
    from fractions import Fraction

    assert decimal_text(Fraction(value)) == text


def test_names_are_matched_without_case_and_unknown_ones_list_the_choices(
    tmp_path: Path,
) -> None:
    # L235 "Mission | Expected Loss Rate | Enemy Force | Enemy Force Size |"; before, "Raid" and
    # "green" were refused with no list and the right case was never shown.
    game = Game(tmp_path)
    out = game.ok("HRMissionRoll", mission="objective raid")
    assert out.splitlines()[1].startswith("  mission Objective Raid:")
    refused = game.do("HRMissionRoll", mission="Raid")
    assert refused.returncode != 0
    # Refused by the command line before the rules, listing every mission (issue 29, item 3).
    assert 'mission=\'Raid\' is none of: "Retainer", "Garrison"' in refused.stderr
    assert '"Objective Raid"' in refused.stderr
    out = game.ok("HRMoraleTest", unit_id="u1", turn=1, skill="green", nationality="kuritan",
                  situations=["INFERNO"])  # fmt: skip
    assert "u1 morale:" in out
    refused = game.do("HRMoraleTest", unit_id="u1", turn=2, skill="rookie", nationality="Davion")
    assert 'skill=\'rookie\' is none of: "", "Green", "Regular", "Veteran", "Elite"' in (
        refused.stderr
    )
    refused = game.do("HRAcquire", item="x", availability="scarce", base_cost=1)
    assert (
        'availability=\'scarce\' is none of: "common", "uncommon", "rare", "specific_vehicle", '
        '"specific_mech"'
    ) in refused.stderr


def test_game_commands_lists_the_allowed_names(tmp_path: Path) -> None:
    shown = mekref("game", "commands", "--ruleset", "house_rules", "--json")
    assert shown.returncode == 0, shown.stderr
    commands = {x["type"]: x for x in json.loads(shown.stdout)["commands"]}

    def allowed(kind: str, name: str) -> list[str]:
        field = next(f for f in commands[kind]["fields"] if f["name"] == name)
        return list(field.get("allowed", []))

    assert "Objective Raid" in allowed("HRMissionRoll", "mission")
    assert allowed("HRMoraleTest", "nationality")[-1] == "Word of Blake"
    assert allowed("HRMoraleTest", "skill") == ["", "Green", "Regular", "Veteran", "Elite"]
    assert "L-Bill" in allowed("HRExchangeFluctuation", "currency")


@pytest.mark.parametrize(
    ("names", "table", "rows"),
    [
        (c.MORALE_SKILLS, "morale", "skill"),
        (c.NATIONALITIES, "morale", "nationality"),
        (c.MORALE_SITUATIONS, "morale", "situation"),
        (c.MISSIONS, "missions", "mission"),
        (c.CURRENCIES, "currency", "currency"),
        (c.AVAILABILITIES, "acquisition", "availability"),
        (c.RETREAT_MODIFIERS, "retreat", "modifier"),
    ],
)
def test_the_listed_names_are_the_tables(names: tuple[str, ...], table: str, rows: str) -> None:
    assert names == load_tables().keys(table, rows)


def test_the_listed_kinds_terrains_and_jobs_are_the_rules() -> None:
    """HRRandomDamage kind, HRMapSheets terrain and HRRepairAttempt job list what the rules
    take: the kinds the damage tables cover, the map-sheet tables, a repair or a replacement."""
    from mekref.rules.house_rules.mapsheets import terrain_groups
    from mekref.rules.house_rules.random_damage import SUPPORTED_KINDS

    assert set(c.DAMAGE_KINDS) == {k.value for k in SUPPORTED_KINDS}
    assert terrain_groups() == c.TERRAINS
    shown = mekref("game", "commands", "--ruleset", "house_rules", "--type", "HRRepairAttempt")
    assert 'job: str  one of: "repair", "replace"' in shown.stdout
