"""Each house-rules event in words, for the people at the table (``mekref game do``).

An event this module does not know yet is shown by the kernel's field-by-field fallback, so a
new event is never hidden, only less readable until it is added here.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from mekref.rules.house_rules import events as e
from mekref.rules.house_rules import table_commands as tc
from mekref.rules.house_rules.advancement import rank_name
from mekref.rules.house_rules.random_damage import PreBattleDamage
from mekref.rules.kernel import describe_fields
from mekref.rules.messages import Event


def _money(value: Fraction) -> str:
    """C-bills as a decimal: exact when the value has a finite decimal (0.432), else to the
    cent with "about" (a fraction such as "and 54/125" reads as nothing a player pays)."""
    return f"{decimal_text(value)} C-bills"


def decimal_text(value: Fraction) -> str:
    sign = "-" if value < 0 else ""
    value = abs(value)
    for places in range(7):
        scaled = value * 10**places
        if scaled.denominator == 1:
            return sign + _grouped(int(scaled), places)
    cents = round(value * 100)
    return "about " + sign + _grouped(cents, 2)


def _grouped(scaled: int, places: int) -> str:
    whole, rest = divmod(scaled, 10**places)
    return f"{whole:,}" + (f".{rest:0{places}d}" if places else "")


def _reported(x: e.BattleReported) -> str:
    parts = []
    for c in x.changes:
        hits = f", hits {c.hits_before}->{c.hits_after}" if c.hits_after != c.hits_before else ""
        status = f", {c.status}" if str(c.status) != "active" else ""
        parts.append(f"{c.pilot_id} XP {c.xp_gained:+d}{hits}{status}")
    return f"battle {x.battle_id}: " + ("; ".join(parts) or "no pilot changes")


def _damage(d: PreBattleDamage) -> str:
    hits = [f"{h.points} to {h.location}{' (rear)' if h.rear else ''}" for h in d.damage]
    effects = [
        f"{f.kind.replace('_', ' ')}"
        + (f" {f.detail}" if f.detail else "")
        + (f" x{f.count}" if f.count != 1 else "")
        + (f" ({f.location})" if f.location else "")
        for f in d.effects
    ]
    what = "; ".join([*hits, *effects]) or "no damage"
    return (
        f"{d.unit_id}: {len(d.results)} pre-battle damage rolls (count die {d.count_roll}): {what}"
    )


def _morale(x: e.MoraleTested) -> str:
    t = x.test
    exempt = "; no more morale checks for it" if t.exempt_from_now else ""
    result = t.result.replace("_", " ")
    return f"{t.unit_id} morale: {t.die_total}{t.modifier:+d} = {t.total}, {result}{exempt}"


def _retreat(x: e.RetreatRolled) -> str:
    r = x.result
    margin = f"made by {r.margin}" if r.margin >= 0 else f"missed by {-r.margin}"
    match r.outcome:
        case "hours":
            outcome = f"loses {r.hours_lost} repair hours"
        case "captured":
            outcome = "is captured"
        case other:
            outcome = other.replace("_", " ")
    return f"{r.unit_id} retreats: {r.roll} against {r.target}, {margin}: {outcome}"


def _acquisition(x: e.AcquisitionRolled) -> str:
    a = x.acquisition
    # Ruling HOUSE-8: the bids table runs down to "-6 or less | 1", so a missed search still
    # finds sellers; the words say so instead of "not found" beside offers that can be bought.
    found = f"made by {a.margin}" if a.margin >= 0 else f"missed by {-a.margin}"
    offers = "; ".join(
        f"offer {n}: {_money(b.price)} ({_price_word(b.percent)})" for n, b in enumerate(a.bids, 1)
    )
    return (
        f"{a.item} ({a.availability}): {a.roll} against {a.target}, {found}: "
        f"{len(a.bids)} offer(s) (HRBuy buys one): {offers}"
    )


def _price_word(percent: int) -> str:
    if percent < 0:
        return f"lower by {-percent}%: a bargain"
    if percent > 0:
        return f"higher by {percent}%"
    return "standard price"


def _bought(x: e.ItemBought) -> str:
    damaged = ""
    # L206 "Any time an item is bought at a lower price roll 2d6": only a lower price is a
    # bargain; a standard or higher price is bought as it is.
    if x.bid.bargain and x.bid.damaged:
        damaged = "; a bargain with damage: roll critical damage for it"
    elif x.bid.bargain:
        damaged = "; a bargain, undamaged"
    return f"{x.item} bought at offer {x.bid_number} for {_money(x.bid.price)}{damaged}"


def _mission(x: e.MissionRolled) -> str:
    r = x.result
    if not r.enemy_present:
        return f"mission {r.mission}: no enemy"
    size = f", enemy {r.force_percent} of our force" if r.force_percent else ""
    loss = f", expected losses {r.expected_loss_rate}" if r.expected_loss_rate else ""
    return f"mission {r.mission}: enemy present{size}{loss}"


def _repair(x: e.RepairAttempted) -> str:
    result = "succeeds" if x.attempt.success else "fails"
    mark = f", marked {x.mark}" if x.mark else ""
    return (
        f"{x.attempt.team_id} repairs {x.part_id} ({x.job}): {x.roll} against {x.target}, "
        f"{result}{mark}"
    )


def _joined(x: e.PilotJoined) -> str:
    words = f"pilot {x.name} ({x.pilot_id}) joins with {x.xp} XP"
    if x.piloting is None or x.gunnery is None:
        return (
            words + "; Piloting and Gunnery not given: not on record, no experience can be spent "
            "until they are set (HRSetPilotSkills)"
        )
    rank = rank_name(x.piloting, x.gunnery)
    lam = ", a LAM pilot (+6 XP per Piloting point)" if x.lam else ""
    return words + f", Piloting {x.piloting}, Gunnery {x.gunnery} ({rank}){lam}"


def _improved(x: e.SkillImproved) -> str:
    cost = f"{x.base_xp + x.lam_xp} XP" + (
        f" ({x.base_xp} + {x.lam_xp} for a LAM pilot)" if x.lam_xp else ""
    )
    rank = (
        f"; rank {x.rank_before} -> {x.rank_after}"
        if x.rank_after != x.rank_before
        else f"; still {x.rank_after}"
    )
    return (
        f"{x.pilot_id} improves {x.skill.title()} {x.before} -> {x.after} for {cost}, "
        f"{x.xp_left} XP left{rank}"
    )


def _costs(x: e.SkillCostsSet) -> str:
    steps = ", ".join(f"{c.skill.title()} to {c.to_level}: {c.xp} XP" for c in x.costs)
    return f"skill costs set: {steps}"


def _contract(x: e.ContractServedDone) -> str:
    parts = [
        f"{g.person_id} {g.xp_gained:+d} XP" if g.xp_gained else f"{g.person_id} none (medic)"
        for g in x.gains
    ]
    return f"contract {x.contract_id} served: " + ("; ".join(parts) or "nobody listed")


def _maintenance(x: e.MaintenanceChecked) -> str:
    r = x.result
    margin = f"margin {r.margin:+d}"
    if r.quality_after != r.quality_before:
        better = r.quality_after > r.quality_before
        quality = (
            f"quality {r.quality_before} -> {r.quality_after} ({'better' if better else 'worse'})"
        )
    else:
        quality = f"quality stays {r.quality_after}"
    if r.improve_needed is not None and r.quality_after <= r.quality_before:
        quality += f" (better needed {r.improve_needed:+d})"
    if r.destroyed:
        damage = f"; {r.damage} damage points: the part is destroyed"
    elif r.damage:
        damage = f"; {r.damage} damage point{'s' if r.damage != 1 else ''}"
    else:
        damage = "; no damage"
    return (
        f"{r.unit_id} maintenance: {r.roll} against {r.target} "
        f"({r.base_target}, house {r.target - r.base_target:+d}), {margin}: {quality}{damage}"
    )


_WORDS: dict[type[Event], Callable[[Any], str]] = {
    e.SetUpDone: lambda x: "house rules set up",
    e.PilotJoined: _joined,
    e.PilotSkillsSet: lambda x: (
        f"pilot {x.pilot_id}: Piloting {x.piloting}, Gunnery {x.gunnery} on record ({x.rank})"
    ),
    e.SkillCostsSet: _costs,
    e.SkillImproved: _improved,
    e.TechnicianJoined: lambda x: (
        f"technician {x.name} ({x.tech_id}) joins, working for {x.pilot_id} "
        "(skill follows that MechWarrior's rank)"
    ),
    e.TechnicianFeatDone: lambda x: (
        f"technician {x.tech_id}: {x.feat} of {x.unit_id}, +{x.xp_gained} XP"
    ),
    e.SupportJoined: lambda x: f"{x.role} {x.name} ({x.person_id}) joins the support staff",
    e.ContractServedDone: _contract,
    e.MaintenanceChecked: _maintenance,
    e.BattleReported: _reported,
    e.PilotReturned: lambda x: f"pilot {x.pilot_id} returns to duty ({x.note.reason})",
    e.MoraleTested: _morale,
    e.PreBattleDamageRolled: lambda x: _damage(x.damage),
    e.MapSheetsRolled: lambda x: (
        f"battle {x.battle_id}: {x.battlefield.terrain} terrain, map sheets "
        + ", ".join(x.battlefield.sheets)
    ),
    e.RetreatRolled: _retreat,
    e.AcquisitionRolled: _acquisition,
    e.ItemBought: _bought,
    e.MissionRolled: _mission,
    e.RepairAttempted: _repair,
    e.ExchangeRateSet: lambda x: f"1 {x.currency} = {_money(x.c_bills)}",
}


def _hit(x: tc.HitLocationRolled) -> str:
    how = (
        f"focused {x.focus} ({x.to_hit_modifier:+d} to hit)"
        if x.focus
        else f"{x.table.replace('_', ' ')} table, {x.column}"
    )
    crit = ", roll for a critical hit" if x.crit else ""
    roll = f"{x.rolls[0].total}" if x.rolls else "no roll"
    return f"hit location on {x.unit_id}, {how}: {roll} hits the {x.location}{crit} (line {x.line})"


def _negotiated(x: tc.Negotiated) -> str:
    return (
        f"{x.item} offer {x.bid_number}: negotiation {x.roll} against {x.target}, margin "
        f"{x.margin:+d}: {x.percent:+d}%, {_money(x.price_before)} -> {_money(x.price)}"
    )


def _quantity(x: tc.QuantityRolled) -> str:
    unit = "tons of armor" if x.kind == "armor" else "shots of ammunition"
    return f"{x.item} (level {x.level}): 2d6 {x.roll}, {x.amount} {unit} found"


_WORDS.update({
    tc.HitLocationRolled: _hit,
    tc.Negotiated: _negotiated,
    tc.QuantityRolled: _quantity,
    tc.CurrencyConverted: lambda x: (
        f"{decimal_text(x.amount)} {x.source} = {decimal_text(x.result)} {x.target}"
    ),
})  # fmt: skip


def describe(event: Event) -> str:
    words = _WORDS.get(type(event))
    return words(event) if words is not None else describe_fields(event)
