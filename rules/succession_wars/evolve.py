"""Applying Succession Wars events to the state. Never refuses: an event is a fact in the log."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from mekref.rules.messages import Event
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import load_tables
from mekref.rules.succession_wars.model import (
    PHASES,
    Auction,
    CenterState,
    Combat,
    HouseState,
    Interdict,
    JumpShip,
    Leader,
    LeaderStatus,
    MoveOutChoice,
    Phase,
    RegionState,
    Status,
    SWState,
    Unit,
)

K = TypeVar("K")
V = TypeVar("V")


def put(mapping: Mapping[K, V], key: K, value: V) -> dict[K, V]:
    out = dict(mapping)
    out[key] = value
    return out


def _house(state: SWState, name: str, **changes: Any) -> SWState:
    return replace(state, houses=put(state.houses, name, replace(state.houses[name], **changes)))


def _unit(state: SWState, uid: str, **changes: Any) -> SWState:
    return replace(state, units=put(state.units, uid, replace(state.units[uid], **changes)))


def _ship(state: SWState, sid: str, **changes: Any) -> SWState:
    return replace(
        state, jumpships=put(state.jumpships, sid, replace(state.jumpships[sid], **changes))
    )


def _leader(state: SWState, lid: str, **changes: Any) -> SWState:
    return replace(state, leaders=put(state.leaders, lid, replace(state.leaders[lid], **changes)))


def _move_piece(state: SWState, piece: str, region: str) -> SWState:
    if piece in state.units:
        return _unit(state, piece, region=region)
    if piece in state.leaders:
        return _leader(state, piece, region=region)
    return _ship(state, piece, region=region)


def _started(state: SWState, e: m.SWCampaignStarted) -> SWState:
    return replace(
        state,
        seed=e.seed,
        scenario=e.scenario,
        map=e.map,
        sequence=e.sequence,
        houses={h.name: h for h in e.houses},
        regions=dict(e.regions),
        units={u.id: u for u in e.units},
        jumpships={s.id: s for s in e.jumpships},
        leaders={ld.id: ld for ld in e.leaders},
        deck=e.deck,
        setup_order=e.setup_order,
        mercenary_pile=e.mercenary_pile,
    )


def _phase(state: SWState, e: m.SWPhaseBegan) -> SWState:
    new = state
    # A turn ends when the next one begins: at its Draw phase, or (2786) at the Mercenary Phase
    # "before each turn" (L605), which the same House's Draw phase then follows.
    new_turn = e.phase is Phase.MERCENARY or (
        e.phase is Phase.DRAW and state.phase is not Phase.MERCENARY
    )
    if new_turn and state.active:
        new = end_of_turn(new, state.active)
    new = replace(new, immediate_combat=())  # "immediately": offers lapse with the phase
    new = replace(new, active=e.house, phase=e.phase, round=e.round, turn_no=e.turn_no)
    if e.phase is Phase.DRAW:
        # A new turn: per-turn allowances reset; note who stands on a Manufacturing Center now,
        # since only those units may be upgraded this turn.
        board = new.board()
        centers = {
            r.name
            for r in board.regions
            if new.regions[r.name].center is not CenterState.NONE
            and new.regions[r.name].controller == e.house
        }
        at_center = frozenset(
            u.id
            for u in new.units.values()
            if u.owner == e.house and u.status is Status.ACTIVE and u.region in centers
        )
        new = replace(
            new,
            jumps_used={},
            rode={},
            aboard={},
            at_center=at_center,
            boosts_used={},
            attacked_earth=False,
        )
    if e.phase is Phase.COMBAT:
        new = replace(new, aboard={})  # whatever is still aboard got off where its ship is
    if e.phase is Phase.PLACE:
        new = replace(new, pending_tech={})  # applied in the Adjust Technology phase
    return new


def _drawn(state: SWState, e: m.SWCardsDrawn) -> SWState:
    h = state.houses[e.house]
    new = _house(state, e.house, hand=h.hand + e.cards)
    return replace(new, deck=e.deck, discard=e.discard)


def _cash(state: SWState, e: m.SWCashChanged) -> SWState:
    return _house(state, e.house, cash=state.houses[e.house].cash + e.delta)


def _tech(state: SWState, e: m.SWTechChanged) -> SWState:
    return _house(state, e.house, tech=e.level)


def _tech_pending(state: SWState, e: m.SWTechPending) -> SWState:
    return replace(
        state,
        pending_tech=put(state.pending_tech, e.house, state.pending_tech.get(e.house, 0) + e.delta),
    )


def _bought(state: SWState, e: m.SWPieceBought) -> SWState:
    new = state
    if e.free:
        new = _house(new, e.house, free_units=new.houses[e.house].free_units - 1)
    if e.item.startswith("jumpship"):
        ship = JumpShip(id=e.piece, owner=e.house, capacity=e.capacity, status=Status.PENDING)
        return replace(
            new, jumpships=put(new.jumpships, e.piece, ship), next_serial=new.next_serial + 1
        )
    if e.new:
        unit = Unit(
            id=e.piece,
            formation=e.piece,
            house=e.house,
            owner=e.house,
            kind=e.kind,
            value=e.value,
            status=Status.PENDING,
        )
        return replace(new, units=put(new.units, e.piece, unit), next_serial=new.next_serial + 1)
    return _unit(new, e.piece, status=Status.PENDING, value=e.value, region="", owner=e.house)


def _center(state: SWState, e: m.SWCenterChanged) -> SWState:
    rs = state.regions[e.region]
    return replace(
        state,
        regions=put(
            state.regions,
            e.region,
            replace(
                rs, center=e.center, center_blocked_turn=max(rs.center_blocked_turn, e.blocked_turn)
            ),
        ),
    )


def _placed(state: SWState, e: m.SWPiecesPlaced) -> SWState:
    new = state
    for p in e.placements:
        if p.piece in new.units:
            new = _unit(new, p.piece, status=Status.ACTIVE, region=p.region)
        else:
            new = _ship(new, p.piece, status=Status.ACTIVE, region=p.region)
    return new


def _moved(state: SWState, e: m.SWJumpShipMoved) -> SWState:
    new = state
    aboard = dict(new.aboard)
    rode = dict(new.rode)
    for piece in e.picked_up:
        aboard[piece] = e.jumpship
        rode[piece] = e.jumpship
    end = e.path[-1] if e.path else new.jumpships[e.jumpship].region
    new = _ship(new, e.jumpship, region=end)
    for piece, ship in aboard.items():
        if ship == e.jumpship:
            new = _move_piece(new, piece, end)
    for piece in e.dropped_off:
        aboard.pop(piece, None)
    used = new.jumps_used.get(e.jumpship, 0) + len(e.path)
    return replace(new, aboard=aboard, rode=rode, jumps_used=put(new.jumps_used, e.jumpship, used))


def _scuttled(state: SWState, e: m.SWJumpShipScuttled) -> SWState:
    return _ship(state, e.jumpship, status=Status.DESTROYED, region="")


def _captured(state: SWState, e: m.SWPiecesCaptured) -> SWState:
    new = state
    for sid in e.jumpships:
        new = _ship(new, sid, owner=e.captor)
    for sid in e.destroyed_jumpships:
        new = _ship(new, sid, status=Status.DESTROYED, region="")
    for lid in e.leaders:
        new = _leader(new, lid, status=LeaderStatus.CAPTURED, region=e.held_at, captor=e.captor)
    aboard = {k: v for k, v in new.aboard.items() if k not in e.leaders}
    return replace(new, aboard=aboard)


def _region_captured(state: SWState, e: m.SWRegionCaptured) -> SWState:
    rs = state.regions[e.region]
    blocked = e.blocked_turn if rs.center is not CenterState.NONE else rs.center_blocked_turn
    new = replace(
        state,
        regions=put(
            state.regions, e.region, replace(rs, controller=e.house, center_blocked_turn=blocked)
        ),
    )
    # L315: captives are "held and controlled by whomever controls the capital" they are in.
    for ld in new.leaders_in_custody(e.region):
        new = _leader(new, ld.id, captor=e.house)
    region = new.board().region(e.region)
    if region is not None and region.terra:
        # Whoever holds Terra is under a Housewide Interdict for as long as he holds it.
        kept = tuple(i for i in new.interdicts if i.until != "earth")
        new = replace(new, interdicts=(*kept, Interdict(house=e.house, until="earth")))
        if not new.earth_taken and e.house in new.houses:
            # The first House to hold Earth gets two units free and C-Bills at turn end.
            extra = load_tables().earth["first_units"]
            new = _house(new, e.house, free_units=new.houses[e.house].free_units + extra)
            new = replace(new, earth_taken=True, earth_bonus_due=e.house)
    return new


def _combat_began(state: SWState, e: m.SWCombatBegan) -> SWState:
    return replace(
        state,
        immediate_combat=tuple(o for o in state.immediate_combat if o[1] != e.region),
        combat=Combat(
            region=e.region,
            attacker=e.attacker,
            defender=e.defender,
            stage="attack",
            original_strength=e.original_strength,
            center_modifier=e.center_modifier,
            controller_before=e.controller_before,
        ),
    )


def _rolled(state: SWState, e: m.SWCombatRolled) -> SWState:
    c = state.combat
    assert c is not None
    new = replace(
        state,
        boosts_used=put(state.boosts_used, e.house, state.boosts_used.get(e.house, 0) + e.boosts),
    )
    if e.side == "attacker":
        return replace(new, combat=replace(c, attacker_hits=e.hits, stage="counterattack"))
    due = {}
    att_units = len(state.combat_units(c.region, c.attacker))
    def_units = len(state.combat_units(c.region, c.defender))
    if c.attacker_hits and def_units:
        due[c.defender] = min(c.attacker_hits, def_units)
    if e.hits and att_units:
        due[c.attacker] = min(e.hits, att_units)
    stage = "losses" if due else "retreat_attacker"
    return replace(new, combat=replace(c, defender_hits=e.hits, losses_due=due, stage=stage))


def _losses(state: SWState, e: m.SWLossesTaken) -> SWState:
    new = state
    for uid in e.units:
        new = _unit(new, uid, status=Status.DESTROYED, region="")
    c = new.combat
    if c is None or c.region != e.region:
        return new  # a reported battle: no round in progress
    due = {k: v for k, v in c.losses_due.items() if k != e.house}
    stage = "losses" if due else "retreat_attacker"
    return replace(new, combat=replace(c, losses_due=due, stage=stage))


def _retreated(state: SWState, e: m.SWRetreated) -> SWState:
    new = state
    for move in e.moves:
        end = move.path[-1]
        new = _ship(new, move.jumpship, region=end)
        for piece in move.carry:
            new = _move_piece(new, piece, end)
    c = new.combat
    if c is not None and c.region == e.region:
        stage = "retreat_defender" if e.house == c.attacker else "resolve"
        new = replace(new, combat=replace(c, stage=stage))
    return new


def _round_ended(state: SWState, e: m.SWCombatRoundEnded) -> SWState:
    c = state.combat
    assert c is not None
    return replace(
        state,
        combat=replace(
            c, round=c.round + 1, stage="attack", attacker_hits=0, defender_hits=0, losses_due={}
        ),
    )


def _combat_ended(state: SWState, e: m.SWCombatEnded) -> SWState:
    return replace(state, combat=None)


def _noted(state: SWState, e: Event) -> SWState:
    return state  # the record of a roll; what it caused follows in its own events


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
    return _leader(state, e.leader, status=LeaderStatus.KILLED, region="", turncoat="")


def _turncoat_moved(state: SWState, e: m.SWTurncoatMoved) -> SWState:
    return _leader(state, e.leader, region=e.region, turncoat="exposed" if e.exposed else "")


def _bribed(state: SWState, e: m.SWBribeRolled) -> SWState:
    h = state.houses[e.house]
    new = _house(state, e.house, bribe_bonus=0, free_bribes=h.free_bribes - (1 if e.free else 0))
    if not e.success:
        return new
    ld = new.leaders[e.leader]
    if ld.mercenary:
        new = _leader(new, e.leader, owner=e.house)
        for uid in e.switched_units:
            new = _unit(new, uid, owner=e.house)
        return new
    return _leader(
        new,
        e.leader,
        status=LeaderStatus.BRIBED,
        owner=e.house,
        captor=e.house,
        region=e.held_at,
        turncoat="first_round" if e.turncoat else "",
    )


def _released(state: SWState, e: m.SWLeaderReleased) -> SWState:
    return _leader(state, e.leader, status=LeaderStatus.FREE, region=e.region, captor="")


def _card_given(state: SWState, e: m.SWCardGiven) -> SWState:
    giver = state.houses[e.house]
    hand = list(giver.hand)
    hand.remove(e.card)
    new = _house(state, e.house, hand=tuple(hand))
    return _house(new, e.to, hand=(*new.houses[e.to].hand, e.card))


def _card_played(state: SWState, e: m.SWCardPlayed) -> SWState:
    h = state.houses[e.house]
    hand = list(h.hand)
    hand.remove(e.card)
    changes: dict[str, Any] = {"hand": tuple(hand)}
    if e.effect == "free_unit":
        changes["free_units"] = h.free_units + 1
    if e.effect == "blackmail":
        changes["bribe_bonus"] = h.bribe_bonus + 2
    new = _house(state, e.house, **changes)
    return replace(new, discard=(*new.discard, e.card))


def _merc_created(state: SWState, e: m.SWMercenaryCreated) -> SWState:
    unit = Unit(
        id=e.unit,
        formation=e.unit,
        house=e.house,
        owner=e.house,
        value=e.value,
        mercenary=True,
        region=e.region,
    )
    return replace(state, units=put(state.units, e.unit, unit), next_serial=state.next_serial + 1)


def _auction_opened(state: SWState, e: m.SWAuctionOpened) -> SWState:
    return replace(state, auction=Auction(lot=e.lot, kind=e.kind, opener=e.opener))


def _auction_settled(state: SWState, e: m.SWAuctionSettled) -> SWState:
    return replace(state, auction=None)


def _allegiance(state: SWState, e: m.SWAllegianceChanged) -> SWState:
    new = state
    for uid in e.units:
        new = _unit(new, uid, owner=e.owner)
    for sid in e.jumpships:
        new = _ship(new, sid, owner=e.owner)
    for lid in e.leaders:
        new = _leader(new, lid, owner=e.owner)
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
        new = _unit(new, uid, owner=e.house, status=Status.ACTIVE, region=e.region)
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
            new = _move_piece(new, piece, e.path[-1])
    return new


def _controlled(state: SWState, e: m.SWHouseControlled) -> SWState:
    return _house(state, e.house, player=e.player)


def _out(state: SWState, e: m.SWHouseOut) -> SWState:
    return _house(state, e.house, out=True)


def _won(state: SWState, e: m.SWGameWon) -> SWState:
    return replace(state, winner=e.player, phase=Phase.OVER)


def end_of_turn(state: SWState, house: str) -> SWState:
    """Interdicts on ``house`` that last "until the end of the affected player's turn" lapse."""
    kept = tuple(i for i in state.interdicts if not (i.house == house and i.until == "turn"))
    return replace(state, interdicts=kept, earth_bonus_due="")


EVOLVERS: dict[type[Event], Callable[[SWState, Any], SWState]] = {
    m.SWCampaignStarted: _started,
    m.SWPhaseBegan: _phase,
    m.SWCardsDrawn: _drawn,
    m.SWCashChanged: _cash,
    m.SWTechChanged: _tech,
    m.SWTechPending: _tech_pending,
    m.SWPieceBought: _bought,
    m.SWCenterChanged: _center,
    m.SWPiecesPlaced: _placed,
    m.SWJumpShipMoved: _moved,
    m.SWJumpShipScuttled: _scuttled,
    m.SWPiecesCaptured: _captured,
    m.SWRegionCaptured: _region_captured,
    m.SWCombatBegan: _combat_began,
    m.SWCombatRolled: _rolled,
    m.SWLossesTaken: _losses,
    m.SWRetreated: _retreated,
    m.SWCombatRoundEnded: _round_ended,
    m.SWCombatEnded: _combat_ended,
    m.SWCenterDamageRolled: _noted,
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


__all__ = ["EVOLVERS", "PHASES", "HouseState", "Leader", "RegionState", "end_of_turn", "put"]
