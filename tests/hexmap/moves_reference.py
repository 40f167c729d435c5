"""The day's movement as it was resolved before the hex-to-formation index: the reference.

``quadratic_resolve_moves`` compares every pair of movers per step and scans every formation
per touched hex; ``grouped_resolve_day`` split the movers into groups that could meet first.
Kept verbatim (only renamed) so the property tests can check that the indexed resolver gives
exactly the same day.
"""

from __future__ import annotations

from collections.abc import Sequence

from mekref.hexmap import neighbours
from mekref.hexmap.encounters import Encounter, EncounterKind, MoveOutcome, PlannedMove
from mekref.hexmap.geometry import Hex


def quadratic_resolve_moves(moves: Sequence[PlannedMove]) -> MoveOutcome:
    """Play the day's moves step by step; the result does not depend on the order of ``moves``.

    Paths are taken as given: check each with ``validate_path`` before the day is resolved.
    """
    names = [m.formation for m in moves]
    if len(set(names)) != len(names):
        dupes = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"formation listed twice in the day's moves: {', '.join(dupes)}")
    if any(not m.path for m in moves):
        raise ValueError("every formation needs a path with at least its start hex")

    ordered = sorted(moves, key=lambda m: m.formation)
    by_name = {m.formation: m for m in ordered}
    pos: dict[str, Hex] = {m.formation: m.path[0] for m in ordered}
    progress: dict[str, int] = {m.formation: 0 for m in ordered}
    stopped: dict[str, int] = {}  # formation -> step it stopped at
    # Same-hex meetings merge into one scenario per hex; keyed by hex for that reason.
    same_hex: dict[Hex, Encounter] = {}
    crossings: list[Encounter] = []

    def record_hex(h: Hex, step: int) -> None:
        here = sorted(n for n, p in pos.items() if p == h)
        sides = sorted({by_name[n].side for n in here})
        if len(sides) < 2:
            return
        for n in here:
            stopped.setdefault(n, step)
        old = same_hex.get(h)
        first = old.step if old else step
        same_hex[h] = Encounter(first, EncounterKind.SAME_HEX, (h,), tuple(here), tuple(sides))

    for h in sorted(set(pos.values())):
        record_hex(h, 0)

    last = max(len(m.path) for m in ordered) - 1 if ordered else 0
    for step in range(1, last + 1):
        moving = [m for m in ordered if m.formation not in stopped and step < len(m.path)]
        wanted = {m.formation: m.at(step) for m in moving}
        blocked: set[str] = set()
        for i, a in enumerate(moving):
            for b in moving[i + 1 :]:
                if a.side == b.side:
                    continue
                a_from, b_from = pos[a.formation], pos[b.formation]
                if wanted[a.formation] == b_from and wanted[b.formation] == a_from != b_from:
                    blocked.update((a.formation, b.formation))
                    crossings.append(
                        Encounter(
                            step,
                            EncounterKind.CROSSING,
                            tuple(sorted((a_from, b_from))),
                            (a.formation, b.formation),
                            tuple(sorted((a.side, b.side))),
                        )
                    )
        for name in sorted(blocked):
            stopped[name] = step
        for m in moving:
            if m.formation not in blocked:
                pos[m.formation] = wanted[m.formation]
                progress[m.formation] = step
        for h in sorted({wanted[m.formation] for m in moving if m.formation not in blocked}):
            record_hex(h, step)

    encounters = sorted(
        [*same_hex.values(), *crossings], key=lambda e: (e.step, e.hexes, e.formations)
    )
    return MoveOutcome(tuple(encounters), dict(sorted(pos.items())), progress)


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


def grouped_resolve_day(moves: Sequence[PlannedMove]) -> MoveOutcome:
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
        outcome = quadratic_resolve_moves(group)
        encounters += outcome.encounters
        final.update(outcome.final_hex)
        steps.update(outcome.steps_taken)
    encounters.sort(key=lambda e: (e.step, e.hexes, e.formations))
    return MoveOutcome(tuple(encounters), dict(sorted(final.items())), dict(sorted(steps.items())))
