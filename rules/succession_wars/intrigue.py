"""Money and favours: bribes, ComStar Interdicts, auctions (Periphery states, Mercenary
contracts), Event Cards, captured Leaders (killing, ransom) and payments between Houses.
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.auctions import offer_immediate_combat
from mekref.rules.succession_wars.common import (
    BANK,
    Builder,
    after_change,
    check_actor,
    check_quiet,
    check_turn,
    leader_of,
    pay,
    region_of,
    tables,
)
from mekref.rules.succession_wars.data import load_oob_2786
from mekref.rules.succession_wars.model import (
    REFEREE,
    LeaderStatus,
    Phase,
    Status,
    SWState,
)
from mekref.rules.succession_wars.scenario_2786 import SCENARIO, draw
from mekref.rules.succession_wars.start import slug
from mekref.rules.succession_wars.tech import clamp

# --- Leaders -------------------------------------------------------------------------------------


def decide_bribe(state: SWState, cmd: m.SWBribe, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    if state.combat is not None and state.combat.stage not in ("attack",):
        raise Refusal("combat_in_progress", "bribe between the steps of a combat round")
    t = tables()
    ld = leader_of(state, cmd.leader)
    if ld.loyalty is None:
        raise Refusal("cannot_bribe", f"{ld.name} cannot be bribed")
    if ld.status is not LeaderStatus.FREE or ld.owner == cmd.house:
        raise Refusal("cannot_bribe", f"{ld.name} is not a free Leader of another House")
    h = state.houses[cmd.house]
    b = Builder(state, dice)
    if cmd.free:
        if h.free_bribes < 1:
            raise Refusal("no_free_bribe", f"{cmd.house} has no free bribe attempts left")
    else:
        cash = h.cash
        if cash < t.bribe_price:
            raise Refusal(
                "not_enough_money", f"a bribe costs {t.bribe_price}; {cmd.house} has {cash}"
            )
    roll = b.roll(f"bribe {ld.name} (loyalty {ld.loyalty}) for {cmd.house}")
    bonus = h.bribe_bonus
    success = roll.faces[0] + bonus > ld.loyalty
    if cmd.free:
        pass  # Liao's free attempts cost nothing either way
    elif success:
        pay(b, cmd.house, t.bribe_price, BANK, f"bribe {ld.name}")
    else:
        # A failed bribe's money goes to the Leader's player.
        pay(b, cmd.house, t.bribe_price, ld.owner, f"failed bribe of {ld.name}")
    # Ruling SW-13: a House Leader bribed beside his House's combat units and an enemy's stays
    # for the first round of combat there; otherwise he takes refuge in the briber's capital.
    turncoat = (
        success
        and not ld.mercenary
        and bool(state.combat_units(ld.region, ld.owner))
        and bool(state.enemy_units(ld.region, ld.owner))
    )
    switched: tuple[str, ...] = ()
    if success and ld.mercenary:
        # A bribed Mercenary Leader takes his whole force with him.
        switched = tuple(
            sorted(
                u.id
                for u in state.units.values()
                if u.formation == ld.formation and u.owner == ld.owner
            )
        )
    b.add(
        m.SWBribeRolled(
            house=cmd.house,
            leader=ld.id,
            bonus=bonus,
            success=success,
            held_at=ld.region if turncoat else state.capital_of(cmd.house),
            switched_units=switched,
            free=cmd.free,
            turncoat=turncoat,
            rolls=(roll,),
        )
    )
    if switched:
        # Line 341: "if the force is in the same Region with formerly friendly but now enemy
        # forces, it must be attacked."
        offer_immediate_combat(b, cmd.house, switched)
    after_change(b)
    return b.events


def decide_kill(state: SWState, cmd: m.SWKillLeader, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    ld = leader_of(state, cmd.leader)
    if ld.turncoat == "exposed":
        # Line 339: "If loyal units remain in the same Region as a bribed Leader after the first
        # round of combat, they have the option of killing him." Between rounds too.
        if ld.house != cmd.house or not state.combat_units(ld.region, cmd.house):
            raise Refusal("not_loyal", f"only {ld.house}'s units beside {ld.name} may kill him")
        if state.combat is not None and state.combat.stage != "attack":
            raise Refusal("combat_in_progress", "between the rounds of combat")
        b = Builder(state, dice)
        b.add(m.SWLeaderKilled(leader=ld.id, by=cmd.house))
        after_change(b)
        return b.events
    check_quiet(state)
    if ld.status is not LeaderStatus.CAPTURED:
        raise Refusal("not_captured", f"{ld.name} is not a captured Leader")
    holder = state.controller(ld.region)
    if holder != cmd.house:
        raise Refusal(
            "not_holder",
            f"{ld.name} is held by whoever controls {ld.region}: {holder}, not {cmd.house}",
        )
    b = Builder(state, dice)
    b.add(m.SWLeaderKilled(leader=ld.id, by=cmd.house))
    after_change(b)
    return b.events


def decide_ransom(state: SWState, cmd: m.SWRansomLeader, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    check_quiet(state)
    t = tables()
    ld = leader_of(state, cmd.leader)
    if ld.status is not LeaderStatus.CAPTURED or ld.house != cmd.house:
        raise Refusal("not_captured", f"{ld.name} is not a captured Leader of {cmd.house}")
    cap = t.prices["manufacturing_center"].price
    if cmd.price < 0 or cmd.price > cap:
        raise Refusal(
            "ransom_too_high",
            "a ransom may not be more than the most expensive item, a Manufacturing "
            f"Center ({cap})",
        )
    home = state.capital_of(cmd.house)
    if state.controller(home) != cmd.house:
        raise Refusal("no_capital", f"{cmd.house} does not hold {home} to take {ld.name} home")
    holder = state.controller(ld.region)
    b = Builder(state, dice)
    pay(b, cmd.house, cmd.price, holder, f"ransom for {ld.name}")
    b.add(m.SWLeaderReleased(leader=ld.id, region=home))
    return b.events


# --- ComStar -------------------------------------------------------------------------------------


def decide_interdict(state: SWState, cmd: m.SWBuyInterdict, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    check_quiet(state)
    region_of(state, cmd.region)
    if cmd.target not in state.houses or cmd.target == cmd.house:
        raise Refusal("bad_target", "name another House to interdict")
    if cmd.fallback_region:
        raise Refusal(
            "not_the_bribers_choice",
            f'L367: "the player in that Region can choose which region will be affected": '
            f"leave fallback_region out; if it comes to that, {cmd.target} chooses with "
            "SWChooseInterdictRegion",
        )
    t = tables()
    b = Builder(state, dice)
    pay(b, cmd.house, t.interdict_price, BANK, "ComStar Interdict")
    roll = b.roll(f"ComStar Interdiction Table for {cmd.house} at {cmd.region}")
    result = t.interdiction[roll.faces[0]]
    hit: list[tuple[str, str]] = []
    if result in ("specified", "both"):
        hit.append((cmd.target, cmd.region))
    owed = False
    if result == "both" and state.combat_units(cmd.region, cmd.house):
        hit.append((cmd.house, cmd.region))  # "both forces in the specified region"
    if result == "briber":
        if state.combat_units(cmd.region, cmd.house):
            hit.append((cmd.house, cmd.region))
        elif any(state.combat_units(r, cmd.house) for r in state.regions):
            # L367: "the player in that Region can choose which region will be affected."
            owed = True
    if owed:
        b.add(
            m.SWInterdictChoiceOwed(
                chooser=cmd.target, briber=cmd.house, region=cmd.region, rolls=(roll,)
            )
        )
        return b.events
    first = True
    for house, region in hit:
        b.add(
            m.SWInterdicted(
                house=house,
                region=region,
                until="turn",
                reason=f"ComStar Interdiction Table: {result}",
                rolls=(roll,) if first else (),
            )
        )
        first = False
    if first:
        b.add(
            m.SWCashChanged(
                house=cmd.house, delta=0, reason="interdict fell on no one", rolls=(roll,)
            )
        )
    return b.events


def decide_choose_interdict(
    state: SWState, cmd: m.SWChooseInterdictRegion, dice: Dice
) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    if (cmd.house, cmd.briber) not in state.interdict_choices:
        raise Refusal(
            "no_choice_owed", f"{cmd.house} has no Interdict Region to choose for {cmd.briber}"
        )
    region_of(state, cmd.region)
    if not state.combat_units(cmd.region, cmd.briber):
        raise Refusal(
            "bad_choice", f"{cmd.briber} has no forces in {cmd.region} to interdict (L367)"
        )
    return [
        m.SWInterdictRegionChosen(chooser=cmd.house, briber=cmd.briber, region=cmd.region),
        m.SWInterdicted(
            house=cmd.briber,
            region=cmd.region,
            until="turn",
            reason=f"ComStar Interdiction Table: briber, Region chosen by {cmd.house}",
        ),
    ]


# --- Event Cards and payments --------------------------------------------------------------------


def decide_play_card(state: SWState, cmd: m.SWPlayCard, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    if state.auction is not None:
        raise Refusal("auction_open", f"settle the auction for {state.auction.lot} first")
    t = tables()
    h = state.houses[cmd.house]
    if cmd.card not in h.hand:
        raise Refusal("not_in_hand", f"{cmd.house} does not hold card {cmd.card}")
    card = t.cards[cmd.card]
    if card.timing == "spend":
        check_turn(state, cmd.house, Phase.SPEND)
    b = Builder(state, dice)
    if card.effect == "new_mercenary":
        region = state.board().region(cmd.region)
        if region is None or not region.capital or state.controller(cmd.region) != cmd.house:
            raise Refusal(
                "bad_region",
                "new Mercenary units are formed in a Regional or House capital you hold",
            )
    pile_draw = (
        card.effect == "contract_ends"
        and state.scenario == SCENARIO
        and not cmd.target
        and cmd.card in load_oob_2786().mercenary_cards
    )
    if pile_draw and not state.mercenary_pile:
        raise Refusal("pile_empty", "the Mercenary pile is empty: name a Mercenary unit (target)")
    if card.effect == "contract_ends" and not pile_draw:
        units = [
            u
            for u in state.units.values()
            if u.mercenary and u.formation == cmd.target and u.status is not Status.RESERVE
        ]
        if not units:
            raise Refusal("not_mercenary", f"{cmd.target!r} is not a Mercenary unit in the game")
    if card.effect == "referee" and cmd.actor != REFEREE and not cmd.note:
        raise Refusal(
            "note_needed", "say what the card did (its effect is resolved by the referee)"
        )
    b.add(m.SWCardPlayed(house=cmd.house, card=cmd.card, effect=card.effect, note=cmd.note))
    if card.effect == "advance_tech":
        level = clamp(t, h.tech + card.amount)
        b.add(
            m.SWTechChanged(
                house=cmd.house, delta=card.amount, reason=f"card {card.number}", level=level
            )
        )
    elif card.effect == "new_mercenary":
        uid = slug(cmd.house, "mercenary", str(state.next_serial))
        b.add(
            m.SWMercenaryCreated(
                house=cmd.house, unit=uid, region=cmd.region, value=t.rebuilt_value
            )
        )
    elif pile_draw:
        # L633: "Event Cards 7, 8, 9, 10, and 11 can be used to draw a neutral Mercenary unit
        # and place it up for bid at any time."
        draw(b, cmd.house, card=cmd.card)
    elif card.effect == "contract_ends":
        b.add(m.SWAuctionOpened(lot=cmd.target, kind="mercenary", opener=cmd.house))
    return b.events


def decide_give_card(state: SWState, cmd: m.SWGiveCard, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    t = tables()
    if cmd.to not in state.houses or cmd.to == cmd.house:
        raise Refusal("bad_target", "give the card to another House")
    if cmd.card not in state.houses[cmd.house].hand:
        raise Refusal("not_in_hand", f"{cmd.house} does not hold card {cmd.card}")
    if len(state.houses[cmd.to].hand) >= t.hand_size:
        raise Refusal("hand_full", f"{cmd.to} already holds {t.hand_size} cards")
    b = Builder(state, dice)
    if cmd.price:
        pay(b, cmd.to, cmd.price, cmd.house, f"bought card {cmd.card}")
    b.add(m.SWCardGiven(house=cmd.house, to=cmd.to, card=cmd.card))
    return b.events


def decide_pay(state: SWState, cmd: m.SWPay, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    if cmd.to not in state.houses or cmd.to == cmd.house or cmd.amount <= 0:
        raise Refusal("bad_payment", "pay a positive sum to another House")
    b = Builder(state, dice)
    pay(b, cmd.house, cmd.amount, cmd.to, cmd.reason or "payment")
    return b.events
