"""The house rules' acquisition (their lines 171-219) in a TripWire campaign created with
``--house-rules``: ammunition the Ammo Dump does not stock must first be found.

TripWire L272 stocks only the basic types (AC, LAC, UAC, RAC, SRM, MRM, LRM, MG, Gauss). In a
house-rules campaign any other type a unit spent is searched for with the house acquisition
roll (``mekref spend acquire``: availability, the tons found, the bids and their prices, all
rolled by :mod:`mekref.rules.house_rules.acquisition`); the search leaves an offer for the side
and the pool; the unit's next re-arm (``mekref spend rearm --bid TYPE=N``) buys one bid of it,
pays the TripWire per-ton price changed by the bid's percentage and rolls a bargain's damage
then (house rules L206, ruling HOUSE-23). Rulings HOUSE-44 to HOUSE-47 in docs/house-rules.md.
Without the house rules nothing here runs: the re-arm is TripWire's alone.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from functools import cache

from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Command, Event, command_type, event_type
from mekref.rules.record_type import Record, record
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal
from mekref.rules.tables import load_toml, str_field, str_list_field
from mekref.rules.tripwire.battle_model import AmmoBinLoad, UnitDamage
from mekref.rules.tripwire.campaign import Decider, Evolver, pool_of
from mekref.rules.tripwire.house_seam import Acquisition, acquire, ammo_tons, buy
from mekref.rules.tripwire.repair import AmmoUse, cost_sp, normalised_ammo_name, rearm_per_ton
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, HouseOffer
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.turn.damage_tables import criticals_for

L171 = "house rules L171: 'When a unit wishes to acquire equipment consult the following chart.'"
L183 = (
    "house rules L183: 'To find ammo roll 2d6 for Level 1, 2d6 times 0.5 rounded down for "
    "Level 2, or 2d6 times 0.25 rounded down for Level 3.'"
)
L206 = (
    "house rules L206-210: 'Any time an item is bought at a lower price roll 2d6. On a 10 or "
    "higher roll on the critical damage table and apply the resulting criticals to the weapon. "
    "If this result is equal to or greater than the number of criticals in the weapon then it "
    "must be salvaged per normal rules for destroyed equipment.'"
)
AVAILABILITIES = ("common", "uncommon", "rare")


@cache
def _dump() -> tuple[str, frozenset[str]]:
    data = load_toml("mekref.rules.tripwire.tables", "ammo_dump.toml")
    return f"L272: '{str_field(data, 'source')}'", frozenset(str_list_field(data, "basic"))


def l272() -> str:
    return _dump()[0]


def is_basic(ammo_type: str) -> bool:
    """Whether an Ammo Dump stocks this type (TripWire L272, ruling HOUSE-44)."""
    return re.sub(r"[0-9]", "", normalised_ammo_name(ammo_type)) in _dump()[1]


def offer_key(side_id: str, item: str) -> str:
    return f"{side_id}/{item}"


@command_type("AcquireItem")
@record
class AcquireItem(Command):
    """A side searches for ammunition the Ammo Dump does not stock (house rules L171-205).
    ``availability``: common, uncommon or rare (L172-174, L179-181); ``ammo_level`` 1-3 (L183);
    ``logistics``: the searcher's Logistics skill (L175), or None for the chart's fixed target
    (HOUSE-8), said explicitly."""

    side_id: str
    pool_id: str
    item: str
    availability: str
    ammo_level: int
    logistics: int | None


@event_type("HouseItemSearched")
@record
class HouseItemSearched(Event):
    """The search's rolls: availability (margin, bids, prices per ton) and the tons found."""

    side_id: str
    pool_id: str
    item: str
    ammo_level: int
    base_price: int  # the TripWire re-arm price of one ton (L86/L87), before the surcharge
    tons_roll: int
    tons: int
    acquisition: Acquisition


@event_type("HouseOfferBought")
@record
class HouseOfferBought(Event):
    """One bid of an offer bought by a re-arm: its price, and a bargain's damage (L206-210)."""

    side_id: str
    unit_id: str
    item: str
    bid: int
    percent: int
    price_per_ton: Fraction
    tons: Fraction
    damaged: bool
    criticals: int = 0
    lost: bool = False  # the lot is destroyed equipment: not loaded (HOUSE-47)


