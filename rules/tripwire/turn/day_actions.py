"""Steps 2 and 3 of the day (lines 167-173): the formations' actions and the player actions
(looting, destruction, peacekeeping, recruiting, maintenance, surveillance, sabotage).
"""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import (
    Hex,
    Location,
    PlannedMove,
    label,
)
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.turn import (
    cargo,
    day_damage,
    engineering,
    fuel,
    landing,
    recruit,
    unrest,
)
from mekref.rules.tripwire.turn.common import L166, extra_hours_of, movement_of
from mekref.rules.tripwire.turn.data import single
from mekref.rules.tripwire.turn.day import Day, location_of, raise_mobs
from mekref.rules.tripwire.turn.events import (
    FacilityDestroyed,
    FacilityRestored,
    LocationLooted,
    RecruitsFound,
    RunwayPrepared,
    SabotageRolled,
    UnrestSuppressed,
    WarChestLoaded,
)
from mekref.rules.tripwire.turn.mapdata import hex_at
from mekref.rules.tripwire.turn.movement import resolve_day
from mekref.rules.tripwire.turn.orders import LANDING, MOVING
from mekref.rules.tripwire.turn.state import IN_ORBIT, Formation, FormationOrder
from mekref.rules.tripwire.turn.victory import garrisoning


def formation_actions(d: Day) -> list[tuple[Hex, tuple[str, ...]]]:
    # Free actions first: a formation landing from orbit then stands where it landed.
    for fid, o in sorted(d.orders.items()):
        f = d.formations[fid]
        if o.action in LANDING and o.target is not None:
            d.formations[fid] = replace(f, hex=label(hex_at(o.target)))
        elif o.action == "achieve_orbit":
            d.formations[fid] = replace(f, hex=IN_ORBIT)
    planned: list[PlannedMove] = []
    for fid, f in sorted(d.formations.items()):
        act = d.action(fid)
        if f.hex == IN_ORBIT or act == "shadow":
            continue
        path: tuple[Hex, ...] = (hex_at(f.hex),)
        if act in MOVING or act in LANDING:
            path += tuple(hex_at(p) for p in d.orders[fid].path)
        planned.append(PlannedMove(fid, f.side_id, path))
    outcome = resolve_day(planned)
    for fid, h in outcome.final_hex.items():
        f = d.formations[fid]
        wanted = len(d.orders[fid].path) if fid in d.orders else 0
        if outcome.steps_taken.get(fid, 0) < wanted:
            d.note(
                f.side_id, f"{fid} stopped in {label(h)}: an encounter stops movement (line 179)"
            )
        d.formations[fid] = replace(f, hex=label(h))
    _shadow(d)
    _landings(d)
    for fid, f in sorted(d.formations.items()):
        act = d.action(fid)
        hours = extra_hours_of(d.orders[fid]) if act in ("move", "forced_march") else 0
        if act == "forced_march" or hours:
            # L197's point of fatigue, and one per hour past the useful six (L166, T-H1).
            moved = movement_of(d.s, f, forced_march=act == "forced_march", extra_hours=hours)
            d.formations[fid] = replace(f, fatigue=f.fatigue + moved.fatigue_gained)
            if hours:
                d.note(
                    f.side_id, f"{fid}: {hours} extra hours on the move, +{hours} fatigue ({L166})"
                )
        elif act == "rest":
            d.formations[fid] = replace(f, fatigue=0)  # line 205: removes all fatigue points
        if act in ("overflight", "strike", "combat_air_patrol"):
            o = d.orders[fid]
            for uid, burn in fuel.mission_fuel(d.s, f, o).items():
                unit = d.mobility.get(uid, d.s.mobility[uid])
                d.mobility[uid] = replace(unit, fuel=max(0, unit.fuel - burn))
    return [(e.hexes[0], e.formations) for e in outcome.encounters]


