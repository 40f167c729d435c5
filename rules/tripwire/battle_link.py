"""Battles and the engagements of the strategic map (L179, L280; rulings T-E8, T-E9).

L280: "Whenever two formations occupy the same hex (or cross a hex with another formation) a
scenario begins in that hex". A battle fought in MegaMek is one of those scenarios: its file's
units are units of the formations of one engagement the day's resolution set up. A file whose
units stand in no open engagement is a battle that never happened on the map; the rules hold it
until the referee confirms it (who and why are recorded).

Ruling T-E8: linking applies only once the campaign has a strategic map. A books-only campaign
(no ``turn setup``) has no engagements, and its battles are taken as before.

An engagement is *open* while it is among the engagements of the last resolved day (they are
set up again each day the formations stay together, T-E5) and no resolved battle is linked to
it; a resolved battle closes it. Ruling T-E9: after the battle, formations of different sides
still standing in its hex meet again the next day (L179, L280); the referee moves the one that
falls back (T-E7), and the report says so.
"""

from __future__ import annotations

from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.battle_model import Battle, BattleStatus, Fate
from mekref.rules.tripwire.holding import in_play, kept_and_crewed
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.state import IN_ORBIT, EngagementSetup, StrategicState


@record
class Link(Record):
    """The open engagement a file's units fit, or why they fit none (``reason``)."""

    engagement_id: str = ""
    reason: str = ""


@record
class StillTogether(Record):
    """After a battle: formations of more than one side still standing in its hex."""

    battle_id: str
    engagement_id: str
    hex: str
    formations: tuple[tuple[str, str], ...]  # (formation id, side id)
    next_day: int

    def sentence(self) -> str:
        names = ", ".join(f"{f} ({side})" for f, side in self.formations)
        return (
            f"after battle {self.battle_id} (engagement {self.engagement_id}) {names} still "
            f"share hex {self.hex}: they meet again on day {self.next_day} (L179, L280: a "
            "scenario begins whenever two formations occupy the same hex) unless the referee "
            "moves the side that falls back (mekref turn reposition, ruling T-E7)"
        )


def linked(state: CampaignState) -> bool:
    """Ruling T-E8: battles link to engagements only once the strategic map has started."""
    return state.strategic is not None


def closed_engagements(state: CampaignState) -> dict[str, str]:
    """Engagement id -> the resolved battle that closed it, for the engagements of the
    strategic map's last day (the only ones a file or a battle can still be fought for)."""
    s = state.strategic
    if s is None:
        return {}
    book = state.battles.battles
    closed = {e.engagement_id: book.closed_by(e.engagement_id) for e in s.engagements}
    return {engagement: battle for engagement, battle in closed.items() if battle is not None}


def open_engagements(state: CampaignState) -> tuple[EngagementSetup, ...]:
    s = state.strategic
    if s is None:
        return ()
    closed = closed_engagements(state)
    return tuple(e for e in s.engagements if e.engagement_id not in closed)


def engagement_units(s: StrategicState, e: EngagementSetup) -> frozenset[str]:
    """The units of the engagement's formations (those its scenario export commits)."""
    return frozenset(
        u for fid in e.formations if fid in s.formations for u in s.formations[fid].unit_ids
    )


def _where(state: CampaignState, s: StrategicState, unit_id: str) -> str:
    unit = state.units.get(unit_id)
    name = f"{unit.chassis} {unit.model} ({unit_id[:8]}) of {unit.side_id}" if unit else unit_id
    for f in s.formations.values():
        if unit_id in f.unit_ids:
            hex_ = "orbit" if f.hex == IN_ORBIT else f"hex {f.hex}"
            return f"{name} is with formation {f.formation_id} in {hex_}"
    return f"{name} is in no formation"


