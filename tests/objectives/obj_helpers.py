"""Shared set-up for the objective tests: a two-side scenario with a few squads."""

from __future__ import annotations

from mekref.rules.messages import Command, Event
from mekref.rules.objectives import commands as c
from mekref.rules.objectives.game import OBJECTIVES as OBJECTIVES_RULES
from mekref.rules.objectives.model import ObjectivesState, UnitType

INF = frozenset({UnitType.INFANTRY})
VEH = frozenset({UnitType.VEHICLE})
TRANSPORT = frozenset({UnitType.TRANSPORT, UnitType.VEHICLE})
AIR_TRANSPORT = frozenset({UnitType.TRANSPORT, UnitType.AIRCRAFT})
AIR = frozenset({UnitType.AIRCRAFT})

SQUADS = (
    c.SquadSpec(squad_id="red-inf", side="red", types=INF),
    c.SquadSpec(squad_id="red-tank", side="red", types=VEH),
    c.SquadSpec(squad_id="red-apc", side="red", types=TRANSPORT),
    c.SquadSpec(squad_id="red-wing", side="red", types=AIR_TRANSPORT),
    c.SquadSpec(squad_id="blue-inf", side="blue", types=INF),
    c.SquadSpec(squad_id="blue-tank", side="blue", types=VEH),
    c.SquadSpec(squad_id="blue-air", side="blue", types=AIR),
    c.SquadSpec(squad_id="red-bunker", side="red", types=INF, garrison="bunker"),
    c.SquadSpec(squad_id="blue-bunker", side="blue", types=INF, garrison="bunker"),
)

OBJECTIVES = (
    c.ObjectiveSpec(objective_id="hill"),  # open, fixed
    c.ObjectiveSpec(objective_id="crate", mobile=True),  # open, mobile
    c.ObjectiveSpec(objective_id="cache", hidden=True, mobile=True),  # hidden in the open
    c.ObjectiveSpec(objective_id="vault", garrison="bunker"),  # hidden by default
)


def set_up(
    seed: str = "obj-seed", objectives: tuple[c.ObjectiveSpec, ...] = OBJECTIVES
) -> ObjectivesState:
    cmd = c.SetUpScenario(
        actor="ref", seed=seed, sides=("red", "blue"), objectives=objectives, squads=SQUADS
    )
    _, state = OBJECTIVES_RULES.execute(OBJECTIVES_RULES.initial_state(), cmd)
    return state


def run(state: ObjectivesState, *commands: Command) -> tuple[list[Event], ObjectivesState]:
    log: list[Event] = []
    for command in commands:
        events, state = OBJECTIVES_RULES.execute(state, command)
        log.extend(events)
    return log, state