def _landings(d: Day) -> None:
    """L409-L410 where the formations came down (T-LZ3, T-LZ4): the Piloting rolls due are
    named for the referee; a formation an encounter or its quarry brought down where its
    aerodyne DropShips or conventional fighters have no runway is named too, for the referee
    to rule on (the orders were checked for the hexes they name)."""
    for fid, o in sorted(d.orders.items()):
        f = d.formations.get(fid)
        before = d.s.formations.get(fid)
        if f is None or before is None or f.hex == IN_ORBIT or o.action == "respond":
            continue
        hexes = [label(hex_at(o.target))] if o.action in LANDING and o.target else []
        if f.hex not in hexes and f.hex != before.hex:
            hexes.append(f.hex)
        for where in hexes:
            try:
                rolls = landing.check(d.state, d.s, f, where, fid)
            except Refusal as refusal:
                d.note(
                    f.side_id,
                    f"{refusal.message}; the day brought it down there all the same (an "
                    "encounter stopped it, or it shadowed its quarry): the referee rules on the "
                    "landing (T-LZ4)",
                )
                continue
            for text in rolls:
                d.note(f.side_id, f"{fid}: {text}")


def _shadow(d: Day) -> None:
    """A shadowing force ends the day in its quarry's hex if it has more MP (line 214)."""
    for fid, o in sorted(d.orders.items()):
        if o.action != "shadow" or o.target is None:
            continue
        f, quarry = d.formations[fid], d.formations.get(o.target)
        if f.hex == IN_ORBIT or quarry is None or quarry.hex == IN_ORBIT:
            continue
        quarry_mp = movement_of(
            d.s, quarry, forced_march=d.action(quarry.formation_id) == "forced_march"
        ).base_mp
        if movement_of(d.s, f).base_mp > quarry_mp:
            d.formations[fid] = replace(f, hex=quarry.hex)
        else:
            d.note(f.side_id, f"{fid} could not shadow {o.target}: it needs more movement points")


def _release(d: Day) -> None:
    """Martial Law / Round Them Up that stopped: unrest returns plus 1 or 2 (lines 216-217)."""
    for fid, (side, action, amount) in sorted(d.s.suppressed.items()):
        f = d.formations.get(fid)
        if f is not None and d.action(fid) == action and location_of(d, f) is not None:
            continue
        rebound = unrest.delta(
            "martial_law_rebound" if action == "martial_law" else "round_up_rebound"
        )
        where = d.s.suppressed_at.get(fid, "")
        d.events.append(
            UnrestSuppressed(
                formation_id=fid,
                force=side,
                action=action,
                amount=0,
                active=False,
                location=where,
            )
        )
        d.change_unrest(
            side, amount + rebound, f"{fid} stopped {action.replace('_', ' ')}", location=where
        )


def _suppress(d: Day, f: Formation, action: str, streak: int, where: str) -> None:
    """A week of Martial Law (1 per unit) or Round Them Up (2 per unit), at most 4 units."""
    if streak % 7 != 0 or f.formation_id in d.s.suppressed:
        if f.formation_id not in d.s.suppressed:
            d.note(f.side_id, f"{f.formation_id}: {action} day {streak % 7} of 7")
        return
    key = "martial_law" if action == "martial_law" else "round_up"
    # Only units that can stand guard hold a population down (R-VP-4).
    units = min(garrisoning(d.state, (f,)), unrest.delta(f"{key}_max_units"))
    amount = units * unrest.delta(f"{key}_per_unit")
    d.events.append(
        UnrestSuppressed(
            formation_id=f.formation_id,
            force=f.side_id,
            action=action,
            amount=amount,
            active=True,
            location=where,
        )
    )
    d.change_unrest(
        f.side_id,
        -amount,
        f"a week of {action.replace('_', ' ')} by {f.formation_id} in {where}",
        location=where,
    )


