"""``build`` makes the same frozen objects the dataclass constructors make, only faster."""

from __future__ import annotations

import dataclasses

import pytest

from mekref.adapters.megamek.mul_model import Entity, Location, Slot, build


def test_build_equals_the_constructor_and_stays_frozen() -> None:
    slot = build(Slot, index=4, type="System", is_hit=True)
    assert slot == Slot(index=4, type="System", is_hit=True)
    assert hash(slot) == hash(Slot(index=4, type="System", is_hit=True))
    with pytest.raises(dataclasses.FrozenInstanceError):
        slot.shots = 3  # type: ignore[misc]
    loc = build(Location, index=1, name="Center Torso", slots=(slot,))
    assert loc == Location(1, "Center Torso", slots=(slot,))
    entity = build(Entity, chassis="Griffin", model="GRF-1N", movement_mode="Biped")
    assert entity == Entity("Griffin", "GRF-1N", "Biped")


def test_build_refuses_a_misspelt_or_missing_field() -> None:
    with pytest.raises(TypeError, match="unknown \\['shot'\\]"):
        build(Slot, index=1, type="IS Ammo AC/10", shot=10)
    with pytest.raises(TypeError, match="missing \\['type'\\]"):
        build(Slot, index=1)
