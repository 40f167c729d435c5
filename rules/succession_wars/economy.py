"""Spending taxes (price list, tech rolls, centers) and placing new units.

Prices follow the House's technology level. Nothing may be acquired without a friendly undamaged
Manufacturing Center; new pieces wait off the board until the Place phase.
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.common import (
    Builder,
    check_actor,
    check_quiet,
    check_turn,
    region_of,
    tables,
    tech_of,
    unit_of,
)
from mekref.rules.succession_wars.model import CenterState, Kind, Phase, Status, SWState
from mekref.rules.succession_wars.start import slug
from mekref.rules.succession_wars.tech import clamp

_FREE_ITEMS = ("house_mech", "merc_rebuild", "conventional")


def _spend_check(state: SWState, actor: str, house: str) -> None:
    check_actor(state, actor, house)
    check_turn(state, house, Phase.SPEND)
    check_quiet(state)


def _pay(b: Builder, house: str, price: int, reason: str) -> None:
    cash = b.state.houses[house].cash
    if price > cash:
        raise Refusal(
            "not_enough_money", f"{reason} costs {price} million C-Bills; {house} has {cash}"
        )
    if price:
        b.add(m.SWCashChanged(house=house, delta=-price, reason=reason))


def has_intact_center(state: SWState, house: str) -> bool:
    return any(
        rs.controller == house and rs.center is CenterState.INTACT for rs in state.regions.values()
    )


def _buy_counter(b: Builder, state: SWState, cmd: m.SWBuy, price: int) -> None:
    """A House 'Mech counter from the reserve or the dead pile, or a destroyed Mercenary unit
    rebuilt, at the price the technology level sets."""
    t = tables()
    house, item = cmd.house, cmd.item
    unit = unit_of(state, cmd.unit)
    merc = item == "merc_rebuild"
    if merc:
        if not unit.mercenary or unit.owner != house or unit.status is not Status.DESTROYED:
            raise Refusal(
                "cannot_rebuild", f"{unit.id} is not a destroyed Mercenary unit of {house}"
            )
    else:
        if (
            unit.mercenary
            or unit.house != house
            or unit.status not in (Status.RESERVE, Status.DESTROYED)
        ):
            raise Refusal(
                "no_counter",
                f"{unit.id} is not an available House counter of {house} "
                "(if no units are available, none may be bought)",
            )
    if not cmd.free:
        _pay(b, house, price, f"{item.replace('_', ' ')} {unit.id}")
    b.add(
        m.SWPieceBought(house=house, item=item, piece=unit.id, value=t.rebuilt_value, free=cmd.free)
    )


def decide_buy(state: SWState, cmd: m.SWBuy, dice: Dice) -> list[Event]:
    _spend_check(state, cmd.actor, cmd.house)
    t = tables()
    house = cmd.house
    if not has_intact_center(state, house):
        raise Refusal(
            "no_center",
            "a House may not acquire new units without a friendly, undamaged Manufacturing Center",
            t.prices["house_mech"].ref,
        )
    fx = tech_of(state, house)
    b = Builder(state, dice)
    item = cmd.item
    if cmd.free:
        if item not in _FREE_ITEMS:
            raise Refusal("not_free", f"a unit owed at no cost cannot pay for {item}")
        if state.houses[house].free_units < 1:
            raise Refusal("not_free", f"{house} is owed no free unit")
    if item == "house_mech" or item == "merc_rebuild":
        _buy_counter(b, state, cmd, fx.merc_price if item == "merc_rebuild" else fx.mech_price)
        return b.events
    if item == "upgrade":
        unit = unit_of(state, cmd.unit)
        if unit.owner != house or unit.status is not Status.ACTIVE:
            raise Refusal("cannot_upgrade", f"{unit.id} is not a unit of {house} on the board")
        if unit.value >= t.rebuilt_value:
            raise Refusal("cannot_upgrade", f"{unit.id} already has a strength of {unit.value}")
        if unit.id not in state.at_center:
            raise Refusal(
                "cannot_upgrade",
                f"{unit.id} was not at a Manufacturing Center at the beginning of the turn",
                t.prices["upgrade"].ref,
            )
        _pay(b, house, t.prices["upgrade"].price, f"upgrade {unit.id}")
        b.add(m.SWPieceBought(house=house, item=item, piece=unit.id, value=t.rebuilt_value))
        return b.events
    if item == "conventional":
        piece = slug(house, "conventional", str(state.next_serial))
        if not cmd.free:
            _pay(b, house, t.prices["conventional"].price, "conventional unit")
        b.add(
            m.SWPieceBought(
                house=house,
                item=item,
                piece=piece,
                value=t.conventional_value,
                kind=Kind.CONVENTIONAL,
                new=True,
                free=cmd.free,
            )
        )
        return b.events
    price_row = t.prices.get(item)
    if item.startswith("jumpship") and price_row is not None:
        piece = slug(house, "js", "new", str(state.next_serial))
        _pay(b, house, price_row.price, f"{price_row.capacity}-unit JumpShip")
        b.add(
            m.SWPieceBought(
                house=house, item=item, piece=piece, capacity=price_row.capacity, new=True
            )
        )
        return b.events
    raise Refusal(
        "unknown_item",
        "buy one of: house_mech, merc_rebuild, upgrade, conventional, "
        + ", ".join(k for k in sorted(t.prices) if k.startswith("jumpship")),
    )


def decide_build_center(state: SWState, cmd: m.SWBuildCenter, dice: Dice) -> list[Event]:
    _spend_check(state, cmd.actor, cmd.house)
    region_of(state, cmd.region)
    t = tables()
    rs = state.regions[cmd.region]
    if rs.controller != cmd.house and not state.combat_units(cmd.region, cmd.house):
        raise Refusal(
            "not_friendly",
            f"a new center goes in a Region occupied or controlled by {cmd.house}",
        )
    if rs.center is not CenterState.NONE:
        raise Refusal("center_exists", f"{cmd.region} already has a Manufacturing Center")
    b = Builder(state, dice)
    _pay(b, cmd.house, t.prices["manufacturing_center"].price, "Manufacturing Center")
    b.add(
        m.SWCenterChanged(
            region=cmd.region, center=CenterState.INTACT, reason="built", blocked_turn=state.turn_no
        )
    )
    b.add(
        m.SWTechPending(house=cmd.house, delta=t.tech_events["build_center"], reason="built center")
    )
    return b.events


def decide_repair_center(state: SWState, cmd: m.SWRepairCenter, dice: Dice) -> list[Event]:
    _spend_check(state, cmd.actor, cmd.house)
    region_of(state, cmd.region)
    t = tables()
    rs = state.regions[cmd.region]
    if rs.controller != cmd.house or rs.center is not CenterState.DAMAGED:
        raise Refusal("cannot_repair", f"{cmd.house} holds no damaged center at {cmd.region}")
    b = Builder(state, dice)
    _pay(b, cmd.house, t.prices["repair_center"].price, "repair Manufacturing Center")
    b.add(m.SWCenterChanged(region=cmd.region, center=CenterState.INTACT, reason="repaired"))
    b.add(
        m.SWTechPending(
            house=cmd.house, delta=t.tech_events["repair_center"], reason="repaired center"
        )
    )
    return b.events


def decide_tech_roll(state: SWState, cmd: m.SWTechRoll, dice: Dice) -> list[Event]:
    _spend_check(state, cmd.actor, cmd.house)
    t = tables()
    if cmd.chances < 1:
        raise Refusal("bad_amount", "buy at least one chance")
    b = Builder(state, dice)
    price = t.prices["tech_roll"].price * cmd.chances
    _pay(b, cmd.house, price, f"{cmd.chances} tech roll(s)")
    rolls = [b.roll(f"tech roll {n + 1} of {cmd.chances}, {cmd.house}") for n in range(cmd.chances)]
    gain = sum(t.tech_roll[r.faces[0]] for r in rolls)
    level = clamp(t, b.state.houses[cmd.house].tech + gain)
    b.add(
        m.SWTechChanged(
            house=cmd.house, delta=gain, reason="Tech Level Table", level=level, rolls=tuple(rolls)
        )
    )
    return b.events


def decide_place(state: SWState, cmd: m.SWPlaceUnits, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    check_turn(state, cmd.house, Phase.PLACE)
    check_quiet(state)
    seen: set[str] = set()
    for p in cmd.placements:
        if p.piece in seen:
            raise Refusal("bad_placement", f"{p.piece} is placed twice")
        seen.add(p.piece)
        piece = state.units.get(p.piece) or state.jumpships.get(p.piece)
        if piece is None or piece.owner != cmd.house or piece.status is not Status.PENDING:
            raise Refusal("bad_placement", f"{p.piece} is not a new piece of {cmd.house}")
        region_of(state, p.region)
        rs = state.regions[p.region]
        if rs.controller != cmd.house or rs.center is not CenterState.INTACT:
            raise Refusal(
                "bad_placement",
                f"new units go on an intact friendly Manufacturing Center; {p.region} is not one",
            )
        if rs.center_blocked_turn == state.turn_no:
            raise Refusal(
                "center_too_new",
                f"the center at {p.region} was placed or captured this turn",
            )
    return [m.SWPiecesPlaced(house=cmd.house, placements=cmd.placements)]
