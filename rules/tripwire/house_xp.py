"""The house rules' experience in a TripWire campaign created with ``--house-rules`` (their lines
104, 153-154): every person who survives a battle gains 1 XP, and XP buys Piloting and Gunnery
one point at a time at the group's own prices. Rulings HOUSE-36 to HOUSE-39.

The house rules price a step (:func:`~mekref.rules.house_rules.advancement.price_step`: the
group's cost, 6 more for a LAM pilot's Piloting) and say what one battle is worth
(:func:`~mekref.rules.house_rules.pilots.xp_per_battle`); this module keeps the XP in the
campaign (:class:`~mekref.rules.tripwire.house_xp_ledger.HouseExperience`) and lowers the
person's stored skill, the one the next ``engagement export`` writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mekref.adapters.megamek.unit_kinds import UnitKind as DesignKind
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_messages import BattleResolved
from mekref.rules.tripwire.battle_model import PersonFate
from mekref.rules.tripwire.campaign import Decider, Evolver
from mekref.rules.tripwire.designs import stored_design_of
from mekref.rules.tripwire.house_option import require_house_rules
from mekref.rules.tripwire.house_seam import (
    SkillCost,
    StepPrice,
    check_costs,
    load_house_tables,
    price_step,
    rank_name,
    xp_per_battle,
)
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, Person, PersonStatus
from mekref.rules.tripwire.training import Skill

#: The fates of a person who did not survive the battle (L154 "survive through").
KILLED = frozenset({PersonFate.KIA, PersonFate.DIED_OF_WOUNDS})
#: How the group enters its price list, named in every refusal that needs one.
ENTER_COSTS = (
    "'mekref spend xp-costs --file COSTS.toml' (an example: 'mekref spend xp-costs --example')"
)


def _quote(name: str) -> str:
    """``L154: '...'``: a line of the house rules' experience table, quoted from the data."""
    ref = load_house_tables().rule("experience", name).ref
    return f"L{ref.line}: '{ref.source}'"


def l154() -> str:
    return _quote("per_battle")


def l104() -> str:
    return _quote("lam")


@command_type("SetXpCosts")
@record
class SetXpCosts(Command):
    """Referee: the group's XP price of each one-point step of Piloting and Gunnery.

    The house rules print none (HOUSE-24, HOUSE-37). A later list replaces the earlier one
    whole."""

    costs: tuple[SkillCost, ...]


@command_type("SpendXp")
@record
class SpendXp(Command):
    """A person's side (or the referee): one point off ``skill``, paid in experience.

    The price is the group's (``SetXpCosts``), +6 XP for a LAM pilot's Piloting (house rules
    L104, HOUSE-39)."""

    person_id: str
    skill: Skill


@event_type("XpCostsSet")
@record
class XpCostsSet(Event):
    """The group's XP prices, checked (the whole list)."""

    costs: tuple[SkillCost, ...]


@event_type("XpGained")
@record
class XpGained(Event):
    """House rules L154: the people of one side who survived a battle, ``xp`` each."""

    side_id: str
    battle_id: str
    people: tuple[str, ...]
    xp: int


@event_type("XpSpent")
@record
class XpSpent(Event):
    """One point off a person's skill, and what it cost (the group's price + L104's)."""

    side_id: str
    person_id: str
    price: StepPrice
    xp_left: int
    rank_before: str
    rank_after: str


def refuse_without_house_rules(state: CampaignState, what: str) -> None:
    require_house_rules(state, what, l154())


# --- XP gained: after every battle resolved (L154) --------------------------------------------


def gained(state: CampaignState, events: Iterable[Event]) -> list[Event]:
    """Ruling HOUSE-36: each battle resolved by ``events`` gives every person of its resolution
    who is not killed (KIA or died of wounds) the XP of L154, one event per side. Nothing in a
    campaign without the house rules."""
    if not state.house_rules:
        return []
    out: list[Event] = []
    for event in events:
        if not isinstance(event, BattleResolved):
            continue
        by_side: dict[str, list[str]] = {}
        for p in event.resolution.people:
            if p.fate in KILLED or p.person_id not in state.people:
                continue
            by_side.setdefault(p.side_id, []).append(p.person_id)
        out += [
            XpGained(
                side_id=side,
                battle_id=event.battle_id,
                people=tuple(sorted(people)),
                xp=xp_per_battle(),
            )
            for side, people in sorted(by_side.items())
        ]
    return out


# --- the group's price list -------------------------------------------------------------------


def decide_costs(state: CampaignState, cmd: SetXpCosts, dice: Dice, _: TripWire) -> list[Event]:
    refuse_without_house_rules(state, "experience")
    return [XpCostsSet(costs=check_costs(cmd.costs))]


# --- spending ---------------------------------------------------------------------------------


def lam_pilot(state: CampaignState, person: Person) -> bool:
    """Ruling HOUSE-39: a LAM pilot (L104) is a person seated in a 'Mech whose design, as the
    campaign keeps it, is a Land-Air 'Mech. A 'Mech without a design on record is refused:
    whether its pilot pays 6 XP more is not known."""
    unit = state.units.get(person.unit_id or "")
    if unit is None or unit.kind is not UnitKind.MEK:
        return False
    stored = stored_design_of(state, unit.unit_id)
    if stored is None:
        raise Refusal(
            "design_unknown",
            f"{person.name} ({person.person_id}) pilots {unit.chassis} {unit.model} "
            f"({unit.unit_id}), whose design the campaign does not keep, so whether it is a "
            f"LAM is unknown ({l104()}): record designs with 'mekref force designs --units-dir "
            "DIR'",
        )
    return stored.kind is DesignKind.LAM


