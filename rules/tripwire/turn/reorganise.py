"""Reorganising a side's formations one step at a time (``mekref formation ...``).

Line 178: "Players may reorganise formations at the start of any campaign turn." Line 153:
"Any forces may be moved between force elements (e.g. Lances). If this is done the force
element retains its Formation Type." Each command changes only the formations it names:
create one from units standing in one hex, split units off into a new formation, merge two
formations, move one unit to another formation. Units that stand apart never regroup (ruling
T-F1); a formation in orbit is not reorganised here (ruling T-F4); a formation with orders for
the day is refused until they are withdrawn (ruling T-F3). A formation another side owns is
answered like one that does not exist.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mekref.hexmap import label, parse_label
from mekref.hexmap.geometry import LabelError
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, command_type
from mekref.rules.record_type import record
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire import captured_units
from mekref.rules.tripwire.campaign import Decider
from mekref.rules.tripwire.holding import out_of_play
from mekref.rules.tripwire.repair import formation_change_cost
from mekref.rules.tripwire.ruleset import TripWire
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.common import known_side, own_formation, strategic_of
from mekref.rules.tripwire.turn.events import FormationsReorganised, FormationTrainingBegun
from mekref.rules.tripwire.turn.mapdata import hexmap_of
from mekref.rules.tripwire.turn.state import IN_ORBIT, Formation, StrategicState

#: Quoted by the refusals.
L153 = 'L153: "Any forces may be moved between force elements (e.g. Lances)"'
L178 = 'L178: "Players may reorganise formations at the start of any campaign turn"'


@command_type("CreateFormation")
@record
class CreateFormation(Command):
    """A side forms a new formation of units standing in one hex (rulings T-F1, T-F2).

    Units taken from formations leave them (an emptied formation is dissolved); units in no
    formation form it in ``hex``: recruits where the side already stands (T-F2), captured
    units only where they were taken (T-F7)."""

    side_id: str
    day: int
    formation_id: str
    unit_ids: tuple[str, ...]
    name: str = ""
    hex: str = ""  # only for units in no formation: "CCRR"


@command_type("SplitFormation")
@record
class SplitFormation(Command):
    """A side splits some units off a formation as a new formation in the same hex."""

    side_id: str
    day: int
    formation_id: str
    unit_ids: tuple[str, ...]
    new_formation_id: str
    name: str = ""


@command_type("MergeFormations")
@record
class MergeFormations(Command):
    """A side merges two of its formations standing in one hex into the first.

    ``absorbed_id``'s units join ``formation_id``; the absorbed formation is dissolved and
    ``formation_id`` keeps its name, adding the other's baggage."""

    side_id: str
    day: int
    formation_id: str
    absorbed_id: str


@command_type("TransferUnit")
@record
class TransferUnit(Command):
    """A side moves one unit to another formation (force element) in the same hex (L153)."""

    side_id: str
    day: int
    unit_id: str
    to_formation_id: str


@command_type("ChangeFormationType")
@record
class ChangeFormationType(Command):
    """A side pays 100 SP for a formation to train a day as another Formation Type (L95).

    The formation takes no action that day; the new type counts from the next day (ruling
    T-F6). ``pool_id``: the side's WarChest pool that pays."""

    side_id: str
    day: int
    formation_id: str
    formation_type: str
    pool_id: str


REORGANISE_COMMANDS = (
    CreateFormation,
    SplitFormation,
    MergeFormations,
    TransferUnit,
    ChangeFormationType,
)


def _check_turn(state: CampaignState, side_id: str, day: int) -> StrategicState:
    s = strategic_of(state)
    known_side(state, side_id, "side_id")
    if s.ended:
        raise Refusal("campaign_over", f"day: the campaign has ended ({s.ended})")
    if day != s.day:
        raise Refusal(
            "wrong_day", f"day: formations are reorganised at the start of day {s.day}, not {day}"
        )
    if side_id not in s.placed:
        raise Refusal(
            "not_placed", f"side_id: {side_id} has not placed its formations (mekref turn setup)"
        )
    return s


