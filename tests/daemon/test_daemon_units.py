"""The daemon's parts in-process: settings, readiness, quarantine naming, the pipeline."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import fake_battle_input
import pytest
from daemon_helpers import OTHER_FORCE, battle_bytes, new_campaign, sha

from mekref.daemon.config import ConfigError, build_config, load_toml
from mekref.daemon.ingest import Outcome, Pipeline
from mekref.daemon.store import open_store
from mekref.daemon.store.open import redact
from mekref.daemon.watch.quarantine import Reason, quarantine_copy
from mekref.daemon.watch.readiness import PendingFiles
from mekref.daemon.watch.scan import is_battle_file, scan_folders


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_config_file_paths_are_relative_to_the_file(tmp_path: Path) -> None:
    (tmp_path / "inbox").mkdir()
    config = tmp_path / "mekref.toml"
    config.write_text('db = "c.db"\nwatch = ["inbox"]\npoll = 2\nrecursive = true\n')
    built = build_config(config, {"settle": 0.5})
    assert built.db == str(tmp_path / "c.db")
    assert built.watch == (tmp_path / "inbox",)
    assert (built.poll, built.recursive, built.settle) == (2.0, True, 0.5)
    assert built.quarantine_dir() == tmp_path / "quarantine"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("colour = 1\n", "unknown setting"),
        ("poll = 'fast'\n", "number of seconds"),
        ("watch = [", "not valid TOML"),
    ],
)
def test_bad_config_says_which_setting(tmp_path: Path, text: str, words: str) -> None:
    config = tmp_path / "mekref.toml"
    config.write_text(text)
    with pytest.raises(ConfigError, match=words):
        load_toml(config)


def test_serve_without_a_folder_says_what_to_do() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.cli", "serve", "--db", "/nonexistent/x.db"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "--watch" in out.stderr


def test_status_of_a_missing_database_is_an_error(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.cli", "status", "--db", str(tmp_path / "no.db")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 5 and "--db" in out.stderr
    assert not (tmp_path / "no.db").exists()


def test_events_for_one_path_merge_and_wait_for_the_debounce(tmp_path: Path) -> None:
    clock = Clock()
    pending = PendingFiles(debounce=0.1, settle=1.0, clock=clock)
    path = tmp_path / "a.mul"
    path.write_bytes(b"x")
    for _ in range(5):
        pending.notify(path, complete=True)
    assert len(pending) == 1
    assert pending.take(0) is None  # not yet: the debounce runs
    clock.now += 0.2
    ready = pending.take(0)
    assert ready is not None and ready.path == path and not ready.settled
    assert pending.take(0) is None


def test_a_closed_file_is_taken_at_once_by_default(tmp_path: Path) -> None:
    # No fixed debounce: a close-after-write says the writer is done (the latency goal).
    clock = Clock()
    pending = PendingFiles(settle=1.0, clock=clock)
    path = tmp_path / "a.mul"
    path.write_bytes(b"x")
    pending.notify(path, complete=False)  # created, written...
    pending.notify(path, complete=True)  # ...closed: the last event wins
    ready = pending.take(0)
    assert ready is not None and ready.path == path
    assert not ready.settled  # a half-written file is retried, not quarantined
    assert len(pending) == 0


def test_an_in_place_writer_is_taken_once_stable(tmp_path: Path) -> None:
    clock = Clock()
    pending = PendingFiles(settle=1.0, clock=clock)
    path = tmp_path / "b.mul"
    path.write_bytes(b"x")
    pending.notify(path, complete=False)
    clock.now += 1.1
    path.write_bytes(b"xy")  # still growing at the first look
    assert pending.take(0) is None
    clock.now += 1.1
    ready = pending.take(0)
    assert ready is not None and ready.settled


def test_files_are_taken_once_each_in_the_order_they_became_due(tmp_path: Path) -> None:
    clock = Clock()
    pending = PendingFiles(settle=1.0, clock=clock)
    paths = [tmp_path / f"{n}.mul" for n in range(50)]
    for path in paths:
        path.write_bytes(b"x")
        pending.notify(path, complete=False)  # created: due once it settles
    for path in reversed(paths[:10]):
        pending.notify(path, complete=True)  # closed, last first: due now, replacing the above
    taken = []
    while (ready := pending.take(0)) is not None:
        taken.append(ready.path)
    assert taken == list(reversed(paths[:10]))
    clock.now += 1.1
    while (ready := pending.take(0)) is not None:
        taken.append(ready.path)
    assert taken == [*reversed(paths[:10]), *paths[10:]] and len(pending) == 0


def test_a_file_gone_before_it_is_ready_is_dropped(tmp_path: Path) -> None:
    clock = Clock()
    pending = PendingFiles(clock=clock)
    path = tmp_path / "c.mul"
    path.write_bytes(b"x")
    pending.notify(path, complete=True)
    path.unlink()
    clock.now += 5
    assert pending.take(0) is None and len(pending) == 0


def test_scan_takes_old_files_at_once(tmp_path: Path) -> None:
    pending = PendingFiles(settle=1.0)
    path = tmp_path / "old.mul"
    path.write_bytes(b"x")
    os.utime(path, (1_000_000, 1_000_000))
    pending.found(path)
    ready = pending.take(0)
    assert ready is not None and ready.settled


def test_which_names_are_battle_files() -> None:
    assert is_battle_file("Bob.MUL") and is_battle_file("/x/y/a.mul")
    assert not is_battle_file(".a.mul") and not is_battle_file("a.mul.part")


def test_quarantine_names_never_overwrite_another_file(tmp_path: Path) -> None:
    reason = Reason("bad", "x.mul:1:1", "fix it")
    when = datetime.now(UTC)
    first = quarantine_copy(
        tmp_path, "x.mul", "a" * 64, reason, data=b"1", original="/in/x.mul", when=when
    )
    again = quarantine_copy(
        tmp_path, "x.mul", "a" * 64, reason, data=b"1", original="/in/x.mul", when=when
    )
    other = quarantine_copy(
        tmp_path, "x.mul", "b" * 64, reason, data=b"2", original="/in/x.mul", when=when
    )
    assert first == again == tmp_path / "x.mul"
    assert other == tmp_path / f"x.{'b' * 12}.mul"
    assert other.read_bytes() == b"2" and first.read_bytes() == b"1"
    assert (tmp_path / f"x.{'b' * 12}.mul.reason.txt").exists()


def test_redact_hides_the_password() -> None:
    assert redact("postgresql://u:secret@h:5432/db") == "postgresql://u:***@h:5432/db"
    assert redact("/tmp/c.db") == "/tmp/c.db"


def test_a_file_over_the_size_cap_is_quarantined_without_a_copy(
    tmp_path: Path, fake_files: None
) -> None:
    db = str(tmp_path / "c.db")
    new_campaign(db)
    big = tmp_path / "big.mul"
    data = battle_bytes(1)
    big.write_bytes(data)
    with open_store(db) as store:
        pipeline = Pipeline(store, quarantine_dir=tmp_path / "q", max_bytes=1000)
        result = pipeline.process(big)
        assert result.outcome is Outcome.QUARANTINED and result.sha256 == sha(data)
        assert "byte limit" in (result.reason or "") and result.code == "file_too_large"
        # A file too large to hold is not copied (a copy on every restart would fill the
        # disk); the reason file says what it was and where.
        assert not (tmp_path / "q" / "big.mul").exists()
        note = (tmp_path / "q" / "big.mul.reason.txt").read_text(encoding="utf-8")
        assert "byte limit" in note and str(big) in note and sha(data) in note
        # Seen again (a rescan): not judged twice by the same process.
        os.utime(big, None)
        assert pipeline.process(big).outcome is Outcome.ALREADY_QUARANTINED


def test_the_pipeline_applies_once_and_holds_strangers(tmp_path: Path, fake_files: None) -> None:
    db = str(tmp_path / "c.db")
    cid = new_campaign(db)
    with open_store(db) as store:
        pipeline = Pipeline(store, quarantine_dir=tmp_path / "q")
        first = tmp_path / "one.mul"
        first.write_bytes(battle_bytes(1))
        assert pipeline.process(first).outcome is Outcome.APPLIED
        assert pipeline.process(first).outcome is Outcome.UNCHANGED
        copy = tmp_path / "two.mul"
        copy.write_bytes(battle_bytes(1))
        assert pipeline.process(copy).outcome is Outcome.ALREADY_APPLIED
        stranger = tmp_path / "stranger.mul"
        stranger.write_bytes(OTHER_FORCE.read_bytes())
        assert pipeline.process(stranger).outcome is Outcome.UNMATCHED
        # A rescan does not read a held file again while nothing changed...
        assert pipeline.process(stranger).outcome is Outcome.UNCHANGED
        assert [u.path for u in store.unmatched_files()] == [str(stranger)]
        assert len(store.ingested_files(cid)) == 1
        # ...and looks at it again as soon as a campaign changed (it may match now).
        again = tmp_path / "three.mul"
        again.write_bytes(battle_bytes(2))
        assert pipeline.process(again).outcome is Outcome.APPLIED
        assert pipeline.process(stranger).outcome is Outcome.UNMATCHED


def test_a_second_signal_exits_at_once() -> None:
    # The first signal only asks for a stop; the second must not wait for anything.
    program = (
        "import os, signal, time\n"
        "from mekref.daemon.shutdown import Shutdown\n"
        "s = Shutdown(); s.install()\n"
        "os.kill(os.getpid(), signal.SIGTERM)\n"
        "assert s.requested.is_set() and s.signal_name == 'SIGTERM'\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "time.sleep(60)\n"
    )
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, timeout=60)
    assert out.returncode == 128 + 2, out.stderr


def test_scan_finds_battle_files_recursively_only_when_asked(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    for name in ("b.mul", "a.MUL", "notes.txt", "sub/c.mul"):
        (tmp_path / name).write_bytes(b"x")
    flat = [p.relative_to(tmp_path).as_posix() for p in scan_folders([tmp_path], recursive=False)]
    deep = [p.relative_to(tmp_path).as_posix() for p in scan_folders([tmp_path], recursive=True)]
    assert flat == ["a.MUL", "b.mul"]
    assert deep == ["a.MUL", "b.mul", "sub/c.mul"]
    assert list(scan_folders([tmp_path / "missing"], recursive=True)) == []


def test_status_prints_file_names_and_reasons_verbatim() -> None:
    # Paths and reasons come from the outside: rich markup in them must neither vanish nor crash.
    from rich.console import Console

    from mekref.daemon.cli_status import Status, print_status

    quarantined = {
        "when": "2026-01-01T00:00:00",
        "path": "/drop/[/old] battle.mul",
        "reason": "not XML near [red]",
        "copy": "/q/x",
    }
    console = Console(record=True, width=200)
    print_status(Status([], [], [], [], [quarantined]), console)
    text = console.export_text()
    assert "[/old] battle.mul" in text and "[red]" in text


@pytest.fixture
def fake_files(monkeypatch: pytest.MonkeyPatch) -> None:
    """TripWire campaigns take battle files through the test stand-in (this test only)."""
    from dataclasses import replace

    from mekref.rules.tripwire import game

    monkeypatch.setattr(
        game, "TRIPWIRE", replace(game.TRIPWIRE, battle_files=fake_battle_input.FakeBattleFiles())
    )
