"""Helpers every Succession Wars decision uses: who may act, phase checks, values, captures.

Decisions build their events one at a time and fold each into a scratch state
(:class:`Builder`), so a later step of the same decision (a capture after a retreat, a victory
after a capture) sees the board as it will be.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mekref.rules.dice import Dice, Roll
from mekref.rules.kernel import evolve_with
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal, known
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import Tables, load_tables
from mekref.rules.succession_wars.evolve import EVOLVERS
from mekref.rules.succession_wars.model import (
    REFEREE,
    CenterState,
    Kind,
    Leader,
    LeaderStatus,
    Phase,
    Status,
    SWState,
    Unit,
)
from mekref.rules.succession_wars.tech import TechEffects, effects


@dataclass
class Builder:
    """Events of one decision, with the state as it stands after each of them."""

    state: SWState
    dice: Dice
    events: list[Event] = field(default_factory=list)

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve_with(EVOLVERS, self.state, event)

    def roll(self, name: str, sides: int = 10) -> Roll:
        roll, self.dice = self.roll_from(name, sides)
        return roll

    def roll_from(self, name: str, sides: int) -> tuple[Roll, Dice]:
        return self.dice.roll(name, 1, sides)


def tables() -> Tables:
    return load_tables()


def check_actor(state: SWState, actor: str, house: str) -> None:
    if house not in state.houses:
        # The names are the Order of Battle's, spelled as it does: the refusal lists them.
        raise Refusal(
            "unknown_house",
            f"there is no House {house!r} in this game: one of {', '.join(state.houses)}",
        )
    if actor not in (house, REFEREE):
        raise Refusal("not_your_house", f"{actor!r} cannot give orders for House {house}")


def check_side_actor(state: SWState, actor: str, side: str) -> None:
    """A House acts for itself; neutrals (ComStar, unbought Periphery) through the referee."""
    if side in state.houses:
        check_actor(state, actor, side)
    elif actor != REFEREE:
        raise Refusal("not_your_house", f"only the referee plays the neutral {side}")


def check_turn(state: SWState, house: str, *phases: Phase) -> None:
    if state.active != house:
        raise Refusal("not_your_turn", f"it is House {state.active}'s turn, not {house}'s")
    if phases and state.phase not in phases:
        wanted = " or ".join(p.value for p in phases)
        raise Refusal(
            "wrong_phase", f"that is done in the {wanted} phase; this is the {state.phase.value}"
        )


def check_quiet(state: SWState) -> None:
    if state.combat is not None:
        raise Refusal("combat_in_progress", f"finish the combat in {state.combat.region} first")
    if state.auction is not None:
        raise Refusal("auction_open", f"settle the auction for {state.auction.lot} first")
    if state.move_out_choices:
        choice = state.move_out_choices[0]
        raise Refusal(
            "move_out_choice_owed",
            f"{choice.employer} first chooses whether its new Mercenary unit in {choice.region} "
            "moves out intact (L387: SWMoveMercenaryOut, no path to stay)",
        )
    if state.interdict_choices:
        chooser, briber = state.interdict_choices[0]
        raise Refusal(
            "interdict_choice_owed",
            f"{chooser} first chooses the Region where {briber}'s forces are interdicted "
            "(SWChooseInterdictRegion)",
        )


def region_of(state: SWState, name: str) -> None:
    if name not in state.regions:
        raise Refusal("unknown_region", f"there is no Region {name!r} on this map")


def unit_of(state: SWState, uid: str) -> Unit:
    return known(state.units, uid, "unknown_unit", "there is no unit {!r}")


def leader_of(state: SWState, lid: str) -> Leader:
    return known(state.leaders, lid, "unknown_leader", "there is no Leader {!r}")


def tech_of(state: SWState, house: str) -> TechEffects:
    h = state.houses.get(house)
    return effects(tables(), h.tech if h else 0)


def interdicted(state: SWState, house: str, region: str) -> bool:
    return any(i.house == house and i.region in ("", region) for i in state.interdicts)


def unit_value(state: SWState, unit: Unit, region: str) -> int:
    """A counter's combat value with tech level and interdiction; the -2 is never doubled."""
    value = unit.value
    if unit.owner in state.houses:
        fx = tech_of(state, unit.owner)
        value += fx.all_units
        if unit.kind is Kind.MECH:
            value += fx.mech_units
    if interdicted(state, unit.owner, region):
        value += tables().interdict_modifier
    return value


