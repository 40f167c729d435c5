"""``mekref force import``: a side's TO&E from a MegaMek unit list or a MekHQ campaign.

Every unit and person gets a UUID here, in the shell (an ``externalId`` the file carries is
kept, so records written from the campaign's own scenarios match by id). Companies and lances
come from MegaMek's ``<Force>`` strings, else by order (lances of four, companies of three).
BV comes from a BV table (``--bv-table``), else "no BV". The force check prints each violation
with its unit and rule; an illegal force needs ``--unchecked --referee NAME --reason TEXT``.
"""

from __future__ import annotations

import argparse
import uuid
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from mekref.adapters.megamek import unit_kinds as ak
from mekref.adapters.megamek.bv_table import BvTable
from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import DEAD_HITS, Entity, MulFile
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.daemon.cli_common import (
    EXIT_OK,
    EXIT_REFUSED,
    CliError,
    add_command,
    add_db,
    add_referee,
    campaign_id_of,
    guarded,
    opened,
    out_console,
    referee_note,
)
from mekref.daemon.tripwire import (
    cli_designs,
    cli_force_commanders,
    cli_force_configuration,
    cli_force_list,
)
from mekref.daemon.tripwire.cli_campaign import require_side, run_command
from mekref.daemon.tripwire.cli_force_input import bv_table, design_lookup, read_mul
from mekref.daemon.tripwire.cli_force_mekhq import (
    campaign_for_import,
    print_mekhq_report,
    remarks_by_position,
)
from mekref.daemon.tripwire.cli_force_output import (
    death_rolls,
    print_condition,
    print_report,
    print_units,
)
from mekref.rules.tripwire.battle_messages import RecordLoadouts
from mekref.rules.tripwire.battle_model import AmmoBinLoad
from mekref.rules.tripwire.commands import ImportForce
from mekref.rules.tripwire.designs import record_designs, rules_tech_base, suit_tons
from mekref.rules.tripwire.force_from_design import (
    anti_mech_capable,
    design_roles,
    transport_need,
)
from mekref.rules.tripwire.import_condition import (
    ConditionAtImport,
    ImportedCondition,
    RecordImportedCondition,
    condition_at_import,
)
from mekref.rules.tripwire.megamek_crew import imported_crew
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    InfantryMotive,
    Lance,
    TechBase,
    UnitKind,
    UnitRole,
)
from mekref.rules.tripwire.ruleset import tripwire_rules
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.toe import company_role

HELP = "import a side's TO&E from a MegaMek unit list (force import)"
DESCRIPTION = __doc__.split("\n\n", 1)[1] if __doc__ else ""
EPILOG = """\
examples:
  mekref force import --db c.db --side loyalists alpha.mul --units-dir ~/megamek/data/mekfiles
  mekref force commanders --db c.db                 levels, Skill Bonus and edge (L26-34)
  mekref force list --db c.db                       each unit's condition, ammunition, crew hits
  mekref force import --db c.db --side red red.mul --bv-table Units.txt
  mekref force import --db c.db --side red red.mul --unchecked --referee Ann --reason "demo game"
  mekref force import --db c.db --side loyalist loyalist.mul --bv-table Units.txt \\
      --militia "Loyalist Militia"           the list's company that is its L162 militia
  mekref force import --db c.db --side blue "Fox's Teeth.cpnx" --units-dir ~/megamek/data/mekfiles
"""

