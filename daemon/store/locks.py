"""Lock keys and the re-entrancy bookkeeping both engines' writer sections share."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager


def advisory_key(purpose: str, name: str) -> int:
    """A stable signed 64-bit key for PostgreSQL advisory locks.

    Python's ``hash()`` is salted per process, so replicas would disagree; sha256 of a
    namespaced string gives every process, on every machine, the same key. ``purpose``
    keeps the writer section, the append lock and the migration lock apart, so holding one
    never blocks another.
    """
    digest = hashlib.sha256(f"mekref:{purpose}:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class HeldByThread:
    """Which campaigns the current thread already holds the writer section for.

    A nested ``writer()`` for the same campaign in the same thread must not wait on itself
    (flock on a second descriptor, or a second PostgreSQL connection, would deadlock).
    """

    def __init__(self) -> None:
        self._local = threading.local()

    def _held(self) -> set[str]:
        held: set[str] | None = getattr(self._local, "held", None)
        if held is None:
            held = set()
            self._local.held = held
        return held

    def holds(self, campaign_id: str) -> bool:
        return campaign_id in self._held()

    @contextmanager
    def mark(self, campaign_id: str) -> Iterator[None]:
        held = self._held()
        held.add(campaign_id)
        try:
            yield
        finally:
            held.discard(campaign_id)
