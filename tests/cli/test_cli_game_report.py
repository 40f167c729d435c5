"""`mekref game report`: every rule set's campaign in words, through the console script."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from console_script import mekref, mekref_fresh

SCRIPTS = Path(__file__).parent / "data" / "scripts"

#: Lines each scripted campaign's report must hold (the scripts are tests/cli/data/scripts).
EXPECTED = {
    "dystopian_wars": [
        "1 battle fought",
        "brit: airbase-1, airbase-2, depot-1, fleet_base-1, oil_derrick-1, opium_traders-1, town-1",
        "unheld: scientists_eyrie",
        "13 RP to spend; 7 territories",
    ],
    "succession_wars": [
        "round 1, phase combat, Liao to act",
        "Davion (Ann): 49 C-Bills, technology 0, 7 Regions, 18 units (value 78), 5 Leaders, "
        "4 cards in hand",
    ],
    "objectives": [
        "claimed: red 1, blue 1",
        "hill: on table, claimed by red",
        "blue-inf (blue): carrying crate",
    ],
    "house_rules": ["Kai (kai): 32 XP, 0 hits, active, 0 battles"],
}


def _played(tmp_path: Path, name: str) -> str:
    db = str(tmp_path / "c.db")
    start = next((SCRIPTS / name).glob("start-*.json"))
    began = mekref("game", "start", "--db", db, "--ruleset", name, "--name", "g", str(start))
    assert began.returncode == 0, began.stderr
    for step in sorted((SCRIPTS / name).glob("0*.json")):
        done = mekref("game", "do", "--db", db, "--campaign", "g", str(step))
        assert done.returncode == 0, done.stderr
    return db


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_game_report_tells_the_campaign_in_words(tmp_path: Path, name: str) -> None:
    db = _played(tmp_path, name)
    shown = mekref("game", "report", "--db", db, "--campaign", "g")
    assert shown.returncode == 0, shown.stderr
    for line in EXPECTED[name]:
        assert line in shown.stdout, shown.stdout
    as_json = mekref("game", "report", "--db", db, "--campaign", "g", "--json")
    data = json.loads(as_json.stdout)
    assert data["ruleset"] == name and data["sections"]
    lines = [line for s in data["sections"] for line in s["lines"]]
    assert all(any(want in line for line in lines) for want in EXPECTED[name])


def test_a_tripwire_campaign_gets_its_books(tmp_path: Path) -> None:
    # TripWire's report is `mekref report`; `game report` gives the same for such a campaign.
    db = _played(tmp_path, "tripwire")
    books = mekref("report", "--db", db, "--campaign", "g", "--json")
    same = mekref("game", "report", "--db", db, "--campaign", "g", "--json")
    assert same.returncode == 0, same.stderr
    assert json.loads(same.stdout) == json.loads(books.stdout)


def test_a_tripwire_campaigns_side_report_is_reports_side_cut(tmp_path: Path) -> None:
    # `game report --side S` of a TripWire campaign is `mekref report --side S`.
    db = _played(tmp_path, "tripwire")
    books = mekref("report", "--db", db, "--campaign", "g", "--side", "a", "--json")
    same = mekref("game", "report", "--db", db, "--campaign", "g", "--side", "a", "--json")
    assert same.returncode == 0, same.stderr
    assert json.loads(same.stdout) == json.loads(books.stdout)


def test_a_side_of_the_house_rules_is_refused_they_have_none(tmp_path: Path) -> None:
    db = _played(tmp_path, "house_rules")
    refused = mekref("game", "report", "--db", db, "--campaign", "g", "--side", "red")
    assert refused.returncode == 2
    assert "no side 'red' in this campaign; sides: none (this rule set has no sides)" in (
        refused.stderr
    )


def test_a_side_is_matched_without_case_as_typed_words_are(tmp_path: Path) -> None:
    # `house=davion` is Davion in a command; so is `--side davion` when reading the campaign,
    # and the view is Davion's own (its cards face up), not a stranger's.
    db = _played(tmp_path, "succession_wars")
    shown = mekref_fresh("game", "report", "--db", db, "--campaign", "g", "--side", "davion")
    assert shown.returncode == 0, shown.stderr
    assert "as Davion sees it" in shown.stdout and "Davion (you): card " in shown.stdout
    state = mekref_fresh("game", "state", "--db", db, "--campaign", "g", "--side", "LIAO", "--json")
    assert state.returncode == 0, state.stderr
    data = json.loads(state.stdout)
    assert data["side"] == "Liao" and 0 not in data["state"]["houses"]["Liao"]["hand"]
    refused = mekref("game", "state", "--db", db, "--campaign", "g", "--side", "Lyran")
    assert refused.returncode == 2 and "no side 'Lyran' in this campaign" in refused.stderr
