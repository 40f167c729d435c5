"""``mekref battle ingest`` takes a file through the watcher's pipeline: the same size cap,
the same quarantine and the same reasons, checked against a real ``mekref serve``."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from console_script import MEKREF, mekref

FIXTURES = Path(__file__).parents[1] / "fixtures" / "megamek"
RECORD = (FIXTURES / "bob.mul").read_bytes()


def _bad_files(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    big = folder / "big.mul"
    # A real record padded with a 40 MB comment: over the 32 MiB default cap.
    big.write_bytes(RECORD[:-20] + b"<!--" + b"x" * (40 << 20) + b"-->" + RECORD[-20:])
    cut = folder / "cut.mul"
    cut.write_bytes(RECORD[: len(RECORD) // 2])  # MegaMek stopped half-way through
    return {"big.mul": big, "cut.mul": cut}


def _new_store(db: Path) -> None:
    made = mekref("campaign", "new", "--db", str(db), "--name", "A", "--seed", "1",
                  "--side", "red:Red", "--side", "blue:Blue")  # fmt: skip
    assert made.returncode == 0, made.stderr


def _quarantined(db: Path) -> dict[str, str]:
    shown = mekref("status", "--db", str(db), "--json")
    assert shown.returncode == 0, shown.stderr
    return {Path(q["path"]).name: q["reason"] for q in json.loads(shown.stdout)["quarantined"]}


def _without_paths(reason: str, name: str) -> str:
    return reason.split(f"{name}", 1)[1]


def test_the_cli_quarantines_like_the_watcher(tmp_path: Path) -> None:
    # The command line.
    by_hand = tmp_path / "hand"
    files = _bad_files(by_hand / "in")
    _new_store(by_hand / "c.db")
    for path in files.values():
        done = mekref("battle", "ingest", "--db", str(by_hand / "c.db"), str(path))
        assert done.returncode == 3, done.stderr
        assert f"mekref battle ingest: {path}: quarantined: " in done.stderr
    cli = _quarantined(by_hand / "c.db")
    assert "over the 33554432 byte limit" in cli["big.mul"]
    assert "looks truncated or half-written" in cli["cut.mul"]
    quarantine = by_hand / "quarantine"
    assert not (quarantine / "big.mul").exists()  # too large to copy: the reason only
    assert "byte limit" in (quarantine / "big.mul.reason.txt").read_text()
    assert (quarantine / "cut.mul").read_bytes() == files["cut.mul"].read_bytes()
    # Nothing was applied and the originals are untouched.
    assert (
        json.loads(mekref("status", "--db", str(by_hand / "c.db"), "--json").stdout)["ingested"]
        == []
    )
    assert files["cut.mul"].read_bytes() == RECORD[: len(RECORD) // 2]

    # The watcher, on the same bytes.
    watched = tmp_path / "watched"
    _bad_files(watched / "in")
    _new_store(watched / "c.db")
    serve = subprocess.Popen(
        [
            str(MEKREF),
            "serve",
            "--db",
            str(watched / "c.db"),
            "--watch",
            str(watched / "in"),
            "--log-format",
            "json",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while len(_quarantined(watched / "c.db")) < 2:
            assert time.monotonic() < deadline, "the watcher never quarantined both files"
            time.sleep(0.3)
    finally:
        serve.terminate()
        serve.wait(timeout=30)
    daemon = _quarantined(watched / "c.db")
    for name in files:
        assert _without_paths(daemon[name], name) == _without_paths(cli[name], name), name


def test_a_rerun_with_control_finishes_what_a_run_without_it_left(tmp_path: Path) -> None:
    """An ingest that applied the files but not the control (left out, refused or stopped)
    is finished by running it again: the rerun finds the files applied and still sets the
    control, instead of saying there is nothing to do."""
    from battle import test_battle_end_to_end as e2e

    db = str(tmp_path / "c.db")

    def cli(*argv: str) -> tuple[int, str, str]:
        done = mekref(*argv)
        return done.returncode, done.stdout, done.stderr

    files = e2e.setup_campaign(cli, tmp_path, db)
    units = ("--units-dir", str(e2e.UNITS_DIR))
    for side in ("red", "blue"):
        code, out, err = cli("battle", "ingest", "--db", db, str(files[side]), *units)
        assert code == 0, err
    assert "resolved" not in out  # no one has said who holds the field
    code, out, err = cli("battle", "ingest", "--db", db, str(files["red"]), "--control", "red",
                         *units)  # fmt: skip
    assert code == 0, err
    assert "already ingested" in out
    assert "resolved, red holds the field" in out


def test_a_copy_saved_again_opens_no_second_battle(tmp_path: Path) -> None:
    """Ruling BR-13: the same report in other bytes (here CRLF line ends, as an editor on
    Windows saves it) is quarantined as a copy of the applied file, rather than opening a
    second battle for units the first one already settled."""
    from battle import test_battle_end_to_end as e2e

    db = str(tmp_path / "c.db")

    def cli(*argv: str) -> tuple[int, str, str]:
        done = mekref(*argv)
        return done.returncode, done.stdout, done.stderr

    files = e2e.setup_campaign(cli, tmp_path, db)
    units = ("--units-dir", str(e2e.UNITS_DIR))
    assert (
        cli("battle", "ingest", "--db", db, str(files["red"]), "--control", "red", *units)[0] == 0
    )
    code, out, err = cli("battle", "ingest", "--db", db, str(files["blue"]), *units)
    assert code == 0 and "resolved" in out, err
    resaved = tmp_path / "Red (copy).mul"
    resaved.write_bytes(files["red"].read_bytes().replace(b"\n", b"\r\n"))
    code, out, err = cli("battle", "ingest", "--db", db, str(resaved), *units)
    assert code != 0
    assert "quarantined" in err and "a copy saved again, not a new battle" in err
    status = json.loads(mekref("status", "--db", db, "--json").stdout)
    assert len({f["battle_id"] for f in status["ingested"]}) == 1
    assert cli("battle", "pending", "--db", db)[1].strip() == "no battle is waiting"
