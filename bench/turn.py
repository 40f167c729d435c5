"""``python -m bench.turn``: resolve one day on a 5,000-hex map with 100-3,200 formations.

Prints a Markdown table: how long ``ResolveTurn`` (decide and fold) takes as the number of
formations grows, in CPU time (median of ``--repeats`` rounds, the range beside it; the
machine is shared), and the cost per event against the smallest day's: the anchor is the
day's own growth. A crowded map holds more battles per formation, so the work of a day (its
events) grows faster than its formations; the cost per event is the figure that shows the
algorithm's growth, 1.0 being linear in the work.

Goal (issue 28): the day linear again: 3,200 formations in under 1 s, and the day's time at
most 2.2x per doubling of the formations, counted per event (so the cost per event grows at
most 1.1x per doubling). It is judged over the last two doublings (800 to 3,200 formations,
as ``make bench-check`` does): the smallest days, a few milliseconds, are mostly fixed costs
spread over a handful of events.

Half the formations belong to each side; each is a lance of four 'Mechs
(walk 5: 3 strategic MP) on a random plains hex with a random three-hex move, so some meet.
The map is 71 x 71 hexes (5,041) with woods, hills and four weather regions.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from fractions import Fraction

from bench import summary
from bench.stats import spread
from mekref.hexmap import Hex, label, neighbours, parse_label, parse_map
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    UnitKind,
)
from mekref.rules.tripwire.model import Lance as ForceLance
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.mapdata import hexmap_of
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations, StartStrategicMap
from mekref.rules.tripwire.turn.state import UnitMobility

SIZE = 71
COUNTS = (100, 200, 400, 800, 1600, 3200)
GOAL_SECONDS = 1.0
#: The cost per event may grow at most this much per doubling of the formations (2.2x the
#: time for twice the work).
GOAL_PER_DOUBLING = 1.1
SIDES = ("red", "blue")


def map_text() -> str:
    half = SIZE // 2
    return f"""
[map]
name = "Bench"
width = {SIZE}
height = {SIZE}
default_terrain = "plains"

[[terrain]]
type = "light_woods"
hexes = ["0505:2020", "4040:5555"]

[[terrain]]
type = "hills"
hexes = ["3005:3515", "0550:1565"]

[[region]]
name = "North West"
climate = -1
hexes = ["0101:{half:02}{half:02}"]

[[region]]
name = "North East"
climate = 0
hexes = ["{half + 1:02}01:{SIZE:02}{half:02}"]

[[region]]
name = "South West"
climate = 1
hexes = ["01{half + 1:02}:{half:02}{SIZE:02}"]

