"""TripWire "Force Construction": check a side's force and list every violation.

The check never stops at the first problem: a referee reviewing an import wants the whole list,
each with the company, lance, unit and the rule line it breaks. The battalion's companies and
the commanders' abilities (L8-L9, L27-L34) are in ``force_battalion``, transport (L49) in
``force_transport``.
"""

from __future__ import annotations

from collections.abc import Iterable

from mekref.rules.tripwire.force_battalion import abilities, battalion, unit_level
from mekref.rules.tripwire.force_bv import GIVE_BV_AT_IMPORT, count_bv, no_bv_text, over_text
from mekref.rules.tripwire.force_report import ForceReport, Violation
from mekref.rules.tripwire.force_transport import transport
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    ForceDescription,
    ForceUnit,
    InfantryMotive,
    Lance,
    UnitKind,
    UnitRole,
)
from mekref.rules.tripwire.skills import anti_mech_skill, level_rank
from mekref.rules.tripwire.table_loader import Limit, TripWireTables, load_tables


def check_force(force: ForceDescription, tables: TripWireTables | None = None) -> ForceReport:
    t = tables or load_tables()
    found: list[Violation] = list(battalion(force, t))
    for company in force.companies:
        if company.role is CompanyRole.MEK_COMPANY:
            found.extend(_mek_company(company, t))
        elif company.role is CompanyRole.MILITIA:
            found.extend(_militia(company, t))
        else:
            found.extend(_support_company(company, t))
        found.extend(_common(company, t))
        found.extend(abilities(company, t))
    found.extend(transport(force, t))
    return ForceReport(violations=tuple(found), not_known=bv_not_known(force, t))


def _v(
    limit: Limit,
    rule: str,
    message: str,
    company: Company,
    lance: Lance | None = None,
    unit: ForceUnit | None = None,
) -> Violation:
    return Violation(
        rule=rule,
        message=message,
        company=company.name,
        lance=lance.name if lance else None,
        unit_id=unit.unit_id if unit else None,
        source=limit.ref,
    )


def _is_leader(unit: ForceUnit) -> bool:
    return unit.has(UnitRole.FORCE_COMMANDER) or unit.has(UnitRole.LANCE_LEADER)


def _fighters_only(lance: Lance) -> bool:
    return bool(lance.units) and all(u.kind is UnitKind.AEROSPACE_FIGHTER for u in lance.units)


def _label(unit: ForceUnit) -> str:
    return f"{unit.chassis} {unit.model}".strip() + f" ({unit.unit_id[:8]})"


def _bv_limit(company: Company, t: TripWireTables) -> tuple[Limit, str] | None:
    """The company's BV limit (L10, L15); the L162 militia has none (R-FORCE-10)."""
    if company.role is CompanyRole.MILITIA:
        return None
    key = "mek_company.bv" if company.role is CompanyRole.MEK_COMPANY else "support_company.bv"
    return t.force[key], key


def _company_bv(company: Company, t: TripWireTables) -> Iterable[Violation]:
    """The company within its BV limit, a violation only when the known BVs alone exceed it
    (ruling R-FORCE-14); a DropShip listed in the TO&E spends none (R-FORCE-3)."""
    found = _bv_limit(company, t)
    if found is None:
        return
    limit, key = found
    count = count_bv((_label(u), u.kind, u.bv) for u in company.units)
    if count.over(limit.int("max")):
        yield _v(limit, key, over_text(count, limit.int("max"), limit.ref.line), company)


def bv_not_known(force: ForceDescription, t: TripWireTables) -> tuple[Violation, ...]:
    """The BV limits whose verdict is not known: a unit of the company has no BV and the
    known BVs alone do not exceed the limit (ruling R-FORCE-14). Never "no violation"."""
    out = []
    for company in force.companies:
        found = _bv_limit(company, t)
        if found is None:
            continue
        limit, key = found
        count = count_bv((_label(u), u.kind, u.bv) for u in company.units)
        if count.unknown(limit.int("max")):
            text = no_bv_text(count, limit.int("max"), limit.ref.line, GIVE_BV_AT_IMPORT)
            out.append(_v(limit, key, text, company))
    return tuple(out)


