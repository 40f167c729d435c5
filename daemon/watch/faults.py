"""Fault injection for crash tests: ``MEKREF_FAULT=<point>`` kills the process at that point.

This is a test hook, documented in docs/daemon.md. It lets a test run a real ``mekref serve``
and SIGKILL it at a chosen moment of the ingestion of a file, to prove that whatever moment a
crash lands on, the file is applied once or not at all. Unset, it does nothing.

Points, in the order a file passes them:

- ``after_parse``: the file is read and parsed, nothing is stored yet;
- ``during_commit``: the events and the file's row are written inside the open transaction,
  which is not committed;
- ``after_commit``: the transaction committed, nothing else (logging, bookkeeping) ran.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from mekref.daemon.store import EventStore

FAULT_ENV = "MEKREF_FAULT"
POINTS = ("after_parse", "during_commit", "after_commit")


def armed() -> str | None:
    point = os.environ.get(FAULT_ENV) or None
    if point is not None and point not in POINTS:
        raise ValueError(f"{FAULT_ENV}={point!r}: known points are {', '.join(POINTS)}")
    return point


def die() -> None:
    """SIGKILL ourselves: no cleanup, no flush, exactly what a power cut or OOM kill does."""
    os.kill(os.getpid(), signal.SIGKILL)


def fault_point(name: str) -> None:
    if armed() == name:
        die()


@contextmanager
def kill_inside_commit(store: EventStore) -> Iterator[None]:
    """While active with ``during_commit`` armed, die after a write transaction's body ran.

    The store's engines open their write transactions through ``_transaction()``; wrapping it
    on this one store object lets the kill land after the INSERTs and before the COMMIT,
    which no public call can reach. Nothing is changed when the hook is not armed.
    """
    if armed() != "during_commit":
        yield
        return
    original: Callable[[], AbstractContextManager[Any]] = store._transaction

    @contextmanager
    def dying() -> Iterator[Any]:
        with original() as tx:
            yield tx
            die()

    store._transaction = dying  # type: ignore[method-assign]  # this one object's, on purpose
    try:
        yield
    finally:
        store._transaction = original  # type: ignore[method-assign]
