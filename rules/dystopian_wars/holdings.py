"""Air wings and fortifications: what an Airfield, an Airbase, a Fleet Base and the Scientist's
Eyrie give the fleet that holds them (lines 111-113 and 122).

These act on the table, so the campaign's part is to say, in each battle, what the fleet
fields there: the extra wings of Tiny Flyers (with the Airbase's MAR) when the battle is set
up, and a staked territory's fortifications when it is staked. The fleet makes the row's
choices between battles (``DWChooseWingMAR``, ``DWChooseTowers``). Rulings DW-35 to DW-38.
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.model import DystopianState, Territory, TerritoryChoice
from mekref.rules.dystopian_wars.table_loader import TerritoryRow, load_tables
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal


def _used(
    state: DystopianState, cmd_fleet: str, territory_id: str
) -> tuple[Territory, TerritoryRow]:
    """The territory the fleet uses now (held, or on a Raid's loan), with its table row."""
    if cmd_fleet not in state.fleets:
        raise Refusal("unknown_fleet", f"no fleet {cmd_fleet!r}")
    if state.battle is not None:
        raise Refusal("battle_open", "a territory's choices are made between battles")
    territory = next((x for x in state.held(cmd_fleet) if x.territory_id == territory_id), None)
    if territory is None:
        raise Refusal("not_held", f"{cmd_fleet} does not hold {territory_id!r}")
    return territory, load_tables().territories[territory.kind]


def _match(name: str, offered: tuple[str, ...]) -> str | None:
    """The table's spelling of ``name``, matched without case or spaces around it."""
    wanted = name.strip().casefold()
    return next((o for o in offered if o.casefold() == wanted), None)


def choose_wing_mar(state: DystopianState, cmd: c.ChooseWingMar, dice: Dice) -> list[Event]:
    """Line 113: "All TT’s have either “Large Fuel Tanks” or Better Engines” MAR". Ruling DW-37:
    one choice for all the fleet's wings, made by the fleet using the Airbase."""
    _, row = _used(state, cmd.fleet_id, cmd.territory_id)
    if not row.wing_mars:
        raise Refusal("no_wing_mar", f"{row.name} gives its wings no MAR", row.ref)
    mar = _match(cmd.mar, row.wing_mars)
    if mar is None:
        offered = " or ".join(row.wing_mars)
        raise Refusal("no_wing_mar", f"{row.name} offers {offered}, not {cmd.mar!r}", row.ref)
    choice = TerritoryChoice(territory_id=cmd.territory_id, fleet_id=cmd.fleet_id, choices=(mar,))
    return [e.WingMarChosen(choice=choice)]


def choose_towers(state: DystopianState, cmd: c.ChooseTowers, dice: Dice) -> list[Event]:
    """Line 111: "2 Rocket/ Gun/ Tesla Towers". Ruling DW-38: the holder names each tower's
    kind; the same kind may be named twice."""
    territory, row = _used(state, cmd.fleet_id, cmd.territory_id)
    if territory.holder != cmd.fleet_id:
        raise Refusal("not_held", f"{cmd.territory_id!r} is {territory.holder}'s, on loan")
    if not row.towers:
        has = ", ".join(row.fortifications) or "no fortifications"
        raise Refusal("no_towers", f"{row.name} has no towers to choose ({has})", row.ref)
    kinds = tuple(_match(k, row.tower_kinds) for k in cmd.towers)
    if len(kinds) != row.towers or None in kinds:
        raise Refusal(
            "bad_towers",
            f"{row.name} has {row.towers} towers, each one of {', '.join(row.tower_kinds)};"
            f" not {list(cmd.towers)}",
            row.ref,
        )
    chosen = tuple(k for k in kinds if k is not None)
    choice = TerritoryChoice(territory_id=cmd.territory_id, fleet_id=cmd.fleet_id, choices=chosen)
    return [e.TowersChosen(choice=choice)]


def _choice(
    choices: tuple[TerritoryChoice, ...], territory_id: str, fleet_id: str
) -> tuple[str, ...]:
    """What ``fleet_id`` chose for the territory; a choice of an earlier holder lapses."""
    return next(
        (x.choices for x in choices if (x.territory_id, x.fleet_id) == (territory_id, fleet_id)),
        (),
    )


def wing_mar(state: DystopianState, fleet_id: str) -> str | None:
    """The MAR all the fleet's wings of Tiny Flyers have (line 113), when it chose one."""
    for territory in state.held(fleet_id):
        chosen = _choice(state.wing_mars, territory.territory_id, fleet_id)
        if chosen:
            return chosen[0]
    return None


def air_wings(state: DystopianState, battle_id: str, fleet_id: str) -> e.AirWings | None:
    """Lines 112-113 "1 extra Wing TT’s", for every Airfield and Airbase the fleet uses now.

    Ruling DW-35: the Fleet Base's "1 Wing TF’s (inc)" is the roster's free wing (line 84,
    "Only one Wing of Tiny Flyers for “free”"), so it adds none here."""
    tables = load_tables()
    wings = []
    for territory in state.held(fleet_id):
        row = tables.territories[territory.kind]
        chosen = _choice(state.wing_mars, territory.territory_id, fleet_id)
        for _ in range(row.extra_wings):
            wings.append(
                e.ExtraWing(
                    territory_id=territory.territory_id,
                    territory=row.name,
                    line=row.ref.line,
                    mar=chosen[0] if chosen else None,
                    mar_choices=row.wing_mars,
                )
            )
    if not wings:
        return None
    return e.AirWings(battle_id=battle_id, fleet_id=fleet_id, wings=tuple(wings))


def fortifications(
    state: DystopianState, battle_id: str, territory_id: str
) -> e.FortificationsDefend | None:
    """Line 111 "Fortress, 2 Flak Towers, 2 Rocket/ Gun/ Tesla Towers", line 122 "Defended by a
    Fortress!": ruling DW-38, they defend the territory in a battle that stakes it."""
    territory = state.territories[territory_id]
    row = load_tables().territories[territory.kind]
    if territory.holder is None or not (row.fortifications or row.towers):
        return None
    towers = _choice(state.towers, territory_id, territory.holder)
    return e.FortificationsDefend(
        battle_id=battle_id,
        fleet_id=territory.holder,
        territory_id=territory_id,
        territory=row.name,
        line=row.ref.line,
        fortifications=(*row.fortifications, *(f"{k} Tower" for k in towers)),
        towers_not_chosen=row.towers - len(towers),
    )
