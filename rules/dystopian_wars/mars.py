"""The MARs territories and commodore ranks grant, where they change campaign numbers.

Most MARs act on the table (the scenario sheet lists them: :func:`mars_in_force`). In the
campaign they count as MARs a squadron "already" has when it rolls a skill (line 278: "Add MARs,
reroll if already have"), and the Scientist's Eyrie allows dual shield generators on the
squadrons a fleet requisitions (line 122).
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars import holdings
from mekref.rules.dystopian_wars.experience import rank_of
from mekref.rules.dystopian_wars.model import DystopianState, MarAssignment
from mekref.rules.dystopian_wars.table_loader import load_tables
from mekref.rules.messages import Event
from mekref.rules.records import built_from
from mekref.rules.refusal import Refusal, known

DASH_AND_ELAN = "Dash and Elan"


def assign(state: DystopianState, cmd: c.AssignMar, dice: Dice) -> list[Event]:
    """A territory's "One Squadron has the ... MAR" goes to one squadron of the fleet using it.

    Ruling DW-26: the fleet that holds the territory (or has it on a Raid's loan) chooses the
    squadron and, where the row offers two, the MAR; it may choose again between battles.
    """
    t = load_tables()
    fleet = known(state.fleets, cmd.fleet_id, "unknown_fleet", "no fleet {!r}")
    if state.battle is not None:
        raise Refusal("battle_open", "MARs are given between battles")
    territory = next(
        (x for x in state.held(cmd.fleet_id) if x.territory_id == cmd.territory_id), None
    )
    if territory is None:
        raise Refusal("not_held", f"{cmd.fleet_id} does not hold {cmd.territory_id!r}")
    row = t.territories[territory.kind]
    if not 0 <= cmd.grant < len(row.mar_grants):
        wings = " (its wings' MAR: DWChooseWingMAR)" if row.wing_mars else ""
        raise Refusal("no_mar", f"{row.name} gives no such MAR to a squadron{wings}", row.ref)
    grant = row.mar_grants[cmd.grant]
    if cmd.mar not in grant.mars:
        raise Refusal("no_mar", f"{row.name} offers {list(grant.mars)}, not {cmd.mar!r}", row.ref)
    squadron = fleet.squadrons.get(cmd.squadron_id)
    if squadron is None or squadron.destroyed:
        raise Refusal("unknown_squadron", f"{cmd.fleet_id} has no squadron {cmd.squadron_id!r}")
    if grant.classes and squadron.vessel_class.value not in grant.classes:
        raise Refusal(
            "wrong_class", f"{row.name}'s MAR is for {list(grant.classes)} squadrons", row.ref
        )
    return [e.MarAssigned(assignment=built_from(MarAssignment, cmd))]


def territory_mars(state: DystopianState, fleet_id: str, squadron_id: str) -> tuple[str, ...]:
    """MARs the squadron has from territories the fleet uses now (held, or lent to it)."""
    used = {x.territory_id for x in state.held(fleet_id)}
    return tuple(
        a.mar
        for a in state.mar_assignments
        if a.fleet_id == fleet_id and a.squadron_id == squadron_id and a.territory_id in used
    )


def commodore_mars(state: DystopianState, fleet_id: str) -> tuple[str, ...]:
    """The commodore's ship's MARs: the rank's (they stack, line 341) and a double 6's Dash and
    Elan (line 163). Ruling DW-12: a stand-in brings none."""
    commodore = state.fleets[fleet_id].commodore
    if not commodore.present:
        return ()
    mars = list(rank_of(commodore.xp).mars)
    if commodore.dash_and_elan and DASH_AND_ELAN not in mars:
        mars.append(DASH_AND_ELAN)
    return tuple(mars)


def squadron_mars(state: DystopianState, fleet_id: str, squadron_id: str) -> tuple[str, ...]:
    """Every MAR the squadron has besides its skills (ruling DW-27: what a skill roll rerolls)."""
    squadron = state.fleets[fleet_id].squadrons[squadron_id]
    out = list(territory_mars(state, fleet_id, squadron_id))
    wings_mar = holdings.wing_mar(state, fleet_id)
    if squadron.free_tiny_flyer_wing and wings_mar is not None:
        out.append(wings_mar)  # the Airbase's "All TT’s have ..." (line 113, ruling DW-37)
    if squadron.flagship:
        out += [m for m in commodore_mars(state, fleet_id) if m not in out]
    return tuple(out)


def mars_in_force(state: DystopianState, fleet_id: str) -> dict[str, tuple[str, ...]]:
    """For the scenario sheet: each squadron's skills and granted MARs."""
    fleet = state.fleets[fleet_id]
    return {
        sid: (*s.skills, *(m for m in squadron_mars(state, fleet_id, sid) if m not in s.skills))
        for sid, s in sorted(fleet.squadrons.items())
        if not s.destroyed
    }


def dual_shields(state: DystopianState, fleet_id: str) -> bool:
    """The Scientist's Eyrie: "You may take Dual Shield Generators" (line 122)."""
    t = load_tables()
    return any(t.territories[x.kind].dual_shields for x in state.held(fleet_id))
