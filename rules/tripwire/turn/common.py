"""Small helpers every part of the turn shares: finding the sub-state, a formation's movement."""

from __future__ import annotations

from mekref.hexmap import FormationMovement, MovementMode, formation_speed
from mekref.hexmap.tables import movement_rules
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.state import (
    Formation,
    FormationOrder,
    StrategicState,
    UnitMobility,
)

AEROSPACE = "aerospace"
DROPSHIP = "dropship"
#: Facilities that make a location an airfield for Intercept (ruling T-RS2).
AIRFIELD = frozenset({"dropport_small", "dropport_medium", "dropport_large", "repair_af"})
#: Aerospace fighters "have full VTOL abilities" (line 410): on the ground map they move as VTOLs.
_AS_MODE = {AEROSPACE: MovementMode.VTOL, DROPSHIP: MovementMode.VTOL}


def strategic_of(state: CampaignState) -> StrategicState:
    if state.strategic is None:
        raise Refusal("no_map", "the strategic map has not been set up (StartStrategicMap)")
    return state.strategic


def strategic_today(state: CampaignState, day: int) -> StrategicState:
    """The strategic state, for a command given for ``day``: refused once the campaign has
    ended, or when ``day`` is not today."""
    s = strategic_of(state)
    if s.ended:
        raise Refusal("campaign_over", f"day: the campaign has ended ({s.ended})")
    if day != s.day:
        raise Refusal("wrong_day", f"day: today is day {s.day}, not day {day}")
    return s


def known_side(state: CampaignState, side_id: str, field: str) -> None:
    """Refuses a command whose ``field`` names no side of the campaign."""
    if side_id not in state.sides:
        raise Refusal("unknown_side", f"{field}: no side {side_id!r}")


def mobility_of(s: StrategicState, formation: Formation) -> tuple[UnitMobility, ...]:
    missing = [u for u in formation.unit_ids if u not in s.mobility]
    if missing:
        raise Refusal(
            "no_mobility",
            f"formation {formation.formation_id}: no walk/cruise MP recorded for {missing}",
        )
    return tuple(s.mobility[u] for u in formation.unit_ids)


L166 = (
    'L166: "Each day has 6 useful hours. Additional hours can be used but this will cause '
    'Force Fatigue"'
)


def extra_hours_of(order: FormationOrder, field: str = "params") -> int:
    """The hours a move travels past the day's useful ones (``extra_hours``, ruling T-H1):
    none when not given; a whole number up to the rest of the 24-hour day, else refused."""
    raw = order.param("extra_hours")
    if not raw:
        return 0
    return checked_extra_hours(raw, f"{field}.extra_hours")


def checked_extra_hours(raw: str, field: str) -> int:
    """``raw`` as the extra hours of a move (T-H1): a whole number from 1 to the rest of the
    24-hour day past the 6 useful ones, else refused naming ``field``."""
    rules = movement_rules()
    most = rules.max_hours - rules.useful_hours
    if not raw.isdigit() or not 1 <= int(raw) <= most:
        raise Refusal(
            "bad_param",
            f"{field}: a whole number of hours from 1 to {most} past the "
            f"{rules.useful_hours} useful ones ({L166}), not {raw!r}",
        )
    return int(raw)


def movement_of(
    s: StrategicState, formation: Formation, *, forced_march: bool = False, extra_hours: int = 0
) -> FormationMovement:
    units = mobility_of(s, formation)
    speed = formation_speed(u.walk_mp for u in units)
    modes = sorted({_AS_MODE.get(u.mode, u.mode) for u in units})
    return FormationMovement.of(speed, *modes, forced_march=forced_march, extra_hours=extra_hours)


def is_air(s: StrategicState, formation: Formation, kinds: str) -> bool:
    """Whether every unit is of the kinds an action names (aerospace, dropship or either)."""
    allowed = {
        "aerospace": {AEROSPACE},
        "dropship": {DROPSHIP},
        "aerospace_or_dropship": {AEROSPACE, DROPSHIP},
    }[kinds]
    return all(
        s.mobility.get(u) is not None and s.mobility[u].mode in allowed for u in formation.unit_ids
    )


def own_formation(s: StrategicState, side_id: str, formation_id: str, field: str) -> Formation:
    f = s.formations.get(formation_id)
    if f is None or f.side_id != side_id:
        # The same answer for "not yours" and "does not exist": nothing leaks about the enemy.
        raise Refusal(
            "not_your_formation", f"{field}: {formation_id!r} is not a formation of {side_id!r}"
        )
    return f
