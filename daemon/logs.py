"""The daemon's loggers, with structlog imported when the first one is asked for.

Importing structlog brings its console renderer and what that needs (rich, pygments, asyncio):
about 0.15 s of CPU, a sixth of ``mekref status``. A command that logs nothing should not pay
for it, so the daemon's modules ask for their logger here instead of importing structlog at
their top, and the set-up every CLI command makes (``mekref.daemon.cli``) waits here until a
logger is first asked for, or runs at once when structlog is already loaded. A logger whose
lines the set-up throws away (the ingest pipeline's under a one-shot command, which says what
happened to each file itself) is a :class:`Dropped` one, which never loads structlog. A set-up
that names the least level it writes (``mekref replay``'s, warnings by default) gives
:class:`Deferred` loggers: structlog loads when the first line at that level or above is
written, and a replay whose files all go in cleanly never loads it.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable, Iterable
from typing import Any

_PENDING: list[Callable[[], None]] = []
#: Loggers whose every line the current set-up throws away.
_DROPPED: set[str] = set()
#: The least level (``logging``'s numbers) the pending set-up writes; 0 when it does not say.
_LEAST: list[int] = [0]
_LOCK = threading.Lock()
#: structlog's filtering loggers: each method's level (``exception`` logs at error).
_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "exception": logging.ERROR,
    "critical": logging.CRITICAL,
}


class Dropped:
    """A logger that writes nothing: what :func:`get_logger` gives for a name the set-up drops
    (the calls a bound structlog logger takes, each doing nothing)."""

    def bind(self, **values: Any) -> Dropped:
        return self

    def debug(self, event: str, **values: Any) -> None:
        return None

    info = warning = error = exception = critical = debug


def _writer(method: str) -> Callable[..., Any]:
    """The :class:`Deferred` method ``method``: its lines go through ``Deferred._write``."""

    def write(self: Deferred, event: str, **values: Any) -> Any:
        return self._write(method, event, values)

    write.__name__ = write.__qualname__ = method
    return write


class Deferred:
    """A logger whose lines below the set-up's least level are thrown away here, as structlog's
    filtering logger would; the first line at that level or above loads structlog, runs the
    pending set-up and is written by structlog's logger ``name``, with the bound values."""

    __slots__ = ("_least", "_name", "_values")

    def __init__(self, name: str, least: int, values: dict[str, Any] | None = None) -> None:
        self._name, self._least, self._values = name, least, values or {}

    def bind(self, **values: Any) -> Deferred:
        return Deferred(self._name, self._least, {**self._values, **values})

    def _write(self, method: str, event: str, values: dict[str, Any]) -> Any:
        if _LEVELS[method] < self._least:
            return None
        real = _structlog_logger(self._name)
        if self._values:
            real = real.bind(**self._values)
        return getattr(real, method)(event, **values)

    debug = _writer("debug")
    info = _writer("info")
    warning = _writer("warning")
    error = _writer("error")
    exception = _writer("exception")
    critical = _writer("critical")


def set_up(configure: Callable[[], None], *, dropped: Iterable[str] = (), least: int = 0) -> None:
    """Run the structlog set-up ``configure`` now if structlog is loaded, else just before the
    first logger is given out (:func:`get_logger`). ``dropped`` names the loggers whose lines
    ``configure`` throws away: asking for one then gives a :class:`Dropped` logger. ``least``,
    the least level ``configure`` lets through (``logging.WARNING``), makes the loggers given
    out before structlog loads :class:`Deferred` ones."""
    with _LOCK:
        _DROPPED.clear()
        _DROPPED.update(dropped)
        _LEAST[0] = least
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
        _LEAST[0] = 0


def get_logger(name: str) -> Any:
    """structlog's logger ``name``, after any set-up still pending; a :class:`Dropped` one for
    a name the set-up drops."""
    if name in _DROPPED:
        return Dropped()
    with _LOCK:
        least = _LEAST[0] if _PENDING and "structlog" not in sys.modules else 0
    if least:
        return Deferred(name, least)
    return _structlog_logger(name)


def _structlog_logger(name: str) -> Any:
    """structlog's logger ``name``, after any set-up still pending."""
    import structlog

    with _LOCK:
        pending = list(_PENDING)
        _PENDING.clear()
    for configure in pending:
        configure()
    return structlog.get_logger(name)
