"""Acquiring equipment: availability, bids, price fluctuation, negotiation (lines 171-219)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from mekref.rules.dice import Dice, Roll
from mekref.rules.house_rules.table_loader import HouseTables, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal


@record
class Bid(Record):
    price_die: int  # 1-2 lower, 3-4 standard, 5-6 higher (line 203)
    percent: int  # the 3d6 % change, signed (0 for a standard price)
    price: Fraction  # C-bills, exact
    #: Whether a bargain's 2d6 came up 10+ (roll critical damage for the item). None until the
    #: bid is bought: L206 "Any time an item is bought at a lower price roll 2d6" (ruling
    #: HOUSE-23); older logs rolled it with the bid and hold True or False.
    damaged: bool | None = None

    @property
    def bargain(self) -> bool:
        return self.percent < 0


@record
class Acquisition(Record):
    item: str
    availability: str
    target: int
    roll: int
    margin: int  # margin of success (negative: of failure)
    bids: tuple[Bid, ...]


def target_number(
    availability: str, logistics_skill: int | None, tables: HouseTables | None = None
) -> int:
    """Ruling HOUSE-8: with a Logistics skill the target is that skill plus the row's modifier
    (lines 175-178); without one, the chart's fixed target (6+, 8+, 10+; lines 172-174)."""
    t = tables or load_tables()
    row = t.choose("acquisition", "availability", availability, "availability")
    if logistics_skill is None:
        return row.int("target")
    return logistics_skill + row.int("logistics_modifier")


def bids_for(margin: int, tables: HouseTables | None = None) -> int:
    """Lines 196-201: how many sellers the search found."""
    return (tables or load_tables()).band("acquisition", "bids", margin).int("bids")


def negotiation_percent(margin: int, tables: HouseTables | None = None) -> int:
    """Lines 213-219: the price change a negotiation check's margin earns (negative: cheaper)."""
    return (tables or load_tables()).band("acquisition", "negotiation", margin).int("percent")


def acquire(
    dice: Dice,
    item: str,
    availability: str,
    base_cost: int,
    *,
    logistics_skill: int | None = None,
    tables: HouseTables | None = None,
) -> tuple[Acquisition, tuple[Roll, ...], Dice]:
    """Search (2d6 against the target), then each bid's price: 1d6 direction, 3d6 percent.

    The availability surcharge ("+10% to base cost", "+40%") is applied first. A bargain's
    damage is rolled only when it is bought (:func:`buy`, ruling HOUSE-23). Ruling HOUSE-8: a
    failed search still finds the bids its margin of failure gives (the bids table runs down
    to "-6 or less").
    """
    t = tables or load_tables()
    if base_cost < 0:
        raise Refusal("bad_cost", "a base cost cannot be negative")
    target = target_number(availability, logistics_skill, t)
    search, dice = dice.roll(f"acquisition search, {item}", 2)
    rolls = [search]
    margin = search.total - target
    row = t.choose("acquisition", "availability", availability, "availability")
    availability = row.text("key")
    surcharge = row.int("surcharge_percent")
    base = Fraction(base_cost) * (100 + surcharge) / 100
    price_rule = t.rule("acquisition", "bid_price")
    bids: list[Bid] = []
    for n in range(1, bids_for(margin, t) + 1):
        direction_roll, dice = dice.roll(f"bid {n} price, {item}", price_rule.int("dice"))
        rolls.append(direction_roll)
        direction = 0
        if direction_roll.total <= price_rule.int("lower_high"):
            direction = -1
        elif direction_roll.total > price_rule.int("standard_high"):
            direction = 1
        percent = 0
        if direction:
            pct_roll, dice = dice.roll(f"bid {n} percent, {item}", price_rule.int("percent_dice"))
            rolls.append(pct_roll)
            percent = direction * pct_roll.total
        bids.append(
            Bid(price_die=direction_roll.total, percent=percent, price=base * (100 + percent) / 100)
        )
    acquisition = Acquisition(
        item=item,
        availability=availability,
        target=target,
        roll=search.total,
        margin=margin,
        bids=tuple(bids),
    )
    return acquisition, tuple(rolls), dice


def buy(
    dice: Dice, acquisition: Acquisition, bid_number: int, tables: HouseTables | None = None
) -> tuple[Bid, tuple[Roll, ...], Dice]:
    """Buy bid ``bid_number`` (1-based) of an acquisition. L206 "Any time an item is bought at a
    lower price roll 2d6. On a 10 or higher roll on the critical damage table": the bargain's
    damage is rolled now, after the buyer chose, never before (ruling HOUSE-23)."""
    t = tables or load_tables()
    if not 1 <= bid_number <= len(acquisition.bids):
        raise Refusal(
            "unknown_bid",
            f"the search for {acquisition.item} found {len(acquisition.bids)} bid(s): "
            f"choose 1 to {len(acquisition.bids)}",
        )
    bid = acquisition.bids[bid_number - 1]
    if not bid.bargain:
        return replace(bid, damaged=False), (), dice
    rule = t.rule("acquisition", "bargain_damage")
    flaw, dice = dice.roll(
        f"bargain damage, {acquisition.item}, bid {bid_number}", rule.int("dice")
    )
    return replace(bid, damaged=flaw.total >= rule.int("damaged_from")), (flaw,), dice


def negotiated_price(price: Fraction, margin: int, tables: HouseTables | None = None) -> Fraction:
    return price * (100 + negotiation_percent(margin, tables)) / 100


def armor_tons(level: int, roll: int, tables: HouseTables | None = None) -> int:
    """Line 182: 2d6 x 10 / 5 / 2 tons for Level 1 / 2 / 3 armor."""
    t = tables or load_tables()
    row = next(r for r in t.rows("acquisition", "armor") if r.int("level") == level)
    return roll * row.int("tons_multiplier")


def ammo_tons(level: int, roll: int, tables: HouseTables | None = None) -> int:
    """Line 183: 2d6, x0.5 or x0.25 rounded down for Level 2 or 3."""
    t = tables or load_tables()
    row = next(r for r in t.rows("acquisition", "ammo") if r.int("level") == level)
    return int(roll * row.fraction("multiplier"))


def part_availability(part: str, tables: HouseTables | None = None) -> str:
    """Lines 184-185: actuators, heat sinks, jump jets are common; locations, gyro, engine,
    cockpit, life support and sensors uncommon."""
    t = tables or load_tables()
    for row in t.rows("acquisition", "definition"):
        if part in row.texts("parts"):
            return row.text("key")
    raise Refusal("unknown_part", f"the acquisition tables do not class {part!r}")


def quantity_range(target: int, tables: HouseTables | None = None) -> tuple[int, int]:
    """Ruling HOUSE-15: lines 190-193 pair a target number with how many items are found
    (1-2 at 4+, 1-4 at 6+, 1-6 at 8+, 2-8 at 10+)."""
    t = tables or load_tables()
    for row in t.rows("acquisition", "quantity"):
        if row.int("target") == target:
            return row.int("low"), row.int("high")
    raise Refusal("unknown_target", f"no quantity row for {target}+")
