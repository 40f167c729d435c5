"""Every battle ruling (BR-n in docs/rulings.md) and the rule rows battle resolution uses."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

import pytest

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.mul_model import Entity
from mekref.adapters.megamek.unit_file import parse_unit_file
from mekref.rules.dice import verify
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_damage import mobility as _mobility
from mekref.rules.tripwire.battle_damage import unit_damage
from mekref.rules.tripwire.battle_messages import BattleResolved
from mekref.rules.tripwire.battle_model import (
    AmmoBinLoad,
    Fate,
    PersonFate,
    RecordSection,
    ReportedEjection,
    ReportedKill,
    UnitDamage,
)
from mekref.rules.tripwire.battle_pending import pending_battles
from mekref.rules.tripwire.commands import HealPerson, OpenPool
from mekref.rules.tripwire.file_view import reporting_side
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.repair import LocationDamage
from mekref.rules.tripwire.salvage import UnitMobility
from mekref.rules.tripwire.state import PoolKind

from .builders import UNITS_DIR, loc, mek, pilot
from .states import NOTE, SEED, campaign, close, control, file, fu, mek_locations, run, seen, submit

S = RecordSection


def _resolved(events: Sequence[object]) -> BattleResolved:
    found = [e for e in events if isinstance(e, BattleResolved)]
    assert len(found) == 1
    return found[0]


def test_ruling_br1_survivors_of_two_sides_report_for_no_side() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    both = file("a", seen("r1", S.SURVIVORS), seen("b1", S.SURVIVORS))
    assert reporting_side(state, both) is None
    assert reporting_side(state, file("b", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE))) == "red"
    # Red lost everything, but its wrecks scored the kill lines: still Red's view.
    kill = ReportedKill(killed_name="g", killed_unit_ids=("b1",), killer_unit_id="r1")
    wiped = file("c", seen("r1", S.SALVAGE), seen("b1", S.SALVAGE), kills=(kill,))
    assert reporting_side(state, wiped) == "red"
    assert reporting_side(state, file("d", seen("r1", S.SALVAGE), seen("b1", S.SALVAGE))) is None


def test_battle_waits_for_every_side_then_resolves_with_control() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    events, state = run(state, submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE))))
    (battle,) = pending_battles(state)
    assert battle.sides_expected == ("blue", "red") and battle.sides_reported == ("red",)
    assert battle.sides_missing == ("blue",)
    events, state = run(state, control(battle.battle_id, "red"))
    assert not any(isinstance(e, BattleResolved) for e in events)  # Blue's file is awaited
    events, state = run(state, submit(file("b", seen("b1", S.SURVIVORS), seen("r1", S.SALVAGE))))
    assert _resolved(events).resolution.control_side == "red"
    assert pending_battles(state) == []
    assert state.tracks_completed == 1


def test_close_before_every_side_needs_a_referee_note() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    _, state = run(state, submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE))))
    (battle,) = pending_battles(state)
    with pytest.raises(Refusal, match="waits for a file from blue"):
        run(state, replace(close(battle.battle_id, "red"), note=None))
    with pytest.raises(Refusal, match="say which side controls"):
        run(state, close(battle.battle_id))
    events, _ = run(state, close(battle.battle_id, "red"))
    assert _resolved(events).resolution.closed_by is not None


def test_a_second_file_with_the_same_units_joins_the_open_battle() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    _, state = run(state, submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE))))
    _, state = run(state, submit(file("b", seen("b1", S.SURVIVORS))))
    (battle,) = pending_battles(state)
    assert len(battle.files) == 2
    with pytest.raises(Refusal, match="already part of battle"):
        run(state, submit(file("b", seen("b1", S.SURVIVORS))))


def test_ruling_br2_owner_file_wins_and_the_conflict_is_listed() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    red_view = UnitDamage(locations=mek_locations(armor_lost=4))
    blue_view = UnitDamage(locations=mek_locations(armor_lost=9))
    events, _ = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS, damage=red_view), seen("b1", S.SALVAGE))),
        submit(file("b", seen("b1", S.SURVIVORS), seen("r1", S.SALVAGE, damage=blue_view))),
        close("battle-" + "a" * 12, "red"),
    )
    res = _resolved(events).resolution
    r1 = next(u for u in res.units if u.unit_id == "r1")
    assert r1.damage == red_view
    assert [c.subject for c in res.conflicts] == ["r1"]


def test_ruling_br3_devastated_is_truly_destroyed_and_never_salvage() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    crippled = UnitMobility(kind=UnitKind.MEK, legs_remaining=0)
    events, _ = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.DEVASTATED, mobility=crippled))),
        close("battle-" + "a" * 12, "red"),
    )
    b1 = next(u for u in _resolved(events).resolution.units if u.unit_id == "b1")
    assert b1.fate is Fate.TRULY_DESTROYED and b1.salvaged_by is None


def test_ruling_br12_unit_absent_from_its_own_sides_file_is_held_not_applied() -> None:
    """BR-12 (replacing BR-4's "missing"): Red's file speaks of b2, Blue's own file does not
    name it: the claim is held as a conflict and b2's fate is not touched."""
    state = campaign((fu("r1"),), (fu("b1"), fu("b2")))
    events, _ = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE), seen("b2", S.SALVAGE))),
        submit(file("b", seen("b1", S.SURVIVORS))),  # Blue's view does not name b2
        close("battle-" + "a" * 12, "red"),
    )
    resolution = _resolved(events).resolution
    fates = {u.unit_id: u.fate for u in resolution.units}
    assert fates == {"r1": Fate.OPERATIONAL, "b1": Fate.OPERATIONAL}
    (held,) = [c for c in resolution.conflicts if c.subject == "b2"]
    assert "red says salvage" in held.detail and "not applied" in held.detail


