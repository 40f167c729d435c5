"""The daemon's loggers, with structlog imported when the first one is asked for.

Importing structlog brings its console renderer and what that needs (rich, pygments, asyncio):
about 0.15 s of CPU, a sixth of ``mekref status``. A command that logs nothing should not pay
for it, so the daemon's modules ask for their logger here instead of importing structlog at
their top, and the set-up every CLI command makes (``mekref.daemon.cli``) waits here until a
logger is first asked for, or runs at once when structlog is already loaded.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Any

_PENDING: list[Callable[[], None]] = []
_LOCK = threading.Lock()


def set_up(configure: Callable[[], None]) -> None:
    """Run the structlog set-up ``configure`` now if structlog is loaded, else just before the
    first logger is given out (:func:`get_logger`)."""
    if "structlog" in sys.modules:
        configure()
        return
    with _LOCK:
        _PENDING.append(configure)


def superseded() -> None:
    """A whole set-up was just made (``configure_logging``): a pending one must not undo it."""
    with _LOCK:
        _PENDING.clear()


def get_logger(name: str) -> Any:
    """structlog's logger ``name``, after any set-up still pending."""
    import structlog

    with _LOCK:
        pending = list(_PENDING)
        _PENDING.clear()
    for configure in pending:
        configure()
    return structlog.get_logger(name)
