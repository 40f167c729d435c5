"""Squadron and commodore experience, skills, ranks, repairs and prizes: pure functions."""

from __future__ import annotations

from collections.abc import Iterable

from mekref.rules.dice import Dice, Roll
from mekref.rules.dystopian_wars.commands import Kill, SquadronResult
from mekref.rules.dystopian_wars.model import RepairBill, Squadron, VesselClass
from mekref.rules.dystopian_wars.table_loader import (
    DystopianTables,
    InjuryRow,
    RankRow,
    load_tables,
)


def rank_of(xp: int, tables: DystopianTables | None = None) -> RankRow:
    """3.4.2: the highest rank whose experience the commodore has reached."""
    t = tables or load_tables()
    return max((r for r in t.ranks if xp >= r.min_xp), key=lambda r: r.rank)


def crippled(squadron: Squadron, result: SquadronResult) -> bool:
    """Line 270: "At half HP or half strength for multi-ship squadrons"."""
    if result.crippled:
        return True
    left = squadron.ships - result.ships_lost
    return squadron.ships_max > 1 and left > 0 and left * 2 <= squadron.ships_max


def repair_bill(squadron: Squadron, result: SquadronResult, won: bool) -> RepairBill:
    """Which columns of the repair table the squadron needs (lines 215-225; ruling DW-2).

    Minor is charged once per squadron, Major once per ship lost (or for a crippled single
    ship), Replacement once for a squadron or single ship wiped out. Derelicts taken back by a
    victor are re-crewed "as Minor Damage" (line 250) instead of being lost.
    """
    lost = result.ships_lost - (result.ships_recaptured if won else 0)
    recovered = result.ships_lost - lost
    previous = squadron.bill
    if lost >= squadron.ships:
        return RepairBill(replacement=True)
    if previous.replacement:
        return previous
    single = squadron.ships_max == 1
    major = previous.major_ships + lost
    if single and result.crippled:
        major = max(major, 1)
    minor = previous.minor or result.damaged or recovered > 0
    if single and result.crippled:
        minor = previous.minor
    return RepairBill(minor=minor, major_ships=major)


def repair_cost(squadron: Squadron, tables: DystopianTables | None = None) -> int:
    t = tables or load_tables()
    row = t.repairs[squadron.vessel_class.repair_row]
    bill = squadron.bill
    if bill.replacement:
        return row.replacement
    return (row.minor if bill.minor else 0) + row.major * bill.major_ships


def in_dry_dock(squadron: Squadron) -> bool:
    """L227 a): repair points applied to an unfinished repair ("leave it in dry dock")."""
    return squadron.dry_dock > 0 and not squadron.bill.empty


def squadron_xp(
    squadron: Squadron,
    result: SquadronResult,
    *,
    won: bool,
    shore_leave: bool,
    tables: DystopianTables | None = None,
) -> tuple[int, tuple[str, ...]]:
    """3.3.1: the change in a surviving squadron's experience, with the rows that gave it."""
    t = tables or load_tables()
    rows = t.squadron_xp
    change = rows["survived"].xp
    reasons = ["survived"]
    for kill in result.kills:
        for key in _kill_rows(kill, won):
            change += rows[key].xp
            reasons.append(key)
    if crippled(squadron, result):
        if shore_leave:
            reasons.append("crippled (shore leave)")
        else:
            change += rows["crippled"].xp
            reasons.append("crippled")
    return change, tuple(reasons)


def _kill_rows(kill: Kill, won: bool) -> tuple[str, ...]:
    """Ruling DW-4: which squadron-experience rows a kill earns."""
    out: list[str] = []
    # "+1 Exp for prizing and holding the Enemy Flagship": holding needs the field, so a win.
    if kill.enemy_flagship and kill.prized and won:
        out.append("enemy_flagship_prized")
    c = kill.vessel_class
    if c is VesselClass.DREADNOUGHT:
        out.append("dreadnought")
    elif c in (VesselClass.LARGE, VesselClass.MASSIVE):
        out.append("capital")
    elif c.is_medium and kill.last_of_squadron:
        out.append("capital")  # "or for sinking/ prizing the last ship in a med capital squadron"
    elif c is VesselClass.SMALL and kill.last_of_squadron:
        out.append("last_small")
    return tuple(out)


