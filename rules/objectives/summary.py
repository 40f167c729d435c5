"""An objectives scenario in words (``mekref game report``): who holds which objective."""

from __future__ import annotations

from collections import Counter

from mekref.rules.kernel import Section
from mekref.rules.objectives.describe import inches
from mekref.rules.objectives.model import ObjectivesState


def summarize(state: ObjectivesState) -> tuple[Section, ...]:
    if not state.set_up:
        return (Section("scenario", ("not set up",)),)
    held = Counter(o.claimed_by for o in state.objectives.values() if o.claimed_by)
    scenario = [
        f"round {state.round}" if state.round else "before the first round",
        "claimed: " + ", ".join(f"{side} {held.get(side, 0)}" for side in state.sides),
    ]
    placer = state.next_placer()
    if placer is not None:
        scenario.append(f"placing objectives: {placer} places next")
    if state.destroyed_garrisons:
        scenario.append("destroyed garrisons: " + ", ".join(state.destroyed_garrisons))
    objectives = []
    for oid, o in sorted(state.objectives.items()):
        by = f", claimed by {o.claimed_by}" if o.claimed_by else ""
        carrier = f", carried by {o.carrier}" if o.carrier else ""
        where = f", in {o.garrison}" if o.garrison and not o.carrier else ""
        kind = " ".join(k for k, on in (("hidden", o.hidden), ("mobile", o.mobile)) if on)
        status = str(o.status).replace("_", " ")
        at = f', at {inches(o.position.x)}", {inches(o.position.y)}"' if o.position else ""
        at = "" if o.carrier else at
        line = f"{oid}{f' ({kind})' if kind else ''}: {status}{by}{carrier}{where}{at}"
        objectives.append(line)
    squads = []
    for sid, q in sorted(state.squads.items()):
        if q.destroyed:
            squads.append(f"{sid} ({q.side}): destroyed")
            continue
        where = f"in {q.garrison}" if q.garrison else "aboard an Aircraft" if q.in_aircraft else ""
        parts = [p for p in (where, f"carrying {q.carrying}" if q.carrying else "") if p]
        squads.append(f"{sid} ({q.side})" + (f": {', '.join(parts)}" if parts else ""))
    return (
        Section("scenario", tuple(scenario)),
        Section("objectives", tuple(objectives)),
        Section("squads", tuple(squads)),
    )
