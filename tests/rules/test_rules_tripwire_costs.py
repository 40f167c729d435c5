"""The Support Point cost table, its footnotes, technician time and the DropShip table."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.model import TechBase, UnitKind
from mekref.rules.tripwire.repair import (
    AmmoTier,
    AmmoUse,
    DamageState,
    LocationDamage,
    RepairSubject,
    ammo_tier,
    bomb_cost,
    damage_state,
    dropship_crew_cost,
    extra_configurations_cost,
    formation_change_cost,
    reconfigure_cost,
    repair_bill,
    scrap_value,
    sell_value,
    technician_days,
)
from mekref.rules.tripwire.table_loader import load_tables

T = load_tables()


def loc(
    name: str, armor: tuple[int, int], internal: tuple[int, int], ct: bool = False
) -> LocationDamage:
    return LocationDamage(
        name=name,
        armor_max=armor[0],
        armor_now=armor[1],
        internal_max=internal[0],
        internal_now=internal[1],
        is_center_torso=ct,
    )


def mek(
    *locations: LocationDamage, tons: int = 50, tech: TechBase = TechBase.INNER_SPHERE, **kw: Any
) -> RepairSubject:
    if not locations:
        locations = (loc("CT", (20, 20), (16, 16), ct=True), loc("LA", (10, 10), (8, 8)))
    return RepairSubject(
        unit_id="m",
        kind=UnitKind.MEK,
        tonnage=Fraction(tons),
        tech_base=tech,
        locations=locations,
        **kw,
    )


ALL_ARMOR_GONE = (loc("CT", (20, 0), (16, 16), ct=True), loc("LA", (10, 0), (8, 8)))
ALL_INTERNAL_HALF = (loc("CT", (20, 20), (16, 8), ct=True), loc("LA", (10, 10), (8, 4)))


def test_row_mek_entire_armor_costs_tonnage() -> None:
    """ "| Repair ‘Mechs Entire Armor* # | Tonnage |"."""
    assert T.cost("repair.mek.armor").ref.source == "| Repair ‘Mechs Entire Armor* # | Tonnage |"
    assert repair_bill(mek(*ALL_ARMOR_GONE)).armor_sp == 50


def test_row_mek_entire_internal_costs_tonnage_x2() -> None:
    """ "| Repair ‘Mechs Entire Internal Structure** # | Tonnage x 2 |"; half lost, half price."""
    row = T.cost("repair.mek.internal")
    assert row.ref.source == "| Repair ‘Mechs Entire Internal Structure** # | Tonnage x 2 |"
    assert repair_bill(mek(*ALL_INTERNAL_HALF)).internal_sp == 50


def vehicle(*locations: LocationDamage, tons: int = 35, **kw: Any) -> RepairSubject:
    return RepairSubject(
        unit_id="v", kind=UnitKind.COMBAT_VEHICLE, tonnage=Fraction(tons), locations=locations, **kw
    )


def test_row_vehicle_armor_costs_half_tonnage_rounded_up() -> None:
    """ "| Repair Vehicles Entire Armor* # | Tonnage/2 |": 35 t -> 17.5 -> 18 (R-COST-2)."""
    assert (
        T.cost("repair.vehicle.armor").ref.source
        == "| Repair Vehicles Entire Armor* # | Tonnage/2 |"
    )
    bill = repair_bill(vehicle(loc("Front", (20, 0), (4, 4)), loc("Rear", (10, 0), (4, 4))))
    assert bill.armor_sp == 18


def test_row_vehicle_internal_costs_tonnage() -> None:
    """ "| Repair Vehicles Entire Internal Structure** # | Tonnage |"."""
    assert T.cost("repair.vehicle.internal").ref.source == (
        "| Repair Vehicles Entire Internal Structure** # | Tonnage |"
    )
    bill = repair_bill(vehicle(loc("Front", (20, 20), (4, 2)), loc("Rear", (10, 10), (4, 2))))
    assert bill.internal_sp == 18  # half of 35


def test_row_battle_armor_suits_x_tonnage_x_2_5() -> None:
    """ "| Repair Battle Armor # | No. of suits x tonnage per suit x 2.5 |"."""
    assert T.cost("repair.battle_armor").ref.source == (
        "| Repair Battle Armor # | No. of suits x tonnage per suit x 2.5 |"
    )
    ba = RepairSubject(
        unit_id="ba",
        kind=UnitKind.BATTLE_ARMOR,
        tonnage=Fraction(1),
        suits=4,
        suits_damaged=3,
        troopers_alive=4,
    )
    assert repair_bill(ba).armor_sp == 8  # 3 x 1 x 2.5 = 7.5 -> 8


def test_rows_aerospace_fighter_armor_tonnage_and_si_x2() -> None:
    """ "| Repair AeroSpace Fighter Armor | Tonnage |" and
    "| Repair AeroSpace Fighter Internal Structure/SI | Tonnage x 2 |"."""
    assert T.cost("repair.aerospace_fighter.armor").ref.source == (
        "| Repair AeroSpace Fighter Armor | Tonnage |"
    )
    assert T.cost("repair.aerospace_fighter.internal").ref.source == (
        "| Repair AeroSpace Fighter Internal Structure/SI | Tonnage x 2 |"
    )
    fighter = RepairSubject(
        unit_id="f",
        kind=UnitKind.AEROSPACE_FIGHTER,
        tonnage=Fraction(50),
        locations=(loc("Nose", (30, 0), (0, 0)), loc("SI", (0, 0), (10, 5))),
    )
    bill = repair_bill(fighter)
    assert (bill.armor_sp, bill.internal_sp) == (50, 50)


def test_rows_dropship_armor_x2_si_x5_landing_gear_half_crew_100() -> None:
    """DropShip table: "| Repair Armor on Dropship | Tonnage x 2 |", "| Repair Internal
    Structure/SI on DropShip | Tonnage x 5 |", "| Repair Damage to Landing Gear | Tonnage /2 |",
    "| Replace/Heal DropShip Crew | 100 per crew member |"."""
    assert (
        T.cost("repair.dropship.armor").ref.source == "| Repair Armor on Dropship | Tonnage x 2 |"
    )
    assert T.cost("repair.dropship.internal").ref.source == (
        "| Repair Internal Structure/SI on DropShip | Tonnage x 5 |"
    )
    assert T.cost("repair.dropship.landing_gear").ref.source == (
        "| Repair Damage to Landing Gear | Tonnage /2 |"
    )
    ship = RepairSubject(
        unit_id="ds",
        kind=UnitKind.DROPSHIP,
        tonnage=Fraction(3500),
        locations=(loc("Nose", (100, 50), (0, 0)), loc("SI", (0, 0), (20, 16))),
        landing_gear_damaged=True,
    )
    bill = repair_bill(ship)
    assert bill.armor_sp == 3500  # half of 3500 x 2
    assert bill.internal_sp == 3500  # a fifth of 3500 x 5
    assert bill.landing_gear_sp == 1750
    assert dropship_crew_cost(3) == 300


def test_rows_sell_mek_x10_vehicle_x5() -> None:
    """ "| Sell ‘Mech*** # | Tonnage x 10 |" and "| Sell Vehicle *** # | Tonnage x 5 |"."""
    assert T.cost("sell.mek").ref.source == "| Sell ‘Mech*** # | Tonnage x 10 |"
    assert T.cost("sell.vehicle").ref.source == "| Sell Vehicle *** # | Tonnage x 5 |"
    assert sell_value(mek()) == 500
    assert sell_value(vehicle(loc("Front", (20, 20), (4, 4)))) == 175


def test_scrap_row_by_damage_state() -> None:
    """ "| Scrap unit (Not CI) | Armor Damage Only – Tonnage x 5 Internal Damage – Tonnage Truly
    Destroyed – Tonnage/10 Utterly Destroyed – None |"."""
    assert T.cost("scrap.truly_destroyed").ref.source.startswith("| Scrap unit (Not CI) |")
    assert scrap_value(mek(*ALL_ARMOR_GONE)) == 250
    assert scrap_value(mek(*ALL_INTERNAL_HALF)) == 50
    truly = mek(loc("CT", (20, 0), (16, 0), ct=True), loc("LA", (10, 10), (8, 8)))
    assert damage_state(truly) is DamageState.TRULY_DESTROYED
    assert scrap_value(truly) == 5
    utterly = mek(loc("CT", (20, 0), (16, 0), ct=True), loc("LA", (10, 0), (8, 0)))
    with pytest.raises(Refusal) as caught:
        scrap_value(utterly)
    assert caught.value.code == "utterly_destroyed"


