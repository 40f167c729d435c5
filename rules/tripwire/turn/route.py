"""The cheapest legal path for a formation, and the part of it that fits in today's move.

Orders list every hex entered; a group plotting a 14-hex march by hand over rivers and roads
gets it wrong. This asks the map: the lowest-MP route from where the formation stands to a
goal (hexmap's A*, with the formation's own movement modes and speed), and the longest start
of it that today's MP allows (the road bonus included when that start is all road). The day's
part is what a ``move`` (or ``forced_march``) order takes as its path; with extra hours on the
move (ruling T-H1) the day's part is planned with them, and the order carries them.
"""

from __future__ import annotations

from mekref.hexmap import label, parse_label
from mekref.hexmap.geometry import LabelError
from mekref.hexmap.paths import cheapest_path, todays_leg
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.common import (
    checked_extra_hours,
    movement_of,
    own_formation,
    strategic_of,
)
from mekref.rules.tripwire.turn.mapdata import hex_at, hexmap_of
from mekref.rules.tripwire.turn.state import IN_ORBIT


@record
class RoutePlan(Record):
    """A route for one formation: hexes entered (its own hex left out, as orders list them)."""

    formation_id: str
    start: str
    goal: str
    path: tuple[str, ...]  # the whole route
    cost_mp: int  # MP of the whole route
    today: tuple[str, ...]  # the start of the route today's MP covers
    mp_per_day: int  # the formation's MP on a day that is not all road
    action: str  # "move" or "forced_march": the order that covers today's part
    # Hours travelled past the day's 6 useful ones (T-H1), as the order must carry them: the
    # MP above include them, and they add as many points of fatigue. 0: none.
    extra_hours: int = 0

    @property
    def order_spec(self) -> str:
        """Today's part as ``mekref orders submit --order`` takes it."""
        return f"{self.formation_id}:{self.action}:{','.join(self.today)}"

    @property
    def param_spec(self) -> str:
        """The order's extra hours as ``mekref orders submit --param`` takes them; "" without."""
        return f"{self.formation_id}:extra_hours={self.extra_hours}" if self.extra_hours else ""


def plan_route(
    state: CampaignState,
    side_id: str,
    formation_id: str,
    goal: str,
    *,
    forced_march: bool = False,
    extra_hours: int = 0,
) -> RoutePlan:
    if extra_hours:
        checked_extra_hours(str(extra_hours), "extra_hours")
    s = strategic_of(state)
    f = own_formation(s, side_id, formation_id, "formation_id")
    if f.hex == IN_ORBIT:
        raise Refusal(
            "in_orbit", f"formation_id: {formation_id} is in orbit; it lands before it marches"
        )
    try:
        goal_label = label(parse_label(goal))
    except LabelError as exc:
        raise Refusal("illegal_path", f"to: {goal!r} is not a hex label ({exc})") from None
    hexmap = hexmap_of(s)
    target = hex_at(goal_label)
    if not hexmap.in_bounds(target):
        raise Refusal("illegal_path", f"to: {goal_label} is off the map")
    movement = movement_of(s, f, forced_march=forced_march, extra_hours=extra_hours)
    route = cheapest_path(hexmap, movement, hex_at(f.hex), target)
    if route is None:
        raise Refusal(
            "no_route",
            f"to: no legal path for {formation_id} from {f.hex} to {goal_label} "
            "(impassable terrain or water in the way for its units)",
        )
    leg = todays_leg(hexmap, movement, route.path)
    return RoutePlan(
        formation_id=formation_id,
        start=f.hex,
        goal=goal_label,
        path=tuple(label(h) for h in route.path[1:]),
        cost_mp=route.cost,
        today=tuple(label(h) for h in leg[1:]),
        mp_per_day=movement.budget(all_road=False),
        action="forced_march" if forced_march else "move",
        extra_hours=extra_hours,
    )
