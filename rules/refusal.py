"""Why the rules say no.

A refused command or a priced action the rules forbid raises :class:`Refusal`: a stable ``code``
for programs (the daemon maps it to an API error), a sentence for people, and the rule line it
rests on when there is one. Nothing is appended to the log for a refused command.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from mekref.rules.tables import SourceRef

K = TypeVar("K")
V = TypeVar("V")


class Refusal(Exception):
    def __init__(self, code: str, message: str, source: SourceRef | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.source = source

    def __str__(self) -> str:
        if self.source is None:
            return f"{self.code}: {self.message}"
        return f"{self.code}: {self.message} (rule, line {self.source.line}: {self.source.source})"


def known(found: Mapping[K, V], key: K, code: str, message: str) -> V:
    """``found[key]``, or the refusal ``code`` when there is none: ``message`` names the key
    where it says ``{!r}`` (formatted only then, so a lookup that succeeds costs no text)."""
    value = found.get(key)
    if value is None:
        raise Refusal(code, message.format(key))
    return value
