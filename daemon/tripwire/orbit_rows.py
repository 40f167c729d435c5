"""Rows of the orbit picture for ``mekref report`` and ``mekref satellite``/``dropship``:
the satellites (L270) and each DropShip's weekly hot standby and fatigue (L408).

Kept out of the command modules so ``mekref report`` loads no other command's module.
"""

from __future__ import annotations

from typing import Any

from mekref.daemon.cli_common import out_console
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.common import DROPSHIP
from mekref.rules.tripwire.turn.orbit import week_of
from mekref.rules.tripwire.turn.state import IN_ORBIT


def satellites(state: CampaignState) -> list[dict[str, Any]]:
    s = state.strategic
    if s is None:
        return []
    return [
        {
            "id": sat.satellite_id,
            "owner": sat.owner,
            "orbit": sat.orbit,
            "hex": sat.hex,
            "destroyed_day": sat.destroyed_day or None,
            "monitoring": not sat.destroyed_day,
        }
        for _, sat in sorted(s.satellites.items())
    ]


def dropships(state: CampaignState, side: str | None) -> list[dict[str, Any]]:
    """Each DropShip of the map: where it stands, this week's choice, its standby fatigue."""
    s = state.strategic
    if s is None:
        return []
    week = week_of(s.day)
    where = {u: f for f in s.formations.values() for u in f.unit_ids}
    out = []
    for uid, mob in sorted(s.mobility.items()):
        unit = state.units.get(uid)
        if mob.mode != DROPSHIP or unit is None or (side and unit.side_id != side):
            continue
        r = s.readiness.get(uid)
        f = where.get(uid)
        chosen = r is not None and r.week == week
        out.append(
            {
                "id": uid,
                "name": f"{unit.chassis} {unit.model}".strip(),
                "side": unit.side_id,
                "formation": f.formation_id if f else None,
                "landed": f is not None and f.hex != IN_ORBIT,
                "week": week,
                # L408 asks for a choice each week: None says none was made this week.
                "readiness": r.mode if r is not None and chosen else None,
                "extra_crew": bool(r and chosen and r.extra_crew),
                "fatigue": r.fatigue if r is not None else 0,
            }
        )
    return out


def print_dropships(rows: list[dict[str, Any]]) -> None:
    console = out_console()
    for r in rows:
        where = "landed" if r["landed"] else "in orbit"
        choice = r["readiness"] or f"no choice for week {r['week']} (L408: decide each week)"
        crew = ", extra full crew" if r["extra_crew"] else ""
        console.print(
            f"{r['name']} ({r['id']}, {r['side']}, {r['formation'] or 'no formation'}, {where}): "
            f"{choice}{crew}; fatigue {r['fatigue']}"
        )