_KINDS: dict[ak.UnitKind, UnitKind] = {
    ak.UnitKind.BIPED_MEK: UnitKind.MEK,
    ak.UnitKind.QUAD_MEK: UnitKind.MEK,
    ak.UnitKind.TRIPOD_MEK: UnitKind.MEK,
    ak.UnitKind.LAM: UnitKind.MEK,
    ak.UnitKind.QUADVEE: UnitKind.MEK,
    ak.UnitKind.TANK: UnitKind.COMBAT_VEHICLE,
    ak.UnitKind.SUPERHEAVY_TANK: UnitKind.COMBAT_VEHICLE,
    ak.UnitKind.SUPPORT_TANK: UnitKind.SUPPORT_VEHICLE,
    ak.UnitKind.VTOL: UnitKind.VTOL,
    ak.UnitKind.SUPPORT_VTOL: UnitKind.SUPPORT_VEHICLE,
    ak.UnitKind.AEROSPACE_FIGHTER: UnitKind.AEROSPACE_FIGHTER,
    ak.UnitKind.CONVENTIONAL_FIGHTER: UnitKind.AEROSPACE_FIGHTER,
    ak.UnitKind.DROPSHIP: UnitKind.DROPSHIP,
    ak.UnitKind.BATTLE_ARMOR: UnitKind.BATTLE_ARMOR,
    ak.UnitKind.CONVENTIONAL_INFANTRY: UnitKind.CONVENTIONAL_INFANTRY,
}

_MOTIVES = {
    "Leg": InfantryMotive.FOOT,
    "Jump": InfantryMotive.JUMP,
    "Motorized": InfantryMotive.MOTORISED,
    "Wheeled": InfantryMotive.MECHANISED,
    "Tracked": InfantryMotive.MECHANISED,
    "Hover": InfantryMotive.MECHANISED,
}

LANCE_SIZE = 4
#: L102: "DropShip Crews are considered to have Piloting 5 Gunnery 4."
DROPSHIP_GUNNERY, DROPSHIP_PILOTING = 4, 5
LANCES_PER_COMPANY = 3


@dataclass(frozen=True)
class ImportedUnit:
    unit: ForceUnit
    company: str
    lance: str
    loadout: tuple[AmmoBinLoad, ...]
    notes: tuple[str, ...]
    design: UnitDesign | None = None
    #: The condition it came in with (damage, the standard load of unlisted bins, notes).
    condition: ConditionAtImport | None = None
    #: What the source file says of the unit beyond the table (a MekHQ crew's skills'
    #: arithmetic, injuries, abilities), one line each.
    remarks: tuple[str, ...] = ()


def rules_kind(kind: ak.UnitKind) -> UnitKind | None:
    return _KINDS.get(kind)


def _force_path(entity: Entity) -> tuple[str, str] | None:
    """``<Force>`` is ``name|id||name|id||...``: the deepest two levels are company and lance."""
    if not entity.force:
        return None
    names = [part.split("|")[0].strip() for part in entity.force.split("||") if part.strip()]
    names = [n for n in names if n]
    if not names:
        return None
    if len(names) == 1:
        return names[0], names[0]
    return names[-2], names[-1]


#: Namespace of the ids mekref derives for imported units and people (a fixed UUID).
ID_NAMESPACE = uuid.UUID("6f1d3a52-8d7e-4a47-9f0e-3c1b2a4d5e60")


def _fresh(candidate: str | None, used: set[str], taken: set[str], seed_text: str) -> str:
    """The file's externalId when it is free; else a UUID derived from the campaign seed and
    the unit's place in the list, so importing the same list into a fresh campaign with the
    same seed gives the same ids (and replaying its battles the same state hash)."""
    if candidate and candidate not in used and candidate not in taken:
        used.add(candidate)
        return candidate
    attempt = 0
    while True:
        new = str(uuid.uuid5(ID_NAMESPACE, f"{seed_text}|{attempt}"))
        if new not in used and new not in taken:
            used.add(new)
            return new
        attempt += 1


