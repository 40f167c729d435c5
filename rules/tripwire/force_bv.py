"""A company's BV against its force construction limit (L10, L15), with units without a BV.

L10: "Alpha and Bravo company each have 20,000 BV to spend on units." L15: "Charlie Company
has 10,000 BV". A unit imported without a BV (no ``--bv-table`` row) holds a BV of 0, which is
"none", never a 0 spent: the company's sum is then not known, and the limit's verdict is not
known either, unless the BVs that are known already exceed it (ruling R-FORCE-14). One count
serves ``force import`` (``force_check``) and ``force configuration`` (``configurations``).
"""

from __future__ import annotations

from collections.abc import Iterable

from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.model import UnitKind

#: How a BV is given before the import, and recorded after it.
GIVE_BV_AT_IMPORT = (
    "give each a row in --bv-table Units.txt (MegaMek's BV export: Chassis|Model|MUL ID|"
    "Tonnage|BV|Cost) and check again, or, once imported, record it with mekref battle bv "
    "--unit ID --bv N --referee NAME --reason TEXT"
)
GIVE_BV_AFTER_IMPORT = (
    "record each one's BV (mekref battle bv --unit ID --bv N --referee NAME --reason TEXT) "
    "and buy again (R-VP-6)"
)


@record
class CompanyBv(Record):
    """The BV a company spends: ``known`` is the sum over the units with a BV; ``without``
    names the units that spend BV but have none. A DropShip spends none (R-FORCE-3)."""

    known: int
    without: tuple[str, ...]

    @property
    def total(self) -> int | None:
        """The company's BV; None while a unit has none (not known, never a partial sum)."""
        return None if self.without else self.known

    def over(self, limit: int) -> bool:
        """Whether the limit is broken for certain: the known BVs alone exceed it."""
        return self.known > limit

    def unknown(self, limit: int) -> bool:
        """Whether the limit's verdict is not known: a unit has no BV and the known BVs alone
        do not exceed it."""
        return bool(self.without) and not self.over(limit)


def count_bv(members: Iterable[tuple[str, UnitKind, int]]) -> CompanyBv:
    """The company's BV from each member's name, kind and BV (0 or less: none)."""
    spent = [(name, bv) for name, kind, bv in members if kind is not UnitKind.DROPSHIP]
    return CompanyBv(
        known=sum(bv for _, bv in spent if bv > 0),
        without=tuple(sorted(name for name, bv in spent if bv <= 0)),
    )


def over_text(count: CompanyBv, limit: int, line: int) -> str:
    """What a company over its limit says (with the units without a BV, if any)."""
    if not count.without:
        return f"{count.known} BV spent; the limit is {limit} (line {line})"
    return (
        f"{count.known} BV spent by the units with a BV alone (and {len(count.without)} "
        f"unit(s) without one: {', '.join(count.without)}); the limit is {limit} (line {line})"
    )


def no_bv_text(count: CompanyBv, limit: int, line: int, how: str) -> str:
    """What a limit whose verdict is not known says: the units without a BV and ``how`` to
    give one."""
    return (
        f"the company's BV is not known: {len(count.without)} unit(s) have no BV "
        f"({', '.join(count.without)}); the units with a BV spend {count.known} of the "
        f"{limit} (line {line}); {how}"
    )
