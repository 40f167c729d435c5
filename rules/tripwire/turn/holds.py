"""Where a DropShip carries the units of its formation: its bays, or its cargo hold (ruling T-O5).

L206: "Load/Unload - Transport ships such as DropShips take time to unload and load cargo from
their cargo bay. Any units in bays (AeroSpace, BattleMech, Vehicle) do not take any time to
deploy or load. Infantry never take time to unload as they can walk off. Units can be carried in
a cargo hold but take 1 day to load/unload."

A formation's DropShips lift the rest of it (T-O4). Each carried unit takes a bay of its kind
(MegaMek's ``<transporters>`` lines: a 'Mech bay holds one 'Mech per unit of capacity); the
others ride in the cargo hold, by tons. Loading or unloading the hold takes the day: a lift or
landing with units in the hold is the formation's whole day, so no move may follow it (the free
combination of T-O2 is not open), except that infantry walk off without loss of time. Units
that fit neither the bays nor the hold are refused. Without a DropShip's kept design its bays
are not known and the order is not checked (docs/turn.md, T-O5).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from mekref.adapters.megamek.design import CARGO_BAY_KINDS
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef
from mekref.rules.tripwire.designs import stored_design_of
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.state import CampaignState, CampaignUnit
from mekref.rules.tripwire.turn.state import Formation, FormationOrder

L206 = SourceRef(
    line=206,
    source="Units can be carried in a cargo hold but take 1 day to load/unload.",
)
#: MegaMek bay kinds (``BLKFile.addTransports``) by the unit kinds they hold.
BAYS: Mapping[UnitKind, tuple[str, ...]] = {
    UnitKind.MEK: ("mekbay", "mechbay"),
    UnitKind.AEROSPACE_FIGHTER: ("asfbay", "smallcraftbay"),
    UnitKind.COMBAT_VEHICLE: ("lightvehiclebay", "heavyvehiclebay", "superheavyvehiclebay"),
    UnitKind.SUPPORT_VEHICLE: ("lightvehiclebay", "heavyvehiclebay", "superheavyvehiclebay"),
    UnitKind.VTOL: ("lightvehiclebay", "heavyvehiclebay", "superheavyvehiclebay"),
    UnitKind.BATTLE_ARMOR: ("battlearmorbay", "infantrybay"),
    UnitKind.CONVENTIONAL_INFANTRY: ("infantrybay",),
}
#: The cargo bays the design reader counts as cargo tons, in a fixed order (a frozenset's
#: order changes between processes; which hold is filled first must not).
CARGO = tuple(sorted(CARGO_BAY_KINDS))
#: Orders in which a DropShip takes its units up (loads) or brings them down (unloads).
LIFTS = frozenset({"achieve_orbit", "suborbital_hop"})
LANDS = frozenset({"orbital_insertion", "combat_drop", "suborbital_hop"})


@dataclass(frozen=True)
class Stowage:
    in_bays: tuple[str, ...]
    in_hold: tuple[str, ...]  # unit ids in the cargo hold
    left_over: tuple[str, ...]  # unit ids with no room at all
    unknown: tuple[str, ...]  # the DropShips whose design (bays) is not known


def stowage(state: CampaignState, dropships: list[str], carried: list[CampaignUnit]) -> Stowage:
    """Which of ``carried`` ride in the bays of ``dropships``, which in their holds, and which
    fit nowhere; the biggest units take the hold first-come in their order."""
    bays: dict[str, Fraction] = {}
    unknown = []
    for d in dropships:
        design = stored_design_of(state, d)
        if design is None:
            unknown.append(d)
            continue
        for bay in design.bays:
            bays[bay.kind] = bays.get(bay.kind, Fraction(0)) + (bay.capacity or Fraction(0))
    in_bays, in_hold, left = [], [], []
    for unit in carried:
        kind = next((k for k in BAYS.get(unit.kind, ()) if bays.get(k, 0) >= 1), None)
        if kind is not None:
            bays[kind] -= 1
            in_bays.append(unit.unit_id)
            continue
        hold = next((k for k in CARGO if bays.get(k, 0) >= unit.tonnage), None)
        if hold is not None:
            bays[hold] -= unit.tonnage
            in_hold.append(unit.unit_id)
        else:
            left.append(unit.unit_id)
    return Stowage(tuple(in_bays), tuple(in_hold), tuple(left), tuple(unknown))


def check(
    state: CampaignState,
    f: Formation,
    order: FormationOrder,
    dropships: list[str],
    field: str,
) -> None:
    """Refuse a lift or landing its DropShips cannot carry, or that moves on after loading or
    unloading a cargo hold the same day (L206, ruling T-O5)."""
    if order.action not in LIFTS | LANDS or not dropships:
        return
    carried = [
        state.units[u]
        for u in f.unit_ids
        if u in state.units and u not in dropships and state.units[u].kind is not UnitKind.DROPSHIP
    ]
    if not carried:
        return
    s = stowage(state, dropships, carried)
    if s.unknown:
        return  # bays not known: not checked, as docs/turn.md T-O5 says (the referee's call)
    if s.left_over:
        raise Refusal(
            "no_room",
            f"{field}.action: no bay of their kind and no room in the cargo hold for "
            f"{', '.join(_names(state, s.left_over))}: split them off (mekref formation split)",
            L206,
        )
    # "Infantry never take time to unload as they can walk off": a landing, not a hop (which
    # loads the hold too).
    walking = order.action != "suborbital_hop" and all(
        state.units[u].kind.is_infantry for u in s.in_hold
    )
    if s.in_hold and order.path and not walking:
        raise Refusal(
            "cargo_hold",
            f"{field}.path: {', '.join(_names(state, s.in_hold))} ride in the cargo hold, and "
            "loading or unloading it takes the day: no move follows the "
            f"{order.action.replace('_', ' ')} (line 206)",
            L206,
        )


def _names(state: CampaignState, ids: tuple[str, ...]) -> list[str]:
    return [f"{state.units[u].chassis} {state.units[u].model} ({u[:8]})" for u in ids]
