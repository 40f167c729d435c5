"""A Succession Wars game in words, House by House (``mekref game report``).

What the table sees: the phase, each House's cash, technology, Regions, units and Leaders,
the combat being fought and who owes losses, the captive Leaders and who holds them. Event
Cards in hand are named only where the state shows them: the referee's report names every
House's hand; a House's report is written from its view (SuccessionWarsViews), where the other
Houses' hands lie face down, so it names its own hand and counts the others'."""

from __future__ import annotations

from collections import Counter

from mekref.rules.kernel import Section
from mekref.rules.succession_wars.data import Card, load_tables
from mekref.rules.succession_wars.model import LeaderStatus, Status, SWState
from mekref.rules.succession_wars.views import FACE_DOWN


def summarize(state: SWState, side: str | None = None) -> tuple[Section, ...]:
    """The game in words; ``side`` is the House whose view ``state`` is (None: the referee's
    whole state)."""
    if state.map is None:
        return (Section("game", ("not started",)),)
    game = [
        f"scenario {state.scenario or '(free set-up)'}, map {state.map.name}",
        f"round {state.round}, phase {state.phase}"
        + (f", {state.active} to act" if state.active else ""),
    ]
    if state.winner:
        game.append(f"won by {state.winner}")
    if state.setup_order:
        game.append(f"set-up order (L601, lowest die first): {', '.join(state.setup_order)}")
    if state.scenario == "2786":
        game.append(f"Mercenary pile: {len(state.mercenary_pile)} counters left")
    if state.auction is not None:
        a = state.auction
        lot = f"the Mercenary unit {a.lot} (from the pile)" if a.kind == "pile" else a.lot
        game.append(f"auction open: {lot} (opened by {a.opener}); SWSettleAuction settles it")
    for choice in state.move_out_choices:
        game.append(
            f"{choice.employer} chooses whether its new Mercenaries at {choice.region} move out "
            f"intact (L387): {', '.join(choice.units)}"
        )
    for side, where in state.immediate_combat:
        game.append(f"{side} may attack the new Mercenaries at {where} at once (L387)")
    regions = Counter(r.controller for r in state.regions.values())
    houses = []
    for name in state.sequence or tuple(sorted(state.houses)):
        house = state.houses[name]
        units = [u for u in state.units.values() if u.owner == name and u.status is Status.ACTIVE]
        leaders = [
            x for x in state.leaders.values() if x.owner == name and x.status is LeaderStatus.FREE
        ]
        out = ", out of the game" if house.out else ""
        houses.append(
            f"{name} ({house.player}): {house.cash} C-Bills, technology {house.tech}, "
            f"{regions.get(name, 0)} Regions, {len(units)} units (value "
            f"{sum(u.value for u in units)}), {len(leaders)} Leaders, "
            f"{len(house.hand)} cards in hand{out}"
        )
    sections = [Section("game", tuple(game)), Section("Houses", tuple(houses))]
    hands = _hands(state, side)
    if hands:
        sections.append(Section("Event Cards in hand", hands))
    if state.combat is not None:
        sections.append(Section("combat", _combat(state)))
    captives = _captives(state)
    if captives:
        sections.append(Section("captive Leaders", captives))
    return tuple(sections)


#: What each combat stage waits for, and the command that gives it.
_STAGE_NEEDS = {
    "attack": "the Attacker's next round (SWAttack) or the end (SWReportBattle)",
    "counterattack": "the Defender's counterattack (SWCounterattack)",
    "retreat_attacker": "the Attacker's choice to retreat or stay (SWRetreat)",
    "retreat_defender": "the Defender's choice to retreat or stay (SWRetreat)",
}


def _combat(state: SWState) -> tuple[str, ...]:
    """The fight in words: who owes how many losses (SWTakeLosses), or what it waits for."""
    c = state.combat
    assert c is not None
    head = f"{c.attacker} attacks {c.defender} in {c.region}, round {c.round} ({c.stage})"
    owed = [f"{house} owes {due}" for house, due in sorted(c.losses_due.items()) if due]
    if c.stage == "losses" and owed:
        head += ": " + ", ".join(owed)
    lines = [head]
    if c.stage == "losses":
        for house, due in sorted(c.losses_due.items()):
            if due:
                lines.append(
                    f"{house} owes {due} unit loss{'es' if due != 1 else ''} in {c.region}: "
                    f"SWTakeLosses names them"
                )
    elif c.stage in _STAGE_NEEDS:
        lines.append(f"waiting for {_STAGE_NEEDS[c.stage]}")
    return tuple(lines)


def _captives(state: SWState) -> tuple[str, ...]:
    """Each captured or bribed Leader, where he is held and who holds him (L315: "held and
    controlled by whomever controls the capital")."""
    out = []
    for ld in sorted(state.leaders.values(), key=lambda x: x.id):
        if ld.status not in (LeaderStatus.CAPTURED, LeaderStatus.BRIBED):
            continue
        holder = state.controller(ld.region) if ld.region in state.regions else ld.captor
        how = "captured" if ld.status is LeaderStatus.CAPTURED else "bribed, in refuge"
        out.append(f"{ld.name} of {ld.house}: {how}, held at {ld.region} by {holder or 'nobody'}")
    return tuple(out)


def _hands(state: SWState, side: str | None) -> tuple[str, ...]:
    """Each House's Event Cards as ``state`` shows them: named when face up, counted when face
    down (another House's hand in a House's view)."""
    cards = load_tables().cards
    out = []
    for name in state.sequence or tuple(sorted(state.houses)):
        hand = state.houses[name].hand
        who = f"{name} (you)" if name == side else name
        if not hand:
            out.append(f"{who}: no cards")
        elif all(number == FACE_DOWN for number in hand):
            out.append(f"{who}: {len(hand)} card{'s' if len(hand) != 1 else ''}, face down")
        else:
            named = [_card_words(cards[n]) if n in cards else f"card {n}" for n in hand]
            out.append(f"{who}: {'; '.join(named)}")
    return tuple(out)


#: What a card does, by its effect (tables.toml, quoting the text's card list).
_EFFECTS = {
    "advance_tech": "Advance Technology by {amount}",
    "new_mercenary": "Create new Mercenary unit",
    "contract_ends": "end a Mercenary unit's contract",
    "free_unit": "build a new unit at no cost",
    "blackmail": "+2 to the next bribe roll",
    "referee": "the referee resolves it when played, SW-11",
}


def _card_words(card: Card) -> str:
    """``card 1 (Advance Technology by 3)``; a named card adds its name."""
    effect = _EFFECTS.get(card.effect, card.effect).format(amount=card.amount)
    name = f"{card.name}: " if card.name else ""
    return f"card {card.number} ({name}{effect})"
