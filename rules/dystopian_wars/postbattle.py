"""3.0 Post Battle Sequence: victor, conquest, squadrons, commodores, Requisition, victory."""

from __future__ import annotations

from fractions import Fraction

from mekref.rules.dice import Dice, Roll
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.experience import (
    commodore_losses,
    in_dry_dock,
    injury_row,
    prize_rp,
    repair_bill,
    repair_cost,
    roll_skill,
    squadron_xp,
)
from mekref.rules.dystopian_wars.fold import EVOLVERS
from mekref.rules.dystopian_wars.mars import squadron_mars
from mekref.rules.dystopian_wars.model import Battle, DystopianState, Fleet, VesselClass
from mekref.rules.dystopian_wars.table_loader import load_tables
from mekref.rules.kernel import evolve_with
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal


def report(state: DystopianState, cmd: c.ReportBattle, dice: Dice) -> list[Event]:
    battle = state.battle
    if battle is None or battle.battle_id != cmd.battle_id:
        raise Refusal("no_battle", f"battle {cmd.battle_id!r} is not the one being fought")
    t = load_tables()
    size = t.battle_size(battle.battle_type)
    if len(battle.stakes) < size.stakes:
        raise Refusal(
            "not_staked",
            f"a {battle.battle_type} stakes {size.stakes} pair(s) of territories and "
            f"{len(battle.stakes)} are staked: DWStake the rest before reporting the battle",
            size.ref,
        )
    results = {r.fleet_id: r for r in cmd.results}
    if set(results) != set(battle.fleets):
        raise Refusal("bad_result", "report one result for each of the battle's fleets")
    for r in cmd.results:
        _check_result(state, state.fleets[r.fleet_id], r)
    problems = [
        f"{r.fleet_id}: {p}"
        for r in cmd.results
        for p in force_problems(battle, state.fleets[r.fleet_id], r)
    ]
    if problems:
        raise Refusal("force_limits", "; ".join(problems), size.ref)
    victor, how = _victor(battle, cmd)
    loser = None if victor is None else next(f for f in battle.fleets if f != victor)
    vp = (results[battle.fleets[0]].victory_points, results[battle.fleets[1]].victory_points)
    out: list[Event] = [
        e.BattleResolved(
            battle_id=battle.battle_id,
            battle_type=battle.battle_type,
            victor=victor,
            how=how,
            victory_points=vp,
        )
    ]
    # A Raid's loan lasts one battle of the borrower (ruling DW-10): this one ends it.
    ended = tuple(
        tid for tid, terr in sorted(state.territories.items()) if terr.lent_to in battle.fleets
    )
    if ended:
        out.append(e.LoansEnded(territory_ids=ended))
    if victor is not None and loser is not None:
        out += _conquest(battle, cmd, victor, loser)
    for index, fleet_id in enumerate(battle.fleets):
        fleet = state.fleets[fleet_id]
        result = results[fleet_id]
        won = fleet_id == victor
        squadron_events, dice = _squadrons(state, fleet, result, won, dice)
        out += squadron_events
        commodore_events, dice = _commodore(state, battle, index, fleet, result, victor, dice)
        out += commodore_events
    after = _fold_preview(state, out)
    for fleet_id in battle.fleets:
        kills = [k for s in results[fleet_id].squadrons for k in s.kills]
        prizes = prize_rp(kills) if fleet_id == victor else 0
        grant, dice = _requisition(after, fleet_id, prizes, battle.battle_id, dice)
        out.append(grant)
    out += _victory(_fold_preview(state, out), victor, battle)
    return out


def _fold_preview(state: DystopianState, events: list[Event]) -> DystopianState:
    # Later steps read the state as the earlier steps leave it (conquest before Requisition).
    for event in events:
        state = evolve_with(EVOLVERS, state, event)
    return state


