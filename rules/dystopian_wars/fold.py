"""Folding Dystopian Wars events into the campaign state. A fold never refuses: events are
facts already in the log."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.model import (
    Commodore,
    CommodoreStatus,
    DystopianState,
    Fleet,
    RepairBill,
    Squadron,
    TerritoryChoice,
)
from mekref.rules.dystopian_wars.table_loader import load_tables
from mekref.rules.messages import Event


def _fleet(state: DystopianState, fleet: Fleet) -> DystopianState:
    return replace(state, fleets={**state.fleets, fleet.fleet_id: fleet})


def _squadron(state: DystopianState, fleet_id: str, squadron: Squadron) -> DystopianState:
    fleet = state.fleets[fleet_id]
    return _fleet(
        state, replace(fleet, squadrons={**fleet.squadrons, squadron.squadron_id: squadron})
    )


def _commodore(state: DystopianState, fleet_id: str, commodore: Commodore) -> DystopianState:
    return _fleet(state, replace(state.fleets[fleet_id], commodore=commodore))


def _territory(state: DystopianState, territory_id: str, **changes: Any) -> DystopianState:
    territory = replace(state.territories[territory_id], **changes)
    return replace(state, territories={**state.territories, territory_id: territory})


def _created(state: DystopianState, ev: e.CampaignCreated) -> DystopianState:
    return replace(
        state,
        seed=ev.seed,
        created=True,
        fleets={f.fleet_id: f for f in ev.fleets},
        field_orders=ev.field_orders,
    )


def _chosen(
    choices: tuple[TerritoryChoice, ...], new: TerritoryChoice
) -> tuple[TerritoryChoice, ...]:
    """A territory's choice replaces any earlier one for it (of any fleet: it lapses anyway)."""
    return (*(x for x in choices if x.territory_id != new.territory_id), new)


def _mar_assigned(state: DystopianState, ev: e.MarAssigned) -> DystopianState:
    a = ev.assignment
    kept = tuple(
        x for x in state.mar_assignments if (x.territory_id, x.grant) != (a.territory_id, a.grant)
    )
    return replace(state, mar_assignments=(*kept, a))


def _generated(state: DystopianState, ev: e.TerritoriesGenerated) -> DystopianState:
    return replace(state, territories={t.territory_id: t for t in ev.territories})


def _set_up(state: DystopianState, ev: e.BattleSetUp) -> DystopianState:
    return replace(state, battle=ev.battle)


def _broken(state: DystopianState, ev: e.SquadronsBroken) -> DystopianState:
    # Shore leave's "starts the next game Broken" is served by this battle.
    fleet = state.fleets[ev.fleet_id]
    squadrons = {k: replace(s, broken_next_battle=False) for k, s in fleet.squadrons.items()}
    return _fleet(state, replace(fleet, squadrons=squadrons))


def _staked(state: DystopianState, ev: e.Staked) -> DystopianState:
    assert state.battle is not None
    return replace(state, battle=replace(state.battle, stakes=(*state.battle.stakes, ev.stake)))


def _resolved(state: DystopianState, ev: e.BattleResolved) -> DystopianState:
    return replace(state, battle=None, battles_fought=state.battles_fought + 1)


def _loans_ended(state: DystopianState, ev: e.LoansEnded) -> DystopianState:
    for territory_id in ev.territory_ids:
        state = _territory(state, territory_id, lent_to=None)
    return state


def _after_battle(state: DystopianState, ev: e.SquadronAfterBattle) -> DystopianState:
    squadron = state.fleets[ev.fleet_id].squadrons[ev.squadron_id]
    squadron = replace(
        squadron,
        ships=ev.ships,
        destroyed=ev.destroyed,
        bill=ev.bill,
        xp=ev.xp,
        broken_next_battle=ev.broken_next_battle,
    )
    if ev.destroyed:
        squadron = replace(squadron, skills=(), skill_rolls=0, dry_dock=0)
    return _squadron(state, ev.fleet_id, squadron)


def _skill(state: DystopianState, ev: e.SkillGained) -> DystopianState:
    squadron = state.fleets[ev.fleet_id].squadrons[ev.squadron_id]
    skills = (*squadron.skills, ev.skill) if ev.skill else squadron.skills
    squadron = replace(squadron, skills=skills, skill_rolls=squadron.skill_rolls + 1)
    return _squadron(state, ev.fleet_id, squadron)


def _commodore_xp(state: DystopianState, ev: e.CommodoreExperience) -> DystopianState:
    commodore = state.fleets[ev.fleet_id].commodore
    return _commodore(state, ev.fleet_id, replace(commodore, xp=ev.xp))


def _prowess(state: DystopianState, ev: e.TacticalProwess) -> DystopianState:
    fleet = state.fleets[ev.fleet_id]
    commodore = replace(
        fleet.commodore,
        prowess=ev.prowess,
        dash_and_elan=fleet.commodore.dash_and_elan or ev.genius,
    )
    chaos = fleet.flagship_chaos or ev.ineptitude
    squadrons = dict(fleet.squadrons)
    if ev.ineptitude:
        # Ruling DW-23: the critical effect is repaired like minor damage to the flagship.
        for key, squadron in squadrons.items():
            if squadron.flagship and not squadron.destroyed and not squadron.bill.replacement:
                squadrons[key] = replace(squadron, bill=replace(squadron.bill, minor=True))
    fleet = replace(fleet, commodore=commodore, flagship_chaos=chaos, squadrons=squadrons)
    return _fleet(state, fleet)


