"""TripWire's campaign basics: creating it, importing forces, WarChest pools, people's hits.

The deciders and evolvers here are table entries of the TripWire rule set
(:mod:`mekref.rules.tripwire.game`); the kernel runs them. Each decider also receives the
TripWire tables (:class:`~mekref.rules.tripwire.ruleset.TripWire`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import (
    CreateCampaign,
    CreditPool,
    DebitPool,
    ImportForce,
    OpenPool,
    TransferWarChest,
)
from mekref.rules.tripwire.events import (
    CampaignCreated,
    ForceImported,
    PoolCredited,
    PoolDebited,
    PoolOpened,
    WarChestTransferred,
)
from mekref.rules.tripwire.model import CrewSkills
from mekref.rules.tripwire.ruleset import TripWire, tripwire_rules
from mekref.rules.tripwire.state import (
    CampaignState,
    CampaignUnit,
    ForceCheckRecord,
    Person,
    PersonStatus,
    Pool,
    PoolKind,
    Side,
)

L276 = (
    "L276 'Hospitals are required to heal MechWarrior damage of 3 or higher and allow for 1 "
    "wound to be healed per day/Strategic Turn'"
)

# --- decisions --------------------------------------------------------------------------------


def side_of(state: CampaignState, side_id: str) -> Side:
    """The side, or a refusal naming the unknown id."""
    side = state.sides.get(side_id)
    if side is None:
        raise Refusal("unknown_side", f"no side {side_id!r} in this campaign")
    return side


def pool_of(state: CampaignState, pool_id: str) -> Pool:
    """The WarChest pool, or a refusal naming the unknown id."""
    pool = state.pools.get(pool_id)
    if pool is None:
        raise Refusal("unknown_pool", f"no WarChest pool {pool_id!r}")
    return pool


def person_of(state: CampaignState, person_id: str) -> Person:
    """The person, or a refusal naming the unknown id."""
    person = state.people.get(person_id)
    if person is None:
        raise Refusal("unknown_person", f"no person {person_id!r}")
    return person


def _positive(amount: int) -> None:
    if amount <= 0:
        raise Refusal("bad_amount", f"an amount of WP must be positive, got {amount}")


def _decide_create(
    state: CampaignState, cmd: CreateCampaign, dice: Dice, _: TripWire
) -> list[Event]:
    if state.created:
        raise Refusal("already_created", f"the campaign {state.name!r} already exists")
    if cmd.ruleset != "tripwire":
        raise Refusal(
            "unknown_ruleset",
            f"a TripWire campaign is created with ruleset 'tripwire', not {cmd.ruleset!r}",
        )
    if not cmd.name.strip():
        raise Refusal("bad_name", "a campaign needs a name")
    if not cmd.seed:
        raise Refusal("bad_seed", "a campaign needs a seed for its dice")
    ids = [s.side_id for s in cmd.sides]
    if len(ids) < 2 or len(set(ids)) != len(ids):
        raise Refusal("bad_sides", "a campaign has two or more sides with distinct ids")
    return [built_from(CampaignCreated, cmd)]


def _decide_import(
    state: CampaignState, cmd: ImportForce, dice: Dice, rules: TripWire
) -> list[Event]:
    side_of(state, cmd.side_id)
    if cmd.side_id in state.force_checks:
        raise Refusal("already_imported", f"side {cmd.side_id!r} already has a force")
    unit_ids = [u.unit_id for u in cmd.force.units]
    person_ids = [c.person_id for u in cmd.force.units for c in u.crew]
    person_ids += [p.person_id for p in cmd.spare_people]
    for kind, ids, existing in (
        ("unit", unit_ids, state.units),
        ("person", person_ids, state.people),
    ):
        if len(set(ids)) != len(ids):
            raise Refusal("duplicate_id", f"a {kind} id appears twice in the import")
        clash = sorted(set(ids) & set(existing))
        if clash:
            raise Refusal("duplicate_id", f"{kind} ids already in the campaign: {clash}")
    for c in (*(c for u in cmd.force.units for c in u.crew), *cmd.spare_people):
        if not 0 <= c.hits <= rules.kia_hits():
            raise Refusal(
                "bad_hits", f"{c.name}: hits run from 0 to {rules.kia_hits()}, got {c.hits}"
            )
    report = rules.check_force(cmd.force)
    described = tuple(v.describe() for v in report.violations)
    if described and cmd.accept_unchecked is None:
        raise Refusal(
            "force_construction",
            "the force breaks the construction rules (a referee may accept it unchecked):\n"
            + "\n".join(described),
        )
    return [
        ForceImported(
            side_id=cmd.side_id,
            force=cmd.force,
            spare_people=cmd.spare_people,
            violations=described,
            accepted_unchecked=cmd.accept_unchecked if described else None,
            actor=cmd.actor,
        )
    ]


def _decide_open_pool(
    state: CampaignState, cmd: OpenPool, dice: Dice, rules: TripWire
) -> list[Event]:
    side_of(state, cmd.side_id)
    if cmd.pool_id in state.pools:
        raise Refusal("duplicate_id", f"pool {cmd.pool_id!r} already exists")
    capacity: int | None
    if cmd.kind is PoolKind.LOCATION:
        if cmd.location is None:
            raise Refusal("bad_pool", "a location pool names its strategic location")
        stock, capacity = rules.location_wp(cmd.location), None
    elif cmd.kind is PoolKind.DROPSHIP:
        if cmd.dropship_class is None:
            raise Refusal("bad_pool", "a DropShip pool names the DropShip class")
        stock = rules.dropship_wp(cmd.dropship_class)
        capacity = stock
    else:
        if cmd.cargo_tons is None or cmd.cargo_tons <= 0:
            raise Refusal("bad_pool", "a cargo pool gives the unit's cargo tons")
        stock, capacity = 0, rules.cargo_wp_capacity(cmd.cargo_tons)
    balance = stock if cmd.opening_balance is None else cmd.opening_balance
    if balance < 0 or (capacity is not None and balance > capacity):
        raise Refusal("over_capacity", f"{balance} WP does not fit a pool of {capacity}")
    return [
        PoolOpened(
            pool_id=cmd.pool_id,
            side_id=cmd.side_id,
            name=cmd.name,
            kind=cmd.kind,
            balance=balance,
            capacity=capacity,
            actor=cmd.actor,
            location=cmd.location if cmd.kind is PoolKind.LOCATION else None,
        )
    ]


def _room(pool: Pool) -> int | None:
    return None if pool.capacity is None else pool.capacity - pool.balance


def _decide_credit(
    state: CampaignState, cmd: CreditPool, dice: Dice, rules: TripWire
) -> list[Event]:
    _positive(cmd.amount)
    pool = pool_of(state, cmd.pool_id)
    room = _room(pool)
    if room is not None and cmd.amount > room:
        raise Refusal(
            "over_capacity", f"pool {pool.name!r} has room for {room} WP, not {cmd.amount}"
        )
    return [
        PoolCredited(pool_id=pool.pool_id, amount=cmd.amount, reason=cmd.reason, actor=cmd.actor)
    ]


def _decide_debit(state: CampaignState, cmd: DebitPool, dice: Dice, rules: TripWire) -> list[Event]:
    _positive(cmd.amount)
    pool = pool_of(state, cmd.pool_id)
    if cmd.amount > pool.balance:
        raise Refusal(
            "insufficient_wp", f"pool {pool.name!r} holds {pool.balance} WP, not {cmd.amount}"
        )
    return [
        PoolDebited(pool_id=pool.pool_id, amount=cmd.amount, reason=cmd.reason, actor=cmd.actor)
    ]


def _decide_transfer(
    state: CampaignState, cmd: TransferWarChest, dice: Dice, rules: TripWire
) -> list[Event]:
    _positive(cmd.amount)
    source, target = pool_of(state, cmd.from_pool), pool_of(state, cmd.to_pool)
    if source.pool_id == target.pool_id:
        raise Refusal("same_pool", "a transfer moves WP between two different pools")
    if source.side_id != target.side_id:
        raise Refusal("other_side", "WP can only be moved between pools of the same side")
    if cmd.amount > source.balance:
        raise Refusal(
            "insufficient_wp", f"pool {source.name!r} holds {source.balance} WP, not {cmd.amount}"
        )
    room = _room(target)
    if room is not None and cmd.amount > room:
        raise Refusal(
            "over_capacity", f"pool {target.name!r} has room for {room} WP, not {cmd.amount}"
        )
    if cmd.note is None and state.strategic is not None:
        # L59: moving WP "requires a Load/Unload action" (ruling T-WP1): on the map the order
        # does it; moving them at once is the referee's word. A books-only campaign has no
        # day to take the action on: its transfers stand as the group's bookkeeping.
        raise Refusal(
            "load_unload_needed",
            "L59 'WarChest Points may be moved from one location to another, but this requires "
            "a Load/Unload action': give a load_unload order where the transport stands "
            "(mekref orders submit --order F:load_unload --param F:from=POOL --param F:to=POOL "
            "--param F:wp=N), or, as the referee, --referee NAME --reason TEXT (T-WP1)",
        )
    return [
        WarChestTransferred(
            from_pool=source.pool_id,
            to_pool=target.pool_id,
            amount=cmd.amount,
            actor=cmd.actor,
            note=cmd.note,
        )
    ]


Decider = Callable[[CampaignState, Any, Dice, TripWire], list[Event]]

DECIDERS: dict[type[Command], Decider] = {
    CreateCampaign: _decide_create,
    ImportForce: _decide_import,
    OpenPool: _decide_open_pool,
    CreditPool: _decide_credit,
    DebitPool: _decide_debit,
    TransferWarChest: _decide_transfer,
}


# --- folds ------------------------------------------------------------------------------------


def _with_pool(state: CampaignState, pool: Pool) -> CampaignState:
    return replace(state, pools={**state.pools, pool.pool_id: pool})


def _evolve_created(state: CampaignState, e: CampaignCreated) -> CampaignState:
    return replace(
        state,
        created=True,
        name=e.name,
        ruleset=e.ruleset,
        seed=e.seed,
        sides={s.side_id: Side(side_id=s.side_id, name=s.name) for s in e.sides},
        house_rules=e.house_rules,
    )


def _evolve_imported(state: CampaignState, e: ForceImported) -> CampaignState:
    units = dict(state.units)
    people = dict(state.people)
    for company in e.force.companies:
        for lance in company.lances:
            for u in lance.units:
                units[u.unit_id] = CampaignUnit(
                    unit_id=u.unit_id,
                    side_id=e.side_id,
                    chassis=u.chassis,
                    model=u.model,
                    kind=u.kind,
                    tonnage=u.tonnage,
                    bv=u.bv,
                    tech_base=u.tech_base,
                    company=company.name,
                    lance=lance.name,
                    roles=u.roles,
                    crew=tuple(c.person_id for c in u.crew),
                )
                for c in u.crew:
                    people[c.person_id] = _person(state, e.side_id, c, u.unit_id)
    for c in e.spare_people:
        people[c.person_id] = _person(state, e.side_id, c, None)
    record = ForceCheckRecord(side_id=e.side_id, checked=not e.violations, violations=e.violations)
    return replace(
        state,
        units=units,
        people=people,
        force_checks={**state.force_checks, e.side_id: record},
    )


def _person(state: CampaignState, side_id: str, c: CrewSkills, unit_id: str | None) -> Person:
    """An imported person: crewing ``unit_id``, or a spare (None)."""
    return built_from(Person, c, side_id=side_id, unit_id=unit_id, status=status_for(state, c.hits))


def _evolve_pool_opened(state: CampaignState, e: PoolOpened) -> CampaignState:
    return _with_pool(state, built_from(Pool, e))


def status_for(state: CampaignState, hits: int) -> PersonStatus:
    return PersonStatus.DEAD if hits >= tripwire_rules().kia_hits() else PersonStatus.ACTIVE


def adjust_pool(state: CampaignState, pool_id: str, delta: int) -> CampaignState:
    pool = state.pools[pool_id]
    return _with_pool(state, replace(pool, balance=pool.balance + delta))


def _evolve_credited(state: CampaignState, e: PoolCredited) -> CampaignState:
    return adjust_pool(state, e.pool_id, e.amount)


def _evolve_debited(state: CampaignState, e: PoolDebited) -> CampaignState:
    return adjust_pool(state, e.pool_id, -e.amount)


def _evolve_transferred(state: CampaignState, e: WarChestTransferred) -> CampaignState:
    return adjust_pool(adjust_pool(state, e.from_pool, -e.amount), e.to_pool, e.amount)


Evolver = Callable[[CampaignState, Any], CampaignState]

EVOLVERS: dict[type[Event], Evolver] = {
    CampaignCreated: _evolve_created,
    ForceImported: _evolve_imported,
    PoolOpened: _evolve_pool_opened,
    PoolCredited: _evolve_credited,
    PoolDebited: _evolve_debited,
    WarChestTransferred: _evolve_transferred,
}