def capital_for_prisoners(state: SWState, captor: str) -> str:
    """Captured Leaders go to the captor's House capital (a neutral keeps them where it is)."""
    return state.capital_of(captor) if captor in state.houses else ""


def house_leaders(state: SWState, house: str) -> list[Leader]:
    return [ld for ld in state.leaders.values() if ld.house == house and not ld.mercenary]


def capitals_held(state: SWState, player: str) -> tuple[str, ...]:
    board = state.board()
    return tuple(
        r.name
        for r in board.regions
        if r.capital == "house" and state.player_of(state.controller(r.name)) == player
    )


def leader_player(state: SWState, ld: Leader) -> str:
    """The player who controls a Leader: his owner's, or, captured, whoever holds the capital he
    is held in (line 315: "held and controlled by whomever controls the capital"); "" when
    killed or held by a neutral."""
    if ld.status is LeaderStatus.KILLED:
        return ""
    if ld.status is LeaderStatus.CAPTURED:
        holder = state.controller(ld.region) if ld.region in state.regions else ""
        return state.player_of(holder)
    return state.player_of(ld.owner)


def after_change(b: Builder) -> None:
    """Check Houses changing hands or knocked out, and a winner, after anything that moves
    Leaders or Regions."""
    state = b.state
    for house, h in state.houses.items():
        if h.out:
            continue
        # Line 339: "When a player controls all the Leaders of another House, he controls that
        # House." Ruling SW-33: the living ones, all controlled by one player.
        living = [ld for ld in house_leaders(state, house) if ld.status is not LeaderStatus.KILLED]
        controllers = {leader_player(state, ld) for ld in living}
        if living and len(controllers) == 1 and "" not in controllers:
            (player,) = controllers
            if player != h.player:
                b.add(m.SWHouseControlled(house=house, player=player, previous=h.player))
            continue
        leaders = house_leaders(state, house)
        if leaders and all(
            ld.status is not LeaderStatus.FREE or ld.owner != house for ld in leaders
        ):
            b.add(m.SWHouseOut(house=house))
    if b.state.winner:
        return
    players = sorted({h.player for h in b.state.houses.values()})
    for player in players:
        held = capitals_held(b.state, player)
        if len(held) >= 4:
            b.add(m.SWGameWon(player=player, capitals=held))
            return


def capture_alone(b: Builder, region: str) -> None:
    """Leaders and JumpShips left without combat units beside enemy combat units are captured."""
    state = b.state
    owners = sorted(state.owners_in(region))
    if not owners or any(not state.allied(o, owners[0]) for o in owners):
        return
    # One player's combat units remain. With two of his Houses there, the House whose turn it
    # is takes the prisoners, else the first by name (ruling SW-35).
    captor = state.active if state.active in owners else owners[0]
    ships = tuple(sorted(s.id for s in state.ships_in(region) if not state.allied(s.owner, captor)))
    leaders = tuple(
        sorted(ld.id for ld in state.leaders_in(region) if not state.allied(ld.owner, captor))
    )
    if ships or leaders:
        b.add(
            m.SWPiecesCaptured(
                captor=captor,
                region=region,
                jumpships=ships,
                leaders=leaders,
                held_at=capital_for_prisoners(state, captor) or region,
            )
        )
        after_change(b)


