"""``mekref game``: a Succession Wars campaign run from JSON commands through the event log."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from succession_wars.sw_helpers import start_command

from mekref.daemon.cli import main
from mekref.daemon.store import open_store
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.game import SUCCESSION_WARS

# This rule set's message codec (names kept from the shared registry).
COMMANDS = SUCCESSION_WARS.commands


def _write(path: Path, command: object) -> Path:
    path.write_text(json.dumps(COMMANDS.to_json(command)), encoding="utf-8")  # type: ignore[arg-type]
    return path


def _hash(out: str) -> str:
    return [line for line in out.splitlines() if line.startswith("state-hash: ")][-1]


def test_a_succession_wars_campaign_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "sw.db")
    start = _write(tmp_path / "start.json", start_command())
    assert main(["game", "start", "--db", db, "--ruleset", "succession_wars",
                 "--name", "Fourth War", str(start)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    campaign = out.split()[1].rstrip(":")
    started = _hash(out)

    end = _write(tmp_path / "end.json", m.SWEndPhase(actor="Liao", house="Liao"))
    assert main(["game", "do", "--db", db, "--campaign", campaign, str(end)]) == 0
    after_one = _hash(capsys.readouterr().out)
    assert after_one != started

    assert main(["game", "state", "--db", db, "--campaign", campaign, "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert "state-hash: " + state["state_hash"] == after_one
    assert state["last_seq"] >= 2


def test_a_refused_command_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "sw.db")
    start = _write(tmp_path / "start.json", start_command())
    assert main(["game", "start", "--db", db, "--ruleset", "succession_wars",
                 "--name", "Fourth War", str(start)]) == 0  # fmt: skip
    campaign = capsys.readouterr().out.split()[1].rstrip(":")
    assert main(["game", "state", "--db", db, "--campaign", campaign, "--json"]) == 0
    before = json.loads(capsys.readouterr().out)
    # Davion does not play first: ending Davion's phase is not Davion's to do now.
    wrong = _write(tmp_path / "wrong.json", m.SWEndPhase(actor="Davion", house="Davion"))
    assert main(["game", "do", "--db", db, "--campaign", campaign, str(wrong)]) == 3
    assert "refused" in capsys.readouterr().err
    assert main(["game", "state", "--db", db, "--campaign", campaign, "--json"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert (after["last_seq"], after["state_hash"]) == (before["last_seq"], before["state_hash"])


def test_bad_json_is_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"type": "SWEndPhase", ', encoding="utf-8")
    code = main(["game", "do", "--db", str(tmp_path / "x.db"), "--campaign", "c", str(bad)])
    assert code == 2
    assert "not JSON" in capsys.readouterr().err


def test_commands_lists_the_rule_sets_types(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "commands", "--ruleset", "succession_wars"]) == 0
    out = capsys.readouterr().out
    assert "SWAttack" in out and "SWMoveJumpShip" in out


def test_bracketed_path_in_an_error_is_printed_verbatim(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # rich would read "[draft]" as a style tag and drop it, and crash on "[/draft]".
    for name in ("[draft] end.json", "[/draft] end.json"):
        missing = tmp_path / name
        code = main(["game", "do", "--db", str(tmp_path / "x.db"), "--campaign", "c", str(missing)])
        assert code == 2
        assert f"{missing}: cannot read" in capsys.readouterr().err


def test_a_store_that_cannot_be_opened_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("not a database " * 20, encoding="utf-8")
    for argv in (["game", "list"], ["report"], ["battle", "pending"]):
        assert main([*argv, "--db", str(not_a_db)]) == 5  # the store's exit code
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "not a database" in err
    unreachable = "postgresql://referee:s3cret@127.0.0.1:1/x?connect_timeout=5"
    assert main(["report", "--db", unreachable]) == 5
    err = capsys.readouterr().err
    assert "cannot open the store" in err and "s3cret" not in err


def test_a_campaign_that_is_not_there_is_one_line_that_names_the_way_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "sw.db")
    open_store(db).close()  # a store without that campaign (a missing store is exit 5)
    end = _write(tmp_path / "end.json", m.SWEndPhase(actor="Liao", house="Liao"))
    missing = "0b8a2f0e-4b8e-4d8e-9d5e-2f1d3c4b5a69"
    for campaign in ("nope", missing):
        for argv in (["state"], ["do"]):
            extra = [str(end)] if argv == ["do"] else []
            assert main(["game", *argv, "--db", db, "--campaign", campaign, *extra]) == 2
            err = capsys.readouterr().err
            assert len(err.strip().splitlines()) == 1 and "mekref game list" in err


def test_an_unsupported_database_url_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["game", "list", "--db", "mysql://x/y"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mekref game list: ") and "postgresql://" in err
