"""The rows of ``mekref report``: a person's status and healing bill, a unit's fate, damage and
repair work, the ending, the house rules' log and the referee's overrides, as JSON-ready values."""

from __future__ import annotations

from typing import Any

from mekref.daemon.tripwire import house_maintenance_report
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import house_acquisition, injuries
from mekref.rules.tripwire.battle_model import Fate, SideOutcome, UnitDamage, UnitOutcome
from mekref.rules.tripwire.battle_resolution import subject_for
from mekref.rules.tripwire.repair import LocationDamage
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, PersonStatus
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.turn import house_morale, rolled_damage
from mekref.rules.tripwire.turn.events import UnitDamageRolled
from mekref.rules.tripwire.turn.house_morale import HouseMoraleTested
from mekref.rules.tripwire.turn.state import StrategicState
from mekref.rules.tripwire.turn.victory import progress, unknown_text
from mekref.rules.tripwire.whereabouts import technicians_at


def person_status(state: CampaignState, person_id: str) -> str:
    person = state.people[person_id]
    if person.status is PersonStatus.DEAD:
        return "dead"
    if person_id in state.battles.captured_people:
        return f"captured by {state.battles.captured_people[person_id]}"
    return "injured" if person.hits else "active"


def heal_cost(state: CampaignState, person_id: str) -> int | None:
    person = state.people[person_id]
    if person.status is PersonStatus.DEAD or person.hits == 0:
        return None
    try:
        return injuries.heal_cost(person.hits)
    except Refusal:
        return None


def wp_value(price: Any, unit: CampaignUnit, damage: UnitDamage) -> int | None:
    """Scrap or sale value now, or None when the rules refuse it (e.g. not fully repaired)."""
    try:
        value: int = price(subject_for(unit, damage))
        return value
    except Refusal:
        return None


def fate_of(state: CampaignState, unit_id: str) -> str:
    if unit_id in state.battles.sold:
        return "sold"
    if unit_id in state.battles.scrapped:
        return "scrapped"
    return state.battles.fates.get(unit_id, Fate.OPERATIONAL).value


def ending(state: CampaignState, side: str | None = None) -> dict[str, Any]:
    """Each end condition's progress (lines 412-414, 162): the campaign's own check; with
    ``side``, its cut (T-V3): every side's VP are public (L414), an enemy's BV is not."""
    s = state.strategic
    none = StrategicState(map_name="", map_text="", attacker="", defender="")
    p = progress(state, s or none, s.vp if s else {})

    def own(side_id: str) -> bool:
        return not side or side_id == side

    # R-VP-6, R-VP-3: which end cannot be told and what to record; a side's cut names only
    # its own units without a BV, as its overview does.
    unknown = unknown_text(state, p.vp_target, p.sides, bv_of=side) if side else p.unknown
    return {
        "ended": p.ended or None,
        # Which end was reached may name an enemy below its attrition line: the referee's.
        "reached": None if side else p.reached or None,
        "unknown": unknown or None,
        "map_started": s is not None,
        "vp_target": p.vp_target,
        "attrition_percent": p.attrition_percent,
        "sides": [
            {
                "side": x.side_id,
                # R-VP-6: null while a battle of the side has VP not known (units without a
                # BV); ``known_vp`` is then the sum of what is known, never the total.
                "battle_vp": x.battle_vp if x.vp_known else None,
                "strategic_vp": x.strategic_vp,
                "total_vp": x.total_vp if x.vp_known else None,
                "known_vp": x.total_vp,
                "battles_vp_unknown": list(x.battles_vp_unknown),
                # None: no strategic map yet, so no starting BV to measure against; and an
                # enemy's BV in a side's cut (its strength, T-V3)
                "starting_bv": x.starting_bv if s is not None and own(x.side_id) else None,
                "effective_bv": x.effective_bv if own(x.side_id) else None,
                "percent_of_start": (
                    None if x.percent is None or not own(x.side_id) else round(float(x.percent), 1)
                ),
                "units_without_bv": x.without_bv if own(x.side_id) else None,
                "below_attrition_line": x.below if own(x.side_id) else None,
                "leader_captured": x.leader_captured,
            }
            for x in p.sides
        ],
    }


def battle_side(x: SideOutcome, units: tuple[UnitOutcome, ...]) -> dict[str, Any]:
    """A side's outcome of a battle; R-VP-6: its VP are null while a unit of the battle has no
    BV, and its BV figures and retiring (L413) too while one of its own units has none."""
    own_unknown = any(u.side_id == x.side_id and u.unit_id in x.units_without_bv for u in units)
    return {
        "side": x.side_id,
        "starting_bv": None if own_unknown else x.starting_bv,
        "destroyed_bv": None if own_unknown else x.destroyed_bv,
        "vp": x.vp_delta if x.vp_known else None,
        "awards": list(x.vp_awards),
        "retires": None if own_unknown else x.retires,
    }


def unit_identity(u: CampaignUnit) -> dict[str, Any]:
    """The fields that open a unit's row in every listing: which unit, whose, and where."""
    return {
        "id": u.unit_id,
        "chassis": u.chassis,
        "model": u.model,
        "side": u.side_id,
        "company": u.company,
        "lance": u.lance,
    }


def location_json(loc: LocationDamage) -> dict[str, Any]:
    """One location's armour (front and rear together) and structure, now and at most; and,
    where the file said how it splits (T-X2), the rear's share of the armour."""
    rear = {} if loc.rear_max is None else {"rear": loc.rear_now, "rear_max": loc.rear_max}
    return {
        "name": loc.name,
        "armor": loc.armor_now,
        "armor_max": loc.armor_max,
        **rear,
        "internal": loc.internal_now,
        "internal_max": loc.internal_max,
    }


