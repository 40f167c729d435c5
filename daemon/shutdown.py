"""SIGTERM/SIGINT: the first asks for a clean stop, a second one exits at once."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable
from types import FrameType

SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Shutdown:
    """``requested`` is set by the first signal; ``on_request`` wakes whoever is waiting."""

    def __init__(self, on_request: Callable[[], None] = lambda: None) -> None:
        self.requested = threading.Event()
        self.signal_name: str | None = None
        self._on_request = on_request

    def install(self) -> None:
        for sig in SIGNALS:
            signal.signal(sig, self._handle)

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        if self.requested.is_set():
            # The user asked twice: do not wait for the file in hand. Whatever was not
            # committed is rolled back by the database; the file is applied on next start.
            os._exit(128 + signum)
        self.signal_name = signal.Signals(signum).name
        self.requested.set()
        self._on_request()
