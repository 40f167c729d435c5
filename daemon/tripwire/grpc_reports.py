"""The report of one battle, cut to what the caller may see.

Built from the battle ledger the rules keep (``state.battles``). The referee gets everything.
A side gets a battle only if it fought in it, and then only its own units and people, the enemy
units it salvaged, the people it captured, and its own side outcome; conflicts between files
(which quote the other side's file) stay with the referee. A battle the side did not fight is
reported exactly like one that does not exist.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import grpc

from mekref.daemon.grpc.errors import ApiError, unimplemented
from mekref.rules.codec import to_jsonable
from mekref.rules.tripwire.battle_model import (
    BattleStatus,
    Conflict,
    PersonOutcome,
    SideOutcome,
    UnitOutcome,
)
from mekref.rules.tripwire.battle_visibility import fought_by
from mekref.rules.tripwire.state import CampaignState


def _not_found(battle_id: str) -> ApiError:
    return ApiError(grpc.StatusCode.NOT_FOUND, f"no battle {battle_id!r} for you", "unknown_battle")


@dataclass(frozen=True, kw_only=True)
class BattleReport:
    """One battle as the caller may see it: its units, people and side outcomes once resolved
    (absent while it waits for files); conflicts between files for the referee only."""

    battle_id: str
    number: int
    status: BattleStatus
    sides: tuple[str, ...]
    control_side: str | None = None
    track: int | None = None
    units: tuple[UnitOutcome, ...] = ()
    people: tuple[PersonOutcome, ...] = ()
    side_outcomes: tuple[SideOutcome, ...] = ()
    conflicts: tuple[Conflict, ...] = ()

    @property
    def resolved(self) -> bool:
        return self.control_side is not None


def battle_report(state: CampaignState, battle_id: str, side_id: str | None) -> BattleReport:
    ledger = getattr(state, "battles", None)
    battles = getattr(ledger, "battles", None)
    if battles is None:
        raise unimplemented("battle reports")
    battle = battles.get(battle_id)
    if battle is None:
        raise _not_found(battle_id)
    fought = tuple(sorted(fought_by(state, battle.battle_id)))
    if side_id is not None and side_id not in fought:
        raise _not_found(battle_id)
    head = BattleReport(
        battle_id=battle.battle_id, number=battle.number, status=battle.status, sides=fought
    )
    resolution = battle.resolution
    if resolution is None:
        return head
    return replace(
        head,
        control_side=resolution.control_side,
        track=resolution.track,
        units=tuple(
            u for u in resolution.units if side_id is None or side_id in (u.side_id, u.salvaged_by)
        ),
        people=tuple(
            p for p in resolution.people if side_id is None or side_id in (p.side_id, p.captured_by)
        ),
        side_outcomes=tuple(
            _retires_told(s, resolution.units)
            for s in resolution.sides
            if side_id is None or s.side_id == side_id
        ),
        conflicts=resolution.conflicts if side_id is None else (),
    )


def _retires_told(side: SideOutcome, units: tuple[UnitOutcome, ...]) -> SideOutcome:
    """R-VP-6: whether the side retires (L413, half its starting BV) is null while one of its
    own units has no BV, as ``mekref report`` shows it; a log written before the resolution
    said so holds a bool read from the partial sum, which is not sent."""
    own = {u.unit_id for u in units if u.side_id == side.side_id}
    if own.intersection(side.units_without_bv):
        return replace(side, retires=None)
    return side


def report_json(report: BattleReport, referee: bool) -> dict[str, Any]:
    """The report's JSON as it has always been sent: a waiting battle's without the resolved
    fields, a side's without the conflicts."""
    data = to_jsonable(report)
    assert isinstance(data, dict)
    if not referee:
        data.pop("conflicts", None)
    if not report.resolved:
        for key in ("control_side", "track", "units", "people", "side_outcomes", "conflicts"):
            data.pop(key, None)
    return data


def report_text(report: BattleReport, state: CampaignState) -> str:
    lines = [f"battle {report.battle_id} (#{report.number}): {report.status}"]
    if not report.resolved:
        lines.append(f"waiting: sides {', '.join(report.sides)}")
        return "\n".join(lines)
    lines.append(f"field held by {report.control_side}; track {report.track}")
    for unit in report.units:
        known = state.units.get(unit.unit_id)
        name = f"{known.chassis} {known.model}" if known else unit.unit_id
        salvage = f", salvaged by {unit.salvaged_by}" if unit.salvaged_by else ""
        lines.append(f"  unit {name}: {unit.fate}{salvage}")
    for person in report.people:
        known_person = state.people.get(person.person_id)
        name = known_person.name if known_person else person.person_id
        lines.append(f"  {name}: {person.fate}, {person.hits} hits")
    for side in report.side_outcomes:
        if side.vp_known:
            lines.append(f"  side {side.side_id}: VP {side.vp_delta:+d}")
        else:  # R-VP-6: never a plausible "+0"
            lines.append(
                f"  side {side.side_id}: VP not known ({len(side.units_without_bv)} unit(s) of "
                "the battle without a BV; mekref battle bv records it, R-VP-6)"
            )
    return "\n".join(lines)
