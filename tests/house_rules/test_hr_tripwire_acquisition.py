"""The house rules' acquisition (their lines 171-219) in a TripWire campaign: ammunition the
Ammo Dump does not stock is found first, then bought by a re-arm. Rulings HOUSE-44 to HOUSE-47;
the console script's run is tests/turn/test_turn_house_acquisition_cli.py.

TripWire L272: "Ammo Dump – Any standard ammo type can be purchased with WarChest points. Ammo
Dumps include 4 J-37 Ordinance Transports. Ammo Dumps only have basic ammo types (AC, LAC, UAC,
RAC, SRM, MRM, LRM, MG, Gauss)."
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hr_helpers import GRIFFIN_UNIT, LINES

from mekref.rules.codec import to_jsonable
from mekref.rules.dice import Dice
from mekref.rules.house_rules.acquisition import Acquisition, Bid, acquire, ammo_tons
from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.acting_side import acting_side
from mekref.rules.tripwire.battle_model import AmmoBinLoad, AmmoUse, BattleLedger, UnitDamage
from mekref.rules.tripwire.battle_spending import RepairTask, RepairUnit, UnitRepaired
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.house_acquisition import (
    AcquireItem,
    HouseItemSearched,
    HouseOfferBought,
    is_basic,
    l272,
    offer_key,
    rearm,
)
from mekref.rules.tripwire.state import (
    CampaignState,
    HouseOffer,
    Pool,
    PoolKind,
    Side,
)

TRIPWIRE_TEXT = (Path(__file__).parents[1] / "rules" / "data" / "operation_tripwire.txt").read_text(
    "utf-8"
)
SWARM = "IS Ammo LRM-10 Swarm"
LRM = "IS Ammo LRM-10"
NOTE = RefereeNote(referee="Ann", reason="no map in this test")
UNIT = GRIFFIN_UNIT
POOLS = {
    k: Pool(pool_id=k, side_id=side, name=k.upper(), kind=PoolKind.LOCATION, balance=1000,
            capacity=None)
    for k, side in (("p", "s"), ("q", "s"), ("t", "t"))
}  # fmt: skip
SPENT = UnitDamage(
    ammo_used=(AmmoUse(ammo_type=LRM, tons=Fraction(1)),
               AmmoUse(ammo_type=SWARM, tons=Fraction(2))),
    ammo_bins=(
        AmmoBinLoad(location="Right Torso", slot=5, ammo_type=LRM, shots=0),
        AmmoBinLoad(location="Right Torso", slot=6, ammo_type=SWARM, shots=0),
    ),
)  # fmt: skip
LOADOUT = (
    AmmoBinLoad(location="Right Torso", slot=5, ammo_type=LRM, shots=12),
    AmmoBinLoad(location="Right Torso", slot=6, ammo_type=SWARM, shots=12),
)
#: Two bids at 55 WP/t (50, uncommon +10 %): bid 1 -13 % (a bargain), bid 2 standard.
BIDS = (
    Bid(price_die=1, percent=-13, price=Fraction(4785, 100)),
    Bid(price_die=3, percent=0, price=Fraction(55)),
)
OFFER = HouseOffer(
    side_id="s",
    pool_id="p",
    item=SWARM,
    tons=4,
    acquisition=Acquisition(
        item=SWARM, availability="uncommon", target=7, roll=4, margin=-3, bids=BIDS
    ),
)


def _state(house_rules: bool = True, **kw: Any) -> CampaignState:
    return CampaignState(
        created=True,
        name="c",
        ruleset="tripwire",
        seed="1",
        house_rules=house_rules,
        sides={k: Side(side_id=k, name=k) for k in ("s", "t")},
        pools=POOLS,
        units={"g1": UNIT},
        battles=BattleLedger(unit_damage={"g1": SPENT}, loadouts={"g1": LOADOUT}),
        **kw,
    )


def _search(state: CampaignState, **kw: Any) -> list[Any]:
    fields: dict[str, Any] = {
        "actor": "s", "side_id": "s", "pool_id": "p", "item": SWARM,
        "availability": "uncommon", "ammo_level": 2, "logistics": 6,
    }  # fmt: skip
    cmd = AcquireItem(**{**fields, **kw})
    return TRIPWIRE.decide(state, cmd, Dice(state.seed, state.rolls_used))


def _rearm(state: CampaignState, *bids: tuple[str, int], pool: str = "p") -> list[Any]:
    cmd = RepairUnit(
        actor="Ann", unit_id="g1", pool_id=pool, task=RepairTask.REARM, note=NOTE, bids=bids
    )
    return TRIPWIRE.decide(state, cmd, Dice(state.seed, state.rolls_used))


def test_ruling_the_ammo_dump_stocks_only_the_basic_types() -> None:
    """HOUSE-44. L272 "Ammo Dumps only have basic ammo types (AC, LAC, UAC, RAC, SRM, MRM, LRM,
    MG, Gauss)": the families named, in MegaMek's names, and nothing else."""
    (line,) = [t for t in TRIPWIRE_TEXT.splitlines() if t.startswith("Ammo Dump –")]
    assert l272() == f"L272: '{line}'"
    basic = ("IS Ammo AC/10", "IS Light AC/5 Ammo", "IS Ultra AC/5 Ammo", "IS Rotary AC/2 Ammo",
             "IS Ammo SRM-6", "IS Ammo MRM-20", LRM, "IS Machine Gun Ammo - Half",
             "IS Gauss Ammo", "Clan Ammo LRM-15")  # fmt: skip
    assert all(is_basic(name) for name in basic)
    other = (SWARM, "IS Streak SRM 2 Ammo", "IS LB 10-X AC Ammo", "IS Ammo SRM-4 Inferno",
             "IS Light Machine Gun Ammo", "IS Heavy Gauss Ammo", "IS Ammo Narc")  # fmt: skip
    assert not any(is_basic(name) for name in other)


