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
