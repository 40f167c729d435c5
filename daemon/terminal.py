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

#: Control characters, and the lone surrogates a file name that is not UTF-8 decodes to
#: (surrogateescape: byte 0xff is U+DCFF), which a terminal cannot show either.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:
        return f"\\x{code - 0xDC00:02x}"  # the byte the name held, as display_text shows it
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """``text`` with every control character (and byte that is not UTF-8) shown as ``\\xNN``."""
    return _CONTROL.sub(_escape, text)


def safe_log_values(
    _logger: Any, _method: str, event: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """structlog processor for console output: control characters in string values escaped."""
    for key, value in event.items():
        if isinstance(value, str) and _CONTROL.search(value) and key != "exception":
            event[key] = terminal_safe(value)
    return event
