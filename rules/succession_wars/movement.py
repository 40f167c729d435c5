"""JumpShip movement: range by tech level, capacity, one JumpShip per unit per turn, no moving
through Regions held by enemy combat units, combat units stop where the enemy is, Terra closed
to combat units. Also retreats, which are JumpShip moves out of a contested Region.
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal, known
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.common import (
    Builder,
    capture_alone,
    check_actor,
    check_quiet,
    check_turn,
    tables,
    tech_of,
)
from mekref.rules.succession_wars.model import (
    Kind,
    LeaderStatus,
    Phase,
    Status,
    SWState,
)


def space(state: SWState, pieces: list[str]) -> int:
    t = tables()
    total = 0
    for p in pieces:
        unit = state.units.get(p)
        if unit is None:
            total += t.space["leader"]
        else:
            total += t.space["conventional" if unit.kind is Kind.CONVENTIONAL else "mech"]
    return total


def own_piece(state: SWState, house: str, piece: str, region: str) -> None:
    unit = state.units.get(piece)
    if unit is not None:
        if unit.owner != house or unit.status is not Status.ACTIVE or unit.region != region:
            raise Refusal("not_here", f"{piece} is not a unit of {house} in {region}")
        return
    leader = known(state.leaders, piece, "unknown_piece", "there is no unit or Leader {!r}")
    if leader.owner != house or leader.status is not LeaderStatus.FREE or leader.region != region:
        raise Refusal("not_here", f"{piece} is not a free Leader of {house} in {region}")


def check_path(
    state: SWState, house: str, start: str, path: tuple[str, ...], carries_units: bool
) -> None:
    """Adjacent steps; no passing through enemy combat units or (with units aboard) Terra."""
    board = state.board()
    here = start
    for n, step in enumerate(path):
        info = board.region(here)
        if info is None or step not in info.borders:
            raise Refusal("not_adjacent", f"{step} does not border {here}")
        last = n == len(path) - 1
        if not last:
            target = board.region(step)
            terra = target is not None and target.terra
            if carries_units and terra:
                raise Refusal("terra", "a player may not move combat units through Earth")
            # Empty JumpShips may pass Earth freely (ruling SW-20); nothing passes other enemies.
            if state.enemy_units(step, house) and not terra:
                raise Refusal(
                    "enemy_in_path",
                    f"players may not move through {step}: it holds enemy combat units",
                )
        here = step


def decide_move(state: SWState, cmd: m.SWMoveJumpShip, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    check_turn(state, cmd.house, Phase.MOVEMENT)
    check_quiet(state)
    ship = state.jumpships.get(cmd.jumpship)
    if ship is None or ship.owner != cmd.house or ship.status is not Status.ACTIVE:
        raise Refusal("not_your_jumpship", f"{cmd.jumpship} is not a JumpShip of {cmd.house}")
    start = ship.region
    for piece in cmd.pick_up:
        own_piece(state, cmd.house, piece, start)
        if piece in state.aboard:
            raise Refusal("already_aboard", f"{piece} is already aboard {state.aboard[piece]}")
        rode = state.rode.get(piece)
        if rode is not None and rode != ship.id:
            raise Refusal(
                "one_jumpship_per_turn",
                f"{piece} already travelled on {rode} this turn; units travel on one "
                "JumpShip a turn",
                tables().refs["jumpship_range"],
            )
    if len(set(cmd.pick_up)) != len(cmd.pick_up):
        raise Refusal("bad_order", "a piece is picked up twice")
    carried = [p for p, s in state.aboard.items() if s == ship.id] + list(cmd.pick_up)
    need = space(state, carried)
    if need > ship.capacity:
        raise Refusal(
            "over_capacity",
            f"{ship.id} carries {ship.capacity} units' worth; this load needs {need} "
            "('Mechs take one space, conventional units two)",
            tables().refs["space"],
        )
    reach = tech_of(state, cmd.house).jump_range
    used = state.jumps_used.get(ship.id, 0)
    if used + len(cmd.path) > reach:
        raise Refusal(
            "out_of_range",
            f"{ship.id} has {reach - used} of its {reach} Regions of movement left this turn",
        )
    units_aboard = any(p in state.units for p in carried)
    check_path(state, cmd.house, start, cmd.path, units_aboard)
    end = cmd.path[-1] if cmd.path else start
    # JumpShips may leave a Region where the enemy is only to go back to friendly Regions.
    if (
        cmd.path
        and state.enemy_units(start, cmd.house)
        and not state.friendly_region(end, cmd.house)
    ):
        raise Refusal(
            "must_go_home",
            f"leaving {start} past enemy combat units, {ship.id} may only go to a friendly Region",
        )
    for piece in cmd.drop_off:
        if piece not in carried:
            raise Refusal("not_aboard", f"{piece} is not aboard {ship.id}")
    if state.enemy_units(end, cmd.house):
        staying = [p for p in carried if p in state.units and p not in cmd.drop_off]
        if staying:
            raise Refusal(
                "must_stop",
                f"combat units entering {end}, which holds enemy combat units, must stop there: "
                f"drop off {', '.join(staying)}",
            )
    b = Builder(state, dice)
    b.add(
        m.SWJumpShipMoved(
            house=cmd.house,
            jumpship=ship.id,
            picked_up=cmd.pick_up,
            path=cmd.path,
            dropped_off=cmd.drop_off,
        )
    )
    capture_alone(b, end)
    capture_alone(b, start)
    return b.events


def decide_scuttle(state: SWState, cmd: m.SWScuttleJumpShip, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    check_quiet(state)
    ship = state.jumpships.get(cmd.jumpship)
    if ship is None or ship.owner != cmd.house or ship.status is not Status.ACTIVE:
        raise Refusal("not_your_jumpship", f"{cmd.jumpship} is not a JumpShip of {cmd.house}")
    if not state.combat_units(ship.region, cmd.house):
        raise Refusal(
            "cannot_scuttle",
            "a JumpShip may be destroyed only while friendly combat units share its Region",
        )
    return [m.SWJumpShipScuttled(house=cmd.house, jumpship=ship.id)]


def check_retreat(
    state: SWState, house: str, region: str, moves: tuple[m.RetreatMove, ...]
) -> None:
    used_ships: set[str] = set()
    carried_all: set[str] = set()
    reach = tech_of(state, house).jump_range if house in state.houses else tables().base_jump_range
    for move in moves:
        ship = state.jumpships.get(move.jumpship)
        if (
            ship is None
            or ship.owner != house
            or ship.status is not Status.ACTIVE
            or ship.region != region
        ):
            raise Refusal(
                "no_jumpship",
                f"retreat needs a JumpShip of {house} in {region}; {move.jumpship} is not one",
            )
        if ship.id in used_ships:
            raise Refusal("bad_retreat", f"{ship.id} retreats twice")
        used_ships.add(ship.id)
        for piece in move.carry:
            own_piece(state, house, piece, region)
            if piece in carried_all:
                raise Refusal("bad_retreat", f"{piece} retreats twice")
            carried_all.add(piece)
        if space(state, list(move.carry)) > ship.capacity:
            raise Refusal("over_capacity", f"{ship.id} cannot carry all of {move.carry}")
        if not move.path or len(move.path) > reach:
            raise Refusal("out_of_range", f"a retreat moves 1 to {reach} Regions")
        check_path(state, house, region, move.path, bool(move.carry))
        end = move.path[-1]
        if not state.friendly_region(end, house) or state.enemy_units(end, house):
            raise Refusal(
                "bad_retreat",
                f"retreating units may only go to a friendly controlled Region free of enemy "
                f"forces; {end} is not",
            )
