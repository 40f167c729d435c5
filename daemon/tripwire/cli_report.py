"""``mekref report``: the campaign's books: units and their repair bills, people, WarChest,
victory points and every die rolled."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from rich.table import Table

from mekref.daemon.cli_common import (
    EXIT_OK,
    CliError,
    add_db,
    campaign_id_of,
    guarded,
    opened,
    out_console,
    print_json,
)
from mekref.daemon.tripwire import house_maintenance_report
from mekref.daemon.tripwire.house_xp_report import house_xp_report, print_house_xp
from mekref.daemon.tripwire.orbit_rows import dropships, print_dropships, satellites
from mekref.rules.codec import to_jsonable
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import house_acquisition, injuries, repair
from mekref.rules.tripwire.battle_model import Fate, SideOutcome, UnitDamage, UnitOutcome
from mekref.rules.tripwire.battle_resolution import repair_line, subject_for
from mekref.rules.tripwire.designs import repair_priced
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, PersonStatus
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.turn import house_morale, rolled_damage
from mekref.rules.tripwire.turn.events import UnitDamageRolled
from mekref.rules.tripwire.turn.house_morale import HouseMoraleTested
from mekref.rules.tripwire.turn.overview import overview
from mekref.rules.tripwire.turn.repair_days import work_waits
from mekref.rules.tripwire.turn.side_overview import Overview, overview_of
from mekref.rules.tripwire.turn.state import StrategicState
from mekref.rules.tripwire.turn.victory import battles_vp_unknown, progress, unit_bv
from mekref.rules.tripwire.whereabouts import technicians_at

HELP = (
    "print the campaign's units (their damage and repair bills), people, WarChest, victory "
    "points, the end conditions' progress and dice"
)
EPILOG = """\
Each unit's damage is what battles and rolled damage (a missed maintenance's criticals, a
bombing, ruling T-DM1) left on it: the bill prices it and the next engagement export writes it.

examples:
  mekref report --db c.db
  mekref report --db c.db --side loyalists
  mekref report --db c.db --json > books.json
  mekref report --db c.db --overview              the referee's one-page picture
  mekref report --db c.db --overview --side rebel  the rebels' page, fog of war kept
  mekref report --db c.db --overview --side rebel --json   (--overview --json: the whole)

With --side, --overview is what that side may know (ruling T-V3): its own formations and
pools, enemy formations only as it sighted them, every location's control and side's unrest,
every side's VP (L414), its own BV against the attrition line, and the engagements it fights
with its own formations only. gRPC: CampaignService.GetOverview gives the same cut.