def test_ruling_br12_without_the_owners_file_the_referee_close_takes_the_claims() -> None:
    """Blue sent no file; the referee closed the battle on their word: Red's view stands."""
    state = campaign((fu("r1"),), (fu("b1"),))
    events, _ = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.DEVASTATED))),
        close("battle-" + "a" * 12, "red"),
    )
    resolution = _resolved(events).resolution
    assert {u.unit_id: u.fate for u in resolution.units}["b1"] is Fate.TRULY_DESTROYED
    assert not resolution.conflicts


def test_ruling_br5_ejected_crews_and_crews_of_salvaged_units() -> None:
    """ "Any ejected pilots or crew that are not within 6 hexes of a friendly infantry or unit
    with troop capacity (or a battleMech with hands) is considered captured." (line 348)"""
    state = campaign((fu("r1"), fu("r2")), (fu("b1"), fu("b2"), fu("b3")))
    legless = UnitMobility(kind=UnitKind.MEK, legs_remaining=0)
    rescued = ReportedEjection(
        person_ids=("p-b3",), names=("Pilot b3",), section=S.SALVAGE,
        left_unit_id="b3", picked_up_by="b1",
    )  # fmt: skip
    events, _ = run(
        state,
        submit(
            file(
                "a",
                seen("r1", S.SURVIVORS),
                seen("r2", S.SALVAGE, ejected=True, hits=1),
                seen("b1", S.SALVAGE, ejected=True, hits=2),  # ejected, nobody picked up
                seen("b2", S.SALVAGE, mobility=legless, hits=1),  # still aboard, salvaged
                seen("b3", S.SALVAGE, ejected=True),  # ejected and picked up by b1
                ejections=(rescued,),
            )
        ),
        close("battle-" + "a" * 12, "red"),
    )
    people = {p.person_id: p for p in _resolved(events).resolution.people}
    assert people["p-r2"].fate is PersonFate.RECOVERED
    assert people["p-b1"].fate is PersonFate.CAPTURED and people["p-b1"].captured_by == "red"
    assert people["p-b2"].fate is PersonFate.CAPTURED
    assert people["p-b3"].fate is PersonFate.RECOVERED


