"""Turrets and their repair (L275, ruling T-T1).

L275: "Turrets are CF150 1 Hex Level 2 Towers that may accept 15 tons of Weapons. ... Players may
spend 100 WP to repair a damaged turret but not if the CF has been reduced to 0. Turrets must be
crewed by a squad of infantry (conventional or battle armour)." Lines 157-160 say which locations
have turrets and how many (``tables/turrets.toml``).

A battle's damage to a turret is not in the MegaMek unit files the campaign reads (a turret is a
building or an emplacement of the map), so the referee records it (``RecordTurretDamage``); the
side holding the location repairs it (``RepairTurret``) from the location's own WarChest pool.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from mekref.hexmap import label
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, command_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tables import int_field, str_field
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.spending_checks import side_pool
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.cargo import pool_hex
from mekref.rules.tripwire.turn.common import strategic_of
from mekref.rules.tripwire.turn.data import single, table_rows
from mekref.rules.tripwire.turn.events import TurretDamageRecorded, TurretRepaired
from mekref.rules.tripwire.turn.mapdata import hexmap_of

L275 = (
    "L275 'Players may spend 100 WP to repair a damaged turret but not if the CF has been "
    "reduced to 0'"
)


@command_type("RecordTurretDamage")
@record
class RecordTurretDamage(Command):
    """Referee: a turret's CF after a battle (0: reduced to 0, beyond repair)."""

    location: str
    turret: int
    cf: int
    note: RefereeNote


@command_type("RepairTurret")
@record
class RepairTurret(Command):
    """A side repairs a damaged turret of a location it holds: 100 WP from a pool there."""

    side_id: str
    location: str
    turret: int
    pool_id: str


def full_cf() -> int:
    return int(single("turrets", "repair")["cf"])


def repair_wp() -> int:
    return int(single("turrets", "repair")["wp"])


@cache
def turret_counts() -> dict[str, int]:
    """Location name -> its turrets (lines 157-160)."""
    return {
        str_field(r, "name"): int_field(r, "turrets") for r in table_rows("turrets", "location")
    }


def turret_cf(state: CampaignState, location: str) -> tuple[int, ...]:
    """The CF of each of a location's turrets: as recorded, else whole."""
    s = strategic_of(state)
    count = turret_counts().get(location, 0)
    return s.turret_cf.get(location, (full_cf(),) * count)


def _turret(state: CampaignState, location: str, turret: int) -> int:
    s = strategic_of(state)
    known = {loc.name for loc in hexmap_of(s).locations}
    count = turret_counts().get(location, 0)
    if location not in known or count == 0:
        having = ", ".join(sorted(n for n in turret_counts() if n in known))
        raise Refusal(
            "bad_target",
            f"location: {location!r} has no turrets (lines 157-160; with turrets: {having})",
        )
    if not 1 <= turret <= count:
        raise Refusal("bad_target", f"turret: {location} has turrets 1 to {count}, not {turret}")
    if "turrets" in s.destroyed.get(location, ()):
        return 0  # destroyed by the Destruction action (line 219): CF 0
    return turret_cf(state, location)[turret - 1]


def decide_record(
    state: CampaignState, cmd: RecordTurretDamage, dice: Dice, rules: TripWire
) -> list[Event]:
    before = _turret(state, cmd.location, cmd.turret)
    if not 0 <= cmd.cf <= full_cf():
        raise Refusal("bad_param", f"cf: a turret's CF runs from 0 to {full_cf()} (L275)")
    return [
        TurretDamageRecorded(
            location=cmd.location, turret=cmd.turret, cf_before=before, cf=cmd.cf, note=cmd.note
        )
    ]


def decide_repair(
    state: CampaignState, cmd: RepairTurret, dice: Dice, rules: TripWire
) -> list[Event]:
    s = strategic_of(state)
    before = _turret(state, cmd.location, cmd.turret)
    if s.control.get(cmd.location) != cmd.side_id:
        raise Refusal("not_held", f"location: {cmd.side_id} does not hold {cmd.location}; {L275}")
    if before == 0:
        raise Refusal(
            "beyond_repair", f"turret: turret {cmd.turret} of {cmd.location} is at CF 0; {L275}"
        )
    if before >= full_cf():
        raise Refusal(
            "not_damaged",
            f"turret: turret {cmd.turret} of {cmd.location} is not damaged (CF {before}); {L275}",
        )
    pool = side_pool(state, cmd.pool_id, cmd.side_id)
    here = next(label(loc.hex) for loc in hexmap_of(s).locations if loc.name == cmd.location)
    if pool_hex(state, s, s.formations, pool) != here:
        raise Refusal(
            "pool_elsewhere",
            f"pool_id: {pool.name!r} is not at {cmd.location} (L58 'Repair and Rearm actions may "
            "only be taken when WarChest Points are available from that location', R-WHERE-2)",
        )
    cost = repair_wp()
    if cost > pool.balance:
        raise Refusal(
            "insufficient_wp", f"pool_id: {pool.name!r} holds {pool.balance} WP, not {cost}"
        )
    return [
        TurretRepaired(
            side_id=cmd.side_id,
            location=cmd.location,
            turret=cmd.turret,
            pool_id=pool.pool_id,
            cf_before=before,
            cf=full_cf(),
            wp=cost,
        )
    ]


def _set_cf(state: CampaignState, location: str, turret: int, cf: int) -> CampaignState:
    s = strategic_of(state)
    cfs = list(turret_cf(state, location))
    cfs[turret - 1] = cf
    turret_map = {**s.turret_cf, location: tuple(cfs)}
    if all(c == full_cf() for c in cfs):
        del turret_map[location]  # whole again: nothing to remember
    return replace(state, strategic=replace(s, turret_cf=turret_map))


def evolve_recorded(state: CampaignState, e: TurretDamageRecorded) -> CampaignState:
    return _set_cf(state, e.location, e.turret, e.cf)


def evolve_repaired(state: CampaignState, e: TurretRepaired) -> CampaignState:
    state = _set_cf(state, e.location, e.turret, e.cf)
    pool = state.pools[e.pool_id]
    return replace(
        state, pools={**state.pools, pool.pool_id: replace(pool, balance=pool.balance - e.wp)}
    )