def _leaders(company: Company, t: TripWireTables) -> Iterable[Violation]:
    """Every lance has one leader: the Force Commander (command lance) or a Veteran Lieutenant.

    Ruling R-FORCE-2: a group of aerospace fighters is a flight, not a lance, and needs no
    Lieutenant. The Lieutenant "must be Veteran": exactly Veteran, since ordinary pilots are
    capped at Veteran and only the Force Commander may be better.
    """
    limit = t.force["lance_leader"]
    want = limit.text("level")
    commanders = [u for u in company.units if u.has(UnitRole.FORCE_COMMANDER)]
    if len(commanders) != 1:
        yield _v(
            t.force[
                "mek_company.commander"
                if company.role is CompanyRole.MEK_COMPANY
                else "support_company.levels"
            ],
            "force_commander",
            f"a company has exactly one Force Commander; found {len(commanders)}",
            company,
        )
    for lance in company.lances:
        # Ruling R-FORCE-3: a DropShip in the TO&E is ignored; a lance of DropShips only is
        # no lance and needs no Lieutenant.
        crews = [u for u in lance.units if u.kind is not UnitKind.DROPSHIP]
        if not crews or _fighters_only(lance):
            continue
        leaders = [u for u in crews if _is_leader(u)]
        if len(leaders) != 1:
            yield _v(
                limit,
                "lance_leader",
                f"each lance is led by one Lieutenant (or the Force Commander); "
                f"found {len(leaders)}",
                company,
                lance,
            )
        for unit in leaders:
            if unit.has(UnitRole.FORCE_COMMANDER):
                continue
            level = unit_level(unit, t)
            if level != want:
                yield _v(
                    limit,
                    "lance_leader",
                    f"the Lieutenant must be {want}; is {level or 'without crew'}",
                    company,
                    lance,
                    unit,
                )


def _commander_level(
    company: Company, limit: Limit, allowed: tuple[str, ...], t: TripWireTables
) -> Iterable[Violation]:
    for lance in company.lances:
        for unit in lance.units:
            if not unit.has(UnitRole.FORCE_COMMANDER):
                continue
            level = unit_level(unit, t)
            if level not in allowed:
                yield _v(
                    limit,
                    "force_commander",
                    f"the Force Commander must be {' to '.join((allowed[0], allowed[-1]))}; "
                    f"is {level or 'without crew'}",
                    company,
                    lance,
                    unit,
                )


def _mek_company(company: Company, t: TripWireTables) -> Iterable[Violation]:
    f = t.force
    yield from _company_bv(company, t)
    counts = f["mek_company.counts"]
    meks = [u for u in company.units if u.kind is UnitKind.MEK]
    compact = sum(1 for u in meks if u.has(UnitRole.COMPACT))
    want_meks = counts.int("meks")
    # Ruling R-FORCE-1: "exactly 12 ... (additional BattleMechs may be taken if they have the
    # compact quirk)": at least 12, and every 'Mech over 12 must be matched by a compact 'Mech.
    if len(meks) < want_meks or len(meks) - want_meks > compact:
        yield _v(
            counts,
            "mek_company.counts",
            f"{len(meks)} 'Mechs ({compact} compact); exactly {want_meks} are required, "
            "more only with the compact quirk",
            company,
        )
    fighters = sum(1 for u in company.units if u.kind is UnitKind.AEROSPACE_FIGHTER)
    if fighters != counts.int("fighters"):
        yield _v(
            counts,
            "mek_company.counts",
            f"{fighters} aerospace fighters; exactly {counts.int('fighters')} are required",
            company,
        )
    mek_lances = sum(
        1 for lance in company.lances if any(u.kind is UnitKind.MEK for u in lance.units)
    )
    lances = f["mek_company.lances"]
    if mek_lances != lances.int("count"):
        yield _v(
            lances,
            "mek_company.lances",
            f"{mek_lances} lances of 'Mechs; the Union carries {lances.int('count')}",
            company,
        )
    for lance in company.lances:
        for unit in lance.units:
            if unit.kind not in (UnitKind.MEK, UnitKind.AEROSPACE_FIGHTER, UnitKind.DROPSHIP):
                # Ruling R-FORCE-3: Alpha and Bravo are 'Mechs and fighters only.
                yield _v(
                    lances,
                    "mek_company.unit_kind",
                    f"a {unit.kind.value} cannot serve in a 'Mech company",
                    company,
                    lance,
                    unit,
                )
    commander = f["mek_company.commander"]
    low, high = (
        level_rank(commander.text("min_level"), t),
        level_rank(commander.text("max_level"), t),
    )
    allowed = tuple(r.name for r in t.training_levels if low <= r.rank <= high)
    yield from _commander_level(company, commander, allowed, t)
    yield from _leaders(company, t)
    yield from _mek_pilots(company, t)


