"""The turn sequence: ending a phase does what the rules do between phases.

Fill the hand (Draw -> Spend), refuse to leave Combat while a fight is owed, take Regions held at
the end of the Combat Phase, apply the turn's technology changes (Tech), collect taxes and pass
the turn to the next House still in the game.
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.common import (
    Builder,
    active_houses,
    check_actor,
    check_quiet,
    check_turn,
    tables,
    take_region,
    tech_of,
)
from mekref.rules.succession_wars.model import PHASES, LeaderStatus, Phase, SWState
from mekref.rules.succession_wars.scenario_2786 import SCENARIO, mercenary_phase_done
from mekref.rules.succession_wars.tech import clamp


def draw_cards(b: Builder, house: str) -> None:
    t = tables()
    state = b.state
    need = t.hand_size - len(state.houses[house].hand)
    deck = list(state.deck)
    discard = list(state.discard)
    drawn: list[int] = []
    rolls = []
    while need > 0:
        if not deck:
            if not discard:
                break  # every card is in a hand
            # The draw pile ran out: reshuffle the discard pile (named rolls, Fisher-Yates).
            deck, discard = discard, []
            for i in range(len(deck) - 1, 0, -1):
                roll = b.roll(f"reshuffle the discard pile, position {i + 1}", i + 1)
                rolls.append(roll)
                j = roll.faces[0] - 1
                deck[i], deck[j] = deck[j], deck[i]
        drawn.append(deck.pop(0))
        need -= 1
    if drawn:
        b.add(
            m.SWCardsDrawn(
                house=house,
                cards=tuple(drawn),
                deck=tuple(deck),
                discard=tuple(discard),
                rolls=tuple(rolls),
            )
        )


def contested(state: SWState, house: str) -> list[str]:
    """Regions where ``house`` has combat units beside another player's: combat must occur."""
    return sorted(
        r for r in state.regions if state.combat_units(r, house) and state.enemy_units(r, house)
    )


def taxes(state: SWState, house: str) -> int:
    """Resource Values of held Regions plus the Administration Skill of free Leaders in them."""
    board = state.board()
    total = 0
    for region in board.regions:
        if region.periphery or state.controller(region.name) != house:
            continue  # Periphery Regions yield no tax revenues
        total += region.resource
        total += sum(
            ld.admin
            for ld in state.leaders_in(region.name, house)
            if ld.status is LeaderStatus.FREE
        )
        # Line 335: a bribed Leader's "taxes are reduced by the amount of his Administration
        # Skill" while he is still in a Region of his House (ruling SW-13).
        total -= sum(
            ld.admin
            for ld in state.leaders.values()
            if ld.turncoat and ld.house == house and ld.region == region.name
        )
    return total + tech_of(state, house).tax_bonus


def turncoats_take_refuge(b: Builder) -> None:
    """At the end of any phase, a bribed Leader whose House let him be (or who no longer stands
    beside his House's units and an enemy's) takes refuge in the briber's capital."""
    for ld in sorted(b.state.leaders.values(), key=lambda x: x.id):
        if not ld.turncoat:
            continue
        contested_here = bool(b.state.combat_units(ld.region, ld.house)) and bool(
            b.state.enemy_units(ld.region, ld.house)
        )
        if ld.turncoat == "exposed" or not contested_here:
            b.add(
                m.SWTurncoatMoved(leader=ld.id, exposed=False, region=b.state.capital_of(ld.owner))
            )


def _next_house(state: SWState) -> tuple[str, int]:
    order = active_houses(state)
    if not order:
        return state.active, state.round
    later = [h for h in order if state.sequence.index(h) > state.sequence.index(state.active)]
    if later:
        return later[0], state.round
    return order[0], state.round + 1


def decide_end_phase(state: SWState, cmd: m.SWEndPhase, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    check_turn(state, cmd.house)
    check_quiet(state)
    b = Builder(state, dice)
    house = cmd.house
    phase = state.phase
    turncoats_take_refuge(b)
    if phase is Phase.DRAW:
        draw_cards(b, house)
    if phase is Phase.COMBAT:
        owed = contested(state, house)
        if owed:
            raise Refusal(
                "combat_owed",
                f"combat must occur where enemy forces share a Region: {', '.join(owed)}",
            )
        # Capturing Regions: end the Combat Phase with a combat unit in an enemy Region.
        for region in sorted(state.regions):
            if state.combat_units(region, house) and not state.friendly_region(region, house):
                take_region(b, house, region)
        if b.state.winner:
            return b.events
    if phase is Phase.MERCENARY:
        mercenary_phase_done(state, house)
        if state.round == 1:
            # L603: "The first round of play consists solely of Mercenary purchases. ... Once
            # each player has done this, play begins with full turns."
            nxt, rnd = _next_house(b.state)
            b.add(
                m.SWPhaseBegan(
                    house=nxt, phase=Phase.MERCENARY, round=rnd, turn_no=state.turn_no + 1
                )
            )
        else:
            b.add(
                m.SWPhaseBegan(
                    house=house, phase=Phase.DRAW, round=state.round, turn_no=state.turn_no
                )
            )
        return b.events
    if phase is Phase.TAXES:
        amount = taxes(b.state, house)
        b.add(m.SWCashChanged(house=house, delta=amount, reason="collect taxes"))
        if b.state.earth_bonus_due == house:
            bonus = tables().earth["first_cbills"]
            b.add(m.SWCashChanged(house=house, delta=bonus, reason="first to hold Earth"))
        nxt, rnd = _next_house(b.state)
        # 2786 (L605): "A Mercenary Phase is also added to each player's turn."
        begins = Phase.MERCENARY if state.scenario == SCENARIO else Phase.DRAW
        b.add(m.SWPhaseBegan(house=nxt, phase=begins, round=rnd, turn_no=state.turn_no + 1))
        return b.events
    following = PHASES[PHASES.index(phase) + 1]
    b.add(m.SWPhaseBegan(house=house, phase=following, round=state.round, turn_no=state.turn_no))
    if following is Phase.TECH:
        # Adjust the Technology Scale: every change the turn caused, for every House.
        for who, delta in sorted(b.state.pending_tech.items()):
            if delta:
                level = clamp(tables(), b.state.houses[who].tech + delta)
                b.add(m.SWTechChanged(house=who, delta=delta, reason="turn's events", level=level))
    return b.events