def _movable(s: StrategicState, side_id: str, formation_id: str, field: str) -> Formation:
    """The side's formation, if the rules let it be reorganised now."""
    f = own_formation(s, side_id, formation_id, field)
    if f.hex == IN_ORBIT:
        # Ruling T-F4: orbit is no hex; a DropShip's formations regroup once landed.
        raise Refusal(
            "in_orbit",
            f"{field}: {formation_id} is in orbit; only units standing in one hex of the map "
            f"regroup ({L153})",
        )
    if f.training_type and f.training_day == s.day:
        raise Refusal(
            "training",
            f'{field}: {formation_id} trains as {f.training_type} today (L95: "Requires 1 day '
            'of training")',
        )
    if any(o.formation_id == formation_id for o in s.orders.get(side_id, ())):
        # Ruling T-F3: the orders name the formation as it stands; withdraw them first.
        raise Refusal(
            "has_orders",
            f"{field}: {formation_id} already has orders for day {s.day}; withdraw them first "
            f"(mekref orders withdraw) ({L178})",
        )
    return f


def _new_id(s: StrategicState, formation_id: str, field: str) -> str:
    if not formation_id.strip():
        raise Refusal("bad_id", f"{field}: a formation needs an id")
    if formation_id in s.formations:
        # The same answer whichever side owns the id: nothing leaks.
        raise Refusal("duplicate_id", f"{field}: the id {formation_id!r} is taken")
    return formation_id


def _same_hex(formations: Iterable[Formation], field: str) -> str:
    hexes = sorted({f.hex for f in formations})
    if len(hexes) != 1:
        raise Refusal(
            "reorganise_apart",
            f"{field}: only units standing in one hex can regroup (they stand in "
            f"{', '.join(hexes)}) ({L153})",
        )
    return hexes[0]


def _streak(formations: Iterable[Formation]) -> tuple[str, int]:
    """An action kept up by every source formation counts on for its shortest run."""
    streaks = [f.action_streak for f in formations]
    actions = {a for a, _ in streaks}
    if len(actions) != 1:
        return ("", 0)
    return (streaks[0][0], min(n for _, n in streaks))


def _gathered(
    base: Formation, sources: Iterable[Formation], unit_ids: tuple[str, ...]
) -> Formation:
    """``base`` with ``unit_ids`` and the worst counters of ``sources`` (ruling T-F1)."""
    olds = [base, *sources]
    return replace(
        base,
        unit_ids=unit_ids,
        fatigue=max(f.fatigue for f in olds),
        days_since_maintenance=max(f.days_since_maintenance for f in olds),
        days_on_rations=max(f.days_on_rations for f in olds),
        last_recruit_day=max(f.last_recruit_day for f in olds),
        action_streak=_streak(olds),
    )


def _left(f: Formation, gone: set[str]) -> Formation | None:
    kept = tuple(u for u in f.unit_ids if u not in gone)
    return replace(f, unit_ids=kept) if kept else None


def _units(
    state: CampaignState, s: StrategicState, side_id: str, unit_ids: tuple[str, ...]
) -> dict[str, Formation | None]:
    """Each unit's formation (None: in no formation); another side's unit is 'not yours'."""
    if not unit_ids:
        raise Refusal("empty_formation", "unit_ids: name the units")
    if len(set(unit_ids)) != len(unit_ids):
        raise Refusal("duplicate_unit", "unit_ids: a unit is named twice")
    where = {u: f for f in s.formations.values() if f.side_id == side_id for u in f.unit_ids}
    out: dict[str, Formation | None] = {}
    for i, uid in enumerate(unit_ids):
        unit = state.units.get(uid)
        if unit is None or unit.side_id != side_id:
            raise Refusal("not_your_unit", f"unit_ids[{i}]: {uid!r} is not a unit of {side_id!r}")
        if uid not in s.mobility:
            raise Refusal("no_mobility", f"unit_ids[{i}]: no walk/cruise MP for {uid}")
        gone = out_of_play(state, uid)
        if gone:
            # L146: it "cannot be repaired"; a wreck is no force to form (R-VP-7).
            raise Refusal("out_of_play", f"unit_ids[{i}]: {uid}: {gone}; it is out of play")
        out[uid] = where.get(uid)
    return out


