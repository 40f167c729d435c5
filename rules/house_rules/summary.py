"""The house-rule modules' books in words (``mekref game report``): pilots, repairs, offers."""

from __future__ import annotations

from mekref.rules.house_rules.advancement import rank_name, technician_rating
from mekref.rules.house_rules.describe import decimal_text
from mekref.rules.house_rules.model import HouseState, Pilot
from mekref.rules.kernel import Section


def summarize(state: HouseState, side: str | None = None) -> tuple[Section, ...]:
    """The books in words; the house rules have no sides (``side`` is never given)."""
    if not state.created:
        return (Section("house rules", ("not set up",)),)
    pilots = tuple(
        f"{p.name} ({pid}): {p.xp} XP, {p.hits} hits, {p.status}, {p.battles} battles; "
        + _skills(p)
        for pid, p in sorted(state.pilots.items())
    )
    techs = tuple(_technician(state, tid) for tid in sorted(state.technicians))
    staff = tuple(
        f"{s.name} ({sid}), {s.role}: {s.xp} XP, {s.contracts} contracts"
        for sid, s in sorted(state.support.items())
    )
    costs = tuple(f"{c.skill.title()} to {c.to_level}: {c.xp} XP" for c in state.skill_costs) or (
        "not set: no experience can be spent (HRSkillCosts)",
    )
    quality = tuple(f"{uid}: quality {grade}" for uid, grade in sorted(state.quality.items()))
    jobs = tuple(
        f"{pid}: {j.job}, {len(j.attempts)} attempts"
        + (f", marks {' '.join(j.marks)}" if j.marks else "")
        + (", done" if any(a.success for a in j.attempts) else "")
        for pid, j in sorted(state.jobs.items())
    )
    offers = tuple(
        f"{item}: {len(a.bids)} offers open: "
        + "; ".join(f"offer {n} {decimal_text(b.price)} C-bills" for n, b in enumerate(a.bids, 1))
        for item, a in sorted(state.offers.items())
    )
    rates = tuple(
        f"1 {cur} = {decimal_text(rate)} C-bills"
        for cur, rate in sorted(state.exchange_rates.items())
    )
    return (
        Section("pilots", pilots or ("none",)),
        Section("skill costs", costs),
        Section("technicians", techs or ("none",)),
        Section("support staff", staff or ("none",)),
        Section("maintenance", quality or ("none",)),
        Section("repairs", jobs or ("none",)),
        Section("offers", offers or ("none",)),
        Section("exchange rates", rates or ("none",)),
    )


def _skills(p: Pilot) -> str:
    rank = rank_name(p.piloting, p.gunnery)
    if rank is None:
        return "Piloting/Gunnery not on record"
    lam = ", LAM pilot" if p.lam else ""
    spent = f", {p.xp_spent} XP spent" if p.xp_spent else ""
    return f"Piloting {p.piloting}, Gunnery {p.gunnery}, {rank}{lam}{spent}"


def _technician(state: HouseState, tech_id: str) -> str:
    t = state.technicians[tech_id]
    pilot = state.pilots.get(t.pilot_id)
    rank = rank_name(pilot.piloting, pilot.gunnery) if pilot else None
    rating = technician_rating(rank)
    skill = (
        f"{rating.name.title()} (as {t.pilot_id})"
        if rating
        else f"no rating ({t.pilot_id} is {rank or 'not on record'})"
    )
    return f"{t.name} ({tech_id}) for {t.pilot_id}: {skill}, {t.xp} XP"