def test_ruling_the_search_rolls_availability_bids_and_tons() -> None:
    """HOUSE-45. L175 "use the Logistics skill of the person looking for the item with the
    following modifiers" (L177 "Uncommon Weapons | +1 |"); L183 "To find ammo roll 2d6 for Level
    1, 2d6 times 0.5 rounded down for Level 2, or 2d6 times 0.25 rounded down for Level 3." The
    price is TripWire's per ton (L87: 50 for Swarm), with L173's "+10% to base cost"."""
    assert LINES[176] == "Uncommon Weapons | +1 |"
    assert LINES[182].startswith("To find ammo roll 2d6 for Level 1, 2d6 times 0.5")
    state = _state()
    (searched,) = _search(state)
    assert isinstance(searched, HouseItemSearched)
    # The house module rolls it, on the campaign's dice, then the tons found.
    expected, rolls, _ = acquire(Dice("1", 0), SWARM, "uncommon", 50, logistics_skill=6)
    assert searched.acquisition == expected and searched.acquisition.target == 7
    assert searched.rolls[:-1] == rolls and searched.rolls[-1].name == f"ammo found, {SWARM}"
    assert searched.tons == ammo_tons(2, searched.tons_roll) == searched.tons_roll // 2
    assert searched.base_price == 50
    after = TRIPWIRE.evolve(state, searched)
    assert after.house_offers[offer_key("s", SWARM)].tons == searched.tons
    assert after.house_offers[offer_key("s", SWARM)].pool_id == "p"
    # Nothing found (a level 3 2d6 of 2 or 3): no offer, and the old one is replaced.
    empty = replace(searched, tons=0, tons_roll=3)
    assert TRIPWIRE.evolve(after, empty).house_offers == {}
    # HOUSE-8: "chart" (None) is the chart's fixed target, 8+ for uncommon (L173).
    (chart,) = _search(state, logistics=None)
    assert chart.acquisition.target == 8


def test_ruling_a_search_is_refused_without_what_it_needs() -> None:
    """HOUSE-45: nothing is guessed; a basic type needs no search (L272); a side searches for
    its own pool; without the house rules there is no search."""
    with pytest.raises(Refusal, match="acquisition is a house rule"):
        _search(_state(house_rules=False))
    with pytest.raises(Refusal, match="basic type the Ammo Dump stocks"):
        _search(_state(), item=LRM)
    with pytest.raises(Refusal, match="belongs to side t"):
        _search(_state(), pool_id="t")
    with pytest.raises(Refusal, match="give the availability"):
        _search(_state(), availability="")
    with pytest.raises(Refusal, match="level, 1, 2 or 3"):
        _search(_state(), ammo_level=0)
    assert acting_side(_state(), AcquireItem(actor="s", side_id="s", pool_id="p", item=SWARM,
                       availability="rare", ammo_level=3, logistics=5)) == "s"  # fmt: skip