def test_ruling_br6_ammunition_tons_from_the_import_load() -> None:
    """ "Each unit must select is standard load out of ammunition. This may not change through
    the campaign." (line 23): the import list's shots are each bin's full load."""
    griffin = parse_unit_file((UNITS_DIR / "Griffin GRF-1N.mtf").read_bytes(), "Griffin GRF-1N.mtf")
    after = mek("Griffin", "GRF-1N", "g", pilot("Kai", "p"),
                locations=(loc(2, "Right Torso", ammo=((5, "IS Ammo LRM-10", 2),)),))  # fmt: skip
    load = (
        AmmoBinLoad(location="Right Torso", slot=5, ammo_type="IS Ammo LRM-10", shots=6),
        AmmoBinLoad(location="Right Torso", slot=6, ammo_type="IS Ammo LRM-10", shots=6),
    )
    used = unit_damage(merge_condition(after, griffin), UnitKind.MEK, load).ammo_used
    # Slot 5: 4 of 6 shots fired; slot 6 not written in an intact location: not counted.
    assert [(a.ammo_type, a.tons) for a in used] == [("IS Ammo LRM-10", Fraction(2, 3))]
    gone = replace(after, locations=(loc(2, "Right Torso", destroyed=True),))
    used = unit_damage(merge_condition(gone, griffin), UnitKind.MEK, load).ammo_used
    assert [(a.ammo_type, a.tons) for a in used] == [("IS Ammo LRM-10", Fraction(2))]
    # Without an import load: a bin of unknown capacity costs a ton only when empty.
    empty = replace(after, locations=(loc(2, "Right Torso", ammo=((5, "IS Ammo LRM-10", 0),)),))
    used = unit_damage(merge_condition(empty, None), UnitKind.MEK, None).ammo_used
    assert [(a.ammo_type, a.tons) for a in used] == [("IS Ammo LRM-10", Fraction(1))]


def _bulldog(**changes: object) -> Entity:
    tank = Entity(chassis="Bulldog Medium Tank", model="", movement_mode="Tracked")
    return replace(tank, **changes)  # type: ignore[arg-type]


def test_ruling_br7_vehicle_immobile_by_motive_damage_or_engine_hit() -> None:
    """ "- The Vehicle is Immobile." (line 143)"""
    design = parse_unit_file(
        (UNITS_DIR / "Bulldog Medium Tank.blk").read_bytes(), "Bulldog Medium Tank.blk"
    )
    kind = UnitKind.COMBAT_VEHICLE
    assert not _mobility(merge_condition(_bulldog(motive_damage=3), design), kind).vehicle_immobile
    assert _mobility(merge_condition(_bulldog(motive_damage=4), design), kind).vehicle_immobile
    engine = _bulldog(tank_crits=(("engine", "hit"),))
    assert _mobility(merge_condition(engine, design), kind).vehicle_immobile


def test_vehicle_truly_destroyed_when_any_location_internal_is_zero() -> None:
    """ "A vehicle is truly destroyed if any of its locations reach 0 internal structure.\""""
    tank = fu("t1", kind=UnitKind.COMBAT_VEHICLE, tons=60, crew=2)
    state = campaign((fu("r1"),), (tank,))
    front_gone = UnitDamage(
        locations=(
            LocationDamage(name="Front", armor_max=24, armor_now=0, internal_max=6, internal_now=0),
            LocationDamage(name="Rear", armor_max=20, armor_now=20, internal_max=6, internal_now=6),
        )
    )
    events, _ = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS),
                    seen("t1", S.SALVAGE, kind=UnitKind.COMBAT_VEHICLE, damage=front_gone))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    t1 = next(u for u in _resolved(events).resolution.units if u.unit_id == "t1")
    assert t1.fate is Fate.TRULY_DESTROYED
    assert t1.repair.repairable is False
    assert t1.scrap_wp == 6  # "Truly Destroyed – Tonnage/10": 60/10


