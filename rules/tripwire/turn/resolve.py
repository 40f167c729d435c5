"""Resolving a day (lines 167-173): weather, actions, player actions, responses, engagements.

1. Weather: the weekly change on days 8, 15, ... (day 1 keeps the starting roll).
2. Actions: free actions first (landing from orbit, hops, reaching orbit), then every
   formation's movement at once (encounters stop movement, hexmap ruling R6), shadowing,
   fatigue, aerospace fuel.
3. Player actions: looting, destruction, peacekeeping, recruiting, maintenance, surveillance.
4. Responses: a DropShip formation on Respond hops or lands after an enemy hop, landing or
   launch its sensors saw; fighters on Intercept at an airfield meet enemy aircraft and landings
   in their hex (rulings T-RS1, T-RS2). Either may start an engagement.
5. Engagements: a scenario set-up for every encounter; a battle in a population centre raises
   mobs at the unrest levels that have them (ruling T-U5).
Then the day's upkeep (maintenance clock, rations, refuelling), location control, sightings,
strategic VP and the end of the day.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.hexmap import (
    Hex,
    HexMap,
    Location,
    PlannedMove,
    Sensor,
    SensorKind,
    distance,
    label,
    line,
    location_sensors,
    visible_hexes,
)
from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn import engagement, fuel, recruit, surveillance, unrest, weather
from mekref.rules.tripwire.turn.common import AEROSPACE, AIRFIELD, movement_of, strategic_of
from mekref.rules.tripwire.turn.data import single
from mekref.rules.tripwire.turn.events import (
    DayEnded,
    EngagementDetermined,
    FacilityDestroyed,
    FormationsUpdated,
    LocationControlChanged,
    LocationLooted,
    MaintenanceMissed,
    MobsRaised,
    RecruitsFound,
    ResponseMade,
    SabotageRolled,
    SightingsMade,
    StrategicVictoryScored,
    TransportCargoCaptured,
    UnrestChanged,
    UnrestSuppressed,
    WeatherRolled,
)
from mekref.rules.tripwire.turn.mapdata import hex_at, hexmap_of
from mekref.rules.tripwire.turn.movement import resolve_day
from mekref.rules.tripwire.turn.orders import LANDING, MOVING, ResolveTurn
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    Formation,
    FormationOrder,
    Sighting,
    StrategicState,
    UnitMobility,
)
from mekref.rules.tripwire.turn.victory import end_reason, strategic_vp

DEFAULT_PILOTING = 5  # when a unit's crew is not on the roster (ruling T-S1)


def _prune(state: CampaignState, formations: dict[str, Formation]) -> dict[str, Formation]:
    """Units that left their side (captured) or the roster leave their formations; a formation
    left empty is dissolved."""
    out: dict[str, Formation] = {}
    for fid, f in formations.items():
        kept = tuple(
            u for u in f.unit_ids if u in state.units and state.units[u].side_id == f.side_id
        )
        if kept:
            out[fid] = f if kept == f.unit_ids else replace(f, unit_ids=kept)
    return out


def _captured_cargo(d: _Day) -> None:
    """Capturing a transport gives the captor its cargo (the issue, line 53)."""
    by_unit: dict[str, list[str]] = {}
    for pool_id, unit_id in sorted(d.s.transports.items()):
        by_unit.setdefault(unit_id, []).append(pool_id)
    for unit_id, pools in sorted(by_unit.items()):
        unit = d.state.units.get(unit_id)
        if unit is None:
            continue
        moved = tuple(
            p for p in pools if p in d.state.pools and d.state.pools[p].side_id != unit.side_id
        )
        if moved:
            d.events.append(
                TransportCargoCaptured(unit_id=unit_id, pools=moved, after=unit.side_id)
            )


class _Day:
    """The working copy of one day's resolution: formations, unrest, dice, events so far."""

    def __init__(self, state: CampaignState, s: StrategicState, dice: Dice) -> None:
        self.state = state
        self.s = s
        self.hexmap: HexMap = hexmap_of(s)
        self.dice = dice
        self.day = s.day
        self.formations: dict[str, Formation] = _prune(state, s.formations)
        self.mobility: dict[str, UnitMobility] = {}
        self.unrest = dict(s.unrest)
        self.local_unrest = {loc: dict(v) for loc, v in s.local_unrest.items()}
        self.control = dict(s.control)
        self.events: list[Event] = []
        self.notes: dict[str, list[str]] = {}
        self.orders: dict[str, FormationOrder] = {
            o.formation_id: o for side in sorted(s.orders) for o in s.orders[side]
        }
        self.maintained: set[str] = set()
        self.destroyed = {k: set(v) for k, v in s.destroyed.items()}
        self.satellite: dict[str, Roll] = {}  # a SatLink roll made early, for a Respond order
        self.engagement_notes: dict[str, list[str]] = {}  # hex -> notes for its engagement

    def roll(self, name: str, count: int) -> Roll:
        r, self.dice = self.dice.roll(name, count)
        return r

    def note(self, side: str, text: str) -> None:
        self.notes.setdefault(side, []).append(text)

    def rating(self, force: str, location: str = "") -> int:
        return unrest.rating(self.unrest, self.local_unrest, force, location)

    def change_unrest(
        self,
        force: str,
        amount: int,
        reason: str,
        rolls: tuple[Roll, ...] = (),
        location: str = "",
    ) -> None:
        """Change a force's unrest in one population centre, or everywhere (T-U6)."""
        before = self.rating(force, location)
        after = unrest.clamp(before + amount)
        unrest.apply(self.unrest, self.local_unrest, force, location, before, after)
        if after != before or rolls:
            self.events.append(
                UnrestChanged(
                    force=force,
                    before=before,
                    after=after,
                    reason=reason,
                    rolls=rolls,
                    location=location,
                )
            )

    def action(self, fid: str) -> str:
        o = self.orders.get(fid)
        return o.action if o is not None else ""


