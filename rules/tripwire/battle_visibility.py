"""What a side may see on its event stream of a battle it fought (ruling BR-17, docs/rulings.md).

A side's bot must be able to announce its own results, so the battle events reach every side
with a unit in the battle, each cut to what ``GetBattleReport`` already tells that side:

- ``BattleReportReceived``: that a file came for the battle, which battle and engagement, and
  the file's fingerprint and who sent it; never its content (a savegame or an enemy record
  lists the enemy's units and their damage);
- ``BattleConfirmed`` and ``BattleControlSet``: whole (who holds the field, the referee's word);
- ``BattleResolved``: the side's own units and people, the enemy units it salvages and the
  people it captured, its own VP line; no conflicts (they quote the enemy's claims).

A side with no unit in the battle sees none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mekref.rules.tripwire.state import CampaignState

#: The battle event types this module cuts.
BATTLE_EVENTS = frozenset(
    {"BattleReportReceived", "BattleConfirmed", "BattleControlSet", "BattleResolved"}
)
#: What of a received file a fighting side sees: its fingerprint and who sent it.
_FILE_KEYS = ("sha256", "root", "reporting_side", "uploaded_by")


def fought_by(state: CampaignState, battle_id: str) -> frozenset[str]:
    """The sides with a unit in the battle, as ``GetBattleReport`` counts them."""
    ledger = getattr(state, "battles", None)
    book = getattr(ledger, "battles", None)
    battle = book.get(battle_id) if book is not None else None
    if battle is None:
        return frozenset()
    units = state.units
    return frozenset(units[u].side_id for u in battle.unit_ids if u in units)


def battle_event_for(
    side_id: str, event_type: str, payload: dict[str, Any], state: CampaignState
) -> dict[str, Any] | None:
    """``payload`` cut for ``side_id``, or None when the side did not fight the battle."""
    battle_id = payload.get("battle_id")
    if not isinstance(battle_id, str) or side_id not in fought_by(state, battle_id):
        return None
    if event_type == "BattleReportReceived":
        return _file_received(payload)
    if event_type == "BattleResolved":
        return _resolved(side_id, payload)
    return payload


def _file_received(payload: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in payload.items() if k != "file"}
    file = payload.get("file")
    if isinstance(file, Mapping):
        out["file"] = {k: file[k] for k in _FILE_KEYS if k in file}
    return out


def _resolved(side_id: str, payload: Mapping[str, Any]) -> dict[str, Any] | None:
    resolution = payload.get("resolution")
    if not isinstance(resolution, Mapping):
        return None  # a payload we cannot cut is not shown at all

    def concerns(row: Any, *keys: str) -> bool:
        return isinstance(row, Mapping) and any(row.get(k) == side_id for k in keys)

    cut = {k: v for k, v in resolution.items() if k != "conflicts"}
    cut["units"] = [u for u in resolution.get("units", ()) if concerns(u, "side_id", "salvaged_by")]
    cut["people"] = [
        p for p in resolution.get("people", ()) if concerns(p, "side_id", "captured_by")
    ]
    cut["sides"] = [s for s in resolution.get("sides", ()) if concerns(s, "side_id")]
    cut["conflicts"] = []
    return {**payload, "resolution": cut}