Besides the bills: each unit's technician hours still needed against the hours paid, day by
day (L64: what does not fit a day waits for the next), each hex's technicians and hours a
day, and every referee override with who and why.
"""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "report",
        help=HELP,
        description=HELP,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_db(parser)
    parser.add_argument("--side", help="only this side's units, people and pools")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    parser.add_argument(
        "--overview",
        action="store_true",
        help="the referee's overview only: the strategic map (formations, control, unrest, "
        "sightings, engagements and their battles), the WarChest and the VP total with each "
        "end condition; no unit, people or dice tables. With --side: that side's cut, fog of "
        "war kept (ruling T-V3); with --json: the overview as JSON",
    )
    parser.set_defaults(handler=guarded(run), command_name="report")


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


def _value(price: Any, unit: CampaignUnit, damage: UnitDamage) -> int | None:
    """Scrap or sale value now, or None when the rules refuse it (e.g. not fully repaired)."""
    try:
        value: int = price(subject_for(unit, damage))
        return value
    except Refusal:
        return None


def _fate(state: CampaignState, unit_id: str) -> str:
    if unit_id in state.battles.sold:
        return "sold"
    if unit_id in state.battles.scrapped:
        return "scrapped"
    return state.battles.fates.get(unit_id, Fate.OPERATIONAL).value


def ending(state: CampaignState) -> dict[str, Any]:
    """Each end condition's progress (lines 412-414, 162): the campaign's own check."""
    s = state.strategic
    none = StrategicState(map_name="", map_text="", attacker="", defender="")
    p = progress(state, s or none, s.vp if s else {})
    return {
        "ended": p.ended or None,
        "reached": p.reached or None,
        # R-VP-6, R-VP-3: which end cannot be told and what to record; null when all is known.
        "unknown": p.unknown or None,
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
                # None: no strategic map yet, so no starting BV to measure against
                "starting_bv": x.starting_bv if s is not None else None,
                "effective_bv": x.effective_bv,
                "percent_of_start": None if x.percent is None else round(float(x.percent), 1),
                "units_without_bv": x.without_bv,
                "below_attrition_line": x.below,
                "leader_captured": x.leader_captured,
            }
            for x in p.sides
        ],
    }


def _battle_side(x: SideOutcome, units: tuple[UnitOutcome, ...]) -> dict[str, Any]:
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


def _damage(damage: UnitDamage) -> dict[str, Any]:
    """The unit's stored condition, as the next export writes it: each location that lost
    armour or structure, and each damaged critical slot (battle or rolled, T-DM1)."""
    return {
        "armor_lost": damage.armor_lost,
        "internal_lost": damage.internal_lost,
        "critical_hits": damage.critical_hits,
        # Lost locations by name: also those read without a design (no maxima to show).
        "destroyed_locations": [loc.name for loc in damage.locations if loc.internal_gone],
        "locations": [
            {
                "name": loc.name,
                "armor": loc.armor_now,
                "armor_max": loc.armor_max,
                "internal": loc.internal_now,
                "internal_max": loc.internal_max,
            }
            for loc in damage.locations
            if loc.armor_lost or loc.internal_lost
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


def _damage_text(damage: dict[str, Any]) -> str:
    shown = {loc["name"] for loc in damage["locations"]}
    # A location lost with no design known has no figures: named all the same.
    parts = [f"{name} lost" for name in damage["destroyed_locations"] if name not in shown]
    parts += [
        f"{loc['name']} {loc['armor']}/{loc['armor_max']} armour, "
        f"{loc['internal']}/{loc['internal_max']} structure"
        for loc in damage["locations"]
    ]
    parts += [
        f"{d['location']} slot {d['slot']} ({(d['system'] or d['item']).replace('_', ' ')})"
        for d in damage["slots"]
    ]
    return "; ".join(parts) or "-"


def _ready_day(state: CampaignState, unit_id: str) -> int | None:
    s = state.strategic
    day = None if s is None else s.repair_ready.get(unit_id)
    return day if s is not None and day is not None and day >= s.day else None


def _paid_work(state: CampaignState, unit_id: str) -> list[dict[str, int]]:
    """The technician hours paid for the unit's work, day by day, from today on (L64): work
    that did not fit a day's hours waits for the next (R-WHERE-4)."""
    s = state.strategic
    if s is None:
        return []
    return [{"day": d, "hours": h} for d, h in s.repair_work.get(unit_id, ()) if d >= s.day]


def _workshops(state: CampaignState, side: str | None) -> list[dict[str, Any]]:
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


