"""Errors a person can act on: file, line and column, what is wrong, what to do next."""

from __future__ import annotations

from dataclasses import dataclass

#: Distinct process exit codes, so scripts can tell a bad file from a missing one.
EXIT_UNREADABLE_FILE = 3
EXIT_REFUSED_FILE = 4


@dataclass(frozen=True)
class FilePosition:
    path: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where


class MulReadError(Exception):
    """A unit-list file that cannot be read as MegaMek wrote it.

    ``refused`` marks files rejected on purpose (hostile constructs, over the size cap) as
    opposed to files that are simply broken (truncated, not XML, not a MUL).
    """

    def __init__(
        self, position: FilePosition, problem: str, hint: str, *, refused: bool = False
    ) -> None:
        self.position = position
        self.problem = problem
        self.hint = hint
        self.refused = refused
        super().__init__(self.one_line())

    @property
    def exit_code(self) -> int:
        return EXIT_REFUSED_FILE if self.refused else EXIT_UNREADABLE_FILE

    def one_line(self) -> str:
        return f"{self.position}: {self.problem} ({self.hint})"
