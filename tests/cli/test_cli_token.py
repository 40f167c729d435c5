"""``mekref token`` as a user runs it: a database it cannot use is one line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from mekref.daemon.cli import main


def test_token_commands_report_a_bad_database_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("not a database " * 20, encoding="utf-8")
    for argv in (["list"], ["revoke", "abc"], ["create", "--referee"]):
        assert main(["token", *argv, "--db", str(not_a_db)]) == 5  # the store's exit code
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and "not a database" in err
    unreachable = "postgresql://referee:s3cret@127.0.0.1:1/x?connect_timeout=5"
    assert main(["token", "list", "--db", unreachable]) == 5
    err = capsys.readouterr().err
    assert err.startswith("mekref token: ") and "s3cret" not in err


def test_a_side_token_names_the_side_without_case(tmp_path: Path) -> None:
    """``token create --side davion`` on a campaign whose House is ``Davion`` issues Davion's
    token (names are matched without case, as ``game do`` matches them); a side the campaign
    does not have is refused with its sides (exit 2)."""
    import json
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from console_script import mekref

    out = tmp_path / "games"
    assert mekref("game", "demo", "--ruleset", "succession_wars", "--out", str(out)).returncode == 0
    db = str(out / "succession_wars-demo.db")
    made = mekref("token", "create", "--db", db, "--side", "davion", "--json")
    assert made.returncode == 0, made.stderr
    assert json.loads(made.stdout)["side_id"] == "Davion"
    listed = json.loads(mekref("token", "list", "--db", db, "--json").stdout)
    assert [t["side_id"] for t in listed] == ["Davion"]
    # --campaign takes the campaign's name (or a start of its id), as every command does.
    name = "The Succession Wars demo"
    named = mekref("token", "create", "--db", db, "--referee", "--campaign", name, "--json")
    listed_games = json.loads(mekref("game", "list", "--db", db, "--json").stdout)
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout)["campaign_id"] == listed_games[0]["id"]
    wrong = mekref("token", "create", "--db", db, "--side", "wobbly")
    assert wrong.returncode == 2
    assert "no side 'wobbly' (sides: Davion, Kurita, Liao, Marik, Steiner)" in wrong.stderr
