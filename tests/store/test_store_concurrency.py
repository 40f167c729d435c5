"""Contract under contention: threads and processes racing for one campaign.

No test measures time. Races are started together with a barrier (threads) or a "go" file
(processes), and the assertions are about outcomes that only a correct lock guarantees.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from mekref.daemon.store import (
    AppendResult,
    ConcurrencyError,
    EventStore,
    FileRef,
    NewEvent,
    WriterBusy,
    open_store,
)

WORKER = Path(__file__).with_name("store_worker.py")
THREADS = 6


def race(n: int, work: Callable[[int], object]) -> list[object]:
    """Run ``work(i)`` in ``n`` threads released together; exceptions are returned."""
    barrier = threading.Barrier(n)

    def run(i: int) -> object:
        barrier.wait()
        try:
            return work(i)
        except Exception as exc:
            return exc

    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(run, range(n)))


def test_racing_appends_of_one_file_apply_it_exactly_once(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    battle = FileRef(hashlib.sha256(b"battle").hexdigest(), "/logs/battle.mul")

    def ingest(i: int) -> AppendResult:
        # Each thread read last seq 0 before any of them wrote: the worst case.
        return store.append(cid, 0, [NewEvent("battle", f'{{"by":{i}}}')] * 2, battle)

    results = race(THREADS, ingest)
    assert all(isinstance(r, AppendResult) for r in results), results
    applied = [r for r in results if isinstance(r, AppendResult) and not r.already_applied]
    assert len(applied) == 1
    assert all(isinstance(r, AppendResult) and (r.first_seq, r.last_seq) == (1, 2) for r in results)
    assert store.last_seq(cid) == 2
    assert len(store.ingested_files(cid)) == 1


def test_racing_appends_at_one_seq_let_exactly_one_win(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    results = race(THREADS, lambda i: store.append(cid, 0, [NewEvent("turn", f'{{"by":{i}}}')]))
    winners = [r for r in results if isinstance(r, AppendResult)]
    losers = [r for r in results if isinstance(r, ConcurrencyError)]
    assert (len(winners), len(losers)) == (1, THREADS - 1), results
    assert [e.seq for e in store.read(cid)] == [1]


def test_racing_processes_apply_one_file_exactly_once(store_url: str, tmp_path: Path) -> None:
    with open_store(store_url) as store:
        cid = store.create_campaign("A", "tripwire").id
    sha = hashlib.sha256(b"the same battle file").hexdigest()
    go = tmp_path / "go"
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), "append", store_url, str(go), cid, sha],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    go.touch()
    outputs = [w.communicate(timeout=120) for w in workers]
    assert [w.returncode for w in workers] == [0] * 4, outputs
    assert sorted(out.strip() for out, _ in outputs) == ["already"] * 3 + ["applied"]
    with open_store(store_url) as store:
        assert store.last_seq(cid) == 1
        assert [f.sha256 for f in store.ingested_files(cid)] == [sha]


def test_writer_section_excludes_a_second_writer(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    other = store.create_campaign("B", "tripwire").id
    inside = threading.Event()
    leave = threading.Event()

    def hold() -> None:
        with store.writer(cid):
            inside.set()
            leave.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        inside.wait()
        with pytest.raises(WriterBusy), store.writer(cid, wait=False):
            pass
        with store.writer(other, wait=False):  # other campaigns are not held up
            pass
    finally:
        leave.set()
        holder.join()
    with store.writer(cid, wait=False):
        pass


def test_writer_section_excludes_a_second_store_on_the_same_database(store_url: str) -> None:
    # Two store objects are two replicas in miniature: separate connections, separate
    # bookkeeping, one database. Re-entrancy is per store, so the second one is refused.
    with open_store(store_url) as first, open_store(store_url) as second:
        cid = first.create_campaign("A", "tripwire").id
        with first.writer(cid):
            with pytest.raises(WriterBusy), second.writer(cid, wait=False):
                pass
            first.append(cid, 0, [NewEvent("inside", "{}")])
        with second.writer(cid, wait=False):
            second.append(cid, 1, [NewEvent("after", "{}")])
        assert [e.type for e in first.read(cid)] == ["inside", "after"]


def test_writer_section_is_reentrant_and_allows_appends(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    with store.writer(cid), store.writer(cid, wait=False):
        store.append(cid, 0, [NewEvent("inside", "{}")])
    assert store.last_seq(cid) == 1


def test_writer_section_serialises_read_modify_write(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    rounds = 15
    trace: list[tuple[str, int]] = []
    counter = [0]

    def resolve(i: int) -> None:
        for _ in range(rounds):
            with store.writer(cid):
                trace.append(("enter", i))
                # A deliberately unsafe read-modify-write, twice: a Python counter with a
                # thread switch in the middle, and the log's last seq read before appending.
                # Only mutual exclusion keeps every update and every append.
                seen = counter[0]
                time.sleep(0)
                counter[0] = seen + 1
                last = store.last_seq(cid)
                store.append(cid, last, [NewEvent("turn", f'{{"by":{i}}}')])
                trace.append(("exit", i))

    results = race(THREADS, resolve)
    assert results == [None] * THREADS  # not one ConcurrencyError
    assert counter[0] == THREADS * rounds
    assert store.last_seq(cid) == THREADS * rounds
    # Sections never overlap: every enter is followed by the same thread's exit.
    pairs = list(zip(trace[::2], trace[1::2], strict=True))
    assert all(a == ("enter", b[1]) and b[0] == "exit" for a, b in pairs)


def test_writer_section_excludes_another_process(
    store_url: str, store: EventStore, tmp_path: Path
) -> None:
    cid = store.create_campaign("A", "tripwire").id
    go, held, release = tmp_path / "go", tmp_path / "held", tmp_path / "release"
    go.touch()
    worker = subprocess.Popen(
        [sys.executable, str(WORKER), "hold", store_url, str(go), cid, str(held), str(release)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        while not held.exists():
            assert worker.poll() is None, worker.communicate()
            time.sleep(0.01)
        with pytest.raises(WriterBusy), store.writer(cid, wait=False):
            pass
    finally:
        release.touch()
        out, err = worker.communicate(timeout=120)
    assert (worker.returncode, out.strip()) == (0, "released"), err
    with store.writer(cid, wait=False):  # released when the other process let go
        pass


def test_readers_never_see_a_gap_while_writers_race(store: EventStore) -> None:
    cid = store.create_campaign("A", "tripwire").id
    per_writer = 20
    writers = 4
    total = per_writer * writers
    done = threading.Event()
    seen: list[int] = []

    def write(i: int) -> None:
        for n in range(per_writer):
            while True:  # optimistic retry, as a real resolver without the section would
                try:
                    store.append(cid, store.last_seq(cid), [NewEvent("e", f'{{"w":{i},"n":{n}}}')])
                    break
                except ConcurrencyError:
                    continue

    def subscribe() -> None:
        last = 0
        while last < total:
            for event in store.read(cid, after_seq=last):
                # A subscriber polling "after my last seq" must get the very next seq every
                # time; a gap would mean it skips an event that commits later.
                assert event.seq == last + 1
                last = event.seq
                seen.append(last)
            if done.is_set() and last < total and store.last_seq(cid) == last:
                break

    reader = ThreadPoolExecutor(1)
    reading = reader.submit(subscribe)
    results = race(writers, write)
    done.set()
    reading.result(timeout=120)
    reader.shutdown()
    assert results == [None] * writers
    assert seen == list(range(1, total + 1))
