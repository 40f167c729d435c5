"""The day's simultaneous moves, split into groups that can meet so the cost stays linear.

``resolve_moves`` compares every pair of moving formations at every step. Two formations can
only meet if some hex of one path is the same as, or next to, some hex of the other; grouping
formations by that relation (union-find over the hexes they touch) gives groups that cannot
affect each other, so resolving each group alone gives exactly the same outcome.
"""

from __future__ import annotations

from collections.abc import Sequence

from mekref.hexmap import Encounter, Hex, MoveOutcome, PlannedMove, neighbours, resolve_moves


def _find(parent: dict[str, str], x: str) -> str:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def groups(moves: Sequence[PlannedMove]) -> list[list[PlannedMove]]:
    parent = {m.formation: m.formation for m in moves}
    owner: dict[Hex, str] = {}
    for m in sorted(moves, key=lambda m: m.formation):
        for h in m.path:
            other = owner.setdefault(h, m.formation)
            if other != m.formation:
                a, b = _find(parent, other), _find(parent, m.formation)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    for m in moves:
        for h in m.path:
            for n in neighbours(h):
                near = owner.get(n)
                if near is not None:
                    a, b = _find(parent, near), _find(parent, m.formation)
                    if a != b:
                        parent[max(a, b)] = min(a, b)
    out: dict[str, list[PlannedMove]] = {}
    for m in moves:
        out.setdefault(_find(parent, m.formation), []).append(m)
    return [out[k] for k in sorted(out)]


def resolve_day(moves: Sequence[PlannedMove]) -> MoveOutcome:
    encounters: list[Encounter] = []
    final: dict[str, Hex] = {}
    steps: dict[str, int] = {}
    for group in groups(moves):
        if len({m.side for m in group}) < 2:
            # One side alone cannot meet anyone: every formation completes its path.
            for m in group:
                final[m.formation] = m.path[-1]
                steps[m.formation] = len(m.path) - 1
            continue
        outcome = resolve_moves(group)
        encounters += outcome.encounters
        final.update(outcome.final_hex)
        steps.update(outcome.steps_taken)
    encounters.sort(key=lambda e: (e.step, e.hexes, e.formations))
    return MoveOutcome(tuple(encounters), dict(sorted(final.items())), dict(sorted(steps.items())))
