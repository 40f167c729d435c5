"""Ruling R-WHERE-6: booked technician work is done on the day the formation takes the repair
action, and a formation doing it has none of Guard's benefits.

L178: "During the map base campaign, each separate formation can take one of the following
Actions per standard day." L198: "Reload/Repair/Rearm/Salvage – Players may spend WarChest points
to repair units and heal personnel." L200: "Guard – The formation stays stationary in a hex on
guard for a potential attack which helps to prevent an ambush." L281: "Forces at “Guard” receive
a +4 to their ambush roll." L64: "Each Technician can work 6 hours a day."

The world (tests/turn/turn_world.py): the loyalists in 1105, their Manufacturing Facility (a
'Mech repair bay, R-WHERE-3), with its WarChest pool; the rebels in orbit.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_model import UnitDamage
from mekref.rules.tripwire.battle_spending import RepairTask, RepairUnit
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.repair import AmmoUse, LocationDamage
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn.events import EngagementDetermined, FormationsUpdated
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.repair_days import RepairWorkWaited, WaitingWork, work_waits
from mekref.rules.tripwire.turn.setup import FormationSpec
from mekref.rules.tripwire.turn.state import StrategicState

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the turn tests' world
world = pytest.importorskip("turn.turn_world")

FACILITY = "1105"  # Combat Systems Manufacturing Facility: repair_bm, held by the loyalists
#: CT armour 16 of 20, Left Leg armour 4 of 10 and structure 6 of 8, a ton of LRM fired:
#: re-arm 1 h, armour 3 h, internal structure 6 h (L64-L66 tasks).
DAMAGED = UnitDamage(
    locations=(
        LocationDamage(name="Center Torso", armor_max=20, armor_now=16, internal_max=10,
                       internal_now=10, is_center_torso=True),
        LocationDamage(name="Left Leg", armor_max=10, armor_now=4, internal_max=8, internal_now=6),
    ),
    ammo_used=(AmmoUse(ammo_type="IS Ammo LRM-10", tons=Fraction(1)),),
)  # fmt: skip


def _world(*formations: tuple[str, tuple[str, ...]]) -> CampaignState:
    """The loyalists' ``formations`` (id, units) in 1105, the Griffin and Wolverine damaged."""
    specs = tuple(
        FormationSpec(formation_id=fid, name=fid, unit_ids=units, hex=FACILITY)
        for fid, units in formations
    )
    rebels = (FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD")),)
    state = world.placed(world.started(), specs, rebels)
    pool = OpenPool(
        actor="ref",
        pool_id="facility",
        side_id="loyalist",
        name="Facility chest",
        kind=PoolKind.LOCATION,
        location="Combat Systems Manufacturing Facility",
    )
    state, _ = world.run(state, pool)
    damage = {u: DAMAGED for u in ("L-GRF", "L-WVR")}
    return replace(state, battles=replace(state.battles, unit_damage=damage))


def _pay(unit: str, *tasks: RepairTask) -> tuple[Command, ...]:
    return tuple(
        RepairUnit(actor="loyalist", unit_id=unit, pool_id="facility", task=t) for t in tasks
    )


def _orders(side: str, day: int, *orders: tuple[str, str]) -> SubmitOrders:
    return SubmitOrders(actor=side, side_id=side, day=day, orders=tuple(
        FormationOrder(formation_id=f, action=a, target=FACILITY if a == "orbital_insertion"
                       else None) for f, a in orders))  # fmt: skip


def _s(state: CampaignState) -> StrategicState:
    assert state.strategic is not None
    return state.strategic


def _notes(events: list[Event], side: str = "loyalist") -> str:
    return " | ".join(
        n for e in events if isinstance(e, FormationsUpdated) and e.side_id == side
        for n in e.notes
    )  # fmt: skip


ALL = (RepairTask.REARM, RepairTask.ARMOR, RepairTask.INTERNAL)
SOURCE = (Path(__file__).parent / "data" / "operation_tripwire.txt").read_text(encoding="utf-8")


def test_the_lines_quoted_are_the_texts() -> None:
    lines = SOURCE.splitlines()
    assert lines[178 - 1].startswith(
        "During the map base campaign, each separate formation can take one of the following "
        "Actions per standard day."
    )
    assert lines[198 - 1].startswith("Reload/Repair/Rearm/Salvage – Players may spend WarChest")
    assert lines[200 - 1].startswith("Guard – The formation stays stationary in a hex on guard")
    assert "Forces at “Guard” receive a +4 to their ambush roll." in lines[281 - 1]


def test_l198_the_booked_hours_are_worked_only_by_a_formation_taking_the_repair_action() -> None:
    # Alpha (the Griffin) and Beta (the Wolverine) in 1105: two technicians, 12 hours a day.
    state = _world(("alpha", ("L-GRF",)), ("beta", ("L-WVR",)))
    state, _ = world.run(state, *_pay("L-GRF", *ALL), *_pay("L-WVR", RepairTask.INTERNAL))
    s = _s(state)
    assert s.repair_work == {"L-GRF": ((1, 10),), "L-WVR": ((1, 2), (2, 4))}
    # Day 1: Alpha guards, Beta repairs. Beta's 2 hours are worked; Alpha's 10 wait (L178:
    # one action a day) and are booked again from day 2 around Beta's 4 hours there.
    after, events = world.run(
        state, _orders("loyalist", 1, ("alpha", "guard"), ("beta", "repair")),
        ResolveTurn(actor=world.REFEREE, day=1),
    )  # fmt: skip
    (waited,) = [e for e in events if isinstance(e, RepairWorkWaited)]
    # The side's own business: the event stream shows it to the loyalists and the referee.
    payload = TRIPWIRE.events.to_json(waited)
    assert TRIPWIRE.views.event_for(after, payload, "rebel") is None  # type: ignore[union-attr]
    assert TRIPWIRE.views.event_for(after, payload, "loyalist") == payload  # type: ignore[union-attr]
    assert waited == RepairWorkWaited(
        side_id="loyalist", day=1, workshops=((FACILITY, 3, 2),),
        waiting=(WaitingWork(unit_id="L-GRF", formation_id="alpha", action="guard",
                             hex=FACILITY, work_days=((2, 8), (3, 2))),),
    )  # fmt: skip
    s = _s(after)
    assert s.repair_work == {"L-GRF": ((2, 8), (3, 2)), "L-WVR": ((1, 2), (2, 4))}
    assert s.repair_ready == {"L-GRF": 3, "L-WVR": 2}
    assert s.workshops == {f"loyalist@{FACILITY}": (3, 2)}
    notes = _notes(events)
    assert "beta: repair: the technicians worked the booked hours (Wolverine WVR-6R 2 h)" in notes
    assert (
        "alpha: the booked work on Griffin GRF-1N waits: alpha's order for day 1 was guard, "
        "not repair (L178" in notes
    )
    assert "now ready day 3" in notes
    # Still under repair, Alpha stays in the hex (R-WHERE-5).
    with pytest.raises(Refusal) as info:
        TRIPWIRE.execute(after, SubmitOrders(actor="loyalist", side_id="loyalist", day=2, orders=(
            FormationOrder(formation_id="alpha", action="move", path=("1106",)),)))  # fmt: skip
    assert info.value.code == "under_repair" and "work to day 3" in info.value.message


def test_l178_a_day_without_an_order_does_no_repair_work_either() -> None:
    state = _world(("alpha", ("L-GRF", "L-WVR")))
    state, _ = world.run(state, *_pay("L-GRF", RepairTask.ARMOR))
    after, events = world.run(state, ResolveTurn(actor=world.REFEREE, day=1))
    (waited,) = [e for e in events if isinstance(e, RepairWorkWaited)]
    assert waited.waiting[0].action == "" and waited.waiting[0].work_days == ((2, 3),)
    assert "alpha had no order for day 1, not repair" in _notes(events)
    # Day 2, ordered to repair: the work is done and the unit is ready.
    done, events = world.run(
        after, _orders("loyalist", 2, ("alpha", "repair")), ResolveTurn(actor=world.REFEREE, day=2)
    )
    assert not [e for e in events if isinstance(e, RepairWorkWaited)]
    assert _s(done).repair_work == {"L-GRF": ((2, 3),)} and _s(done).repair_ready == {"L-GRF": 2}
    assert "alpha: repair: the technicians worked the booked hours (Griffin GRF-1N 3 h)" in (
        _notes(events)
    )


def test_l281_guard_gives_4_to_the_ambush_roll_and_repair_does_not() -> None:
    """The same day twice (the same seed, the same dice): Alpha guards, or repairs. Bravo lands
    on it (an assault). Guarding, its booked work waits; repairing, the work is done and the
    loyalists' ambush total is 4 lower, without Guard's hidden deployment either (L320)."""
    state = _world(("alpha", ("L-GRF", "L-WVR", "L-SHD", "L-LCT")))
    state, _ = world.run(state, *_pay("L-GRF", RepairTask.ARMOR))
    landing = _orders("rebel", 1, ("bravo", "orbital_insertion"))

    def day(action: str) -> tuple[dict[str, int], tuple[str, ...], list[Event]]:
        _, events = world.run(state, _orders("loyalist", 1, ("alpha", action)), landing,
                              ResolveTurn(actor=world.REFEREE, day=1))  # fmt: skip
        (e,) = [e for e in events if isinstance(e, EngagementDetermined)]
        return dict(e.engagement.ambush_totals), e.engagement.notes, events

    guarded, guard_notes, guard_events = day("guard")
    repaired, repair_notes, repair_events = day("repair")
    assert guarded["loyalist"] == repaired["loyalist"] + 4
    assert guarded["rebel"] == repaired["rebel"]
    assert any("loyalist was on Guard" in n for n in guard_notes)
    assert not any("on Guard" in n for n in repair_notes)
    assert [e for e in guard_events if isinstance(e, RepairWorkWaited)]
    assert not [e for e in repair_events if isinstance(e, RepairWorkWaited)]


def test_the_report_says_why_booked_work_waits_and_a_repair_order_needs_no_pool() -> None:
    from mekref.daemon.tripwire.cli_report import build_report

    state = _world(("alpha", ("L-GRF", "L-WVR")))
    state, _ = world.run(state, *_pay("L-GRF", RepairTask.ARMOR))
    assert "waits unless alpha is ordered to repair" in (work_waits(state, "L-GRF") or "")
    guarded, _ = world.run(state, _orders("loyalist", 1, ("alpha", "guard")))
    (grf,) = [u for u in build_report(guarded, [], "loyalist")["units"] if u["id"] == "L-GRF"]
    assert grf["repair_waits"].startswith("day 1: waits: alpha's order is guard, not repair")
    # --order alpha:repair: the work was paid with 'spend repair'; no pool is named here.
    repairing, _ = world.run(state, _orders("loyalist", 1, ("alpha", "repair")))
    assert work_waits(repairing, "L-GRF") is None
    assert work_waits(repairing, "L-WVR") is None  # nothing booked for it