def _check_result(state: DystopianState, fleet: Fleet, result: c.FleetResult) -> None:
    seen: set[str] = set()
    for r in result.squadrons:
        squadron = fleet.squadrons.get(r.squadron_id)
        if squadron is None or squadron.destroyed:
            raise Refusal("unknown_squadron", f"{fleet.fleet_id} has no squadron {r.squadron_id!r}")
        if r.squadron_id in seen:
            raise Refusal("bad_result", f"squadron {r.squadron_id!r} is reported twice")
        if in_dry_dock(squadron):
            # L227 a) "leave it in dry dock to continue repairs", against b) "it will start the
            # game in its damaged state": only b) fights, so a docked squadron neither fights nor
            # earns experience until its repair is finished (ruling DW-34).
            raise Refusal(
                "in_dry_dock",
                f"squadron {r.squadron_id!r} of {fleet.fleet_id} is in dry dock "
                f"({squadron.dry_dock} RP applied of {repair_cost(squadron)}): it cannot fight "
                "until DWRepair finishes its repair; leave it out of the result",
                load_tables().rule("dry_dock").ref,
            )
        seen.add(r.squadron_id)
        if not 0 <= r.ships_lost <= squadron.ships or not 0 <= r.ships_recaptured <= r.ships_lost:
            raise Refusal("bad_result", f"squadron {r.squadron_id!r}: impossible ship counts")
    t = load_tables()
    towns = sum(t.territories[x.kind].shore_leave for x in state.held(fleet.fleet_id))
    if len(set(result.shore_leave)) != len(result.shore_leave) or len(result.shore_leave) > towns:
        raise Refusal("shore_leave", f"{fleet.fleet_id} has shore leave for {towns} squadron(s)")
    if not set(result.shore_leave) <= seen:
        raise Refusal("shore_leave", "shore leave is for squadrons that fought")
    if result.double_sixes < 0 or result.double_ones < 0 or result.victory_points < 0:
        raise Refusal("bad_result", "counts cannot be negative")


def force_problems(battle: Battle, fleet: Fleet, result: c.FleetResult) -> tuple[str, ...]:
    """2.2's Points and Forces columns against the squadrons the fleet fought with.

    Ruling DW-28: the squadrons a result lists are the fleet's force (ruling DW-21); their
    points are their cost with skills, for the ships afloat at the start (a squadron short of
    ships counts its share); "1 DN or 2 other Large/Massive Max" counts ships: one Dreadnought
    and nothing else Large or Massive, or up to two other Large or Massive ships. The commodore's
    flagship counts in the points but not against the Forces column: the campaign has the
    commodore lead every battle he is fit for (strategy roll, Tactical Prowess, injury roll).
    """
    size = load_tables().battle_size(battle.battle_type)
    fought = [fleet.squadrons[r.squadron_id] for r in result.squadrons]
    out: list[str] = []
    points = sum(
        (s.cost * s.ships / s.ships_max for s in fought if not s.free_tiny_flyer_wing),
        Fraction(0),
    )
    squadrons = [s for s in fought if not s.flagship]
    if points > battle.points:
        out.append(f"{points} points is over the battle's {battle.points} (line 150)")
    if size.small_medium_only:
        big = sorted(s.squadron_id for s in squadrons if s.vessel_class.large_or_massive)
        if big:
            out.append(f"Small/Med Only, not {', '.join(big)} ({size.ref.line})")
    if size.max_dreadnoughts is not None and size.max_other_large is not None:
        dns = sum(s.ships for s in squadrons if s.vessel_class is VesselClass.DREADNOUGHT)
        others = sum(
            s.ships
            for s in squadrons
            if s.vessel_class.large_or_massive and s.vessel_class is not VesselClass.DREADNOUGHT
        )
        if dns > size.max_dreadnoughts or (dns and others) or others > size.max_other_large:
            out.append(
                f"{dns} Dreadnought(s) and {others} other Large/Massive ship(s): 1 DN or 2 other"
                f" Large/Massive Max ({size.ref.line})"
            )
    return tuple(out)


def _victor(battle: Battle, cmd: c.ReportBattle) -> tuple[str | None, str]:
    """3.1: the first Field Order achieved; otherwise a VP lead over 10% of the points.

    Ruling DW-24: the report gives each fleet's turn (``field_order_turn``), or names the first
    fleet outright (``field_order_first``); both must agree. The same turn, or neither, is left
    to victory points (line 201).
    """
    turns = {r.fleet_id: r.field_order_turn for r in cmd.results}
    if any(t is not None and t < 1 for t in turns.values()):
        raise Refusal("bad_result", "a game turn is 1 or more")
    achieved = {f: t for f, t in turns.items() if t is not None}
    claimed = set(achieved) | ({cmd.field_order_first} if cmd.field_order_first else set())
    if claimed and not battle.field_orders:
        # Ruling DW-30: an order nobody drew cannot be achieved; the claim would decide the
        # battle (3.1) with nothing to check it against.
        raise Refusal(
            "no_field_order",
            f"no Field Order was drawn for battle {battle.battle_id} (the campaign has no Field "
            "Order deck): report no field_order_turn or field_order_first; victory points decide",
        )
    first: str | None = None
    if achieved:
        earliest = min(achieved.values())
        leaders = [f for f, t in achieved.items() if t == earliest]
        first = leaders[0] if len(leaders) == 1 else None
    if cmd.field_order_first is not None:
        if cmd.field_order_first not in battle.fleets:
            raise Refusal("bad_result", f"{cmd.field_order_first!r} did not fight this battle")
        if achieved and first != cmd.field_order_first:
            raise Refusal("bad_result", "field_order_first disagrees with the turns reported")
        first = cmd.field_order_first
    if first is not None:
        return first, "field_order"
    t = load_tables()
    margin_percent = t.rule("victor_margin").int("percent")
    by_fleet = {r.fleet_id: r.victory_points for r in cmd.results}
    a, b = battle.fleets
    diff = by_fleet[a] - by_fleet[b]
    # Ruling DW-11: "the total points value" is the battle size's points (a side's force).
    if abs(diff) * 100 > battle.points * margin_percent:
        return (a if diff > 0 else b), "victory_points"
    return None, "draw"


