"""structlog set-up: JSON lines in production (not a terminal), readable lines on a terminal."""

from __future__ import annotations

import logging
import sys
from typing import Literal

import structlog

from mekref.daemon import logs
from mekref.daemon.terminal import safe_log_values

LogFormat = Literal["auto", "json", "console"]


def configure_logging(fmt: LogFormat = "auto", level: str = "info") -> None:
    use_json = fmt == "json" or (fmt == "auto" and not sys.stderr.isatty())
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer()
        if use_json
        else structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.StackInfoRenderer(),
            structlog.processors.format_exc_info,
            *(() if use_json else (safe_log_values,)),  # JSON escapes control characters
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping()[level.upper()]
        ),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )
    logs.superseded()  # the CLI's default set-up, if still waiting, must not replace this
