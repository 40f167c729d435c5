"""Commands for the house-rule tables a referee rolls or reads between other steps: a hit
location (lines 1-26) and the targeting-computer focus (line 28), a negotiation on an open bid
(lines 213-219), the quantity of armor or ammunition found (lines 182-183) and a currency
conversion (lines 221-228). Each is its own command, event and words; the state changes only
where a negotiation sets a bid's price."""

from __future__ import annotations

from dataclasses import field, replace
from fractions import Fraction
from typing import Any

from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.acquisition import (
    ammo_tons,
    armor_tons,
    negotiated_price,
    negotiation_percent,
)
from mekref.rules.house_rules.commands import CURRENCIES
from mekref.rules.house_rules.currency import convert, currency_name
from mekref.rules.house_rules.hit_location import (
    Facing,
    Focus,
    Hit,
    focused_hit,
    low_table,
    side_table,
    tc_focus_options,
    tc_focus_to_hit,
    upper_body_table,
)
from mekref.rules.house_rules.model import HouseState
from mekref.rules.house_rules.table_loader import load_tables
from mekref.rules.messages import Command, Event, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal, known

#: The hit-location tables by name: the 2d6 side tables (lines 15-26), the 1d6 target-low
#: table (lines 11-14), the 2d6 partial-cover upper-body table (lines 1-10).
HIT_TABLES = ("side", "low", "upper_body")
#: A column of the side and low tables, or the exposed side of the upper-body table.
HIT_COLUMNS = ("left", "front", "right")
EXPOSED = ("", "Left", "Right")
QUANTITY_KINDS = ("armor", "ammo")


@command_type("HRHitLocation")
@record
class HitLocation(Command):
    """Roll a hit location on one of the house tables; with ``focus``, the targeting computer's
    focused shot (line 28: +1 to hit, the table the focus names)."""

    unit_id: str  # the target
    table: str = field(default="side", metadata={"allowed": HIT_TABLES})
    #: The side table's column, the low table's column; the upper-body table hits "left" or
    #: "right" (the exposed side).
    column: str = field(default="front", metadata={"allowed": HIT_COLUMNS})
    #: A targeting-computer focus instead of a table: the side of the target faced.
    facing: Facing | None = None
    focus: Focus | None = None
    partial_cover: bool = False
    #: Focusing up while facing the front or rear: the side focused on (HOUSE-1).
    exposed: str = field(default="", metadata={"allowed": EXPOSED})


@command_type("HRNegotiate")
@record
class Negotiate(Command):
    """A negotiation check on an open bid (lines 213-219): 2d6 against ``target``; the margin
    moves the bid's price."""

    item: str
    bid: int  # 1-based, as the search listed them
    target: int  # the negotiator's skill check target number


@command_type("HRQuantity")
@record
class Quantity(Command):
    """How many tons of armor, or shots of ammunition, a find holds (lines 182-183)."""

    item: str
    kind: str = field(metadata={"allowed": QUANTITY_KINDS})
    level: int  # the equipment's rules level, 1-3


@command_type("HRConvertCurrency")
@record
class ConvertCurrency(Command):
    """An amount in one currency in another, exactly, through their C-bill values (the
    currency table, lines 221-228, as any fluctuation has set them)."""

    amount: Fraction
    source: str = field(metadata={"allowed": CURRENCIES})
    target: str = field(metadata={"allowed": CURRENCIES})


@event_type("HRHitLocationRolled")
@record
class HitLocationRolled(Event):
    unit_id: str
    table: str
    column: str
    focus: str  # "" for a plain table roll
    to_hit_modifier: int
    location: str
    crit: bool
    line: int


@event_type("HRNegotiated")
@record
class Negotiated(Event):
    item: str
    bid_number: int
    target: int
    roll: int
    margin: int
    percent: int
    price_before: Fraction
    price: Fraction


@event_type("HRQuantityRolled")
@record
class QuantityRolled(Event):
    item: str
    kind: str
    level: int
    roll: int
    amount: int  # tons of armor, shots of ammunition


@event_type("HRCurrencyConverted")
@record
class CurrencyConverted(Event):
    amount: Fraction
    source: str
    target: str
    result: Fraction


def _hit(state: HouseState, cmd: HitLocation, dice: Dice) -> list[Event]:
    if cmd.focus is not None or cmd.facing is not None:
        return _focused(cmd, dice)
    count = 1 if cmd.table == "low" else 2
    roll, _ = dice.roll(f"hit location, {cmd.unit_id}, {cmd.table} {cmd.column}", count)
    hit = _table_hit(cmd.table, cmd.column, roll.total)
    return [_rolled(cmd, hit, cmd.table, cmd.column, "", 0, roll)]


def _table_hit(table: str, column: str, roll: int) -> Hit:
    if table == "upper_body" and column == "front":
        raise Refusal("no_exposed_side", "the upper-body table hits the exposed side: "
                      "column left or right")  # fmt: skip
    try:
        if table == "upper_body":
            return upper_body_table(column.title(), roll)
        return low_table(column, roll) if table == "low" else side_table(column, roll)
    except ValueError as exc:  # a column or roll the table has no row for
        raise Refusal("no_such_row", f"{table} table: {exc}") from None