def damage_json(damage: UnitDamage) -> dict[str, Any]:
    """The unit's stored condition, as the next export writes it: each location that lost
    armour or structure, and each damaged critical slot (battle or rolled, T-DM1)."""
    return {
        "armor_lost": damage.armor_lost,
        "internal_lost": damage.internal_lost,
        "critical_hits": damage.critical_hits,
        # Kept as written, for the files written back (R-IMP-6); priced through the count.
        "criticals": None if damage.criticals is None else damage.criticals.as_json(),
        # Lost locations by name: also those read without a design (no maxima to show).
        "destroyed_locations": [loc.name for loc in damage.locations if loc.internal_gone],
        "locations": [
            location_json(loc) for loc in damage.locations if loc.armor_lost or loc.internal_lost
        ],
        "slots": [
            {
                "location": d.location,
                "slot": d.slot,
                "item": d.item,
                "system": d.system,
                "hit": d.hit,
                "destroyed": d.destroyed,
                "missing": d.missing,
            }
            for d in damage.damaged_slots
        ],
    }


def ready_day(state: CampaignState, unit_id: str) -> int | None:
    s = state.strategic
    day = None if s is None else s.repair_ready.get(unit_id)
    return day if s is not None and day is not None and day >= s.day else None


def paid_work(state: CampaignState, unit_id: str) -> list[dict[str, int]]:
    """The technician hours paid for the unit's work, day by day, from today on (L64): work
    that did not fit a day's hours waits for the next (R-WHERE-4)."""
    s = state.strategic
    if s is None:
        return []
    return [{"day": d, "hours": h} for d, h in s.repair_work.get(unit_id, ()) if d >= s.day]


def workshops(state: CampaignState, side: str | None) -> list[dict[str, Any]]:
    """Each side's technician day per hex still running (L64, R-WHERE-4), with the hours its
    technicians there now give a day."""
    s = state.strategic
    if s is None:
        return []
    per_day = load_tables().technician_hours_per_day
    out = []
    for key, (day, used) in sorted(s.workshops.items()):
        side_id, _, hex_ = key.partition("@")
        if day >= s.day and (not side or side_id == side):
            techs = technicians_at(state, side_id, hex_)
            out.append(
                {
                    "side": side_id,
                    "hex": hex_ or "orbit",
                    "last_day": day,
                    "hours": used,
                    "technicians": techs,
                    "hours_per_day": per_day * techs,
                }
            )
    return out


#: Fields through which an event keeps the referee's word (an override of a permission).
_WORD_FIELDS = ("note", "override", "accepted_unchecked", "commander_note")


def house_rules_log(events: Any, side: str | None) -> list[dict[str, Any]]:
    """The house rules' options played (HOUSE-31 to HOUSE-35, HOUSE-40, HOUSE-45): each
    pre-battle damage with its table rolls and the notes left for the referee, each morale
    test, each maintenance check with its damage and each acquisition, in words."""
    out: list[dict[str, Any]] = []
    for seq, e in events:
        if side and getattr(e, "side_id", None) != side:
            continue
        if isinstance(e, UnitDamageRolled) and e.cause == "pre-battle damage":
            lines = [*e.notes, *(rolled_damage.describe(x) for x in e.lines)]
            out.append({"seq": seq, "unit": e.unit_id, "what": "pre-battle damage", "lines": lines})
        elif isinstance(e, HouseMoraleTested):
            out.append(
                {"seq": seq, "unit": e.test.unit_id, "what": "morale",
                 "lines": [house_morale.describe(e)]}
            )  # fmt: skip
        elif (entry := house_maintenance_report.log_entry(seq, e)) is not None:
            out.append(entry)
        elif (words := house_acquisition.describe(e)) is not None:
            unit = getattr(e, "unit_id", "")
            out.append({"seq": seq, "unit": unit, "what": "acquisition", "lines": [words]})
    return out


def house_offers(state: CampaignState, side: str | None) -> list[dict[str, Any]]:
    """The open acquisition offers (HOUSE-45, HOUSE-46): what a re-arm may buy, where, and at
    which price per ton each bid sells."""
    return [
        {
            "side": o.side_id,
            "pool": o.pool_id,
            "item": o.item,
            "tons": o.tons,
            "availability": o.acquisition.availability,
            "bids": [
                {"bid": n, "percent": b.percent, "wp_per_ton": str(b.price), "bargain": b.bargain}
                for n, b in enumerate(o.acquisition.bids, 1)
            ],
        }
        for o in state.house_offers.values()
        if not side or o.side_id == side
    ]


def overrides(state: CampaignState, events: Any, side: str | None) -> list[dict[str, Any]]:
    """Every recorded referee's word: which event, for whom, who decided and why. A side's
    report shows those for its own units, people, pools and side; the referee's shows all."""
    out: list[dict[str, Any]] = []
    for seq, e in events:
        for name in _WORD_FIELDS:
            word = getattr(e, name, None)
            if word is None or not hasattr(word, "referee"):
                continue
            whose = _side_of(state, e)
            if side and whose != side:
                continue
            out.append(
                {"seq": seq, "event": type(e).TYPE, "side": whose,
                 "referee": word.referee, "reason": word.reason}
            )  # fmt: skip
    return out


def _side_of(state: CampaignState, e: Any) -> str | None:
    if getattr(e, "side_id", None):
        return str(e.side_id)
    unit = state.units.get(getattr(e, "unit_id", "") or "")
    if unit is not None:
        return unit.side_id
    person = state.people.get(getattr(e, "person_id", "") or "")
    if person is not None:
        return person.side_id
    pool = state.pools.get(getattr(e, "pool_id", "") or "")
    return pool.side_id if pool is not None else None