def _decide_acquire(state: CampaignState, cmd: AcquireItem, dice: Dice, _: TripWire) -> list[Event]:
    if not state.house_rules:
        raise Refusal(
            "no_house_rules",
            f"acquisition is a house rule ({L171}); this campaign was created without them: "
            f"every ammunition is bought on re-arming ({l272()})",
        )
    if cmd.side_id not in state.sides:
        raise Refusal("unknown_side", f"no side {cmd.side_id!r}")
    pool = pool_of(state, cmd.pool_id)
    if pool.side_id != cmd.side_id:
        raise Refusal("other_side", f"pool {pool.name!r} belongs to side {pool.side_id}")
    item = cmd.item.strip()
    if not item:
        raise Refusal("no_item", "name the ammunition as the unit lists it, e.g. --item "
                      "'IS Ammo LRM-10 Swarm'")  # fmt: skip
    if is_basic(item):
        raise Refusal(
            "stocked",
            f"{item} is a basic type the Ammo Dump stocks ({l272()}): re-arm with it directly",
        )
    if cmd.availability not in AVAILABILITIES:
        raise Refusal(
            "no_availability",
            f"give the availability, one of {', '.join(AVAILABILITIES)} (house rules L172-174; "
            "L179-181: level 1 common, non-house level 2 uncommon, house or Clan rare)",
        )
    if cmd.ammo_level not in (1, 2, 3):
        raise Refusal("no_ammo_level", f"give the ammunition's level, 1, 2 or 3 ({L183})")
    if cmd.logistics is not None and not 0 <= cmd.logistics <= 12:
        raise Refusal("bad_logistics", "a Logistics skill is 0 to 12")
    factor = rearm_per_ton(item)
    if factor.denominator != 1:
        raise Refusal("unpriced", f"{item}: the re-arm price {factor} is not whole")
    acquisition, rolls, dice = acquire(
        dice, item, cmd.availability, int(factor), logistics_skill=cmd.logistics
    )
    found, dice = dice.roll(f"ammo found, {item}", 2)
    return [
        HouseItemSearched(
            side_id=cmd.side_id,
            pool_id=cmd.pool_id,
            item=item,
            ammo_level=cmd.ammo_level,
            base_price=int(factor),
            tons_roll=found.total,
            tons=ammo_tons(cmd.ammo_level, found.total),
            acquisition=acquisition,
            rolls=(*rolls, found),
        )
    ]


def _evolve_searched(state: CampaignState, e: HouseItemSearched) -> CampaignState:
    # A new search replaces the open offer for that item (as HOUSE-23's open bids do).
    key = offer_key(e.side_id, e.item)
    offers = {k: v for k, v in state.house_offers.items() if k != key}
    if e.tons > 0:
        offers[key] = built_from(HouseOffer, e)
    return replace(state, house_offers=dict(sorted(offers.items())))


def _evolve_bought(state: CampaignState, e: HouseOfferBought) -> CampaignState:
    key = offer_key(e.side_id, e.item)
    return replace(state, house_offers={k: v for k, v in state.house_offers.items() if k != key})


@record
class HouseRearm(Record):
    """A re-arm in a house-rules campaign: its whole price, what it leaves, the offers bought."""

    cost_sp: int
    after: UnitDamage
    bought: tuple[HouseOfferBought, ...]


def _offer_for(state: CampaignState, unit: CampaignUnit, use: AmmoUse, pool_id: str) -> HouseOffer:
    """The side's open offer of the ammunition ``use`` re-arms, at ``pool_id`` and large enough;
    refused, saying what to do, when there is none."""
    item = use.ammo_type
    offer = state.house_offers.get(offer_key(unit.side_id, item))
    if offer is None:
        raise Refusal(
            "not_found",
            f"{unit.unit_id} re-arms {use.tons} t of {item}, which no Ammo Dump stocks "
            f"({l272()}): find it first with 'mekref spend acquire --side {unit.side_id} "
            f'--pool {pool_id} --item "{item}" --class AVAILABILITY --ammo-level N '
            f"--logistics SKILL' ({L171})",
        )
    if offer.pool_id != pool_id:
        raise Refusal(
            "other_pool",
            f"the {item} found is at pool {offer.pool_id}, not {pool_id} (TripWire L58: "
            "'Repair and Rearm actions may only be taken when WarChest Points are "
            "available from that location')",
        )
    if use.tons > offer.tons:
        raise Refusal(
            "too_little",
            f"the search found {offer.tons} t of {item}; {unit.unit_id} needs {use.tons} t: "
            "search again (a new search replaces the offer)",
        )
    return offer