def _rank(piloting: int, gunnery: int) -> str:
    return rank_name(piloting, gunnery) or "Untrained"


def decide_spend(state: CampaignState, cmd: SpendXp, dice: Dice, _: TripWire) -> list[Event]:
    """L153: experience "may be spent on the piloting and gunnery skill"; one point per command
    at the group's price, +6 XP for a LAM pilot's Piloting (L104, HOUSE-25). Ruling HOUSE-38."""
    refuse_without_house_rules(state, "spending experience")
    person = state.people.get(cmd.person_id)
    if person is None:
        raise Refusal("unknown_person", f"no person {cmd.person_id!r}")
    if person.status is PersonStatus.DEAD:
        raise Refusal("person_dead", f"{person.name} ({person.person_id}) is dead")
    ledger = state.house_experience
    if not ledger.costs:
        raise Refusal(
            "no_xp_costs",
            "the group has entered no XP costs (the house rules print none, HOUSE-24): enter "
            f"them with {ENTER_COSTS}",
        )
    skill = Skill(cmd.skill)
    current = person.piloting if skill is Skill.PILOTING else person.gunnery
    lam = skill is Skill.PILOTING and lam_pilot(state, person)
    price = price_step(ledger.costs, skill.value, current, lam, enter_with=ENTER_COSTS)
    have = ledger.xp_of(person.person_id)
    if price.total > have:
        extra = f" + {price.lam_xp} for a LAM pilot, {l104()}" if price.lam_xp else ""
        raise Refusal(
            "not_enough_xp",
            f"{person.name} ({person.person_id}) has {have} XP; {skill.value} {price.before} -> "
            f"{price.after} costs {price.total} (the group's {price.base_xp}{extra}); XP comes "
            f"from battles survived ({l154()})",
        )
    piloting = price.after if skill is Skill.PILOTING else person.piloting
    gunnery = price.after if skill is Skill.GUNNERY else person.gunnery
    return [
        XpSpent(
            side_id=person.side_id,
            person_id=person.person_id,
            price=price,
            xp_left=have - price.total,
            rank_before=_rank(person.piloting, person.gunnery),
            rank_after=_rank(piloting, gunnery),
        )
    ]


# --- evolvers ---------------------------------------------------------------------------------


def evolve_costs(state: CampaignState, e: XpCostsSet) -> CampaignState:
    return replace(state, house_experience=replace(state.house_experience, costs=e.costs))


def evolve_gained(state: CampaignState, e: XpGained) -> CampaignState:
    ledger = state.house_experience
    xp = dict(ledger.xp)
    for pid in e.people:
        xp[pid] = xp.get(pid, 0) + e.xp
    return replace(state, house_experience=replace(ledger, xp=xp))


def evolve_spent(state: CampaignState, e: XpSpent) -> CampaignState:
    ledger = state.house_experience
    pid, price = e.person_id, e.price
    ledger = replace(
        ledger,
        xp={**ledger.xp, pid: ledger.xp_of(pid) - price.total},
        spent={**ledger.spent, pid: ledger.spent_by(pid) + price.total},
    )
    person = state.people[pid]
    if price.skill == Skill.PILOTING.value:
        person = replace(person, piloting=price.after)
    else:
        person = replace(person, gunnery=price.after)
    return replace(state, house_experience=ledger, people={**state.people, pid: person})


# --- in words ---------------------------------------------------------------------------------


def gained_lines(state: CampaignState, e: XpGained, *, balance: bool = True) -> list[str]:
    """One line per person: '+1 XP (L154)' and, with ``balance``, the XP they now have
    (``state``: the state just after the event)."""
    out = []
    for pid in e.people:
        person = state.people.get(pid)
        name = person.name if person is not None else pid
        now = f", {state.house_experience.xp_of(pid)} XP" if balance else ""
        out.append(f"{name} ({pid}): +{e.xp} XP (L154, survived battle {e.battle_id}){now}")
    return out


def spent_line(state: CampaignState, e: XpSpent) -> str:
    p = e.price
    person = state.people.get(e.person_id)
    name = person.name if person is not None else e.person_id
    lam = f" + {p.lam_xp} for a LAM pilot (L104)" if p.lam_xp else ""
    rank = (
        f"still {e.rank_after}" if e.rank_after == e.rank_before else
        f"{e.rank_before} -> {e.rank_after}"
    )  # fmt: skip
    return (
        f"{name} ({e.person_id}): {p.skill.capitalize()} {p.before} -> {p.after} for {p.total} "
        f"XP (the group's {p.base_xp}{lam}), {e.xp_left} XP left; {rank} (L158-164)"
    )


def costs_lines(costs: Iterable[SkillCost]) -> list[str]:
    return [f"{c.skill} {c.to_level + 1} -> {c.to_level}: {c.xp} XP" for c in costs]


DECIDERS: dict[type[Command], Decider] = {
    SetXpCosts: decide_costs,
    SpendXp: decide_spend,
}

EVOLVERS: dict[type[Event], Evolver] = {
    XpCostsSet: evolve_costs,
    XpGained: evolve_gained,
    XpSpent: evolve_spent,
}
