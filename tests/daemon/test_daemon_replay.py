"""``mekref replay`` on the bundled replay set: same folder, same seed, same state hash."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from replay_sample import expected_files

from mekref.daemon.samples.replay import FOLDER as SAMPLE

REPO_SAMPLE = Path(__file__).parents[2] / "daemon" / "samples" / "replay"


def replay(folder: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mekref.daemon.cli", "replay", str(folder), *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )


def last_hash(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 0, out.stderr
    last = out.stdout.rstrip("\n").splitlines()[-1]
    assert last.startswith("state-hash: "), out.stdout
    digest = last.removeprefix("state-hash: ")
    assert len(digest) == 64
    return digest


def test_the_committed_sample_is_what_the_builder_writes() -> None:
    for name, data in expected_files().items():
        assert (REPO_SAMPLE / name).read_bytes() == data, f"regenerate {name} (replay_sample.py)"


def test_two_replays_give_the_same_hash_wherever_the_folder_is(tmp_path: Path) -> None:
    first = last_hash(replay(SAMPLE, "--ruleset", "tripwire", "--seed", "7"))
    moved = tmp_path / "elsewhere"
    shutil.copytree(SAMPLE, moved, ignore=shutil.ignore_patterns("__*"))
    second = last_hash(replay(moved, "--ruleset", "tripwire", "--seed", "7"))
    assert first == second


def test_replay_keeps_the_database_when_asked(tmp_path: Path) -> None:
    db = tmp_path / "replay.db"
    out = replay(SAMPLE, "--ruleset", "tripwire", "--seed", "7", "--db", str(db))
    last_hash(out)
    assert db.exists()
    again = replay(SAMPLE, "--db", str(db))
    assert again.returncode == 2 and "new database" in again.stderr


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        (None, "cannot read"),
        ("not json", "not JSON"),
        ('{"format": 1, "commands": []}', "CreateCampaign"),
        ('{"format": 1, "commands": [{"type": "Nope"}]}', "unknown command type"),
    ],
)
def test_a_folder_that_cannot_be_replayed_says_why(
    tmp_path: Path, setup: str | None, words: str
) -> None:
    if setup is not None:
        (tmp_path / "setup.json").write_text(setup)
    out = replay(tmp_path)
    assert out.returncode == 2
    assert words in out.stderr


def test_a_bracketed_path_is_named_verbatim(tmp_path: Path) -> None:
    # rich would read "[/old]" as a closing style tag and crash instead of naming the file.
    db = tmp_path / "[" / "old] replay.db"
    db.parent.mkdir()
    db.write_bytes(b"")
    out = replay(SAMPLE, "--db", str(db))
    assert out.returncode == 2 and f"{db} exists" in out.stderr


def _without_designs(folder: Path) -> Path:
    """A copy of the sample whose set-up records no design (as imported without a units
    folder): the ``RecordDesigns`` commands are left out."""
    shutil.copytree(SAMPLE, folder, ignore=shutil.ignore_patterns("__*", "units"))
    setup = json.loads((folder / "setup.json").read_text(encoding="utf-8"))
    setup["commands"] = [c for c in setup["commands"] if c["type"] != "RecordDesigns"]
    (folder / "setup.json").write_text(json.dumps(setup), encoding="utf-8")
    return folder


def test_the_pipeline_warns_naming_each_unit_without_a_design(tmp_path: Path) -> None:
    """Issue 11: units imported without designs make the daemon's pipeline (the one 'mekref
    serve' runs) log a warning naming every unit whose damage it cannot price."""
    bare = _without_designs(tmp_path / "bare")
    out = replay(bare, "--ruleset", "tripwire", "--seed", "7", "--log-level", "warning")
    last_hash(out)
    lines = [line for line in out.stderr.splitlines() if "file.unpriced_unit" in line]
    assert any("Atlas III AS7-D2" in line and "no design known" in line for line in lines)
    assert any("Huscarl HSCL-1-OA" in line for line in lines)


def test_the_sample_records_every_units_design_so_nothing_is_unpriced() -> None:
    """Issue 32: the bundled set records the design of each of its 14 units (the files in
    units/), so replaying it warns of no unit without one."""
    setup = json.loads((SAMPLE / "setup.json").read_text(encoding="utf-8"))
    recorded = [u for c in setup["commands"] if c["type"] == "RecordDesigns" for u in c["units"]]
    assert len(recorded) == 14
    out = replay(SAMPLE, "--ruleset", "tripwire", "--seed", "7", "--log-level", "warning")
    last_hash(out)
    assert "file.unpriced_unit" not in out.stderr
    assert "no design known" not in out.stderr