def rearm(
    state: CampaignState,
    unit: CampaignUnit,
    damage: UnitDamage,
    pool_id: str,
    bids: tuple[tuple[str, int], ...],
    dice: Dice,
) -> HouseRearm:
    """Ruling HOUSE-46: basic types at the TripWire price (L85-87); every other type from an
    open offer of the side at this pool, at the chosen bid's price per ton; the whole bill
    rounded up once (R-COST-2). Ruling HOUSE-47: a bargain's 2d6 of 10+ rolls the Determining
    Critical Hits table; a ton of ammunition fills one slot, so any critical destroys the lot."""
    t = load_tables()
    chosen = dict(bids)
    spent = {u.ammo_type for u in damage.ammo_used}
    for item in chosen:
        if item not in spent:
            raise Refusal("unknown_bid", f"--bid {item}: {unit.unit_id} spent no {item} to re-arm")
        if is_basic(item):
            raise Refusal(
                "stocked", f"--bid {item}: the Ammo Dump stocks it ({l272()}): it takes no bid"
            )
    exact = Fraction(0)
    bought: list[HouseOfferBought] = []
    lost: set[str] = set()
    for use in damage.ammo_used:
        if is_basic(use.ammo_type):
            exact += use.tons * rearm_per_ton(use.ammo_type, use.tier, t)
            continue
        item = use.ammo_type
        offer = _offer_for(state, unit, use, pool_id)
        n = chosen.get(item)
        if n is None:
            prices = "; ".join(
                f"{i} at {float(b.price):g} WP/t ({b.percent:+d}%)"
                for i, b in enumerate(offer.acquisition.bids, 1)
            )
            raise Refusal(
                "choose_bid",
                f"choose a bid for {item}: --bid '{item}=N' ({prices})",
            )
        bid, rolls, dice = buy(dice, offer.acquisition, n)
        criticals, is_lost = 0, False
        all_rolls: tuple[Roll, ...] = rolls
        if bid.damaged:
            chance, dice = dice.roll(f"bargain criticals, {item}", 2)
            all_rolls = (*rolls, chance)
            criticals = criticals_for(chance.total)
            is_lost = criticals >= 1
        if is_lost:
            lost.add(item)
        exact += use.tons * bid.price
        bought.append(
            HouseOfferBought(
                side_id=unit.side_id,
                unit_id=unit.unit_id,
                item=item,
                bid=n,
                percent=bid.percent,
                price_per_ton=bid.price,
                tons=use.tons,
                damaged=bool(bid.damaged),
                criticals=criticals,
                lost=is_lost,
                rolls=all_rolls,
            )
        )
    loadout = state.battles.loadouts.get(unit.unit_id, ())
    kept: tuple[AmmoBinLoad, ...] = tuple(b for b in damage.ammo_bins if b.ammo_type in lost)
    after = replace(
        damage,
        ammo_used=tuple(u for u in damage.ammo_used if u.ammo_type in lost),
        ammo_bins=(*(b for b in loadout if b.ammo_type not in lost), *kept) if lost else loadout,
    )
    return HouseRearm(cost_sp=cost_sp(exact), after=after, bought=tuple(bought))


def describe(e: Event) -> str | None:
    """A search or a purchase in words, with the lines; None for any other event."""
    if isinstance(e, HouseItemSearched):
        a = e.acquisition
        head = (
            f"{e.side_id} searched for {e.item} (house rules L171-183): 2d6 {a.roll} against "
            f"{a.target}+ ({a.availability}), margin {a.margin:+d}: {len(a.bids)} bid(s) "
            f"(L194-201); ammo found 2d6 {e.tons_roll} at level {e.ammo_level}: {e.tons} t (L183)"
        )
        if not e.tons:
            return f"{head}; nothing found, no offer"
        bids = "; ".join(
            f"bid {i}: {float(b.price):g} WP/t "
            f"({f'{b.percent:+d}%' if b.percent else 'standard'}, 1d6 {b.price_die})"
            for i, b in enumerate(a.bids, 1)
        )
        return (
            f"{head}; offer at pool {e.pool_id}, TripWire price {e.base_price} WP/t with the "
            f"availability's surcharge and each bid's change (L202-205): {bids}"
        )
    if isinstance(e, HouseOfferBought):
        text = (
            f"{e.unit_id} bought {e.tons} t of {e.item}, bid {e.bid} at "
            f"{float(e.price_per_ton):g} WP/t"
        )
        if e.percent >= 0:
            return text + " (no bargain: no damage roll)"
        flaw = e.rolls[0].total if e.rolls else "?"
        if not e.damaged:
            return text + f" (a bargain: 2d6 {flaw}, under 10: sound; L206)"
        chance = e.rolls[1].total if len(e.rolls) > 1 else "?"
        if e.lost:
            return text + (
                f" (a bargain: 2d6 {flaw}, 10+: critical table 2d6 {chance}, {e.criticals} "
                "critical(s) on a one-slot ton: destroyed equipment, not loaded, to be found "
                "again; L206-210, HOUSE-47)"
            )
        return text + (
            f" (a bargain: 2d6 {flaw}, 10+: critical table 2d6 {chance}, no critical: sound; "
            "L206-207, HOUSE-47)"
        )
    return None


DECIDERS: dict[type[Command], Decider] = {AcquireItem: _decide_acquire}
EVOLVERS: dict[type[Event], Evolver] = {
    HouseItemSearched: _evolve_searched,
    HouseOfferBought: _evolve_bought,
}
