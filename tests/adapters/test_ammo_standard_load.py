"""The standard load of bins a unit list does not write (issue 26): MegaMek's shots per bin,
and which of a design's bins a list leaves out."""

from __future__ import annotations

from pathlib import Path

import pytest

from mekref.adapters.megamek.ammo_shots import bin_shots
from mekref.adapters.megamek.condition import merge_condition, unlisted_bins, with_unlisted
from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.adapters.megamek.mul_model import Entity, Location, Slot

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
GRIFFIN = parse_mtf((UNITS / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "griffin")
ATLAS = parse_mtf((UNITS / "Atlas AS7-D.mtf").read_text(encoding="utf-8"), "atlas")


@pytest.mark.parametrize(
    ("name", "shots"),
    [
        # MegaMek's AmmoType: createISLRM10Ammo "IS Ammo LRM-10" shots = 12, its look-up name
        # "ISLRM10 Ammo"; munition suffixes keep the launcher's count.
        ("IS Ammo LRM-10", 12),
        ("ISLRM10 Ammo", 12),
        ("IS Ammo LRM-10 Artemis-capable", 12),
        ("IS Ammo AC/20", 5),
        ("ISUltraAC5 Ammo", 20),
        ("IS LB 10-X AC Ammo", 10),
        ("IS Ammo SRM-6", 15),
        ("IS Streak SRM 2 Ammo", 50),
        ("IS Ammo MG - Full", 200),
        ("IS Machine Gun Ammo - Half", 100),  # a half-ton bin
        ("ISMG Ammo (100)", 100),  # the look-up name states its shots
        ("CLAMS Ammo", 24),
        ("ISAMS Ammo", 12),
        ("ISHeavyGauss Ammo", 4),
        ("IS Ammo MML-5 SRM", 20),
        # Not inferred: battle armor (the design states it), caseless, unknown names.
        ("BA-SRM2 Ammo", None),
        ("IS Caseless AC/20 Ammo", None),
        ("IS Ammo Thunder LRM-10", None),
    ],
)
def test_megamek_shots_per_bin(name: str, shots: int | None) -> None:
    assert bin_shots(name) == shots


def test_a_list_without_slot_lines_holds_the_designs_standard_load() -> None:
    griffin = Entity(chassis="Griffin", model="GRF-1N", movement_mode="Biped")
    cond = merge_condition(griffin, GRIFFIN)
    assert cond.ammo == ()
    filled = with_unlisted(cond)
    assert [(a.location, a.slot, a.ammo_type, a.shots, a.shots_max, a.from_design)
            for a in filled.ammo] == [
        ("Right Torso", 5, "IS Ammo LRM-10", 12, 12, True),
        ("Right Torso", 6, "IS Ammo LRM-10", 12, 12, True),
    ]  # fmt: skip


def test_only_the_bins_the_list_leaves_out_are_filled() -> None:
    griffin = Entity(
        chassis="Griffin",
        model="GRF-1N",
        movement_mode="Biped",
        locations=(Location(2, "Right Torso", slots=(Slot(5, "IS Ammo LRM-10", shots=6),)),),
    )
    cond = merge_condition(griffin, GRIFFIN)
    # The listed bin keeps its 6 shots and knows its full load from MegaMek's table.
    assert [(a.slot, a.shots, a.shots_max, a.from_design) for a in cond.ammo] == [(5, 6, 12, False)]
    assert [(a.slot, a.shots, a.from_design) for a in with_unlisted(cond).ammo] == [
        (5, 6, False),
        (6, 12, True),
    ]


def test_bins_in_a_lost_location_are_gone_not_standard_load() -> None:
    atlas = Entity(
        chassis="Atlas",
        model="AS7-D",
        movement_mode="Biped",
        locations=(Location(2, "Right Torso", destroyed=True),),
    )
    cond = merge_condition(atlas, ATLAS)
    lost = [(b.location, b.slot, b.shots) for b in unlisted_bins(cond) if b.lost]
    assert lost == [("Right Torso", 11, 5), ("Right Torso", 12, 5)]
    kept = {(a.location, a.slot) for a in with_unlisted(cond).ammo}
    assert ("Right Torso", 11) not in kept and ("Left Torso", 9) in kept


def test_without_a_design_nothing_is_assumed() -> None:
    griffin = Entity(chassis="Griffin", model="GRF-1N", movement_mode="Biped")
    cond = merge_condition(griffin, None)
    assert unlisted_bins(cond) == () and with_unlisted(cond) is cond