def test_vehicle_crew_hits_cost_60_each() -> None:
    """ "| Heal Vehicle Crew (Driver and/or Commander hit results) | 60 per damage |\""""
    tank = fu("t1", kind=UnitKind.COMBAT_VEHICLE, tons=60, crew=2)
    state = campaign((tank,), (fu("b1"),))
    events, _ = run(
        state,
        submit(file("a", seen("t1", S.SURVIVORS, kind=UnitKind.COMBAT_VEHICLE, crew_damage=2),
                    seen("b1", S.SALVAGE))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    t1 = next(u for u in _resolved(events).resolution.units if u.unit_id == "t1")
    assert t1.crew_heal_sp == 120


def test_infantry_truly_destroyed_with_the_last_trooper() -> None:
    """ "Battle Armour and Infantry are truly destroyed if the last trooper is killed.\""""
    platoon = fu("i1", kind=UnitKind.CONVENTIONAL_INFANTRY, tons=3)
    state = campaign((platoon,), (fu("b1"),))
    wiped = UnitDamage(troopers_alive=0, troopers_max=28)
    events, _ = run(
        state,
        submit(file("a", seen("i1", S.SALVAGE, kind=UnitKind.CONVENTIONAL_INFANTRY, damage=wiped),
                    seen("b1", S.SALVAGE))),
        close("battle-" + "a" * 12, "blue"),
    )  # fmt: skip
    i1 = next(u for u in _resolved(events).resolution.units if u.unit_id == "i1")
    assert i1.fate is Fate.TRULY_DESTROYED
    assert i1.scrap_wp is None  # "Scrap unit (Not CI)"


def test_mek_with_center_torso_internal_zero_is_truly_destroyed() -> None:
    """ "'Mechs are only truly destroyed if their Central Torso reaches 0 internal structure.\""""
    state = campaign((fu("r1"),), (fu("b1"),))
    dead_ct = UnitDamage(locations=mek_locations(ct_internal=0))
    legs = UnitDamage(locations=mek_locations(internal_lost=3))
    events, _ = run(
        state,
        submit(file("a", seen("r1", S.SALVAGE, damage=dead_ct), seen("b1", S.SALVAGE, damage=legs),
                    kills=(ReportedKill(killed_name="Griffin GRF-1N", killed_unit_ids=("b1",),
                                        killer_unit_id="r1"),))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    fates = {u.unit_id: u.fate for u in _resolved(events).resolution.units}
    # b1: destroyed in the game (own view: salvage) but repairable; not immobile by the list.
    assert fates["r1"] is Fate.TRULY_DESTROYED
    assert fates["b1"] is Fate.DESTROYED_REPAIRABLE


def test_salvage_list_rows_decide_what_the_field_holder_takes() -> None:
    """ "‘Mechs are immobile and can be salvaged if: ... The ‘Mech has two gyro hits or three
    engine hits." (line 140)"""
    state = campaign((fu("r1"),), (fu("b1"), fu("b2")))
    gyro = UnitMobility(kind=UnitKind.MEK, gyro_hits=2)
    one_engine = UnitMobility(kind=UnitKind.MEK, engine_hits=1)
    events, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE, mobility=gyro),
                    seen("b2", S.SALVAGE, mobility=one_engine),
                    kills=(ReportedKill(killed_name="x", killed_unit_ids=("b1", "b2"),
                                        killer_unit_id="r1"),))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    units = {u.unit_id: u for u in _resolved(events).resolution.units}
    assert units["b1"].fate is Fate.CAPTURED and units["b1"].salvage_reasons
    assert units["b2"].fate is Fate.DESTROYED_REPAIRABLE and units["b2"].salvaged_by is None
    assert state.units["b1"].side_id == "red" and state.units["b2"].side_id == "blue"


def test_kills_credit_the_killer_crew_once_and_allow_training() -> None:
    """ "Any MechWarriors ... who took part in a scenario and were awarded a kill may attempt to
    train to improve their skills." (line 110)"""
    state = campaign((fu("r1"),), (fu("b1"),))
    kill = ReportedKill(killed_name="Griffin GRF-1N", killed_unit_ids=("b1",), killer_unit_id="r1")
    _, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE), kills=(kill,))),
        submit(file("b", seen("b1", S.SALVAGE), seen("r1", S.SALVAGE), kills=(kill,))),
        close("battle-" + "a" * 12, "red"),
    )
    assert state.battles.kills == {"p-r1": 1}
    assert "p-r1" in state.battles.may_train


def test_death_roll_at_five_hits_is_named_and_recorded() -> None:
    """ "A MechWarrior with 5 Damage has a chance of death on the operating table. Roll a Death
    roll on 1D6. On a 4 – 6 they die." (line 125)"""
    state = campaign((fu("r1"),), (fu("b1"),))
    events, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS, hits=5), seen("b1", S.SALVAGE))),
        close("battle-" + "a" * 12, "red"),
    )
    resolved = _resolved(events)
    (roll,) = resolved.rolls
    assert roll.name == "death roll, pilot p-r1" and verify(SEED, roll)
    person = next(p for p in resolved.resolution.people if p.person_id == "p-r1")
    assert person.death_roll == roll
    assert (person.fate is PersonFate.DIED_OF_WOUNDS) == (roll.total >= 4)
    assert state.people["p-r1"].death_rolled