[[region]]
name = "South East"
climate = 2
hexes = ["{half + 1:02}{half + 1:02}:{SIZE:02}{SIZE:02}"]
"""


def _force(side: str, formations: int) -> ForceDescription:
    lances = []
    for f in range(formations):
        units = tuple(
            ForceUnit(
                unit_id=f"{side}-{f}-{u}",
                chassis="Griffin",
                model="GRF-1N",
                kind=UnitKind.MEK,
                tonnage=Fraction(55),
                bv=1272,
                crew=(CrewSkills(person_id=f"{side}-{f}-{u}-p", name="P", gunnery=4, piloting=5),),
            )
            for u in range(4)
        )
        lances.append(ForceLance(name=f"{side} lance {f}", units=units))
    return ForceDescription(
        companies=(Company(name=side, role=CompanyRole.MEK_COMPANY, lances=tuple(lances)),)
    )


def build(formations: int, seed: int) -> tuple[CampaignState, ResolveTurn]:
    rng = random.Random(seed)
    per_side = formations // 2
    note = RefereeNote(referee="bench", reason="benchmark force")
    state = CampaignState()
    text = map_text()
    commands = [
        CreateCampaign(
            actor="bench",
            name="Bench",
            ruleset="tripwire",
            seed=f"bench-{seed}",
            sides=tuple(SideSpec(side_id=s, name=s) for s in SIDES),
        ),
        *(
            ImportForce(actor="bench", side_id=s, force=_force(s, per_side), accept_unchecked=note)
            for s in SIDES
        ),
        StartStrategicMap(
            actor="bench",
            map_name="bench",
            map_text=text,
            attacker="red",
            defender="blue",
            mobility=tuple(
                UnitMobility(unit_id=f"{s}-{f}-{u}", walk_mp=5, mode="leg")
                for s in SIDES
                for f in range(per_side)
                for u in range(4)
            ),
        ),
    ]
    for cmd in commands:
        _, state = TRIPWIRE.execute(state, cmd)
    assert state.strategic is not None
    hexmap = hexmap_of(state.strategic)
    plains = [h for h in hexmap.hexes() if hexmap.terrain_at(h) == "plains"]
    for s in SIDES:
        # The defender places anywhere; the bench lets the attacker start on the map too by
        # placing it as a reorganisation after a Day Zero landing would have happened.
        specs = tuple(
            FormationSpec(
                formation_id=f"{s}-{f}",
                name=f"{s} {f}",
                unit_ids=tuple(f"{s}-{f}-{u}" for u in range(4)),
                hex=label(rng.choice(plains)) if s == "blue" else "",
            )
            for f in range(per_side)
        )
        _, state = TRIPWIRE.execute(
            state, PlaceFormations(actor=s, side_id=s, day=1, formations=specs)
        )
    # Land the attacker, then move everyone on day 2.
    landing = tuple(
        FormationOrder(
            formation_id=f"red-{f}", action="orbital_insertion", target=label(rng.choice(plains))
        )
        for f in range(per_side)
    )
    _, state = TRIPWIRE.execute(
        state, SubmitOrders(actor="red", side_id="red", day=1, orders=landing)
    )
    _, state = TRIPWIRE.execute(state, ResolveTurn(actor="bench", day=1))
    assert state.strategic is not None
    for s in SIDES:
        orders = []
        for fid, f in sorted(state.strategic.formations.items()):
            if f.side_id != s:
                continue
            path: list[Hex] = [parse_label(f.hex)]
            for _ in range(3):
                options = [
                    n
                    for n in neighbours(path[-1])
                    if hexmap.in_bounds(n) and hexmap.terrain_at(n) == "plains" and n not in path
                ]
                if not options:
                    break
                path.append(rng.choice(options))
            orders.append(
                FormationOrder(
                    formation_id=fid, action="move", path=tuple(label(h) for h in path[1:])
                )
                if len(path) > 1
                else FormationOrder(formation_id=fid, action="guard")
            )
        _, state = TRIPWIRE.execute(
            state, SubmitOrders(actor=s, side_id=s, day=2, orders=tuple(orders))
        )
    return state, ResolveTurn(actor="bench", day=2)


def day_cpu(state: CampaignState, cmd: ResolveTurn) -> tuple[float, int]:
    """CPU seconds of one day (decide and fold) and the events it made."""
    start = time.process_time()
    events = TRIPWIRE.decide(state, cmd, TRIPWIRE.dice_for(state))
    TRIPWIRE.fold(events, state)
    return time.process_time() - start, len(events)


def time_day(state: CampaignState, cmd: ResolveTurn, repeats: int) -> tuple[list[float], int, int]:
    TRIPWIRE.decide(
        state, cmd, TRIPWIRE.dice_for(state)
    )  # warm-up: caches of the map and the tables
    times = [day_cpu(state, cmd)[0] for _ in range(repeats)]
    events = TRIPWIRE.decide(state, cmd, TRIPWIRE.dice_for(state))
    engagements = sum(1 for e in events if type(e).__name__ == "EngagementDetermined")
    return times, len(events), engagements


def per_doubling(per_event: list[float], counts: list[int]) -> float:
    """The growth of the cost per event for each doubling of the formations (geometric mean
    from the first count to the last)."""
    doublings = math.log2(counts[-1] / counts[0])
    return (per_event[-1] / per_event[0]) ** (1 / doublings) if doublings else 1.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.turn", description=__doc__)
    parser.add_argument("--repeats", type=int, default=5, help="rounds per day (5)")
    parser.add_argument("--seed", type=int, default=3065)
    parser.add_argument("--max", type=int, default=COUNTS[-1], help="largest formation count")
    args = parser.parse_args(argv)
    hexes = sum(1 for _ in parse_map(map_text(), "bench").hexes())
    print(
        f"### Resolving one day ({hexes:,} hexes, CPU time, median of {args.repeats} rounds "
        "and their range)\n"
    )
    print(
        "| formations | day (ms) | per formation (µs) | events | per event (µs) "
        "| per event vs the smallest day | engagements |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    counts: list[int] = []
    per_event: list[float] = []
    last: list[float] = []
    for n in (c for c in COUNTS if c <= args.max):
        state, cmd = build(n, args.seed)
        times, events, engagements = time_day(state, cmd, args.repeats)
        mid = statistics.median(times)
        counts.append(n)
        per_event.append(mid / events)
        last = times
        print(
            f"| {n:,} | {spread([t * 1000 for t in times], '.0f')} | {mid / n * 1e6:.0f} "
            f"| {events} | {mid / events * 1e6:.0f} | {per_event[-1] / per_event[0]:.2f} "
            f"| {engagements} |"
        )
    largest = statistics.median(last)
    judged = max(0, len(counts) - 3)  # the last two doublings
    growth = per_doubling(per_event[judged:], counts[judged:])
    fast = largest < GOAL_SECONDS
    linear = growth <= GOAL_PER_DOUBLING
    summary.add(
        f"one strategic day, {hexes:,} hexes, {counts[0]:,} to {counts[-1]:,} formations",
        f"its own growth: {counts[judged]:,} formations, {per_event[judged] * 1e6:.0f} µs/event",
        f"{counts[-1]:,} formations: {spread([t * 1000 for t in last], '.0f', ' ms')} CPU, "
        f"{per_event[-1] * 1e6:.0f} µs/event",
        f"x{growth:.2f} per event per doubling from {counts[judged]:,}",
        f"largest day < {GOAL_SECONDS:.0f} s; <= x{GOAL_PER_DOUBLING} per event per doubling",
        fast and linear,
    )
    print(
        f"\nThe largest day in {largest * 1000:.0f} ms: goal < {GOAL_SECONDS:.0f} s "
        f"{'met' if fast else '**not met**'}. From {counts[judged]:,} formations the cost per "
        f"event grew x{growth:.2f} per doubling: goal <= x{GOAL_PER_DOUBLING} (the day's time "
        f"<= 2.2x for twice the work) {'met' if linear else '**not met**'}."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