def sabotage(d: Day) -> None:
    """Despised (12): 1D6 a day per formation in a population centre; on a 6 a bombing."""
    rule = single("unrest", "sabotage")
    for fid, f in sorted(d.formations.items()):
        loc = location_of(d, f)
        if loc is None:
            continue
        if unrest.level_row(d.rating(f.side_id, loc.name)).get("name") != "Despised":
            continue
        roll = d.roll(f"sabotage, {fid}", 1)
        if roll.total < int(rule["die_target"]):
            d.events.append(
                SabotageRolled(
                    side_id=f.side_id, formation_id=fid, unit_id=None, damage=0, rolls=(roll,)
                )
            )
            continue
        rolls = [roll]
        victim = f.unit_ids[0]
        if len(f.unit_ids) > 1:
            which, d.dice = d.dice.roll(f"sabotage target, {fid}", 1, len(f.unit_ids))
            rolls.append(which)
            victim = f.unit_ids[which.total - 1]
        damage = d.roll(f"sabotage damage, {fid}", int(rule["damage_dice"]))
        rolls.append(damage)
        d.events.append(
            SabotageRolled(
                side_id=f.side_id,
                formation_id=fid,
                unit_id=victim,
                damage=damage.total * int(rule["damage_per_pip"]),
                rolls=tuple(rolls),
            )
        )
        day_damage.bombing(d, victim, damage.total * int(rule["damage_per_pip"]))


def player_actions(d: Day) -> None:
    _release(d)
    # A day without an order ends a run of days (T-U3: "each seventh consecutive day").
    for fid, f in sorted(d.formations.items()):
        if fid not in d.orders and f.action_streak != ("", 0):
            d.formations[fid] = replace(f, action_streak=("", 0))
    for fid, o in sorted(d.orders.items()):
        f = d.formations[fid]
        side = f.side_id
        streak_action, streak_days = f.action_streak
        streak = streak_days + 1 if streak_action == o.action else 1
        d.formations[fid] = f = replace(f, action_streak=(o.action, streak))
        loc = location_of(d, f)
        if o.action == "maintenance":
            d.maintained.add(fid)
        elif o.action == "looting" and loc is not None:
            pool_id = o.param("pool")
            r, wp, d.dice = unrest.loot_roll(d.dice, fid)
            pool = d.state.pools.get(pool_id)
            room = None if pool is None or pool.capacity is None else pool.capacity - pool.balance
            credited = wp if room is None else min(wp, room)
            d.events.append(
                LocationLooted(
                    side_id=side,
                    formation_id=fid,
                    location=loc.name,
                    wp=credited,
                    pool_id=pool_id,
                    rolls=(r,),
                )
            )
            d.change_unrest(
                side, unrest.delta("looting"), f"looting {loc.name} (line 218)", location=loc.name
            )
        elif o.action == "destruction" and loc is not None and o.target:
            amount = unrest.destruction_unrest(o.target)
            d.destroyed.setdefault(loc.name, set()).add(o.target)
            d.events.append(
                FacilityDestroyed(
                    location=loc.name, facility=o.target, by_force=side, civilian=amount > 0
                )
            )
            if amount:
                d.change_unrest(
                    side,
                    amount,
                    f"destroying the {o.target} of {loc.name} (line 219)",
                    location=loc.name,
                )
        elif o.action == "peacekeeping" and loc is not None and streak % 7 == 0:
            level = d.rating(side, loc.name)
            r, change, d.dice = unrest.peacekeeping_roll(d.dice, fid)
            d.change_unrest(
                side,
                change,
                f"a week of peacekeeping in {loc.name} (line 215)",
                (r,),
                location=loc.name,
            )
            raise_mobs(d, side, level, loc.name, f"peacekeeping, {fid}")
        elif o.action in ("martial_law", "round_them_up") and loc is not None:
            _suppress(d, f, o.action, streak, loc.name)
        elif o.action == "recruit":
            _recruit(d, f, loc)
        elif o.action in ("overflight", "surveillance"):
            continue  # resolved with the sightings, once positions are final
        elif o.action == "load_unload":
            _load_unload(d, f, o)
        elif o.action == "repair" and o.target:
            _engineers(d, f, o)
        elif o.action == "prepare_runway":
            _runway(d, f, o)
        # A repair order without a target works the booked hours (repair_days, R-WHERE-6).


