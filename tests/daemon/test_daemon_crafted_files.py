"""Crafted battle files (tests/crafted_files.py) through every door: ``mekref inspect``,
``mekref battle ingest`` and the watched folder of ``mekref serve``.

Each is refused or quarantined with a one-line reason, at a cost bounded relative to the real
savegame read through the same door in the same run (no absolute time: the machine may be
slow or busy), within a few hundred megabytes, and the daemon goes on with the next file and
stops on the first SIGTERM. Before the work budgets, the fan-out file took over a minute, the
gzip bomb 2.4 GB and a traceback.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from daemon_helpers import Serve, battle_bytes, drop, ingested, new_campaign, sha, wait_until

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from console_script import Measured, mekref_measured
from crafted_files import Crafted, corpus
from savegame_variants import FIXTURE

pytestmark = pytest.mark.skipif(not hasattr(os, "wait4"), reason="measures children by wait4")

CASES = corpus()
#: A crafted file may cost this many times the real savegame's read through the same door.
#: Both runs start Python and mekref, which dominates a refusal: the bound catches a read
#: that runs away (seconds to minutes), not a few milliseconds.
CPU_RATIO = 3.0
#: The most memory refusing a crafted file may take (the bomb took 2.4 GB).
PEAK_MIB = 300.0


@pytest.fixture(scope="module")
def real_inspect() -> Measured:
    """The real savegame read through ``mekref inspect`` (the cheaper of two runs)."""
    runs = [mekref_measured("inspect", str(FIXTURE)) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    return min(runs, key=lambda run: run.cpu_seconds)


@pytest.fixture(scope="module")
def real_ingest(tmp_path_factory: pytest.TempPathFactory) -> Measured:
    """The real savegame through ``mekref battle ingest`` (the cheaper of two runs): the same
    door as the crafted file's ingest, whose start-up (the store, the campaign, the rules)
    costs more than ``inspect``'s. Its answer does not matter here (the campaign fields none
    of its units), only what reading it costs."""
    folder = tmp_path_factory.mktemp("real-ingest")
    runs = []
    for n in range(2):
        db = str(folder / f"r{n}.db")
        new_campaign(db)
        runs.append(mekref_measured("battle", "ingest", "--db", db, str(FIXTURE)))
    for run in runs:
        assert "Traceback" not in run.stderr, run.stderr
    return min(runs, key=lambda run: run.cpu_seconds)


def _one_line(stderr: str, prefix: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(prefix), stderr
    return lines[0]


def _within_bounds(
    run: Measured, real: Measured, case: Crafted, again: Callable[[], Measured]
) -> None:
    """``run`` within the bounds; over the CPU bound, the cheaper of it and one more run
    (``again``), as the real savegame's figure is the cheaper of two: a busy machine can
    slow one run past the bound (3.6x was seen in CI, 1.9-2.6x alone), a read that runs away
    is over it every time."""
    if run.cpu_seconds > CPU_RATIO * real.cpu_seconds:
        run = min(run, again(), key=lambda measured: measured.cpu_seconds)
    assert run.cpu_seconds <= CPU_RATIO * real.cpu_seconds, (
        f"{case.name}: {run.cpu_seconds:.2f}s of CPU, the real savegame {real.cpu_seconds:.2f}s"
    )
    if run.peak_mib is not None:
        assert run.peak_mib < PEAK_MIB, f"{case.name}: peak {run.peak_mib:.0f} MiB"


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_crafted_file_is_refused_in_one_line_by_inspect_and_battle_ingest(
    tmp_path: Path, case: Crafted, real_inspect: Measured, real_ingest: Measured
) -> None:
    path = tmp_path / case.name
    path.write_bytes(case.data)
    shown = mekref_measured("inspect", str(path))
    assert shown.returncode == (4 if case.refused else 3), shown.stderr
    line = _one_line(shown.stderr, f"mekref inspect: {path}")
    assert case.words in line
    _within_bounds(shown, real_inspect, case, lambda: mekref_measured("inspect", str(path)))

    db = str(tmp_path / "c.db")
    new_campaign(db)
    taken = mekref_measured("battle", "ingest", "--db", db, str(path))
    assert taken.returncode != 0, taken.stdout
    line = _one_line(taken.stderr, f"mekref battle ingest: {path}: quarantined: ")
    assert case.words in line

    def ingest_again() -> Measured:
        # A new store: a file already taken would be answered from the store, not read.
        again_db = str(tmp_path / "again.db")
        new_campaign(again_db)
        return mekref_measured("battle", "ingest", "--db", again_db, str(path))

    _within_bounds(taken, real_ingest, case, ingest_again)


def _applied(db: str, cid: str, data: bytes) -> bool:
    return sha(data) in {f.sha256 for f in ingested(db, cid)}


def test_serve_quarantines_every_crafted_file_and_goes_on(tmp_path: Path) -> None:
    db = str(tmp_path / "c.db")
    cid = new_campaign(db)
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    # The files are read as in production; only the rules' answer to a good file is the test
    # stand-in's (each credits 1 WP), so that two good files are two results.
    serve = Serve(db, [inbox], tmp_path / "quarantine", tmp_path / "serve.log")
    serve.start()
    try:
        # What one good file costs this daemon on this machine, now.
        first = battle_bytes(1)
        began = time.monotonic()
        drop(inbox, "first.mul", first)
        wait_until(lambda: _applied(db, cid, first), "the first good file applied")
        one_file = time.monotonic() - began

        began = time.monotonic()
        for case in CASES:
            drop(inbox, case.name, case.data)
        after = battle_bytes(2)
        drop(inbox, "after.mul", after)
        wait_until(lambda: _applied(db, cid, after), "the good file after the crafted ones")
        quarantined = wait_until(
            lambda: (
                (found := serve.events("file.quarantined")) and len(found) >= len(CASES) and found
            ),
            "every crafted file quarantined",
        )
        elapsed = time.monotonic() - began
        # Each crafted file may cost a few times a good one (settling, reading, quarantine);
        # 4x passed on a quiet machine, 6x was seen on a loaded one. Before the budgets one
        # file alone held the folder for over a minute.
        assert elapsed <= 12 * (len(CASES) + 1) * one_file, (elapsed, one_file)

        reasons = {Path(event["path"]).name: event["reason"] for event in quarantined}
        for case in CASES:
            assert case.words in reasons[case.name], (case.name, reasons[case.name])
            assert "\n" not in reasons[case.name]
        log = (tmp_path / "serve.log").read_text(errors="replace")
        assert "Traceback" not in log
    finally:
        assert serve.stop() == 0  # the first SIGTERM stops it


def test_a_very_large_real_game_is_read_when_the_referee_raises_the_cap(tmp_path: Path) -> None:
    """The element limit that stops an element bomb also stops a battalion's real battle
    (about 50 units fit the defaults): the refusal says what to do, and the referee's
    ``--max-file-mb`` raises the unzipped cap and the element limit with the file cap."""
    import gzip

    from lxml import etree
    from savegame_variants import ended_game

    root = etree.fromstring(ended_game())
    reports = root.find("gameReports")
    assert reports is not None
    for n in range(260_000):  # a long game's reports: elements the reader never looks at
        etree.SubElement(reports, "string").text = f"r{n}"
    big = tmp_path / "battalion.sav.gz"
    big.write_bytes(gzip.compress(etree.tostring(root), mtime=0))
    refused = mekref_measured("inspect", str(big))
    assert refused.returncode == 4, refused.stderr
    assert "over the 250,000 limit" in refused.stderr and "--max-file-mb" in refused.stderr
    read = mekref_measured("inspect", "--max-file-mb", "64", str(big))
    assert read.returncode == 0, read.stderr
    assert "Stooping Hawk" in read.stdout


MUL_CASES = [case for case in CASES if case.name.endswith(".mul")]


@pytest.mark.parametrize("case", MUL_CASES, ids=[case.name for case in MUL_CASES])
def test_a_crafted_unit_list_is_refused_in_one_line_by_force_import(
    tmp_path: Path, case: Crafted, real_inspect: Measured, real_ingest: Measured
) -> None:
    """The fifth door (issue 33): a side's force comes in as a unit list, read as safely."""
    path = tmp_path / case.name
    path.write_bytes(case.data)
    db = str(tmp_path / "c.db")
    new_campaign(db)
    taken = mekref_measured("force", "import", "--db", db, "--side", "b", str(path))
    assert taken.returncode != 0, taken.stdout
    assert "Traceback" not in taken.stderr, taken.stderr
    lines = [line for line in taken.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and case.words in lines[0], taken.stderr

    def import_again() -> Measured:
        return mekref_measured("force", "import", "--db", db, "--side", "b", str(path))

    _within_bounds(taken, real_inspect, case, import_again)
