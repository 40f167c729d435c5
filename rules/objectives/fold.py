"""Folding objective events into the scenario state. A fold never refuses: events are facts
already in the log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mekref.rules.messages import Event
from mekref.rules.objectives import events as e
from mekref.rules.objectives.model import (
    Objective,
    ObjectivesState,
    ObjectiveStatus,
    Squad,
)
from mekref.rules.objectives.table_loader import load_tables


def _put_obj(state: ObjectivesState, obj: Objective) -> ObjectivesState:
    return replace(state, objectives={**state.objectives, obj.objective_id: obj})


def _put_squad(state: ObjectivesState, squad: Squad) -> ObjectivesState:
    return replace(state, squads={**state.squads, squad.squad_id: squad})


def _ev_set_up(state: ObjectivesState, ev: e.ScenarioSetUp) -> ObjectivesState:
    return replace(
        state,
        seed=ev.seed,
        set_up=True,
        sides=ev.sides,
        objectives={o.objective_id: o for o in ev.objectives},
        squads={s.squad_id: s for s in ev.squads},
        table_width=ev.table_width,
        table_depth=ev.table_depth,
        placing_order=ev.placing_order,
    )


def _ev_placed(state: ObjectivesState, ev: e.ObjectivePlaced) -> ObjectivesState:
    obj = replace(
        state.objectives[ev.objective_id],
        status=ObjectiveStatus.ON_TABLE,
        position=ev.position,
        garrison=ev.garrison,
        hidden=ev.hidden,
        hidden_stated=None,
    )
    return replace(_put_obj(state, obj), placements_made=state.placements_made + 1)


def _ev_garrison_destroyed(state: ObjectivesState, ev: e.GarrisonDestroyed) -> ObjectivesState:
    state = replace(state, destroyed_garrisons=(*state.destroyed_garrisons, ev.garrison))
    for sid in ev.squads_out:
        squad = state.squads[sid]
        state = _put_squad(state, replace(squad, garrison=None))
        if squad.carrying is not None:
            state = _put_obj(state, replace(state.objectives[squad.carrying], garrison=None))
    return state


def _ev_claimed(state: ObjectivesState, ev: e.Claimed) -> ObjectivesState:
    obj = state.objectives[ev.objective_id]
    squad = state.squads[ev.squad_id]
    obj = replace(
        obj,
        hidden=False if ev.how == "search" else obj.hidden,  # found: "permanently ... Open"
        claimed_by=ev.side,
        carrier=ev.squad_id if ev.carried else None,
        status=ObjectiveStatus.CARRIED if ev.carried else obj.status,
        garrison=squad.garrison if ev.carried else obj.garrison,
    )
    state = _put_obj(state, obj)
    if ev.carried:
        state = _put_squad(state, replace(squad, carrying=ev.objective_id))
    return state


def _acted(state: ObjectivesState, squad: Squad, cost: int) -> Squad:
    """The squad after an action of ``cost`` in the current round (none counted before round 1)."""
    if state.round < 1:
        return squad
    used = squad.actions_used_in(state.round) + cost
    return replace(squad, actions_round=state.round, actions_used=used)


def _ev_scan(state: ObjectivesState, ev: e.ScanTokenPlaced) -> ObjectivesState:
    squad = replace(state.squads[ev.squad_id], scan_token=True)
    return _put_squad(state, _acted(state, squad, load_tables().scan_action_cost))


def _ev_search(state: ObjectivesState, ev: e.SearchMade) -> ObjectivesState:
    searcher = state.squads[ev.squad_id]
    state = _put_squad(state, _acted(state, searcher, load_tables().search_action_cost))
    for sid in ev.tokens_spent:
        state = _put_squad(state, replace(state.squads[sid], scan_token=False))
    if ev.found:
        state = _put_obj(state, replace(state.objectives[ev.objective_id], hidden=False))
    return state


def _ev_moved(state: ObjectivesState, ev: e.SquadMoved) -> ObjectivesState:
    squad = state.squads[ev.squad_id]
    moved = replace(
        squad,
        garrison=ev.garrison,
        in_aircraft=ev.in_aircraft,
        scan_token=squad.scan_token and not ev.scan_token_removed,
    )
    state = _put_squad(state, _acted(state, moved, load_tables().move_action_cost))
    if squad.carrying is not None:
        state = _put_obj(state, replace(state.objectives[squad.carrying], garrison=ev.garrison))
    return state


def _ev_passed(state: ObjectivesState, ev: e.Passed) -> ObjectivesState:
    taker = state.squads[ev.to_squad]
    state = _put_squad(state, replace(state.squads[ev.from_squad], carrying=None))
    state = _put_squad(state, replace(taker, carrying=ev.objective_id))
    obj = replace(state.objectives[ev.objective_id], carrier=ev.to_squad, garrison=taker.garrison)
    return _put_obj(state, obj)


def _let_go(
    state: ObjectivesState, squad_id: str, objective_id: str, **changes: Any
) -> ObjectivesState:
    """The squad no longer carries the objective, which nobody carries or holds now."""
    state = _put_squad(state, replace(state.squads[squad_id], carrying=None))
    obj = replace(state.objectives[objective_id], carrier=None, claimed_by=None, **changes)
    return _put_obj(state, obj)


def _ev_dropped(state: ObjectivesState, ev: e.Dropped) -> ObjectivesState:
    return _let_go(
        state, ev.squad_id, ev.objective_id, status=ObjectiveStatus.ON_TABLE, garrison=ev.garrison
    )


def _ev_obj_destroyed(state: ObjectivesState, ev: e.ObjectiveDestroyed) -> ObjectivesState:
    return _let_go(state, ev.squad_id, ev.objective_id, status=ObjectiveStatus.DESTROYED)


def _ev_removed(state: ObjectivesState, ev: e.ObjectiveRemoved) -> ObjectivesState:
    obj = replace(
        state.objectives[ev.objective_id], status=ObjectiveStatus.REMOVED, claimed_by=None
    )
    return _put_obj(state, obj)


def _ev_squad_destroyed(state: ObjectivesState, ev: e.SquadDestroyed) -> ObjectivesState:
    squad = replace(state.squads[ev.squad_id], destroyed=True, scan_token=False, carrying=None)
    return _put_squad(state, squad)


def _ev_extracted(state: ObjectivesState, ev: e.Extracted) -> ObjectivesState:
    state = _put_squad(state, replace(state.squads[ev.squad_id], carrying=None))
    obj = replace(state.objectives[ev.objective_id], status=ObjectiveStatus.EXTRACTED, carrier=None)
    return _put_obj(state, obj)


EVOLVERS: dict[type[Event], Callable[[ObjectivesState, Any], ObjectivesState]] = {
    e.ScenarioSetUp: _ev_set_up,
    e.ObjectivePlaced: _ev_placed,
    e.SquadAdded: lambda s, ev: _put_squad(s, ev.squad),
    e.RoundStarted: lambda s, ev: replace(s, round=ev.round),
    e.Claimed: _ev_claimed,
    e.ScanTokenPlaced: _ev_scan,
    e.SquadMoved: _ev_moved,
    e.SearchMade: _ev_search,
    e.Passed: _ev_passed,
    e.Dropped: _ev_dropped,
    e.ObjectiveDestroyed: _ev_obj_destroyed,
    e.ObjectiveRemoved: _ev_removed,
    e.SquadDestroyed: _ev_squad_destroyed,
    e.GarrisonDestroyed: _ev_garrison_destroyed,
    e.Extracted: _ev_extracted,
}