def build_report(
    state: CampaignState, rolls: list[dict[str, Any]], side: str | None
) -> dict[str, Any]:
    t = load_tables()
    units = []
    for u in sorted(state.units.values(), key=lambda u: (u.side_id, u.company, u.lance, u.unit_id)):
        if side and u.side_id != side:
            continue
        damage = state.battles.unit_damage.get(u.unit_id, UnitDamage())
        line = repair_line(u, damage, t)
        # Armor and structure are priced by tonnage against the design's maxima; without a
        # design the zeros would mean "unknown", not "free".
        priced = repair_priced(state, u.unit_id)
        units.append(
            {
                "id": u.unit_id,
                "chassis": u.chassis,
                "model": u.model,
                "side": u.side_id,
                "company": u.company,
                "lance": u.lance,
                "bv": u.bv or None,
                "fate": _fate(state, u.unit_id),
                "scrap_wp": _value(repair.scrap_value, u, damage),
                "sell_wp": _value(repair.sell_value, u, damage),
                "crew_hits": state.battles.crew_damage.get(u.unit_id, 0),
                "damage": _damage(damage),
                "repair": {
                    # Unpriced (no design known): null, never a bill of 0 that reads as free.
                    "armor_sp": line.armor_sp + line.armor_deferred_sp if priced else None,
                    "internal_sp": line.internal_sp if priced else None,
                    "rearm_sp": line.rearm_sp,
                    "total_sp": line.total_sp if priced else None,
                    "tech_hours": line.tech_hours,
                    "repairable": line.repairable,
                    "needs_repair_facility": line.needs_repair_facility,
                },
                "repair_priced": priced,
                # L64: the day the technicians finish the work booked for it (R-WHERE-4);
                # None when none is outstanding (or no strategic map keeps the days).
                "repair_ready_day": _ready_day(state, u.unit_id),
                # The hours paid for, by technician day (the repair's tech_hours above are
                # the hours the damage not yet paid for still needs).
                "repair_work": _paid_work(state, u.unit_id),
                # Why the work booked for the day being ordered waits as the orders stand:
                # only a formation taking the repair action works it (R-WHERE-6); None when
                # it runs or none is booked for that day.
                "repair_waits": work_waits(state, u.unit_id),
            }
        )
    people = []
    for p in sorted(state.people.values(), key=lambda p: (p.side_id, p.name, p.person_id)):
        if side and p.side_id != side:
            continue
        people.append(
            {
                "id": p.person_id,
                "name": p.name,
                "side": p.side_id,
                "unit": p.unit_id,
                "hits": p.hits,
                "status": person_status(state, p.person_id),
                "heal_cost_sp": heal_cost(state, p.person_id),
                "kills": state.battles.kills.get(p.person_id, 0),
                "may_train": p.person_id in state.battles.may_train,
            }
        )
    pools = [
        {"id": p.pool_id, "side": p.side_id, "name": p.name, "kind": p.kind.value,
         "balance": p.balance, "capacity": p.capacity}
        for p in sorted(state.pools.values(), key=lambda p: (p.side_id, p.pool_id))
        if not side or p.side_id == side
    ]  # fmt: skip
    # R-VP-6: a side with a battle whose VP are not known has no battle VP figure (null).
    vp_unknown = battles_vp_unknown(state)
    vp = {
        s: None if s in vp_unknown else state.battles.victory_points.get(s, 0)
        for s in sorted(state.sides)
    }
    battles = [
        {
            "id": b.battle_id,
            "number": b.number,
            "status": b.status.value,
            "control": b.control_side,
            "files": [f.sha256 for f in b.files],
            # Rulings T-E8, T-E9: the engagement it was fought for, why it is held (it matches
            # none), and the referee's confirmation (who and why), each null when not so.
            "engagement_id": b.engagement_id or None,
            "held": b.held or None,
            "confirmed": (
                {"referee": b.confirmed.referee, "reason": b.confirmed.reason}
                if b.confirmed is not None
                else None
            ),
            "conflicts": [c.detail for c in b.resolution.conflicts] if b.resolution else [],
            # Units of the battle (either side) imported without a BV: the shares of BV
            # destroyed that score battle VP (L417-L424) cannot be told, so the VP shown count
            # only the units that have one. Never a silent 0: the report says so.
            "units_without_bv": sorted(
                {o.unit_id for o in b.resolution.units if unit_bv(state, o.unit_id) <= 0}
                | {u for x in b.resolution.sides for u in x.units_without_bv}
            )
            if b.resolution
            else [],
            "sides": [
                _battle_side(x, res.units)
                for res in (b.resolution,)
                if res is not None
                for x in res.sides
                if not side or x.side_id == side
            ],
            "units": [
                {
                    "id": o.unit_id,
                    "side": o.side_id,
                    "fate": o.fate.value,
                    "salvaged_by": o.salvaged_by,
                    "must_withdraw": o.must_withdraw,
                    "surrenders_if_retreating": o.surrenders_if_retreating,
                    "reasons": list(o.reasons),
                    "salvage_rows": list(o.salvage_reasons),
                    "repair_rules": list(o.repair.rules),
                }
                for o in (b.resolution.units if b.resolution else ())
                if not side or o.side_id == side
            ],
            "people": [
                {
                    "id": p.person_id,
                    "side": p.side_id,
                    "hits": p.hits,
                    "fate": p.fate.value,
                    "captured_by": p.captured_by,
                    "kills": p.kills,
                    "may_train": p.may_train,
                    "death_roll": list(p.death_roll.faces) if p.death_roll else None,
                }
                for p in (b.resolution.people if b.resolution else ())
                if not side or p.side_id == side
            ],
        }
        for b in sorted(state.battles.battles.values(), key=lambda b: b.number)
    ]
    return {
        "campaign": state.name,
        "house_rules": state.house_rules,
        "tracks_completed": state.tracks_completed,
        "technicians": _workshops(state, side),
        "units": units,
        "people": people,
        "pools": pools,
        "victory_points": vp,
        "ending": ending(state),
        "strategic": overview(state, side),
        # L270 and L408: the satellites over the map, each DropShip's weekly choice and fatigue.
        "satellites": satellites(state),
        "dropships": dropships(state, side),
        "battles": battles,
        "dice": rolls,
    }


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


