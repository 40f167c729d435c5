"""A writer killed with SIGKILL at an arbitrary moment leaves each file applied once or not at all.

Where the kill lands is not controlled (and need not be): the assertions are invariants that
must hold wherever it lands.
"""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
from pathlib import Path

from mekref.daemon.store import open_store

WORKER = Path(__file__).with_name("store_worker.py")


def test_kill_9_mid_ingestion_leaves_whole_files_only(store_url: str, tmp_path: Path) -> None:
    with open_store(store_url) as store:
        cid = store.create_campaign("A", "tripwire").id
    go = tmp_path / "go"
    go.touch()
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), "churn", store_url, str(go), cid],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert worker.stdout is not None
    confirmed = 0
    for line in worker.stdout:  # let a few commits through, then kill it mid-stream
        assert line.startswith("applied ")
        confirmed += 1
        if confirmed == 5:
            worker.send_signal(signal.SIGKILL)
            break
    worker.wait(timeout=120)
    assert worker.returncode == -signal.SIGKILL, worker.stderr.read() if worker.stderr else ""

    with open_store(store_url) as store:
        files = store.ingested_files(cid)
        events = store.read(cid)
    # Every commit the worker confirmed is there; perhaps one more that committed before
    # the kill but whose line was never read.
    assert len(files) >= confirmed
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    covered: list[int] = []
    for n, record in enumerate(sorted(files, key=lambda f: f.first_seq)):
        assert record.sha256 == hashlib.sha256(f"file {n}".encode()).hexdigest()
        assert record.last_seq - record.first_seq + 1 == 10
        for seq in range(record.first_seq, record.last_seq + 1):
            assert json.loads(events[seq - 1].payload)["file"] == n
            covered.append(seq)
    # No event without its file, no file without all ten of its events.
    assert covered == [e.seq for e in events]