def take_region(b: Builder, house: str, region: str) -> None:
    """``house`` takes ``region``: control, tech changes (applied in the Tech phase), Earth."""
    state = b.state
    previous = state.controller(region)
    if previous == house:
        return
    t = tables()
    board = state.board()
    info = board.region(region)
    assert info is not None
    rs = state.regions[region]
    b.add(
        m.SWRegionCaptured(
            house=house, region=region, previous=previous, blocked_turn=state.turn_no
        )
    )
    # L315 "held and controlled by whomever controls the capital": a House that takes back the
    # capital its own Leaders are held in frees them there (ruling SW-43).
    for ld in sorted(state.leaders_in_custody(region), key=lambda x: x.id):
        if ld.owner == house:
            b.add(m.SWLeaderReleased(leader=ld.id, region=region))
    changes: list[tuple[str, int, str]] = []
    if info.capital == "house":
        changes.append((previous, t.tech_events["lose_house_capital"], f"lost {region}"))
    # Ruling SW-10: a capital and a center count separately, so a Regional capital with a
    # Manufacturing Center costs "-2" twice.
    if info.capital == "regional":
        changes.append(
            (previous, t.tech_events["lose_regional_capital_or_center"], f"lost {region}")
        )
    if rs.center is not CenterState.NONE:
        changes.append(
            (
                previous,
                t.tech_events["lose_regional_capital_or_center"],
                f"lost the Manufacturing Center at {region}",
            )
        )
    if info.capital:
        changes.append((house, t.tech_events["take_regional_capital"], f"took {region}"))
    if rs.center is CenterState.INTACT:
        changes.append((house, t.tech_events["capture_undamaged_center"], f"center at {region}"))
    if info.terra:
        changes.append((house, t.earth["first_tech"], "took Earth"))
        changes.append((previous, t.earth["loss_tech"], "lost Earth"))
    for who, delta, reason in changes:
        if who in state.houses and delta:
            b.add(m.SWTechPending(house=who, delta=delta, reason=reason))
    if info.periphery:
        # Whoever captures a Periphery state's Region gains control of its forces (ruling SW-32).
        forces = tuple(
            sorted(
                u.id
                for u in b.state.units.values()
                if u.house == info.house and u.status is Status.ACTIVE and u.owner != house
            )
        )
        if forces:
            b.add(m.SWAllegianceChanged(owner=house, units=forces))
    after_change(b)


def active_houses(state: SWState) -> list[str]:
    return [h for h in state.sequence if not state.houses[h].out]


#: Who is paid when a House pays no other House (a bribe, an auction).
BANK = "bank"


def pay(b: Builder, house: str, amount: int, to: str, reason: str) -> None:
    """``house`` pays ``amount`` to ``to`` (another House, or the bank); refused past its cash."""
    cash = b.state.houses[house].cash
    if amount > cash:
        raise Refusal("not_enough_money", f"{reason}: {amount} million C-Bills; {house} has {cash}")
    if amount <= 0:
        return
    b.add(m.SWCashChanged(house=house, delta=-amount, reason=reason))
    if to in b.state.houses:
        b.add(m.SWCashChanged(house=to, delta=amount, reason=reason))


def field_names(state: SWState) -> dict[str, tuple[str, ...]]:
    """The names this game's commands take, by field (the ``field_names`` hook): the Houses
    :func:`check_actor` and the payments check, the Regions :func:`region_of` checks, the
    Leaders, counters and JumpShips by id, and the Periphery states an auction sells.
    ``actor``: a House, or the referee (:func:`check_actor`)."""
    houses = tuple(state.houses)
    regions = tuple(state.regions)
    units = tuple(state.units)
    carried = (*units, *state.leaders)  # what a JumpShip carries: counters and Leaders
    periphery = tuple(r.name for r in state.map.regions if r.periphery) if state.map else ()
    return {
        "actor": (*houses, REFEREE),
        "house": houses,
        "against": houses,
        "briber": houses,
        "to": houses,
        "region": regions,
        "fallback_region": regions,
        "path": regions,
        "leader": tuple(state.leaders),
        "unit": units,
        "units": units,
        "destroyed": units,
        "boosted": units,
        "leader_group": units,
        "group": units,
        "pick_up": carried,
        "drop_off": carried,
        "carry": carried,
        "jumpship": tuple(state.jumpships),
        "piece": (*carried, *state.jumpships),
        "lot": periphery,
    }
