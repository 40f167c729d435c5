"""Applying Succession Wars events to the state. Never refuses: an event is a fact in the log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mekref.rules.messages import Event
from mekref.rules.records import built_from
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import load_tables
from mekref.rules.succession_wars.evolve_edit import (
    move_piece,
    put,
    with_house,
    with_leader,
    with_ship,
    with_unit,
)
from mekref.rules.succession_wars.evolve_intrigue import INTRIGUE_EVOLVERS
from mekref.rules.succession_wars.model import (
    CenterState,
    Combat,
    Interdict,
    JumpShip,
    LeaderStatus,
    Phase,
    Status,
    SWState,
    house_counter,
)


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
    new = with_house(state, e.house, hand=h.hand + e.cards)
    return replace(new, deck=e.deck, discard=e.discard)


def _cash(state: SWState, e: m.SWCashChanged) -> SWState:
    return with_house(state, e.house, cash=state.houses[e.house].cash + e.delta)


def _tech(state: SWState, e: m.SWTechChanged) -> SWState:
    return with_house(state, e.house, tech=e.level)


def _tech_pending(state: SWState, e: m.SWTechPending) -> SWState:
    return replace(
        state,
        pending_tech=put(state.pending_tech, e.house, state.pending_tech.get(e.house, 0) + e.delta),
    )


def _bought(state: SWState, e: m.SWPieceBought) -> SWState:
    new = state
    if e.free:
        new = with_house(new, e.house, free_units=new.houses[e.house].free_units - 1)
    if e.item.startswith("jumpship"):
        ship = JumpShip(id=e.piece, owner=e.house, capacity=e.capacity, status=Status.PENDING)
        return replace(
            new, jumpships=put(new.jumpships, e.piece, ship), next_serial=new.next_serial + 1
        )
    if e.new:
        unit = house_counter(e.piece, e.piece, e.house, e.value, kind=e.kind, status=Status.PENDING)
        return replace(new, units=put(new.units, e.piece, unit), next_serial=new.next_serial + 1)
    return with_unit(new, e.piece, status=Status.PENDING, value=e.value, region="", owner=e.house)


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
            new = with_unit(new, p.piece, status=Status.ACTIVE, region=p.region)
        else:
            new = with_ship(new, p.piece, status=Status.ACTIVE, region=p.region)
    return new


def _moved(state: SWState, e: m.SWJumpShipMoved) -> SWState:
    new = state
    aboard = dict(new.aboard)
    rode = dict(new.rode)
    for piece in e.picked_up:
        aboard[piece] = e.jumpship
        rode[piece] = e.jumpship
    end = e.path[-1] if e.path else new.jumpships[e.jumpship].region
    new = with_ship(new, e.jumpship, region=end)
    for piece, ship in aboard.items():
        if ship == e.jumpship:
            new = move_piece(new, piece, end)
    for piece in e.dropped_off:
        aboard.pop(piece, None)
    used = new.jumps_used.get(e.jumpship, 0) + len(e.path)
    return replace(new, aboard=aboard, rode=rode, jumps_used=put(new.jumps_used, e.jumpship, used))


def _scuttled(state: SWState, e: m.SWJumpShipScuttled) -> SWState:
    return with_ship(state, e.jumpship, status=Status.DESTROYED, region="")


def _captured(state: SWState, e: m.SWPiecesCaptured) -> SWState:
    new = state
    for sid in e.jumpships:
        new = with_ship(new, sid, owner=e.captor)
    for sid in e.destroyed_jumpships:
        new = with_ship(new, sid, status=Status.DESTROYED, region="")
    for lid in e.leaders:
        new = with_leader(new, lid, status=LeaderStatus.CAPTURED, region=e.held_at, captor=e.captor)
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
        new = with_leader(new, ld.id, captor=e.house)
    region = new.board().region(e.region)
    if region is not None and region.terra:
        # Whoever holds Terra is under a Housewide Interdict for as long as he holds it.
        kept = tuple(i for i in new.interdicts if i.until != "earth")
        new = replace(new, interdicts=(*kept, Interdict(house=e.house, until="earth")))
        if not new.earth_taken and e.house in new.houses:
            # The first House to hold Earth gets two units free and C-Bills at turn end.
            extra = load_tables().earth["first_units"]
            new = with_house(new, e.house, free_units=new.houses[e.house].free_units + extra)
            new = replace(new, earth_taken=True, earth_bonus_due=e.house)
    return new


def _combat_began(state: SWState, e: m.SWCombatBegan) -> SWState:
    return replace(
        state,
        immediate_combat=tuple(o for o in state.immediate_combat if o[1] != e.region),
        combat=built_from(Combat, e, stage="attack"),
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
        new = with_unit(new, uid, status=Status.DESTROYED, region="")
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
        new = with_ship(new, move.jumpship, region=end)
        for piece in move.carry:
            new = move_piece(new, piece, end)
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
    **INTRIGUE_EVOLVERS,
}


__all__ = ["EVOLVERS", "end_of_turn", "put"]
