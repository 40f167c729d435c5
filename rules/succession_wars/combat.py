"""Combat in a Region: attack, counterattack with the dead, losses, retreats, and the end of the
fight (captures, the Region changing hands, Manufacturing Center damage, Terra's Interdict).

A round is several commands because each side chooses after seeing dice: the Attacker rolls,
the Defender counterattacks, each side removes its own dead, the Attacker then the Defender may
retreat. :func:`decide_report` takes a battle fought in MegaMek instead.
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.common import (
    Builder,
    after_change,
    capital_for_prisoners,
    capture_alone,
    check_actor,
    check_quiet,
    check_side_actor,
    check_turn,
    region_of,
    tables,
    take_region,
    tech_of,
    unit_value,
)
from mekref.rules.succession_wars.data import load_oob_2786
from mekref.rules.succession_wars.model import (
    TERRA_OWNER,
    CenterState,
    Kind,
    Phase,
    SWState,
)
from mekref.rules.succession_wars.movement import check_retreat
from mekref.rules.succession_wars.scenario_2786 import SCENARIO


def max_center_modifier(strength: int) -> int:
    for row in tables().attack_modifiers:
        if row.low <= strength <= row.high:
            return row.modifier
    return 0


def _groups(
    state: SWState,
    house: str,
    region: str,
    pairs: tuple[tuple[str, str], ...],
) -> list[tuple[str, ...]]:
    """Validate combinations and return every attack: the pairs, then each other unit alone."""
    t = tables()
    own = {u.id: u for u in state.combat_units(region, house)}
    listed: list[str] = [uid for pair in pairs for uid in pair]
    for uid in listed:
        if uid not in own:
            raise Refusal("not_here", f"{uid} is not a combat unit of {house} in {region}")
    if len(set(listed)) != len(listed):
        raise Refusal("bad_combination", "a counter may be in one combination only")
    if any(len(p) > t.max_counters_per_combination for p in pairs):
        raise Refusal("bad_combination", "no more than two counters may be combined")
    cross = [p for p in pairs if own[p[0]].formation != own[p[1]].formation]
    leaders = state.leaders_in(region, house)
    house_ability = sum(ld.military for ld in leaders if not ld.mercenary)
    merc_ability = sum(ld.military for ld in leaders if ld.mercenary)
    non_merc = [p for p in cross if not (own[p[0]].mercenary and own[p[1]].mercenary)]
    if len(non_merc) > house_ability or len(cross) > house_ability + merc_ability:
        raise Refusal(
            "no_leader",
            f"{len(cross)} combination(s) of different units need Leaders with that much Military "
            f"Ability in {region} (House Leaders {house_ability}, Mercenary Leaders "
            f"{merc_ability}, who combine only Mercenary units)",
        )
    singles = [(uid,) for uid in sorted(own) if uid not in listed]
    return [tuple(p) for p in pairs] + singles


def _bonuses(cmd: m.SWAttack | m.SWCounterattack) -> tuple[m.LeaderBonus, ...]:
    first = (m.LeaderBonus(leader=cmd.leader, group=cmd.leader_group),) if cmd.leader else ()
    return first + cmd.leaders


def _leader_bonuses(
    state: SWState,
    house: str,
    region: str,
    groups: list[tuple[str, ...]],
    nullified: list[tuple[str, ...]],
    bonuses: tuple[m.LeaderBonus, ...],
) -> dict[tuple[str, ...], int]:
    """Each Leader present adds his Combat Ability to one attack of the round (L321 "added to a
    single attack or defense roll ... allowed on one combat per round in one Region"); several
    Leaders may each back an attack, the same one included (ruling SW-36). A Mercenary Leader
    backs only Mercenary units (L243 "They may not affect House units")."""
    added: dict[tuple[str, ...], int] = {}
    named = [bonus.leader for bonus in bonuses]
    if len(set(named)) != len(named):
        raise Refusal("leader_twice", "each Leader's Combat Ability goes to one attack a round")
    for bonus in bonuses:
        ld = state.leaders.get(bonus.leader)
        if ld is None or ld not in state.leaders_in(region, house):
            raise Refusal(
                "no_leader", f"{bonus.leader} is not a free Leader of {house} in {region}"
            )
        group = tuple(bonus.group)
        if group not in groups:
            raise Refusal(
                "bad_combination",
                f"{ld.name}'s Combat Ability goes to one of the attacks"
                + (f" (a bribed Leader broke up {nullified})" if nullified else ""),
            )
        if ld.mercenary and any(not state.units[uid].mercenary for uid in group):
            raise Refusal(
                "mercenary_leader",
                f'{ld.name} is a Mercenary Leader: "They may not affect House units." (L243)',
            )
        added[group] = added.get(group, 0) + ld.combat
    return added


def _check_boosts(state: SWState, house: str, region: str, boosted: tuple[str, ...]) -> None:
    """The 'Mech boosts the House's technology level still allows this turn, each a 'Mech of
    the House in the Region."""
    allowed = tech_of(state, house).boosted_mechs - state.boosts_used.get(house, 0)
    if len(set(boosted)) != len(boosted) or len(boosted) > max(allowed, 0):
        raise Refusal(
            "no_boost",
            f"{house}'s tech level allows {max(allowed, 0)} more 'Mech boost(s) this turn",
        )
    for uid in boosted:
        unit = state.units.get(uid)
        if (
            unit is None
            or unit.kind is not Kind.MECH
            or unit.owner != house
            or unit.region != region
        ):
            raise Refusal("no_boost", f"{uid} is not a 'Mech unit of {house} in {region}")


def roll_side(
    b: Builder,
    house: str,
    region: str,
    side: str,
    pairs: tuple[tuple[str, str], ...],
    bonuses: tuple[m.LeaderBonus, ...],
    boosted: tuple[str, ...],
) -> None:
    state = b.state
    assert state.combat is not None
    t = tables()
    groups = _groups(state, house, region, pairs)
    # Ruling SW-13: a Leader bribed away from this House, still here for the first round,
    # breaks up as many combinations as his Military Ability (the strongest) and takes his
    # Combat Ability off the strongest attack.
    turncoats = [
        ld
        for ld in state.leaders.values()
        if ld.turncoat == "first_round" and ld.region == region and ld.house == house
    ]
    nullified: list[tuple[str, ...]] = []
    if turncoats:
        combos = sorted(
            (g for g in groups if len(g) > 1),
            key=lambda g: -sum(unit_value(state, state.units[uid], region) for uid in g),
        )
        nullified = combos[: sum(ld.military for ld in turncoats)]
        groups = [g for g in groups if g not in nullified] + [
            (uid,) for g in nullified for uid in g
        ]
    penalty = sum(ld.combat for ld in turncoats)
    bonus = _leader_bonuses(state, house, region, groups, nullified, bonuses)
    _check_boosts(state, house, region, boosted)
    results: list[m.GroupResult] = []
    rolls = []
    hits = 0
    values: list[int] = []
    for group in groups:
        value = sum(unit_value(state, state.units[uid], region) for uid in group)
        value += 2 * sum(1 for uid in group if uid in boosted)
        value += bonus.get(tuple(group), 0)
        values.append(value)
    if penalty and values:
        strongest = values.index(max(values))
        values[strongest] -= penalty
    for n, (group, value) in enumerate(zip(groups, values, strict=True), start=1):
        if value >= t.auto_kill_at:
            results.append(m.GroupResult(units=group, value=value, auto=True, face=0, hit=True))
            hits += 1
            continue
        roll = b.roll(f"{side} {house} at {region}, round {state.combat.round}, attack {n}")
        rolls.append(roll)
        face = roll.faces[0]
        hit = face <= value
        hits += hit
        results.append(m.GroupResult(units=group, value=value, auto=False, face=face, hit=hit))
    b.add(
        m.SWCombatRolled(
            house=house,
            region=region,
            side=side,
            round=state.combat.round,
            results=tuple(results),
            hits=hits,
            boosts=len(boosted),
            rolls=tuple(rolls),
            nullified=tuple(nullified),
            turncoat_penalty=penalty if values else 0,
        )
    )


def _defender(state: SWState, house: str, region: str, against: str) -> str:
    others = sorted(state.enemy_owners_in(region, house))
    if not others:
        raise Refusal("no_enemy", f"there are no enemy combat units in {region}")
    if against:
        if against not in others:
            raise Refusal("no_enemy", f"{against} has no combat units in {region}")
        return against
    if len(others) > 1:
        raise Refusal("name_defender", f"name the side to attack in {region}: {', '.join(others)}")
    return others[0]


def _begin(b: Builder, house: str, region: str, against: str, modifier: int) -> None:
    state = b.state
    defender = _defender(state, house, region, against)
    strength = sum(u.value for u in state.combat_units(region, house))
    top = max_center_modifier(strength)
    if modifier < 0:
        modifier = top
    if state.scenario == SCENARIO and modifier != top:
        raise Refusal(
            "full_modifier",
            f'L623: "The attacker may not reduce his number of forces in Manufacturing damage '
            f'rolls": an original attacking strength of {strength} gives a modifier of {top}',
            load_oob_2786().refs["full_center_modifier"],
        )
    if modifier > top:
        raise Refusal(
            "bad_modifier",
            f"an original attacking strength of {strength} allows a center modifier of 0 to {top}",
        )
    b.add(
        m.SWCombatBegan(
            region=region,
            attacker=house,
            defender=defender,
            original_strength=strength,
            center_modifier=modifier,
            controller_before=state.controller(region),
        )
    )


def decide_attack(state: SWState, cmd: m.SWAttack, dice: Dice) -> list[Event]:
    check_actor(state, cmd.actor, cmd.house)
    c = state.combat
    # Ruling SW-34: after a Mercenary force changes sides, the House beside it may attack at
    # once, out of turn; such a fight goes on through its rounds the same way.
    immediate = c is None and (cmd.house, cmd.region) in state.immediate_combat
    continuing = c is not None and c.region == cmd.region and c.attacker == cmd.house
    if state.move_out_choices:
        check_quiet(state)  # L387: the new employer chooses first (ruling SW-41)
    if not (immediate or continuing):
        check_turn(state, cmd.house, Phase.COMBAT)
    region_of(state, cmd.region)
    if state.auction is not None:
        raise Refusal("auction_open", f"settle the auction for {state.auction.lot} first")
    b = Builder(state, dice)
    if c is None:
        against = cmd.against
        if immediate and not against:
            against = next(iter(sorted(state.enemy_owners_in(cmd.region, cmd.house))), "")
        _begin(b, cmd.house, cmd.region, against, cmd.center_modifier)
    elif c.region != cmd.region or c.stage != "attack":
        raise Refusal("combat_in_progress", f"the combat in {c.region} awaits: {c.stage}")
    roll_side(b, cmd.house, cmd.region, "attacker", cmd.pairs, _bonuses(cmd), cmd.boosted)
    return b.events


def decide_counterattack(state: SWState, cmd: m.SWCounterattack, dice: Dice) -> list[Event]:
    c = state.combat
    if c is None or c.region != cmd.region or c.stage != "counterattack":
        raise Refusal("no_counterattack", f"there is no counterattack due in {cmd.region}")
    if cmd.house != c.defender:
        raise Refusal("not_defender", f"{c.defender} defends {cmd.region}")
    check_side_actor(state, cmd.actor, cmd.house)
    b = Builder(state, dice)
    # All the Defender's units roll, the dead too: kills are removed after the counterattack.
    roll_side(b, cmd.house, cmd.region, "defender", cmd.pairs, _bonuses(cmd), cmd.boosted)
    _maybe_resolve(b)
    return b.events


def decide_losses(state: SWState, cmd: m.SWTakeLosses, dice: Dice) -> list[Event]:
    c = state.combat
    if c is None or c.region != cmd.region or c.stage != "losses":
        raise Refusal("no_losses", f"no losses are due in {cmd.region}")
    check_side_actor(state, cmd.actor, cmd.house)
    due = c.losses_due.get(cmd.house, 0)
    if not due:
        raise Refusal("no_losses", f"{cmd.house} owes no losses in {cmd.region}")
    own = {u.id for u in state.combat_units(cmd.region, cmd.house)}
    if len(set(cmd.units)) != len(cmd.units) or not set(cmd.units) <= own:
        raise Refusal("bad_losses", f"choose distinct units of {cmd.house} in {cmd.region}")
    if len(cmd.units) != due:
        raise Refusal("bad_losses", f"{cmd.house} must remove exactly {due} unit(s)")
    b = Builder(state, dice)
    b.add(m.SWLossesTaken(house=cmd.house, region=cmd.region, units=cmd.units))
    jumpships_lost_with_force(b, cmd.region, cmd.house)
    _maybe_resolve(b)
    return b.events


def decide_retreat(state: SWState, cmd: m.SWRetreat, dice: Dice) -> list[Event]:
    c = state.combat
    if (
        c is None
        or c.region != cmd.region
        or c.stage not in ("retreat_attacker", "retreat_defender")
    ):
        raise Refusal("no_retreat", f"no retreat decision is due in {cmd.region}")
    due = c.attacker if c.stage == "retreat_attacker" else c.defender
    if cmd.house != due:
        raise Refusal("not_your_decision", f"{due} declares retreat first (the Attacker first)")
    check_side_actor(state, cmd.actor, cmd.house)
    check_retreat(state, cmd.house, cmd.region, cmd.moves)
    b = Builder(state, dice)
    b.add(m.SWRetreated(house=cmd.house, region=cmd.region, moves=cmd.moves))
    _maybe_resolve(b)
    return b.events


def _maybe_resolve(b: Builder) -> None:
    c = b.state.combat
    if c is None:
        return
    att = b.state.combat_units(c.region, c.attacker)
    dfn = b.state.combat_units(c.region, c.defender)
    if c.stage == "retreat_defender" and not att:
        b.add(m.SWRetreated(house=c.defender, region=c.region, moves=()))  # nothing to flee
    elif c.stage == "retreat_attacker" and (not att or not dfn):
        pass  # one side is gone: no retreat decisions, the fight ends
    elif c.stage != "resolve":
        return
    resolve(b)


def resolve(b: Builder) -> None:
    state = b.state
    c = state.combat
    assert c is not None
    att = state.combat_units(c.region, c.attacker)
    dfn = state.combat_units(c.region, c.defender)
    if att and dfn:
        b.add(m.SWCombatRoundEnded(region=c.region, round=c.round))
        turncoats_after_round(b, c.region, (c.attacker, c.defender))
        return
    winner = c.attacker if att else c.defender if dfn else ""
    b.add(m.SWCombatEnded(region=c.region, winner=winner))
    t = tables()
    rs = b.state.regions[c.region]
    if rs.center is not CenterState.NONE:
        # The fighting may damage the center, before the Region changes hands (ruling SW-09).
        roll = b.roll(f"Manufacturing Center damage at {c.region}")
        total = roll.faces[0] + c.center_modifier
        damaged = t.center_damage[min(total, 10)]
        b.add(
            m.SWCenterDamageRolled(
                region=c.region,
                face=roll.faces[0],
                modifier=c.center_modifier,
                damaged=damaged,
                rolls=(roll,),
            )
        )
        if damaged:
            owner = rs.controller
            destroyed = rs.center is CenterState.DAMAGED
            b.add(
                m.SWCenterChanged(
                    region=c.region,
                    center=CenterState.NONE if destroyed else CenterState.DAMAGED,
                    reason="destroyed in combat" if destroyed else "damaged in combat",
                )
            )
            if owner in b.state.houses:
                key = "lose_regional_capital_or_center" if destroyed else "center_damaged"
                b.add(
                    m.SWTechPending(
                        house=owner, delta=t.tech_events[key], reason=f"center at {c.region}"
                    )
                )
    if winner:
        capture_alone(b, c.region)
        if winner == c.attacker:
            take_region(b, c.attacker, c.region)
    else:
        # Both wiped out at once: the original owner keeps the Region and takes what is left.
        keeper = c.controller_before
        ships = tuple(sorted(s.id for s in b.state.ships_in(c.region) if s.owner != keeper))
        leaders = tuple(sorted(ld.id for ld in b.state.leaders_in(c.region) if ld.owner != keeper))
        if keeper in (c.attacker, c.defender) and (ships or leaders):
            b.add(
                m.SWPiecesCaptured(
                    captor=keeper,
                    region=c.region,
                    jumpships=ships,
                    leaders=leaders,
                    held_at=capital_for_prisoners(b.state, keeper) or c.region,
                )
            )
            after_change(b)
    turncoats_after_round(b, c.region, (c.attacker, c.defender))
    if c.defender == TERRA_OWNER and c.attacker in b.state.houses:
        b.add(m.SWInterdicted(house=c.attacker, region="", until="turn", reason="attacked Earth"))


def turncoats_after_round(b: Builder, region: str, sides: tuple[str, str]) -> None:
    """Line 339: after the first round, a bribed Leader beside loyal units may be killed by them
    (he stays, "exposed", until the phase ends); otherwise he takes refuge in the enemy capital."""
    for ld in sorted(b.state.leaders.values(), key=lambda x: x.id):
        if ld.turncoat != "first_round" or ld.region != region or ld.house not in sides:
            continue
        loyal = bool(b.state.combat_units(region, ld.house))
        b.add(
            m.SWTurncoatMoved(
                leader=ld.id,
                exposed=loyal,
                region=region if loyal else b.state.capital_of(ld.owner),
            )
        )


def decide_report(state: SWState, cmd: m.SWReportBattle, dice: Dice) -> list[Event]:
    """A battle fought in MegaMek: its dead and its retreats replace the dice of the rounds."""
    check_actor(state, cmd.actor, cmd.house)
    check_turn(state, cmd.house, Phase.COMBAT)
    region_of(state, cmd.region)
    c = state.combat
    if c is not None and (c.region != cmd.region or c.stage != "attack"):
        raise Refusal("combat_in_progress", f"the combat in {c.region} awaits: {c.stage}")
    b = Builder(state, dice)
    if c is None:
        _begin(b, cmd.house, cmd.region, cmd.against, cmd.center_modifier)
    c = b.state.combat
    assert c is not None
    sides = (c.attacker, c.defender)
    for side in sides:
        own = {u.id for u in b.state.combat_units(cmd.region, side)}
        dead = tuple(uid for uid in cmd.destroyed if uid in own)
        if dead:
            b.add(m.SWLossesTaken(house=side, region=cmd.region, units=dead))
            jumpships_lost_with_force(b, cmd.region, side)
    strangers = set(cmd.destroyed) - {
        u.id for side in sides for u in state.combat_units(cmd.region, side)
    }
    if strangers:
        raise Refusal("not_here", f"not in the battle at {cmd.region}: {sorted(strangers)}")
    for side in sides:
        moves = tuple(
            mv for mv in cmd.retreats if (s := state.jumpships.get(mv.jumpship)) and s.owner == side
        )
        if moves:
            check_retreat(b.state, side, cmd.region, moves)
            b.add(m.SWRetreated(house=side, region=cmd.region, moves=moves))
    known = {s.id for s in state.jumpships.values() if s.owner in sides}
    if {mv.jumpship for mv in cmd.retreats} - known:
        raise Refusal("no_jumpship", "a retreat names a JumpShip of neither side")
    final = b.state.combat
    assert final is not None
    if b.state.combat_units(cmd.region, c.attacker) and b.state.combat_units(
        cmd.region, c.defender
    ):
        raise Refusal(
            "battle_unfinished",
            "combat continues until only one side's combat units remain: report the whole battle",
        )
    resolve(b)
    return b.events


def jumpships_lost_with_force(b: Builder, region: str, house: str) -> None:
    """2786, L631: "Any time a force is entirely destroyed in combat, any friendly JumpShips in
    the region are also eliminated." (In the main game the enemy captures them.)"""
    state = b.state
    c = state.combat
    if state.scenario != SCENARIO or c is None or state.combat_units(region, house):
        return
    ships = tuple(sorted(s.id for s in state.ships_in(region) if state.allied(s.owner, house)))
    if ships:
        other = c.defender if house == c.attacker else c.attacker
        b.add(m.SWPiecesCaptured(captor=other, region=region, destroyed_jumpships=ships))
