"""Booked technician work is done on the formation's repair day (ruling R-WHERE-6).

L178: "each separate formation can take one of the following Actions per standard day". L198:
"Reload/Repair/Rearm/Salvage – Players may spend WarChest points to repair units and heal
personnel." Paying (``mekref spend repair``, ``rearm``, ``reconfigure``) books the hours in the
technicians' days of the hex (L63-L64, R-WHERE-4). The booked hours of a day are worked only if
the unit's formation takes the repair action that day (``--order F:repair``). A formation that
guards, rests, maintains or has no order does no repair work: its booked hours wait, re-booked
from the next day after the other work of the same workshop, and the day's notes say so.
A captured unit standing in no formation (T-F7) has no one to take the action for it: its
work waits until it is formed and ordered to repair.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.messages import Event, event_type
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.day import Day
from mekref.rules.tripwire.turn.state import Formation, StrategicState
from mekref.rules.tripwire.whereabouts import technicians_at

#: Quoted in the notes and refusals.
RULE = 'L178 "one of the following Actions per standard day", L198 "Reload/Repair/Rearm/Salvage"'


@record
class WaitingWork(Record):
    """One unit's booked work that was not done on the day: why, and its days from now on."""

    unit_id: str
    formation_id: str  # "" when the unit is in no formation (captured, T-F7)
    action: str  # the formation's order that day, "" when it had none
    hex: str
    work_days: tuple[tuple[int, int], ...]  # (day, hours), re-booked from the next day


@event_type("RepairWorkWaited")
@record
class RepairWorkWaited(Event):
    """A side's booked work that waited: its formations took no repair action that day.

    R-WHERE-6. ``workshops``: (hex, last day booked, hours that day) after re-booking."""

    side_id: str
    day: int
    waiting: tuple[WaitingWork, ...]
    workshops: tuple[tuple[str, int, int], ...]


def _holders(state: CampaignState, formations: dict[str, Formation]) -> dict[str, Formation]:
    """Each unit's formation of its own side."""
    return {
        u: f
        for _, f in sorted(formations.items())
        for u in f.unit_ids
        if u in state.units and state.units[u].side_id == f.side_id
    }


def _hex_of(s: StrategicState, holders: dict[str, Formation], unit_id: str) -> str | None:
    f = holders.get(unit_id)
    return f.hex if f is not None else s.captured_at.get(unit_id)


def _name(state: CampaignState, unit_id: str) -> str:
    u = state.units[unit_id]
    return f"{u.chassis} {u.model}".strip()


def _why(day: int, f: Formation | None, action: str, hex_: str) -> str:
    if f is None:
        return f"it is in no formation: form one of it in {hex_} and order it to repair"
    if not action:
        return f"{f.formation_id} had no order for day {day}, not repair"
    return f"{f.formation_id}'s order for day {day} was {action}, not repair"


def _fill(usage: dict[int, int], start: int, capacity: int, hours: int) -> list[tuple[int, int]]:
    """``hours`` booked from day ``start`` in the hours each day leaves free (L64)."""
    out: list[tuple[int, int]] = []
    day = start
    while hours > 0:
        free = capacity - usage.get(day, 0)
        if free > 0:
            h = min(free, hours)
            out.append((day, h))
            usage[day] = usage.get(day, 0) + h
            hours -= h
        day += 1
    return out


def _rebook(
    d: Day, holders: dict[str, Formation], side: str, hex_: str, units: list[str]
) -> tuple[list[WaitingWork], tuple[str, int, int] | None]:
    """The waiting ``units`` of one workshop booked again from tomorrow, after the work of its
    other units (which keeps its days)."""
    s, day = d.s, d.day
    waiting = set(units)
    usage: dict[int, int] = {}
    for v, work in sorted(s.repair_work.items()):
        if v in waiting or v not in d.state.units or d.state.units[v].side_id != side:
            continue
        if _hex_of(s, holders, v) == hex_:
            for x, h in work:
                if x > day:
                    usage[x] = usage.get(x, 0) + h
    capacity = load_tables().technician_hours_per_day * technicians_at(d.state, side, hex_)
    out: list[WaitingWork] = []
    for u in sorted(units, key=lambda u: (min(x for x, _ in s.repair_work[u] if x >= day), u)):
        left = [(x, h) for x, h in s.repair_work[u] if x >= day]
        if capacity < 1:
            # No technician stands there any more: the days wait one by one (L63).
            new = [(x + 1, h) for x, h in left]
            for x, h in new:
                usage[x] = usage.get(x, 0) + h
        else:
            new = _fill(usage, day + 1, capacity, sum(h for _, h in left))
        f = holders.get(u)
        out.append(
            WaitingWork(
                unit_id=u,
                formation_id=f.formation_id if f is not None else "",
                action=d.action(f.formation_id) if f is not None else "",
                hex=hex_,
                work_days=tuple(new),
            )
        )
    if not usage:
        return out, None
    last = max(usage)
    before = s.workshops.get(f"{side}@{hex_}")
    if before is not None and before[0] > last:
        return out, (hex_, *before)
    return out, (hex_, last, usage[last])


