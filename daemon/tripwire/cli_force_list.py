"""``mekref force list``: every unit as the campaign keeps it, with its crew.

What the books hold for each unit: its fate, each location's armour and structure against the
design (lost locations named), damaged critical slots, every ammunition bin with the shots it
holds and its full load (TripWire line 23), and each crew member's hits. It is the condition the
report prices and the next scenario export writes: the state a unit came in with at
``force import`` until it fights, then the last battle's. After the units: the vehicles the
facilities each side holds include (L271-L273), which change hands with their site (T-SV1).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from mekref.daemon.cli_common import EXIT_OK, add_command, add_db, guarded, out_console, print_json
from mekref.daemon.tripwire.cli_campaign import side_campaign_state
from mekref.daemon.tripwire.cli_report_rows import location_json, unit_identity
from mekref.rules.tripwire.battle_model import AmmoBinLoad, Fate, UnitDamage
from mekref.rules.tripwire.repair import LocationDamage
from mekref.rules.tripwire.state import CampaignState, CampaignUnit
from mekref.rules.tripwire.turn.site_vehicles import NO_DESIGN, describe, site_vehicles

if TYPE_CHECKING:  # rich loads when a table is drawn, not for --json
    from rich.console import Console

EPILOG = """\
examples:
  mekref force list --db c.db
  mekref force list --db c.db --side loyalist --json
