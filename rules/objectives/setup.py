"""Setting up an objectives scenario: the sides and table, placing the objective tokens (in
the order the scenario gives), and the squads that claim and carry them."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.objectives import commands as c
from mekref.rules.objectives import events as e
from mekref.rules.objectives.model import (
    Objective,
    ObjectivesState,
    ObjectiveStatus,
    Position,
    Squad,
)
from mekref.rules.objectives.table_loader import load_tables
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal, known


def set_up(state: ObjectivesState, cmd: c.SetUpScenario, dice: Dice) -> list[Event]:
    if state.set_up:
        raise Refusal("already_set_up", "the scenario's objectives are already placed")
    if not cmd.seed:
        raise Refusal("bad_seed", "a scenario needs a seed for its dice")
    if len(cmd.sides) < 2 or len(set(cmd.sides)) != len(cmd.sides):
        raise Refusal("bad_sides", "a scenario has two or more distinct sides")
    ids = [o.objective_id for o in cmd.objectives]
    if not ids or len(set(ids)) != len(ids):
        raise Refusal("bad_objectives", "objective ids must be present and distinct")
    placing_order = _placing_order(cmd)
    _check_table(cmd.table_width, cmd.table_depth)
    placed: list[tuple[str, Position]] = []
    for o in cmd.objectives:
        if o.position is not None:
            _check_position(o.objective_id, o.position, cmd.table_width, cmd.table_depth, placed)
            placed.append((o.objective_id, o.position))
    # Ruling OBJ-11: without the table size the far edges are not checked, and the event says so.
    unchecked = tuple(oid for oid, _ in placed) if cmd.table_width is None else ()
    objectives = tuple(
        Objective(
            objective_id=o.objective_id,
            hidden=False,
            mobile=o.mobile,
            garrison=None,
            status=ObjectiveStatus.UNPLACED,
            hidden_stated=o.hidden,
        )
        if placing_order and o.position is None
        else Objective(
            objective_id=o.objective_id,
            # Lines 15 and 19: open outside Garrisons, hidden inside, unless the scenario says.
            hidden=o.hidden if o.hidden is not None else o.garrison is not None,
            mobile=o.mobile,
            garrison=o.garrison,
            position=o.position,
        )
        for o in cmd.objectives
    )
    squads = tuple(_new_squad(state, spec, cmd.sides) for spec in cmd.squads)
    if len({s.squad_id for s in squads}) != len(squads):
        raise Refusal("bad_squads", "squad ids must be distinct")
    return [
        built_from(
            e.ScenarioSetUp,
            cmd,
            objectives=objectives,
            squads=squads,
            placing_order=placing_order,
            far_edge_unchecked=unchecked,
        )
    ]


def _placing_order(cmd: c.SetUpScenario) -> tuple[str, ...]:
    """The sides in their placing turns, first placer first (line 7; rulings OBJ-10, OBJ-11)."""
    t = load_tables()
    if not cmd.players_place:
        if cmd.first_placer is not None:
            raise Refusal("bad_placement", "first_placer needs players_place: true")
        return ()
    if cmd.first_placer is None:
        raise Refusal(
            "first_placer_needed",
            "the players take turns placing, but the text does not say who starts: name the "
            "side in first_placer",
            t.placement_turns_ref,
        )
    if cmd.first_placer not in cmd.sides:
        raise Refusal("unknown_side", f"first_placer {cmd.first_placer!r} is no side")
    if cmd.table_width is None or cmd.table_depth is None:
        raise Refusal(
            "table_size_needed",
            'players place objectives 6" from every board edge: give table_width and '
            "table_depth (inches)",
            t.placement_ref,
        )
    for o in cmd.objectives:
        if o.position is None and o.garrison is not None:
            raise Refusal(
                "position_needed",
                f"objective {o.objective_id!r} is in Garrison {o.garrison!r}: give its position "
                "too, or leave both for the players to place",
                t.placement_ref,
            )
    start = cmd.sides.index(cmd.first_placer)
    return cmd.sides[start:] + cmd.sides[:start]


def _check_table(width: Fraction | None, depth: Fraction | None) -> None:
    if (width is None) != (depth is None):
        raise Refusal("bad_table", "give both table_width and table_depth (inches), or neither")
    gap = load_tables().placement_min_inches
    if width is not None and depth is not None and (width <= 2 * gap or depth <= 2 * gap):
        raise Refusal(
            "bad_table",
            f'a {width}" by {depth}" table leaves no room {gap}" from every edge',
            load_tables().placement_ref,
        )


def _check_position(
    oid: str,
    pos: Position,
    width: Fraction | None,
    depth: Fraction | None,
    others: Iterable[tuple[str, Position]],
) -> None:
    """6" from every edge and from each other (line 7). Positions are inches from the left and
    bottom edges; the far edges are checked when the table size is known."""
    t = load_tables()
    gap = t.placement_min_inches
    near_edge = pos.x < gap or pos.y < gap
    if width is not None and pos.x > width - gap:
        near_edge = True
    if depth is not None and pos.y > depth - gap:
        near_edge = True
    if near_edge:
        raise Refusal(
            "placement", f'objective {oid!r} is within {gap}" of an edge', t.placement_ref
        )
    for other, at in others:
        if (pos.x - at.x) ** 2 + (pos.y - at.y) ** 2 < gap * gap:
            raise Refusal("placement", f'{other!r} and {oid!r} are within {gap}"', t.placement_ref)


def place(state: ObjectivesState, cmd: c.PlaceObjective, dice: Dice) -> list[Event]:
    t = load_tables()
    if not state.placing_order:
        raise Refusal(
            "no_placement",
            "this scenario placed its objectives at set-up (players_place was not set)",
            t.placement_turns_ref,
        )
    obj = known(state.objectives, cmd.objective_id, "unknown_objective", "no objective {!r}")
    if obj.status is not ObjectiveStatus.UNPLACED:
        raise Refusal("already_placed", f"objective {cmd.objective_id!r} is already placed")
    turn = state.next_placer()
    if cmd.side != turn:
        raise Refusal(
            "not_your_turn",
            f"it is {turn}'s turn to place an objective, not {cmd.side}'s",
            t.placement_turns_ref,
        )
    if cmd.garrison is not None and cmd.garrison in state.destroyed_garrisons:
        raise Refusal(
            "garrison_destroyed",
            f"Garrison {cmd.garrison!r} has been destroyed",
            t.garrison_destroyed_ref,
        )
    others = [
        (o.objective_id, o.position)
        for o in sorted(state.objectives.values(), key=lambda o: o.objective_id)
        if o.position is not None and o.status is ObjectiveStatus.ON_TABLE
    ]
    _check_position(obj.objective_id, cmd.position, state.table_width, state.table_depth, others)
    hidden = obj.hidden_stated if obj.hidden_stated is not None else cmd.garrison is not None
    return [
        e.ObjectivePlaced(
            objective_id=obj.objective_id,
            side=cmd.side,
            position=cmd.position,
            garrison=cmd.garrison,
            hidden=hidden,
        )
    ]


def _new_squad(state: ObjectivesState, spec: c.SquadSpec, sides: tuple[str, ...]) -> Squad:
    standing(state, spec.garrison)
    if spec.side not in sides:
        raise Refusal("unknown_side", f"squad {spec.squad_id!r} is on no side of this scenario")
    if spec.squad_id in state.squads:
        raise Refusal("bad_squads", f"squad {spec.squad_id!r} is already in the scenario")
    if not spec.types:
        raise Refusal("bad_squads", f"squad {spec.squad_id!r} needs at least one unit type")
    return Squad(squad_id=spec.squad_id, side=spec.side, types=spec.types, garrison=spec.garrison)


def standing(state: ObjectivesState, garrison: str | None) -> None:
    """A destroyed Garrison (line 7) is gone: nobody enters it or is placed in it."""
    if garrison is not None and garrison in state.destroyed_garrisons:
        raise Refusal(
            "garrison_destroyed",
            f"Garrison {garrison!r} has been destroyed",
            load_tables().garrison_destroyed_ref,
        )


def add_squad(state: ObjectivesState, cmd: c.AddSquad, dice: Dice) -> list[Event]:
    return [e.SquadAdded(squad=_new_squad(state, cmd.squad, state.sides))]
