"""Rolled damage changes the unit's stored condition (rulings T-DM1 to T-DM5).

TripWire L199: "Maintenance – One day in every 7 days of operation standard maintenance must be
conducted (6 hours per unit). If this is not done, roll for location (using front) and roll a
critical hit (2 if a floating grit is rolled). this can be ignored by the Rugged quirk."
L401: "| 12 | Despised – ... Roll 1D6 per day while in a population center on a 6, one random
unit suffers 1D6 x 5 Damage from a bombing. ..."
L355: "... For each week over this add +1 fatigue and roll a consciousness check modified by
fatigue (as if each personnel was a Mech Warrior). If this fails, that personnel takes an
effective damage (or counts as an injured crew/driver)."
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from turn_world import placed, run, started

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.adapters.megamek.unit_kinds import UnitKind as DesignKind
from mekref.rules.dice import Dice
from mekref.rules.tripwire.armour_split import with_armor
from mekref.rules.tripwire.battle_model import Fate, UnitDamage
from mekref.rules.tripwire.battle_resolution import repair_line
from mekref.rules.tripwire.designs import RecordDesigns, stored_design
from mekref.rules.tripwire.model import TechBase, UnitKind
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, PersonStatus
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.turn import damage_tables
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn import rolled_damage as rd
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"


def _mtf(name: str) -> UnitDesign:
    return parse_mtf((UNITS / f"{name}.mtf").read_text(encoding="utf-8"), name)


GRIFFIN = _mtf("Griffin GRF-1N")
LOCUST = _mtf("Locust LCT-1V")


def _unit(uid: str, tons: int) -> CampaignUnit:
    return CampaignUnit(
        unit_id=uid,
        side_id="s",
        chassis="c",
        model="m",
        kind=UnitKind.MEK,
        tonnage=Fraction(tons),
        bv=1,
        tech_base=TechBase.INNER_SPHERE,
        company="",
        lance="",
        roles=frozenset(),
        crew=(),
    )


def _fresh(unit: CampaignUnit, design: UnitDesign) -> UnitDamage:
    return rd.condition_of(unit, design, None, None)


def test_the_front_column_and_the_floating_critical() -> None:
    # L199: "roll for location (using front) ... (2 if a floating grit is rolled)"
    assert damage_tables.mek_location(DesignKind.BIPED_MEK, 2) == ("Center Torso", True)
    assert damage_tables.mek_location(DesignKind.BIPED_MEK, 7) == ("Center Torso", False)
    assert damage_tables.mek_location(DesignKind.BIPED_MEK, 3)[0] == "Right Arm"
    assert damage_tables.mek_location(DesignKind.BIPED_MEK, 12)[0] == "Head"
    assert damage_tables.mek_location(DesignKind.QUAD_MEK, 10)[0] == "Front Left Leg"
    assert damage_tables.vehicle_location(10, has_turret=False) == "Front"
    assert damage_tables.vehicle_location(5, has_turret=True) == "Right"


def test_ruling_t_dm2_the_critical_roll_is_the_determining_critical_hits_table() -> None:
    # L199: "roll a critical hit": 2-7 none, 8-9 one, 10-11 two, 12 three (no limb blown off).
    assert [damage_tables.criticals_for(n) for n in range(2, 13)] == [0] * 6 + [1, 1, 2, 2, 3]


def test_ruling_t_dm3_a_maintenance_critical_hits_a_slot_that_can_be_hit() -> None:
    """L199 on the Griffin: location roll 7 (Center Torso), critical roll 12 (three
    criticals): three different hittable Center Torso slots are hit, the unit is damaged, and
    its repair bill is the "Repair Internal Structure/Criticals" task (L70: 6 hours), which
    needs a repair facility (L277)."""
    unit = _unit("g", 55)
    before = _fresh(unit, GRIFFIN)
    applied, rolls, dice = rd.maintenance(
        unit, GRIFFIN, before, Fate.OPERATIONAL, 7, (12,), Dice("seed", 40)
    )
    hit = [x for x in applied.hits if x.slot is not None]
    assert len(hit) == 3 and {x.location for x in hit} == {"Center Torso"}
    assert len({x.slot for x in hit}) == 3  # a destroyed slot is never hit twice
    ct = dict(GRIFFIN.crit_slots)[1]
    for x in hit:
        slot = next(s for s in ct if s.index == x.slot)
        assert not slot.is_empty and x.item == slot.name
    assert applied.damage.critical_hits == 3
    assert [(d.location, d.slot, d.hit, d.destroyed) for d in applied.damage.damaged_slots] == [
        ("Center Torso", x.slot, True, True) for x in hit
    ]
    assert applied.damage.armor_lost == 0 and applied.damage.internal_lost == 0
    assert applied.fate is Fate.DAMAGED
    assert dice.next_index == 40 + len(rolls) and len(rolls) >= 6  # half + slot per critical
    line = repair_line(unit, applied.damage, load_tables())
    assert line.tech_hours == 6 and line.needs_repair_facility and line.repairable


def test_a_short_critical_roll_changes_nothing() -> None:
    unit = _unit("g", 55)
    before = _fresh(unit, GRIFFIN)
    applied, rolls, _ = rd.maintenance(
        unit, GRIFFIN, before, Fate.OPERATIONAL, 5, (7,), Dice("seed", 0)
    )
    assert rolls == () and applied.damage == before and applied.fate is Fate.OPERATIONAL


def test_ruling_t_dm3_a_bombing_lands_in_five_point_groups() -> None:
    """L401: "1D6 x 5 Damage from a bombing": 30 points on a Locust in six groups of 5, each on
    the front column; every point is taken by armour or structure somewhere."""
    unit = _unit("l", 20)
    before = _fresh(unit, LOCUST)
    applied, rolls, _ = rd.bombing(unit, LOCUST, before, Fate.OPERATIONAL, 30, Dice("b", 0))
    groups = [r for r in rolls if r.name.endswith("bombing location (front)")]
    assert len(groups) == 6
    taken = sum(x.armor + x.internal for x in applied.hits)
    lost = sum(int(n.split()[0]) for n in applied.notes if "point(s)" in n)
    assert taken + lost == 30
    assert applied.damage.armor_lost + applied.damage.internal_lost == taken
    assert applied.fate in (Fate.DAMAGED, Fate.DESTROYED_REPAIRABLE, Fate.TRULY_DESTROYED)
    # T-DM4: each group in the head is a hit on the MechWarrior.
    assert applied.head_hits == sum(
        1 for x in applied.hits if x.location == "Head" and (x.armor or x.internal)
    )


def test_damage_past_a_lost_location_moves_inward() -> None:
    """Every location but the head and centre torso is gone: a bombing group lands in the
    centre torso whatever the location roll (arm -> torso -> centre torso)."""
    unit = _unit("l", 20)
    fresh = _fresh(unit, LOCUST)
    wrecked = replace(
        fresh,
        locations=tuple(
            loc
            if loc.name in ("Head", "Center Torso")
            else replace(with_armor(loc, 0), internal_now=0)
            for loc in fresh.locations
        ),
    )
    applied, rolls, _ = rd.bombing(unit, LOCUST, wrecked, Fate.DAMAGED, 5, Dice("t", 0))
    (location_roll,) = [r for r in rolls if r.name.endswith("(front)")]
    expected = "Head" if location_roll.total == 12 else "Center Torso"
    assert [x.location for x in applied.hits if x.armor or x.internal] == [expected]


def test_ruling_t_dm4_the_consciousness_target() -> None:
    # L355: "roll a consciousness check modified by fatigue (as if each personnel was a Mech
    # Warrior)": Total Warfare's table by hits taken (none: the first row), plus fatigue.
    assert rd.consciousness_target(0, 1) == 4
    assert rd.consciousness_target(1, 1) == 4
    assert rd.consciousness_target(3, 2) == 9
    assert rd.consciousness_target(5, 0) == 11


# --- in a campaign ---------------------------------------------------------------------------


def _with_designs(state: CampaignState) -> CampaignState:
    griffin, locust = stored_design(GRIFFIN), stored_design(LOCUST)
    state, _ = run(
        state,
        RecordDesigns(
            actor="referee",
            side_id="loyalist",
            designs=(griffin, locust),
            units=(("L-GRF", griffin.key), ("L-LCT", locust.key)),
        ),
    )
    return state


def _day(state: CampaignState, *orders: FormationOrder) -> tuple[CampaignState, list[ev.Event]]:
    assert state.strategic is not None
    day = state.strategic.day
    return run(
        state,
        SubmitOrders(actor="loyalist", side_id="loyalist", day=day, orders=orders),
        ResolveTurn(actor="referee", day=day),
    )


def test_ruling_t_dm1_a_bombing_changes_the_stored_condition() -> None:
    """L401 in a campaign: a Despised force's Griffin and Locust stand in the Manufacturing
    Facility; each bombing is laid on the struck unit's stored condition (ledger and fate),
    and a unit without a stored design is named in a note instead (T-DM5)."""
    state = placed(
        _with_designs(started()),
        (
            FormationSpec(
                formation_id="a", name="A", unit_ids=("L-GRF", "L-LCT", "L-WVR"), hex="1105"
            ),
        ),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",)),),
    )
    assert state.strategic is not None
    state = replace(state, strategic=replace(state.strategic, unrest={"loyalist": 12, "rebel": 7}))
    applied: list[ev.UnitDamageRolled] = []
    noted = 0
    for _ in range(12):
        state, events = _day(state, FormationOrder(formation_id="a", action="maintenance"))
        for e in events:
            if isinstance(e, ev.SabotageRolled) and e.unit_id is not None:
                done = [x for x in events if isinstance(x, ev.UnitDamageRolled)]
                if e.unit_id == "L-WVR":
                    assert done == []
                    notes = [n for x in events if isinstance(x, ev.FormationsUpdated)
                             for n in x.notes]  # fmt: skip
                    assert any("L-WVR" in n and "no design" in n for n in notes)
                    noted += 1
                else:
                    (d,) = done
                    assert d.unit_id == e.unit_id and d.cause == "sabotage"
                    assert sum(x.armor + x.internal for x in d.lines) <= e.damage
                    assert state.battles.unit_damage[d.unit_id] == d.damage
                    assert state.battles.fates[d.unit_id] is d.fate
                    applied.append(d)
    assert applied or noted, "no bombing in twelve days: pick another formation or more days"
    for d in applied:
        assert d.damage.armor_lost + d.damage.internal_lost > 0


def test_ruling_t_dm4_a_week_beyond_the_rations_checks_each_crew_member() -> None:
    """L355: seven days on rations are carried; from day 14 on rations (a week over) the
    formation takes +1 fatigue and each crew member rolls 2d6 against the consciousness
    number for their hits plus the fatigue; a failure is a hit (the report's people)."""
    state = placed(
        started(),
        (FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF", "L-LCT"), hex="0806"),),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",)),),
    )
    checked: list[ev.ConsciousnessChecked] = []
    for day in range(1, 15):
        state, events = _day(state, FormationOrder(formation_id="a", action="maintenance"))
        these = [
            e for e in events if isinstance(e, ev.ConsciousnessChecked) and e.formation_id == "a"
        ]
        assert (these != []) == (day == 14), day
        checked += these
    (c,) = checked
    assert c.fatigue == 1 and {x.person_id for x in c.checks} == {"P-L-GRF", "P-L-LCT"}
    for x in c.checks:
        assert x.target == rd.consciousness_target(0, 1) == 4
        assert x.passed == (x.total >= 4)
        person = state.people[x.person_id]
        assert person.hits == (0 if x.passed else 1) == x.hits_after
        assert person.status is PersonStatus.ACTIVE
    (roll_names,) = {tuple(r.name for r in c.rolls)}
    assert roll_names == (
        "consciousness check (rations), P-L-GRF",
        "consciousness check (rations), P-L-LCT",
    )