def _event(
    cmd: Command,
    side_id: str,
    day: int,
    action: str,
    changed: Iterable[Formation | None],
    dissolved: Iterable[str],
    unit_ids: tuple[str, ...],
) -> list[Event]:
    return [
        FormationsReorganised(
            side_id=side_id,
            day=day,
            action=action,
            formations=tuple(sorted((f for f in changed if f), key=lambda f: f.formation_id)),
            dissolved=tuple(sorted(set(dissolved))),
            unit_ids=unit_ids,
            actor=cmd.actor,
        )
    ]


def _after_removal(
    sources: Iterable[Formation], gone: set[str]
) -> tuple[list[Formation], list[str]]:
    left: list[Formation] = []
    dissolved: list[str] = []
    for f in sources:
        rest = _left(f, gone)
        if rest is None:
            dissolved.append(f.formation_id)
        else:
            left.append(rest)
    return left, dissolved


def decide_create(
    state: CampaignState, cmd: CreateFormation, dice: Dice, rules: TripWire
) -> list[Event]:
    s = _check_turn(state, cmd.side_id, cmd.day)
    fid = _new_id(s, cmd.formation_id, "formation_id")
    found = _units(state, s, cmd.side_id, cmd.unit_ids)
    sources = {f.formation_id: f for f in found.values() if f is not None}
    for sid in sorted(sources):
        _movable(s, cmd.side_id, sid, "unit_ids")
    loose = sorted(u for u, f in found.items() if f is None)
    # Captured units stand where they were taken (T-F7); the others in no formation
    # (recruited) join where the side stands (T-F2).
    recruits = [u for u in loose if u not in s.captured_at]
    if sources:
        where = _same_hex(sources.values(), "unit_ids")
        if cmd.hex and _label(cmd.hex) != where:
            raise Refusal(
                "reorganise_apart",
                f"hex: the units stand in {where}, not {cmd.hex}: only units standing in one "
                f"hex can regroup there ({L153})",
            )
        if recruits and where not in _joinable(state, s, cmd.side_id):
            raise Refusal(
                "reorganise_apart",
                f"unit_ids: {', '.join(recruits)} (in no formation) cannot join in {where}, "
                "where the side holds no location (ruling T-F2)",
            )
    else:
        if not cmd.hex:
            stands = sorted({s.captured_at[u] for u in loose if u in s.captured_at})
            raise Refusal(
                "no_hex",
                "hex: the units are in no formation; give the hex where they form it (one of "
                "the side's formations' hexes or a location it holds"
                + (f"; captured units: where they stand, {', '.join(stands)}" if stands else "")
                + ")",
            )
        where = _label(cmd.hex)
        if recruits and where not in _joinable(state, s, cmd.side_id):
            raise Refusal(
                "reorganise_apart",
                f"hex: units in no formation form one only where the side stands: a hex of "
                f"one of its formations or a location it holds, not {where} (ruling T-F2)",
            )
    apart = captured_units.refuse_apart(s, loose, where)
    if apart:
        raise Refusal("reorganise_apart", f"unit_ids: {apart}")
    gone = set(cmd.unit_ids)
    left, dissolved = _after_removal(sources.values(), gone)
    fresh = Formation(
        formation_id=fid, side_id=cmd.side_id, name=cmd.name or fid, unit_ids=(), hex=where
    )
    # A new formation starts without baggage or a running action, with the worst counters of
    # the formations its units come from (ruling T-F1).
    new = _gathered(fresh, sources.values(), cmd.unit_ids)
    return _event(cmd, cmd.side_id, cmd.day, "create", [new, *left], dissolved, cmd.unit_ids)


