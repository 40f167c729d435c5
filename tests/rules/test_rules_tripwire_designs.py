"""The design a campaign keeps (rules/tripwire/designs.py) and ruling R-DESIGN-1.

L146: "A 'Mech is only truly destroyed when its center torso internal structure is eliminated."
L147: "A vehicle is truly destroyed if any of its locations reach 0 internal structure."
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.rules.codec import canonical_json, decode, to_jsonable
from mekref.rules.tripwire.design_record import StoredDesign
from mekref.rules.tripwire.designs import stored_design, unit_design
from mekref.rules.tripwire.model import UnitKind
from mekref.rules.tripwire.repair import DamageState, LocationDamage, RepairSubject, damage_state

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"


def test_a_stored_design_survives_the_event_log_unchanged() -> None:
    griffin = parse_mtf((UNITS / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "x/griffin")
    stored = stored_design(griffin)
    back = decode(StoredDesign, to_jsonable(stored))
    assert back == stored and canonical_json(back) == canonical_json(stored)
    assert stored.tonnage == Fraction(55)
    again = unit_design(back)
    assert again.locations == griffin.locations and again.ammo_bins == griffin.ammo_bins
    assert dict(again.crit_slots) == dict(griffin.crit_slots)
    assert again.tonnage == griffin.tonnage and again.walk_mp == griffin.walk_mp


def _subject(kind: UnitKind, *locations: LocationDamage) -> RepairSubject:
    return RepairSubject(unit_id="u", kind=kind, tonnage=Fraction(0), locations=locations)


def test_ruling_a_location_the_file_destroys_is_internal_zero_without_a_design() -> None:
    # No design: the file's numbers are both current and maximum (0 of 0), only its
    # isDestroyed flag says the centre torso is gone.
    ct = LocationDamage(name="Center Torso", armor_max=0, armor_now=0, internal_max=0,
                        internal_now=0, is_center_torso=True, destroyed=True)  # fmt: skip
    arm = LocationDamage(name="Left Arm", armor_max=0, armor_now=0, internal_max=0,
                         internal_now=0, destroyed=True)  # fmt: skip
    assert damage_state(_subject(UnitKind.MEK, ct)) is DamageState.TRULY_DESTROYED  # L146
    assert damage_state(_subject(UnitKind.MEK, arm)) is not DamageState.TRULY_DESTROYED
    turret = LocationDamage(name="Turret", armor_max=0, armor_now=0, internal_max=0,
                            internal_now=0, destroyed=True)  # fmt: skip
    assert damage_state(_subject(UnitKind.COMBAT_VEHICLE, turret)) is (  # L147
        DamageState.TRULY_DESTROYED
    )


def test_the_new_flag_is_left_out_of_older_events() -> None:
    plain = LocationDamage(name="Head", armor_max=9, armor_now=3, internal_max=3, internal_now=3)
    assert "destroyed" not in to_jsonable(plain)
