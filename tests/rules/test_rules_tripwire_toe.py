"""Salvage you keep (only with TO&E space) and crews seated in units without one.

L136: "They take control of the the ‘Mech and may either keep it (only if they have space in
there TO&E) or sell it."
L11: "Each company must have exactly 12 BattleMechs* and 2 AeroSpace Fighters (additional
BattleMechs may be taken is they have the compact quirk)"
L124: "... replaced by another unassigned Pilot or from another Combat Unit of the same type
(e.g. BattleMech, or Vehicle)."
L154: "MechWarriors/Crew may not be transferred from one unit to another."
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_messages import SetUnitFate
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.battle_spending import HirePerson
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.model import UnitKind, UnitRole
from mekref.rules.tripwire.state import CampaignState, PersonStatus, PoolKind
from mekref.rules.tripwire.toe import (
    SALVAGE_COMPANY,
    CrewSeated,
    KeepSalvage,
    SalvageKept,
    SeatCrew,
)

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the battle tests' helpers
states = pytest.importorskip("battle.states")

NOTE = RefereeNote(referee="Ann", reason="test")
RED_MEKS = tuple(f"r{n}" for n in range(1, 13))  # a full company: 12 'Mechs (L11)


def _captured(*, red_extra: tuple[object, ...] = ()) -> CampaignState:
    """Red holds 12 'Mechs (and ``red_extra``); blue's b1 ('Mech, commander) is red's salvage."""
    red = tuple(states.fu(uid) for uid in RED_MEKS) + tuple(red_extra)
    blue = (states.fu("b1", commander=True), states.fu("b2"))
    state = states.campaign(red, blue)
    _, state = states.run(
        state,
        SetUnitFate(unit_id="b1", fate=Fate.CAPTURED, new_side="red", note=NOTE, actor="t"),
        OpenPool(pool_id="base", side_id="red", name="Base", kind=PoolKind.LOCATION,
                 location="Forward Deployment Base", actor="t"),
    )  # fmt: skip
    assert state.units["b1"].company == SALVAGE_COMPANY
    assert isinstance(state, CampaignState)
    return state


def _wreck(state: CampaignState, uid: str) -> CampaignState:
    _, state = states.run(
        state, SetUnitFate(unit_id=uid, fate=Fate.TRULY_DESTROYED, note=NOTE, actor="t")
    )
    return state


def test_ruling_r_keep_1_keeping_needs_a_free_slot_in_the_company() -> None:
    state = _captured()
    keep = KeepSalvage(unit_id="b1", company="A", lance="L1", actor="t")
    # L136 "only if they have space in there TO&E": 12 'Mechs already (L11).
    with pytest.raises(Refusal, match="line 11") as caught:
        states.run(state, keep)
    assert caught.value.code == "no_toe_space"
    # A red 'Mech truly destroyed frees its slot: the captured 'Mech joins the lance.
    _, kept = states.run(_wreck(state, "r12"), keep)
    unit = kept.units["b1"]
    assert (unit.side_id, unit.company, unit.lance) == ("red", "A", "L1")
    # The enemy's commander flag does not come with it (ruling R-CMD-1).
    assert UnitRole.FORCE_COMMANDER not in unit.roles
    # A compact 'Mech may be the 13th (L11, ruling R-FORCE-1).
    compact = replace(state.units["b1"], roles=frozenset({UnitRole.COMPACT}))
    _, kept = states.run(replace(state, units={**state.units, "b1": compact}), keep)
    assert kept.units["b1"].company == "A"


def test_ruling_r_keep_2_what_is_kept_where() -> None:
    state = _wreck(_captured(), "r12")
    # Only salvage waiting for a decision is kept (L136).
    with pytest.raises(Refusal, match="line 136") as caught:
        states.run(state, KeepSalvage(unit_id="r1", company="A", lance="L1", actor="t"))
    assert caught.value.code == "not_salvage"
    with pytest.raises(Refusal) as caught:
        states.run(state, KeepSalvage(unit_id="b1", company="Zulu", lance="L1", actor="t"))
    assert caught.value.code == "unknown_company"
    # A 'Mech joins one of the Union's three lances, not a new one (L9).
    with pytest.raises(Refusal, match="line 9") as caught:
        states.run(state, KeepSalvage(unit_id="b1", company="A", lance="New", actor="t"))
    assert caught.value.code == "no_toe_space"
    # Truly destroyed salvage never returns to operation (L145): scrap it.
    with pytest.raises(Refusal, match="line 145") as caught:
        states.run(_wreck(state, "b1"), KeepSalvage(unit_id="b1", company="A", lance="L1",
                                                    actor="t"))  # fmt: skip
    assert caught.value.code == "truly_destroyed"
    # The referee keeps it without space: recorded with who and why.
    full = _captured()
    events, kept = states.run(
        full, KeepSalvage(unit_id="b1", company="A", lance="L1", note=NOTE, actor="Ann")
    )
    (event,) = events
    assert isinstance(event, SalvageKept) and event.note == NOTE
    assert kept.units["b1"].company == "A"


def _hire(state: CampaignState, pid: str, g: int = 4, p: int = 5) -> CampaignState:
    _, state = states.run(
        state,
        HirePerson(person_id=pid, side_id="red", pool_id="base", name=f"Hired {pid}",
                   gunnery=g, piloting=p, actor="t"),
    )  # fmt: skip
    return state


def test_ruling_r_seat_1_a_person_in_no_unit_takes_a_unit_without_a_crew() -> None:
    state = _hire(_captured(), "h1")
    seat = SeatCrew(unit_id="b1", person_id="h1", actor="t")
    # Not kept yet: the salvage has no place in the TO&E to be crewed in (L136).
    with pytest.raises(Refusal, match="line 136") as caught:
        states.run(state, seat)
    assert caught.value.code == "not_kept"
    state = _wreck(state, "r12")
    _, state = states.run(state, KeepSalvage(unit_id="b1", company="A", lance="L1", actor="t"))
    # The captured pilot is blue's, and a captive.
    with pytest.raises(Refusal) as caught:
        states.run(state, SeatCrew(unit_id="b1", person_id="p-b1", actor="t"))
    assert caught.value.code == "other_side"
    # A pilot seated in a crewed unit is not transferred (L154).
    with pytest.raises(Refusal, match="line 154") as caught:
        states.run(state, SeatCrew(unit_id="b1", person_id="p-r1", actor="t"))
    assert caught.value.code == "assigned"
    # The hired pilot (in no unit) is seated: the allowed case.
    events, seated = states.run(state, seat)
    assert isinstance(events[0], CrewSeated)
    assert seated.units["b1"].crew == ("h1",) and seated.people["h1"].unit_id == "b1"
    # Now crewed: a second person is refused.
    again = _hire(seated, "h2")
    with pytest.raises(Refusal) as caught:
        states.run(again, SeatCrew(unit_id="b1", person_id="h2", actor="t"))
    assert caught.value.code == "crewed"
    # The pilot of the truly destroyed r12 is in effect in no unit: rescued, seated.
    _, rescued = states.run(state, SeatCrew(unit_id="b1", person_id="p-r12", actor="t"))
    assert rescued.units["b1"].crew == ("p-r12",)
    assert "p-r12" not in rescued.units["r12"].crew
    # A unit whose pilot died has no crew: a hired pilot takes it, the dead one is released.
    pilot = again.people["p-r2"]
    dead = replace(again, people={**again.people, "p-r2": replace(pilot, status=PersonStatus.DEAD)})
    _, after = states.run(dead, SeatCrew(unit_id="r2", person_id="h2", actor="t"))
    assert after.units["r2"].crew == ("h2",) and after.people["p-r2"].unit_id is None


def test_ruling_r_seat_2_dead_captive_and_another_type_are_refused() -> None:
    vehicle = states.fu("rv", kind=UnitKind.COMBAT_VEHICLE, chassis="Bulldog", model="")
    state = _wreck(_captured(red_extra=(vehicle,)), "r12")
    _, state = states.run(state, KeepSalvage(unit_id="b1", company="A", lance="L1", actor="t"))
    # The Bulldog's crew, its tank wrecked, is a vehicle crew: not a 'Mech pilot (L124).
    wrecked = _wreck(state, "rv")
    with pytest.raises(Refusal, match="line 124") as caught:
        states.run(wrecked, SeatCrew(unit_id="b1", person_id="p-rv", actor="t"))
    assert caught.value.code == "not_same_type"
    # The referee may seat them anyway: recorded with who and why.
    events, over = states.run(
        wrecked, SeatCrew(unit_id="b1", person_id="p-rv", note=NOTE, actor="Ann")
    )
    (event,) = events
    assert isinstance(event, CrewSeated) and event.note == NOTE
    assert over.units["b1"].crew == ("p-rv",)
    # r12's pilot, dead or held captive, cannot be seated; free and alive, he can.
    pilot = state.people["p-r12"]
    dead = replace(
        state, people={**state.people, "p-r12": replace(pilot, status=PersonStatus.DEAD)}
    )
    with pytest.raises(Refusal) as caught:
        states.run(dead, SeatCrew(unit_id="b1", person_id="p-r12", actor="t"))
    assert caught.value.code == "dead"
    held = replace(state, battles=replace(state.battles, captured_people={"p-r12": "blue"}))
    with pytest.raises(Refusal) as caught:
        states.run(held, SeatCrew(unit_id="b1", person_id="p-r12", actor="t"))
    assert caught.value.code == "captive"
    _, ok = states.run(state, SeatCrew(unit_id="b1", person_id="p-r12", actor="t"))
    assert ok.units["b1"].crew == ("p-r12",)


def test_ruling_r_seat_2_a_hire_crews_the_type_hired() -> None:
    # L124: "replaced by another unassigned Pilot or from another Combat Unit of the same type
    # (e.g. BattleMech, or Vehicle)"; the Recruit table's columns say what was hired (R-SEAT-2).
    state = _wreck(_captured(), "r12")
    _, state = states.run(state, KeepSalvage(unit_id="b1", company="A", lance="L1", actor="t"))

    def hire(pid: str, hire_as: str | None, vehicle_crew: bool = False) -> CampaignState:
        _, after = states.run(
            state,
            HirePerson(person_id=pid, side_id="red", pool_id="base", name=f"Hired {pid}",
                       gunnery=4, piloting=5, hire_as=hire_as, vehicle_crew=vehicle_crew,
                       actor="t"),
        )  # fmt: skip
        assert isinstance(after, CampaignState)
        return after

    crew = hire("h-crew", "vehicle_crew")
    assert crew.people["h-crew"].seat_type == "vehicle"
    assert crew.pools["base"].balance == state.pools["base"].balance - 200  # L89: 200
    with pytest.raises(Refusal, match="line 124") as caught:
        states.run(crew, SeatCrew(unit_id="b1", person_id="h-crew", actor="t"))
    assert caught.value.code == "not_same_type" and "hired as a vehicle" in str(caught.value)
    flyer = hire("h-air", "aerospace_pilot")
    with pytest.raises(Refusal, match="line 124"):
        states.run(flyer, SeatCrew(unit_id="b1", person_id="h-air", actor="t"))
    # --vehicle-crew says the same as hire_as="vehicle_crew".
    assert hire("h-veh", None, vehicle_crew=True).people["h-veh"].seat_type == "vehicle"
    # The referee may seat them anyway, recorded.
    events, _ = states.run(crew, SeatCrew(unit_id="b1", person_id="h-crew", note=NOTE,
                                             actor="Ann"))  # fmt: skip
    assert isinstance(events[0], CrewSeated) and events[0].note == NOTE
    # A MechWarrior takes the 'Mech; a hire that said nothing (off the map) may take any seat.
    warrior = hire("h-mw", "mechwarrior")
    assert warrior.people["h-mw"].seat_type == "BattleMech"
    _, seated = states.run(warrior, SeatCrew(unit_id="b1", person_id="h-mw", actor="t"))
    assert seated.units["b1"].crew == ("h-mw",)
    untyped = hire("h-any", None)
    assert untyped.people["h-any"].seat_type is None
    states.run(untyped, SeatCrew(unit_id="b1", person_id="h-any", actor="t"))
    # Not a column of the Recruit table, or two answers: refused.
    for bad in (dict(hire_as="infantry"), dict(hire_as="mechwarrior", vehicle_crew=True)):
        with pytest.raises(Refusal) as caught:
            states.run(state, HirePerson(person_id="x", side_id="red", pool_id="base",
                                         name="X", gunnery=4, piloting=5, actor="t",
                                         **bad))  # type: ignore[arg-type]  # fmt: skip
        assert caught.value.code == "bad_hire_type"


def _renamed(state: CampaignState) -> CampaignState:
    """Red's company and lances named as MegaMek lists name them ("Alpha Company", "Fire
    Lance"), and a second company whose name begins the same ("Alpha Reserve")."""
    names = {"L1": "Fire Lance", "L2": "Battle Lance", "L3": "Command Lance"}
    units = dict(state.units)
    for uid in RED_MEKS:
        u = units[uid]
        units[uid] = replace(u, company="Alpha Company", lance=names.get(u.lance, u.lance))
    return replace(state, units=units)


def test_ruling_r_keep_3_company_and_lance_by_the_start_of_their_names() -> None:
    """L136 "They take control of the the 'Mech and may either keep it (only if they have
    space in there TO&E) or sell it." Ruling R-KEEP-3: the referee may type the company and
    the lance as the start of the names the report prints ("Alpha" for "Alpha Company"),
    without case; a start several names share, or none, is refused with the names."""
    state = _renamed(_captured())
    lances = sorted({state.units[uid].lance for uid in RED_MEKS})
    lance = lances[0].split()[0].lower()
    events, kept = states.run(
        state, KeepSalvage(unit_id="b1", company="alpha", lance=lance, note=NOTE, actor="Ann")
    )
    (event,) = events
    assert isinstance(event, SalvageKept)
    assert (event.company, event.lance) == ("Alpha Company", lances[0])
    assert kept.units["b1"].company == "Alpha Company"
    units = dict(state.units)
    units["r12"] = replace(units["r12"], company="Alpha Reserve")
    with pytest.raises(Refusal, match="line 136") as caught:
        states.run(replace(state, units=units),
                   KeepSalvage(unit_id="b1", company="Alpha", lance=lance, actor="t"))  # fmt: skip
    assert caught.value.code == "unknown_company"
    assert "Alpha Company, Alpha Reserve" in caught.value.message
