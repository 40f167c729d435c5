"""Folding the intrigue events: Interdicts, Leaders killed, bribed and released, Event Cards,
Mercenaries and auctions, Houses controlled or out, the winner."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mekref.rules.messages import Event
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.evolve_edit import (
    move_piece,
    put,
    with_house,
    with_leader,
    with_ship,
    with_unit,
)
from mekref.rules.succession_wars.model import (
    Auction,
    Interdict,
    LeaderStatus,
    MoveOutChoice,
    Phase,
    Status,
    SWState,
    house_counter,
)


def _choice_owed(state: SWState, e: m.SWInterdictChoiceOwed) -> SWState:
    return replace(state, interdict_choices=(*state.interdict_choices, (e.chooser, e.briber)))


def _choice_made(state: SWState, e: m.SWInterdictRegionChosen) -> SWState:
    left = list(state.interdict_choices)
    left.remove((e.chooser, e.briber))
    return replace(state, interdict_choices=tuple(left))


def _interdicted(state: SWState, e: m.SWInterdicted) -> SWState:
    new_one = Interdict(house=e.house, region=e.region, until=e.until)
    if new_one in state.interdicts:
        return state
    new = state
    if e.reason == "attacked Earth":
        new = replace(new, attacked_earth=True)
    return replace(new, interdicts=(*new.interdicts, new_one))


def _killed(state: SWState, e: m.SWLeaderKilled) -> SWState:
    return with_leader(state, e.leader, status=LeaderStatus.KILLED, region="", turncoat="")


def _turncoat_moved(state: SWState, e: m.SWTurncoatMoved) -> SWState:
    return with_leader(state, e.leader, region=e.region, turncoat="exposed" if e.exposed else "")


def _bribed(state: SWState, e: m.SWBribeRolled) -> SWState:
    h = state.houses[e.house]
    new = with_house(
        state, e.house, bribe_bonus=0, free_bribes=h.free_bribes - (1 if e.free else 0)
    )
    if not e.success:
        return new
    ld = new.leaders[e.leader]
    if ld.mercenary:
        new = with_leader(new, e.leader, owner=e.house)
        for uid in e.switched_units:
            new = with_unit(new, uid, owner=e.house)
        return new
    return with_leader(
        new,
        e.leader,
        status=LeaderStatus.BRIBED,
        owner=e.house,
        captor=e.house,
        region=e.held_at,
        turncoat="first_round" if e.turncoat else "",
    )


def _released(state: SWState, e: m.SWLeaderReleased) -> SWState:
    return with_leader(state, e.leader, status=LeaderStatus.FREE, region=e.region, captor="")


def _card_given(state: SWState, e: m.SWCardGiven) -> SWState:
    giver = state.houses[e.house]
    hand = list(giver.hand)
    hand.remove(e.card)
    new = with_house(state, e.house, hand=tuple(hand))
    return with_house(new, e.to, hand=(*new.houses[e.to].hand, e.card))


def _card_played(state: SWState, e: m.SWCardPlayed) -> SWState:
    h = state.houses[e.house]
    hand = list(h.hand)
    hand.remove(e.card)
    changes: dict[str, Any] = {"hand": tuple(hand)}
    if e.effect == "free_unit":
        changes["free_units"] = h.free_units + 1
    if e.effect == "blackmail":
        changes["bribe_bonus"] = h.bribe_bonus + 2
    new = with_house(state, e.house, **changes)
    return replace(new, discard=(*new.discard, e.card))


def _merc_created(state: SWState, e: m.SWMercenaryCreated) -> SWState:
    unit = house_counter(e.unit, e.unit, e.house, e.value, mercenary=True, region=e.region)
    return replace(state, units=put(state.units, e.unit, unit), next_serial=state.next_serial + 1)


def _auction_opened(state: SWState, e: m.SWAuctionOpened) -> SWState:
    return replace(state, auction=Auction(lot=e.lot, kind=e.kind, opener=e.opener))


def _auction_settled(state: SWState, e: m.SWAuctionSettled) -> SWState:
    return replace(state, auction=None)


def _allegiance(state: SWState, e: m.SWAllegianceChanged) -> SWState:
    new = state
    for uid in e.units:
        new = with_unit(new, uid, owner=e.owner)
    for sid in e.jumpships:
        new = with_ship(new, sid, owner=e.owner)
    for lid in e.leaders:
        new = with_leader(new, lid, owner=e.owner)
    for name in e.regions:
        rs = new.regions[name]
        new = replace(new, regions=put(new.regions, name, replace(rs, controller=e.owner)))
    return new


def _offered(state: SWState, e: m.SWImmediateCombatOffered) -> SWState:
    offers = [(h, e.region) for h in e.houses if (h, e.region) not in state.immediate_combat]
    return replace(state, immediate_combat=(*state.immediate_combat, *offers))


def _merc_drawn(state: SWState, e: m.SWMercenaryDrawn) -> SWState:
    new = replace(state, mercenary_pile=e.pile)
    if not e.card:
        new = replace(new, mercenary_drawn_turn=state.turn_no)
    return new


def _merc_hired(state: SWState, e: m.SWMercenaryHired) -> SWState:
    new = state
    for uid in e.units:
        new = with_unit(new, uid, owner=e.house, status=Status.ACTIVE, region=e.region)
    return new


def _merc_unsold(state: SWState, e: m.SWMercenaryUnsold) -> SWState:
    return replace(state, mercenary_pile=e.pile)


def _move_out_offered(state: SWState, e: m.SWMoveOutOffered) -> SWState:
    choice = MoveOutChoice(employer=e.employer, region=e.region, units=e.units)
    return replace(state, move_out_choices=(*state.move_out_choices, choice))


def _moved_out(state: SWState, e: m.SWMercenaryMovedOut) -> SWState:
    kept = tuple(c for c in state.move_out_choices if (c.employer, c.region) != (e.house, e.region))
    new = replace(state, move_out_choices=kept)
    if e.path:
        for piece in (*e.units, *e.leaders):
            new = move_piece(new, piece, e.path[-1])
    return new


def _controlled(state: SWState, e: m.SWHouseControlled) -> SWState:
    return with_house(state, e.house, player=e.player)


def _out(state: SWState, e: m.SWHouseOut) -> SWState:
    return with_house(state, e.house, out=True)


def _won(state: SWState, e: m.SWGameWon) -> SWState:
    return replace(state, winner=e.player, phase=Phase.OVER)


INTRIGUE_EVOLVERS: dict[type[Event], Callable[[SWState, Any], SWState]] = {
    m.SWInterdicted: _interdicted,
    m.SWInterdictChoiceOwed: _choice_owed,
    m.SWInterdictRegionChosen: _choice_made,
    m.SWLeaderKilled: _killed,
    m.SWTurncoatMoved: _turncoat_moved,
    m.SWBribeRolled: _bribed,
    m.SWLeaderReleased: _released,
    m.SWCardGiven: _card_given,
    m.SWCardPlayed: _card_played,
    m.SWMercenaryCreated: _merc_created,
    m.SWAuctionOpened: _auction_opened,
    m.SWAuctionSettled: _auction_settled,
    m.SWAllegianceChanged: _allegiance,
    m.SWHouseOut: _out,
    m.SWHouseControlled: _controlled,
    m.SWImmediateCombatOffered: _offered,
    m.SWMercenaryDrawn: _merc_drawn,
    m.SWMercenaryHired: _merc_hired,
    m.SWMercenaryUnsold: _merc_unsold,
    m.SWMoveOutOffered: _move_out_offered,
    m.SWMercenaryMovedOut: _moved_out,
    m.SWGameWon: _won,
}
