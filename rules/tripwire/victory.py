"""Battle victory points, retiring at half strength, and the retreat conditions."""

from __future__ import annotations

from fractions import Fraction

from mekref.rules.record_type import Record, record
from mekref.rules.tables import SourceRef
from mekref.rules.tripwire.table_loader import TripWireTables, load_tables


@record
class BattleOutcome(Record):
    """One side's view of a battle, in BV: what it started with and lost, and the enemy's."""

    own_starting_bv: int
    own_destroyed_bv: int
    enemy_starting_bv: int
    enemy_destroyed_bv: int
    enemy_commander_lost: bool  # captured or killed
    own_commander_lost: bool


@record
class VpAward(Record):
    key: str
    vp: int
    source: SourceRef


def _share(destroyed: int, starting: int) -> Fraction:
    return Fraction(destroyed, starting) if starting > 0 else Fraction(0)


def _threshold_row(share: Fraction, prefix: str, t: TripWireTables) -> VpAward | None:
    # Ruling R-VP-1: the 25% and 50% rows do not stack: 50% destroyed scores the 50% row only.
    best: VpAward | None = None
    best_fraction = Fraction(-1)
    for row in t.victory.battle.values():
        if not row.key.startswith(prefix) or row.fraction is None:
            continue
        if best_fraction < row.fraction <= share:
            best, best_fraction = VpAward(key=row.key, vp=row.vp, source=row.ref), row.fraction
    return best


def battle_vp(outcome: BattleOutcome, tables: TripWireTables | None = None) -> tuple[VpAward, ...]:
    """Every battle VP row this side scores (positive and negative)."""
    t = tables or load_tables()
    awards: list[VpAward] = []
    # The enemy's losses first, then the side's own: each a destroyed share and a commander.
    o = outcome
    for prefix, destroyed, starting, commander_lost in (
        ("enemy", o.enemy_destroyed_bv, o.enemy_starting_bv, o.enemy_commander_lost),
        ("friendly", o.own_destroyed_bv, o.own_starting_bv, o.own_commander_lost),
    ):
        share = _threshold_row(_share(destroyed, starting), f"{prefix}_destroyed", t)
        if share:
            awards.append(share)
        if commander_lost:
            row = t.victory.battle[f"{prefix}_commander_lost"]
            awards.append(VpAward(key=row.key, vp=row.vp, source=row.ref))
    return tuple(awards)


def apply_battle_vp(current: int, delta: int, tables: TripWireTables | None = None) -> int:
    """Battle VP after a battle: "victory points can't be reduced below 0"."""
    return max((tables or load_tables()).victory.vp_floor, current + delta)


def must_retire(current_bv: int, starting_bv: int, tables: TripWireTables | None = None) -> bool:
    """A force that has reached 50% of its starting BV retires from the field."""
    t = tables or load_tables()
    return Fraction(current_bv) <= starting_bv * t.victory.retire_fraction


@record
class RetreatSituation(Record):
    own_bv: int  # current
    enemy_bv: int  # current
    own_starting_bv: int
    own_damage_bv: int  # BV lost to damage and destruction
    enemy_starting_bv: int
    enemy_damage_bv: int
    own_commander_killed: bool
    defended_objectives_destroyed: bool
    ammo_weapons_dry: bool  # every unit with non-MG ammo weapons has spent all its ammo
    battle_started: bool = True


def retreat_conditions(
    situation: RetreatSituation, tables: TripWireTables | None = None
) -> tuple[SourceRef, ...]:
    """The retreat conditions met now; a retreat may be called when this is not empty.

    Ruling R-RETREAT-1: "The enemy outnumbers the attacker (attacker is 150% of defenders BV)"
    is read as: this side may retreat when the enemy's BV is at least 150% of its own.
    Before the battle only that condition allows a retreat (line 347).
    """
    t = tables or load_tables()
    c = t.retreat.conditions
    met: list[SourceRef] = []

    def threshold(key: str) -> Fraction:
        value = c[key].threshold
        assert value is not None, f"retreat condition {key} needs a threshold"
        return value

    if situation.own_bv > 0 and Fraction(situation.enemy_bv, situation.own_bv) >= threshold(
        "outnumbered"
    ):
        met.append(c["outnumbered"].ref)
    if not situation.battle_started:
        return tuple(met)
    if _share(situation.enemy_damage_bv, situation.enemy_starting_bv) >= threshold("enemy_damaged"):
        met.append(c["enemy_damaged"].ref)
    if _share(situation.own_damage_bv, situation.own_starting_bv) >= threshold("own_damaged"):
        met.append(c["own_damaged"].ref)
    if situation.own_commander_killed:
        met.append(c["commander_killed"].ref)
    if situation.defended_objectives_destroyed:
        met.append(c["objectives_destroyed"].ref)
    if situation.ammo_weapons_dry:
        met.append(c["ammunition_spent"].ref)
    return tuple(met)


def infantry_must_surrender(
    move: int, has_transport: bool, tables: TripWireTables | None = None
) -> bool:
    """Infantry with a move of 1 and no transport lay down arms when their side retreats."""
    t = tables or load_tables()
    return move <= t.retreat.infantry_surrender_move and not has_transport
