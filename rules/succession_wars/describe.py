"""Each Succession Wars event in words, for the players at the table (``mekref game do``).

An event this module does not know yet is shown by the kernel's field-by-field fallback, so a
new event is never hidden, only less readable until it is added here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mekref.rules.kernel import describe_fields
from mekref.rules.messages import Event
from mekref.rules.succession_wars.messages import events as e


def _names(items: tuple[str, ...] | list[str]) -> str:
    return ", ".join(items) if items else "none"


def _cash(x: e.SWCashChanged) -> str:
    verb = "gains" if x.delta >= 0 else "pays"
    return f"{x.house} {verb} {abs(x.delta)} million C-Bills ({x.reason})"


def _tech(x: e.SWTechChanged) -> str:
    return f"{x.house} Technology {x.delta:+d} ({x.reason}): now level {x.level}"


def _bought(x: e.SWPieceBought) -> str:
    what = f"JumpShip {x.piece} (capacity {x.capacity})" if x.capacity else x.piece
    value = f", combat value {x.value}" if x.value else ""
    free = " at no cost (owed)" if x.free else ""
    return f"{x.house} buys {x.item}: {what}{value}{free}"


def _jump(x: e.SWJumpShipMoved) -> str:
    parts = [f"{x.house} JumpShip {x.jumpship} jumps {' -> '.join(x.path)}"]
    if x.picked_up:
        parts.append(f"picking up {_names(x.picked_up)}")
    if x.dropped_off:
        parts.append(f"dropping off {_names(x.dropped_off)}")
    return ", ".join(parts)


def _captured(x: e.SWPiecesCaptured) -> str:
    parts = []
    if x.leaders:
        held = f" (held at {x.held_at})" if x.held_at else ""
        parts.append(f"Leaders {_names(x.leaders)}{held}")
    if x.jumpships:
        parts.append(f"JumpShips {_names(x.jumpships)}")
    if not parts and x.destroyed_jumpships:
        return (
            f"the force at {x.region} is destroyed: its JumpShips are eliminated with it "
            f"({_names(x.destroyed_jumpships)})"
        )
    text = f"{x.captor} captures at {x.region}: {'; '.join(parts) or 'nothing'}"
    if x.destroyed_jumpships:
        text += f"; JumpShips eliminated: {_names(x.destroyed_jumpships)}"
    return text


def _combat_began(x: e.SWCombatBegan) -> str:
    center = f", center damage modifier {x.center_modifier:+d}" if x.center_modifier else ""
    return (
        f"combat at {x.region}: {x.attacker} attacks {x.defender} "
        f"(original attacking strength {x.original_strength}{center})"
    )


def _rolled(x: e.SWCombatRolled) -> str:
    shots = []
    for g in x.results:
        roll = "automatic" if g.auto else f"d10 {g.face}"
        shots.append(f"{'+'.join(g.units)} value {g.value}, {roll}: {'hit' if g.hit else 'miss'}")
    boosts = f", {x.boosts} tech boosts" if x.boosts else ""
    return (
        f"combat round {x.round} at {x.region}: {x.house} ({x.side}) scores {x.hits} hits"
        f"{boosts} [{'; '.join(shots)}]"
    )


def _retreated(x: e.SWRetreated) -> str:
    moves = [f"{m.jumpship} with {_names(m.carry)} to {' -> '.join(m.path)}" for m in x.moves]
    return f"{x.house} retreats from {x.region}: {'; '.join(moves) or 'nothing'}"


def _center_damage(x: e.SWCenterDamageRolled) -> str:
    result = "damaged" if x.damaged else "not damaged"
    return f"Manufacturing Center at {x.region}: die {x.face}, modifier {x.modifier:+d}: {result}"


def _interdicted(x: e.SWInterdicted) -> str:
    where = f"Region {x.region}" if x.region else "the whole House"
    return f"ComStar interdicts {x.house} ({where}) until {x.until}: {x.reason}"


def _bribe(x: e.SWBribeRolled) -> str:
    result = "succeeds" if x.success else "fails"
    free = " (a free attempt)" if x.free else ""
    text = f"{x.house} bribes {x.leader}{free}, bonus {x.bonus:+d}: {result}"
    if x.success and x.turncoat:
        text += f"; he turns coat at {x.held_at}"
    elif x.success and x.held_at:
        text += f"; he goes to {x.held_at}"
    if x.switched_units:
        text += f"; units changing sides: {_names(x.switched_units)}"
    return text


def _auction(x: e.SWAuctionSettled) -> str:
    bids = ", ".join(f"{b.house} {b.amount or 'passes'}" for b in x.bids)
    won = f"{x.winner} wins for {x.price}" if x.winner else "everyone passed"
    return f"auction of {_lot(x.kind, x.lot)}: {won} (bids: {bids or 'none'})"


def _lot(kind: str, lot: str) -> str:
    # "pile": a 2786 Mercenary unit drawn from the pile (L605).
    return f"the Mercenary unit {lot} (from the pile)" if kind == "pile" else f"{kind} {lot}"


def _allegiance(x: e.SWAllegianceChanged) -> str:
    groups = [
        (label, items)
        for label, items in (
            ("units", x.units),
            ("JumpShips", x.jumpships),
            ("Leaders", x.leaders),
            ("Regions", x.regions),
        )
        if items
    ]
    moved = "; ".join(f"{label} {_names(items)}" for label, items in groups)
    return f"now serving {x.owner}: {moved or 'nothing'}"


def _started(x: e.SWCampaignStarted) -> str:
    text = (
        f"game set up ({x.scenario}) on map {x.map.name}: {len(x.map.regions)} Regions, "
        f"{len(x.units)} units, {len(x.leaders)} Leaders, {len(x.jumpships)} JumpShips; "
        f"order of play {', '.join(x.sequence)}"
    )
    if x.setup_order:
        text += f"; set-up order (lowest die first) {', '.join(x.setup_order)}"
    if x.mercenary_pile:
        text += f"; {len(x.mercenary_pile)} Mercenary counters in the pile"
    return text


def _drawn_mercenary(x: e.SWMercenaryDrawn) -> str:
    how = f"plays Event Card {x.card} and draws" if x.card else "draws"
    return (
        f"{x.house} {how} {x.counter} from the Mercenary pile: {x.formation} "
        f"({len(x.units)} counter{'s' if len(x.units) != 1 else ''}: {_names(x.units)}) goes "
        f"up for auction; {len(x.pile)} counters left in the pile"
    )


def _moved_out(x: e.SWMercenaryMovedOut) -> str:
    if not x.path:
        return (
            f"{x.house} keeps its new Mercenaries at {x.region} ({_names(x.units)}): "
            "combat must occur"
        )
    leaders = f" with {_names(x.leaders)}" if x.leaders else ""
    return (
        f"{x.house} moves its new Mercenaries out of {x.region} intact, without combat: "
        f"{_names(x.units)}{leaders} to {' -> '.join(x.path)}"
    )


_WORDS: dict[type[Event], Callable[[Any], str]] = {
    e.SWCampaignStarted: _started,
    e.SWPhaseBegan: lambda x: (
        f"round {x.round}, turn {x.turn_no}: {x.house} begins the {x.phase.value} phase"
    ),
    e.SWCardsDrawn: lambda x: (
        f"{x.house} draws {len(x.cards)} Event Cards ({', '.join(map(str, x.cards))})"
    ),
    e.SWCashChanged: _cash,
    e.SWTechChanged: _tech,
    e.SWTechPending: lambda x: f"{x.house} Technology {x.delta:+d} due ({x.reason})",
    e.SWPieceBought: _bought,
    e.SWCenterChanged: lambda x: (
        f"Manufacturing Center at {x.region} is now {x.center.value} ({x.reason})"
    ),
    e.SWPiecesPlaced: lambda x: (
        f"{x.house} places " + ", ".join(f"{p.piece} at {p.region}" for p in x.placements)
    ),
    e.SWJumpShipMoved: _jump,
    e.SWJumpShipScuttled: lambda x: f"{x.house} scuttles JumpShip {x.jumpship}",
    e.SWPiecesCaptured: _captured,
    e.SWRegionCaptured: lambda x: f"{x.house} takes {x.region} from {x.previous}",
    e.SWCombatBegan: _combat_began,
    e.SWCombatRolled: _rolled,
    e.SWLossesTaken: lambda x: f"{x.house} loses at {x.region}: {_names(x.units)}",
    e.SWRetreated: _retreated,
    e.SWCombatRoundEnded: lambda x: f"combat round {x.round} at {x.region} ends",
    e.SWCombatEnded: lambda x: (
        f"combat at {x.region} ends: "
        + (f"{x.winner} holds the field" if x.winner else "both sides wiped out")
    ),
    e.SWCenterDamageRolled: _center_damage,
    e.SWInterdicted: _interdicted,
    e.SWInterdictChoiceOwed: lambda x: (
        f"ComStar interdiction bought by {x.briber}: {x.chooser} must choose the "
        f"affected Region (the briber has no forces at {x.region})"
    ),
    e.SWInterdictRegionChosen: lambda x: (
        f"{x.chooser} chooses {x.region} for {x.briber}'s interdiction"
    ),
    e.SWLeaderKilled: lambda x: f"Leader {x.leader} is killed by {x.by}",
    e.SWBribeRolled: _bribe,
    e.SWLeaderReleased: lambda x: f"Leader {x.leader} is released at {x.region}",
    e.SWCardGiven: lambda x: f"{x.house} gives Event Card {x.card} to {x.to}",
    e.SWCardPlayed: lambda x: (
        f"{x.house} plays Event Card {x.card}: {x.effect}" + (f" ({x.note})" if x.note else "")
    ),
    e.SWMercenaryCreated: lambda x: (
        f"{x.house} raises Mercenary {x.unit} (value {x.value}) at {x.region}"
    ),
    e.SWAuctionOpened: lambda x: f"{x.opener} opens an auction of {_lot(x.kind, x.lot)}",
    e.SWAuctionSettled: _auction,
    e.SWAllegianceChanged: _allegiance,
    e.SWTurncoatMoved: lambda x: (
        f"turncoat {x.leader} "
        + ("stays exposed" if x.exposed else "takes refuge")
        + f" at {x.region}"
    ),
    e.SWImmediateCombatOffered: lambda x: (
        f"{_names(x.houses)} may attack the Mercenaries now serving {x.mercenary} "
        f"at {x.region} at once"
    ),
    e.SWMercenaryDrawn: _drawn_mercenary,
    e.SWMercenaryHired: lambda x: (
        f"{x.formation} now serves {x.house}, formed at {x.region}: {_names(x.units)}"
    ),
    e.SWMercenaryUnsold: lambda x: (
        f"nobody hires {x.formation}: its counters go to the bottom of the Mercenary pile "
        f"({len(x.pile)} counters in it)"
    ),
    e.SWMoveOutOffered: lambda x: (
        f"{x.employer}'s new Mercenaries at {x.region} ({_names(x.units)}) stand beside "
        f"opposing units: {x.employer} may move them out intact (SWMoveMercenaryOut) or stay"
    ),
    e.SWMercenaryMovedOut: _moved_out,
    e.SWHouseControlled: lambda x: (
        f"{x.player} now controls House {x.house} (from {x.previous or 'no one'})"
    ),
    e.SWHouseOut: lambda x: f"House {x.house} is out of the game",
    e.SWGameWon: lambda x: f"{x.player} wins, holding {_names(x.capitals)}",
}


def describe(event: Event) -> str:
    words = _WORDS.get(type(event))
    return words(event) if words is not None else describe_fields(event)
