"""The objective tracker as one rule-set value the kernel runs (:data:`OBJECTIVES`).

A side is one of the scenario's sides. A squad's side gives the commands that squad acts in
(claim, scan, move, search, pass, drop) and adds its own squads; the referee sets the scenario
up, starts rounds and records destruction and extraction. Objective tokens lie on the table in
plain sight (a hidden objective is hidden from both sides alike), so every side sees the whole
state but the dice seed.
"""

from __future__ import annotations

from typing import Any

from mekref.rules.codec import JsonValue, to_jsonable
from mekref.rules.kernel import RuleSet
from mekref.rules.messages import Command
from mekref.rules.objectives import commands as c
from mekref.rules.objectives import events as e
from mekref.rules.objectives.decide import DECIDERS
from mekref.rules.objectives.describe import describe
from mekref.rules.objectives.fold import EVOLVERS
from mekref.rules.objectives.model import ObjectivesState, field_names
from mekref.rules.objectives.summary import held_by, summarize

#: held_by stays importable from here, where the API docs name it (docs/objectives.md).
__all__ = ["OBJECTIVES", "ObjectivesViews", "held_by"]


def _squad_side(state: ObjectivesState, squad_id: str) -> str | None:
    squad = state.squads.get(squad_id)
    return squad.side if squad is not None else None


def _acting_side(state: ObjectivesState, command: Command) -> str | None:
    if isinstance(command, c.AddSquad):
        return command.squad.side
    if isinstance(command, c.PlaceObjective):
        return command.side
    if isinstance(command, c.Pass):
        return _squad_side(state, command.from_squad)
    if isinstance(command, (c.Claim, c.Scan, c.MoveSquad, c.Search, c.Drop)):
        return _squad_side(state, command.squad_id)
    return None


class ObjectivesViews:
    def sides(self, state: ObjectivesState) -> dict[str, str]:
        return {side: side for side in state.sides}

    def view(self, state: ObjectivesState, side: str) -> JsonValue:
        data = to_jsonable(state)
        assert isinstance(data, dict)
        data.pop("seed", None)
        return data

    def event_for(
        self, state: ObjectivesState, event: dict[str, Any], side: str
    ) -> dict[str, Any] | None:
        data = dict(event)
        if data.get("type") == e.ScenarioSetUp.TYPE:
            data.pop("seed", None)
        return data


OBJECTIVES: RuleSet[ObjectivesState] = RuleSet(
    name="objectives",
    title="Objectives tracker",
    state_type=ObjectivesState,
    deciders=DECIDERS,
    evolvers=EVOLVERS,
    setup=(c.SetUpScenario,),
    started=lambda state: state.set_up,
    not_started=("no_scenario", "set up the scenario's objectives first"),
    noun="scenario",
    acting_side=_acting_side,
    views=ObjectivesViews(),
    describe=describe,
    summarize=summarize,
    field_names=field_names,
)
