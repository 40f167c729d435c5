"""Why the rules say no.

A refused command or a priced action the rules forbid raises :class:`Refusal`: a stable ``code``
for programs (the daemon maps it to an API error), a sentence for people, and the rule line it
rests on when there is one. Nothing is appended to the log for a refused command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mekref.rules.tables import SourceRef


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