def test_scrap_is_not_for_conventional_infantry() -> None:
    ci = RepairSubject(
        unit_id="ci", kind=UnitKind.CONVENTIONAL_INFANTRY, tonnage=Fraction(3), troopers_alive=20
    )
    with pytest.raises(Refusal):
        scrap_value(ci)


def test_ruling_undamaged_units_scrap_at_the_armor_only_rate() -> None:
    """R-SCRAP-1."""
    assert scrap_value(mek()) == 250


def test_rearm_rows_5_10_50_per_ton() -> None:
    """ "Re-arm Unit (Introductory, per ton of ammunition [AC, LRM, SRM, MG]) | 5",
    "(Standard, ...) | 10", "(Advanced/Experimental ...) | 50"."""
    assert T.cost("rearm.introductory").ref.line == 85
    assert T.cost("rearm.standard").ref.line == 86
    assert T.cost("rearm.advanced").ref.line == 87
    subject = mek(
        ammo_used=(
            AmmoUse(ammo_type="IS Ammo AC/10", tons=Fraction(1)),
            AmmoUse(ammo_type="ISStreakSRM4 Ammo", tons=Fraction(1, 2)),
            AmmoUse(ammo_type="ISRotaryAC5 Ammo", tons=Fraction(1)),
        )
    )
    assert repair_bill(subject).rearm_sp == 5 + 5 + 50


