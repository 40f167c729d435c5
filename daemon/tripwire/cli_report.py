"""``mekref report``: the campaign's books: units and their repair bills, people, WarChest,
victory points and every die rolled."""

from __future__ import annotations

import argparse
from typing import Any

from mekref.daemon.cli_common import (
    EXIT_OK,
    add_command,
    add_db,
    campaign_id_of,
    guarded,
    opened,
    print_json,
)
from mekref.daemon.tripwire import house_maintenance_report
from mekref.daemon.tripwire.cli_campaign import require_side
from mekref.daemon.tripwire.cli_report_rows import (
    battle_side,
    damage_json,
    ending,
    fate_of,
    heal_cost,
    house_offers,
    house_rules_log,
    overrides,
    paid_work,
    person_status,
    ready_day,
    unit_identity,
    workshops,
    wp_value,
)
from mekref.daemon.tripwire.house_xp_report import house_xp_report
from mekref.daemon.tripwire.orbit_rows import dropships, satellites
from mekref.rules.codec import to_jsonable
from mekref.rules.tripwire import repair
from mekref.rules.tripwire.battle_model import Battle, UnitDamage
from mekref.rules.tripwire.battle_resolution import repair_line
from mekref.rules.tripwire.battle_supersede import superseded_note
from mekref.rules.tripwire.designs import repair_priced
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.turn.overview import overview
from mekref.rules.tripwire.turn.repair_days import work_waits
from mekref.rules.tripwire.turn.side_overview import overview_of
from mekref.rules.tripwire.turn.victory import battles_vp_unknown, unit_bv

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
    parser: argparse.ArgumentParser = add_command(
        sub, "report", help=HELP, description=HELP, epilog=EPILOG
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


def _unit_rows(state: CampaignState, side: str | None) -> list[dict[str, Any]]:
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
                **unit_identity(u),
                "bv": u.bv or None,
                "fate": fate_of(state, u.unit_id),
                "scrap_wp": wp_value(repair.scrap_value, u, damage),
                "sell_wp": wp_value(repair.sell_value, u, damage),
                "crew_hits": state.battles.crew_damage.get(u.unit_id, 0),
                "damage": damage_json(damage),
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
                "repair_ready_day": ready_day(state, u.unit_id),
                # The hours paid for, by technician day (the repair's tech_hours above are
                # the hours the damage not yet paid for still needs).
                "repair_work": paid_work(state, u.unit_id),
                # Why the work booked for the day being ordered waits as the orders stand:
                # only a formation taking the repair action works it (R-WHERE-6); None when
                # it runs or none is booked for that day.
                "repair_waits": work_waits(state, u.unit_id),
            }
        )
    return units


def _people_rows(state: CampaignState, side: str | None) -> list[dict[str, Any]]:
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
    return people


def _pool_rows(state: CampaignState, side: str | None) -> list[dict[str, Any]]:
    return [
        {"id": p.pool_id, "side": p.side_id, "name": p.name, "kind": p.kind.value,
         "balance": p.balance, "capacity": p.capacity}
        for p in sorted(state.pools.values(), key=lambda p: (p.side_id, p.pool_id))
        if not side or p.side_id == side
    ]  # fmt: skip


def _battle_row(state: CampaignState, b: Battle, side: str | None) -> dict[str, Any]:
    return {
        "id": b.battle_id,
        "number": b.number,
        "status": b.status.value,
        "control": b.control_side,
        "files": [f.sha256 for f in b.files],
        # Ruling SG-7: the savegames a later save of the same game replaced (the battle is
        # resolved from the later one), each with the note the referee reads.
        "superseded": [
            {"sha256": f.sha256, "path": f.path, "note": superseded_note(b, f)}
            for f in b.files
            if f.sha256 in b.superseded
        ],
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
            battle_side(x, res.units)
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


def build_report(
    state: CampaignState, rolls: list[dict[str, Any]], side: str | None
) -> dict[str, Any]:
    """The books of the campaign as ``side`` may see them (None: the referee, everything)."""
    # R-VP-6: a side with a battle whose VP are not known has no battle VP figure (null).
    vp_unknown = battles_vp_unknown(state)
    vp = {
        s: None if s in vp_unknown else state.battles.victory_points.get(s, 0)
        for s in sorted(state.sides)
    }
    return {
        "campaign": state.name,
        "house_rules": state.house_rules,
        "tracks_completed": state.tracks_completed,
        "technicians": workshops(state, side),
        "units": _unit_rows(state, side),
        "people": _people_rows(state, side),
        "pools": _pool_rows(state, side),
        "victory_points": vp,
        "ending": ending(state, side),
        "strategic": overview(state, side),
        # L270 and L408: the satellites over the map, each DropShip's weekly choice and fatigue.
        "satellites": satellites(state),
        "dropships": dropships(state, side),
        "battles": [
            _battle_row(state, b, side)
            for b in sorted(state.battles.battles.values(), key=lambda b: b.number)
        ],
        "dice": rolls,
    }


def run(args: argparse.Namespace) -> int:
    with opened(args.db) as app:
        runner = app.runner
        cid = campaign_id_of(app.store, args.campaign)
        state = runner.load(cid).state
        require_side(state, args.side)
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
    if args.json:
        print_json(report)
        return EXIT_OK
    # The tables' module (and rich) load when the report is printed as text, not for --json.
    from mekref.daemon.tripwire.cli_report_print import (
        print_books,
        print_overview,
        print_side_overview,
    )

    if args.overview and args.side:
        # A side's page: what that side may know, fog kept (ruling T-V3).
        print_side_overview(state.name, args.side, overview_of(state, args.side))
        return EXIT_OK
    if args.overview:
        print_overview(report)
        return EXIT_OK
    print_books(report)
    return EXIT_OK
