"""How each house-rule event changes the books (:data:`EVOLVERS`, folded by the kernel)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mekref.rules.house_rules import events as e
from mekref.rules.house_rules import table_commands
from mekref.rules.house_rules.model import HouseState, PartJob, Pilot, SupportPerson, Technician
from mekref.rules.house_rules.pilots import PilotStatus
from mekref.rules.messages import Event
from mekref.rules.records import built_from


def _pilot_changed(state: HouseState, ev: e.BattleReported) -> HouseState:
    pilots = dict(state.pilots)
    for change in ev.changes:
        pilot = pilots[change.pilot_id]
        pilots[change.pilot_id] = replace(
            pilot,
            xp=pilot.xp + change.xp_gained,
            hits=change.hits_after,
            status=change.status,
            battles=pilot.battles + (1 if change.fought else 0),
        )
    return replace(state, pilots=pilots)


def _returned(state: HouseState, ev: e.PilotReturned) -> HouseState:
    pilot = replace(state.pilots[ev.pilot_id], hits=0, status=PilotStatus.ACTIVE)
    return replace(state, pilots={**state.pilots, ev.pilot_id: pilot})


def _morale_tested(state: HouseState, ev: e.MoraleTested) -> HouseState:
    if ev.test.exempt_from_now:
        return replace(state, morale_exempt=state.morale_exempt | {ev.test.unit_id})
    return state


def _repair_attempted(state: HouseState, ev: e.RepairAttempted) -> HouseState:
    job = state.jobs.get(ev.part_id) or PartJob(part_id=ev.part_id, job=ev.job)
    job = replace(
        job,
        attempts=(*job.attempts, ev.attempt),
        marks=job.marks if ev.mark is None else (*job.marks, ev.mark),
    )
    return replace(state, jobs={**state.jobs, ev.part_id: job})


def _joined(state: HouseState, ev: e.PilotJoined) -> HouseState:
    pilot = built_from(Pilot, ev)
    return replace(state, pilots={**state.pilots, ev.pilot_id: pilot})


def _skills_set(state: HouseState, ev: e.PilotSkillsSet) -> HouseState:
    pilot = replace(state.pilots[ev.pilot_id], piloting=ev.piloting, gunnery=ev.gunnery)
    return replace(state, pilots={**state.pilots, ev.pilot_id: pilot})


def _improved(state: HouseState, ev: e.SkillImproved) -> HouseState:
    pilot = state.pilots[ev.pilot_id]
    cost = ev.base_xp + ev.lam_xp
    pilot = replace(
        pilot,
        xp=pilot.xp - cost,
        xp_spent=pilot.xp_spent + cost,
        piloting=ev.after if ev.skill == "piloting" else pilot.piloting,
        gunnery=ev.after if ev.skill == "gunnery" else pilot.gunnery,
    )
    return replace(state, pilots={**state.pilots, ev.pilot_id: pilot})


def _tech_joined(state: HouseState, ev: e.TechnicianJoined) -> HouseState:
    tech = Technician(tech_id=ev.tech_id, name=ev.name, pilot_id=ev.pilot_id)
    return replace(state, technicians={**state.technicians, ev.tech_id: tech})


def _feat(state: HouseState, ev: e.TechnicianFeatDone) -> HouseState:
    tech = state.technicians[ev.tech_id]
    tech = replace(tech, xp=tech.xp + ev.xp_gained)
    return replace(state, technicians={**state.technicians, ev.tech_id: tech})


def _support_joined(state: HouseState, ev: e.SupportJoined) -> HouseState:
    person = SupportPerson(person_id=ev.person_id, name=ev.name, role=ev.role)
    return replace(state, support={**state.support, ev.person_id: person})


def _contract_served(state: HouseState, ev: e.ContractServedDone) -> HouseState:
    support = dict(state.support)
    for gain in ev.gains:
        person = support[gain.person_id]
        support[gain.person_id] = replace(
            person, xp=person.xp + gain.xp_gained, contracts=person.contracts + 1
        )
    return replace(state, support=support)


def _maintained(state: HouseState, ev: e.MaintenanceChecked) -> HouseState:
    r = ev.result
    quality = {k: v for k, v in state.quality.items() if k != r.unit_id}
    if not r.destroyed:
        quality[r.unit_id] = r.quality_after
    return replace(state, quality=quality, maintenance_checks=state.maintenance_checks + 1)


EVOLVERS: dict[type[Event], Callable[[HouseState, Any], HouseState]] = {
    e.SetUpDone: lambda s, ev: replace(s, seed=ev.seed, created=True),
    e.PilotJoined: _joined,
    e.BattleReported: _pilot_changed,
    e.PilotReturned: _returned,
    e.MoraleTested: _morale_tested,
    e.PreBattleDamageRolled: lambda s, ev: s,
    e.MapSheetsRolled: lambda s, ev: s,
    e.RetreatRolled: lambda s, ev: s,
    e.AcquisitionRolled: lambda s, ev: replace(
        s, offers={**s.offers, ev.acquisition.item: ev.acquisition}
    ),
    e.ItemBought: lambda s, ev: replace(
        s, offers={k: v for k, v in s.offers.items() if k != ev.item}
    ),
    e.MissionRolled: lambda s, ev: s,
    e.RepairAttempted: _repair_attempted,
    e.ExchangeRateSet: lambda s, ev: replace(
        s, exchange_rates={**s.exchange_rates, ev.currency: ev.c_bills}
    ),
    e.PilotSkillsSet: _skills_set,
    e.SkillCostsSet: lambda s, ev: replace(s, skill_costs=ev.costs),
    e.SkillImproved: _improved,
    e.TechnicianJoined: _tech_joined,
    e.TechnicianFeatDone: _feat,
    e.SupportJoined: _support_joined,
    e.ContractServedDone: _contract_served,
    e.MaintenanceChecked: _maintained,
    **table_commands.EVOLVERS,
}
