"""The SQLite store's writer lock where ``fcntl`` does not exist (Windows, some sandboxes).

Simulated in a fresh interpreter with ``sys.modules["fcntl"] = None``, which makes every
``import fcntl`` fail as it does on Windows: the store must still import, and its writer
section must still exclude a second writer (another thread, another store object, another
process) and let it in once released.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROBE = r"""
import sys
sys.modules["fcntl"] = None  # every 'import fcntl' now raises ImportError, as on Windows
import threading
import warnings

warnings.simplefilter("ignore")  # filelock warns that only its portable lock is available

from mekref.daemon.store import NewEvent, WriterBusy, open_store
from mekref.daemon.store import sqlite as engine

assert sys.modules["fcntl"] is None, "something imported the real fcntl"
db, mode = sys.argv[1], sys.argv[2]
print("lock:", type(engine._file_lock(db + ".probe.lock")).__name__)
if mode == "hold":  # a second process: hold the lock until stdin closes
    store = open_store(db, create=False)
    cid = store.list_campaigns()[0].id
    with store.writer(cid):
        print("holding", flush=True)
        sys.stdin.read()
    sys.exit(0)

first, second = open_store(db), open_store(db)
cid = first.create_campaign("A", "tripwire").id
other = first.create_campaign("B", "tripwire").id
inside, leave, order = threading.Event(), threading.Event(), []

def hold():
    with first.writer(cid):
        inside.set()
        leave.wait()
        order.append("first out")

holder = threading.Thread(target=hold)
holder.start()
inside.wait()
try:
    with second.writer(cid, wait=False):
        raise SystemExit("a second store entered a held writer section")
except WriterBusy:
    print("second store: busy")
with second.writer(other, wait=False):
    print("other campaign: free")

def wait_in():
    with second.writer(cid):  # waits for the holder
        order.append("second in")
        second.append(cid, 0, [NewEvent("after", "{}")])

waiter = threading.Thread(target=wait_in)
waiter.start()
leave.set()
holder.join()
waiter.join()
print("order:", ", ".join(order))
assert [e.type for e in first.read(cid)] == ["after"]
first.close()
second.close()
"""


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_writer_lock_works_without_fcntl(tmp_path: Path) -> None:
    db = str(tmp_path / "camp.db")
    done = _run(db, "threads")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # The POSIX lock class is not the one in use: the portable path is what ran.
    assert lines[0] != "lock: UnixFileLock" and lines[0].startswith("lock: ")
    assert lines[1:] == [
        "second store: busy",
        "other campaign: free",
        "order: first out, second in",
    ]


def test_the_portable_lock_excludes_another_process(tmp_path: Path) -> None:
    db = str(tmp_path / "camp.db")
    assert _run(db, "threads").returncode == 0  # creates the store and its campaigns
    holder = subprocess.Popen(
        [sys.executable, "-c", PROBE, db, "hold"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert holder.stdout.readline().startswith("lock: ")
        assert holder.stdout.readline().strip() == "holding"
        probe = subprocess.run(
            [sys.executable, "-c", BUSY, db], capture_output=True, text=True, timeout=60
        )
        assert probe.stdout.strip() == "busy", probe.stderr
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert holder.returncode == 0
    probe = subprocess.run(
        [sys.executable, "-c", BUSY, db], capture_output=True, text=True, timeout=60
    )
    assert probe.stdout.strip() == "free", probe.stderr


BUSY = r"""
import sys, warnings
sys.modules["fcntl"] = None
warnings.simplefilter("ignore")
from mekref.daemon.store import WriterBusy, open_store
store = open_store(sys.argv[1], create=False)
try:
    with store.writer(store.list_campaigns()[0].id, wait=False):
        print("free")
except WriterBusy:
    print("busy")
"""