def run(args: argparse.Namespace) -> int:
    with opened(args.db) as app:
        runner = app.runner
        cid = campaign_id_of(app.store, args.campaign)
        state = runner.load(cid).state
        if args.side and args.side not in state.sides:
            raise CliError(f"no side {args.side!r}; sides: {', '.join(sorted(state.sides))}")
        events = list(runner.events(cid))
        rolls = [
            {"seq": seq, "event": type(e).TYPE, "name": r.name, "index": r.index,
             "faces": list(r.faces), "total": r.total}
            for seq, e in events
            for r in e.rolls
        ]  # fmt: skip
    report = build_report(state, rolls, args.side)
    # The referee's overrides, with who and why (R-WHERE-1, R-HIRE-2, R-TRAIN-3, R-RANSOM-1,
    # R-KEEP-1, R-SEAT-2, ruling R-ENGINE-4).
    report["overrides"] = overrides(state, events, args.side)
    report["house_rules_log"] = house_rules_log(events, args.side)
    if state.house_rules:
        # The house rules' options (only in such a campaign, so the report of any other keeps
        # its shape): the maintenance quality grades (L94, HOUSE-41), experience (HOUSE-36 to
        # HOUSE-39) and the open acquisition offers (HOUSE-45).
        report["house_quality"] = [
            q
            for q in house_maintenance_report.report_quality(state)
            if not args.side or state.units[q["unit"]].side_id == args.side
        ]
        report["house_experience"] = house_xp_report(state, events, args.side)
        report["house_offers"] = house_offers(state, args.side)
    if args.overview and args.json:
        # The typed overview CampaignService.GetOverview sends: whole, or a side's cut (T-V3).
        cut = overview_of(state, args.side or "")
        print_json({"campaign": state.name, "overview": to_jsonable(cut)})
        return EXIT_OK
    if args.overview and args.side:
        # A side's page: what that side may know, fog kept (ruling T-V3).
        _print_side_overview(state.name, args.side, overview_of(state, args.side))
        return EXIT_OK
    if args.json:
        print_json(report)
        return EXIT_OK
    if args.overview:
        _print_overview(report)
        return EXIT_OK
    _print(report)
    return EXIT_OK


def _hours(u: dict[str, Any]) -> str:
    """The unit's technician hours: still needed (damage not paid for) and paid, by day."""
    paid = u["repair_work"]
    days = ", ".join(f"day {w['day']} {w['hours']} h" for w in paid)
    return (
        f"{u['chassis']} {u['model']}".strip()
        + f": {u['repair']['tech_hours']} h needed; {sum(w['hours'] for w in paid)} h paid: "
        + days
        + (f"; ready day {u['repair_ready_day']}" if u["repair_ready_day"] else "")
    )


