"""What of a TripWire campaign one side may see: the rule every per-side channel derives from.

The server enforces it (never a client) for the event stream, the side views and reports.

Rules, in order (the referee sees everything):

1. an event naming a ``side_id`` belongs to that side (orders, imports, pools);
2. otherwise an event naming a pool, person, unit or formation belongs to that object's side
   (looked up in the folded state);
3. an engagement is shown to the sides fighting it, each getting only its own cut of the setup
   (:func:`~mekref.rules.tripwire.turn.secrecy.engagement_for`, the cut its scenario export
   shows: no enemy objective, formations, arrivals, aerospace or notes) and no dice;
4. otherwise it is public only if its type is listed in :data:`PUBLIC`, with the fields listed
   there removed (the dice seed: knowing it would let a player predict every future roll; the
   start of the strategic map lists every unit's movement, the enemy's included);
5. a battle's events are shown to the sides that fought it, each cut to what its
   GetBattleReport tells (:mod:`~mekref.rules.tripwire.battle_visibility`, ruling BR-17): the
   files' fingerprints, never their content; its own units, people and VP line;
6. anything else is hidden. New event types are therefore secret until someone decides they
   are public: a forgotten case hides too much, never too little.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mekref.rules.codec import JsonValue, decode, to_jsonable
from mekref.rules.tripwire.battle_visibility import BATTLE_EVENTS, battle_event_for
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.secrecy import engagement_for
from mekref.rules.tripwire.turn.state import EngagementSetup
from mekref.rules.tripwire.turn.view import side_view

#: Public event types and the fields removed before a side sees them.
PUBLIC: Mapping[str, frozenset[str]] = {
    "CampaignCreated": frozenset({"seed"}),
    # The strategic turn's public facts (mekref.rules.tripwire.turn.events).
    "StrategicMapStarted": frozenset({"mobility"}),
    "WeatherRolled": frozenset(),
    "UnrestChanged": frozenset(),
    "FacilityDestroyed": frozenset(),
    "LocationControlChanged": frozenset(),
    "UnguidedArtilleryFired": frozenset(),
    "StrategicVictoryScored": frozenset(),
    "LeaderCaptured": frozenset(),
    "DayEnded": frozenset(),
    # Satellites circle over everyone (ruling T-OR1 in docs/turn.md).
    "SatellitePlaced": frozenset(),
    "SatelliteDestroyed": frozenset(),
    "SatelliteRepositioned": frozenset(),
    # The house rules' XP prices are the group's, agreed by all (ruling HOUSE-37).
    "XpCostsSet": frozenset(),
}
#: Events shown only to the sides taking part, found at this path in the payload.
PARTICIPANTS: Mapping[str, tuple[str, ...]] = {
    "EngagementDetermined": ("engagement", "sides"),
}

_OWNER_REFS = ("pool_id", "from_pool", "person_id", "unit_id", "formation_id")


def _owner(payload: Mapping[str, Any], state: CampaignState) -> str | None:
    side = payload.get("side_id")
    if isinstance(side, str):
        return side
    for key in _OWNER_REFS:
        ref = payload.get(key)
        if not isinstance(ref, str):
            continue
        if key in ("pool_id", "from_pool") and ref in state.pools:
            return state.pools[ref].side_id
        if key == "person_id" and ref in state.people:
            return state.people[ref].side_id
        if key == "unit_id" and ref in state.units:
            return state.units[ref].side_id
        strategic = getattr(state, "strategic", None)
        formations = getattr(strategic, "formations", None)
        if key == "formation_id" and isinstance(formations, Mapping) and ref in formations:
            owner = getattr(formations[ref], "side_id", None)
            return owner if isinstance(owner, str) else None
    return None


def visible_payload(
    side_id: str, event_type: str, payload: dict[str, Any], state: CampaignState
) -> dict[str, Any] | None:
    """The payload as ``side_id`` may see it, or None when the event is hidden from them."""
    if event_type in BATTLE_EVENTS:  # before rule 1: BattleControlSet names the field's holder
        return battle_event_for(side_id, event_type, payload, state)
    owner = _owner(payload, state)
    if owner is not None:
        return payload if owner == side_id else None
    path = PARTICIPANTS.get(event_type)
    if path is not None:
        sides: Any = payload
        for key in path:
            sides = sides.get(key, {}) if isinstance(sides, Mapping) else {}
        if not (isinstance(sides, list) and side_id in sides):
            return None
        return _own_cut(side_id, event_type, payload, state)
    removed = PUBLIC.get(event_type)
    if removed is None:
        return None
    return {k: v for k, v in payload.items() if k not in removed}


def _own_cut(
    side_id: str, event_type: str, payload: dict[str, Any], state: CampaignState
) -> dict[str, Any] | None:
    if event_type != "EngagementDetermined":
        return payload
    try:
        setup = decode(EngagementSetup, payload["engagement"])
    except (KeyError, TypeError, ValueError):
        return None  # a payload we cannot cut is not shown at all
    strategic = getattr(state, "strategic", None)
    formations = getattr(strategic, "formations", {})
    owners = {fid: f.side_id for fid, f in formations.items()}
    # The dice stay with the referee: the ambush totals they give are in the setup already.
    return {
        "type": event_type,
        "engagement": to_jsonable(engagement_for(setup, side_id, owners)),
    }


class TripWireViews:
    """The TripWire rule set's :class:`~mekref.rules.kernel.SideViews`."""

    def sides(self, state: CampaignState) -> dict[str, str]:
        return {s.side_id: s.name for s in state.sides.values()}

    def view(self, state: CampaignState, side: str) -> JsonValue:
        return to_jsonable(side_view(state, side))

    def event_for(
        self, state: CampaignState, event: dict[str, Any], side: str
    ) -> dict[str, Any] | None:
        kind = event.get("type")
        return visible_payload(side, kind if isinstance(kind, str) else "", event, state)
