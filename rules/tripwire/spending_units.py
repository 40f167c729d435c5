"""Spending on units between tracks: repair and re-arm, reconfiguring an omni, formation changes,
selling or scrapping, combining infantry, deploying unrepaired.

Each decision names the WarChest pool that pays (or receives) and refuses with the rule when
the WP, the facility or the rules do not allow it.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import house_acquisition, repair
from mekref.rules.tripwire.armour_split import with_armor
from mekref.rules.tripwire.battle_model import Fate, UnitDamage
from mekref.rules.tripwire.battle_resolution import subject_for
from mekref.rules.tripwire.battle_spending import (
    ChangeFormation,
    CombineInfantry,
    DeployedUnrepaired,
    DeployUnrepaired,
    Disposal,
    DisposeUnit,
    FormationChanged,
    InfantryCombined,
    ReconfigureUnit,
    RepairTask,
    RepairUnit,
    UnitDisposed,
    UnitReconfigured,
    UnitRepaired,
)
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.designs import repair_priced, unpriced_why
from mekref.rules.tripwire.holding import leave_formations
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.spending_checks import (
    _pay,
    _paying_pool,
    _receiving_pool,
    _unit,
    damage_of,
)
from mekref.rules.tripwire.state import CampaignState, CampaignUnit
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables
from mekref.rules.tripwire.whereabouts import after_booking, book_work, where_unit_works


def _internal_repair(
    unit: CampaignUnit, damage: UnitDamage, bill: repair.RepairBill, t: TripWireTables
) -> tuple[int, int, UnitDamage]:
    """The cost, the technician hours and the condition after repairing the internal structure,
    the critical hits and the landing gear."""
    if unit.kind.is_infantry:
        raise Refusal("no_row", "infantry losses are replaced by hiring, not repaired")
    # Ruling R-IMP-6: motive damage, a locked turret, stabilisers and the criticals kept as
    # written are put right with the critical hits (R-REPAIR-2: no SP of their own).
    kept = damage.criticals is not None
    if not (bill.internal_sp or bill.landing_gear_sp or damage.critical_hits or kept):
        raise Refusal("nothing_to_repair", "no internal structure or critical damage")
    cost = bill.internal_sp + bill.landing_gear_sp
    hours = t.tasks["repair_internal"].hours
    after = replace(
        damage,
        critical_hits=0,
        damaged_slots=(),
        landing_gear_damaged=False,
        criticals=None,
        locations=tuple(replace(loc, internal_now=loc.internal_max) for loc in damage.locations),
    )
    return cost, hours, after


def _decide_repair(
    state: CampaignState, cmd: RepairUnit, dice: Dice, rules: TripWire
) -> list[Event]:
    t = load_tables()
    unit = _unit(state, cmd.unit_id)
    damage = damage_of(state, unit.unit_id)
    bill = repair.repair_bill(subject_for(unit, damage), t)
    bought: list[Event] = []
    if not bill.repairable:
        raise Refusal(
            "irreparable",
            f"{unit.chassis} {unit.model} is {bill.state.value} and cannot be repaired; scrap "
            "it, or have the referee correct its fate if the battle file was wrong",
            bill.rules[-1] if bill.rules else None,
        )
    if cmd.task is not RepairTask.REARM and not repair_priced(state, unit.unit_id):
        # Armor and structure are priced by tons against the design's maxima: without a
        # design a bill would read 0 SP, a plausible wrong number.
        raise Refusal("unpriced", unpriced_why(state, unit.unit_id))
    if cmd.task is RepairTask.ARMOR:
        cost, hours = bill.armor_sp, t.tasks["repair_armor"].hours
        if not cost:
            why = "no armor to restore"
            if bill.armor_deferred_sp:
                why = (
                    f"armor on {', '.join(bill.blocked_locations)} waits for the internal "
                    "structure repair"
                )
            raise Refusal(
                "nothing_to_repair", why, t.footnotes["armor_only_without_internal_damage"]
            )
        after = _armor_restored(unit, damage)
    elif cmd.task is RepairTask.INTERNAL:
        cost, hours, after = _internal_repair(unit, damage, bill, t)
    else:
        if not damage.ammo_used:
            raise Refusal("nothing_to_repair", "no ammunition to replace")
        cost, hours = bill.rearm_sp, t.tasks["reload"].hours
        # Ruling T-X3: the bins are filled to the standard load the import list recorded (line
        # 23); without one, MegaMek's own full load stands (no bins are written).
        after = replace(
            damage, ammo_used=(), ammo_bins=state.battles.loadouts.get(unit.unit_id, ())
        )
        if state.house_rules:
            # What the Ammo Dump does not stock comes from the offers found (HOUSE-44 to 47).
            house = house_acquisition.rearm(state, unit, damage, cmd.pool_id, cmd.bids, dice)
            cost, after, bought = house.cost_sp, house.after, list(house.bought)
    if cmd.bids and not bought:
        raise Refusal(
            "no_offer_to_buy",
            "--bid buys an acquisition offer, on re-arming in a campaign created with "
            "--house-rules (HOUSE-46)",
        )
    # L58, L63, L66: where the unit stands has the pool, a technician and (internal) a bay.
    place = where_unit_works(
        state,
        unit,
        _paying_pool(state, cmd.pool_id, unit.side_id, 0),
        cmd.note,
        internal=cmd.task is RepairTask.INTERNAL,
        at_repair_facility=cmd.at_repair_facility,
    )
    _paying_pool(state, cmd.pool_id, unit.side_id, cost)
    return [
        *bought,
        UnitRepaired(
            unit_id=unit.unit_id,
            pool_id=cmd.pool_id,
            task=cmd.task,
            cost_sp=cost,
            tech_hours=hours,
            damage_after=after,
            actor=cmd.actor,
            at_hex=None if place is None else place.hex,
            work_days=book_work(state, place, hours, t.technician_hours_per_day),
            note=cmd.note,
        ),
    ]


def _armor_restored(unit: CampaignUnit, damage: UnitDamage) -> UnitDamage:
    # Footnote * binds 'Mechs and vehicles only (R-COST-4): elsewhere all armor is restored.
    footnote = unit.kind is UnitKind.MEK or unit.kind.is_vehicle
    locations = tuple(
        loc if footnote and loc.internal_lost else with_armor(loc, loc.armor_max)
        for loc in damage.locations
    )
    return replace(damage, locations=locations, suits_damaged=0)


def _decide_reconfigure(
    state: CampaignState, cmd: ReconfigureUnit, dice: Dice, rules: TripWire
) -> list[Event]:
    from mekref.rules.tripwire.model import UnitRole

    unit = _unit(state, cmd.unit_id)
    if UnitRole.OMNI not in unit.roles and unit.kind is not UnitKind.BATTLE_ARMOR:
        raise Refusal("not_omni", f"{unit.chassis} {unit.model} is not an omni unit")
    if cmd.bv <= 0:
        raise Refusal("bad_bv", "the new configuration's BV must be positive")
    owned = {unit.model, *state.battles.configurations.get(unit.unit_id, ())}
    # L99: "It does not cost WP to change the configurations once purchased." A configuration
    # bought before the campaign (paid with this same command then) or since is free.
    cost = (
        0
        if cmd.configuration in owned
        else repair.reconfigure_cost(unit.kind, unit.tonnage, unit.tech_base)
    )
    # L63: "To perform repair, reload or reconfigure actions requires the presence of a
    # technician"; the pool where the unit stands pays (R-WHERE-2).
    place = where_unit_works(
        state, unit, _paying_pool(state, cmd.pool_id, unit.side_id, 0), cmd.note
    )
    _paying_pool(state, cmd.pool_id, unit.side_id, cost)
    t = load_tables()
    hours = t.tasks["reconfigure"].hours
    return [
        UnitReconfigured(
            unit_id=unit.unit_id,
            pool_id=cmd.pool_id,
            configuration=cmd.configuration,
            bv=cmd.bv,
            cost_sp=cost,
            actor=cmd.actor,
            tech_hours=hours,
            at_hex=None if place is None else place.hex,
            work_days=book_work(state, place, hours, t.technician_hours_per_day),
            note=cmd.note,
        )
    ]


def _decide_formation(
    state: CampaignState, cmd: ChangeFormation, dice: Dice, rules: TripWire
) -> list[Event]:
    if not any(u.side_id == cmd.side_id and u.lance == cmd.lance for u in state.units.values()):
        raise Refusal("unknown_lance", f"side {cmd.side_id!r} has no lance {cmd.lance!r}")
    day = -1 if state.strategic is None else state.strategic.day
    _once_a_day(state, cmd, day)
    cost = repair.formation_change_cost()
    _paying_pool(state, cmd.pool_id, cmd.side_id, cost)
    return [built_from(FormationChanged, cmd, cost_sp=cost, day=day)]


def _once_a_day(state: CampaignState, cmd: ChangeFormation, day: int) -> None:
    """L95: "Change Formation Type | 100 (Requires 1 day of training)": one paid change per
    lance and day, and none to the type it already has (R-FORM-1)."""
    last = state.battles.lance_formations.get(f"{cmd.side_id}/{cmd.lance}")
    if last is None:
        return
    last_day, formation = last
    if formation == cmd.formation:
        raise Refusal(
            "same_formation",
            f"formation: lance {cmd.lance!r} already is {formation!r} (nothing to change)",
        )
    if day >= 0 and last_day == day:
        raise Refusal(
            "already_training",
            f"lance: {cmd.lance!r} already trains for {formation!r} on day {day} "
            f'(L95: "Change Formation Type | 100 (Requires 1 day of training)"); '
            f"change it again from day {day + 1}",
        )


def _decide_dispose(
    state: CampaignState, cmd: DisposeUnit, dice: Dice, rules: TripWire
) -> list[Event]:
    unit = _unit(state, cmd.unit_id)
    if not repair_priced(state, unit.unit_id):
        # Sale and scrap values are priced by tons: without a design they would read 0 WP.
        raise Refusal("unpriced", unpriced_why(state, unit.unit_id))
    subject = subject_for(unit, damage_of(state, unit.unit_id))
    # Spent ammunition is not damage (R-SELL-1): a sale does not wait for re-arming.
    sell = cmd.how is Disposal.SELL
    wp = repair.sell_value(subject) if sell else repair.scrap_value(subject)
    if wp > 0:
        _receiving_pool(state, cmd.pool_id, unit.side_id, wp)
    else:
        _paying_pool(state, cmd.pool_id, unit.side_id, 0)
    return [
        UnitDisposed(unit_id=unit.unit_id, pool_id=cmd.pool_id, how=cmd.how, wp=wp, actor=cmd.actor)
    ]


def _decide_combine(
    state: CampaignState, cmd: CombineInfantry, dice: Dice, rules: TripWire
) -> list[Event]:
    keep, merge = _unit(state, cmd.keep_unit_id), _unit(state, cmd.merge_unit_id)
    if keep.unit_id == merge.unit_id:
        raise Refusal("same_unit", "combine two different units")
    if not keep.kind.is_infantry or keep.kind is not merge.kind or keep.chassis != merge.chassis:
        raise Refusal(
            "not_same_type", "only two infantry or battle armor units of one type combine"
        )
    if keep.side_id != merge.side_id:
        raise Refusal("other_side", "the units belong to different sides")
    a, b = damage_of(state, keep.unit_id), damage_of(state, merge.unit_id)
    full = a.troopers_max or b.troopers_max
    alive_a = a.troopers_alive if a.troopers_alive is not None else full
    alive_b = b.troopers_alive if b.troopers_alive is not None else full
    if full is None or alive_a is None or alive_b is None:
        raise Refusal("unknown_strength", "the units' trooper counts are not known")
    if alive_a >= full or alive_b >= full:
        raise Refusal("not_understrength", "both units must be understrength to combine")
    people = [state.people[p] for p in (*keep.crew[:1], *merge.crew[:1]) if p in state.people]
    if len(people) != 2:
        raise Refusal("no_crew", "both units need their commanding crew to average skills")
    # "calculate the average skill of all squads/units and round down"
    gunnery = sum(p.gunnery for p in people) // 2
    piloting = sum(p.piloting for p in people) // 2
    return [
        InfantryCombined(
            keep_unit_id=keep.unit_id,
            merge_unit_id=merge.unit_id,
            troopers=min(full, alive_a + alive_b),
            troopers_max=full,
            gunnery=gunnery,
            piloting=piloting,
            actor=cmd.actor,
        )
    ]


def _decide_deploy(
    state: CampaignState, cmd: DeployUnrepaired, dice: Dice, rules: TripWire
) -> list[Event]:
    unit = _unit(state, cmd.unit_id)
    bill = repair.repair_bill(subject_for(unit, damage_of(state, unit.unit_id)))
    if not bill.repairable:
        raise Refusal("irreparable", f"{unit.chassis} {unit.model} is {bill.state.value}")
    return [DeployedUnrepaired(unit_id=unit.unit_id, outstanding_sp=bill.total_sp, actor=cmd.actor)]


def _clean(damage: UnitDamage) -> bool:
    return not (
        damage.landing_gear_damaged
        or damage.armor_lost
        or damage.internal_lost
        or damage.critical_hits
        or damage.suits_damaged
        or damage.ammo_used
        or damage.criticals is not None
    )


def _evolve_repaired(state: CampaignState, e: UnitRepaired) -> CampaignState:
    led = state.battles
    fates = dict(led.fates)
    if fates.get(e.unit_id) in (Fate.DAMAGED, Fate.DESTROYED_REPAIRABLE, None):
        fates[e.unit_id] = Fate.OPERATIONAL if _clean(e.damage_after) else Fate.DAMAGED
    led = replace(led, unit_damage={**led.unit_damage, e.unit_id: e.damage_after}, fates=fates)
    state = _booked(state, e.unit_id, e.at_hex, e.work_days)
    return replace(_pay(state, e.pool_id, -e.cost_sp), battles=led)


def _booked(
    state: CampaignState, unit_id: str, at_hex: str | None, work: tuple[tuple[int, int], ...]
) -> CampaignState:
    """The technician days the work filled (L64, R-WHERE-4)."""
    s = state.strategic
    if s is None or at_hex is None or not work:
        return state
    key = f"{state.units[unit_id].side_id}@{at_hex}"
    ready = dict(sorted({**s.repair_ready, unit_id: work[-1][0]}.items()))
    # The unit's paid hours by day: earlier bookings still to come, then this one's.
    by_day: dict[int, int] = {}
    for day, hours in (*(w for w in s.repair_work.get(unit_id, ()) if w[0] >= s.day), *work):
        by_day[day] = by_day.get(day, 0) + hours
    paid = dict(sorted({**s.repair_work, unit_id: tuple(sorted(by_day.items()))}.items()))
    return replace(
        state,
        strategic=replace(
            s,
            workshops=after_booking(s.workshops, key, work),
            repair_ready=ready,
            repair_work=paid,
        ),
    )


def _evolve_reconfigured(state: CampaignState, e: UnitReconfigured) -> CampaignState:
    owned = state.battles.configurations.get(e.unit_id, ())
    if e.configuration not in owned:
        owned = (*owned, e.configuration)
    led = replace(
        state.battles,
        bv_override={**state.battles.bv_override, e.unit_id: e.bv},
        configurations={**state.battles.configurations, e.unit_id: owned},
    )
    state = _booked(state, e.unit_id, e.at_hex, e.work_days)
    return replace(_pay(state, e.pool_id, -e.cost_sp), battles=led)


def _evolve_formation(state: CampaignState, e: FormationChanged) -> CampaignState:
    key = f"{e.side_id}/{e.lance}"
    led = replace(
        state.battles,
        lance_formations={**state.battles.lance_formations, key: (e.day, e.formation)},
    )
    return replace(_pay(state, e.pool_id, -e.cost_sp), battles=led)


def _evolve_disposed(state: CampaignState, e: UnitDisposed) -> CampaignState:
    led = state.battles
    if e.how is Disposal.SCRAP:
        led = replace(led, scrapped=(*led.scrapped, e.unit_id))
    else:
        led = replace(led, sold=(*led.sold, e.unit_id))
    # A sold or scrapped unit leaves play, and its formation (R-VP-7).
    state = leave_formations(state, (e.unit_id,))
    return replace(_pay(state, e.pool_id, e.wp), battles=led)


def _evolve_combined(state: CampaignState, e: InfantryCombined) -> CampaignState:
    keep = state.units[e.keep_unit_id]
    led = state.battles
    damage = replace(
        led.unit_damage.get(e.keep_unit_id, UnitDamage()),
        troopers_alive=e.troopers,
        troopers_max=e.troopers_max,
    )
    people = dict(state.people)
    if keep.crew and keep.crew[0] in people:
        people[keep.crew[0]] = replace(people[keep.crew[0]], gunnery=e.gunnery, piloting=e.piloting)
    led = replace(
        led,
        unit_damage={**led.unit_damage, e.keep_unit_id: damage},
        scrapped=(*led.scrapped, e.merge_unit_id),  # the merged unit leaves the TO&E
    )
    state = leave_formations(state, (e.merge_unit_id,))
    return replace(state, people=people, battles=led)


def _evolve_deployed(state: CampaignState, e: DeployedUnrepaired) -> CampaignState:
    return state


DECIDERS: dict[type[Command], Decider] = {
    RepairUnit: _decide_repair,
    ReconfigureUnit: _decide_reconfigure,
    ChangeFormation: _decide_formation,
    DisposeUnit: _decide_dispose,
    CombineInfantry: _decide_combine,
    DeployUnrepaired: _decide_deploy,
}

EVOLVERS: dict[type[Event], Evolver] = {
    UnitRepaired: _evolve_repaired,
    UnitReconfigured: _evolve_reconfigured,
    FormationChanged: _evolve_formation,
    UnitDisposed: _evolve_disposed,
    InfantryCombined: _evolve_combined,
    DeployedUnrepaired: _evolve_deployed,
}
