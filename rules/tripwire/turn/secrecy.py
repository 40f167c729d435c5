"""The one cut of an engagement a side may see: what its scenario export shows, nothing more.

An engagement's setup holds both sides' secrets: each side's tactical objective (written down
before the scenario, line 283), its formations and their arrival turns, its aerospace support,
and notes such as a Guard order's hidden deployment (line 320) or an ambusher's choice. Every
per-side channel (the side view, the event stream, the scenario sheet) takes this cut, so no
channel tells a side more than its own export does.

Kept for both sides: the engagement's id, day, hex, kind, sides, attacker, ambusher and the
ambush rolls, map sheets, terrain and weather (the sheet prints them for both). Cut to the
side's own: objectives, formations, arrivals, aerospace, command-centre bonus, and notes that
name it (or name no side).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from mekref.rules.tripwire.turn.state import EngagementSetup


def own_notes(e: EngagementSetup, side_id: str) -> tuple[str, ...]:
    """The notes about ``side_id``, or about no side in particular."""
    return tuple(
        n for n in e.notes if n.startswith(side_id) or not any(n.startswith(x) for x in e.sides)
    )


def engagement_for(
    e: EngagementSetup, side_id: str, formation_side: Mapping[str, str]
) -> EngagementSetup:
    """``e`` as ``side_id`` may know it. ``formation_side``: formation id -> its side; a
    formation it does not list counts as the enemy's (hiding too much, never too little)."""
    return replace(
        e,
        formations=tuple(f for f in e.formations if formation_side.get(f) == side_id),
        objectives=tuple((s, goal) for s, goal in e.objectives if s == side_id),
        arrivals=tuple(a for a in e.arrivals if a.side_id == side_id),
        aerospace=tuple(a for a in e.aerospace if a[0] == side_id),
        command_centre=tuple(s for s in e.command_centre if s == side_id),
        notes=own_notes(e, side_id),
    )
