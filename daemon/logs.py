"""The daemon's loggers, with structlog imported when the first one is asked for.

Importing structlog brings its console renderer and what that needs (rich, pygments, asyncio):
about 0.15 s of CPU, a sixth of ``mekref status``. A command that logs nothing should not pay
for it, so the daemon's modules ask for their logger here instead of importing structlog at
their top, and the set-up every CLI command makes (``mekref.daemon.cli``) waits here until a
logger is first asked for, or runs at once when structlog is already loaded. A logger whose
lines the set-up throws away (the ingest pipeline's under a one-shot command, which says what
happened to each file itself) is a :class:`Dropped` one, which never loads structlog.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

_PENDING: list[Callable[[], None]] = []
#: Loggers whose every line the current set-up throws away.
_DROPPED: set[str] = set()
_LOCK = threading.Lock()


class Dropped:
    """A logger that writes nothing: what :func:`get_logger` gives for a name the set-up drops
    (the calls a bound structlog logger takes, each doing nothing)."""

    def bind(self, **values: Any) -> Dropped:
        return self

    def debug(self, event: str, **values: Any) -> None:
        return None

    info = warning = error = exception = critical = debug


def set_up(configure: Callable[[], None], *, dropped: Iterable[str] = ()) -> None:
    """Run the structlog set-up ``configure`` now if structlog is loaded, else just before the
    first logger is given out (:func:`get_logger`). ``dropped`` names the loggers whose lines
    ``configure`` throws away: asking for one then gives a :class:`Dropped` logger."""
    with _LOCK:
        _DROPPED.clear()
        _DROPPED.update(dropped)
    if "structlog" in sys.modules:
        configure()
        return
    with _LOCK:
        _PENDING.append(configure)


def superseded() -> None:
    """A whole set-up was just made (``configure_logging``): a pending one must not undo it."""
    with _LOCK:
        _PENDING.clear()
        _DROPPED.clear()


def get_logger(name: str) -> Any:
    """structlog's logger ``name``, after any set-up still pending; a :class:`Dropped` one for
    a name the set-up drops."""
    if name in _DROPPED:
        return Dropped()
    import structlog

    with _LOCK:
        pending = list(_PENDING)
        _PENDING.clear()
    for configure in pending:
        configure()
    return structlog.get_logger(name)
