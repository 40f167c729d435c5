"""3.2 Repairs and Replacements paid in Requisition Points; new squadrons; ransoms."""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.dystopian_wars import commands as c
from mekref.rules.dystopian_wars import events as e
from mekref.rules.dystopian_wars.experience import repair_cost
from mekref.rules.dystopian_wars.mars import dual_shields
from mekref.rules.dystopian_wars.model import CommodoreStatus, DystopianState, Fleet
from mekref.rules.dystopian_wars.prebattle import new_squadron
from mekref.rules.dystopian_wars.table_loader import load_tables
from mekref.rules.dystopian_wars.treaty import treaty_violations
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal, known


def _fleet(state: DystopianState, fleet_id: str) -> Fleet:
    return known(state.fleets, fleet_id, "unknown_fleet", "no fleet {!r}")


def free_replacements(state: DystopianState, fleet_id: str, repair_row: str) -> int:
    """Depot / Shipyard: free replacements of this class row the fleet has since its battle."""
    t = load_tables()
    held = [t.territories[x.kind] for x in state.held(fleet_id)]
    return sum(1 for row in held if repair_row in row.free_replacement)


def repair(state: DystopianState, cmd: c.Repair, dice: Dice) -> list[Event]:
    fleet = _fleet(state, cmd.fleet_id)
    squadron = fleet.squadrons.get(cmd.squadron_id)
    if squadron is None:
        raise Refusal("unknown_squadron", f"{fleet.fleet_id} has no squadron {cmd.squadron_id!r}")
    if squadron.bill.empty:
        raise Refusal("nothing_to_repair", f"squadron {squadron.squadron_id!r} needs no repair")
    if cmd.free:
        # Ruling DW-19: a free replacement pays a Replacement, one per Depot or Shipyard held,
        # between two battles.
        allowed = free_replacements(state, fleet.fleet_id, squadron.vessel_class.repair_row)
        if not squadron.bill.replacement or fleet.free_replacements_used >= allowed:
            raise Refusal("no_free_replacement", "no free replacement fits this squadron")
        owed = spent = 0
    else:
        owed = max(0, repair_cost(squadron) - squadron.dry_dock)
        # What the fleet cannot pay goes into dry dock, if it asks and pays something.
        spent = min(owed, fleet.rp)
        if spent < owed and (not cmd.dry_dock or fleet.rp == 0):
            raise Refusal(
                "insufficient_rp",
                f"the repair costs {owed} RP and {fleet.fleet_id} has {fleet.rp}",
                load_tables().rule("dry_dock").ref,
            )
    return [
        e.Repaired(
            fleet_id=fleet.fleet_id,
            squadron_id=squadron.squadron_id,
            rp_spent=spent,
            free=cmd.free,
            complete=spent == owed,
        )
    ]


def requisition(state: DystopianState, cmd: c.RequisitionSquadron, dice: Dice) -> list[Event]:
    fleet = _fleet(state, cmd.fleet_id)
    if cmd.squadron.squadron_id in fleet.squadrons:
        raise Refusal("bad_squadron", f"squadron id {cmd.squadron.squadron_id!r} is taken")
    if cmd.squadron.flagship:
        raise Refusal("bad_squadron", "the fleet already has its flagship")
    squadron = new_squadron(cmd.squadron)
    # The treaty's shield limits hold for new squadrons too; the Scientist's Eyrie allows dual
    # shield generators (line 122). Ruling DW-29.
    problems = [
        p
        for p in treaty_violations(
            fleet.nation, (squadron,), dual_shields=dual_shields(state, fleet.fleet_id)
        )
        if "generator" in p
    ]
    if problems:
        raise Refusal("treaty", "; ".join(problems), load_tables().rule("treaty_shields").ref)
    row = load_tables().repairs[squadron.vessel_class.repair_row]
    if row.replacement > fleet.rp:
        raise Refusal(
            "insufficient_rp",
            f"a new squadron costs {row.replacement} RP; {fleet.rp} left",
            row.ref,
        )
    return [
        e.SquadronRequisitioned(
            fleet_id=fleet.fleet_id, squadron=squadron, rp_spent=row.replacement
        )
    ]


def release(state: DystopianState, cmd: c.ReleaseCommodore, dice: Dice) -> list[Event]:
    """Ruling DW-20: the ransom is what the players agree, paid from the fleet's RP."""
    fleet = _fleet(state, cmd.fleet_id)
    if fleet.commodore.status is not CommodoreStatus.CAPTURED:
        raise Refusal("not_captured", f"{fleet.fleet_id}'s commodore is not a prisoner")
    if cmd.ransom_rp < 0 or cmd.ransom_rp > fleet.rp:
        raise Refusal("insufficient_rp", f"{fleet.fleet_id} cannot pay {cmd.ransom_rp} RP")
    return [e.CommodoreReleased(fleet_id=fleet.fleet_id, ransom_rp=cmd.ransom_rp)]