@pytest.mark.parametrize(
    ("name", "tier"),
    [
        ("IS Ammo AC/10", AmmoTier.INTRODUCTORY),
        ("ISLRM20 Ammo", AmmoTier.INTRODUCTORY),
        ("ISSRM6 Ammo", AmmoTier.INTRODUCTORY),
        ("IS Ammo MG - Full", AmmoTier.INTRODUCTORY),
        ("CLMG Ammo (Half)", AmmoTier.INTRODUCTORY),
        ("ISStreakSRM2 Ammo", AmmoTier.STANDARD),
        ("IS LB 10-X AC Ammo", AmmoTier.STANDARD),
        ("ISUltraAC5 Ammo", AmmoTier.STANDARD),
        ("ISGaussAmmo", AmmoTier.STANDARD),
        ("ISAMS Ammo", AmmoTier.STANDARD),
        ("ISArrowIV Ammo", AmmoTier.STANDARD),
        ("ISLRM15 Artemis-capable Ammo", AmmoTier.STANDARD),
        ("ISSRM6 Inferno Ammo", AmmoTier.STANDARD),
        ("Clan ATM 9 Ammo", AmmoTier.STANDARD),
        ("ISMML7 LRM Ammo", AmmoTier.STANDARD),
        ("ISRotaryAC5 Ammo", AmmoTier.ADVANCED),
        ("ISHVAC10 Ammo", AmmoTier.ADVANCED),
        ("ISLAC5 Ammo", AmmoTier.ADVANCED),
        ("IS MRM 20 Ammo", AmmoTier.ADVANCED),
        ("ISLRM10 Thunder Ammo", AmmoTier.ADVANCED),
        ("ISHeavyMG Ammo", AmmoTier.ADVANCED),
        ("ISLongTom Ammo", AmmoTier.ADVANCED),
    ],
)
def test_ammo_tier_classifier(name: str, tier: AmmoTier) -> None:
    assert ammo_tier(name) is tier


