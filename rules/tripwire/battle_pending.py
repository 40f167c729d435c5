"""Which battles wait for what: the files and the word on control each still needs, and the retreat
check a side may ask for while its battle is open (R-VP-4). Queries over the state; the
deciders of :mod:`mekref.rules.tripwire.battles` use them too."""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal
from mekref.rules.tables import SourceRef
from mekref.rules.tripwire.battle_model import (
    Battle,
    BattleLedger,
    PersonFate,
    file_views,
)
from mekref.rules.tripwire.battle_resolution import rescored, resolve
from mekref.rules.tripwire.campaign import side_of
from mekref.rules.tripwire.holding import in_play
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.table_loader import load_tables
from mekref.rules.tripwire.victory import RetreatSituation, retreat_conditions


def battle_of(state: CampaignState, battle_id: str) -> Battle:
    """The battle ``battle_id``; refused when there is none."""
    battle = state.battles.battles.get(battle_id)
    if battle is None:
        raise Refusal("unknown_battle", f"no battle {battle_id!r}")
    return battle


@record
class PendingBattle(Record):
    battle_id: str
    sides_expected: tuple[str, ...]
    sides_reported: tuple[str, ...]
    files: tuple[str, ...]  # sha256 of each file received
    control_side: str | None = None
    engagement_id: str = ""  # the strategic map's engagement it is fought for (T-E8)
    held: str = ""  # why it waits for the referee's confirmation (no engagement), or ""

    @property
    def sides_missing(self) -> tuple[str, ...]:
        return tuple(s for s in self.sides_expected if s not in self.sides_reported)


def ledger(state: CampaignState) -> BattleLedger:
    return state.battles


def sides_expected(state: CampaignState, battle: Battle) -> tuple[str, ...]:
    """Every side with a unit in any file of the battle (a side that fought owes a file); a
    unit that left play before it (truly destroyed, R-VP-7) fought in it no more."""
    sides = {state.units[u].side_id for u in battle.unit_ids if in_play(state, u)}
    return tuple(sorted(sides))


def sides_reported(state: CampaignState, battle: Battle) -> tuple[str, ...]:
    owners = {uid: u.side_id for uid, u in state.units.items()}
    return tuple(sorted({side for f in battle.in_force for side in file_views(f, owners)}))


def pending(state: CampaignState, battle: Battle) -> PendingBattle:
    return PendingBattle(
        battle_id=battle.battle_id,
        sides_expected=sides_expected(state, battle),
        sides_reported=sides_reported(state, battle),
        files=tuple(f.sha256 for f in battle.files),
        control_side=battle.control_side,
        engagement_id=battle.engagement_id,
        held=battle.held,
    )


def pending_battles(state: CampaignState) -> list[PendingBattle]:
    """Open battles, oldest first, with the sides they still wait for."""
    open_battles = state.battles.battles.open_battles()
    return [pending(state, b) for b in sorted(open_battles, key=lambda b: b.number)]


def all_reported(state: CampaignState, battle: Battle) -> bool:
    return not pending(state, battle).sides_missing


class RetreatNotKnown(Refusal):
    """Ruling R-VP-6 (with R-RETREAT-1): the conditions on BV (lines 341-343) cannot be told
    while a unit of the battle has no BV, and no condition without BV is met.

    Deciding on the partial sum would read such a unit as 0 BV: a side would look outnumbered,
    or an enemy look untouched, when it is not. The units are named so the referee can record
    their BV (``mekref battle bv``) and ask again.
    """

    def __init__(self, units_without_bv: tuple[str, ...], source: SourceRef) -> None:
        super().__init__(
            "bv_not_known",
            "not known: the retreat conditions on BV (lines 341-343) cannot be told while "
            f"{len(units_without_bv)} unit(s) of the battle have no BV "
            f"({', '.join(units_without_bv)}); record each one's BV with 'mekref battle bv "
            "--unit ID --bv N --referee NAME --reason TEXT' (R-VP-6), then ask again",
            source,
        )
        self.units_without_bv = units_without_bv
        self.rule = source

    def __str__(self) -> str:  # "not known: ..." reads as the answer, not as a refusal code
        return f"{self.message} (rule, line {self.rule.line}: {self.rule.source})"