def _print_overview(report: dict[str, Any]) -> None:
    """The referee's page: the map, the WarChest, the VP total and the end conditions."""
    console = out_console()
    console.print(f"{report['campaign']}: the referee's overview", style="bold")
    _print_strategic(report["strategic"])
    _print_pools(report["pools"])
    _print_ending(report["ending"])
    e = report["ending"]
    totals = ", ".join(
        f"{x['side']} {x['total_vp']} ({x['battle_vp']} + {x['strategic_vp']})"
        if x["total_vp"] is not None
        # R-VP-6: never a plausible total over a battle whose VP are not known.
        else f"{x['side']} not known (? + {x['strategic_vp']})"
        for x in e["sides"]
    )
    # L414: "Once a force reaches 10 Victory Points the campaign is over".
    console.print(
        f"VP total (battle + strategic): {totals}; {e['vp_target']} ends the campaign (L414)",
        style="bold",
        markup=False,
    )
    for b in report["battles"]:
        _print_battle_line(b)


def _print_side_overview(campaign: str, side: str, o: Overview | None) -> None:
    """One side's page (ruling T-V3): nothing on it that side's own channels do not show."""
    console = out_console()
    console.print(f"{campaign}: {side}'s overview", style="bold", markup=False)
    if o is None:
        console.print("no strategic map yet (turn setup): no formations, control or engagements")
        return
    console.print(f"strategic map {o.map_name}, orders being written for day {o.day}")
    if o.ended:
        console.print(f"the campaign is over: {o.ended}", style="bold", markup=False)
    table = Table(title="own formations", title_justify="left")
    for col in ("formation", "name", "where", "units", "fatigue"):
        table.add_column(col)
    for f in o.formations:
        table.add_row(f.formation_id, f.name, f.where or "pirate point", str(f.units),
                      str(f.fatigue))  # fmt: skip
    console.print(table)
    seen = Table(title="enemy formations sighted", title_justify="left")
    for col in ("formation", "side", "hex", "day", "info", "units"):
        seen.add_column(col)
    for sighting in o.sightings:
        count = "?" if sighting.units is None else str(sighting.units)
        seen.add_row(sighting.formation_id, sighting.side_id, sighting.hex, str(sighting.day),
                     sighting.info, count)  # fmt: skip
    console.print(seen if o.sightings else "no enemy formation sighted")
    if o.control:
        control = "; ".join(f"{loc}: {holder}" for loc, holder in o.control)
        console.print(f"control: {control}", markup=False)
    unrest = ", ".join(f"{x} {n}" for x, n in o.unrest) or "not set"
    console.print(f"unrest: {unrest}", markup=False)
    for e in o.engagements:
        battle = f" (battle {e.battle_id})" if e.battle_id else ""
        console.print(
            f"engagement {e.engagement_id}: {e.kind} in {e.hex}, {', '.join(e.sides)}; "
            f"{e.status}{battle}; own formations {', '.join(e.formations) or 'none'}",
            markup=False,
        )
    if not o.engagements:
        console.print("no engagement of the side on the last resolved day")
    for t in o.still_together:
        own = ", ".join(f for f, _ in t.formations)
        console.print(
            f"after battle {t.battle_id} (engagement {t.engagement_id}) {own} still in hex "
            f"{t.hex} with the enemy: they meet again on day {t.next_day} (L179, L280)",
            style="yellow",
            markup=False,
        )
    if o.runways:
        hexes = ", ".join(h for _, h in o.runways)
        console.print(f"own temporary runways (L409): {hexes}", markup=False)
    _print_pools(
        [{"name": p.name, "side": p.side_id, "kind": str(p.kind), "balance": p.balance,
          "capacity": p.capacity} for p in o.pools]
    )  # fmt: skip
    for x in o.standings:
        vp = f"{x.total_vp} VP ({x.battle_vp} battle + {x.strategic_vp} strategic)"
        if x.battles_vp_unknown:
            vp = (
                f"VP not known ({x.strategic_vp} strategic; the VP of "
                f"{len(x.battles_vp_unknown)} battle(s) not known: units without a BV, R-VP-6)"
            )
        bv = ""
        if x.units_without_bv:
            bv = f"; BV share unknown: {x.units_without_bv} unit(s) without a BV (R-VP-3)"
        elif x.effective_bv is not None:
            bv = f"; BV {x.effective_bv} of {x.starting_bv} at the start"
        captured = "; leader captured" if x.leader_captured else ""
        console.print(f"{x.side_id}: {vp}{bv}{captured}", markup=False)
    # L414: "Once a force reaches 10 Victory Points the campaign is over".
    console.print(f"{o.vp_target} VP end the campaign (L414)", markup=False)
    if o.unknown:
        console.print(o.unknown, style="yellow", markup=False)


