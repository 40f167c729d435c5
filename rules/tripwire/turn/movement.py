"""The day's simultaneous moves.

``resolve_moves`` keeps a hex-to-formation index, so a day costs time in proportion to the
formations moving, however many share the map. (An earlier version split the movers into groups
that could meet and resolved each group alone, because the resolver compared every pair of
movers; on a crowded map one group held nearly everyone and the day grew quadratically.)
"""

from __future__ import annotations

from collections.abc import Sequence

from mekref.hexmap import MoveOutcome, PlannedMove, resolve_moves


def resolve_day(moves: Sequence[PlannedMove]) -> MoveOutcome:
    """Where every formation ends the day, how far it got, and who met whom."""
    return resolve_moves(moves)
