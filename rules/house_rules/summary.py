"""The house-rule modules' books in words (``mekref game report``): pilots, repairs, offers."""

from __future__ import annotations

from mekref.rules.house_rules.model import HouseState
from mekref.rules.kernel import Section


def summarize(state: HouseState) -> tuple[Section, ...]:
    if not state.created:
        return (Section("house rules", ("not set up",)),)
    pilots = tuple(
        f"{p.name} ({pid}): {p.xp} XP, {p.hits} hits, {p.status}, {p.battles} battles"
        for pid, p in sorted(state.pilots.items())
    )
    jobs = tuple(
        f"{pid}: {j.job}, {len(j.attempts)} attempts"
        + (f", marks {' '.join(j.marks)}" if j.marks else "")
        + (", done" if any(a.success for a in j.attempts) else "")
        for pid, j in sorted(state.jobs.items())
    )
    offers = tuple(f"{item}: {len(a.bids)} offers open" for item, a in sorted(state.offers.items()))
    rates = tuple(f"1 {cur} = {rate} C-bills" for cur, rate in sorted(state.exchange_rates.items()))
    return (
        Section("pilots", pilots or ("none",)),
        Section("repairs", jobs or ("none",)),
        Section("offers", offers or ("none",)),
        Section("exchange rates", rates or ("none",)),
    )