def _print_strategic(s: dict[str, Any] | None) -> None:
    console = out_console()
    if s is None:
        console.print("no strategic map (books only): no formations, control or engagements")
        return
    console.print(f"strategic map {s['map']}, orders being written for day {s['day']}")
    table = Table(title="formations", title_justify="left")
    for col in ("formation", "side", "where", "units", "fatigue"):
        table.add_column(col)
    for f in s["formations"]:
        table.add_row(f["id"], f["side"], f["where"], str(f["units"]), str(f["fatigue"]))
    console.print(table)
    if s["control"]:
        control = "; ".join(f"{loc}: {side}" for loc, side in s["control"].items())
        console.print(f"control: {control}", markup=False)
    unrest = ", ".join(f"{side} {n}" for side, n in s["unrest"].items()) or "not set"
    seen = ", ".join(f"{side} {n}" for side, n in s["sightings"].items()) or "none"
    console.print(f"unrest: {unrest}; formations sighted: {seen}", markup=False)
    for e in s["engagements"]:
        battle = f" (battle {e['battle']})" if e["battle"] else ""
        console.print(
            f"engagement {e['id']}: {e['kind']} in {e['hex']}, {', '.join(e['sides'])}; "
            f"{e['status']}{battle}",
            markup=False,
        )
    if not s["engagements"]:
        console.print("no engagement on the last resolved day")
    for t in s["still_together"]:
        console.print(t["next"], style="yellow", markup=False)
    for side, hexes in s["runways"].items():
        console.print(f"temporary runways of {side} (L409): {', '.join(hexes)}", markup=False)


def _print_pools(pools: list[dict[str, Any]]) -> None:
    if not pools:
        return
    table = Table(title="WarChest", title_justify="left")
    for col in ("pool", "side", "kind", "WP", "capacity"):
        table.add_column(col)
    for p in pools:
        cap = "-" if p["capacity"] is None else str(p["capacity"])
        table.add_row(p["name"], p["side"], p["kind"], str(p["balance"]), cap)
    out_console().print(table)


def _print_battle_line(b: dict[str, Any]) -> None:
    console = out_console()
    engagement = f", engagement {b['engagement_id']}" if b["engagement_id"] else ""
    console.print(
        f"battle {b['id']} (#{b['number']}): {b['status']}, control {b['control'] or '-'}, "
        f"{len(b['files'])} file(s){engagement}",
        markup=False,
    )
    if b["held"]:
        console.print(f"  held until the referee confirms it: {b['held']}", markup=False)
    if b["confirmed"]:
        c = b["confirmed"]
        console.print(f"  confirmed by the referee {c['referee']}: {c['reason']}", markup=False)
    if b["units_without_bv"]:
        console.print(
            f"  VP not known: {len(b['units_without_bv'])} unit(s) of this battle have no BV, "
            "so the shares of BV destroyed (L419-L424) cannot be told and no side's VP for it "
            "are counted (R-VP-6); record each unit's BV: mekref battle bv --unit ID --bv N "
            "--referee NAME --reason TEXT",
            style="yellow",
            markup=False,
        )


