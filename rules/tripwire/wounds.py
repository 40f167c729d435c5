"""A person's wounds in a TripWire campaign: the referee sets their hits, they heal day by day,
and a person past their last hit rolls for their life (the death roll). Table entries of the
TripWire rule set, listed after :mod:`.campaign`'s in :mod:`.game`."""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.campaign import (
    L276,
    Decider,
    Evolver,
    adjust_pool,
    person_of,
    pool_of,
    status_for,
)
from mekref.rules.tripwire.commands import (
    HealPerson,
    ResolveDeathRoll,
    SetPersonHits,
)
from mekref.rules.tripwire.events import (
    DeathRollMade,
    PersonHealed,
    PersonHitsSet,
)
from mekref.rules.tripwire.ruleset import TripWire, tripwire_rules
from mekref.rules.tripwire.spending_checks import afford
from mekref.rules.tripwire.state import (
    CampaignState,
    Person,
    PersonStatus,
)
from mekref.rules.tripwire.whereabouts import Place, place_of_person, where_heals


def _decide_set_hits(
    state: CampaignState, cmd: SetPersonHits, dice: Dice, rules: TripWire
) -> list[Event]:
    person = person_of(state, cmd.person_id)
    if not 0 <= cmd.hits <= rules.kia_hits():
        raise Refusal("bad_hits", f"hits run from 0 to {rules.kia_hits()}, got {cmd.hits}")
    return [
        PersonHitsSet(
            person_id=person.person_id,
            previous_hits=person.hits,
            hits=cmd.hits,
            override=cmd.override,
            actor=cmd.actor,
        )
    ]


def _decide_heal(state: CampaignState, cmd: HealPerson, dice: Dice, rules: TripWire) -> list[Event]:
    person = person_of(state, cmd.person_id)
    if person.status is PersonStatus.DEAD:
        raise Refusal("dead", f"{person.name} is dead")
    cost = rules.heal_cost(person.hits)  # refuses 0 hits and KIA
    if rules.death_roll_due(person.hits) and not person.death_rolled:
        raise Refusal("death_roll_first", f"{person.name} must make the death roll first")
    place = place_of_person(state, person)
    day = _heal_day(state, person, place, cmd)
    pool = pool_of(state, cmd.pool_id)
    if pool.side_id != person.side_id:
        raise Refusal("other_side", "healing is paid from the person's own side's WarChest")
    # Where the person stands: the pool there (R-WHERE-2) and, for 3+ hits, a MASH unit or
    # hospital (L126, R-WHERE-3); the referee's word where the map cannot say (R-WHERE-1).
    where_heals(
        state,
        place,
        person.name,
        pool,
        cmd.note,
        needs_hospital=rules.needs_hospital(person.hits),
        at_hospital=cmd.at_hospital,
        person=person,
    )
    afford(pool, cost, "healing costs")
    return [
        PersonHealed(
            person_id=person.person_id,
            pool_id=pool.pool_id,
            hits_before=person.hits,
            hits_after=person.hits - 1,
            cost_sp=cost,
            track=state.tracks_completed,
            actor=cmd.actor,
            note=cmd.note,
            day=day,
        )
    ]


def _heal_day(
    state: CampaignState, person: Person, place: Place | None, cmd: HealPerson
) -> int | None:
    """The once-a-track limit (L123, R-HEAL-3), or once a strategic day at a hospital (L276,
    R-HEAL-4); returns the strategic day the heal is paid on (None without the map)."""
    s = state.strategic
    day = None if s is None else s.day
    if day is not None and person.healed_on_day == day:
        raise Refusal(
            "healed_today",
            f"{L276}: {person.name} was already healed on day {day}; heal again on day "
            f"{day + 1} (R-HEAL-4)",
        )
    at_hospital = (cmd.note is not None and cmd.at_hospital) or (
        place is not None and "hospital" in place.facilities
    )
    if day is not None and at_hospital:
        return day  # the hospital's daily rate replaces the once-a-track limit
    if person.healed_in_track == state.tracks_completed:
        raise Refusal(
            "healed_this_track",
            f"{person.name} was already healed this track (L123: 'Only 1 hit can be healed per "
            "Track'); at a hospital one wound heals per day (L276, R-HEAL-4)",
        )
    return day


def _decide_death_roll(
    state: CampaignState, cmd: ResolveDeathRoll, dice: Dice, rules: TripWire
) -> list[Event]:
    person = person_of(state, cmd.person_id)
    if person.status is PersonStatus.DEAD or not rules.death_roll_due(person.hits):
        raise Refusal("no_death_roll", f"{person.name} is not at the death roll's hits")
    if person.death_rolled:
        raise Refusal("no_death_roll", f"{person.name} has already made this death roll")
    roll, dies, _ = rules.roll_death(dice, person.person_id)
    return [DeathRollMade(person_id=person.person_id, dies=dies, rolls=(roll,), actor=cmd.actor)]


def _with_person(state: CampaignState, person: Person) -> CampaignState:
    return replace(state, people={**state.people, person.person_id: person})


def _evolve_hits_set(state: CampaignState, e: PersonHitsSet) -> CampaignState:
    person = state.people[e.person_id]
    return _with_person(
        state,
        replace(
            person,
            hits=e.hits,
            status=status_for(state, e.hits),
            death_rolled=person.death_rolled and e.hits == person.hits,
        ),
    )


def _evolve_healed(state: CampaignState, e: PersonHealed) -> CampaignState:
    person = state.people[e.person_id]
    state = adjust_pool(state, e.pool_id, -e.cost_sp)
    return _with_person(
        state,
        replace(
            person,
            hits=e.hits_after,
            healed_in_track=e.track,
            death_rolled=False,
            healed_on_day=e.day if e.day is not None else person.healed_on_day,
        ),
    )


def _evolve_death_roll(state: CampaignState, e: DeathRollMade) -> CampaignState:
    person = state.people[e.person_id]
    if e.dies:
        kia = tripwire_rules().kia_hits()
        return _with_person(
            state, replace(person, hits=kia, status=PersonStatus.DEAD, death_rolled=True)
        )
    return _with_person(state, replace(person, death_rolled=True))


DECIDERS: dict[type[Command], Decider] = {
    SetPersonHits: _decide_set_hits,
    HealPerson: _decide_heal,
    ResolveDeathRoll: _decide_death_roll,
}

EVOLVERS: dict[type[Event], Evolver] = {
    PersonHitsSet: _evolve_hits_set,
    PersonHealed: _evolve_healed,
    DeathRollMade: _evolve_death_roll,
}