def _label(text: str) -> str:
    try:
        return label(parse_label(text))
    except LabelError as exc:
        raise Refusal("illegal_path", f"hex: {exc}") from None


def _joinable(state: CampaignState, s: StrategicState, side_id: str) -> set[str]:
    """Where units in no formation may form one (ruling T-F2), orbit left out (T-F4)."""
    held = {label(loc.hex) for loc in hexmap_of(s).locations if s.control.get(loc.name) == side_id}
    mine = {f.hex for f in s.formations.values() if f.side_id == side_id}
    return (held | mine) - {IN_ORBIT}


def decide_split(
    state: CampaignState, cmd: SplitFormation, dice: Dice, rules: TripWire
) -> list[Event]:
    s = _check_turn(state, cmd.side_id, cmd.day)
    source = _movable(s, cmd.side_id, cmd.formation_id, "formation_id")
    fid = _new_id(s, cmd.new_formation_id, "new_formation_id")
    if not cmd.unit_ids:
        raise Refusal("empty_formation", "unit_ids: name the units that split off")
    if len(set(cmd.unit_ids)) != len(cmd.unit_ids):
        raise Refusal("duplicate_unit", "unit_ids: a unit is named twice")
    for i, uid in enumerate(cmd.unit_ids):
        if uid not in source.unit_ids:
            raise Refusal(
                "not_in_formation",
                f"unit_ids[{i}]: {uid!r} is not in {cmd.formation_id}",
            )
    if set(cmd.unit_ids) == set(source.unit_ids):
        raise Refusal(
            "split_all",
            f"unit_ids: that is every unit of {cmd.formation_id}; a split leaves some behind",
        )
    rest = _left(source, set(cmd.unit_ids))
    new = replace(
        source,
        formation_id=fid,
        name=cmd.name or fid,
        unit_ids=cmd.unit_ids,
        baggage_person_days=0,  # baggage stays with the id that is kept (ruling T-F1)
        carries_leader=False,  # so does the leader (ruling T-F5)
        commander_bonus=0,
        commander_note=None,
        formation_type="",  # a new force element; the kept one retains its type (L153)
    )
    return _event(cmd, cmd.side_id, cmd.day, "split", [rest, new], [], cmd.unit_ids)


def decide_merge(
    state: CampaignState, cmd: MergeFormations, dice: Dice, rules: TripWire
) -> list[Event]:
    s = _check_turn(state, cmd.side_id, cmd.day)
    kept = _movable(s, cmd.side_id, cmd.formation_id, "formation_id")
    absorbed = _movable(s, cmd.side_id, cmd.absorbed_id, "absorbed_id")
    if kept.formation_id == absorbed.formation_id:
        raise Refusal("same_formation", "absorbed_id: a formation does not merge with itself")
    _same_hex((kept, absorbed), "absorbed_id")
    merged = _gathered(kept, (absorbed,), (*kept.unit_ids, *absorbed.unit_ids))
    merged = replace(
        merged,
        baggage_person_days=kept.baggage_person_days + absorbed.baggage_person_days,
        carries_leader=kept.carries_leader or absorbed.carries_leader,
    )
    return _event(
        cmd, cmd.side_id, cmd.day, "merge", [merged], [absorbed.formation_id], absorbed.unit_ids
    )