def _mek_pilots(company: Company, t: TripWireTables) -> Iterable[Violation]:
    """A 'Mech company's pilots: Veteran or Regular, one Green or Very Green in a lance."""
    f = t.force
    pilots = f["mek_company.pilots"]
    green = f["mek_company.green"]
    for lance in company.lances:
        greens = 0
        for unit in lance.units:
            if _is_leader(unit) or unit.kind is UnitKind.DROPSHIP:
                continue
            level = unit_level(unit, t)
            if level in green.texts("levels"):
                greens += 1
                if greens > green.int("max_per_lance") and not _fighters_only(lance):
                    yield _v(
                        green,
                        "mek_company.green",
                        f"a second Green/Very Green pilot in the lance ({level})",
                        company,
                        lance,
                        unit,
                    )
            elif level not in pilots.texts("levels"):
                yield _v(
                    pilots,
                    "mek_company.pilots",
                    f"pilots may be Veteran or Regular (one Green/Very Green per lance); "
                    f"is {level or 'without crew'}",
                    company,
                    lance,
                    unit,
                )


def _support_infantry(company: Company, t: TripWireTables) -> Iterable[Violation]:
    """The support company's infantry: platoons or one battle armor squad, within the limits."""
    f = t.force
    infantry = f["support_company.infantry"]
    platoons = [
        u
        for u in company.units
        if u.kind is UnitKind.CONVENTIONAL_INFANTRY
        and u.infantry_motive is not InfantryMotive.MECHANISED
    ]
    squads = [u for u in company.units if u.kind is UnitKind.BATTLE_ARMOR]
    if len(platoons) > infantry.int("max_platoons"):
        yield _v(
            infantry,
            "support_company.infantry",
            f"{len(platoons)} infantry platoons; at most {infantry.int('max_platoons')}",
            company,
        )
    if len(squads) > infantry.int("max_battle_armor_squads"):
        yield _v(
            infantry,
            "support_company.infantry",
            f"{len(squads)} battle armor squads; at most {infantry.int('max_battle_armor_squads')}",
            company,
        )
    if squads and platoons:
        # Ruling R-FORCE-4: "up to 8 Infantry Platoons ..., or a BattleArmor Squad": either.
        yield _v(
            infantry,
            "support_company.infantry",
            "the Gazelle houses infantry platoons or a battle armor squad, not both",
            company,
        )
    for squad in squads:
        if squad.troopers > infantry.int("battle_armor_suits"):
            yield _v(
                infantry,
                "support_company.infantry",
                f"a battle armor squad of {squad.troopers}; the squad is of "
                f"{infantry.int('battle_armor_suits')}",
                company,
                unit=squad,
            )


def _support_company(company: Company, t: TripWireTables) -> Iterable[Violation]:
    f = t.force
    yield from _company_bv(company, t)
    vehicles_limit = f["support_company.vehicles"]
    # "A heavy vehicle bay also house a Mechanised Platoon": mechanised platoons use a bay.
    vehicle_like = [
        u
        for u in company.units
        if u.kind.is_vehicle
        or (
            u.kind is UnitKind.CONVENTIONAL_INFANTRY
            and u.infantry_motive is InfantryMotive.MECHANISED
        )
    ]
    if len(vehicle_like) > vehicles_limit.int("max"):
        yield _v(
            vehicles_limit,
            "support_company.vehicles",
            f"{len(vehicle_like)} vehicles (mechanised platoons included); "
            f"at most {vehicles_limit.int('max')}",
            company,
        )
    yield from _support_infantry(company, t)
    levels = f["support_company.levels"]
    for lance in company.lances:
        for unit in lance.units:
            if unit.kind in (UnitKind.MEK, UnitKind.AEROSPACE_FIGHTER):
                yield _v(
                    levels,
                    "support_company.unit_kind",
                    f"a {unit.kind.value} cannot serve in the support company",
                    company,
                    lance,
                    unit,
                )
            if unit.kind is UnitKind.DROPSHIP or _is_leader(unit):
                continue
            level = unit_level(unit, t)
            if level not in levels.texts("levels"):
                yield _v(
                    levels,
                    "support_company.levels",
                    f"support units may be {', '.join(levels.texts('levels'))}; "
                    f"is {level or 'without crew'}",
                    company,
                    lance,
                    unit,
                )
    yield from _commander_level(company, levels, levels.texts("commander_levels"), t)
    yield from _leaders(company, t)


