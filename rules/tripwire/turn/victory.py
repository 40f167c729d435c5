"""Strategic victory points and the end of the campaign (lines 411-428, 162).

Controlling Locations: 1 VP per location garrisoned unopposed by at least a lance (line 426).
Seat of Power: 2 VP while the side's VIP is in the capital's government building (line 428).
The campaign ends at 10 VP (line 414), when a leader is captured (line 162), or when a force
falls below 50% of its starting BV (line 412).
"""

from __future__ import annotations

from collections.abc import Mapping

from mekref.hexmap import HexMap, label
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.data import single
from mekref.rules.tripwire.turn.state import Formation, StrategicState

#: "at least a subforce (e.g. Lance)": four units, an Inner Sphere lance (ruling T-V1).
LANCE = 4


def strategic_vp(
    s: StrategicState,
    hexmap: HexMap,
    formations: Mapping[str, Formation],
    control: Mapping[str, str],
) -> dict[str, int]:
    vp = {side: 0 for side in s.vp} | {side: 0 for side in control.values()}
    per_location = int(single("strategic_victory", "location_vp")["vp"])
    seat = single("strategic_victory", "seat_of_power")
    by_hex: dict[str, list[Formation]] = {}
    for f in formations.values():
        by_hex.setdefault(f.hex, []).append(f)
    for loc in hexmap.locations:
        holder = control.get(loc.name)
        if holder is None:
            continue
        here = by_hex.get(label(loc.hex), [])
        if any(f.side_id != holder for f in here):
            continue  # opposed
        if len(s.destroyed.get(loc.name, ())) >= len(loc.facilities) > 0:
            continue  # every structure destroyed: no longer scores
        if sum(len(f.unit_ids) for f in here) >= LANCE:
            vp[holder] = vp.get(holder, 0) + per_location
        if loc.name == seat["location"] and any(f.carries_leader for f in here):
            vp[holder] = vp.get(holder, 0) + int(seat["vp"])
    return vp


def end_reason(state: CampaignState, s: StrategicState, vp: Mapping[str, int]) -> str:
    target = int(single("strategic_victory", "end")["vp"])
    # Battle VP (kept by the battle rules) and strategic VP count together (line 415).
    battle = state.battles.victory_points
    total = {side: vp.get(side, 0) + battle.get(side, 0) for side in sorted({*vp, *battle})}
    winners = sorted(side for side, points in total.items() if points >= target)
    if winners:
        best = max(total.values())
        top = sorted(side for side, points in total.items() if points == best)
        return f"{', '.join(winners)} reached {target} VP; most VP: {', '.join(top)}"
    if s.leader_captured:
        return f"the leader of {', '.join(s.leader_captured)} was captured"
    percent = int(single("strategic_victory", "end_bv")["percent"])
    bv: dict[str, int] = {}
    for unit in state.units.values():
        bv[unit.side_id] = bv.get(unit.side_id, 0) + unit.bv
    for side, start in sorted(s.starting_bv.items()):
        if start > 0 and bv.get(side, 0) * 100 < start * percent:
            return f"{side} fell below {percent}% of its starting BV"
    return ""
