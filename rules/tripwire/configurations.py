"""Extra configurations of omni units and battle armor, bought before the campaign (ruling
R-FORCE-13 in docs/rulings.md).

L24: "Omni-units/BattleArmour may be purchased at the start of the game with more than one
configuration". Footnote **** (L99): "Each extra configuration beyond the first costs you ... the
cost of a Reconfigure Omni-Pod or Reconfigure Battle Armor before the start of the campaign. The
BV cost for the unit is considered to be the highest BV cost of the possible configurations. It
does not cost WP to change the configurations once purchased."

A configuration is named as MegaMek's unit lists name it: the model of the unit's chassis (the
``Mad Cat (Timber Wolf)`` ``Prime`` bought with its ``A``). Buying one is refused once the
campaign has started (a battle, or a strategic day resolved); the price is the Reconfigure row
(tonnage/4 with the technology multiplier, L91, L93-L94; battle armor 0, L92), paid from a pool
of the unit's side; no technician hours are booked (the configuration is bought, not fitted:
the unit keeps the one it was imported in). The side's force is checked again with each unit
counted at its highest configuration's BV; every violation quotes its line, and one is accepted
only on the referee's word, recorded in the side's force check as at ``force import``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import repair
from mekref.rules.tripwire.battle_model import BattleLedger
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.force_bv import GIVE_BV_AFTER_IMPORT, count_bv, no_bv_text, over_text
from mekref.rules.tripwire.force_report import Violation, violation
from mekref.rules.tripwire.holding import out_of_play
from mekref.rules.tripwire.model import CompanyRole, UnitKind, UnitRole
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.spending_checks import _pay, _paying_pool
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, ForceCheckRecord
from mekref.rules.tripwire.toe import company_role


@command_type("BuyConfiguration")
@record
class BuyConfiguration(Command):
    """Buy an omni unit's (or a battle armor squad's) extra configuration before the campaign."""

    unit_id: str
    pool_id: str
    configuration: str  # the configuration's model, as MegaMek names it ("A", "Prime")
    bv: int  # the configuration's BV (MegaMek's Units.txt)
    # Construction violations accepted on the referee's word, as `force import --unchecked`.
    accept_unchecked: RefereeNote | None = None


@event_type("ConfigurationBought")
@record
class ConfigurationBought(Event):
    unit_id: str
    pool_id: str
    configuration: str
    bv: int
    cost_sp: int
    counted_bv: int  # the BV the unit now counts in force construction: its highest (L99)
    violations: tuple[str, ...]
    accepted_unchecked: RefereeNote | None
    actor: str


def counted_bv(state: CampaignState, unit: CampaignUnit) -> int:
    """The BV force construction counts ``unit`` at: its highest configuration's (L99), read
    now: the one it was imported in (or the BV recorded for it since, RecordUnitBv) and each
    one bought. 0 while the unit has no BV of its own (then its highest is not known)."""
    own = max(unit.bv, state.battles.bv_override.get(unit.unit_id, 0))
    if own <= 0:
        return 0
    return max(own, state.battles.construction_bv.get(unit.unit_id, 0))


def started(state: CampaignState) -> str:
    """Why the campaign has started ("" while it has not): a battle, or a strategic day
    resolved (the map's orders are for day 1 until the first day is resolved)."""
    if state.battles.battles:
        return f"{len(state.battles.battles)} battle(s) fought or open"
    if state.strategic is not None and state.strategic.day > 1:
        return f"strategic day {state.strategic.day - 1} resolved"
    return ""


def _unit_violations(
    state: CampaignState, unit: CampaignUnit, rules: TripWire
) -> Iterable[Violation]:
    limit = rules.tables.force["configurations.units"]
    if unit.kind is UnitKind.BATTLE_ARMOR or UnitRole.OMNI in unit.roles:
        return
    if unit.unit_id not in state.battles.unit_designs:
        why = "whether it is an omni unit is not known: no design was recorded for it"
    else:
        why = f"its design is not an omni unit, and a {unit.kind.value} is not battle armor"
    yield violation(
        limit.ref,
        "configurations.units",
        f"{unit.chassis} {unit.model}: only omni units and battle armor have configurations; {why}",
        unit.company,
        unit.lance,
        unit.unit_id,
    )


def _company_bv(
    state: CampaignState, unit: CampaignUnit, bv: int, rules: TripWire
) -> Iterable[Violation]:
    """The unit's company within its BV (L10, L15), every unit at its highest configuration,
    counted as ``force import`` counts it (``count_bv``: a DropShip spends none, R-FORCE-3);
    while a unit has no BV the company's BV is not known (R-VP-6, R-FORCE-14): a violation
    naming them, refused unless the referee accepts it, never a partial sum."""
    members = [
        u
        for u in state.units.values()
        if (u.side_id, u.company) == (unit.side_id, unit.company)
        and not out_of_play(state, u.unit_id)
    ]
    role = company_role(u.kind for u in members)
    key = "mek_company.bv" if role is CompanyRole.MEK_COMPANY else "support_company.bv"
    limit = rules.tables.force[key]
    counted = {u.unit_id: counted_bv(state, u) for u in members}
    if counted[unit.unit_id] > 0:
        counted[unit.unit_id] = max(bv, counted[unit.unit_id])
    # Counted as ``force import`` counts it (ruling R-FORCE-14): over the limit when the known
    # BVs alone exceed it; else, while a unit has no BV, not known: refused here too, as the
    # purchase cannot be shown to fit.
    count = count_bv((u.unit_id, u.kind, counted[u.unit_id]) for u in members)
    most, line = limit.int("max"), limit.ref.line
    if count.over(most):
        text = over_text(count, most, line)
        if not count.without:
            text = (
                f"{count.known} BV spent counting each unit at its highest configuration's BV; "
                f"the limit is {most} (line {line})"
            )
        yield violation(rules.tables.force["configurations.bv"].ref, key, text, unit.company)
    elif count.without:
        text = no_bv_text(count, most, line, GIVE_BV_AFTER_IMPORT)
        yield violation(rules.tables.force["configurations.bv"].ref, key, text, unit.company)


def _decide(
    state: CampaignState, cmd: BuyConfiguration, dice: Dice, rules: TripWire
) -> list[Event]:
    unit = state.units.get(cmd.unit_id)
    if unit is None:
        raise Refusal("unknown_unit", f"no unit {cmd.unit_id!r}; see mekref report --json units")
    bv_line = rules.tables.force["configurations.bv"].ref
    why = started(state)
    if why:
        raise Refusal(
            "campaign_started",
            f"the campaign has started ({why}): extra configurations are bought before the "
            f'start of the campaign [line {bv_line.line}: "{bv_line.source}"]; since, a new '
            "configuration is fitted with mekref spend reconfigure",
        )
    name = cmd.configuration.strip()
    if not name:
        raise Refusal("no_configuration", "name the configuration (its model, e.g. 'A')")
    owned = (unit.model, *state.battles.configurations.get(unit.unit_id, ()))
    if name.casefold() in (o.casefold() for o in owned):
        raise Refusal(
            "already_owned",
            f"{unit.chassis} {unit.model} already has the configuration {name!r} (it has "
            f"{', '.join(owned)}): nothing to buy",
        )
    if cmd.bv <= 0:
        raise Refusal("bad_bv", f"a BV is a positive number (MegaMek's Units.txt), not {cmd.bv}")
    found = (*_unit_violations(state, unit, rules), *_company_bv(state, unit, cmd.bv, rules))
    described = tuple(v.describe() for v in found)
    if described and cmd.accept_unchecked is None:
        raise Refusal(
            "force_construction",
            "the configuration breaks the construction rules (a referee may accept it "
            "unchecked):\n" + "\n".join(described),
        )
    cost = repair.reconfigure_cost(unit.kind, unit.tonnage, unit.tech_base, rules.tables)
    _paying_pool(state, cmd.pool_id, unit.side_id, cost)
    return [
        ConfigurationBought(
            unit_id=unit.unit_id,
            pool_id=cmd.pool_id,
            configuration=name,
            bv=cmd.bv,
            cost_sp=cost,
            counted_bv=max(cmd.bv, counted_bv(state, unit)),
            violations=described,
            accepted_unchecked=cmd.accept_unchecked if described else None,
            actor=cmd.actor,
        )
    ]


def _highest(led: BattleLedger, e: ConfigurationBought) -> int:
    return max(led.construction_bv.get(e.unit_id, 0), e.bv)


def _evolve(state: CampaignState, e: ConfigurationBought) -> CampaignState:
    led = state.battles
    owned = (*led.configurations.get(e.unit_id, ()), e.configuration)
    led = replace(
        led,
        configurations={**led.configurations, e.unit_id: owned},
        # The highest BV of the configurations bought (the unit's own BV is read when
        # counted, ``counted_bv``, so a BV recorded later is never left behind).
        construction_bv={**led.construction_bv, e.unit_id: _highest(led, e)},
    )
    checks = state.force_checks
    if e.violations:
        side = state.units[e.unit_id].side_id
        was = checks.get(side)
        before = was.violations if was is not None else ()
        record = ForceCheckRecord(side_id=side, checked=False, violations=(*before, *e.violations))
        checks = {**checks, side: record}
    state = replace(state, battles=led, force_checks=checks)
    return _pay(state, e.pool_id, -e.cost_sp)


DECIDERS: dict[type[Command], Decider] = {BuyConfiguration: _decide}
EVOLVERS: dict[type[Event], Evolver] = {ConfigurationBought: _evolve}
