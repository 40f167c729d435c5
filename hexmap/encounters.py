"""Where formations of opposing sides meet during a day of simultaneous movement.

Time is counted in steps: at step ``t`` every moving formation enters the ``t``-th hex of its
path (ruling R6). Two opposing formations meet when they stand in the same hex after a step,
or when they swap hexes during one step (they cross on the shared edge). Both stop there,
and so does anything that later walks into a hex holding an enemy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from mekref.hexmap.geometry import Hex


@dataclass(frozen=True, slots=True)
class PlannedMove:
    """One formation's orders for the day: its path starts at the hex it stands in."""

    formation: str
    side: str
    path: tuple[Hex, ...]

    def at(self, step: int) -> Hex:
        return self.path[min(step, len(self.path) - 1)]


class EncounterKind(StrEnum):
    SAME_HEX = "same_hex"
    CROSSING = "crossing"


@dataclass(frozen=True, slots=True)
class Encounter:
    """A meeting that starts a scenario.

    For a crossing, ``hexes`` holds both hexes of the edge they met on, each formation having
    stopped on its own side; the rules decide which one the battle is fought in.
    """

    step: int
    kind: EncounterKind
    hexes: tuple[Hex, ...]
    formations: tuple[str, ...]
    sides: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MoveOutcome:
    encounters: tuple[Encounter, ...]
    # Where every formation ends the day, and how many hexes of its path it completed.
    final_hex: dict[str, Hex]
    steps_taken: dict[str, int]


def resolve_moves(moves: Sequence[PlannedMove]) -> MoveOutcome:
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
    # Hex -> the formations standing in it: the index that keeps a day linear in the number
    # of formations (looking for who stands in a hex, or who one could cross, never scans
    # every formation).
    at_hex: dict[Hex, set[str]] = {}
    for m in ordered:
        at_hex.setdefault(m.path[0], set()).add(m.formation)
    progress: dict[str, int] = {m.formation: 0 for m in ordered}
    stopped: dict[str, int] = {}  # formation -> step it stopped at
    # Same-hex meetings merge into one scenario per hex; keyed by hex for that reason.
    same_hex: dict[Hex, Encounter] = {}
    crossings: list[Encounter] = []

    def record_hex(h: Hex, step: int) -> None:
        here = sorted(at_hex.get(h, ()))
        sides = sorted({by_name[n].side for n in here})
        if len(sides) < 2:
            return
        for n in here:
            stopped.setdefault(n, step)
        old = same_hex.get(h)
        first = old.step if old else step
        same_hex[h] = Encounter(first, EncounterKind.SAME_HEX, (h,), tuple(here), tuple(sides))

    for h in sorted(at_hex):
        record_hex(h, 0)

    last = max(len(m.path) for m in ordered) - 1 if ordered else 0
    for step in range(1, last + 1):
        moving = [m for m in ordered if m.formation not in stopped and step < len(m.path)]
        wanted = {m.formation: m.at(step) for m in moving}
        crossed = _crossings(step, moving, pos, wanted)
        crossings.extend(crossed)
        blocked = {name for e in crossed for name in e.formations}
        for name in sorted(blocked):
            stopped[name] = step
        for m in moving:
            if m.formation not in blocked:
                before, after = pos[m.formation], wanted[m.formation]
                if before != after:
                    at_hex[before].discard(m.formation)
                    at_hex.setdefault(after, set()).add(m.formation)
                pos[m.formation] = after
                progress[m.formation] = step
        for h in sorted({wanted[m.formation] for m in moving if m.formation not in blocked}):
            record_hex(h, step)

    encounters = sorted(
        [*same_hex.values(), *crossings], key=lambda e: (e.step, e.hexes, e.formations)
    )
    return MoveOutcome(tuple(encounters), dict(sorted(pos.items())), progress)


def _crossings(
    step: int, moving: list[PlannedMove], pos: dict[str, Hex], wanted: dict[str, Hex]
) -> list[Encounter]:
    """The enemy pairs that swap hexes at ``step``: each wants the hex the other leaves. Partners
    are looked for among the movers standing in the hex one wants, not among every mover."""
    moving_from: dict[Hex, list[PlannedMove]] = {}
    for m in moving:
        moving_from.setdefault(pos[m.formation], []).append(m)
    found: list[Encounter] = []
    for a in moving:
        a_from = pos[a.formation]
        for b in moving_from.get(wanted[a.formation], ()):
            # Each pair once, in name order (``moving`` is sorted by name).
            if b.formation <= a.formation or a.side == b.side:
                continue
            b_from = pos[b.formation]
            if wanted[b.formation] == a_from != b_from:
                found.append(
                    Encounter(
                        step,
                        EncounterKind.CROSSING,
                        tuple(sorted((a_from, b_from))),
                        (a.formation, b.formation),
                        tuple(sorted((a.side, b.side))),
                    )
                )
    return found