def test_tech_base_multipliers_clan_x2_is_mixed_x1_25() -> None:
    """ "| #Unit has Clan or Clan Mixed Technology Base | Cost x 2 |" and
    "| #Unit has Inner Sphere Mixed Technology Base | Cost x 1.25 |"; "# Apply Technology Base
    Multiplier to Repair Armor, Repair Internal Structure, and Scrap values"."""
    assert T.cost("tech_base.clan").ref.source == (
        "| #Unit has Clan or Clan Mixed Technology Base | Cost x 2 |"
    )
    assert repair_bill(mek(*ALL_ARMOR_GONE, tech=TechBase.CLAN)).armor_sp == 100
    assert repair_bill(mek(*ALL_ARMOR_GONE, tech=TechBase.CLAN_MIXED)).armor_sp == 100
    assert repair_bill(mek(*ALL_ARMOR_GONE, tech=TechBase.INNER_SPHERE_MIXED)).armor_sp == 63
    assert scrap_value(mek(*ALL_ARMOR_GONE, tech=TechBase.CLAN)) == 500
    # The re-arm rows carry no '#': no multiplier on ammunition.
    clan = mek(tech=TechBase.CLAN, ammo_used=(AmmoUse(ammo_type="CLLRM20 Ammo", tons=Fraction(1)),))
    assert repair_bill(clan).rearm_sp == 5


def test_bombs_reconfiguration_and_formation_rows() -> None:
    """ "| Purchase Bomb Loadout/Per Bomb (Intro/Standard/Advanced) | 1/2/5 |",
    "| Reconfigure Omni-Pod. # **** | Tonnage/4 |", "| Reconfigure Battle Armor **** | 0 |",
    "| Change Formation Type | 100 (Requires 1 day of training) |"."""
    assert [bomb_cost(t, 2) for t in AmmoTier] == [2, 4, 10]
    assert reconfigure_cost(UnitKind.MEK, Fraction(55), TechBase.INNER_SPHERE) == 14
    assert reconfigure_cost(UnitKind.MEK, Fraction(55), TechBase.CLAN) == 28
    assert reconfigure_cost(UnitKind.BATTLE_ARMOR, Fraction(1), TechBase.CLAN) == 0
    assert formation_change_cost() == 100


def test_footnote_extra_omni_configurations_cost_a_reconfiguration_each() -> None:
    """Footnote ****: "Each extra configuration beyond the first costs ... the cost of a
    Reconfigure Omni-Pod"."""
    assert extra_configurations_cost(UnitKind.MEK, Fraction(60), TechBase.INNER_SPHERE, 3) == 30


# --- Footnotes -------------------------------------------------------------
def test_footnote_armor_only_on_locations_without_internal_damage() -> None:
    """ "* Armor is restored only to locations which do not have internal structure damage."
    The blocked armor is billed as deferred; line 155 allows armor elsewhere first."""
    subject = mek(loc("CT", (20, 0), (16, 16), ct=True), loc("LA", (10, 0), (8, 4)))
    bill = repair_bill(subject)
    assert bill.blocked_locations == ("LA",)
    assert bill.armor_sp == 34  # 20/30 of 50 = 33.3 -> 34
    assert bill.armor_deferred_sp == 17  # 10/30 of 50 = 16.7 -> 17
    assert T.footnotes["armor_only_without_internal_damage"] in bill.rules


def test_footnote_mek_with_center_torso_internal_zero_cannot_be_repaired() -> None:
    """ "** ’Mechs whose center torso internal structure has been reduced to 0 cannot be
    repaired.\""""
    subject = mek(loc("CT", (20, 0), (16, 0), ct=True), loc("LA", (10, 0), (8, 8)))
    bill = repair_bill(subject)
    assert not bill.repairable and bill.total_sp == 0
    assert T.footnotes["mek_center_torso_zero_irreparable"] in bill.rules


def test_a_destroyed_head_is_repairable() -> None:
    """ "All other damage ... can be repaired between tracks, including a completely destroyed
    head location\""""
    subject = mek(loc("CT", (20, 20), (16, 16), ct=True), loc("HD", (9, 0), (3, 0)))
    assert repair_bill(subject).repairable