def test_track_counter_allows_one_heal_per_track() -> None:
    """ "Only 1 hit can be healed per Track" (line 123): each resolved battle is a track."""
    state = campaign((fu("r1"),), (fu("b1"),))
    _, state = run(
        state,
        OpenPool(pool_id="u", side_id="red", name="Union", kind=PoolKind.DROPSHIP,
                 dropship_class="Union", actor="t"),
        submit(file("a", seen("r1", S.SURVIVORS, hits=2), seen("b1", S.SALVAGE))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    heal = HealPerson(person_id="p-r1", pool_id="u", note=NOTE, actor="t")  # R-WHERE-1
    _, state = run(state, heal)
    with pytest.raises(Refusal, match="already healed this track"):
        run(state, heal)
    _, state = run(
        state,
        submit(file("c", seen("r1", S.SURVIVORS, hits=1), seen("b1", S.SALVAGE))),
        close("battle-" + "c" * 12, "red"),
    )
    _, state = run(state, heal)
    assert state.people["p-r1"].hits == 0 and state.tracks_completed == 2


def test_commander_lost_and_vp_rows() -> None:
    """ "| Enemy Force Commander captured/killed | 1* |" and "| Friendly Force Commander
    captured/killed. | -1* |"; "| 50% of Enemy force destroyed | 2 |"."""
    state = campaign((fu("r1", bv=1000),), (fu("b1", bv=1000, commander=True), fu("b2", bv=1000)))
    events, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.SALVAGE, hits=6),
                    seen("b2", S.SURVIVORS),
                    kills=(ReportedKill(killed_name="g", killed_unit_ids=("b1",),
                                        killer_unit_id="r1"),))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    sides = {s.side_id: s for s in _resolved(events).resolution.sides}
    # b1's pilot is dead: immobile ("the pilot has died of damage"), salvaged by Red.
    assert sides["red"].vp_delta == 2 + 1
    assert sides["blue"].vp_delta == -2 - 1
    assert sides["blue"].retires  # 1,000 of 2,000 left: "reaches 50% of its starting BV"
    assert state.battles.victory_points == {"red": 3, "blue": 0}


def test_ruling_br10_retreat_check_from_the_files_so_far() -> None:
    """ "A retreat may only be called if: ... The players force has suffered 25% damage (on BV)
    ... The players force commander has been killed" (lines 340-346)."""
    state = campaign((fu("r1", bv=1000, commander=True), fu("r2", bv=1000)), (fu("b1", bv=1000),))
    _, state = run(
        state,
        submit(file("a", seen("r1", S.SALVAGE, hits=6), seen("r2", S.SURVIVORS),
                    seen("b1", S.SALVAGE))),
    )  # fmt: skip
    from mekref.rules.tripwire.battle_pending import retreat_check
    from mekref.rules.tripwire.game import TRIPWIRE

    met = retreat_check(state, "battle-" + "a" * 12, "red", TRIPWIRE.dice_for(state))
    keys = [ref.line for ref in met]
    # Red lost 1,000 of 2,000 (50% >= 25%) and its commander; Blue is 1,000 v Red's 1,000 left.
    assert len(keys) == 2
    assert len(retreat_check(state, "battle-" + "a" * 12, "blue", TRIPWIRE.dice_for(state))) == 1
    assert state.rolls_used == 0  # a question: no roll was used


def test_ruling_br8_first_unit_of_each_lance_leads_it() -> None:
    """ "Each Lance in the force is lead by a Lieutenant who must be Veteran." (line 13)"""
    from mekref.adapters.megamek.mul_model import MulFile, RootKind
    from mekref.daemon.tripwire.cli_force import build_units
    from mekref.rules.tripwire.state import CampaignState

    units = [mek("Griffin", "GRF-1N", f"u{i}", pilot(f"P{i}", f"p{i}")) for i in range(6)]
    units[0] = replace(units[0], commander=True)
    mul = MulFile(root=RootKind.UNIT, version="0.49.19", entities=tuple(units))
    built = build_units(mul, CampaignState(), None, None)
    roles = [(b.lance, sorted(r.value for r in b.unit.roles)) for b in built]
    assert roles == [
        ("Lance 1", ["force_commander"]),
        ("Lance 1", []),
        ("Lance 1", []),
        ("Lance 1", []),
        ("Lance 2", ["lance_leader"]),
        ("Lance 2", []),
    ]
    assert [b.unit.unit_id for b in built] == [f"u{i}" for i in range(6)]  # ids kept