def _conquest(battle: Battle, cmd: c.ReportBattle, victor: str, loser: str) -> list[Event]:
    t = load_tables()
    size = t.battle_size(battle.battle_type)
    losers = [s.enemy if s.fleet_id == victor else s.own for s in battle.stakes]
    if size.conquest == "raid":
        return [e.TerritoryLent(territory_id=losers[0], from_fleet=loser, to_fleet=victor)]
    if size.conquest == "take":
        return [e.TerritoryTaken(territory_id=losers[0], from_fleet=loser, to_fleet=victor)]
    # Ruling DW-10: in a Battle Royale the victor takes one of the loser's two, its choice.
    if cmd.conquest_choice not in losers:
        raise Refusal(
            "conquest_choice",
            f"the victor chooses one of the loser's staked territories: {losers}",
            t.rule("conquest_battle").ref,
        )
    assert cmd.conquest_choice is not None
    return [e.TerritoryTaken(territory_id=cmd.conquest_choice, from_fleet=loser, to_fleet=victor)]


def _squadrons(
    state: DystopianState, fleet: Fleet, result: c.FleetResult, won: bool, dice: Dice
) -> tuple[list[Event], Dice]:
    t = load_tables()
    out: list[Event] = []
    for r in sorted(result.squadrons, key=lambda r: r.squadron_id):
        squadron = fleet.squadrons[r.squadron_id]
        bill = repair_bill(squadron, r, won)
        if bill.replacement:
            # Line 272: "it will lose all experience and any associated skills."
            ships, xp, leave = 0, 0, False
            reasons: tuple[str, ...] = ("destroyed",)
        else:
            lost = r.ships_lost - (r.ships_recaptured if won else 0)
            ships = squadron.ships - lost
            leave = squadron.squadron_id in result.shore_leave
            change, reasons = squadron_xp(squadron, r, won=won, shore_leave=leave)
            xp = max(0, squadron.xp + change)  # ruling DW-6: experience never goes below 0
        out.append(
            e.SquadronAfterBattle(
                fleet_id=fleet.fleet_id,
                squadron_id=squadron.squadron_id,
                ships=ships,
                destroyed=bill.replacement,
                bill=bill,
                xp_change=xp - squadron.xp,
                xp=xp,
                reasons=reasons,
                broken_next_battle=leave,
            )
        )
        if bill.replacement:
            continue
        breaks = t.skill_breaks[squadron.vessel_class.skill_row].breaks
        # Ruling DW-27: MARs from territories and the commodore's rank count as "already have".
        granted = squadron_mars(state, fleet.fleet_id, squadron.squadron_id)
        held = squadron.skills
        for at_xp in breaks[squadron.skill_rolls :]:
            if xp < at_xp:
                break
            skill_set, skill, rolls, dice = roll_skill(
                dice, squadron.squadron_id, at_xp, (*held, *granted), result.skills_not_applicable
            )
            held = (*held, skill) if skill else held
            out.append(
                e.SkillGained(
                    fleet_id=fleet.fleet_id,
                    squadron_id=squadron.squadron_id,
                    at_xp=at_xp,
                    skill_set=skill_set,
                    skill=skill,
                    rolls=rolls,
                )
            )
    return out, dice


