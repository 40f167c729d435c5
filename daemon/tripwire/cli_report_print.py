"""How ``mekref report``'s books are printed for people: the report built by
:func:`mekref.daemon.tripwire.cli_report.build_report` (what ``--json`` prints), in words."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table

from mekref.adapters.megamek.condition import CriticalResults
from mekref.daemon.cli_common import (
    out_console,
)
from mekref.daemon.tripwire.house_xp_report import print_house_xp
from mekref.daemon.tripwire.orbit_rows import print_dropships
from mekref.rules.tripwire.turn.side_overview import Overview


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


def print_overview(report: dict[str, Any]) -> None:
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


def print_side_overview(campaign: str, side: str, o: Overview | None) -> None:
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
        [{"id": p.pool_id, "name": p.name, "side": p.side_id, "kind": str(p.kind),
          "balance": p.balance, "capacity": p.capacity} for p in o.pools]
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
    # The id is what --pool takes (spend, pool link, salvage sell); the name is for reading.
    for col in ("id", "pool", "side", "kind", "WP", "capacity"):
        table.add_column(col)
    for p in pools:
        cap = "-" if p["capacity"] is None else str(p["capacity"])
        table.add_row(p["id"], p["name"], p["side"], p["kind"], str(p["balance"]), cap)
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


def print_books(report: dict[str, Any]) -> None:
    console = out_console()
    console.print(
        f"{report['campaign']}  tracks completed: {report['tracks_completed']}", style="bold"
    )
    _print_house_rules(console, report)
    _print_units(console, report)
    _print_people(console, report)
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
    _print_battles(console, report)
    _print_dice(console, report)


def _print_house_rules(console: Console, report: dict[str, Any]) -> None:
    """The house rules' part: on or off, maintenance, the log, experience, open offers."""
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


def _print_units(console: Console, report: dict[str, Any]) -> None:
    """Units with their repair bills, their damage, the technicians' days."""
    units = Table(title="units", title_justify="left")
    # The repair columns are costs in SP (force list's "armor"/"internal" are points): the unit
    # on a second header line, so the table is no wider than the words.
    priced = ("armor\nSP", "internal\nSP", "rearm\nSP", "total\nSP")
    for col in ("id", "unit", "side", "fate", *priced, "hours"):
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
        if d["locations"] or d["slots"] or d["destroyed_locations"] or d["criticals"]:
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


def _print_people(console: Console, report: dict[str, Any]) -> None:
    """People: hits, status, what healing costs, kills."""
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


def _print_battles(console: Console, report: dict[str, Any]) -> None:
    """Each battle's line and sides, then the referee's overrides."""
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
        for x in b.get("superseded", ()):
            console.print(f"  note: {x['note']}", markup=False)
    if any((x["vp"] or 0) < 0 for b in report["battles"] for x in b["sides"]):
        # Why a battle's -2 is not in the table of the end: the running total stops at 0.
        console.print("a side's VP never go below 0 (L414), so a loss of VP may count for less")
    for o in report.get("overrides", ()):
        console.print(
            f"override #{o['seq']} {o['event']} ({o['side'] or 'campaign'}): by {o['referee']}, "
            f"because {o['reason']}",
            markup=False,
        )


def _print_dice(console: Console, report: dict[str, Any]) -> None:
    """Every roll the campaign made."""
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
    hidden = False
    for x in e["sides"]:
        pct = x["percent_of_start"]
        # A unit without a BV is left out of both sums: each is then a part, not the figure.
        part = " + ?" if x["units_without_bv"] else ""
        bv = f"{x['effective_bv']}{part} / " + (
            f"{x['starting_bv']}{part}" if x["starting_bv"] is not None else "?"
        )
        if x["effective_bv"] is None:  # an enemy's, in a side's report (T-V3)
            bv, hidden = "hidden", True
        table.add_row(
            x["side"],
            "?" if x["battle_vp"] is None else str(x["battle_vp"]),
            str(x["strategic_vp"]),
            "?" if x["total_vp"] is None else str(x["total_vp"]),
            bv,
            ("hidden" if x["effective_bv"] is None else "?")
            if pct is None
            else f"{pct:.1f}%" + (" BELOW" if x["below_attrition_line"] else ""),
            "captured" if x["leader_captured"] else "free",
        )
    console.print(table)
    console.print("BV now: operational or repairable units the side holds (R-VP-3)", style="dim")
    if hidden:
        console.print(
            "hidden = an enemy's BV, its strength: not in a side's report (T-V3)", style="dim"
        )
    if not e["map_started"]:
        console.print("? = the strategic map has not started: no starting BV yet", style="dim")
    for x in e["sides"]:
        if x["units_without_bv"]:
            console.print(
                f"{x['side']}: {x['units_without_bv']} unit(s) without a BV (the '+ ?' "
                "above), so the end by attrition cannot be told: record each unit's BV "
                "(mekref battle bv, R-VP-6; "
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
    c = damage["criticals"]
    if c is not None:
        parts += CriticalResults(
            motive_damage=c["motive_damage"],
            motive_penalty=c["motive_penalty"],
            turret_lock=c["turret_lock"],
            stabilisers=tuple(c["stabilisers"]),
            vehicle=tuple(c["vehicle"].items()),
            aero=tuple(c["aero"].items()),
            dropship=tuple(c["dropship"].items()),
        ).lines()
    return "; ".join(parts) or "-"
