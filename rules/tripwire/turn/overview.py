"""The referee's overview of the strategic map: the whole picture on one page, fog lifted.

What ``mekref report`` prints above the books: the day, every formation where it stands, who
controls each location and each side's unrest, the sightings each side made, the engagements of
the last resolved day with the battle fought for each (rulings T-E8, T-E9), the formations a
battle left in one hex, and the strategic VP. Plain data (JSON-ready); the report prints it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mekref.rules.tripwire import battle_link
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.secrecy import engagement_for
from mekref.rules.tripwire.turn.side_overview import engagement_status
from mekref.rules.tripwire.turn.state import IN_ORBIT


def _together(state: CampaignState, side: str | None) -> list[battle_link.StillTogether]:
    out = []
    for t in battle_link.after_battles(state):
        own = tuple((f, x) for f, x in t.formations if not side or x == side)
        if own:
            out.append(replace(t, formations=own))
    return out


def engagement_rows(state: CampaignState, side: str | None = None) -> list[dict[str, Any]]:
    """Each engagement of the last resolved day: open, being fought (a battle is open for it,
    or held) or closed by its resolved battle."""
    s = state.strategic
    if s is None:
        return []
    by_engagement = {b.engagement_id: b for b in state.battles.battles.values() if b.engagement_id}
    # A side's rows list only its own formations, as its scenario export does (secrecy.py).
    owners = {fid: f.side_id for fid, f in s.formations.items()}
    rows = []
    for e in s.engagements:
        if side and side not in e.sides:
            continue
        formations = engagement_for(e, side, owners).formations if side else e.formations
        battle = by_engagement.get(e.engagement_id)
        rows.append(
            {
                "id": e.engagement_id,
                "day": e.day,
                "hex": e.hex,
                "kind": e.kind,
                "sides": list(e.sides),
                "formations": list(formations),
                "status": engagement_status(battle),
                "battle": battle.battle_id if battle is not None else None,
            }
        )
    return rows


def overview(state: CampaignState, side: str | None = None) -> dict[str, Any] | None:
    """The strategic picture, or None before the map has started (``turn setup``). With
    ``side``: that side's formations, sightings and engagements, each engagement and battle
    cut to its own formations (:mod:`~mekref.rules.tripwire.turn.side_overview` is the full
    cut, ruling T-V3)."""
    s = state.strategic
    if s is None:
        return None
    formations = [
        {
            "id": f.formation_id,
            "side": f.side_id,
            "name": f.name,
            "hex": f.hex or None,
            "where": "orbit" if f.hex == IN_ORBIT else f.hex,
            # Units still the side's own (a store from before T-F7 kept captured ones listed).
            "units": sum(
                1 for u in f.unit_ids if u in state.units and state.units[u].side_id == f.side_id
            ),
            "fatigue": f.fatigue,
        }
        for _, f in sorted(s.formations.items())
        if not side or f.side_id == side
    ]
    return {
        "day": s.day,
        "map": s.map_name,
        "ended": s.ended or None,
        "formations": formations,
        "control": dict(sorted(s.control.items())),
        "unrest": dict(sorted(s.unrest.items())),
        "sightings": {
            who: len(seen) for who, seen in sorted(s.sightings.items()) if not side or who == side
        },
        "engagements": engagement_rows(state, side),
        "still_together": [
            {
                "battle": t.battle_id,
                "engagement": t.engagement_id,
                "hex": t.hex,
                "formations": [{"formation": f, "side": x} for f, x in t.formations],
                "next": t.sentence(),
            }
            # A side's cut keeps only its own formations there (ruling T-V3).
            for t in _together(state, side)
        ],
        "strategic_vp": dict(sorted(s.vp.items())),
        # L409: the temporary runways engineers prepared, by side (each side's secret, T-LZ2).
        "runways": {x: list(h) for x, h in sorted(s.runways.items()) if not side or x == side},
    }
