"""The tests' in-process ``mekref`` (tests/console_script.py) answers as the installed console
script does in a new process: the same exit code and the same words on each stream."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from console_script import mekref, mekref_fresh

from mekref.daemon.samples.ginestra import FOLDER


def _same(here: subprocess.CompletedProcess[str], fresh: subprocess.CompletedProcess[str]) -> None:
    assert (here.returncode, here.stdout, here.stderr) == (
        fresh.returncode,
        fresh.stdout,
        fresh.stderr,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ("--version",),
        ("status", "--db", "{db}", "--json"),
        ("campaign", "list", "--db", "{db}"),
        ("force", "list", "--db", "{db}", "--side", "loyalist", "--json"),
        ("report", "--db", "{db}"),
        ("report", "--db", "{missing}"),  # a refusal: exit code and message on stderr
        ("campaign", "new", "--db", "{db}"),  # a usage error: argparse's exit 2
        ("no-such-command",),
    ],
)
def test_in_process_and_fresh_process_say_the_same(tmp_path: Path, argv: tuple[str, ...]) -> None:
    db = tmp_path / "c.db"
    made = mekref_fresh("campaign", "new", "--db", str(db), "--name", "G", "--seed", "1",
                        "--side", "loyalist:L", "--side", "rebel:R")  # fmt: skip
    assert made.returncode == 0, made.stderr
    imported = mekref_fresh("force", "import", "--db", str(db), "--side", "loyalist",
                            str(FOLDER / "loyalist.mul"), "--unchecked", "--referee", "Ref",
                            "--reason", "x")  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    words = [w.format(db=db, missing=tmp_path / "none.db") for w in argv]
    _same(mekref(*words), mekref_fresh(*words))


def test_standard_input_and_the_working_folder_reach_the_command(tmp_path: Path) -> None:
    """``game start ... -`` reads its set-up command from stdin; a relative ``--db`` is the
    working folder's."""
    files = tmp_path / "files"
    assert (
        mekref_fresh("game", "demo", "--ruleset", "objectives", "--out", str(files)).returncode == 0
    )
    start = (files / "objectives-demo-start.json").read_text(encoding="utf-8")
    for run, folder in ((mekref, tmp_path / "here"), (mekref_fresh, tmp_path / "fresh")):
        folder.mkdir()
        made = run("game", "start", "--db", "c.db", "--ruleset", "objectives", "--name", "O",
                   "-", stdin=start, cwd=folder)  # fmt: skip
        assert made.returncode == 0, made.stderr
        assert (folder / "c.db").exists()
    listed = [
        [(c["name"], c["ruleset"]) for c in json.loads(run("game", "list", "--db", "c.db",
                                                              "--json", cwd=folder).stdout)]
        for run, folder in ((mekref, tmp_path / "here"), (mekref_fresh, tmp_path / "fresh"))
    ]  # fmt: skip
    assert listed == [[("O", "objectives")]] * 2