def decide_transfer(
    state: CampaignState, cmd: TransferUnit, dice: Dice, rules: TripWire
) -> list[Event]:
    s = _check_turn(state, cmd.side_id, cmd.day)
    found = _units(state, s, cmd.side_id, (cmd.unit_id,))
    target = _movable(s, cmd.side_id, cmd.to_formation_id, "to_formation_id")
    source = found[cmd.unit_id]
    if source is None:
        raise Refusal(
            "no_formation",
            f"unit_id: {cmd.unit_id} is in no formation; join it with 'mekref formation create "
            "--hex' or merge that formation",
        )
    if source.formation_id == target.formation_id:
        raise Refusal("same_formation", f"to_formation_id: {cmd.unit_id} is already there")
    _movable(s, cmd.side_id, source.formation_id, "unit_id")
    _same_hex((source, target), "to_formation_id")
    # L153: the force element keeps its formation type; it takes the worst counters (T-F1).
    joined = _gathered(target, (source,), (*target.unit_ids, cmd.unit_id))
    rest = _left(source, {cmd.unit_id})
    dissolved = [] if rest is not None else [source.formation_id]
    if rest is None:
        # The last unit carries what its emptied formation held.
        joined = replace(
            joined,
            baggage_person_days=joined.baggage_person_days + source.baggage_person_days,
            carries_leader=joined.carries_leader or source.carries_leader,
        )
    return _event(cmd, cmd.side_id, cmd.day, "transfer", [joined, rest], dissolved, (cmd.unit_id,))


def decide_type(
    state: CampaignState, cmd: ChangeFormationType, dice: Dice, rules: TripWire
) -> list[Event]:
    s = _check_turn(state, cmd.side_id, cmd.day)
    f = _movable(s, cmd.side_id, cmd.formation_id, "formation_id")
    wanted = cmd.formation_type.strip()
    if not wanted:
        raise Refusal("bad_type", "formation_type: name the Formation Type to train for")
    if wanted == f.formation_type:
        raise Refusal("same_type", f"formation_type: {f.formation_id} already is {wanted}")
    pool = state.pools.get(cmd.pool_id)
    if pool is None or pool.side_id != cmd.side_id:
        # The same answer for another side's pool and a missing one.
        raise Refusal("not_your_pool", f"pool_id: {cmd.pool_id!r} is not a pool of {cmd.side_id!r}")
    cost = formation_change_cost()
    if cost > pool.balance:
        raise Refusal(
            "insufficient_wp",
            f'pool_id: this costs {cost} SP (L95: "Change Formation Type | 100"); '
            f"{pool.name!r} holds {pool.balance}",
        )
    return [
        FormationTrainingBegun(
            side_id=cmd.side_id,
            day=cmd.day,
            formation_id=f.formation_id,
            formation_type=wanted,
            pool_id=cmd.pool_id,
            cost_sp=cost,
            actor=cmd.actor,
        )
    ]


def evolve_training(state: CampaignState, e: FormationTrainingBegun) -> CampaignState:
    s = strategic_of(state)
    f = replace(s.formations[e.formation_id], training_type=e.formation_type, training_day=e.day)
    pool = state.pools[e.pool_id]
    return replace(
        state,
        pools={**state.pools, pool.pool_id: replace(pool, balance=pool.balance - e.cost_sp)},
        strategic=replace(s, formations={**s.formations, f.formation_id: f}),
    )


def evolve_reorganised(state: CampaignState, e: FormationsReorganised) -> CampaignState:
    s = strategic_of(state)
    formations = {k: f for k, f in s.formations.items() if k not in set(e.dissolved)}
    formations.update({f.formation_id: f for f in e.formations})
    # Captured units formed where they stood are in a formation now (ruling T-F7).
    captured_at = captured_units.formed(s, e.unit_ids)
    return replace(
        state,
        strategic=replace(s, formations=dict(sorted(formations.items())), captured_at=captured_at),
    )


DECIDERS: dict[type[Command], Decider] = {
    CreateFormation: decide_create,
    SplitFormation: decide_split,
    MergeFormations: decide_merge,
    TransferUnit: decide_transfer,
    ChangeFormationType: decide_type,
}