def test_ruling_the_rearm_buys_the_chosen_bid_at_its_price() -> None:
    """HOUSE-46. The basic ton at L85's 5, the two Swarm tons at bid 1's 47.85 WP/t: 5 + 95.7 =
    100.7, rounded up once: 101. L206 "Any time an item is bought at a lower price roll 2d6":
    bid 1 is a bargain, its 2d6 rolled now (HOUSE-23)."""
    state = _state(house_offers={offer_key("s", SWARM): OFFER})
    *bought, repaired = _rearm(state, (SWARM, 1))
    (offer,) = bought
    assert isinstance(offer, HouseOfferBought) and isinstance(repaired, UnitRepaired)
    assert (offer.bid, offer.percent, offer.tons) == (1, -13, 2)
    assert offer.rolls[0].name == f"bargain damage, {SWARM}, bid 1"
    assert repaired.cost_sp == math.ceil(5 + 2 * Fraction(4785, 100)) == 101
    after = TRIPWIRE.evolve(TRIPWIRE.evolve(state, offer), repaired)
    assert after.house_offers == {}
    assert after.pools["p"].balance == 899
    assert not offer.damaged and offer.rolls[0].total < 10  # seed "1": a sound bargain
    assert after.battles.unit_damage["g1"].ammo_used == ()
    assert after.battles.unit_damage["g1"].ammo_bins == LOADOUT
    # A standard bid rolls no damage (L206: only "at a lower price").
    *(standard,), _ = _rearm(state, (SWARM, 2))
    assert standard.rolls == () and not standard.damaged


def test_ruling_the_rearm_is_refused_until_the_ammunition_is_found() -> None:
    """HOUSE-46: no offer, an offer at another pool (TripWire L58), too few tons found, or no
    bid chosen: each a refusal saying what to do; --bid without the house rules is refused."""
    with pytest.raises(Refusal, match="mekref spend acquire --side s --pool p"):
        _rearm(_state())
    offered = _state(house_offers={offer_key("s", SWARM): OFFER})
    with pytest.raises(Refusal, match="is at pool p, not q"):
        _rearm(offered, (SWARM, 1), pool="q")
    short = {offer_key("s", SWARM): replace(OFFER, tons=1)}
    with pytest.raises(Refusal, match="found 1 t"):
        _rearm(_state(house_offers=short), (SWARM, 1))
    with pytest.raises(Refusal, match="choose a bid"):
        _rearm(offered)
    with pytest.raises(Refusal, match="choose 1 to 2"):
        _rearm(offered, (SWARM, 3))
    with pytest.raises(Refusal, match="on re-arming in a campaign created with --house-rules"):
        _rearm(_state(house_rules=False), (SWARM, 1))
    with pytest.raises(Refusal, match="the Ammo Dump stocks it"):
        _rearm(offered, (SWARM, 1), (LRM, 1))
    # Without the house rules the re-arm is TripWire's alone: 5 + 2 x 50 = 105.
    (plain,) = _rearm(_state(house_rules=False))
    assert plain.cost_sp == 105


def test_ruling_a_flawed_bargain_lot_is_destroyed_equipment() -> None:
    """HOUSE-47. L206-210 "On a 10 or higher roll on the critical damage table and apply the
    resulting criticals to the weapon. If this result is equal to or greater than the number of
    criticals in the weapon then it must be salvaged per normal rules for destroyed
    equipment." A ton of ammunition fills one slot: any critical destroys the lot; it is paid
    for, not loaded, and its tons stay to re-arm."""
    assert LINES[205].startswith("item is bought at a lower price roll 2d6. On a 10 or higher")
    state = _state(house_offers={offer_key("s", SWARM): OFFER})
    seen: dict[str, Any] = {}
    for seed in range(400):  # some seed makes the 2d6 10+ and the critical table hit
        s = replace(state, seed=str(seed))
        offer, _ = _rearm(s, (SWARM, 1))
        seen.setdefault("lost" if offer.lost else "damaged" if offer.damaged else "sound", s)
    flawed = seen["lost"]
    offer, repaired = _rearm(flawed, (SWARM, 1))
    assert offer.damaged and offer.criticals >= 1
    assert [r.name for r in offer.rolls] == [
        f"bargain damage, {SWARM}, bid 1",
        f"bargain criticals, {SWARM}",
    ]
    assert offer.rolls[0].total >= 10 and offer.rolls[1].total >= 8
    assert repaired.cost_sp == 101  # paid for all the same
    left = repaired.damage_after
    assert left.ammo_used == (AmmoUse(ammo_type=SWARM, tons=Fraction(2)),)
    assert left.ammo_bins == (LOADOUT[0], SPENT.ammo_bins[1])
    assert "damaged" in seen  # a 10+ whose critical roll found nothing: loaded, sound


def test_a_campaign_without_the_house_rules_writes_no_bids() -> None:
    """Old logs and the replay hash: an empty ``bids`` and empty offers stay out of the JSON."""
    cmd = RepairUnit(actor="a", unit_id="g1", pool_id="p", task=RepairTask.REARM)
    assert "bids" not in to_jsonable(cmd)
    assert "house_offers" not in to_jsonable(CampaignState())
    assert rearm  # the hook spending_units calls only for a house-rules campaign