def test_foot_infantry_of_move_one_surrenders_if_its_side_retreats() -> None:
    """ "Infantry with a move of 1 and no transport have to lay down arms and surrender.\""""
    inf = UnitKind.CONVENTIONAL_INFANTRY
    state = campaign((fu("i1", kind=inf, tons=3), fu("i2", kind=inf, tons=3)), (fu("b1"),))
    full = UnitDamage(troopers_alive=28, troopers_max=28)
    events, _ = run(
        state,
        submit(file("a", replace(seen("i1", S.SURVIVORS, kind=inf, damage=full), move_mp=1),
                    replace(seen("i2", S.SURVIVORS, kind=inf, damage=full), move_mp=3),
                    seen("b1", S.SALVAGE))),
        close("battle-" + "a" * 12, "red"),
    )  # fmt: skip
    flags = {u.unit_id: u.surrenders_if_retreating for u in _resolved(events).resolution.units}
    assert flags == {"i1": True, "i2": False, "b1": False}


def test_referee_marks_a_unit_captured_and_its_crew_stays_behind() -> None:
    state = campaign((fu("r1"),), (fu("b1"),))
    from mekref.rules.tripwire.battle_messages import SetUnitFate

    mark = SetUnitFate(unit_id="b1", fate=Fate.CAPTURED, new_side="red", note=NOTE, actor="ref")
    _, state = run(state, mark)
    assert state.units["b1"].side_id == "red" and state.units["b1"].crew == ()
    assert state.people["p-b1"].unit_id is None and state.people["p-b1"].side_id == "blue"
    with pytest.raises(Refusal, match="already belongs"):
        run(state, mark)
    with pytest.raises(Refusal, match="names the side"):
        run(state, replace(mark, new_side=None))


def test_imported_ids_are_derived_from_the_seed_when_the_list_has_none() -> None:
    from mekref.adapters.megamek.mul_model import MulFile, RootKind
    from mekref.daemon.tripwire.cli_force import build_units

    anonymous = mek("Griffin", "GRF-1N", "x", pilot("Kai", "y"))
    anonymous = replace(anonymous, external_id=None)
    crew = anonymous.crew
    assert crew is not None
    anonymous = replace(
        anonymous, crew=replace(crew, members=(replace(crew.members[0], external_id=None),))
    )
    mul = MulFile(root=RootKind.UNIT, version="0.49.19", entities=(anonymous, anonymous))
    state = campaign((fu("r1"),), (fu("b1"),))
    first = build_units(mul, state, None, None, "red")
    again = build_units(mul, state, None, None, "red")
    ids = [(b.unit.unit_id, b.unit.crew[0].person_id) for b in first]
    assert ids == [(b.unit.unit_id, b.unit.crew[0].person_id) for b in again]
    assert len({i for pair in ids for i in pair}) == 4  # all distinct UUIDs
    other = build_units(mul, replace(state, seed="another"), None, None, "red")
    assert other[0].unit.unit_id != first[0].unit.unit_id


def test_utterly_destroyed_when_every_internal_location_is_gone() -> None:
    """ "Utterly Destroyed – Any unit that has had every internal location destroyed ...
    Utterly destroyed units can never be scrapped.\""""
    state = campaign((fu("r1"),), (fu("b1"),))
    gone = UnitDamage(
        locations=tuple(replace(loc, armor_now=0, internal_now=0) for loc in mek_locations())
    )
    events, state = run(
        state,
        submit(file("a", seen("r1", S.SURVIVORS), seen("b1", S.DEVASTATED, damage=gone))),
        close("battle-" + "a" * 12, "red"),
    )
    b1 = next(u for u in _resolved(events).resolution.units if u.unit_id == "b1")
    assert b1.fate is Fate.UTTERLY_DESTROYED
    assert b1.scrap_wp is None and b1.salvaged_by is None
    assert state.units["b1"].side_id == "blue"


