"""One database connection per thread, closed when its thread is gone or the store closes.

Neither driver's connection may be shared by threads mid-transaction, and a daemon whose
worker threads come and go must not collect one open connection per thread it ever ran:
connections of threads that have ended are closed the next time a connection is made.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from mekref.daemon.store.errors import StoreError

C = TypeVar("C")


class PerThread(Generic[C]):
    def __init__(
        self,
        connect: Callable[[], C],
        close: Callable[[C], None],
        usable: Callable[[C], bool] = lambda conn: True,
    ) -> None:
        self._connect = connect
        self._close = close
        self._usable = usable
        self._by_thread: dict[threading.Thread, C] = {}
        self._guard = threading.Lock()
        self._closed = False

    def get(self) -> C:
        me = threading.current_thread()
        with self._guard:
            if self._closed:
                raise StoreError("the event store is closed")
            conn = self._by_thread.get(me)
            if conn is not None and self._usable(conn):
                return conn
            retired = [t for t in self._by_thread if t is me or not t.is_alive()]
            stale = [self._by_thread.pop(t) for t in retired]
        for old in stale:
            self._close(old)
        fresh = self._connect()
        with self._guard:
            # close() may have run while we were connecting (a method call, so the type
            # checker does not assume the flag is still the one read above).
            closed = self._is_closed()
            if not closed:
                self._by_thread[me] = fresh
        if closed:
            self._close(fresh)
            raise StoreError("the event store is closed")
        return fresh

    def _is_closed(self) -> bool:
        return self._closed

    def close_all(self) -> None:
        with self._guard:
            self._closed = True
            conns = list(self._by_thread.values())
            self._by_thread.clear()
        for conn in conns:
            self._close(conn)

    def __len__(self) -> int:
        with self._guard:
            return len(self._by_thread)
