"""The report of one battle, cut to what the caller may see.

Built from the battle ledger the rules keep (``state.battles``). The referee gets everything.
A side gets a battle only if it fought in it, and then only its own units and people, the enemy
units it salvaged, the people it captured, and its own side outcome; conflicts between files
(which quote the other side's file) stay with the referee. A battle the side did not fight is
reported exactly like one that does not exist.
"""

from __future__ import annotations

from typing import Any

import grpc

from mekref.daemon.grpc.errors import ApiError, unimplemented
from mekref.rules.codec import to_jsonable
from mekref.rules.tripwire.state import CampaignState


def _not_found(battle_id: str) -> ApiError:
    return ApiError(grpc.StatusCode.NOT_FOUND, f"no battle {battle_id!r} for you", "unknown_battle")


def battle_report(state: CampaignState, battle_id: str, side_id: str | None) -> dict[str, Any]:
    ledger = getattr(state, "battles", None)
    battles = getattr(ledger, "battles", None)
    if battles is None:
        raise unimplemented("battle reports")
    battle = battles.get(battle_id)
    if battle is None:
        raise _not_found(battle_id)
    fought = {state.units[u].side_id for u in battle.unit_ids if u in state.units}
    if side_id is not None and side_id not in fought:
        raise _not_found(battle_id)
    resolution = battle.resolution
    report: dict[str, Any] = {
        "battle_id": battle.battle_id,
        "number": battle.number,
        "status": str(battle.status),
        "sides": sorted(fought),
    }
    if resolution is None:
        return report
    units = [
        u for u in resolution.units if side_id is None or side_id in (u.side_id, u.salvaged_by)
    ]
    people = [
        p for p in resolution.people if side_id is None or side_id in (p.side_id, p.captured_by)
    ]
    outcomes = [s for s in resolution.sides if side_id is None or s.side_id == side_id]
    report.update(
        control_side=resolution.control_side,
        track=resolution.track,
        units=to_jsonable(tuple(units)),
        people=to_jsonable(tuple(people)),
        side_outcomes=to_jsonable(tuple(outcomes)),
    )
    if side_id is None:
        report["conflicts"] = to_jsonable(resolution.conflicts)
    return report


def report_text(report: dict[str, Any], state: CampaignState) -> str:
    lines = [f"battle {report['battle_id']} (#{report['number']}): {report['status']}"]
    if "control_side" not in report:
        lines.append(f"waiting: sides {', '.join(report['sides'])}")
        return "\n".join(lines)
    lines.append(f"field held by {report['control_side']}; track {report['track']}")
    for unit in report["units"]:
        known = state.units.get(unit["unit_id"])
        name = f"{known.chassis} {known.model}" if known else unit["unit_id"]
        salvage = f", salvaged by {unit['salvaged_by']}" if unit.get("salvaged_by") else ""
        lines.append(f"  unit {name}: {unit['fate']}{salvage}")
    for person in report["people"]:
        known_person = state.people.get(person["person_id"])
        name = known_person.name if known_person else person["person_id"]
        lines.append(f"  {name}: {person['fate']}, {person['hits']} hits")
    for side in report["side_outcomes"]:
        lines.append(f"  side {side['side_id']}: VP {side['vp_delta']:+d}")
    return "\n".join(lines)