def work_the_day(d: Day) -> None:
    """The day's booked work: done where the formation repairs, re-booked where it does not."""
    s, day = d.s, d.day
    holders = _holders(d.state, d.formations)
    worked: dict[str, list[tuple[str, int]]] = {}
    waiting: dict[tuple[str, str], list[str]] = {}
    for u, work in sorted(s.repair_work.items()):
        hours = sum(h for x, h in work if x == day)
        if not hours or u not in d.state.units:
            continue
        f = holders.get(u)
        if f is not None and d.action(f.formation_id) == "repair":
            worked.setdefault(f.formation_id, []).append((u, hours))
            continue
        hex_ = _hex_of(s, holders, u)
        if hex_ is not None:
            waiting.setdefault((d.state.units[u].side_id, hex_), []).append(u)
    for fid, o in sorted(d.orders.items()):
        if o.action != "repair" or o.target or fid not in d.formations:
            continue  # the engineers' repair of a DropPort (T-EN1) is no technician work
        side = d.formations[fid].side_id
        jobs = worked.get(fid, [])
        if jobs:
            done = ", ".join(f"{_name(d.state, u)} {h} h" for u, h in jobs)
            d.note(side, f"{fid}: repair: the technicians worked the booked hours ({done})")
        else:
            d.note(
                side,
                f"{fid}: repair takes the day, but no work is booked for its units today: pay "
                "with 'mekref spend repair' (L198)",
            )
    by_side: dict[str, tuple[list[WaitingWork], list[tuple[str, int, int]]]] = {}
    for (side, hex_), units in sorted(waiting.items()):
        rebooked, shop = _rebook(d, holders, side, hex_, units)
        works, shops = by_side.setdefault(side, ([], []))
        works += rebooked
        if shop is not None:
            shops.append(shop)
    for side, (works, shops) in sorted(by_side.items()):
        for w in works:
            f = holders.get(w.unit_id)
            d.note(
                side,
                f"{w.formation_id or _name(d.state, w.unit_id)}: the booked work on "
                f"{_name(d.state, w.unit_id)} waits: {_why(day, f, w.action, w.hex)} ({RULE}); "
                f"now ready day {w.work_days[-1][0]}",
            )
        d.events.append(
            RepairWorkWaited(side_id=side, day=day, waiting=tuple(works), workshops=tuple(shops))
        )


def evolve_waited(state: CampaignState, e: RepairWorkWaited) -> CampaignState:
    s = strategic_of(state)
    work = dict(s.repair_work)
    ready = dict(s.repair_ready)
    for w in e.waiting:
        done = tuple(x for x in work.get(w.unit_id, ()) if x[0] < e.day)
        work[w.unit_id] = (*done, *w.work_days)
        if w.work_days:
            ready[w.unit_id] = w.work_days[-1][0]
    shops = dict(s.workshops)
    for hex_, last, hours in e.workshops:
        shops[f"{e.side_id}@{hex_}"] = (last, hours)
    return replace(
        state,
        strategic=replace(
            s,
            repair_work=dict(sorted(work.items())),
            repair_ready=dict(sorted(ready.items())),
            workshops=dict(sorted(shops.items())),
        ),
    )


def work_waits(state: CampaignState, unit_id: str) -> str | None:
    """Why the unit's work booked for the day being ordered would wait as the orders stand;
    None when it runs (its formation is ordered to repair) or none is booked for that day."""
    s = state.strategic
    if s is None or unit_id not in state.units:
        return None
    if not any(x == s.day for x, _ in s.repair_work.get(unit_id, ())):
        return None
    side = state.units[unit_id].side_id
    f = _holders(state, s.formations).get(unit_id)
    if f is None:
        where = s.captured_at.get(unit_id, "its hex")
        return f"day {s.day}: waits: {_why(s.day, None, '', where)} ({RULE})"
    order = next((o for o in s.orders.get(side, ()) if o.formation_id == f.formation_id), None)
    if order is not None and order.action == "repair" and not order.target:
        return None
    if order is None:
        return (
            f"day {s.day}: waits unless {f.formation_id} is ordered to repair (no order yet: "
            f"--order {f.formation_id}:repair) ({RULE})"
        )
    return f"day {s.day}: waits: {f.formation_id}'s order is {order.action}, not repair ({RULE})"


def booking_note(state: CampaignState, unit_id: str) -> str | None:
    """What a payment just booked means for the unit, in one line for ``mekref spend``."""
    s = state.strategic
    if s is None:
        return None
    days = [(x, h) for x, h in s.repair_work.get(unit_id, ()) if x >= s.day]
    if not days:
        return None
    f = _holders(state, s.formations).get(unit_id)
    who = f"{f.formation_id}'s order is repair" if f is not None else "its formation repairs"
    text = (
        f"work booked {', '.join(f'day {x} {h} h' for x, h in days)}: done only on a day {who} "
        f"(L178, L198, R-WHERE-6)"
    )
    waits = work_waits(state, unit_id)
    return text + (f"; {waits}" if waits else "")