def _crew(
    e: Entity, key: str, used: set[str], taken: set[str], kind: UnitKind, notes: list[str]
) -> tuple[CrewSkills, ...]:
    """The people in the entity's seats, with the skills and hits the file gives them."""
    crew = tuple(
        CrewSkills(
            person_id=_fresh(m.external_id, used, taken, f"{key}|person|{seat}|{m.name}"),
            name=m.name,
            gunnery=m.gunnery if m.gunnery is not None else (m.gunnery_aero or 4),
            piloting=m.piloting if m.piloting is not None else (m.piloting_aero or 5),
            megamek=imported_crew(e.crew, m),
            hits=min(m.hits, DEAD_HITS),
        )
        for seat, m in enumerate(e.members)
    )
    if kind is UnitKind.DROPSHIP:
        # L102: "DropShip Crews are considered to have Piloting 5 Gunnery 4", whatever the
        # file says (their training and healing prices start there).
        if any((c.gunnery, c.piloting) != (DROPSHIP_GUNNERY, DROPSHIP_PILOTING) for c in crew):
            notes.append("crew set to Gunnery 4 / Piloting 5 (L102)")
        crew = tuple(replace(c, gunnery=DROPSHIP_GUNNERY, piloting=DROPSHIP_PILOTING)
                     for c in crew)  # fmt: skip
    return crew


def _bv(e: Entity, design: UnitDesign | None, table: BvTable | None, notes: list[str]) -> int:
    if table is None:
        notes.append("no BV (no --bv-table)")
        return 0
    found = table.bv_for_unit(e.chassis, e.model, design.mul_id if design else None)
    if found.bv is None:
        notes.append(found.reason)  # "no BV: ..." says why
        return 0
    return found.bv


NO_DESIGN = (
    "no design found: its condition is read from the file alone (armour and structure lost "
    "cannot be measured, no standard load is known) and repairs cannot be priced until one is "
    "recorded (mekref force designs --units-dir DIR)"
)


def build_units(
    mul: MulFile,
    state: CampaignState,
    design_for: DesignLookup | None,
    bv_table: BvTable | None,
    side_id: str = "",
    leaders: frozenset[int] = frozenset(),
    remarks: dict[int, tuple[str, ...]] | None = None,
) -> list[ImportedUnit]:
    """The list's units as the rule set's ``ForceUnit``s. ``leaders`` are the positions (in
    ``mul.entities``) of units the file itself names as their lance's leader (a MekHQ
    formation commander, ruling R-IMP-4); a lance with none falls back to ruling BR-8."""
    used: set[str] = set()
    taken_units, taken_people = set(state.units), set(state.people)
    out: list[ImportedUnit] = []
    entities = [(i, e) for i, e in enumerate(mul.entities) if not e.is_ejected_crew]
    recorded: set[int] = set()
    for position, (index, e) in enumerate(entities):
        key = f"{state.seed}|{side_id}|{position}|{e.chassis}|{e.model}"
        design = design_for(e) if design_for is not None else None
        cond = merge_condition(e, design)
        notes: list[str] = []
        kind = rules_kind(cond.kind)
        if kind is None:
            raise CliError(
                f"{e.display_name} (line {e.line}): a {cond.kind.value} has no TripWire row; "
                "remove it from the list"
            )
        if design is None:
            notes.append(NO_DESIGN)
        tonnage = Fraction(str(design.tonnage)) if design and design.tonnage else Fraction(0)
        if kind is UnitKind.BATTLE_ARMOR and design is not None:
            tonnage = suit_tons(design.ba_weight_class) or tonnage
        bv = _bv(e, design, bv_table, notes)
        roles: set[UnitRole] = set()
        if e.commander:
            roles.add(UnitRole.FORCE_COMMANDER)
        if design is not None:
            roles |= design_roles(design)
        crew = _crew(e, key, used, taken_people, kind, notes)
        motive = _MOTIVES.get(e.movement_mode) if kind.is_infantry else None
        anti_mech = anti_mech_capable(design, kind, motive) if kind.is_infantry else True
        if anti_mech is None:
            notes.append(
                "anti-'Mech capability unknown without a design: the file's anti-'Mech skill "
                "is used (L47)"
            )
        need, unknown = transport_need(design, kind, motive)
        path = _force_path(e)
        if path is None:
            lance_no = position // LANCE_SIZE
            path = (f"Company {lance_no // LANCES_PER_COMPANY + 1}", f"Lance {lance_no + 1}")
        unit = ForceUnit(
            unit_id=_fresh(e.external_id, used, taken_units, f"{key}|unit"),
            chassis=e.chassis,
            model=e.model,
            kind=kind,
            tonnage=tonnage,
            bv=bv,
            tech_base=rules_tech_base(design.tech_base) if design else TechBase.INNER_SPHERE,
            roles=frozenset(roles),
            crew=crew,
            infantry_motive=motive,
            anti_mech=anti_mech is not False,
            troopers=cond.troopers_max or 0,
            transport_tons=need,
            troop_capacity_tons=Fraction(str(design.troop_tons)) if design else Fraction(0),
            cargo_tons=Fraction(str(design.cargo_tons)) if design else Fraction(0),
            transport_unknown=unknown,
        )
        came = condition_at_import(cond, kind)
        said = (remarks or {}).get(index, ())
        if index in leaders:
            recorded.add(len(out))
        out.append(
            ImportedUnit(unit, path[0], path[1], came.loadout, tuple(notes), design, came, said)
        )
    return _lance_leaders(out, recorded)


