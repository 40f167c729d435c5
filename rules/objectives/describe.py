"""Each objectives event in words, for the people at the table (``mekref game do``).

An event this module does not know yet is shown by the kernel's field-by-field fallback, so a
new event is never hidden, only less readable until it is added here.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from mekref.rules.kernel import describe_fields
from mekref.rules.messages import Event
from mekref.rules.objectives import events as e
from mekref.rules.objectives.model import DropReason
from mekref.rules.objectives.table_loader import load_tables

_DROP = {
    DropReason.CHOSEN: "by choice",
    DropReason.OUT_OF_COHERENCY: "out of coherency",
    DropReason.FAILED_FORTITUDE: "after a failed Fortitude test",
    DropReason.CARRIER_DESTROYED: "as its carrier was destroyed",
}
_HOW = {
    "claim": "claims",
    "search": "finds and claims",
    "drop": "picks up the dropped",
    "close_quarters": "takes in close quarters",
}


def inches(n: Fraction) -> str:
    return f"{float(n):g}" if n.denominator in (1, 2, 4, 8) else str(n)


def _set_up(x: e.ScenarioSetUp) -> str:
    words = (
        f"scenario set up: sides {', '.join(x.sides)}; {len(x.objectives)} objectives "
        f"({', '.join(o.objective_id for o in x.objectives)}); {len(x.squads)} squads"
    )
    if x.table_width is not None and x.table_depth is not None:
        words += f'; table {inches(x.table_width)}" x {inches(x.table_depth)}"'
    if x.placing_order:
        words += f"; the players place objectives in turn: {', '.join(x.placing_order)}"
    if x.far_edge_unchecked:
        words += (
            f'; warning: the 6" far-edge check was not made for '
            f"{', '.join(x.far_edge_unchecked)} (no table size given)"
        )
    return words


def _placed(x: e.ObjectivePlaced) -> str:
    inside = f" on garrison {x.garrison}" if x.garrison else ""
    kind = "hidden" if x.hidden else "open"
    return (
        f"{x.side} places objective {x.objective_id} at "
        f'{inches(x.position.x)}", {inches(x.position.y)}"{inside} ({kind})'
    )


def _garrison_destroyed(x: e.GarrisonDestroyed) -> str:
    out = f"; squads {', '.join(x.squads_out)} stand outside it" if x.squads_out else ""
    return f"garrison {x.garrison} is destroyed{out}"


def _claimed(x: e.Claimed) -> str:
    taken = f" from {x.previous_side}" if x.previous_side else ""
    carried = ", carrying it" if x.carried else ""
    how = _HOW.get(x.how, x.how)
    return f"{x.squad_id} ({x.side}) {how} objective {x.objective_id}{taken}{carried}"


def _search(x: e.SearchMade) -> str:
    parts = [f"d6 {x.die}"]
    if x.enemy_modifier:
        parts.append(f"enemy {x.enemy_modifier:+d}")
    if x.scan_bonus:
        parts.append(f"scan tokens {x.scan_bonus:+d}")
    # L23 "Add the resulting number to the number of the current round": the round is part of
    # the sum, so the words show it (before, "d6 4 ... = 6" hid the +2 of round 2).
    parts.append(f"round {x.round:+d}")
    result = "found it" if x.found else "not found"
    return (
        f"round {x.round}: {x.squad_id} searches {x.objective_id}: "
        f"{' '.join(parts)} = {x.total}, needs {load_tables().search_target}+: {result}"
    )


def _moved(x: e.SquadMoved) -> str:
    where = (
        f"into garrison {x.garrison}"
        if x.garrison
        else "aboard an Aircraft"
        if x.in_aircraft
        else "on the table"
    )
    lost = " (its scan token is removed)" if x.scan_token_removed else ""
    return f"{x.squad_id} moves {where}{lost}"


def _dropped(x: e.Dropped) -> str:
    inside = f" inside {x.garrison}" if x.garrison else ""
    return f"{x.squad_id} drops objective {x.objective_id}{inside} {_DROP[x.reason]}"


_WORDS: dict[type[Event], Callable[[Any], str]] = {
    e.ScenarioSetUp: _set_up,
    e.ObjectivePlaced: _placed,
    e.SquadAdded: lambda x: f"squad {x.squad.squad_id} joins side {x.squad.side}",
    e.RoundStarted: lambda x: f"round {x.round} begins",
    e.Claimed: _claimed,
    e.ScanTokenPlaced: lambda x: f"{x.squad_id} places a scan token",
    e.SquadMoved: _moved,
    e.SearchMade: _search,
    e.Passed: lambda x: f"{x.from_squad} passes objective {x.objective_id} to {x.to_squad}",
    e.Dropped: _dropped,
    e.ObjectiveDestroyed: lambda x: f"{x.squad_id} destroys objective {x.objective_id}",
    e.ObjectiveRemoved: lambda x: (
        f"objective {x.objective_id} is removed with garrison {x.garrison}"
    ),
    e.SquadDestroyed: lambda x: f"squad {x.squad_id} is destroyed",
    e.GarrisonDestroyed: _garrison_destroyed,
    e.Extracted: lambda x: f"{x.squad_id} ({x.side}) extracts objective {x.objective_id}",
}


def describe(event: Event) -> str:
    words = _WORDS.get(type(event))
    return words(event) if words is not None else describe_fields(event)
