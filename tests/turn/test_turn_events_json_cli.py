"""``--json`` on the commands that change a campaign (issue 32, item 4: "--json on every command
that prints data, including those that change state"): stdout holds one JSON document, the
events the command recorded read back from the store, and the words go to stderr. docs/cli.md,
"JSON for scripts"."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

from console_script import mekref
from ginestra_cli import day_zero

from mekref.daemon.cli import build_parser
from mekref.daemon.cli_events_json import WITHOUT_EVENTS
from mekref.daemon.samples.ginestra import LEGAL, LEGAL_MILITIA

REPLAY = Path(__file__).parents[2] / "daemon" / "samples" / "replay"


def _document(*args: str, code: int = 0) -> dict[str, Any]:
    done = mekref(*args, "--json")
    assert done.returncode == code, done.stderr
    document: dict[str, Any] = json.loads(done.stdout)  # the whole of stdout is the document
    assert document["exit_code"] == code
    return document


def _types(campaign: dict[str, Any]) -> list[str]:
    return [e["event"]["type"] for e in campaign["events"]]


def test_every_command_with_a_store_has_json_unless_it_records_nothing() -> None:
    leaves: dict[str, set[str]] = {}

    def walk(parser: argparse.ArgumentParser, path: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, (*path, name))
                return
        leaves[" ".join(path)] = {o for a in parser._actions for o in a.option_strings}

    walk(build_parser(), ())
    assert set(leaves) >= WITHOUT_EVENTS
    missing = [n for n, o in leaves.items() if "--db" in o and "--json" not in o]
    assert sorted(missing) == sorted(WITHOUT_EVENTS)
    assert {"battle ingest", "force import", "turn resolve", "orders submit"} <= {
        n for n, o in leaves.items() if "--json" in o
    }


def test_force_import_json_lists_the_new_units(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    made = mekref("campaign", "new", "--db", db, "--name", "G", "--seed", "1",
                  "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    assert made.returncode == 0, made.stderr
    done = mekref("force", "import", "--db", db, "--side", "loyalist", str(LEGAL / "loyalist.mul"),
                  "--units-dir", str(LEGAL / "units"), "--bv-table", str(LEGAL / "Units.txt"),
                  "--militia", LEGAL_MILITIA["loyalist"], "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "force construction" in done.stderr  # the words, on stderr
    (campaign,) = json.loads(done.stdout)["campaigns"]
    assert _types(campaign)[0] == "ForceImported"
    companies = campaign["events"][0]["event"]["force"]["companies"]
    units = [u for c in companies for lance in c["lances"] for u in lance["units"]]
    assert len(units) > 12 and all(u["unit_id"] for u in units)
    state = json.loads(mekref("game", "state", "--db", db, "--json").stdout)
    assert (campaign["last_seq"], campaign["state_hash"]) == (
        state["last_seq"],
        state["state_hash"],
    )


def test_orders_and_the_day_as_json_refusals_included(tmp_path: Path) -> None:
    db = day_zero(tmp_path)
    # One order stands, one is refused (T-O3): exit 3, and the document says both.
    mixed = _document("orders", "submit", "--db", db, "--side", "loyalist", "--day", "1",
                      "--order", "alpha:guard", "--order", "nobody:guard", code=3)  # fmt: skip
    (campaign,) = mixed["campaigns"]
    (event,) = campaign["events"]
    assert event["event"]["type"] == "OrdersSubmitted"
    assert [o["formation_id"] for o in event["event"]["orders"]] == ["alpha"]
    assert [r["formation_id"] for r in event["event"]["refused"]] == ["nobody"]
    day = _document("turn", "resolve", "--db", db, "--day", "1")
    (campaign,) = day["campaigns"]
    assert campaign["first_seq"] == mixed["campaigns"][0]["last_seq"] + 1
    assert _types(campaign)[-1] == "DayEnded"
    assert campaign["events"][-1]["outcome"] == "DayEnded: day=1"


def test_battle_ingest_json_is_the_battle_file_recorded(tmp_path: Path) -> None:
    (tmp_path / "setup").mkdir()
    shutil.copy(REPLAY / "setup.json", tmp_path / "setup")
    db = str(tmp_path / "r.db")
    units = ("--units-dir", str(REPLAY / "units"))
    assert mekref("replay", str(tmp_path / "setup"), "--db", db, *units).returncode == 0
    done = mekref("battle", "ingest", "--db", db, str(REPLAY / "01-bob.mul"), *units, "--json")
    assert done.returncode == 0, done.stderr
    assert "waits: files from" in done.stderr
    # The carrier's nine battle taxis are one entry with their count (issue 32: output a
    # person reads once).
    assert "not in the campaign: Nekohono'o (SCL), Battle Taxi NL-42 (x9), Condottiere" in (
        done.stderr
    )
    (campaign,) = json.loads(done.stdout)["campaigns"]
    assert _types(campaign) == ["BattleReportReceived"]
    again = mekref("battle", "ingest", "--db", db, str(REPLAY / "01-bob.mul"), *units, "--json")
    assert json.loads(again.stdout)["campaigns"] == []  # the same bytes: applied once
