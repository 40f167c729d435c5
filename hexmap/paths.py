"""Checking a formation's ordered path, and finding the cheapest one."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from mekref.hexmap.geometry import Hex, are_adjacent, distance, label, neighbours
from mekref.hexmap.model import HexMap
from mekref.hexmap.movement import FormationMovement, step_cost


class PathProblem(StrEnum):
    EMPTY = "empty"
    OFF_MAP = "off_map"
    NOT_ADJACENT = "not_adjacent"
    IMPASSABLE = "impassable"
    OVER_BUDGET = "over_budget"


@dataclass(frozen=True, slots=True)
class PathCheck:
    """The verdict on a path. When illegal, ``at`` is the first hex that cannot be reached and
    ``step`` its index in the path; ``cost`` is the MP spent up to the last legal hex."""

    ok: bool
    cost: int
    budget: int
    problem: PathProblem | None = None
    at: Hex | None = None
    step: int | None = None
    reason: str = ""


def path_cost(hexmap: HexMap, movement: FormationMovement, path: Sequence[Hex]) -> int | None:
    """Total MP of a path (its first hex is the start, free); ``None`` if any step is illegal."""
    total = 0
    for a, b in itertools.pairwise(path):
        if not are_adjacent(a, b):
            return None
        c = step_cost(hexmap, movement, a, b)
        if c is None:
            return None
        total += c
    return total


def _all_road(hexmap: HexMap, path: Sequence[Hex]) -> bool:
    return len(path) > 1 and all(hexmap.is_road_step(a, b) for a, b in itertools.pairwise(path))


def validate_path(hexmap: HexMap, movement: FormationMovement, path: Sequence[Hex]) -> PathCheck:
    """Whether ``movement`` can follow ``path`` (start hex first) within one day."""
    budget = movement.budget(all_road=_all_road(hexmap, path))
    if not path:
        return PathCheck(False, 0, budget, PathProblem.EMPTY, reason="the path has no hexes")
    if not hexmap.in_bounds(path[0]):
        return PathCheck(
            False,
            0,
            budget,
            PathProblem.OFF_MAP,
            path[0],
            0,
            f"the start hex {label(path[0])} is off the map",
        )
    spent = 0
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        where = hexmap.describe(b)
        if not hexmap.in_bounds(b):
            return PathCheck(
                False, spent, budget, PathProblem.OFF_MAP, b, i, f"{label(b)} is off the map"
            )
        if not are_adjacent(a, b):
            return PathCheck(
                False,
                spent,
                budget,
                PathProblem.NOT_ADJACENT,
                b,
                i,
                f"{where} is not next to {hexmap.describe(a)}; list every hex entered",
            )
        c = step_cost(hexmap, movement, a, b)
        if c is None:
            return PathCheck(
                False,
                spent,
                budget,
                PathProblem.IMPASSABLE,
                b,
                i,
                f"{where} ({hexmap.terrain_at(b)}) cannot be entered by this formation",
            )
        if spent + c > budget:
            return PathCheck(
                False,
                spent,
                budget,
                PathProblem.OVER_BUDGET,
                b,
                i,
                f"entering {where} costs {c} MP but only {budget - spent} of {budget} remain",
            )
        spent += c
    return PathCheck(True, spent, budget)


@dataclass(frozen=True, slots=True)
class Route:
    path: tuple[Hex, ...]
    cost: int


def cheapest_path(
    hexmap: HexMap, movement: FormationMovement, start: Hex, goal: Hex
) -> Route | None:
    """The lowest-MP path from ``start`` to ``goal`` regardless of the day's budget (A*).

    Ties are broken the same way on every run: by fewer hexes to the goal, then by the hex
    coordinates, and a hex's predecessor only changes for a strictly cheaper cost.
    """
    if not (hexmap.in_bounds(start) and hexmap.in_bounds(goal)):
        return None
    # Every step costs at least 1 MP, so hex distance never overestimates: A* stays exact.
    best: dict[Hex, int] = {start: 0}
    came_from: dict[Hex, Hex] = {}
    frontier: list[tuple[int, int, Hex]] = [(distance(start, goal), 0, start)]
    done: set[Hex] = set()
    while frontier:
        _, g, current = heapq.heappop(frontier)
        if current in done:
            continue
        if current == goal:
            path = [current]
            while path[-1] in came_from:
                path.append(came_from[path[-1]])
            return Route(tuple(reversed(path)), g)
        done.add(current)
        for n in neighbours(current):
            c = step_cost(hexmap, movement, current, n)
            if c is None or n in done:
                continue
            cost = g + c
            if cost < best.get(n, cost + 1):
                best[n] = cost
                came_from[n] = current
                heapq.heappush(frontier, (cost + distance(n, goal), cost, n))
    return None


def reachable(hexmap: HexMap, movement: FormationMovement, start: Hex) -> dict[Hex, int]:
    """Every hex the formation can reach today, with the cheapest MP to get there.

    The all-road bonus (ruling R1) is included: hexes reached only by road get the extra MP.
    """
    result = _dijkstra(hexmap, movement, start, movement.budget(all_road=False), road_only=False)
    if movement.road_bonus:
        by_road = _dijkstra(hexmap, movement, start, movement.budget(all_road=True), road_only=True)
        for h, c in by_road.items():
            if c < result.get(h, c + 1):
                result[h] = c
    return dict(sorted(result.items()))


def _dijkstra(
    hexmap: HexMap, movement: FormationMovement, start: Hex, budget: int, *, road_only: bool
) -> dict[Hex, int]:
    best: dict[Hex, int] = {start: 0}
    frontier: list[tuple[int, Hex]] = [(0, start)]
    while frontier:
        g, current = heapq.heappop(frontier)
        if g > best[current]:
            continue
        for n in neighbours(current):
            if road_only and not hexmap.is_road_step(current, n):
                continue
            c = step_cost(hexmap, movement, current, n)
            if c is None or g + c > budget:
                continue
            if g + c < best.get(n, g + c + 1):
                best[n] = g + c
                heapq.heappush(frontier, (g + c, n))
    return best


def todays_leg(
    hexmap: HexMap, movement: FormationMovement, route: Sequence[Hex]
) -> tuple[Hex, ...]:
    """The longest start of ``route`` the formation can cover today (at least its start hex).

    For turning a multi-day route from ``cheapest_path`` into the day's order.
    """
    best: tuple[Hex, ...] = tuple(route[:1])
    for end in range(2, len(route) + 1):
        prefix = tuple(route[:end])
        if validate_path(hexmap, movement, prefix).ok:
            best = prefix
        elif not _all_road(hexmap, prefix):
            # Off the road the budget can only shrink from here on; an all-road prefix may
            # still be rescued by the road bonus a step later, so keep trying those.
            break
    return best
