"""An objectives scenario in words (``mekref game report``): who holds which objective.

Objective tokens lie on the table in plain sight (ObjectivesViews): a side's report is the
referee's, its own side marked."""

from __future__ import annotations

from collections import Counter

from mekref.rules.kernel import Section
from mekref.rules.objectives.describe import inches
from mekref.rules.objectives.model import ObjectivesState, ObjectiveStatus

#: What a side holds (L1: objectives are what an army must "discover, capture, or extract from
#: the combat zone in order to win the game"): claimed on the table, carried or extracted.
_HELD = (ObjectiveStatus.ON_TABLE, ObjectiveStatus.CARRIED, ObjectiveStatus.EXTRACTED)


def held_by(state: ObjectivesState) -> dict[str, tuple[str, ...]]:
    """Objectives each side holds now (claimed on the table, carried or extracted)."""
    out: dict[str, list[str]] = {side: [] for side in state.sides}
    for obj in sorted(state.objectives.values(), key=lambda o: o.objective_id):
        if obj.status in _HELD and obj.claimed_by is not None:
            out.setdefault(obj.claimed_by, []).append(obj.objective_id)
    return {side: tuple(ids) for side, ids in out.items()}


def holdings(state: ObjectivesState, side: str | None = None) -> tuple[str, str]:
    """Who holds which objective, in one line, and the winner on objectives (ruling OBJ-14):
    the side that holds the most; none when the most are held by more than one side."""
    held = held_by(state)
    parts = []
    for who, ids in held.items():
        names = [
            f"{i} (extracted)" if state.objectives[i].status is ObjectiveStatus.EXTRACTED else i
            for i in ids
        ]
        label = f"{who} (you)" if who == side else who
        parts.append(f"{label} {', '.join(names) if names else 'none'}")
    when = f"at round {state.round}" if state.round else "before the first round"
    line = f"held {when}: " + "; ".join(parts)
    counts = sorted(((len(ids), who) for who, ids in held.items()), reverse=True)
    most = counts[0][0] if counts else 0
    leaders = [who for n, who in counts if n == most]
    if most == 0:
        winner = "winner on objectives: none (no side holds an objective)"
    elif len(leaders) > 1:
        winner = f"winner on objectives: none ({' and '.join(sorted(leaders))} hold {most} each)"
    else:
        others = ", ".join(f"{who} {n}" for n, who in counts[1:])
        against = f" against {others}" if others else ""
        winner = f"winner on objectives: {leaders[0]} ({most} held{against})"
    return line, winner


def summarize(state: ObjectivesState, side: str | None = None) -> tuple[Section, ...]:
    """The scenario in words; ``side`` marks the side whose view ``state`` is (None: the
    referee)."""
    if not state.set_up:
        return (Section("scenario", ("not set up",)),)
    held = Counter(o.claimed_by for o in state.objectives.values() if o.claimed_by)
    scenario = [
        f"round {state.round}" if state.round else "before the first round",
        "claimed: " + ", ".join(f"{s} {held.get(s, 0)}" for s in state.sides),
        *holdings(state, side),
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