def retreat_check(
    state: CampaignState,
    battle_id: str,
    side_id: str,
    dice: Dice,
    *,
    defended_objectives_destroyed: bool = False,
    ammo_weapons_dry: bool = False,
) -> tuple[SourceRef, ...]:
    """The retreat conditions (line 340) ``side_id`` meets in an open battle, from its files.

    A question, not a command: nothing is recorded. Ruling BR-10: "damage (on BV)" counts the
    BV of units destroyed in the game or captured so far; the force commander is "killed" when
    the files show the commander's pilot dead. Ruling R-VP-6: while a unit of the battle (any
    side: both sides' BV enter the comparisons) has no BV, only the conditions without BV
    (lines 344-346) are told; when none of them is met the answer is not known
    (:class:`RetreatNotKnown`), never a "no" read from the partial sum.
    """
    battle = battle_of(state, battle_id)
    side_of(state, side_id)
    if battle.resolution is not None:
        # Ruling BR-16: a resolved battle is read as it stood, from its recorded outcome (the
        # units' owners before it, scored again with the BV now, R-VP-6), never from the
        # state after it (captured units changed sides, wrecks left their formations).
        resolution = battle.resolution
        outcomes = rescored(state, resolution)
    else:
        resolution, _ = resolve(state, battle, side_id, dice, None)
        outcomes = resolution.sides
    sides = {s.side_id: s for s in outcomes}
    own = sides.get(side_id)
    if own is None:
        raise Refusal("not_in_battle", f"side {side_id!r} has no unit in battle {battle_id}")
    enemy_start = sum(s.starting_bv for s in outcomes if s.side_id != side_id)
    enemy_lost = sum(s.destroyed_bv for s in outcomes if s.side_id != side_id)
    commander_killed = any(
        p.side_id == side_id
        and p.fate in (PersonFate.KIA, PersonFate.DIED_OF_WOUNDS)
        and _commanded(state, p.person_id)
        for p in resolution.people
    )
    met = retreat_conditions(
        RetreatSituation(
            own_bv=own.starting_bv - own.destroyed_bv,
            enemy_bv=enemy_start - enemy_lost,
            own_starting_bv=own.starting_bv,
            own_damage_bv=own.destroyed_bv,
            enemy_starting_bv=enemy_start,
            enemy_damage_bv=enemy_lost,
            own_commander_killed=commander_killed,
            defended_objectives_destroyed=defended_objectives_destroyed,
            ammo_weapons_dry=ammo_weapons_dry,
        )
    )
    if not own.units_without_bv:
        return met
    conditions = load_tables().retreat.conditions
    on_bv = {conditions[k].ref for k in ("outnumbered", "enemy_damaged", "own_damaged")}
    certain = tuple(ref for ref in met if ref not in on_bv)
    if certain:  # a condition without BV is met: the retreat may be called whatever the BV
        return certain
    raise RetreatNotKnown(own.units_without_bv, conditions["outnumbered"].ref)


def _commanded(state: CampaignState, person_id: str) -> bool:
    """Whether the person is the pilot of a force commander's unit: in its first seat, or, once
    the battle is resolved and the seat emptied (a captured unit comes without its crew), the
    unit the person last crewed."""
    person = state.people.get(person_id)
    last = state.units.get(person.unit_id or "") if person is not None else None
    return any(
        UnitRole.FORCE_COMMANDER in u.roles and u.crew[:1] == (person_id,)
        for u in state.units.values()
    ) or (last is not None and not last.crew and UnitRole.FORCE_COMMANDER in last.roles)
