"""Ruling T-X2: a location's armour is one figure, front and rear together, with the rear's
share kept beside it where the file said it; what changes the figure keeps the share right."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.rules.codec import from_jsonable, to_jsonable
from mekref.rules.tripwire.armour_split import front_and_rear, with_armor
from mekref.rules.tripwire.battle_correct_unit import LocationFix, corrected_damage
from mekref.rules.tripwire.battle_model import UnitDamage
from mekref.rules.tripwire.repair import LocationDamage
from mekref.rules.tripwire.turn.export import lay_damage

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
#: The Griffin's centre torso: front 20, rear 7; its structure 18.
TORSO = LocationDamage(
    name="Center Torso", armor_max=27, armor_now=27, internal_max=18, internal_now=18,
    rear_max=7, rear_now=7,
)  # fmt: skip


def test_an_old_location_without_the_share_reads_and_writes_as_before() -> None:
    old = {"name": "Center Torso", "armor_max": 27, "armor_now": 20, "internal_max": 18,
           "internal_now": 10, "is_center_torso": False}  # fmt: skip
    loc = from_jsonable(LocationDamage, old)
    assert (loc.rear_max, loc.rear_now) == (None, None)
    assert to_jsonable(loc) == old
    assert to_jsonable(replace(TORSO, armor_now=20, rear_now=0)) == {
        **old, "armor_now": 20, "internal_now": 18, "rear_max": 7, "rear_now": 0,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("now", "rear"),
    [(30, 7), (-1, 7), (27, 8), (27, 6), (6, 7), (20, None)],
)
def test_a_share_that_disagrees_with_the_figure_is_refused(now: int, rear: int | None) -> None:
    with pytest.raises(ValueError):
        replace(TORSO, armor_now=now, rear_now=rear)


def test_a_change_of_the_figure_keeps_the_share_right() -> None:
    hit = with_armor(TORSO, 10)  # 17 lost: the front's 20 first
    assert (hit.armor_now, hit.rear_now) == (10, 7)
    deeper = with_armor(hit, 2)  # 8 more: the front's 3 left, then 5 of the rear
    assert (deeper.armor_now, deeper.rear_now) == (2, 2)
    behind = with_armor(TORSO, 22, rear_first=True)  # a hit from behind: the rear first
    assert (behind.armor_now, behind.rear_now) == (22, 2)
    through = with_armor(TORSO, 15, rear_first=True)
    assert (through.armor_now, through.rear_now) == (15, 0)
    assert with_armor(deeper, 27).rear_now == 7  # whole again
    assert with_armor(hit, 0).rear_now == 0  # shot away
    # Partly restored: where the points went is not known; the share is dropped (T-X2 again).
    partly = with_armor(deeper, 12)
    assert (partly.armor_now, partly.rear_max, partly.rear_now) == (12, None, None)
    old = replace(TORSO, rear_max=None, rear_now=None)
    assert with_armor(old, 5) == replace(old, armor_now=5)


def test_the_writers_lay_the_share_on_the_design() -> None:
    """The file said front 20 whole and the rear shot away (0 of 7): front 20, rear 0; an old
    record of the same 27 - 7 = 20 lost the front first: front 13, rear 7 (T-X2)."""
    griffin = parse_mtf((UNITS / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "griffin")
    shot = replace(TORSO, armor_now=20, rear_now=0)
    assert front_and_rear(shot, 20, 7) == (20, 0)
    old = replace(shot, rear_max=None, rear_now=None)
    assert front_and_rear(old, 20, 7) == (13, 7)
    [centre] = [loc for loc in lay_damage(UnitDamage(locations=(shot,)), (), griffin)
                if loc.index == 1]  # fmt: skip
    assert (centre.armor, centre.rear) == (20, 0)
    [centre] = [loc for loc in lay_damage(UnitDamage(locations=(old,)), (), griffin)
                if loc.index == 1]  # fmt: skip
    assert (centre.armor, centre.rear) == (13, 7)


def test_a_corrected_figure_keeps_the_share_right() -> None:
    damage = UnitDamage(locations=(replace(TORSO, armor_now=20, rear_now=0),))
    fixed = corrected_damage(damage, (LocationFix(location="CT", armor=5),), "Griffin")
    assert (fixed.locations[0].armor_now, fixed.locations[0].rear_now) == (5, 0)
    gone = corrected_damage(damage, (LocationFix(location="CT", destroyed=True),), "Griffin")
    assert (gone.locations[0].armor_now, gone.locations[0].rear_now) == (0, 0)
    more = corrected_damage(damage, (LocationFix(location="CT", armor=25),), "Griffin")
    assert (more.locations[0].armor_now, more.locations[0].rear_now) == (25, None)