def _engineers(d: Day, f: Formation, o: FormationOrder) -> None:
    """L219: the DropPort stands again at the end of the engineers' day (T-EN1); checked again
    where the formation stands after the moves."""
    s = replace(d.s, destroyed={k: tuple(sorted(v)) for k, v in d.destroyed.items()})
    try:
        where = engineering.check(d.state, s, f, o, f.formation_id)
    except Refusal as refusal:
        d.note(f.side_id, f"{f.formation_id}: repair not done: {refusal.message}")
        return
    facility = o.target or ""
    d.destroyed.get(where, set()).discard(facility)
    d.events.append(FacilityRestored(location=where, facility=facility, by_force=f.side_id))


def _runway(d: Day, f: Formation, o: FormationOrder) -> None:
    """L409: the temporary runway stands at the end of the engineers' day (T-LZ1); checked
    again where the formation stands after the moves."""
    try:
        where = landing.check_prepare(d.state, d.s, f, o, f.formation_id)
    except Refusal as refusal:
        d.note(f.side_id, f"{f.formation_id}: runway not prepared: {refusal.message}")
        return
    d.events.append(
        RunwayPrepared(side_id=f.side_id, day=d.day, formation_id=f.formation_id, hex=where)
    )
    d.note(
        f.side_id,
        f"{f.formation_id}: a temporary runway stands in {where} from the end of day {d.day} "
        "(L409, T-LZ1)",
    )


def _load_unload(d: Day, f: Formation, o: FormationOrder) -> None:
    """L59: WP move only by a Load/Unload; checked again where the formation stands at the end
    of the moves, with the pools as they are now (spending since the order may have emptied one):
    what no longer fits is not moved, and the side is told why (T-WP1)."""
    state = d.state
    for e in d.events:  # WP moved earlier today by another formation's order
        if isinstance(e, WarChestLoaded):
            state = cargo.moved(state, e)
    try:
        checked = cargo.check(state, d.s, d.formations, f, o, f"{f.formation_id}")
    except Refusal as refusal:
        d.note(f.side_id, f"{f.formation_id}: load/unload not done: {refusal.message}")
        return
    d.events.append(
        WarChestLoaded(
            side_id=f.side_id,
            day=d.day,
            formation_id=f.formation_id,
            hex=f.hex,
            from_pool=checked.source.pool_id,
            to_pool=checked.target.pool_id,
            amount=checked.amount,
        )
    )


def _recruit(d: Day, f: Formation, loc: Location | None) -> None:
    every = int(single("recruit", "weekly")["every_days"])
    if d.day - f.last_recruit_day < every:
        d.note(
            f.side_id,
            f"{f.formation_id}: recruiting once per week; next on day {f.last_recruit_day + every}",
        )
        return
    if (
        loc is None
        or "recruitment" not in loc.facilities
        or d.control.get(loc.name, f.side_id) != f.side_id
    ):
        d.note(
            f.side_id,
            f"{f.formation_id}: recruiting needs a recruitment point not held by the enemy "
            "(ruling T-R2)",
        )
        return
    level = d.rating(f.side_id, loc.name)
    result = recruit.roll_recruits(d.dice, f.formation_id, level)
    d.formations[f.formation_id] = replace(f, last_recruit_day=d.day)
    if result is None:
        d.note(
            f.side_id,
            f"{f.formation_id}: unrest {level} in {loc.name}: recruitment not possible (line 400)",
        )
        return
    available, special, rolls, d.dice = result
    d.events.append(
        RecruitsFound(
            side_id=f.side_id,
            day=d.day,
            formation_id=f.formation_id,
            total=sum(n for _, n in available),
            available=available,
            specialities=special,
            rolls=tuple(rolls),
        )
    )