def test_dropship_crews_are_gunnery_4_piloting_5() -> None:
    """L102: "DropShip Crews are considered to have Piloting 5 Gunnery 4." Whatever skills the
    unit list gives the crew, the campaign's DropShip crew is 4/5 (and says so)."""
    from mekref.adapters.megamek.blk_reader import parse_blk
    from mekref.adapters.megamek.mul_model import MulFile, RootKind
    from mekref.daemon.tripwire.cli_force import build_units
    from mekref.rules.tripwire.state import CampaignState

    from .builders import UNITS_DIR

    text = (UNITS_DIR / "Union (2708).blk").read_text(encoding="utf-8")
    union = parse_blk(text, "union")
    ship = mek("Union", union.model, "ds1", pilot("Captain Ng", "p-ds1", 2, 3),
               movement="Spheroid")  # fmt: skip
    mul = MulFile(root=RootKind.UNIT, version="0.49.19", entities=(ship,))
    (built,) = build_units(mul, CampaignState(), lambda e: union, None)
    assert built.unit.kind is UnitKind.DROPSHIP
    assert [(c.gunnery, c.piloting) for c in built.unit.crew] == [(4, 5)]
    assert any("L102" in n for n in built.notes)


def test_force_import_reads_the_compact_quirk_and_transport_from_the_design() -> None:
    """L11: "exactly 12 BattleMechs ... (additional BattleMechs may be taken is they have the
    compact quirk)". The Locust LCT-1V's design carries quirk:compact_mech, so a company of 12
    Griffins and one Locust keeps the 'Mech count; the role comes from the design the import
    read (it was typed by hand before). Cargo and troop space come from the design too."""
    from mekref.adapters.megamek.blk_reader import parse_blk
    from mekref.adapters.megamek.mtf_reader import parse_mtf
    from mekref.adapters.megamek.mul_model import MulFile, RootKind
    from mekref.daemon.tripwire.cli_force import build_units, force_of
    from mekref.rules.tripwire.model import UnitRole
    from mekref.rules.tripwire.ruleset import tripwire_rules
    from mekref.rules.tripwire.state import CampaignState

    from .builders import UNITS_DIR

    designs = {
        "Griffin": parse_mtf((UNITS_DIR / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "g"),
        "Locust": parse_mtf((UNITS_DIR / "Locust LCT-1V.mtf").read_text(encoding="utf-8"), "l"),
        "Maxim": parse_blk(
            (UNITS_DIR / "Maxim Heavy Hover Transport (Fire Support).blk").read_text(
                encoding="utf-8"
            ),
            "m",
        ),
    }
    griffins = [mek("Griffin", "GRF-1N", f"g{i}", pilot(f"P{i}", f"p{i}")) for i in range(12)]
    locust = mek("Locust", "LCT-1V", "l1", pilot("Lo", "p-l1"))
    company = [replace(e, force=f"Alpha|1||Lance {i // 4 + 1}|{i // 4 + 2}")
               for i, e in enumerate((*griffins, locust))]  # fmt: skip
    mul = MulFile(root=RootKind.UNIT, version="0.49.19", entities=tuple(company))
    built = build_units(mul, CampaignState(), lambda e: designs[e.chassis], None)
    assert UnitRole.COMPACT in built[-1].unit.roles
    assert not any(UnitRole.COMPACT in b.unit.roles for b in built[:-1])
    force = force_of(built)
    counts = [v for v in tripwire_rules().check_force(force).violations
              if v.rule == "mek_company.counts" and "'Mechs" in v.message]  # fmt: skip
    assert counts == []
    maxim = designs["Maxim"]
    ride = replace(mek("Maxim", maxim.model, "v1", pilot("Dr", "p-v1")), movement_mode="Hover")
    (truck,) = build_units(MulFile(root=RootKind.UNIT, version="0.49.19", entities=(ride,)),
                           CampaignState(), lambda e: maxim, None)  # fmt: skip
    assert truck.unit.troop_capacity_tons == Fraction(str(maxim.troop_tons)) > 0