def _lance_leaders(out: list[ImportedUnit], recorded: set[int]) -> list[ImportedUnit]:
    """The leaders the file records lead their lances; ruling BR-8 for every other lance:
    without ranks in the file, its first unit leads it. A DropShip leads no lance: it is
    ignored in the TO&E (ruling R-FORCE-3)."""
    led = {(out[i].company, out[i].lance) for i in recorded}
    seen: set[tuple[str, str]] = set()
    final: list[ImportedUnit] = []
    for position, item in enumerate(out):
        lance = (item.company, item.lance)
        unit = item.unit
        if unit.kind is UnitKind.DROPSHIP:
            final.append(item)
            continue
        first = lance not in seen
        seen.add(lance)
        leads = position in recorded if lance in led else first
        if leads and not unit.has(UnitRole.FORCE_COMMANDER):
            unit = replace(unit, roles=unit.roles | {UnitRole.LANCE_LEADER})
        final.append(replace(item, unit=unit))
    return final


def force_of(units: list[ImportedUnit], militia: str | None = None) -> ForceDescription:
    """The TO&E of the imported units; ``militia`` names the company that is the side's L162
    planetary militia (checked against that line, ruling R-FORCE-10)."""
    companies: dict[str, dict[str, list[ForceUnit]]] = {}
    for item in units:
        companies.setdefault(item.company, {}).setdefault(item.lance, []).append(item.unit)
    if militia is not None and militia not in companies:
        raise CliError(
            f"--militia {militia!r}: the list has no such company (it has "
            f"{', '.join(repr(c) for c in companies)}); name the company of the militia as "
            "its <Force> string does"
        )
    built = []
    for name, lances in companies.items():
        role = (
            CompanyRole.MILITIA
            if name == militia
            else company_role(u.kind for ls in lances.values() for u in ls)
        )
        built.append(
            Company(
                name=name,
                role=role,
                lances=tuple(Lance(name=ln, units=tuple(us)) for ln, us in lances.items()),
            )
        )
    return ForceDescription(companies=tuple(built))


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = add_command(sub, "force", help=HELP, epilog=EPILOG)
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    imp = add_command(
        actions,
        "import",
        help="import a side's units and crews",
        description=DESCRIPTION,
        epilog=EPILOG,
    )
    add_db(imp)
    imp.add_argument("--side", required=True, help="the side that owns the force")
    imp.add_argument(
        "file",
        type=Path,
        metavar="FORCE.mul",
        help="MegaMek unit list, or a MekHQ campaign (.cpnx, plain or gzipped): its units, "
        "their crews' skills and hits, and its TO&E as companies and lances",
    )
    imp.add_argument("--units-dir", type=Path, metavar="DIR", help="unit designs (.mtf/.blk)")
    imp.add_argument("--bv-table", type=Path, metavar="Units.txt", help="MegaMek BV export")
    imp.add_argument(
        "--unchecked",
        action="store_true",
        help="import despite construction violations (needs --referee and --reason)",
    )
    imp.add_argument(
        "--militia",
        metavar="COMPANY",
        help="the company of the list that is the side's L162 planetary militia (2 Manticores, "
        "2 Maxims, 2 rifle platoons), checked against that line instead of L9-L23",
    )
    imp.add_argument(
        "--check-only",
        action="store_true",
        help="print the report, import nothing; exits 3 when the force breaks a construction "
        "rule (as the import would refuse it), 0 otherwise (a BV limit not known included)",
    )
    add_referee(imp)
    imp.set_defaults(handler=guarded(run_import), command_name="force import")
    cli_designs.register(actions)
    cli_force_commanders.register(actions)
    cli_force_list.register(actions)
    cli_force_configuration.register(actions)