def _injury(state: DystopianState, ev: e.CommodoreInjury) -> DystopianState:
    commodore = state.fleets[ev.fleet_id].commodore
    row = next(r for r in load_tables().injuries if r.key == ev.result)
    if ev.successor is not None:
        # Ruling DW-12: a dead commodore is succeeded by a new one at 0 experience.
        new = Commodore(name=ev.successor, succession=commodore.succession + 1)
    elif ev.result == "captured":
        new = replace(commodore, status=CommodoreStatus.CAPTURED)
    else:
        new = replace(commodore, games_to_miss=commodore.games_to_miss + row.miss_games)
    return _commodore(state, ev.fleet_id, new)


def _missed(state: DystopianState, ev: e.GameMissed) -> DystopianState:
    commodore = state.fleets[ev.fleet_id].commodore
    return _commodore(state, ev.fleet_id, replace(commodore, games_to_miss=ev.games_to_miss))


def _granted(state: DystopianState, ev: e.RequisitionGranted) -> DystopianState:
    # Ruling DW-1: the new grant replaces what was left; free replacements renew with it.
    fleet = replace(state.fleets[ev.fleet_id], rp=ev.total, free_replacements_used=0)
    return _fleet(state, fleet)


def _repaired(state: DystopianState, ev: e.Repaired) -> DystopianState:
    fleet = state.fleets[ev.fleet_id]
    squadron = fleet.squadrons[ev.squadron_id]
    if ev.complete:
        squadron = replace(
            squadron, ships=squadron.ships_max, destroyed=False, bill=RepairBill(), dry_dock=0
        )
    else:
        squadron = replace(squadron, dry_dock=squadron.dry_dock + ev.rp_spent)
    fleet = replace(
        fleet,
        rp=fleet.rp - ev.rp_spent,
        free_replacements_used=fleet.free_replacements_used + (1 if ev.free else 0),
        squadrons={**fleet.squadrons, squadron.squadron_id: squadron},
        flagship_chaos=fleet.flagship_chaos and not (ev.complete and squadron.flagship),
    )
    return _fleet(state, fleet)


def _requisitioned(state: DystopianState, ev: e.SquadronRequisitioned) -> DystopianState:
    fleet = state.fleets[ev.fleet_id]
    fleet = replace(
        fleet,
        rp=fleet.rp - ev.rp_spent,
        squadrons={**fleet.squadrons, ev.squadron.squadron_id: ev.squadron},
    )
    return _fleet(state, fleet)


def _released(state: DystopianState, ev: e.CommodoreReleased) -> DystopianState:
    fleet = state.fleets[ev.fleet_id]
    commodore = replace(fleet.commodore, status=CommodoreStatus.ACTIVE)
    return _fleet(state, replace(fleet, rp=fleet.rp - ev.ransom_rp, commodore=commodore))


EVOLVERS: dict[type[Event], Callable[[DystopianState, Any], DystopianState]] = {
    e.CampaignCreated: _created,
    e.TerritoriesGenerated: _generated,
    e.TerritoryGranted: lambda s, ev: _territory(
        s, ev.territory_id, holder=ev.fleet_id, lent_to=None
    ),
    e.BattleSetUp: _set_up,
    e.SquadronsBroken: _broken,
    e.Staked: _staked,
    e.BattleResolved: _resolved,
    e.LoansEnded: _loans_ended,
    e.TerritoryTaken: lambda s, ev: _territory(
        s, ev.territory_id, holder=ev.to_fleet, lent_to=None
    ),
    e.TerritoryLent: lambda s, ev: _territory(s, ev.territory_id, lent_to=ev.to_fleet),
    e.SquadronAfterBattle: _after_battle,
    e.SkillGained: _skill,
    e.CommodoreExperience: _commodore_xp,
    e.TacticalProwess: _prowess,
    e.CommodoreInjury: _injury,
    e.GameMissed: _missed,
    e.RequisitionGranted: _granted,
    e.Repaired: _repaired,
    e.SquadronRequisitioned: _requisitioned,
    e.CommodoreReleased: _released,
    e.CampaignWon: lambda s, ev: replace(s, winner=ev.fleet_id, win_condition=ev.condition),
    e.MapSet: lambda s, ev: replace(s, borders=ev.borders),
    e.MarAssigned: _mar_assigned,
    e.WingMarChosen: lambda s, ev: replace(s, wing_mars=_chosen(s.wing_mars, ev.choice)),
    e.TowersChosen: lambda s, ev: replace(s, towers=_chosen(s.towers, ev.choice)),
    # Said in words for the battle; the state keeps what they come from (territories, choices).
    e.AirWings: lambda s, ev: s,
    e.FortificationsDefend: lambda s, ev: s,
}