"""


def register(actions: Any) -> None:
    parser: argparse.ArgumentParser = add_command(
        actions,
        "list",
        help="every unit's condition, ammunition and crew hits as the campaign keeps them",
        description=__doc__.split("\n\n", 1)[1] if __doc__ else "",
        epilog=EPILOG,
    )
    add_db(parser)
    parser.add_argument("--side", help="one side only")
    parser.add_argument("--json", action="store_true", help="the units as JSON")
    parser.set_defaults(handler=guarded(run_list), command_name="force list")


def _bins(damage: UnitDamage | None, loadout: tuple[AmmoBinLoad, ...]) -> list[dict[str, Any]]:
    """Each bin with the shots it holds (the last record's count, else the standard load) and
    its full load (the standard load recorded at import; null when none was)."""
    full = {(b.location, b.slot, b.ammo_type): b.shots for b in loadout}
    now = (damage.ammo_bins if damage is not None else ()) or loadout
    return [
        {
            "location": b.location,
            "slot": b.slot,
            "type": b.ammo_type,
            "shots": b.shots,
            "full": full.get((b.location, b.slot, b.ammo_type)),
        }
        for b in now
    ]


def unit_row(state: CampaignState, u: CampaignUnit) -> dict[str, Any]:
    led = state.battles
    damage = led.unit_damage.get(u.unit_id)
    locations = damage.locations if damage is not None else ()
    # A condition kept without a design holds only what the file wrote, each figure taken as
    # its own maximum and a figure not written as 0: none of them is the unit's armour or
    # structure, so none is shown as if it were (null); only a location lost is known.
    measured = damage is None or damage.design_known
    return {
        **unit_identity(u),
        "fate": led.fates.get(u.unit_id, Fate.OPERATIONAL).value,
        # Without a recorded condition the unit is as its design: nothing lost.
        "condition_recorded": damage is not None,
        "design_known": u.unit_id in led.unit_designs and (damage is None or damage.design_known),
        "armor": sum(loc.armor_now for loc in locations) if measured else None,
        "armor_max": sum(loc.armor_max for loc in locations) if measured else None,
        "internal": sum(loc.internal_now for loc in locations) if measured else None,
        "internal_max": sum(loc.internal_max for loc in locations) if measured else None,
        "locations": [
            {
                **(location_json(loc) if measured else _unmeasured(loc)),
                "destroyed": loc.internal_gone,
            }
            for loc in locations
        ],
        "destroyed_locations": [loc.name for loc in locations if loc.internal_gone],
        "critical_hits": damage.critical_hits if damage is not None else 0,
        "criticals": (
            None if damage is None or damage.criticals is None else damage.criticals.as_json()
        ),
        "slots": [
            {"location": d.location, "slot": d.slot, "item": d.item, "system": d.system}
            for d in (damage.damaged_slots if damage is not None else ())
        ],
        "ammo": _bins(damage, led.loadouts.get(u.unit_id, ())),
        "crew_damage": led.crew_damage.get(u.unit_id, 0),
        "crew": [
            {
                "id": pid,
                "name": state.people[pid].name,
                "hits": state.people[pid].hits,
                "status": state.people[pid].status.value,
            }
            for pid in u.crew
            if pid in state.people
        ],
    }


def _unmeasured(loc: LocationDamage) -> dict[str, Any]:
    return {"name": loc.name, "armor": None, "armor_max": None, "internal": None,
            "internal_max": None}  # fmt: skip


def condition_text(damage: UnitDamage | None) -> str:
    """A unit's condition in one line: lost locations, damaged ones with armour and structure
    left, damaged slots, ammunition to replace. "-" when there is nothing."""
    if damage is None:
        return "-"
    parts = [f"{loc.name} lost" for loc in damage.locations if loc.internal_gone]
    parts += [
        f"{loc.name} {loc.armor_now}/{loc.armor_max} armour, "
        f"{loc.internal_now}/{loc.internal_max} structure"
        for loc in damage.locations
        if not loc.internal_gone and (loc.armor_lost or loc.internal_lost)
    ]
    if damage.damaged_slots:
        parts.append(f"{len(damage.damaged_slots)} damaged slot(s)")
    parts += [f"{float(a.tons):g} t {a.ammo_type} fired" for a in damage.ammo_used]
    alive, most = damage.troopers_alive, damage.troopers_max
    if alive is not None and most is not None and alive < most:
        parts.append(f"{alive}/{most} troopers")
    if damage.criticals is not None:
        parts += damage.criticals.lines()
    return "; ".join(parts) or "-"


def run_list(args: argparse.Namespace) -> int:
    state = side_campaign_state(args)
    units = sorted(
        (u for u in state.units.values() if not args.side or u.side_id == args.side),
        key=lambda u: (u.side_id, u.company, u.lance, u.unit_id),
    )
    rows = [unit_row(state, u) for u in units]
    if args.json:
        print_json(rows)
        return EXIT_OK
    from rich.table import Table

    console = out_console()
    if not rows:
        console.print("no units")
        print_site_vehicles(console, state, args.side)
        return EXIT_OK
    table = Table(title="units", title_justify="left")
    for column in ("id", "unit", "side", "company / lance", "fate", "armour", "structure",
                   "condition", "ammunition", "crew (hits)"):  # fmt: skip
        table.add_column(column, overflow="fold")
    unmeasured = False
    for u, r in zip(units, rows, strict=True):
        recorded = r["condition_recorded"]
        armour = f"{r['armor']}/{r['armor_max']}" if recorded else "as designed"
        structure = f"{r['internal']}/{r['internal_max']}" if recorded else "as designed"
        if recorded and r["armor"] is None:
            armour = structure = "? (no design)"
            unmeasured = True
        table.add_row(
            r["id"][:8],
            f"{r['chassis']} {r['model']}".strip(),
            r["side"],
            f"{r['company']} / {r['lance']}",
            r["fate"],
            armour,
            structure,
            condition_text(state.battles.unit_damage.get(u.unit_id)),
            ", ".join(
                f"{a['type']} {a['shots']}" + (f"/{a['full']}" if a["full"] is not None else "")
                for a in r["ammo"]
            )
            or "-",
            ", ".join(f"{c['name']} ({c['hits']})" for c in r["crew"]) or "-",
        )
    console.print(table)
    if unmeasured:
        console.print(
            "? (no design): the unit's condition was kept without its design, so its armour "
            "and structure are not known (the file writes only what changed); import its "
            "list with --units-dir to measure them",
            style="dim",
        )
    print_site_vehicles(console, state, args.side)
    return EXIT_OK


def print_site_vehicles(console: Console, state: CampaignState, side: str | None) -> None:
    """The vehicles the facilities the side holds include (L271-L273, ruling T-SV1): beside
    the units, not among them (they are part of their site, and change hands with it)."""
    if state.strategic is None:
        return
    found = [
        v
        for v in site_vehicles(state.strategic)
        if v.side_id is not None and (not side or v.side_id == side)
    ]
    if not found:
        return
    console.print("vehicles the held facilities include (L271-L273, ruling T-SV1):")
    for v in found:
        console.print(f"  {v.side_id}: {v.location} ({v.hex}): {describe(v)}")
    console.print(f"  (each: {NO_DESIGN})")