def _commodore(
    state: DystopianState,
    battle: Battle,
    index: int,
    fleet: Fleet,
    result: c.FleetResult,
    victor: str | None,
    dice: Dice,
) -> tuple[list[Event], Dice]:
    t = load_tables()
    out: list[Event] = []
    commodore = fleet.commodore
    if not battle.present[index]:
        # Ruling DW-12: an absent commodore neither earns nor loses; his absence is served.
        if commodore.games_to_miss > 0:
            out.append(
                e.GameMissed(fleet_id=fleet.fleet_id, games_to_miss=commodore.games_to_miss - 1)
            )
        return out, dice
    change = 0
    reasons: list[str] = []
    if victor == fleet.fleet_id:
        row = t.commodore_xp[f"win_{battle.battle_type}"]
        change += row.xp
        reasons.append(row.key)
        if battle.ranks[1 - index] > battle.ranks[index]:
            change += t.commodore_xp["beat_higher_rank"].xp
            reasons.append("beat_higher_rank")
    won = victor == fleet.fleet_id
    lost = [
        (
            fleet.squadrons[r.squadron_id].vessel_class,
            r.ships_lost - (r.ships_recaptured if won else 0),
        )
        for r in sorted(result.squadrons, key=lambda r: r.squadron_id)
    ]
    loss_change, loss_reasons = commodore_losses(lost, result.flagship_lost)
    change += loss_change
    reasons += loss_reasons
    prowess = result.double_sixes * t.rule("prowess_genius").int("modifier") + (
        result.double_ones * t.rule("prowess_ineptitude").int("modifier")
    )
    if result.double_sixes or result.double_ones:
        out.append(
            e.TacticalProwess(
                fleet_id=fleet.fleet_id,
                change=prowess,
                prowess=commodore.prowess + prowess,
                genius=result.double_sixes > 0,
                ineptitude=result.double_ones > 0,
            )
        )
    xp = max(0, commodore.xp + change)
    injury: e.CommodoreInjury | None = None
    if result.flagship_lost:
        injury, dice = _injury(state, fleet, battle.battle_id, dice)
        if injury.result == "heroic_escape":
            xp += injury_xp("heroic_escape")
            reasons.append("heroic_escape")
    out.append(
        e.CommodoreExperience(
            fleet_id=fleet.fleet_id, xp_change=xp - commodore.xp, xp=xp, reasons=tuple(reasons)
        )
    )
    if injury is not None:
        out.append(injury)
    return out, dice


def injury_xp(key: str) -> int:
    return next(r.xp for r in load_tables().injuries if r.key == key)


def _injury(
    state: DystopianState, fleet: Fleet, battle_id: str, dice: Dice
) -> tuple[e.CommodoreInjury, Dice]:
    """3.4.3, when the Commodore's ship goes down or is prized (line 350)."""
    t = load_tables()
    roll, dice = dice.roll(f"commodore injury, {battle_id}, fleet {fleet.fleet_id}")
    rolls: tuple[Roll, ...] = (roll,)
    row = injury_row(roll.total)
    hospital = any(t.territories[x.kind].hospital for x in state.held(fleet.fleet_id))
    rerolled = False
    if row.key == "dead" and hospital:
        # Large Town's Hospital: "Reroll Death of Commodore roll" (line 117), always taken.
        again, dice = dice.roll(f"commodore injury reroll, {battle_id}, fleet {fleet.fleet_id}")
        rolls += (again,)
        row = injury_row(again.total)
        rerolled = True
    successor = None
    if row.key == "dead":
        successor = f"{fleet.fleet_id} commodore {fleet.commodore.succession + 2}"
    return (
        e.CommodoreInjury(
            fleet_id=fleet.fleet_id,
            result=row.key,
            hospital_reroll=rerolled,
            successor=successor,
            rolls=rolls,
        ),
        dice,
    )


def _requisition(
    state: DystopianState, fleet_id: str, prizes: int, battle_id: str, dice: Dice
) -> tuple[e.RequisitionGranted, Dice]:
    """Ruling DW-1: each battle grants the RP of the territories held now; unspent RP lapse.

    Ruling DW-14: a territory worth "+D3" or "+D2" rolls its die at every grant.
    """
    t = load_tables()
    parts: list[tuple[str, int]] = []
    rolls: list[Roll] = []
    for territory in state.held(fleet_id):
        row = t.territories[territory.kind]
        if row.rp is not None:
            parts.append((territory.territory_id, row.rp))
            continue
        assert row.rp_die is not None
        roll, dice = dice.roll(f"requisition, {battle_id}, {territory.territory_id}", 1, row.rp_die)
        rolls.append(roll)
        parts.append((territory.territory_id, roll.total))
    total = sum(rp for _, rp in parts) + prizes
    grant = e.RequisitionGranted(
        fleet_id=fleet_id,
        territory_rp=tuple(parts),
        prize_rp=prizes,
        total=total,
        rolls=tuple(rolls),
    )
    return grant, dice


def _victory(state: DystopianState, victor: str | None, battle: Battle) -> list[Event]:
    """Line 18: the first fleet to conquer 11 territories or whose commodore reaches 21 XP.

    Ruling DW-15: "conquers 11 Territories" is holding 11; when both fleets qualify after the
    same battle, its victor wins.
    """
    t = load_tables()
    order = sorted(battle.fleets, key=lambda f: (f != victor, f))
    for fleet_id in order:
        if state.owned_count(fleet_id) >= t.rule("victory_territories").int("territories"):
            return [e.CampaignWon(fleet_id=fleet_id, condition="territories")]
        xp = state.fleets[fleet_id].commodore.xp
        if xp >= t.rule("victory_commodore").int("experience"):
            return [e.CampaignWon(fleet_id=fleet_id, condition="commodore")]
    return []
