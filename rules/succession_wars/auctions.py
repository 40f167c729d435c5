"""Auctions: Periphery states and Mercenary contracts (ruling SW-40, L387), the 2786 Mercenary pile,
and new Mercenaries moving out or being attacked at once."""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.common import (
    BANK,
    Builder,
    after_change,
    check_actor,
    check_quiet,
    check_turn,
    pay,
    tech_of,
)
from mekref.rules.succession_wars.model import (
    MERCENARY_PILE,
    REFEREE,
    Auction,
    Status,
    SWState,
)
from mekref.rules.succession_wars.movement import check_path
from mekref.rules.succession_wars.scenario_2786 import hiring_region


def decide_open_auction(state: SWState, cmd: m.SWOpenAuction, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    check_turn(state, cmd.house)
    check_quiet(state)
    board = state.board()
    region = board.region(cmd.lot)
    if region is None or not region.periphery:
        raise Refusal("not_periphery", f"{cmd.lot} is not a Periphery state")
    if state.controller(cmd.lot) != region.house:
        raise Refusal(
            "not_neutral", f"{cmd.lot} is already controlled by {state.controller(cmd.lot)}"
        )
    return [m.SWAuctionOpened(lot=cmd.lot, kind="periphery", opener=cmd.house)]


def _bid_order(state: SWState, opener: str) -> list[str]:
    order = [h for h in state.sequence if not state.houses[h].out]
    i = order.index(opener)
    return order[i:] + order[:i]


def decide_settle_auction(state: SWState, cmd: m.SWSettleAuction, dice: Dice) -> list[Event]:
    auction = state.auction
    if auction is None:
        raise Refusal("no_auction", "no auction is open")
    if cmd.actor != REFEREE and cmd.actor != auction.opener:
        raise Refusal("not_your_auction", "the referee or the opener enters the bids")
    high, winner = _bidding(state, cmd, auction.opener)
    b = Builder(state, dice)
    b.add(
        m.SWAuctionSettled(
            lot=auction.lot, kind=auction.kind, bids=cmd.bids, winner=winner, price=high
        )
    )
    if auction.kind == "pile":
        _settle_pile(b, state, auction, winner, high)
    elif winner and auction.kind == "periphery":
        pay(b, winner, high, BANK, f"won {auction.lot}")
        _settle_periphery(b, state, auction, winner)
    elif winner:
        pay(b, winner, high, BANK, f"won {auction.lot}")
        _settle_mercenary(b, state, auction, winner)
    return b.events


def _bidding(state: SWState, cmd: m.SWSettleAuction, opener: str) -> tuple[int, str]:
    """The winning bid and bidder, the bids checked: they go round the table in order of play
    from the opener, and a pass is final."""
    order = _bid_order(state, opener)
    passed: set[str] = set()
    high = 0
    winner = ""
    pos = 0
    for bid in cmd.bids:
        live = [h for h in order if h not in passed]
        if not live:
            raise Refusal("bad_bids", "bids after everyone has passed")
        expected = None
        for step in range(len(order)):
            candidate = order[(pos + step) % len(order)]
            if candidate not in passed:
                expected = candidate
                pos = (pos + step + 1) % len(order)
                break
        if bid.house != expected:
            raise Refusal("bad_bids", f"{expected} bids next, not {bid.house}")
        if bid.amount == 0:
            passed.add(bid.house)
            continue
        if bid.amount <= high:
            raise Refusal("bad_bids", f"{bid.house} must bid more than {high}")
        if bid.amount > state.houses[bid.house].cash:
            raise Refusal("bad_bids", f"{bid.house} cannot pay {bid.amount}")
        high, winner = bid.amount, bid.house
    others = [h for h in order if h != winner and h not in passed]
    if others:
        raise Refusal("bad_bids", f"the auction is not over: {', '.join(others)} must pass")
    return high, winner


def _settle_pile(b: Builder, state: SWState, auction: Auction, winner: str, high: int) -> None:
    """A counter drawn from the 2786 Mercenary pile: hired where it can form, or back under."""
    counters = tuple(
        sorted(
            u.id
            for u in state.units.values()
            if u.owner == MERCENARY_PILE and u.formation == auction.lot
        )
    )
    if not winner:
        # Ruling SW-40: an unsold unit goes back to the bottom of the pile.
        b.add(
            m.SWMercenaryUnsold(
                formation=auction.lot,
                units=counters,
                pile=(*state.mercenary_pile, *counters),
            )
        )
        return
    pay(b, winner, high, BANK, f"hired {auction.lot}")
    region = hiring_region(b.state, winner)
    if not region:
        raise Refusal("no_region", f"{winner} holds no Region where {auction.lot} could form")
    b.add(m.SWMercenaryHired(house=winner, formation=auction.lot, units=counters, region=region))
    offer_immediate_combat(b, winner, counters)


def _settle_periphery(b: Builder, state: SWState, auction: Auction, winner: str) -> None:
    """A Periphery state's forces, JumpShips and Regions pass to the winner."""
    owner = state.controller(auction.lot)
    b.add(
        m.SWAllegianceChanged(
            owner=winner,
            units=tuple(sorted(u.id for u in state.units.values() if u.owner == owner)),
            jumpships=tuple(sorted(s.id for s in state.jumpships.values() if s.owner == owner)),
            regions=tuple(sorted(r for r, rs in state.regions.items() if rs.controller == owner)),
        )
    )


def _settle_mercenary(b: Builder, state: SWState, auction: Auction, winner: str) -> None:
    """A Mercenary formation's contract: its units and Leaders change sides, and the Regions
    it holds alone pass with their JumpShips."""
    units = [u for u in state.units.values() if u.mercenary and u.formation == auction.lot]
    leaders = [ld for ld in state.leaders.values() if ld.mercenary and ld.formation == auction.lot]
    board = state.board()
    regions: list[str] = []
    ships: list[str] = []
    for region in sorted({u.region for u in units if u.status is Status.ACTIVE}):
        others_here = [u for u in state.combat_units(region) if u.formation != auction.lot]
        info = board.region(region)
        if not others_here and info is not None and not info.periphery:
            # Alone in the Region: its taxes pass to the new employer, JumpShips are captured.
            regions.append(region)
            ships += [s.id for s in state.ships_in(region) if s.owner != winner]
    b.add(
        m.SWAllegianceChanged(
            owner=winner,
            units=tuple(sorted(u.id for u in units)),
            leaders=tuple(sorted(ld.id for ld in leaders)),
            jumpships=tuple(sorted(ships)),
            regions=tuple(regions),
        )
    )
    offer_immediate_combat(b, winner, tuple(u.id for u in units))
    after_change(b)


def offer_immediate_combat(b: Builder, employer: str, units: tuple[str, ...]) -> None:
    """Line 387: "If there are opposing units in the Region, the bribing player may want to move
    his new Mercenary unit out intact, without combat." The employer chooses first
    (SWMoveMercenaryOut); if he stays, the opposing Houses may attack at once (ruling SW-41)."""
    state = b.state
    regions = sorted(
        {
            state.units[uid].region
            for uid in units
            if state.units[uid].status is Status.ACTIVE and state.units[uid].region
        }
    )
    for region in regions:
        if not _opposing_houses(state, region, employer):
            continue
        here = tuple(sorted(uid for uid in units if state.units[uid].region == region))
        b.add(m.SWMoveOutOffered(region=region, employer=employer, units=here))


def _opposing_houses(state: SWState, region: str, employer: str) -> tuple[str, ...]:
    return tuple(
        sorted(
            h
            for h in state.enemy_owners_in(region, employer)
            if h in state.houses  # ruling SW-35: never the employer's own other Houses
        )
    )


def decide_move_out(state: SWState, cmd: m.SWMoveMercenaryOut, dice: Dice) -> list[Event]:
    """L387: "the bribing player may want to move his new Mercenary unit out intact, without
    combat. If he does not, combat must occur. At the opposing player's option, combat may occur
    immediately." """
    check_actor(state, cmd.actor, cmd.house)
    choice = next(
        (c for c in state.move_out_choices if c.employer == cmd.house and c.region == cmd.region),
        None,
    )
    if choice is None:
        raise Refusal(
            "no_move_out",
            f"no Mercenary unit of {cmd.house} changed sides beside opposing units in "
            f"{cmd.region} (L387)",
        )
    units = tuple(
        uid
        for uid in choice.units
        if state.units[uid].owner == cmd.house
        and state.units[uid].status is Status.ACTIVE
        and state.units[uid].region == cmd.region
    )
    formations = {state.units[uid].formation for uid in units}
    leaders = tuple(
        sorted(
            ld.id
            for ld in state.leaders_in(cmd.region, cmd.house)
            if ld.mercenary and ld.formation in formations
        )
    )
    b = Builder(state, dice)
    if not cmd.path:
        b.add(m.SWMercenaryMovedOut(house=cmd.house, region=cmd.region, path=(), units=units))
        houses = _opposing_houses(b.state, cmd.region, cmd.house)
        if houses and units:
            b.add(m.SWImmediateCombatOffered(region=cmd.region, houses=houses, mercenary=cmd.house))
        return b.events
    # Ruling SW-41: out as a retreat goes (SW-12), without a JumpShip: at most the House's
    # JumpShip range, through no enemy combat units, to a friendly Region free of enemy forces.
    reach = tech_of(state, cmd.house).jump_range
    if len(cmd.path) > reach:
        raise Refusal("out_of_range", f"a move out goes 1 to {reach} Regions")
    check_path(state, cmd.house, cmd.region, cmd.path, carries_units=True)
    end = cmd.path[-1]
    if not state.friendly_region(end, cmd.house) or state.enemy_units(end, cmd.house):
        raise Refusal(
            "bad_move_out",
            f"the Mercenary unit moves out to a Region {cmd.house} controls, free of enemy "
            f"forces; {end} is not",
        )
    b.add(
        m.SWMercenaryMovedOut(
            house=cmd.house, region=cmd.region, path=cmd.path, units=units, leaders=leaders
        )
    )
    return b.events