def _print(report: dict[str, Any]) -> None:
    console = out_console()
    console.print(
        f"{report['campaign']}  tracks completed: {report['tracks_completed']}", style="bold"
    )
    if report["house_rules"]:
        console.print(
            "house rules: on (options of this campaign: 'mekref battle pre-damage', lines "
            "134-152; 'mekref battle morale', lines 105-133; 'mekref turn maintenance-check', "
            "line 94; 'mekref spend xp', lines 104, 153-154; 'mekref spend acquire', lines "
            "171-219)"
        )
        for q in report.get("house_quality", ()):
            console.print(
                f"  maintenance quality of {q['unit'][:8]}: {q['grade']} ({q['checks']} "
                f"check(s), last after the maintenance of day {q['last_day']})"
            )
        for h in report.get("house_rules_log", ()):
            if h["what"] == "acquisition":
                console.print("  acquisition: " + "; ".join(h["lines"]))
                continue
            console.print(f"  {h['what']} of {h['unit'][:8]}: " + "; ".join(h["lines"]))
        if "house_experience" in report:
            print_house_xp(console, report["house_experience"])
        for o in report.get("house_offers", ()):
            bids = ", ".join(
                f"bid {b['bid']} {float(Fraction(b['wp_per_ton'])):g} WP/t ({b['percent']:+d}%)"
                for b in o["bids"]
            )
            console.print(
                f"  open offer: {o['side']} at pool {o['pool']}: {o['tons']} t of {o['item']} "
                f"({o['availability']}): {bids} (buy with 'mekref spend rearm --bid')"
            )
    units = Table(title="units", title_justify="left")
    for col in ("id", "unit", "side", "fate", "armor", "internal", "rearm", "total SP", "hours"):
        units.add_column(col, overflow="fold")
    unpriced = False
    for u in report["units"]:
        r = u["repair"]
        priced = u["repair_priced"]
        unpriced = unpriced or not priced
        units.add_row(
            u["id"][:8],
            f"{u['chassis']} {u['model']}".strip(),
            u["side"],
            u["fate"].replace("_", " "),
            str(r["armor_sp"]) if priced else "?",
            ("irreparable" if not r["repairable"] else str(r["internal_sp"]) if priced else "?"),
            str(r["rearm_sp"]),
            str(r["total_sp"]) if priced else "?",
            str(r["tech_hours"])
            + (f" (ready day {u['repair_ready_day']})" if u["repair_ready_day"] else ""),
        )
    console.print(units)
    for u in report["units"]:
        d = u["damage"]
        if d["locations"] or d["slots"] or d["destroyed_locations"]:
            # What the bill prices and the next export writes (battle or rolled damage, T-DM1).
            console.print(
                f"damage of {u['id'][:8]} {u['chassis']} {u['model']}: {_damage_text(u['damage'])}"
            )
        if u["repair_work"]:
            console.print(_hours(u), markup=False)
        if u["repair_waits"]:
            console.print(f"  {u['chassis']} {u['model']}: {u['repair_waits']}", markup=False)
    for w in report["technicians"]:
        console.print(
            f"technicians of {w['side']} in hex {w['hex']}: {w['technicians']} x 6 h = "
            f"{w['hours_per_day']} h a day; booked through day {w['last_day']} ({w['hours']} h "
            "that day); work that does not fit waits for the next day (L64)"
        )
    if unpriced:
        console.print(
            "? = no design known for the unit, so armor and structure cannot be priced: "
            "record designs with 'mekref force designs --units-dir DIR' (MegaMek's "
            "data/mekfiles) before the next battle; damage already read without one is the "
            "referee's to settle ('mekref battle fate')",
            style="dim",
        )
    people = Table(title="people", title_justify="left")
    for col in ("id", "name", "side", "hits", "status", "heal SP", "kills"):
        people.add_column(col, overflow="fold")
    for p in report["people"]:
        heal = p["heal_cost_sp"]
        people.add_row(
            p["id"][:8],
            p["name"],
            p["side"],
            str(p["hits"]),
            p["status"],
            "-" if heal is None else str(heal),
            str(p["kills"]) + (" (may train)" if p["may_train"] else ""),
        )
    console.print(people)
    _print_pools(report["pools"])
    if report["strategic"] is not None:
        _print_strategic(report["strategic"])
    if report["dropships"]:
        console.print("DropShips (L408: hot standby or power down, each week)", style="bold")
        print_dropships(report["dropships"])
    for sat in report["satellites"]:
        alive = "monitoring" if sat["monitoring"] else f"destroyed on day {sat['destroyed_day']}"
        console.print(
            f"satellite {sat['id']} ({sat['owner']}): {sat['orbit']} over {sat['hex']}, {alive}"
        )
    _print_ending(report["ending"])
    for b in report["battles"]:
        _print_battle_line(b)
        for x in b["sides"]:
            awards = "; ".join(x["awards"]) or "no VP row"
            retires = ", retires (at or below half its starting BV)" if x["retires"] else ""
            # R-VP-6: a figure not known is shown as "?", never as a plausible 0.
            lost = "?" if x["destroyed_bv"] is None else x["destroyed_bv"]
            start = "?" if x["starting_bv"] is None else x["starting_bv"]
            vp = "not known" if x["vp"] is None else f"{x['vp']:+d}"
            console.print(f"  {x['side']}: lost {lost} of {start} BV, VP {vp} ({awards}){retires}")
        for c in b["conflicts"]:
            console.print(f"  conflict: {c}", style="yellow")
    for o in report.get("overrides", ()):
        console.print(
            f"override #{o['seq']} {o['event']} ({o['side'] or 'campaign'}): by {o['referee']}, "
            f"because {o['reason']}",
            markup=False,
        )
    if report["dice"]:
        dice = Table(title="dice", title_justify="left")
        for col in ("#", "roll", "faces", "total"):
            dice.add_column(col)
        for d in report["dice"]:
            dice.add_row(
                str(d["index"]), d["name"], " ".join(map(str, d["faces"])), str(d["total"])
            )
        console.print(dice)


