"""The result of a force construction check: every violation, with unit and rule."""

from __future__ import annotations

from mekref.rules.record_type import Record, record
from mekref.rules.tables import SourceRef


@record
class Violation(Record):
    rule: str  # stable id, e.g. "mek_company.counts"
    message: str
    company: str | None = None
    lance: str | None = None
    unit_id: str | None = None
    source: SourceRef | None = None

    def describe(self) -> str:
        where = "/".join(p for p in (self.company, self.lance, self.unit_id) if p)
        quote = f' [line {self.source.line}: "{self.source.source}"]' if self.source else ""
        return f"{self.rule}{' at ' + where if where else ''}: {self.message}{quote}"


def violation(
    source: SourceRef,
    rule: str,
    message: str,
    company: str | None = None,
    lance: str | None = None,
    unit_id: str | None = None,
) -> Violation:
    """A violation quoting ``source`` (the checks of several modules build them alike)."""
    return Violation(
        rule=rule, message=message, company=company, lance=lance, unit_id=unit_id, source=source
    )


@record
class ForceReport(Record):
    violations: tuple[Violation, ...]
    #: Checks whose verdict is not known (a BV limit with a unit of no BV, ruling R-FORCE-14):
    #: never reported as passed.
    not_known: tuple[Violation, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.violations
