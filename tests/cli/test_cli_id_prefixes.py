"""Every unit id the report prints is accepted back (issue 27, item 9): the 8 characters of
``mekref report`` name the unit in ``battle bv`` (and every other command that takes a unit or
a person), and a prefix that fits several is refused with the candidates."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from console_script import mekref

OLD = Path(__file__).parents[1] / "fixtures" / "stores" / "v1-7490af6" / "ginestra.db"
UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
WORD = ("--referee", "Ann", "--reason", "from the unit selector")


def _store(tmp_path: Path) -> str:
    db = tmp_path / "ginestra.db"
    shutil.copyfile(OLD, db)
    return str(db)


def test_the_reports_short_id_names_the_unit(tmp_path: Path) -> None:
    db = _store(tmp_path)
    shown = mekref("report", "--db", db)
    assert "│ 4ef1dd16 │ Griffin GRF-1N" in shown.stdout  # the id as the report prints it
    done = mekref(
        "battle", "bv", "--db", db, "--unit", "4ef1dd16", "--bv", "1272", "--held-at-start", *WORD
    )
    assert done.returncode == 0, done.stderr
    assert "unit 4ef1dd16-f972-5ce6-83f1-bc201bc33984 (Griffin GRF-1N, loyalist): BV 1272" in (
        done.stdout
    )
    units = {u["id"]: u for u in json.loads(mekref("report", "--db", db, "--json").stdout)["units"]}
    assert units["4ef1dd16-f972-5ce6-83f1-bc201bc33984"]["bv"] == 1272


def test_a_prefix_of_several_ids_is_refused_with_the_candidates(tmp_path: Path) -> None:
    db = _store(tmp_path)
    refused = mekref(
        "battle", "bv", "--db", db, "--unit", "6", "--bv", "100", "--held-at-start", *WORD
    )
    assert refused.returncode != 0
    (line,) = [x for x in refused.stderr.splitlines() if x.startswith("mekref battle bv:")]
    assert "'6' begins the id of 2 units" in line and "give more of the id" in line
    assert "6168bd81" in line and "Shadow Hawk SHD-2H" in line and "6ac19cb5" in line


def test_a_battle_is_named_by_a_prefix_of_its_id_in_every_battle_command(tmp_path: Path) -> None:
    """The report prints ``battle-dd489c3039f5``: ``dd48`` or ``battle-dd4`` names it."""
    db = _store(tmp_path)
    battles = json.loads(mekref("report", "--db", db, "--json").stdout)["battles"]
    assert [b["id"] for b in battles] == ["battle-dd489c3039f5"]
    check = mekref("battle", "retreat-check", "--db", db, "--battle", "dd48", "--side",
                   "loyalist", "--json")  # fmt: skip
    assert json.loads(check.stdout)["battle_id"] == "battle-dd489c3039f5", check.stderr
    record = tmp_path / "loyalist.mul"
    done = mekref("battle", "export-record", "--db", db, "--battle", "battle-dd4", "--side",
                  "loyalist", "-o", str(record), "--units-dir", str(UNITS))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "<entity" in record.read_text(encoding="utf-8")
    control = mekref("battle", "control", "--db", db, "--battle", "DD489C", "--side", "rebel")
    assert "no battle" not in control.stderr  # found: refused only because it is resolved
    assert "battle-dd489c3039f5" in control.stderr, control.stderr


def test_units_and_people_by_name_and_an_ambiguous_name_listed(tmp_path: Path) -> None:
    db = _store(tmp_path)
    done = mekref("battle", "bv", "--db", db, "--unit", "griffin grf-1n", "--bv", "1272",
                  "--held-at-start", *WORD)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "unit 4ef1dd16-f972-5ce6-83f1-bc201bc33984 (Griffin GRF-1N, loyalist): BV 1272" in (
        done.stdout
    )
    two = mekref("battle", "bv", "--db", db, "--unit", "Shadow Hawk SHD-2H", "--bv", "1000",
                 "--held-at-start", *WORD)  # fmt: skip
    assert two.returncode != 0
    assert "'Shadow Hawk SHD-2H' is the name of 2 units: 6168bd81" in two.stderr
    assert "bce5c7b2" in two.stderr and "give its id (the report prints it)" in two.stderr
    # A person by name: Giulia Conti is found (the heal is refused for her having no hits).
    heal = mekref("spend", "heal", "--db", db, "--person", "giulia conti", "--pool", "x")
    assert "not_injured" in heal.stderr, heal.stderr


def test_a_fate_set_by_the_units_name_says_its_whole_id(tmp_path: Path) -> None:
    db = _store(tmp_path)
    done = mekref("battle", "fate", "--db", db, "--unit", "jenner jr7-d", "--fate",
                  "truly_destroyed", *WORD)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "unit b4e8c793-7fd3-5d03-b899-73eadab5ff4f: truly_destroyed" in done.stdout
