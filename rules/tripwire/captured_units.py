"""Where a captured unit stands on the strategic map (ruling T-F7 in docs/turn.md).

L136: players who control the field "may claim any enemy immobile 'Mechs as salvage. They take
control of the the 'Mech". L137: "'Mechs are immobile and can be salvaged if: ...". A unit taken
as salvage cannot walk off: it leaves the enemy's formation the moment the battle resolves with
it captured (or the referee records it captured), and stands in the hex where the battle was
until its captor forms a formation of it there (``mekref formation create --hex``). Until then
the map still places it, so its captor's technicians and pools in that hex may work on it
(R-WHERE-1).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mekref.rules.tripwire.holding import in_play, leave_formations
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.state import IN_ORBIT, StrategicState

L137 = 'L137 "‘Mechs are immobile and can be salvaged if"'


def engagement_hex(s: StrategicState, engagement_id: str) -> str | None:
    """The hex of the engagement a battle was fought for; None when it has none on the map."""
    if not engagement_id:
        return None
    for e in s.engagements:
        if e.engagement_id == engagement_id:
            return e.hex
    return None


def _standing(s: StrategicState, unit_id: str) -> str | None:
    """The hex the unit stands in now: a formation's holding it, or where it was taken."""
    for _, f in sorted(s.formations.items()):
        if unit_id in f.unit_ids:
            return f.hex
    return s.captured_at.get(unit_id)


def taken(state: CampaignState, unit_ids: Iterable[str], battlefield: str | None) -> CampaignState:
    """``unit_ids``, captured, leave the enemy's formation at once (an emptied formation is
    dissolved, with its orders) and stand on ``battlefield`` (the battle's hex), else where
    their formation stood. In orbit there is no hex to stand in: such a unit is in no
    formation and the map does not place it (ruling T-F2 applies)."""
    s = state.strategic
    ids = tuple(unit_ids)
    if s is None or not ids:
        return state
    where: dict[str, str] = {}
    for unit_id in ids:
        if not in_play(state, unit_id):
            continue  # a truly destroyed wreck changes hands but stands nowhere (R-VP-7)
        hex_ = battlefield if battlefield else _standing(s, unit_id)
        if hex_ is not None and hex_ != IN_ORBIT:
            where[unit_id] = hex_
    state = leave_formations(state, ids)
    s = state.strategic
    assert s is not None
    captured_at = dict(sorted({**s.captured_at, **where}.items()))
    return replace(state, strategic=replace(s, captured_at=captured_at))


def formed(s: StrategicState, unit_ids: Iterable[str]) -> dict[str, str]:
    """``captured_at`` once ``unit_ids`` are in a formation again."""
    gone = set(unit_ids)
    if not gone & s.captured_at.keys():
        return s.captured_at
    return {u: h for u, h in s.captured_at.items() if u not in gone}


def refuse_apart(s: StrategicState, unit_ids: Iterable[str], where: str) -> str:
    """Why captured ``unit_ids`` cannot form a formation in ``where``; "" when they can."""
    apart = [(u, s.captured_at[u]) for u in unit_ids if s.captured_at.get(u, where) != where]
    if not apart:
        return ""
    named = ", ".join(f"{u} in {h}" for u, h in apart)
    return (
        f"captured units stand where the battle that took them was ({named}), immobile salvage "
        f"({L137}); they form a formation only there, not in {where} (ruling T-F7)"
    )
