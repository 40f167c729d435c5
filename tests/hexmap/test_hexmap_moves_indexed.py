"""The indexed day (hex-to-formation index) gives exactly the day the quadratic resolver gave."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from moves_reference import grouped_resolve_day, quadratic_resolve_moves

from mekref.hexmap.encounters import PlannedMove, resolve_moves
from mekref.hexmap.geometry import Hex, neighbours
from mekref.rules.tripwire.turn.movement import resolve_day


def random_day(rng: random.Random, formations: int, size: int, sides: int) -> list[PlannedMove]:
    """Random walks on a small square of hexes, so formations meet, cross and pile up."""
    moves = []
    for n in range(formations):
        here = Hex(rng.randrange(size), rng.randrange(size))
        path = [here]
        for _ in range(rng.randrange(6)):
            options = [h for h in neighbours(path[-1]) if 0 <= h.q < size and 0 <= h.r < size]
            # Revisits happen on purpose; on a one-hex map the formation stays put.
            path.append(rng.choice(options) if options else path[-1])
        moves.append(PlannedMove(f"f{n:03d}", f"side{rng.randrange(sides)}", tuple(path)))
    rng.shuffle(moves)
    return moves


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    formations=st.integers(0, 40),
    size=st.integers(1, 8),
    sides=st.integers(1, 3),
)
def test_the_indexed_day_is_the_quadratic_day(
    seed: int, formations: int, size: int, sides: int
) -> None:
    moves = random_day(random.Random(seed), formations, size, sides)
    expected = quadratic_resolve_moves(moves)
    assert resolve_moves(moves) == expected
    assert resolve_day(moves) == grouped_resolve_day(moves)
    assert grouped_resolve_day(moves) == expected


def test_a_crowded_day_is_the_same_day() -> None:
    # 600 formations on 15 x 15 hexes: one group holds nearly everyone, the case that was slow.
    moves = random_day(random.Random(3065), 600, 15, 2)
    out = resolve_day(moves)
    assert out == quadratic_resolve_moves(moves)
    assert len(out.encounters) > 50  # the day really is crowded
