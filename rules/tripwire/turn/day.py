"""The day being resolved: the state in hand, the events so far and the day's dice.

Each step of ``resolve`` reads and updates one ``Day``; the helpers here are the ones every
step uses (a formation's location, pruning emptied formations, raising mobs).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mekref.hexmap import HexMap, Location
from mekref.rules.dice import Dice, Roll
from mekref.rules.messages import Event
from mekref.rules.tripwire.battle_model import Fate, UnitDamage
from mekref.rules.tripwire.holding import in_play
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import unrest
from mekref.rules.tripwire.turn.events import MobsRaised, UnrestChanged
from mekref.rules.tripwire.turn.mapdata import hex_at, hexmap_of
from mekref.rules.tripwire.turn.state import (
    IN_ORBIT,
    Formation,
    FormationOrder,
    StrategicState,
    UnitMobility,
)


def prune(
    state: CampaignState, formations: dict[str, Formation], wrecked: Iterable[str] = ()
) -> dict[str, Formation]:
    """Units that left their side (captured) or play (truly destroyed, sold, scrapped:
    :func:`holding.in_play`; ``wrecked``: truly destroyed today) leave their formations; a
    formation left empty is dissolved."""
    gone = set(wrecked)
    out: dict[str, Formation] = {}
    for fid, f in formations.items():
        kept = tuple(
            u
            for u in f.unit_ids
            if in_play(state, u) and state.units[u].side_id == f.side_id and u not in gone
        )
        if kept:
            out[fid] = f if kept == f.unit_ids else replace(f, unit_ids=kept)
    return out


class Day:
    """The working copy of one day's resolution: formations, unrest, dice, events so far."""

    def __init__(self, state: CampaignState, s: StrategicState, dice: Dice) -> None:
        self.state = state
        self.s = s
        self.hexmap: HexMap = hexmap_of(s)
        self.dice = dice
        self.day = s.day
        self.formations: dict[str, Formation] = prune(state, s.formations)
        self.mobility: dict[str, UnitMobility] = {}
        self.unrest = dict(s.unrest)
        self.local_unrest = {loc: dict(v) for loc, v in s.local_unrest.items()}
        self.control = dict(s.control)
        self.events: list[Event] = []
        self.notes: dict[str, list[str]] = {}
        # A formation dissolved since its orders were given (its units left play) acts no more.
        self.orders: dict[str, FormationOrder] = {
            o.formation_id: o
            for side in sorted(s.orders)
            for o in s.orders[side]
            if o.formation_id in self.formations
        }
        self.maintained: set[str] = set()
        self.destroyed = {k: set(v) for k, v in s.destroyed.items()}
        self.satellite: dict[str, Roll] = {}  # a SatLink roll made early, for a Respond order
        self.ship_feed: dict[str, Roll] = {}  # the day's 11+ roll for enemy ships' feeds (L270)
        self.satellites = dict(s.satellites)  # as Anti-Satellite Operations leave them
        self.engagement_notes: dict[str, list[str]] = {}  # hex -> notes for its engagement
        # Rolled damage of the day so far (T-DM1): a second roll on a unit builds on the first.
        self.damage: dict[str, UnitDamage] = {}
        self.fates: dict[str, Fate] = {}
        self.hits: dict[str, int] = {}  # person -> hits after today's rolls

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


def location_of(d: Day, f: Formation) -> Location | None:
    return None if f.hex == IN_ORBIT else d.hexmap.location_at(hex_at(f.hex))


def raise_mobs(d: Day, force: str, level: int, location: str, cause: str, eid: str = "") -> str:
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