def test_vehicle_with_any_location_internal_zero_is_truly_destroyed() -> None:
    """ "A vehicle is truly destroyed if any of its locations reach 0 internal structure."
    Ruling R-REPAIR-1: truly destroyed units cannot be repaired."""
    subject = vehicle(loc("Front", (20, 0), (4, 0)), loc("Rear", (10, 10), (4, 4)))
    assert damage_state(subject) is DamageState.TRULY_DESTROYED
    assert not repair_bill(subject).repairable


def test_infantry_truly_destroyed_when_the_last_trooper_dies() -> None:
    ba = RepairSubject(
        unit_id="ba", kind=UnitKind.BATTLE_ARMOR, tonnage=Fraction(1), suits=4, troopers_alive=0
    )
    assert damage_state(ba) is DamageState.TRULY_DESTROYED


def test_footnote_internal_repairs_need_a_repair_facility() -> None:
    """ "Repairs to Internal Structure requires a repair facility either at a location or in a
    DropShip bay." Armor and reloads can be done in the field."""
    assert repair_bill(mek(*ALL_INTERNAL_HALF)).needs_repair_facility
    field = repair_bill(
        mek(*ALL_ARMOR_GONE, ammo_used=(AmmoUse(ammo_type="ISSRM6 Ammo", tons=Fraction(1)),))
    )
    assert not field.needs_repair_facility


def test_ruling_critical_hits_need_the_internal_task_and_a_facility_but_no_sp() -> None:
    """R-REPAIR-2: "| Repair Internal Structure/Criticals | 6 hours |"."""
    bill = repair_bill(mek(critical_hits=2))
    assert bill.internal_sp == 0 and bill.tech_hours == 6 and bill.needs_repair_facility


def test_footnote_mek_must_be_fully_repaired_before_sale() -> None:
    """ "*** A ’Mech must be fully repaired before it can be sold." Ruling R-SELL-1: vehicles
    too; spent ammunition is not damage."""
    with pytest.raises(Refusal) as caught:
        sell_value(mek(*ALL_ARMOR_GONE))
    assert caught.value.code == "not_fully_repaired"
    with pytest.raises(Refusal):
        sell_value(vehicle(loc("Front", (20, 10), (4, 4))))
    spent = mek(ammo_used=(AmmoUse(ammo_type="ISSRM6 Ammo", tons=Fraction(1)),))
    assert sell_value(spent) == 500


def test_technician_time_per_task_and_six_hours_a_day() -> None:
    """ "Each Technician can work 6 hours a day." and the task table: Reload 1 hour, Repair
    Armour 3 hours, Repair Internal Structure/Criticals 6 hours, Reconfigure 1 hour, Scrap 6."""
    assert T.technician_hours_per_day == 6
    assert {k: r.hours for k, r in T.tasks.items()} == {
        "reload": 1,
        "repair_armor": 3,
        "repair_internal": 6,
        "reconfigure": 1,
        "scrap": 6,
    }
    damaged = mek(
        loc("CT", (20, 0), (16, 16), ct=True),
        loc("LA", (10, 0), (8, 4)),
        ammo_used=(AmmoUse(ammo_type="ISSRM6 Ammo", tons=Fraction(1)),),
    )
    bill = repair_bill(damaged)
    assert bill.tech_hours == 1 + 3 + 6
    assert technician_days(bill.tech_hours) == 2
    assert technician_days(bill.tech_hours, technicians=2) == 1
    with pytest.raises(Refusal):
        technician_days(3, technicians=0)