def link_for(state: CampaignState, unit_ids: frozenset[str]) -> Link:
    """The open engagement whose formations hold every one of ``unit_ids``: those still in
    play, a wreck of an earlier battle being in no formation (R-VP-7)."""
    s = state.strategic
    if s is None:
        return Link()
    unit_ids = frozenset(u for u in unit_ids if in_play(state, u)) or unit_ids
    opened = open_engagements(state)
    fits = [e for e in opened if unit_ids <= engagement_units(s, e)]
    if len(fits) == 1:
        return Link(engagement_id=fits[0].engagement_id)
    if len(fits) > 1:
        names = ", ".join(e.engagement_id for e in fits)
        return Link(reason=f"the file fits several open engagements ({names})")
    closed = closed_engagements(state)
    fought = [
        f"{e.engagement_id} (closed by battle {closed[e.engagement_id]})"
        for e in s.engagements
        if e.engagement_id in closed and unit_ids <= engagement_units(s, e)
    ]
    if fought:
        return Link(reason=f"its engagement was already fought: {', '.join(fought)}")
    if not opened:
        return Link(reason=f"no engagement is open on the strategic map (day {s.day})")
    best = max(opened, key=lambda e: (len(unit_ids & engagement_units(s, e)), e.engagement_id))
    outside = sorted(unit_ids - engagement_units(s, best))
    shown = "; ".join(_where(state, s, u) for u in outside[:3])
    more = f"; and {len(outside) - 3} more" if len(outside) > 3 else ""
    if len(outside) == len(unit_ids):
        names = ", ".join(f"{e.engagement_id} in hex {e.hex}" for e in opened)
        return Link(
            reason=f"it matches no open engagement: none of its units fights in one "
            f"(open: {names}); {shown}{more}"
        )
    return Link(
        reason=f"it matches no open engagement: the nearest, {best.engagement_id} in hex "
        f"{best.hex} ({', '.join(best.formations)}), does not hold {shown}{more}"
    )


def still_together(state: CampaignState, battle: Battle) -> StillTogether | None:
    """Formations of several sides standing in the hex of the battle's engagement now."""
    s = state.strategic
    if s is None or not battle.engagement_id or battle.status is not BattleStatus.RESOLVED:
        return None
    where = _engagement_hex(s, battle.engagement_id)
    if where is None:
        return None
    here = sorted(
        (f.formation_id, f.side_id)
        for f in s.formations.values()
        if f.hex == where and _still_fighting(state, f.side_id, f.unit_ids)
    )
    if len({side for _, side in here}) < 2:
        return None
    return StillTogether(
        battle_id=battle.battle_id,
        engagement_id=battle.engagement_id,
        hex=where,
        formations=tuple(here),
        next_day=s.day,
    )


def _engagement_hex(s: StrategicState, engagement_id: str) -> str | None:
    """The engagement's hex while it is among the last resolved day's engagements."""
    for e in s.engagements:
        if e.engagement_id == engagement_id:
            return e.hex
    return None


def _still_fighting(state: CampaignState, side_id: str, unit_ids: tuple[str, ...]) -> bool:
    """A formation whose units have all left play (truly destroyed, L145-L146) or were captured
    (they joined the captor's TO&E, L136) is no longer a force in the hex; captured salvage its
    new side kept and crewed is one again (R-VP-4)."""
    return any(
        in_play(state, u)
        and state.units[u].side_id == side_id
        and (state.battles.fates.get(u) is not Fate.CAPTURED or kept_and_crewed(state, u))
        for u in unit_ids
    )


def after_battles(state: CampaignState) -> tuple[StillTogether, ...]:
    """For every resolved battle of the current engagements: who still shares its hex."""
    s = state.strategic
    if s is None:
        return ()
    book = state.battles.battles
    # Only a battle linked to one of the current engagements can be (still_together).
    linked_now = {b for e in s.engagements for b in book.fought_for(e.engagement_id)}
    out = []
    for battle_id in sorted(linked_now, key=lambda b: (book.summary(b).number, b)):
        together = still_together(state, book[battle_id])
        if together is not None:
            out.append(together)
    return tuple(out)