#: The rows of the L162 militia, in the order the line names them.
_MILITIA_ROWS = ("militia.manticore", "militia.maxim", "militia.rifles")


def _matches(unit: ForceUnit, row: Limit) -> bool:
    """A unit fills a militia row by its chassis and, where the row gives one, its model."""
    if unit.chassis.strip().casefold() != row.text("chassis").casefold():
        return False
    model = row.values.get("model")
    return model is None or unit.model.strip().casefold() == str(model).casefold()


def _militia(company: Company, t: TripWireTables) -> Iterable[Violation]:
    """The planetary militia of L162, exactly (ruling R-FORCE-10).

    "2 Manticore Tanks (G4 P5). 2 Maxim Heavy Hover APC's (G4 P5). 2 Platoons of Foot Rifle
    Infantry": each row by chassis (the line names no variant), the vehicles crewed at Gunnery 4
    Piloting 5. "Each leader can be escorted by a platoon of infantry or a squad of BattleArmor":
    the escort is one of the two platoons, or one battle armor squad beside them. The battalion's
    rules (commanders, Lieutenants, BV) are not the militia's.
    """
    f = t.force
    placed: set[str] = set()
    for key in _MILITIA_ROWS:
        row = f[key]
        units = [u for u in company.units if _matches(u, row)]
        placed |= {u.unit_id for u in units}
        name = f"{row.text('chassis')} {row.values.get('model', '')}".strip()
        if len(units) != row.int("count"):
            yield _v(row, "militia.count",
                     f"{len(units)} {name}; the militia has exactly {row.int('count')}",
                     company)  # fmt: skip
        if "gunnery" not in row.values:
            continue
        want = (row.int("gunnery"), row.int("piloting"))
        for unit in units:
            seat = unit.crew[0] if unit.crew else None
            if seat is None or (seat.gunnery, seat.piloting) != want:
                skills = f"{seat.gunnery}/{seat.piloting}" if seat else "no crew"
                yield _v(row, "militia.skills",
                         f"the militia's {name} is crewed at G{want[0]} P{want[1]}; is {skills}",
                         company, unit=unit)  # fmt: skip
    escort = f["militia.escort"]
    squads = 0
    for unit in company.units:
        if unit.unit_id in placed:
            continue
        if unit.kind is UnitKind.BATTLE_ARMOR and squads < escort.int("max_battle_armor_squads"):
            squads += 1
            continue
        yield _v(escort, "militia.unit",
                 f"{unit.chassis} {unit.model}".strip() + " is not of the L162 militia "
                 "(2 Manticores, 2 Maxims, 2 rifle platoons, a battle armor squad as escort)",
                 company, unit=unit)  # fmt: skip


def _common(company: Company, t: TripWireTables) -> Iterable[Violation]:
    f = t.force
    skills = f["skills"]
    for lance in company.lances:
        for unit in lance.units:
            for seat in unit.crew:
                piloting = seat.piloting
                if unit.kind.is_infantry:
                    piloting = anti_mech_skill(unit.anti_mech, seat.piloting, t)
                if abs(seat.gunnery - piloting) > skills.int("max_gap"):
                    yield _v(
                        skills,
                        "skills.max_gap",
                        f"{seat.name} {seat.gunnery}/{piloting}: gunnery and piloting "
                        f"(or anti-'Mech) differ by more than {skills.int('max_gap')}",
                        company,
                        lance,
                        unit,
                    )
    artillery = f["artillery"]
    count = sum(1 for u in company.units if u.has(UnitRole.ARTILLERY))
    if count > artillery.int("max_per_company"):
        yield _v(
            artillery,
            "artillery",
            f"{count} units with artillery weapons; at most {artillery.int('max_per_company')}",
            company,
        )
    key = (
        "mek_company.salvage"
        if company.role is CompanyRole.MEK_COMPANY
        else "support_company.salvage"
    )
    salvage = f[key]
    count = sum(1 for u in company.units if u.has(UnitRole.SALVAGE))
    if count > salvage.int("max"):
        yield _v(
            salvage,
            "salvage",
            f"{count} salvage units; at most {salvage.int('max')} in this company",
            company,
        )