def run_import(args: argparse.Namespace) -> int:
    mul, campaign = read_mul(args.file)
    design_for = design_lookup(args.units_dir)
    mekhq = campaign_for_import(campaign, args.file, design_for) if campaign else None
    if mekhq is not None:
        mul = mekhq.mul
    assert mul is not None
    table = bv_table(args.bv_table)
    note = referee_note(args)
    if args.unchecked and note is None:
        raise CliError("--unchecked needs the referee's word: add --referee NAME --reason TEXT")
    with opened(args.db) as app:
        runner = app.runner
        cid = campaign_id_of(app.store, args.campaign)
        state = runner.load(cid).state
        require_side(state, args.side)  # before the report: --check-only included
        leaders = mekhq.command.lance_leaders if mekhq else frozenset()
        said = remarks_by_position(mekhq) if mekhq else None
        units = build_units(mul, state, design_for, table, args.side, leaders, said)
        force = force_of(units, args.militia)
        report = tripwire_rules().check_force(force)
        console = out_console()
        print_units(console, units)
        print_condition(console, units)
        if mekhq is not None:
            print_mekhq_report(console, mekhq)
        print_report(console, report)
        if args.check_only:
            # The verdict is the exit code, as the import's own (a limit not known refuses
            # neither, R-FORCE-14): 3 with violations, so a script can act on it.
            if report.violations:
                raise CliError(
                    f"check only: the force breaks {len(report.violations)} construction "
                    "rule(s), listed above; nothing imported (the import would refuse it "
                    "without --unchecked --referee NAME --reason TEXT)",
                    EXIT_REFUSED,
                )
            return EXIT_OK
        if report.violations and not args.unchecked:
            raise CliError(
                f"refused: the force breaks {len(report.violations)} construction rule(s), "
                "listed above; a referee may import it with --unchecked --referee NAME "
                "--reason TEXT",
                EXIT_REFUSED,
            )
        command = ImportForce(
            side_id=args.side,
            force=force,
            accept_unchecked=note if args.unchecked else None,
            actor=note.referee if note else "cli",
        )
        run_command(runner, cid, command)
        loads = tuple((i.unit.unit_id, i.loadout) for i in units if i.loadout)
        if loads:
            run_command(runner, cid, RecordLoadouts(side_id=args.side, loadouts=loads, actor="cli"))
        came = tuple(
            ImportedCondition(unit_id=i.unit.unit_id, damage=c.damage, crew_damage=c.crew_damage)
            for i in units
            if (c := i.condition) is not None and c.damage is not None
        )
        if came:
            recorded = RecordImportedCondition(side_id=args.side, units=came, actor="cli")
            run_command(runner, cid, recorded)
        # The campaign keeps every design it found, so battles, reports, spending and the
        # scenario export never need the units folder again.
        keep = record_designs(
            args.side, {i.unit.unit_id: i.design for i in units if i.design}, actor="cli"
        )
        if keep is not None:
            run_command(runner, cid, keep)
        death_rolls(console, runner, cid, units)
    console.print(
        f"imported {len(units)} units and {sum(len(i.unit.crew) for i in units)} people "
        f"for side {args.side}"
        + (" (unchecked, on the referee's word)" if report.violations else "")
    )
    return EXIT_OK
