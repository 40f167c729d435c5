"""Output a user meets playing through the console script, each in a fresh process of the
installed ``mekref``: ``engagement export`` keeps its warnings on stderr and says whose unit
each is about, the scenario sheet calls the ambush figures totals, the report's repair columns
say SP, a name several units share is a usage error (2), a refusal's article fits the rule
set's name, and ``token list`` names each token's campaign beside its id."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from console_script import mekref_fresh as mekref
from legal_sample import set_up_legal

from mekref.daemon.samples.ginestra import LEGAL

WIDE = {"COLUMNS": "240"}
WARNING = "mekref engagement export: warning: "


def _ok(*args: str, stdin: str | None = None) -> str:
    done = mekref(*args, env=WIDE, stdin=stdin)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def fought(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The legal sample after day 1: the rebels land in 1105 on the loyalists guarding it."""
    db = str(tmp_path_factory.mktemp("legal") / "g.db")
    set_up_legal(_ok, db, name="TripWire", seed="3065")
    _ok("orders", "submit", "--db", db, "--side", "rebel", "--day", "1",
        "--order", "bravo:orbital_insertion::1105")  # fmt: skip
    _ok("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
        "--order", "alpha:guard")  # fmt: skip
    _ok("turn", "resolve", "--db", db, "--day", "1")
    return db


def test_export_writes_files_on_stdout_and_warnings_on_stderr_naming_the_side(
    fought: str, tmp_path: Path
) -> None:
    done = mekref("engagement", "export", "--db", fought, "--side", "loyalist",
                  "-o", str(tmp_path), "--units-dir", str(LEGAL / "units"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert all(line.startswith("wrote ") for line in done.stdout.splitlines()), done.stdout
    assert "warning" not in done.stdout
    warnings = done.stderr.splitlines()
    assert warnings and all(line.startswith(WARNING) for line in warnings), done.stderr
    # The loyalist's own commander, and the rebels' (the scenario holds both sides' units):
    # each line says whose unit it is.
    assert f"{WARNING}Loyalists: Griffin GRF-1N: edge 1 (Veteran commander, L26" in done.stderr
    assert f"{WARNING}Rebels: Atlas AS7-D: edge 2 (Elite commander, L26" in done.stderr
    # The unit list alone: only the side's own units are warned about.
    alone = mekref("engagement", "export", "--db", fought, "--side", "loyalist", "--format",
                   "mul", "-o", str(tmp_path / "mul"),
                   "--units-dir", str(LEGAL / "units"))  # fmt: skip
    assert alone.returncode == 0, alone.stderr
    assert "Loyalists: Griffin" in alone.stderr and "Rebels:" not in alone.stderr


def test_the_sheet_calls_the_ambush_figures_totals(fought: str, tmp_path: Path) -> None:
    _ok("engagement", "export", "--db", fought, "--side", "loyalist", "--format", "mul",
        "-o", str(tmp_path), "--units-dir", str(LEGAL / "units"))  # fmt: skip
    sheet = (tmp_path / "day1-1105-1-loyalist.md").read_text(encoding="utf-8")
    # 2d6 8 + 4 guarding and 7 + 2 Skill Bonus: the report's dice table has the 8 and the 7.
    assert "- **Ambush:** none (totals with modifiers: Loyalists 12, Rebels 9)" in sheet
    assert "rolls:" not in sheet
    report = _ok("report", "--db", fought)
    assert "ambush roll, loyalist, day1-1105-1" in report


def test_the_reports_repair_columns_say_sp(fought: str) -> None:
    """The units table's repair costs are SP (the word under each column's name), where
    ``force list`` has armor and internal points."""
    lines = _ok("report", "--db", fought).splitlines()
    at = next(i for i, line in enumerate(lines) if "┃ armor" in line)
    names, units = ([c.strip() for c in lines[i].strip("┃").split("┃")] for i in (at, at + 1))
    assert names[4:8] == ["armor", "internal", "rearm", "total"], lines[at]
    assert units[:4] == ["id", "unit", "side", "fate"] and units[4:8] == ["SP"] * 4, lines[at + 1]


def test_a_name_several_units_share_is_a_usage_error_listing_them(fought: str) -> None:
    done = mekref("battle", "bv", "--db", fought, "--unit", "Jenner JR7-D", "--bv", "1000",
                  "--held-at-start", "--referee", "Ann", "--reason", "sheet")  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "'Jenner JR7-D' is the name of 8 units: " in done.stderr
    assert "(Jenner JR7-D, rebel)" in done.stderr and "give its id" in done.stderr
    unknown = mekref("battle", "bv", "--db", fought, "--unit", "Nope NP-1", "--bv", "1000",
                     "--held-at-start", "--referee", "Ann", "--reason", "sheet")  # fmt: skip
    assert unknown.returncode == 2, unknown.stderr


def test_token_list_names_the_campaign_beside_its_id(fought: str) -> None:
    _ok("token", "create", "--db", fought, "--referee", "--campaign", "TripWire")
    listed = json.loads(_ok("token", "list", "--db", fought, "--json"))
    (token,) = listed
    assert token["campaign_name"] == "TripWire"
    cid = token["campaign_id"]
    line = _ok("token", "list", "--db", fought).strip()
    assert f" {cid} (TripWire) " in line, line
    # The id printed is taken back.
    _ok("token", "create", "--db", fought, "--side", "rebel", "--campaign", cid)


def test_a_refusal_of_an_objectives_command_reads_an(tmp_path: Path) -> None:
    db = str(tmp_path / "o.db")
    example = _ok("game", "example", "--ruleset", "objectives")
    _ok("game", "start", "--db", db, "--ruleset", "objectives", "--name", "o", "-",
        stdin=example)  # fmt: skip
    done = mekref("game", "do", "--db", db, "--campaign", "o", "-",
                  stdin='{"type": "OBJClaim", "actor": "red"}')  # fmt: skip
    assert done.returncode == 2
    assert "stdin: not an objectives command: OBJClaim needs" in done.stderr, done.stderr