@pytest.mark.parametrize("hits", [5])
def test_ruling_t_dm4_a_sixth_hit_kills(hits: int) -> None:
    # L133: "| 6 Hits (KIA) | Not Possible |"
    from mekref.rules.tripwire.turn.day_damage import evolve_consciousness

    state = started()
    state = replace(
        state, people={**state.people, "P-L-GRF": replace(state.people["P-L-GRF"], hits=hits)}
    )
    e = ev.ConsciousnessChecked(
        side_id="loyalist",
        day=14,
        formation_id="a",
        fatigue=1,
        checks=(
            ev.ConsciousnessCheck(
                person_id="P-L-GRF",
                unit_id="L-GRF",
                target=12,
                total=3,
                passed=False,
                hits_after=6,
            ),
        ),
    )
    after = evolve_consciousness(state, e)
    assert after.people["P-L-GRF"].hits == 6
    assert after.people["P-L-GRF"].status is PersonStatus.DEAD


def test_ruling_t_dm3_a_vehicle_takes_a_bombing_on_its_front_column() -> None:
    """L401 on a Bulldog: 30 points in six groups on the Ground Combat Vehicle table's front
    column (2-4 Front, 5 Right, 6-8 Front, 9 Left, 10-12 Turret); no critical slots."""
    from mekref.adapters.megamek.blk_reader import parse_blk

    bulldog = parse_blk((UNITS / "Bulldog Medium Tank.blk").read_text(encoding="utf-8"), "b")
    unit = replace(_unit("b", 60), kind=UnitKind.COMBAT_VEHICLE)
    before = _fresh(unit, bulldog)
    applied, rolls, _ = rd.bombing(unit, bulldog, before, Fate.OPERATIONAL, 30, Dice("v", 0))
    expected = []
    for r in rolls:
        assert r.name.endswith("bombing location (front)")  # no critical rolls for a vehicle
        expected.append(damage_tables.vehicle_location(r.total, has_turret=True))
    assert [x.location for x in applied.hits] == expected and len(expected) == 6
    assert sum(x.armor + x.internal for x in applied.hits) == 30
    assert applied.damage.armor_lost + applied.damage.internal_lost == 30
    assert applied.damage.critical_hits == 0 and applied.damage.damaged_slots == ()
    assert not damage_tables.supported(bulldog) and damage_tables.supported(bulldog, bombing=True)


def test_ruling_t_dm4_crew_hits_of_a_rolled_damage_event_are_kept() -> None:
    # L133: "| 6 Hits (KIA) | Not Possible |": a lost head kills the MechWarrior (T-DM4).
    from mekref.rules.tripwire.turn.day_damage import evolve_damage

    state = started()
    unit = state.units["L-LCT"]
    damage = _fresh(unit, LOCUST)
    e = ev.UnitDamageRolled(
        side_id="loyalist",
        day=3,
        unit_id="L-LCT",
        cause="sabotage",
        lines=(ev.DamageLine(location="Head", armor=5),),
        damage=damage,
        fate=Fate.DESTROYED_REPAIRABLE,
        crew_hits=(("P-L-LCT", 6),),
    )
    after = evolve_damage(state, e)
    assert after.battles.unit_damage["L-LCT"] == damage
    assert after.battles.fates["L-LCT"] is Fate.DESTROYED_REPAIRABLE
    assert after.people["P-L-LCT"].status is PersonStatus.DEAD