# --- Properties -------------------------------------------------------------
@st.composite
def damaged_meks(draw: st.DrawFn) -> tuple[RepairSubject, RepairSubject]:
    """A 'Mech and the same 'Mech with at least as much damage everywhere."""
    locations_a, locations_b = [], []
    for i, name in enumerate(("CT", "LT", "RT", "LA", "RA")):
        armor_max = draw(st.integers(1, 40))
        internal_max = draw(st.integers(1, 30))
        armor_b = draw(st.integers(0, armor_max))
        armor_a = draw(st.integers(armor_b, armor_max))
        internal_b = draw(st.integers(1 if i == 0 else 0, internal_max))
        internal_a = draw(st.integers(internal_b, internal_max))
        locations_a.append(loc(name, (armor_max, armor_a), (internal_max, internal_a), ct=i == 0))
        locations_b.append(loc(name, (armor_max, armor_b), (internal_max, internal_b), ct=i == 0))
    tons = draw(st.integers(20, 100))
    tech = draw(st.sampled_from(list(TechBase)))
    ammo_a = draw(st.integers(0, 8))
    ammo_b = draw(st.integers(ammo_a, 8))
    a = mek(
        *locations_a,
        tons=tons,
        tech=tech,
        ammo_used=(AmmoUse(ammo_type="ISLRM20 Ammo", tons=Fraction(ammo_a, 2)),),
    )
    b = mek(
        *locations_b,
        tons=tons,
        tech=tech,
        ammo_used=(AmmoUse(ammo_type="ISLRM20 Ammo", tons=Fraction(ammo_b, 2)),),
    )
    return a, b


@given(damaged_meks())
def test_costs_are_never_negative_and_grow_with_damage(
    pair: tuple[RepairSubject, RepairSubject],
) -> None:
    less, more = pair
    bill_less, bill_more = repair_bill(less), repair_bill(more)
    for bill in (bill_less, bill_more):
        assert min(bill.armor_sp, bill.armor_deferred_sp, bill.internal_sp, bill.rearm_sp) >= 0
    assert bill_more.internal_sp >= bill_less.internal_sp
    assert bill_more.rearm_sp >= bill_less.rearm_sp
    # Armor is split between now and deferred, but the total armor bill never shrinks by more
    # than rounding: exact costs are monotone, each part rounds up at most one SP.
    assert (bill_more.armor_sp + bill_more.armor_deferred_sp) + 1 >= (
        bill_less.armor_sp + bill_less.armor_deferred_sp
    )
    assert bill_more.tech_hours >= bill_less.tech_hours


@given(damaged_meks())
def test_scrap_never_pays_more_for_more_damage(pair: tuple[RepairSubject, RepairSubject]) -> None:
    less, more = pair
    assert 0 <= scrap_value(more) <= scrap_value(less)


def test_ruling_fighter_armor_is_restored_even_where_si_is_damaged() -> None:
    """R-COST-4: footnote * is marked on the 'Mech and vehicle armor rows only."""
    fighter = RepairSubject(
        unit_id="f",
        kind=UnitKind.AEROSPACE_FIGHTER,
        tonnage=Fraction(50),
        locations=(loc("Nose", (30, 0), (10, 5)),),
    )
    bill = repair_bill(fighter)
    assert bill.armor_sp == 50 and bill.armor_deferred_sp == 0 and bill.blocked_locations == ()


def test_ruling_fighter_with_si_zero_is_utterly_destroyed() -> None:
    """R-REPAIR-1: the SI is a fighter's only internal location; at 0 every internal location
    is destroyed, so the fighter is utterly destroyed: no repair, no scrap."""
    fighter = RepairSubject(
        unit_id="f",
        kind=UnitKind.AEROSPACE_FIGHTER,
        tonnage=Fraction(50),
        locations=(loc("Nose", (30, 0), (0, 0)), loc("SI", (0, 0), (10, 0))),
    )
    assert damage_state(fighter) is DamageState.UTTERLY_DESTROYED
    assert not repair_bill(fighter).repairable


def test_ruling_only_meks_and_vehicles_can_be_sold() -> None:
    """R-SELL-2: the table has sale rows for 'Mechs and vehicles only."""
    fighter = RepairSubject(unit_id="f", kind=UnitKind.AEROSPACE_FIGHTER, tonnage=Fraction(50))
    with pytest.raises(Refusal) as caught:
        sell_value(fighter)
    assert caught.value.code == "no_sale_row"
