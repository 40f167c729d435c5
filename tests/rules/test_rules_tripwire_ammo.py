"""Re-arm prices per ton of ammunition, ruling R-AMMO-2 (half-ton bins, battle armour).

L85: "| Re-arm Unit (Introductory, per ton of ammunition [AC, LRM, SRM, MG]) | 5 |"
"""

from __future__ import annotations

from fractions import Fraction

from mekref.adapters.megamek.condition import merge_condition
from mekref.adapters.megamek.mul_model import Entity, Location, Slot
from mekref.rules.tripwire.battle_damage import unit_damage
from mekref.rules.tripwire.battle_model import AmmoBinLoad
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.repair import AmmoTier, RepairSubject, ammo_tier, bin_tons, rearm_sp


def test_ruling_battle_armour_srm_is_introductory() -> None:
    # MegaMek's names for battle armour ammunition carry a "BA" prefix; the launcher decides.
    assert ammo_tier("BA-SRM2 Ammo") is AmmoTier.INTRODUCTORY
    assert ammo_tier("BA Ammo LRM-5") is AmmoTier.INTRODUCTORY
    assert ammo_tier("BA-Inferno SRM Ammo") is AmmoTier.STANDARD  # L86 lists Inferno
    assert ammo_tier("BA-Advanced SRM2 Ammo") is AmmoTier.ADVANCED  # a Tech Manual type


def test_ruling_a_half_ton_bin_is_half_a_ton() -> None:
    assert bin_tons("IS Machine Gun Ammo - Half") == Fraction(1, 2)
    assert bin_tons("IS Machine Gun Ammo (1/2 ton)") == Fraction(1, 2)
    assert bin_tons("IS Ammo MG - Full") == 1 and bin_tons("IS Ammo SRM-4") == 1
    # A half-ton MG bin (100 shots at import) fired down to 50, and a full SRM-4 bin (25) to 0.
    entity = Entity(
        chassis="Test",
        model="T-1",
        movement_mode="Biped",
        locations=(
            Location(index=2, name="Right Torso", slots=(
                Slot(index=5, type="IS Machine Gun Ammo - Half", shots=50),
                Slot(index=6, type="IS Ammo SRM-4", shots=0),
            )),
        ),
    )  # fmt: skip
    loadout = (
        AmmoBinLoad(location="Right Torso", slot=5, ammo_type="IS Machine Gun Ammo - Half",
                    shots=100),
        AmmoBinLoad(location="Right Torso", slot=6, ammo_type="IS Ammo SRM-4", shots=25),
    )  # fmt: skip
    damage = unit_damage(merge_condition(entity, None), UnitKind.MEK, loadout)
    used = {u.ammo_type: u.tons for u in damage.ammo_used}
    assert used == {"IS Machine Gun Ammo - Half": Fraction(1, 4), "IS Ammo SRM-4": Fraction(1)}
    subject = RepairSubject(unit_id="u", kind=UnitKind.MEK, tonnage=Fraction(20),
                            ammo_used=damage.ammo_used)  # fmt: skip
    assert rearm_sp(subject) == 7  # (1/4 + 1) t x 5 SP = 6.25, rounded up (R-COST-2)


def test_the_hand_worked_bill_in_docs_campaign() -> None:
    """docs/campaign.md, "A bill worked by hand": a Clan 50-ton 'Mech that lost 10 of its 200
    armor points and fired half of a half-ton MG bin, and a battle armour squad that fired its
    SRM-2 bin."""
    from mekref.rules.tripwire.model import TechBase
    from mekref.rules.tripwire.repair import AmmoUse, LocationDamage, repair_bill

    clan = RepairSubject(
        unit_id="c1", kind=UnitKind.MEK, tonnage=Fraction(50), tech_base=TechBase.CLAN,
        locations=(
            LocationDamage(name="Center Torso", armor_max=40, armor_now=30, internal_max=16,
                           internal_now=16, is_center_torso=True),
            LocationDamage(name="Rest", armor_max=160, armor_now=160, internal_max=68,
                           internal_now=68),
        ),
        ammo_used=(AmmoUse(ammo_type="Clan Machine Gun Ammo - Half", tons=Fraction(1, 4)),),
    )  # fmt: skip
    bill = repair_bill(clan)
    # Armor: 10 x 50 t x 2 (Clan, "Cost x 2") / 200 = 5 SP; re-arm: 1/4 t x 5 = 1.25 -> 2 SP.
    assert (bill.armor_sp, bill.rearm_sp, bill.total_sp) == (5, 2, 7)
    srm = AmmoUse(ammo_type="BA-SRM2 Ammo", tons=Fraction(1))
    ba = RepairSubject(unit_id="ba", kind=UnitKind.BATTLE_ARMOR, tonnage=Fraction(1),
                       ammo_used=(srm,))  # fmt: skip
    assert rearm_sp(ba) == 5  # one bin, Introductory (L85): 5 SP, not the Advanced 50


def test_ruling_r_ammo_3_the_dump_list_and_the_price_tiers_are_two_lists() -> None:
    """L272 "Ammo Dumps only have basic ammo types (AC, LAC, UAC, RAC, SRM, MRM, LRM, MG,
    Gauss)" and L85-L87 (Introductory 5, Standard 10, Advanced 50 a ton) are different lists
    (ruling R-AMMO-3): a type the dump stocks may still be priced Standard or Advanced, and
    the price is always L85-L87's."""
    from mekref.rules.tripwire.house_acquisition import is_basic

    cases = {
        "IS Ammo LRM-10": (True, AmmoTier.INTRODUCTORY),
        "IS Ultra AC/5 Ammo": (True, AmmoTier.STANDARD),  # L86 lists UAC
        "IS Rotary AC/5 Ammo": (True, AmmoTier.ADVANCED),  # a Tech Manual type (R-AMMO-1)
        "IS Ammo LRM-10 Swarm": (False, AmmoTier.ADVANCED),
        "IS Streak SRM 2 Ammo": (False, AmmoTier.STANDARD),
    }
    assert {name: (is_basic(name), ammo_tier(name)) for name in cases} == cases
