"""Setting up the scenario when formations meet (lines 279-322).

Ambush (2d6 + commander modifier, Rest -4, Guard +4, greater by more than 4), meeting
engagement or assault, tactical objectives, arrival turns per lance by walking speed, the
map sheets from the hex's terrain (house-rules 2d6 tables, Military Base pair rule),
aerospace assets able to answer, command centres in the hex.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from mekref.hexmap import Hex, HexMap, Location, distance, label
from mekref.hexmap.mapsheets import mapsheet_for
from mekref.rules.dice import Dice, Roll
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commanders import commander_bonus
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import fuel, weather
from mekref.rules.tripwire.turn.common import AEROSPACE
from mekref.rules.tripwire.turn.data import lookup, range_table, single, table_rows
from mekref.rules.tripwire.turn.mapdata import to_hex
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    Arrival,
    EngagementSetup,
    Formation,
    FormationOrder,
    StrategicState,
)

MOVING_ACTIONS = frozenset(
    {"move", "forced_march", "shadow", "orbital_insertion", "suborbital_hop", "combat_drop"}
)  # landing counts as motion (ruling T-E2)
AIR_MISSIONS = frozenset({"overflight", "strike", "combat_air_patrol"})
#: Orders that have a formation in the air when it fights: the air missions and Intercept (L212).
AIRBORNE = AIR_MISSIONS | {"intercept"}
#: What each engagement kind is called on the scenario sheets (rulings T-E2, T-AM1, T-AM2).
KIND_NAMES = {
    "meeting": "meeting engagement",
    "assault": "assault",
    "air_to_ground": "air-to-ground strike",
    "air_to_air": "air-to-air engagement",
}
MILITARY_BASE = ("Military Base #1 (Military)*", "Military Base #2 (Military)*")
#: A blank row means "roll again"; a hex whose table is mostly blank still ends (ruling T-E4).
_MAX_REROLLS = 50


def objectives() -> frozenset[str]:
    return frozenset(str(r["key"]) for r in table_rows("engagement", "objective"))


#: Orders that keep a formation off the map sheets: it cannot hold a line on them (T-E10).
OFF_THE_SHEETS = AIR_MISSIONS | {"intercept", "anti_satellite", "reposition_orbit", "achieve_orbit"}


def strikes(order: FormationOrder) -> bool:
    """A mission that attacks ground forces: Strike (L203: "initiates a battle vs either ground
    units or enemy AeroSpace fighters"), or an overflight on an Attack Mission (L289: "An
    AeroSpace fighter on an overflight mission may engage the enemy ground forces")."""
    return order.action == "strike" or (
        order.action == "overflight" and order.param("objective") == "attack_mission"
    )


def overflight_fire() -> dict[str, object]:
    """L290's numbers: the altitude bands under fire, the single map sheet (ruling T-AM5)."""
    return single("engagement", "overflight_fire")


#: The ``conditions`` entries that name the altitude an overflight flies at (surveillance table).
_HEIGHTS = ("altitude_", "high_altitude", "geostationary")


def under_fire(order: FormationOrder) -> bool:
    """An overflight that only looks, at altitude 8 or below (L290: "may come under enemy fire
    if at altitude 8 or below"): its altitude band lies wholly at or below 8; one naming no
    altitude flies at 2-5, the surveillance default (ruling T-AM5)."""
    if order.action != "overflight" or strikes(order) or order.param("altitude") == "high":
        return False
    heights = [c for c in order.param("conditions").split(",") if c.startswith(_HEIGHTS)]
    bands = overflight_fire()["bands"]
    assert isinstance(bands, list)
    return not heights or any(c in bands for c in heights)


def attacks_ground(order: FormationOrder) -> bool:
    """A mission that meets the ground forces in its target hex: a strike, an attack mission,
    or an overflight low enough to come under fire (rulings T-AM1, T-AM5)."""
    return strikes(order) or under_fire(order)


def hold_the_line_hexes() -> int:
    """L319: "no more than 8 hexes from their deployment edge"."""
    return int(single("engagement", "hold_the_line")["max_hexes"])


def check_objective(order: FormationOrder, field: str) -> None:
    """The order's tactical objective (line 283), if it names one, is one of the list; Hold
    the Line deploys units on the map sheets (L319), so an order that keeps the formation in
    the air or in orbit cannot take it (ruling T-E10)."""
    goal = order.param("objective")
    if not goal:
        return
    known = objectives()
    if goal not in known:
        raise Refusal(
            "bad_param",
            f"{field}: {goal!r} is not a tactical objective; known: " + ", ".join(sorted(known)),
        )
    if goal == "hold_the_line" and order.action in OFF_THE_SHEETS:
        raise Refusal(
            "bad_param",
            f"{field}: a {order.action} order keeps the formation off the map sheets (L319: "
            '"Units that have chosen the Hold the Line combat order deploy at turn 0 anywhere '
            'up to half way across the closest mapsheets")',
        )


def hold_the_line_note(side: str, kind: str, attacker: str | None) -> str:
    """What Hold the Line means for ``side`` in this engagement (ruling T-E10)."""
    if kind == "assault" and side != attacker:
        return (
            f"{side} holds the line: its units deploy at turn 0 anywhere up to half way across "
            f"the closest map sheets, no more than {hold_the_line_hexes()} hexes from their "
            "deployment edge (line 319)"
        )
    why = "a meeting engagement" if kind == "meeting" else "the attack"
    return (
        f"{side} holds the line (line 288); in {why} its lances arrive by walking speed: "
        "deploying at turn 0 is the defender's in an assault (line 319)"
    )


def arrival_turn(walk_mp: int) -> int | None:
    """The turn a lance walking ``walk_mp`` arrives (lines 297-303); 12+ arrives on turn 1
    and an immobile lance never arrives (ruling T-E3)."""
    if walk_mp <= 0:
        return None
    return int(lookup(range_table("arrival"), min(walk_mp, 12)).get("turn"))


def ambush_modifier(actions: Sequence[str]) -> int:
    """Rest -4, Guard +4 (line 281); a side both resting and guarding gets both."""
    row = single("engagement", "ambush")
    mod = 0
    if "rest" in actions:
        mod += int(row["rest"])
    if "guard" in actions:
        mod += int(row["guard"])
    return mod


def formation_bonus(state: CampaignState, f: Formation) -> int:
    """The Force Commander's Skill Bonus a formation brings to the ambush roll (L281: "add the
    Force Commanders Skill Modifier"): derived from the commander in it while in play (L26,
    L29-34); the referee's recorded override when the formation carries one."""
    if f.commander_note is not None:
        return f.commander_bonus
    return commander_bonus(state, f.side_id, f.unit_ids)[0]


def side_bonus(state: CampaignState, side: str, formations: Sequence[Formation]) -> int:
    """A side's bonus in an engagement: the best of its formations there (ruling R-CMD-1)."""
    return max((formation_bonus(state, f) for f in formations if f.side_id == side), default=0)


def roll_ambush(
    eid: str,
    sides: Sequence[str],
    bonus: Mapping[str, int],
    actions: Mapping[str, Sequence[str]],
    dice: Dice,
) -> tuple[str | None, tuple[tuple[str, int], ...], list[Roll], Dice]:
    margin = int(single("engagement", "ambush")["margin"])
    totals: list[tuple[str, int]] = []
    rolls: list[Roll] = []
    for side in sides:
        roll, dice = dice.roll(f"ambush roll, {side}, {eid}", 2)
        rolls.append(roll)
        totals.append((side, roll.total + bonus.get(side, 0) + ambush_modifier(actions[side])))
    ranked = sorted(totals, key=lambda t: -t[1])
    ambusher = ranked[0][0] if len(ranked) > 1 and ranked[0][1] > ranked[1][1] + margin else None
    return ambusher, tuple(totals), rolls, dice


def roll_sheets(
    eid: str, terrain: str, count: int, dice: Dice
) -> tuple[tuple[str, ...], list[Roll], Dice]:
    """``count`` map sheets for a hex of ``terrain``. A Military Base brings its other half;
    on the last sheet a Military Base is rolled again (line 394)."""
    sheets: list[str] = []
    rolls: list[Roll] = []
    tries = 0
    while len(sheets) < count and tries < _MAX_REROLLS:
        tries += 1
        roll, dice = dice.roll(f"map sheet {len(sheets) + 1}, {eid}", 2)
        rolls.append(roll)
        sheet = mapsheet_for(terrain, roll.total)
        if sheet is None:
            continue
        if sheet in MILITARY_BASE:
            if len(sheets) + 2 > count:
                continue  # no room for the other half: roll again
            other = MILITARY_BASE[1] if sheet == MILITARY_BASE[0] else MILITARY_BASE[0]
            sheets += [sheet, other]
            continue
        sheets.append(sheet)
    return tuple(sheets), rolls, dice


def arrivals(
    state: CampaignState,
    s: StrategicState,
    formations: Sequence[Formation],
    stationary_sides: frozenset[str],
    flying: frozenset[str] = frozenset(),
) -> tuple[Arrival, ...]:
    """Each lance's arrival turn. ``flying``: formations fighting an air engagement from the
    air; they are on the low-altitude map at the start of turn 1 (L321, ruling T-AM3)."""
    out: list[Arrival] = []
    for f in formations:
        lances: dict[str, list[int]] = {}
        for uid in f.unit_ids:
            unit = state.units.get(uid)
            lance = unit.lance if unit is not None else f.name
            lances.setdefault(lance, []).append(s.mobility[uid].walk_mp)
        for lance, walks in sorted(lances.items()):
            slowest = min(walks)
            # A side holding still in an assault is deployed from the start (line 319).
            if f.formation_id in flying:
                turn: int | None = 1
            elif f.side_id in stationary_sides:
                turn = 0
            else:
                turn = arrival_turn(slowest)
            out.append(
                Arrival(
                    formation_id=f.formation_id,
                    side_id=f.side_id,
                    lance=lance,
                    walk_mp=slowest,
                    turn=turn,
                )
            )
    return tuple(out)


def air_formations(s: StrategicState) -> tuple[Formation, ...]:
    """Formations with a fighter in them, by id (found once per day, not per battle)."""
    return tuple(
        f
        for _, f in sorted(s.formations.items())
        if any(s.mobility[u].mode == AEROSPACE for u in f.unit_ids if u in s.mobility)
    )


def air_missions(orders: Mapping[str, FormationOrder]) -> frozenset[str]:
    """The formations on Strike, Overflight or CAP today (line 315)."""
    return frozenset(fid for fid, o in orders.items() if o.action in AIR_MISSIONS)


def aerospace_assets(
    s: StrategicState,
    hexmap: HexMap,
    at: Hex,
    sides: Sequence[str],
    busy: frozenset[str],
    air: Sequence[Formation],
) -> tuple[tuple[str, str, int], ...]:
    """Fighters of the sides that can reach ``at`` with 100+ fuel and fuel to return (line 316);
    those on Strike, Overflight or CAP today cannot be called (line 315)."""
    out: list[tuple[str, str, int]] = []
    for f in air:
        if f.side_id not in sides or f.formation_id in busy or f.hex == IN_ORBIT:
            continue
        base = to_hex(f.hex)
        assert base is not None
        km = distance(base, at) * hexmap.hex_km
        for uid in f.unit_ids:
            unit = s.mobility[uid]
            if unit.mode != AEROSPACE:
                continue
            left = fuel.arrival_fuel(unit, km)
            if left is not None:
                out.append((f.side_id, uid, left))
    return tuple(out)


def _classify(
    formations: Sequence[Formation], orders: Mapping[str, FormationOrder], at: Hex
) -> tuple[tuple[str, ...], dict[str, list[str]], str, str | None, frozenset[str], frozenset[str]]:
    """The sides, their formations' actions, the kind of engagement and its attacker, the
    sides standing still (deployed from the start) and the formations in the air."""
    sides = tuple(sorted({f.side_id for f in formations}))
    acts: dict[str, list[str]] = {side: [] for side in sides}
    for f in formations:
        o = orders.get(f.formation_id)
        acts[f.side_id].append(o.action if o else "")
    striking = {
        side
        for side in sides
        if all(
            (o := orders.get(f.formation_id)) is not None
            and attacks_ground(o)
            and to_hex(o.target or f.hex) == at
            for f in formations
            if f.side_id == side
        )
    }
    flying = frozenset(
        f.formation_id
        for f in formations
        if (o := orders.get(f.formation_id)) is not None and o.action in AIRBORNE
    )
    # A strike is in motion: it flies to the hex it attacks (ruling T-AM1).
    moving = {
        side for side in sides if any(a in MOVING_ACTIONS for a in acts[side]) or side in striking
    }
    # Both in motion: meeting; one moving against a stationary one: assault (lines 293, 318).
    # Nobody moved (they started the day together): a meeting (ruling T-E2). Everyone in the
    # air: air-to-air; one side all on strikes against the other: air-to-ground (T-AM1, T-AM2).
    if len(sides) > 1 and len(flying) == len(formations):
        kind, attacker = "air_to_air", None
    elif len(sides) == 2 and len(striking) == 1:
        kind, attacker = "air_to_ground", next(iter(striking))
    elif len(moving) == 1 and len(sides) > 1:
        kind, attacker = "assault", next(iter(moving))
    else:
        kind, attacker = "meeting", None
    stationary = frozenset(sides) - moving if kind in ("assault", "air_to_ground") else frozenset()
    if kind not in ("air_to_air", "air_to_ground"):
        flying = frozenset()
    return sides, acts, kind, attacker, stationary, flying


def _command_centre(s: StrategicState, loc: Location | None, sides: Sequence[str]) -> list[str]:
    """The side holding a standing command centre in the engagement's hex, if it fights."""
    cc: list[str] = []
    if (
        loc is not None
        and "command_centre" in loc.facilities
        and (
            "command_centre" not in s.destroyed.get(loc.name, ())
            and s.control.get(loc.name) in sides
        )
    ):
        cc.append(s.control[loc.name])
    return cc


def _side_notes(
    s: StrategicState,
    formations: Sequence[Formation],
    sides: Sequence[str],
    acts: Mapping[str, list[str]],
    kind: str,
    attacker: str | None,
    objective: Mapping[str, str],
) -> list[str]:
    """What each side's orders and tactical objective mean for the battle."""
    notes: list[str] = []
    for side in sides:
        if "forced_march" in acts[side]:
            notes.append(f"{side} was on a forced march: easier to ambush (line 197)")
        if kind == "assault" and "guard" in acts[side]:
            notes.append(
                f"{side} was on Guard: may predesignate 4 artillery hexes per map sheet and "
                "place 50% of its force in hidden deployment (line 320)"
            )
    walks = {
        side: [s.mobility[u].walk_mp for f in formations if f.side_id == side for u in f.unit_ids]
        for side in sides
    }
    for side, goal in objective.items():
        if goal == "hold_the_line":
            notes.append(hold_the_line_note(side, kind, attacker))
        others = [w for x in sides if x != side for w in walks[x]]
        if goal == "hide_and_seek" and others and min(walks[side]) >= max(others):
            notes.append(
                f"{side} plays Hide and Seek with movement equal to or above every enemy unit: "
                "it succeeds without a battle and may go back to the hex it came from (line 287)"
            )
    return notes


def _kind_notes(
    kind: str, attacker: str | None, overflown: bool, ambusher: str | None
) -> list[str]:
    """What the kind of engagement, the attacker and an ambush mean for the battle."""
    notes: list[str] = []
    if kind == "air_to_air":
        notes.append(
            "air-to-air (lines 203-204): fought on the low-altitude map, no ground map sheets; "
            "the fighters are there at the start of turn 1 (line 321)"
        )
    if overflown:
        notes.append(
            f"{attacker} overflies at altitude 8 or below and comes under fire (line 290): the "
            f"defender deploys within {overflight_fire()['within_hexes']} hexes of the centre "
            "of the single map sheet, in hexes of its choice, and gets one chance to attack as "
            "the fighter flies from short end to opposite short end on a hex row of its choice"
        )
    elif kind == "air_to_ground":
        notes.append(
            f"{attacker} strikes from the air (lines 203, 289): its fighters arrive on the "
            "low-altitude map at the start of turn 1 (line 321) and take enemy fire; the "
            "mission is a success if one unit is destroyed/crippled"
        )
    if attacker is not None and not overflown:
        notes.append(
            f"{attacker} chooses the time of the attack and where its artillery and "
            "baggage stand (lines 321-322)"
        )
    if ambusher is not None:
        notes.append(
            f"{ambusher} sets an ambush: hidden deployment, or enters from any direction (line 282)"
        )
    return notes


def set_up(
    state: CampaignState,
    s: StrategicState,
    hexmap: HexMap,
    *,
    eid: str,
    day: int,
    at: Hex,
    formations: Sequence[Formation],
    orders: Mapping[str, FormationOrder],
    dice: Dice,
    air: Sequence[Formation] | None = None,
    busy: frozenset[str] | None = None,
) -> tuple[EngagementSetup, list[Roll], Dice]:
    """One engagement's set-up. ``air`` and ``busy`` (the formations flying an air mission
    today) are the same for every engagement of a day: a caller setting up many passes them
    in, found once, so a day stays linear in the number of formations."""
    sides, acts, kind, attacker, stationary, flying = _classify(formations, orders, at)
    bonus = {side: side_bonus(state, side, formations) for side in sides}
    ambusher, totals, rolls, dice = roll_ambush(eid, sides, bonus, acts, dice)
    objective: dict[str, str] = {}
    for f in sorted(formations, key=lambda f: f.formation_id):
        o = orders.get(f.formation_id)
        if o is not None and o.param("objective") and f.side_id not in objective:
            objective[f.side_id] = o.param("objective")
    # An overflight under fire (L290): the attacker's formations all only look (T-AM5).
    overflown = kind == "air_to_ground" and all(
        under_fire(orders[f.formation_id]) for f in formations if f.side_id == attacker
    )
    if kind == "air_to_ground" and attacker is not None:
        # A strike with no objective written down flies the Attack Mission (L289, T-AM1); an
        # overflight under fire is the Overflight scenario (L290, T-AM5).
        objective.setdefault(attacker, "overflight" if overflown else "attack_mission")
    terrain = hexmap.terrain_at(at)
    sheets: tuple[str, ...] = ()
    sheet_rolls: list[Roll] = []
    count = int(str(overflight_fire()["sheets"])) if overflown else s.sheets_per_engagement
    if kind != "air_to_air":  # an air battle is flown on the low-altitude map (T-AM2)
        sheets, sheet_rolls, dice = roll_sheets(eid, terrain, count, dice)
    if overflown:
        # "the Defender organises his forces ... (in hexes of their choice as they have heard
        # the fighter coming)": deployed from the start (L290).
        stationary = frozenset(sides) - {attacker}
    region = hexmap.region_of(at)
    wx = s.weather.get(region.name) if region is not None else None
    weather_text = "not recorded"
    if wx is not None:
        weather_text = weather.level_name(wx.level) + (f", {wx.storm}" if wx.storm else "")
    if busy is None:
        busy = air_missions(orders)
    loc = hexmap.location_at(at)
    cc = _command_centre(s, loc, sides)
    notes = _side_notes(s, formations, sides, acts, kind, attacker, objective)
    notes += _kind_notes(kind, attacker, overflown, ambusher)
    setup = EngagementSetup(
        engagement_id=eid,
        day=day,
        hex=label(at),
        kind=kind,
        sides=sides,
        formations=tuple(sorted(f.formation_id for f in formations)),
        attacker=attacker,
        ambusher=ambusher,
        ambush_totals=totals,
        objectives=tuple((side, objective.get(side, "stand_up_fight")) for side in sides),
        map_sheets=sheets,
        terrain=terrain,
        weather=weather_text,
        arrivals=arrivals(state, s, formations, stationary, flying),
        aerospace=aerospace_assets(
            s, hexmap, at, sides, busy, air_formations(s) if air is None else air
        ),
        command_centre=tuple(cc),
        notes=tuple(notes),
    )
    return setup, rolls + sheet_rolls, dice
