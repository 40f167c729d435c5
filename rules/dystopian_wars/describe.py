"""Each Dystopian Wars event in words, for the people at the table (``mekref game do``).

An event this module does not know yet is shown by the kernel's field-by-field fallback, so a
new event is never hidden, only less readable until it is added here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.model import RepairBill
from mekref.rules.kernel import describe_fields
from mekref.rules.messages import Event


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _created(x: e.CampaignCreated) -> str:
    fleets = ", ".join(f"{f.fleet_id} ({f.nation}, {f.player})" for f in x.fleets)
    deck = f"; a deck of {_plural(len(x.field_orders), 'Field Order')}" if x.field_orders else ""
    return f"campaign created: fleets {fleets}{deck}"


def _battle(x: e.BattleSetUp) -> str:
    b = x.battle
    rolls = ", ".join(f"{s.fleet_id} {s.die}{s.bonus:+d}={s.total}" for s in x.strategy)
    return (
        f"battle {b.battle_id}: {b.fleets[0]} against {b.fleets[1]}, {b.battle_type} of "
        f"{b.points} points (size die {x.size_die}); strategy {rolls}: {b.chooser} stakes first"
    )


def _resolved(x: e.BattleResolved) -> str:
    vp = f"{x.victory_points[0]}-{x.victory_points[1]} VP"
    if x.victor is None:
        return f"battle {x.battle_id}: a draw ({vp})"
    how = "achieved its Field Order" if x.how == "field_order" else "on victory points"
    return f"battle {x.battle_id}: {x.victor} wins, {how} ({vp})"


def _bill(bill: RepairBill) -> str:
    if bill.empty:
        return "no repairs"
    parts = []
    if bill.replacement:
        parts.append("replacement")
    if bill.major_ships:
        parts.append(f"major repairs for {_plural(bill.major_ships, 'ship')}")
    if bill.minor:
        parts.append("minor repairs")
    return ", ".join(parts)


def _after(x: e.SquadronAfterBattle) -> str:
    state = "destroyed" if x.destroyed else f"{_plural(x.ships, 'ship')} afloat"
    broken = "; Broken next battle" if x.broken_next_battle else ""
    return (
        f"{x.fleet_id} squadron {x.squadron_id}: {state}; {_bill(x.bill)}; "
        f"XP {x.xp_change:+d} = {x.xp}{broken}"
    )


def _skill(x: e.SkillGained) -> str:
    if x.skill is None:
        return f"{x.fleet_id} squadron {x.squadron_id} at {x.at_xp} XP: no new skill"
    return f"{x.fleet_id} squadron {x.squadron_id} at {x.at_xp} XP gains {x.skill} ({x.skill_set})"


def _prowess(x: e.TacticalProwess) -> str:
    extra = ""
    if x.genius:
        extra = "; Dash and Elan for the commodore's ship"
    if x.ineptitude:
        extra = "; the flagship in Chaos and Disarray until repaired"
    return f"{x.fleet_id} Tactical Prowess {x.change:+d} = {x.prowess}{extra}"


def _injury(x: e.CommodoreInjury) -> str:
    reroll = " (hospital reroll)" if x.hospital_reroll else ""
    successor = f"; {x.successor} takes command" if x.successor else ""
    return f"{x.fleet_id} commodore injured: {x.result}{reroll}{successor}"


def _requisition(x: e.RequisitionGranted) -> str:
    parts = [f"{t} {rp}" for t, rp in x.territory_rp]
    if x.prize_rp:
        parts.append(f"prize {x.prize_rp}")
    return f"{x.fleet_id} requisitions {x.total} RP ({', '.join(parts) or 'nothing held'})"


def _repaired(x: e.Repaired) -> str:
    cost = "free" if x.free else f"{x.rp_spent} RP"
    done = "repaired" if x.complete else "partly repaired, still in dry dock"
    return f"{x.fleet_id} squadron {x.squadron_id} {done} ({cost})"


def _granted(x: e.TerritoryGranted) -> str:
    to = x.fleet_id or "nobody"
    return f"territory {x.territory_id} granted to {to}: {x.reason}"


def _wings(x: e.AirWings) -> str:
    parts = []
    for w in x.wings:
        if w.mar:
            mar = f", with {w.mar} for all its wings"
        elif w.mar_choices:
            mar = f", its MAR not chosen ({' or '.join(w.mar_choices)}: DWChooseWingMAR)"
        else:
            mar = ""
        parts.append(f"{w.territory} {w.territory_id} (line {w.line}){mar}")
    n = len(x.wings)
    return (
        f"battle {x.battle_id}: {x.fleet_id} fields {n} extra wing{'' if n == 1 else 's'} of"
        f" Tiny Flyers, free: {'; '.join(parts)}"
    )


def _forts(x: e.FortificationsDefend) -> str:
    counted: dict[str, int] = {}
    for f in x.fortifications:
        counted[f] = counted.get(f, 0) + 1
    parts = [f"{n} {f}s" if n > 1 else f"a {f}" for f, n in counted.items()]
    if x.towers_not_chosen:
        parts.append(f"{x.towers_not_chosen} towers of a kind not chosen (DWChooseTowers)")
    return (
        f"battle {x.battle_id}: {x.fleet_id}'s {x.territory} {x.territory_id} is defended by "
        f"{', '.join(parts)} (line {x.line})"
    )


_WORDS: dict[type[Event], Callable[[Any], str]] = {
    e.WingMarChosen: lambda x: (
        f"{x.choice.fleet_id}'s wings of Tiny Flyers have {x.choice.choices[0]} from territory "
        f"{x.choice.territory_id}"
    ),
    e.TowersChosen: lambda x: (
        f"{x.choice.fleet_id} builds {' and '.join(x.choice.choices)} towers at territory "
        f"{x.choice.territory_id}"
    ),
    e.AirWings: _wings,
    e.FortificationsDefend: _forts,
    e.CampaignCreated: _created,
    e.MapSet: lambda x: f"map set: {_plural(len(x.borders), 'border')} ({x.reason})",
    e.MarAssigned: lambda x: (
        f"{x.assignment.fleet_id} squadron {x.assignment.squadron_id} has {x.assignment.mar} "
        f"from territory {x.assignment.territory_id}"
    ),
    e.TerritoriesGenerated: lambda x: (
        "territories: "
        + ", ".join(f"{t.territory_id} ({t.kind}, {t.holder or 'unheld'})" for t in x.territories)
    ),
    e.TerritoryGranted: _granted,
    e.BattleSetUp: _battle,
    e.SquadronsBroken: lambda x: (
        f"{x.fleet_id} starts Broken: squadrons {', '.join(x.squadron_ids)}"
        if x.squadron_ids
        else f"{x.fleet_id}: no squadron starts Broken"
    ),
    e.Staked: lambda x: (
        f"battle {x.battle_id}: {x.stake.fleet_id} stakes {x.stake.own} against {x.stake.enemy}"
    ),
    e.BattleResolved: _resolved,
    e.LoansEnded: lambda x: f"Raid loans end: {', '.join(x.territory_ids)}",
    e.TerritoryTaken: lambda x: (
        f"{x.to_fleet} takes territory {x.territory_id} from {x.from_fleet}"
    ),
    e.TerritoryLent: lambda x: (
        f"{x.to_fleet} raids territory {x.territory_id} of {x.from_fleet} (its RP and MARs for "
        "one battle)"
    ),
    e.SquadronAfterBattle: _after,
    e.SkillGained: _skill,
    e.CommodoreExperience: lambda x: (
        f"{x.fleet_id} commodore XP {x.xp_change:+d} = {x.xp}"
        + (f" ({'; '.join(x.reasons)})" if x.reasons else "")
    ),
    e.TacticalProwess: _prowess,
    e.CommodoreInjury: _injury,
    e.GameMissed: lambda x: (
        f"{x.fleet_id} commodore misses this game ({_plural(x.games_to_miss, 'game')} left)"
    ),
    e.RequisitionGranted: _requisition,
    e.Repaired: _repaired,
    e.SquadronRequisitioned: lambda x: (
        f"{x.fleet_id} requisitions squadron {x.squadron.squadron_id} ({x.squadron.name}, "
        f"{_plural(x.squadron.ships, 'ship')}) for {x.rp_spent} RP"
    ),
    e.CommodoreReleased: lambda x: (
        f"{x.fleet_id} commodore released for a ransom of {x.ransom_rp} RP"
    ),
    e.CampaignWon: lambda x: (
        f"{x.fleet_id} wins the campaign "
        + ("holding the territories" if x.condition == "territories" else f"({x.condition})")
    ),
}


def describe(event: Event) -> str:
    words = _WORDS.get(type(event))
    return words(event) if words is not None else describe_fields(event)
