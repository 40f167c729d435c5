"""Strategic movement: a formation's MP for the day and what each step across the map costs."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mekref.hexmap.geometry import Hex
from mekref.hexmap.model import HexMap
from mekref.hexmap.tables import MovementMode, movement_rules, terrain_table


def formation_speed(walk_mps: Iterable[int]) -> int:
    """The Walk/Cruise MP of the slowest unit: the speed the whole formation moves at."""
    speeds = list(walk_mps)
    if not speeds:
        raise ValueError("a formation needs at least one unit to have a speed")
    if min(speeds) < 0:
        raise ValueError(f"walk/cruise MP cannot be negative: {min(speeds)}")
    return min(speeds)


def strategic_mp(speed: int) -> int:
    """Strategic MP per day for a formation speed, from the TripWire table (speed 0: none)."""
    if speed <= 0:
        return 0
    for row in movement_rules().strategic_mp:
        if speed >= row.min_speed and (row.max_speed is None or speed <= row.max_speed):
            return row.mp_per_day
    raise AssertionError(f"the strategic MP table has no row for speed {speed}")


@dataclass(frozen=True, slots=True)
class FormationMovement:
    """What the hexmap needs to know about a moving formation for one day.

    ``modes`` holds every movement mode present in the formation: a mixed formation moves
    together, so each step costs what its worst-placed member pays (ruling R5).
    """

    speed: int
    modes: frozenset[MovementMode]
    forced_march: bool = False
    #: Hours travelled past the day's useful ones (L166, ruling T-H1).
    extra_hours: int = 0

    @classmethod
    def of(
        cls,
        speed: int,
        *modes: MovementMode | str,
        forced_march: bool = False,
        extra_hours: int = 0,
    ) -> FormationMovement:
        if not modes:
            raise ValueError("give at least one movement mode")
        return cls(speed, frozenset(MovementMode(m) for m in modes), forced_march, extra_hours)

    @property
    def base_mp(self) -> int:
        mp = strategic_mp(self.speed)
        if self.forced_march:
            rules = movement_rules()
            # Rounded up, so even a 1-MP formation gains something from forcing the march (R4).
            mp = -(-mp * rules.forced_march_numerator // rules.forced_march_denominator)
        if self.extra_hours:
            # L180's table is for 6 hours a day: more hours, proportionally more MP, rounded
            # down (an hour too short to cross a hex moves nobody; ruling T-H1).
            useful = movement_rules().useful_hours
            mp = mp * (useful + self.extra_hours) // useful
        return mp

    @property
    def road_bonus(self) -> int:
        rules = movement_rules()
        return rules.road_bonus_mp if self.modes <= rules.road_bonus_modes else 0

    @property
    def fatigue_gained(self) -> int:
        rules = movement_rules()
        marched = rules.forced_march_fatigue if self.forced_march else 0
        return marched + self.extra_hours * rules.extra_hour_fatigue

    def budget(self, *, all_road: bool) -> int:
        """MP available for the day; the road bonus only counts on an all-road day (R1)."""
        return self.base_mp + (self.road_bonus if all_road else 0)


def step_cost(hexmap: HexMap, movement: FormationMovement, a: Hex, b: Hex) -> int | None:
    """MP to step from ``a`` into the neighbouring hex ``b``; ``None`` when it cannot be entered."""
    if not hexmap.in_bounds(b):
        return None
    costs = [_mode_cost(hexmap, mode, a, b) for mode in sorted(movement.modes)]
    if any(c is None for c in costs):
        return None
    return max(c for c in costs if c is not None)


def _mode_cost(hexmap: HexMap, mode: MovementMode, a: Hex, b: Hex) -> int | None:
    rules = movement_rules()
    if mode in rules.terrain_free_modes:
        return rules.road_cost
    terrain = terrain_table()[hexmap.terrain_at(b)]
    if hexmap.is_road_step(a, b):
        # A road runs through: easy terrain, and a bridge over any river it crosses.
        return rules.road_cost
    base = terrain.hover_cost if mode is MovementMode.HOVER else terrain.cost
    if base is None:
        return None
    if hexmap.crosses_river(a, b):
        base = max(base, rules.river_crossing_cost)
    if mode in rules.off_road_modes:
        base += rules.off_road_extra_cost
    return base
