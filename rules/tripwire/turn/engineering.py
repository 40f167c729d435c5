"""Engineers repairing a destroyed DropPort (L219, ruling T-EN1).

L219: "DropPorts that are destroyed can be repaired if Engineers are present in 1 campaign
turn." A formation with a combat engineer unit (``UnitRole.ENGINEER``, from the design's
infantry specialization) standing at the location takes a ``repair`` order whose ``target`` is
the destroyed DropPort; at the end of that day it stands again (``FacilityRestored``).
"""

from __future__ import annotations

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.holding import in_play
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.mapdata import hex_at, hexmap_of
from mekref.rules.tripwire.turn.state import IN_ORBIT, Formation, FormationOrder, StrategicState

L219 = (
    "L219 'DropPorts that are destroyed can be repaired if Engineers are present in 1 "
    "campaign turn'"
)

#: The DropPort facilities of the map (L274: Small, Medium, Large).
DROPPORTS = frozenset({"dropport_small", "dropport_medium", "dropport_large"})


def engineers(state: CampaignState, f: Formation) -> tuple[str, ...]:
    """The formation's combat engineer units that still stand (a wreck repairs nothing)."""
    return tuple(
        u for u in f.unit_ids if in_play(state, u) and UnitRole.ENGINEER in state.units[u].roles
    )


def check(
    state: CampaignState, s: StrategicState, f: Formation, order: FormationOrder, field: str
) -> str:
    """The location whose DropPort the order repairs, or a refusal naming why not."""
    loc = hexmap_of(s).location_at(hex_at(f.hex)) if f.hex != IN_ORBIT else None
    if loc is None:
        raise Refusal(
            "not_at_location", f"{field}.action: {f.formation_id} is not in a location's hex"
        )
    target = order.target or ""
    if target not in DROPPORTS:
        raise Refusal(
            "bad_target",
            f"{field}.target: engineers repair a destroyed DropPort "
            f"({', '.join(sorted(DROPPORTS))}), not {target!r}; {L219}",
        )
    if target not in loc.facilities or target not in s.destroyed.get(loc.name, ()):
        raise Refusal(
            "bad_target", f"{field}.target: {loc.name} has no destroyed {target!r}; {L219}"
        )
    if not engineers(state, f):
        raise Refusal(
            "wrong_units",
            f"{field}.action: {f.formation_id} has no combat engineers (infantry with an "
            f"engineer specialization); {L219}",
        )
    return loc.name
