"""A Succession Wars game in words, House by House (``mekref game report``).

What the table sees: the phase, each House's cash, technology, Regions, units and Leaders,
the combat being fought. A House's Event Cards are counted, never named."""

from __future__ import annotations

from collections import Counter

from mekref.rules.kernel import Section
from mekref.rules.succession_wars.model import LeaderStatus, Status, SWState


def summarize(state: SWState) -> tuple[Section, ...]:
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
    lines = [f"{c.attacker} attacks {c.defender} in {c.region}, round {c.round} ({c.stage})"]
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
