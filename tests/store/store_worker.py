"""A separate process for the store tests: ``python store_worker.py MODE URL ARGS...``.

Runs in its own interpreter so the tests exercise real inter-process locking. Each mode
waits for a ``go`` file first, so all workers start their race together, then prints one
result line on stdout.

Modes:
  open URL GO                    open (and migrate) the store, print its schema version
  append URL GO CAMPAIGN SHA256  append one event with that file at expected seq 0
  hold URL GO CAMPAIGN HELD RELEASE
                                 take the writer section, create HELD, wait for RELEASE
  churn URL GO CAMPAIGN          apply file after file (10 events each) until killed,
                                 printing "applied N" after each commit
"""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

from mekref.daemon.store import FileRef, NewEvent, open_store


def wait_for(path: Path) -> None:
    while not path.exists():
        time.sleep(0.01)


def main(argv: list[str]) -> int:
    mode, url, go = argv[0], argv[1], Path(argv[2])
    wait_for(go)
    with open_store(url) as store:
        if mode == "open":
            print(store.schema_version())
        elif mode == "append":
            campaign_id, sha256 = argv[3], argv[4]
            result = store.append(
                campaign_id, 0, [NewEvent("battle", '{"by":"worker"}')], FileRef(sha256, "x.mul")
            )
            print("already" if result.already_applied else "applied")
        elif mode == "hold":
            campaign_id, held, release = argv[3], Path(argv[4]), Path(argv[5])
            with store.writer(campaign_id):
                held.touch()
                wait_for(release)
            print("released")
        elif mode == "churn":
            campaign_id = argv[3]
            for n in range(1_000_000):
                sha256 = hashlib.sha256(f"file {n}".encode()).hexdigest()
                events = [NewEvent("battle", f'{{"file":{n},"i":{i}}}') for i in range(10)]
                last = store.last_seq(campaign_id)
                store.append(campaign_id, last, events, FileRef(sha256, f"{n}.mul"))
                print(f"applied {n}", flush=True)
        else:
            print(f"unknown mode {mode}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