def _print_ending(e: dict[str, Any]) -> None:
    console = out_console()
    table = Table(title="the end of the campaign (lines 412-414, 162)", title_justify="left")
    for col in (
        "side",
        "battle VP",
        "strategic VP",
        f"total / {e['vp_target']}",
        "BV now / at start",
        f"% (ends below {e['attrition_percent']})",
        "leader",
    ):
        table.add_column(col)  # fmt: skip
    for x in e["sides"]:
        pct = x["percent_of_start"]
        table.add_row(
            x["side"],
            "?" if x["battle_vp"] is None else str(x["battle_vp"]),
            str(x["strategic_vp"]),
            "?" if x["total_vp"] is None else str(x["total_vp"]),
            f"{x['effective_bv']} / {x['starting_bv'] if x['starting_bv'] is not None else '?'}",
            "?" if pct is None else f"{pct:.1f}%" + (" BELOW" if x["below_attrition_line"] else ""),
            "captured" if x["leader_captured"] else "free",
        )
    console.print(table)
    console.print("BV now: operational or repairable units the side holds (R-VP-3)", style="dim")
    if not e["map_started"]:
        console.print("? = the strategic map has not started: no starting BV yet", style="dim")
    for x in e["sides"]:
        if x["units_without_bv"]:
            console.print(
                f"{x['side']}: {x['units_without_bv']} unit(s) without a BV, so the end by "
                "attrition cannot be told: record each unit's BV (mekref battle bv, R-VP-6; "
                "MegaMek's unit selector shows it), or import forces with a BV table that "
                "has them (--bv-table, MegaMek's Units.txt)",
                style="yellow",
            )
    if e["unknown"]:
        console.print(f"not known: {e['unknown']}", style="yellow", markup=False)
    if e["ended"]:
        console.print(f"the campaign has ended: {e['ended']}", style="bold")
    elif e["reached"]:
        console.print(f"an end condition is reached: {e['reached']}", style="bold yellow")
    else:
        console.print("the campaign goes on: no end condition reached")
