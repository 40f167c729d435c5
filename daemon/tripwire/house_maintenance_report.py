"""The house rules' maintenance checks in words, for ``mekref report``: each unit's kept quality
grade and the house-rules log line of a check or its damage (rulings HOUSE-40 to HOUSE-43). Not a
command module: the report loads it without ``mekref turn``'s commands.
"""

from __future__ import annotations

from typing import Any

from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import house_maintenance, rolled_damage
from mekref.rules.tripwire.turn.events import UnitDamageRolled
from mekref.rules.tripwire.turn.house_maintenance import HouseMaintenanceChecked


def report_quality(state: CampaignState) -> list[dict[str, Any]]:
    """Each unit's kept quality grade (HOUSE-41), for ``mekref report``."""
    return [
        {"unit": uid, "grade": q.grade, "checks": q.checks, "last_day": q.last_day}
        for uid, q in sorted(state.house_quality.items())
    ]


def log_entry(seq: int, e: object) -> dict[str, Any] | None:
    """The report's house-rules log line of a maintenance check or its damage, or None."""
    if isinstance(e, HouseMaintenanceChecked):
        return {
            "seq": seq,
            "unit": e.check.unit_id,
            "what": "maintenance check",
            "lines": [house_maintenance.describe(e)],
        }
    if isinstance(e, UnitDamageRolled) and e.cause == "maintenance check":
        lines = [*e.notes[1:], *(rolled_damage.describe(x) for x in e.lines)]
        return {"seq": seq, "unit": e.unit_id, "what": "maintenance check damage", "lines": lines}
    return None