def decide_resolve(
    state: CampaignState, cmd: ResolveTurn, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    if s.ended:
        raise Refusal("campaign_over", f"day: the campaign has ended ({s.ended})")
    if cmd.day != s.day:
        raise Refusal("wrong_day", f"day: today is day {s.day}, not day {cmd.day}")
    missing = sorted({s.attacker, s.defender} - set(s.placed))
    if missing:
        raise Refusal("not_placed", f"day: {', '.join(missing)} must place formations first")
    d = _Day(state, s, dice)
    _captured_cargo(d)
    _weather(d)
    encounters = _actions(d)
    _player_actions(d)
    encounters = _merge(encounters, _responses(d))
    _sabotage(d)
    _upkeep(d)
    _control(d)
    _sightings(d)
    for side in sorted({f.side_id for f in s.formations.values()}):
        mine = tuple(f for _, f in sorted(d.formations.items()) if f.side_id == side)
        owned = {u for f in mine for u in f.unit_ids}
        fuel_changed = tuple(m for uid, m in sorted(d.mobility.items()) if uid in owned)
        d.events.append(
            FormationsUpdated(
                side_id=side,
                day=d.day,
                formations=mine,
                mobility=fuel_changed,
                notes=tuple(d.notes.get(side, ())),
            )
        )
    _engagements(d, encounters)
    _victory(d)
    d.events.append(DayEnded(day=d.day))
    return d.events


def _weather(d: _Day) -> None:
    if weather.weekly_change_due(d.day):
        regions, rolls, d.dice = weather.roll_change(d.s.weather, d.dice)
        d.events.append(
            WeatherRolled(day=d.day, regions=regions, weekly_change=True, rolls=tuple(rolls))
        )
    else:
        regions = tuple(w for _, w in sorted(d.s.weather.items()))
        d.events.append(WeatherRolled(day=d.day, regions=regions, weekly_change=False))


def _actions(d: _Day) -> list[tuple[Hex, tuple[str, ...]]]:
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
    for fid, f in sorted(d.formations.items()):
        act = d.action(fid)
        if act == "forced_march":
            d.formations[fid] = replace(
                f, fatigue=f.fatigue + movement_of(d.s, f, forced_march=True).fatigue_gained
            )
        elif act == "rest":
            d.formations[fid] = replace(f, fatigue=0)  # line 205: removes all fatigue points
        if act in ("overflight", "strike", "combat_air_patrol"):
            o = d.orders[fid]
            for uid, burn in fuel.mission_fuel(d.s, f, o).items():
                unit = d.mobility.get(uid, d.s.mobility[uid])
                d.mobility[uid] = replace(unit, fuel=max(0, unit.fuel - burn))
    return [(e.hexes[0], e.formations) for e in outcome.encounters]


def _shadow(d: _Day) -> None:
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


def _location(d: _Day, f: Formation) -> Location | None:
    return None if f.hex == IN_ORBIT else d.hexmap.location_at(hex_at(f.hex))


def _release(d: _Day) -> None:
    """Martial Law / Round Them Up that stopped: unrest returns plus 1 or 2 (lines 216-217)."""
    for fid, (side, action, amount) in sorted(d.s.suppressed.items()):
        f = d.formations.get(fid)
        if f is not None and d.action(fid) == action and _location(d, f) is not None:
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


def _suppress(d: _Day, f: Formation, action: str, streak: int, where: str) -> None:
    """A week of Martial Law (1 per unit) or Round Them Up (2 per unit), at most 4 units."""
    if streak % 7 != 0 or f.formation_id in d.s.suppressed:
        if f.formation_id not in d.s.suppressed:
            d.note(f.side_id, f"{f.formation_id}: {action} day {streak % 7} of 7")
        return
    key = "martial_law" if action == "martial_law" else "round_up"
    units = min(len(f.unit_ids), unrest.delta(f"{key}_max_units"))
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


def _sabotage(d: _Day) -> None:
    """Despised (12): 1D6 a day per formation in a population centre; on a 6 a bombing."""
    rule = single("unrest", "sabotage")
    for fid, f in sorted(d.formations.items()):
        loc = _location(d, f)
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


def _player_actions(d: _Day) -> None:
    _release(d)
    for fid, o in sorted(d.orders.items()):
        f = d.formations[fid]
        side = f.side_id
        streak_action, streak_days = f.action_streak
        streak = streak_days + 1 if streak_action == o.action else 1
        d.formations[fid] = f = replace(f, action_streak=(o.action, streak))
        loc = _location(d, f)
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
            _mobs(d, side, level, loc.name, f"peacekeeping, {fid}")
        elif o.action in ("martial_law", "round_them_up") and loc is not None:
            _suppress(d, f, o.action, streak, loc.name)
        elif o.action == "recruit":
            _recruit(d, f, loc)
        elif o.action in ("overflight", "surveillance"):
            continue  # resolved with the sightings, once positions are final
        elif o.action in ("repair", "load_unload"):
            d.note(side, f"{fid}: {o.action} takes the day; pay through the WarChest commands")


def _recruit(d: _Day, f: Formation, loc: Location | None) -> None:
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


def _mobs(d: _Day, force: str, level: int, location: str, cause: str, eid: str = "") -> str:
    """Roll the mobs a battle or peacekeeping action raises (ruling T-U5); the sheet's note."""
    got = unrest.mob_roll(d.dice, force, level, cause)
    if got is None:
        return ""
    kind, count, roll, d.dice = got
    d.events.append(
        MobsRaised(
            force=force,
            location=location,
            kind=kind,
            count=count,
            cause=cause.split(",")[0],
            engagement_id=eid,
            rolls=(roll,),
        )
    )
    side = d.state.sides[force].name if force in d.state.sides else force
    whom = f"supporting the {side}" if kind == "supportive" else f"against the {side}"
    line_no = 396 if kind == "supportive" else 400
    return (
        f"Mobs (line {line_no}): {count} {kind} mob(s) in {location} {whom} (unrest {level}); "
        "the referee fields them"
    )


def _merge(
    encounters: list[tuple[Hex, tuple[str, ...]]], extra: list[tuple[Hex, tuple[str, ...]]]
) -> list[tuple[Hex, tuple[str, ...]]]:
    """Responses join the encounter already in their hex, or start one there."""
    out = list(encounters)
    for at, names in extra:
        for i, (h, old) in enumerate(out):
            if h == at:
                out[i] = (h, tuple(dict.fromkeys((*old, *names))))
                break
        else:
            out.append((at, tuple(dict.fromkeys(names))))
    return out


def _detectors(d: _Day, side: str, at: Hex) -> tuple[str, ...]:
    """Which of ``side``'s sensors see an enemy hop, landing or launch at ``at`` (line 213:
    "Radar (in range) or a Deep Space Array/Satellite")."""
    held = [name for name, holder in sorted(d.control.items()) if holder == side]
    sensors = [
        Sensor(side, SensorKind.PRESENCE, hex_at(f.hex))
        for f in d.formations.values()
        if f.side_id == side and f.hex != IN_ORBIT
    ]
    sensors += location_sensors(d.hexmap, side, held)
    cover = visible_hexes(side, d.hexmap, sensors)
    region = d.hexmap.region_of(at)
    found = []
    if at in cover.air:
        found.append("radar")
    if region is not None and region.name in cover.orbital_regions:
        found.append("deep_space_array")
    uplink = [n for n in held if "satlink" in d.hexmap.location(n).facilities]
    if uplink and region is not None:
        if side not in d.satellite:
            # The day's SatLink roll (line 270), made now so the feed can warn of the hop; the
            # sightings use the same roll.
            d.satellite[side] = d.roll(f"satellite access, {side}", 2)
        target = int(single("surveillance", "satellite_access")["target"])
        if d.satellite[side].total >= target:
            feed = Sensor(side, SensorKind.SATELLITE_MONITOR, d.hexmap.location(uplink[0]).hex)
            if region.name in visible_hexes(side, d.hexmap, [feed]).orbital_regions:
                found.append("satellite")
    return tuple(found)


def _responses(d: _Day) -> list[tuple[Hex, tuple[str, ...]]]:
    """Respond, then Intercept (lines 212-213); the encounters they start."""
    extra: list[tuple[Hex, tuple[str, ...]]] = []
    for fid, o in sorted(d.orders.items()):
        if o.action == "respond":
            _respond(d, fid, o, extra)
    for fid, o in sorted(d.orders.items()):
        if o.action == "intercept":
            _intercept(d, fid, extra)
    return extra


def _respond(
    d: _Day, fid: str, o: FormationOrder, extra: list[tuple[Hex, tuple[str, ...]]]
) -> None:
    f = d.formations[fid]
    side = f.side_id
    seen: list[tuple[str, str, str, tuple[str, ...]]] = []  # enemy, its action, hex, sensors
    for efid, eo in sorted(d.orders.items()):
        ef = d.formations.get(efid)
        if ef is None or ef.side_id == side:
            continue
        if eo.action in LANDING and eo.target:
            at = label(hex_at(eo.target))
        elif eo.action == "achieve_orbit" and d.s.formations[efid].hex != IN_ORBIT:
            at = d.s.formations[efid].hex  # where it took off
        else:
            continue
        how = _detectors(d, side, hex_at(at))
        if how:
            seen.append((efid, eo.action, at, how))
    landings = [x for x in seen if x[1] in LANDING]
    dest = label(hex_at(o.target)) if o.target else (landings[0][2] if landings else None)
    if not seen or dest is None:
        why = "no enemy hop, landing or launch was detected" if not seen else "name a hex"
        d.note(side, f"{fid}: respond stands ready; {why} (line 213)")
        return
    action = "orbital_insertion" if f.hex == IN_ORBIT else "suborbital_hop"
    d.events.append(
        ResponseMade(
            side_id=side,
            day=d.day,
            formation_id=fid,
            action="respond",
            before=f.hex,
            hex=dest,
            against=tuple(x[0] for x in seen),
            detected_by=tuple(sorted({h for x in seen for h in x[3]})),
        )
    )
    d.formations[fid] = replace(f, hex=dest)
    # It lands like any hop or insertion: in motion (T-E2), seen landing by enemy arrays.
    d.orders[fid] = replace(o, action=action, target=dest, path=())
    enemies = tuple(
        e.formation_id
        for _, e in sorted(d.formations.items())
        if e.hex == dest and e.side_id != side
    )
    if enemies:
        extra.append((hex_at(dest), (fid, *enemies)))


def _intercept(d: _Day, fid: str, extra: list[tuple[Hex, tuple[str, ...]]]) -> None:
    f = d.formations[fid]
    side = f.side_id
    loc = _location(d, f)
    if loc is None or not AIRFIELD & set(loc.facilities):
        d.note(side, f"{fid}: intercept needs an airfield (line 212)")
        return
    here = hex_at(f.hex)
    against = []
    for efid, eo in sorted(d.orders.items()):
        ef = d.formations.get(efid)
        if ef is None or ef.side_id == side or not eo.target:
            continue
        if eo.action in LANDING and hex_at(eo.target) == here:
            against.append(efid)
        elif eo.action in ("overflight", "strike") and ef.hex != IN_ORBIT:
            start = hex_at(d.s.formations[efid].hex)
            if start != here and here in tuple(line(start, hex_at(eo.target))):
                against.append(efid)
    if not against:
        d.note(side, f"{fid}: intercept stands ready; nothing airborne entered {f.hex}")
        return
    d.events.append(
        ResponseMade(
            side_id=side,
            day=d.day,
            formation_id=fid,
            action="intercept",
            before=f.hex,
            hex=f.hex,
            against=tuple(against),
            detected_by=("presence",),
        )
    )
    names = ", ".join(against)
    d.engagement_notes.setdefault(f.hex, []).append(
        f"Interception (line 212): {fid} meets {names} before it is close enough to attack "
        f"{loc.name} or the units in {f.hex}: fight the air battle first"
    )
    extra.append((here, (fid, *against)))


def _upkeep(d: _Day) -> None:
    rules = single("upkeep", "maintenance")
    rations = single("upkeep", "rations")
    for fid, f in sorted(d.formations.items()):
        loc = _location(d, f)
        held = loc is not None and d.control.get(loc.name) == f.side_id
        # Maintenance: one day in every 7 (line 199).
        days = 0 if fid in d.maintained else f.days_since_maintenance + 1
        if days >= int(rules["every_days"]):
            units = tuple(u for u in f.unit_ids if not d.s.mobility[u].rugged)
            rolls: list[Roll] = []
            for uid in units:
                where = d.roll(f"maintenance location (front), {uid}", 2)
                rolls.append(where)
                rolls.append(d.roll(f"maintenance critical, {uid}", 2))
                if where.total == 2:  # a floating critical: a second critical roll (line 199)
                    rolls.append(d.roll(f"maintenance critical 2, {uid}", 2))
            d.events.append(
                MaintenanceMissed(
                    side_id=f.side_id,
                    day=d.day,
                    formation_id=fid,
                    unit_ids=units,
                    exempt=tuple(u for u in f.unit_ids if u not in units),
                    rolls=tuple(rolls),
                )
            )
            days = 0
        # Rations: 7 days carried; a supply dump restocks; a baggage train feeds the crews.
        crew = sum(d.s.mobility[u].crew_slots for u in f.unit_ids)
        baggage, on_rations, fatigue = f.baggage_person_days, f.days_on_rations, f.fatigue
        if held and loc is not None and "supply_dump" in loc.facilities:
            on_rations = 0
        elif baggage >= crew:
            baggage -= crew
        else:
            on_rations += 1
            week = int(rations["days"])
            if on_rations > week and (on_rations - week) % week == 0:
                fatigue += int(rations["fatigue_per_week"])
                d.note(
                    f.side_id,
                    f"{fid}: a week beyond its rations: +1 fatigue and a consciousness "
                    "check per person (line 355)",
                )
        d.formations[fid] = replace(
            f,
            days_since_maintenance=days,
            baggage_person_days=baggage,
            days_on_rations=on_rations,
            fatigue=fatigue,
        )
        if held and loc is not None and "fuel_dump" in loc.facilities:
            for uid in f.unit_ids:
                unit = d.mobility.get(uid, d.s.mobility[uid])
                if unit.mode == AEROSPACE and unit.fuel < unit.max_fuel:
                    d.mobility[uid] = replace(unit, fuel=unit.max_fuel)


def _control(d: _Day) -> None:
    seat = str(single("strategic_victory", "seat_of_power")["location"])
    by_hex: dict[str, set[str]] = {}
    for f in d.formations.values():
        if f.hex != IN_ORBIT:
            by_hex.setdefault(f.hex, set()).add(f.side_id)
    for loc in sorted(d.hexmap.locations, key=lambda loc: loc.name):
        sides = by_hex.get(label(loc.hex), set())
        if len(sides) != 1:
            continue  # empty keeps its holder; contested changes hands only after the battle
        (side,) = sides
        before = d.control.get(loc.name)
        if before == side:
            continue
        pools = tuple(
            p.pool_id
            for _, p in sorted(d.state.pools.items())
            if p.kind is PoolKind.LOCATION and p.name == loc.name
        )
        d.control[loc.name] = side
        d.events.append(
            LocationControlChanged(location=loc.name, before=before, after=side, pools=pools)
        )
        if loc.name == seat:
            d.change_unrest(
                side,
                unrest.delta("government_building"),
                f"control of the government building in {seat} (line 404)",
            )


def _piloting(d: _Day, f: Formation) -> int:
    best = None
    for uid in f.unit_ids:
        unit = d.state.units.get(uid)
        for pid in unit.crew if unit is not None else ():
            person = d.state.people.get(pid)
            if person is not None:
                best = person.piloting if best is None else min(best, person.piloting)
    return DEFAULT_PILOTING if best is None else best


def _sightings(d: _Day) -> None:
    sides = sorted(d.state.sides)
    found: dict[str, dict[str, Sighting]] = {side: {} for side in sides}
    ground: dict[str, list[Formation]] = {}
    for f in d.formations.values():
        if f.hex != IN_ORBIT:
            ground.setdefault(f.hex, []).append(f)

    def reveal(side: str, hexes: frozenset[Hex], info: str) -> None:
        for h in sorted(hexes):
            for other in ground.get(label(h), ()):
                if other.side_id == side:
                    continue
                units = len(other.unit_ids) if info not in ("presence",) else None
                old = found[side].get(other.formation_id)
                if old is None or _rank(info) > _rank(old.info):
                    found[side][other.formation_id] = Sighting(
                        formation_id=other.formation_id, side_id=other.side_id, hex=other.hex,
                        day=d.day, info=info, units=units,
                    )  # fmt: skip

    surveyed: dict[str, list[Roll]] = {}
    landed = sorted(fid for fid, o in d.orders.items() if o.action in LANDING)
    for side in sides:
        held = [name for name, holder in sorted(d.control.items()) if holder == side]
        sensors = [
            Sensor(side, SensorKind.PRESENCE, hex_at(f.hex))
            for f in d.formations.values()
            if f.side_id == side and f.hex != IN_ORBIT
        ]
        sensors += location_sensors(d.hexmap, side, held)
        uplink = [n for n in held if "satlink" in d.hexmap.location(n).facilities]
        if uplink:
            # Each turn a force at a SatLink rolls 2d6; on 9+ it reaches the satellite (line 270).
            access = d.satellite.get(side) or d.roll(f"satellite access, {side}", 2)
            surveyed.setdefault(side, []).append(access)
            if access.total >= int(single("surveillance", "satellite_access")["target"]):
                at = d.hexmap.location(uplink[0]).hex
                sensors.append(Sensor(side, SensorKind.SATELLITE_MONITOR, at))
        elif side in d.satellite:
            surveyed.setdefault(side, []).append(d.satellite[side])  # the uplink fell today
        cover = visible_hexes(side, d.hexmap, sensors)
        reveal(side, cover.ground, "unit_type")
        # A Deep Space Array or a satellite detects landings in the sectors it watches.
        for fid in landed:
            f = d.formations[fid]
            region = d.hexmap.region_of(hex_at(f.hex)) if f.hex != IN_ORBIT else None
            if f.side_id != side and region is not None and region.name in cover.orbital_regions:
                reveal(side, frozenset({hex_at(f.hex)}), "presence")
    for fid, o in sorted(d.orders.items()):
        if o.action not in ("overflight", "surveillance") or o.target is None:
            continue
        f = d.formations[fid]
        target = hex_at(o.target)
        if o.action == "overflight" and f.hex != IN_ORBIT:
            sensor = Sensor(
                f.side_id,
                SensorKind.OVERFLIGHT,
                hex_at(f.hex),
                tuple(line(hex_at(f.hex), target))[1:],
            )
            default = "altitude_2_5"
        else:
            sensor = Sensor(f.side_id, SensorKind.SATELLITE, target)
            default = "geostationary"
        region = d.hexmap.region_of(target)
        wx = d.s.weather.get(region.name) if region is not None else None
        cloud = weather.cloud_of(wx.level) if wx is not None else 0
        conditions = [c for c in o.param("conditions", default).split(",") if c]
        mod = surveillance.surveillance_modifier(conditions, cloud)
        roll, margin, d.dice = surveillance.roll_check(
            d.dice, f"surveillance, {fid}", _piloting(d, f), mod
        )
        info = surveillance.surveillance_info(margin)
        d.note(
            f.side_id,
            f"{fid}: surveillance roll {roll.total} against {_piloting(d, f) + mod}: {info}",
        )
        surveyed.setdefault(f.side_id, []).append(roll)
        if info != surveillance.NOTHING:
            reveal(f.side_id, visible_hexes(f.side_id, d.hexmap, [sensor]).ground, info)
    for fid, o in sorted(d.orders.items()):
        if o.action == "identify":
            _identify(d, fid, o, found, surveyed)
    for side in sides:
        d.events.append(
            SightingsMade(
                side_id=side,
                day=d.day,
                sightings=tuple(v for _, v in sorted(found[side].items())),
                rolls=tuple(surveyed.get(side, ())),
            )
        )


def _identify(
    d: _Day,
    fid: str,
    o: FormationOrder,
    found: dict[str, dict[str, Sighting]],
    surveyed: dict[str, list[Roll]],
) -> None:
    """Identify/Scan (lines 359-372, ruling T-S2): the best pilot's Piloting roll with the range,
    probe and sensors-only modifiers against one enemy formation in the same or an adjacent
    hex; the margin says how much is learned (-4 unit type ... +2 markings and damage)."""
    f = d.formations[fid]
    target = d.formations.get(o.target or "")
    if (
        target is None
        or f.hex == IN_ORBIT
        or target.hex == IN_ORBIT
        or distance(hex_at(f.hex), hex_at(target.hex)) > 1
    ):
        d.note(f.side_id, f"{fid}: identify: nothing in sight (the same or an adjacent hex)")
        return
    mod = surveillance.identify_conditions(o)
    piloting = _piloting(d, f)
    roll, margin, d.dice = surveillance.roll_check(d.dice, f"identify, {fid}", piloting, mod)
    surveyed.setdefault(f.side_id, []).append(roll)
    info = surveillance.identify_info(margin)
    d.note(f.side_id, f"{fid}: identify roll {roll.total} against {piloting + mod}: {info}")
    if info == surveillance.NOTHING:
        return
    old = found[f.side_id].get(target.formation_id)
    if old is None or _rank(info) > _rank(old.info):
        found[f.side_id][target.formation_id] = Sighting(
            formation_id=target.formation_id,
            side_id=target.side_id,
            hex=target.hex,
            day=d.day,
            info=info,
            units=len(target.unit_ids),
        )


_INFO_ORDER = (
    "nothing",
    "presence",
    "unit_type",
    "weight_class",
    "model",
    "loadout",
    "markings_and_damage",
)


def _rank(info: str) -> int:
    return _INFO_ORDER.index(info) if info in _INFO_ORDER else 0


def _engagements(d: _Day, encounters: list[tuple[Hex, tuple[str, ...]]]) -> None:
    air: tuple[Formation, ...] | None = None  # fighters where they ended the day, found once
    for i, (at, names) in enumerate(encounters):
        eid = f"day{d.day}-{label(at)}-{i + 1}"
        forms = [d.formations[n] for n in names]
        if air is None:
            air = tuple(
                f
                for _, f in sorted(d.formations.items())
                if any(d.s.mobility[u].mode == AEROSPACE for u in f.unit_ids)
            )
        setup, rolls, d.dice = engagement.set_up(
            d.state,
            d.s,
            d.hexmap,
            eid=eid,
            day=d.day,
            at=at,
            formations=forms,
            orders=d.orders,
            dice=d.dice,
            air=air,
        )
        notes = list(d.engagement_notes.get(label(at), ()))
        mobs: list[Event] = []
        loc = d.hexmap.location_at(at)
        if loc is not None:
            # A battle in a population centre (any strategic location, ruling T-L1) raises mobs.
            for side in sorted(setup.sides):
                before = len(d.events)
                note = _mobs(d, side, d.rating(side, loc.name), loc.name, f"battle, {eid}", eid)
                mobs += d.events[before:]
                del d.events[before:]
                if note:
                    notes.append(note)
        if notes:
            setup = replace(setup, notes=(*setup.notes, *notes))
        d.events.append(EngagementDetermined(engagement=setup, rolls=tuple(rolls)))
        d.events.extend(mobs)


def _victory(d: _Day) -> None:
    s = replace(d.s, destroyed={k: tuple(sorted(v)) for k, v in d.destroyed.items()})
    vp = strategic_vp(s, d.hexmap, d.formations, d.control)
    ended = end_reason(d.state, s, vp)
    if vp != d.s.vp or ended:
        d.events.append(
            StrategicVictoryScored(day=d.day, vp=tuple(sorted(vp.items())), ended=ended)
        )