def _focused(cmd: HitLocation, dice: Dice) -> list[Event]:
    ref = load_tables().rule("hit_locations", "tc_focus").ref
    if cmd.focus is None or cmd.facing is None:
        raise Refusal("focus_needs_facing", "a focused shot names its facing and focus", ref)
    options = tc_focus_options(cmd.facing, cmd.partial_cover)
    if cmd.focus not in options:
        allowed = ", ".join(o.value for o in options) or "no focus at all"
        raise Refusal(
            "cannot_focus",
            f"facing the target's {cmd.facing.value}"
            f"{' in partial cover' if cmd.partial_cover else ''}: {allowed}",
            ref,
        )
    count = 1 if cmd.focus is Focus.DOWN else 2
    roll, _ = dice.roll(f"focused shot, {cmd.unit_id}, {cmd.focus.value}", count)
    try:
        hit = focused_hit(cmd.facing, cmd.focus, roll.total, partial_cover=cmd.partial_cover,
                          exposed=cmd.exposed or None)  # fmt: skip
    except ValueError as exc:
        raise Refusal("cannot_focus", str(exc), ref) from None
    table = {Focus.DOWN: "low", Focus.UP: "upper_body"}.get(cmd.focus, "side")
    return [_rolled(cmd, hit, table, cmd.focus.value, cmd.focus.value, tc_focus_to_hit(), roll)]


def _rolled(
    cmd: HitLocation, hit: Hit, table: str, column: str, focus: str, modifier: int, roll: Roll
) -> HitLocationRolled:
    return HitLocationRolled(
        unit_id=cmd.unit_id, table=table, column=column, focus=focus, to_hit_modifier=modifier,
        location=hit.location, crit=hit.crit, line=hit.ref.line, rolls=(roll,),
    )  # fmt: skip


def _negotiate(state: HouseState, cmd: Negotiate, dice: Dice) -> list[Event]:
    offer = known(
        state.offers, cmd.item, "no_offer", "no open bids for {!r}: search for it first (HRAcquire)"
    )
    if not 1 <= cmd.bid <= len(offer.bids):
        raise Refusal("no_bid", f"{cmd.item!r} has bids 1-{len(offer.bids)}, not {cmd.bid}")
    roll, _ = dice.roll(f"negotiation, {cmd.item}, bid {cmd.bid}", 2)
    margin = roll.total - cmd.target
    before = offer.bids[cmd.bid - 1].price
    return [
        Negotiated(
            item=cmd.item, bid_number=cmd.bid, target=cmd.target, roll=roll.total,
            margin=margin, percent=negotiation_percent(margin), price_before=before,
            price=negotiated_price(before, margin), rolls=(roll,),
        )
    ]  # fmt: skip


def _quantity(state: HouseState, cmd: Quantity, dice: Dice) -> list[Event]:
    if cmd.level not in (1, 2, 3):
        raise Refusal("bad_level", f"level {cmd.level}: the tables have levels 1, 2 and 3")
    roll, _ = dice.roll(f"quantity, {cmd.item}", 2)
    amount = (armor_tons if cmd.kind == "armor" else ammo_tons)(cmd.level, roll.total)
    return [QuantityRolled(item=cmd.item, kind=cmd.kind, level=cmd.level, roll=roll.total,
                           amount=amount, rolls=(roll,))]  # fmt: skip


def _convert(state: HouseState, cmd: ConvertCurrency, dice: Dice) -> list[Event]:
    source, target = currency_name(cmd.source), currency_name(cmd.target)
    # A fluctuation (HRExchangeFluctuation) sets a currency's value for the campaign.
    rates = state.exchange_rates
    if source in rates or target in rates:
        c_bills = cmd.amount * rates.get(source, convert(1, source, "C-Bill"))
        result = c_bills / rates.get(target, convert(1, target, "C-Bill"))
    else:
        result = convert(cmd.amount, source, target)
    return [CurrencyConverted(amount=cmd.amount, source=source, target=target, result=result)]


def _negotiated(state: HouseState, ev: Negotiated) -> HouseState:
    offer = state.offers[ev.item]
    bids = list(offer.bids)
    bids[ev.bid_number - 1] = replace(bids[ev.bid_number - 1], price=ev.price)
    return replace(state, offers={**state.offers, ev.item: replace(offer, bids=tuple(bids))})


DECIDERS: dict[type[Command], Any] = {
    HitLocation: _hit,
    Negotiate: _negotiate,
    Quantity: _quantity,
    ConvertCurrency: _convert,
}
EVOLVERS: dict[type[Event], Any] = {
    HitLocationRolled: lambda s, ev: s,
    Negotiated: _negotiated,
    QuantityRolled: lambda s, ev: s,
    CurrencyConverted: lambda s, ev: s,
}