def prize_rp(kills: Iterable[Kill], tables: DystopianTables | None = None) -> int:
    """3.2.2: RP for the victor's prizes, pooled over the battle (ruling DW-18)."""
    t = tables or load_tables()
    ratio = t.rule("prize_ratio")
    prized = [k.vessel_class for k in kills if k.prized]
    small = sum(1 for c in prized if c is VesselClass.SMALL)
    medium = sum(1 for c in prized if c.is_medium)
    large = sum(1 for c in prized if c is VesselClass.LARGE)
    massive = sum(1 for c in prized if c in (VesselClass.MASSIVE, VesselClass.DREADNOUGHT))
    return (
        small // ratio.int("small_per_rp")
        + medium // ratio.int("medium_per_rp")
        + large // ratio.int("large_per_rp")
        + massive * t.rule("prize_massive").int("rp_each")
    )


def commodore_losses(
    lost: Iterable[tuple[VesselClass, int]],
    flagship_lost: bool,
    tables: DystopianTables | None = None,
) -> tuple[int, tuple[str, ...]]:
    """3.4.1's loss rows: -1 per Large or Massive capital ship, -2 per Dreadnought, -2 flagship."""
    t = tables or load_tables()
    rows = t.commodore_xp
    change = 0
    reasons: list[str] = []
    for vessel_class, ships in lost:
        if vessel_class is VesselClass.DREADNOUGHT:
            key = "dreadnought_lost"
        elif vessel_class in (VesselClass.LARGE, VesselClass.MASSIVE):
            key = "large_or_massive_lost"
        else:
            continue
        change += rows[key].xp * ships
        reasons += [key] * ships
    if flagship_lost:
        change += rows["flagship_lost"].xp
        reasons.append("flagship_lost")
    return change, tuple(reasons)


def skill_roll_name(squadron_id: str, at_xp: int, what: str, attempt: int) -> str:
    return f"squadron skill {what}, {squadron_id}, break {at_xp}, try {attempt}"


#: Enough tries that a squadron missing any skill of any set finds it; bounded so a squadron
#: holding (or refusing) every skill ends with "no skill" instead of looping.
MAX_SKILL_TRIES = 60


def roll_skill(
    dice: Dice,
    squadron_id: str,
    at_xp: int,
    held: tuple[str, ...],
    not_applicable: tuple[str, ...],
    tables: DystopianTables | None = None,
) -> tuple[str | None, str | None, tuple[Roll, ...], Dice]:
    """3.3.2: a set die, then a skill die; "reroll if already have or not applicable".

    Ruling DW-5: the set is chosen on a D6 read against the printed bands 1-2/3-4/5-6 (a D3 in
    effect). A skill already held or not applicable rerolls both dice.
    """
    t = tables or load_tables()
    rolls: list[Roll] = []
    for attempt in range(1, MAX_SKILL_TRIES + 1):
        set_roll, dice = dice.roll(skill_roll_name(squadron_id, at_xp, "set", attempt))
        skill_roll, dice = dice.roll(skill_roll_name(squadron_id, at_xp, "skill", attempt))
        rolls += [set_roll, skill_roll]
        band = next(b for b in t.skill_sets if b.low <= set_roll.total <= b.high)
        skill = t.skills[(band.key, skill_roll.total)].name
        if skill not in held and skill not in not_applicable:
            return band.key, skill, tuple(rolls), dice
    return None, None, tuple(rolls), dice


def injury_row(die: int, tables: DystopianTables | None = None) -> InjuryRow:
    t = tables or load_tables()
    return next(r for r in t.injuries if r.low <= die <= r.high)
