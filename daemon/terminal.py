"""Text from outside (file names, reasons quoting a file) made safe to print on a terminal.

A file name may hold escape sequences: ``ESC ] 0 ; ... BEL`` retitles the window, ``ESC [ 2 J``
clears the screen, others have rewritten the clipboard or faked earlier output. Printed as is
by ``mekref status`` or a console log line they would act on the referee's terminal, so every
control character (C0, DEL, C1) is shown as a visible escape (``\\x1b``) instead. JSON output
needs nothing: JSON escapes control characters itself.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def terminal_safe(text: str) -> str:
    """``text`` with every control character shown as ``\\xNN``."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def safe_log_values(
    _logger: Any, _method: str, event: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """structlog processor for console output: control characters in string values escaped."""
    for key, value in event.items():
        if isinstance(value, str) and _CONTROL.search(value) and key != "exception":
            event[key] = terminal_safe(value)
    return event
