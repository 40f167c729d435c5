"""How a battle's events change the campaign: the evolvers of the battle commands (table entries
of the TripWire rule set, listed in :mod:`mekref.rules.tripwire.battles`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mekref.rules.records import copy_with
from mekref.rules.tripwire.battle_messages import (
    BattleConfirmed,
    BattleControlSet,
    BattleReportReceived,
    BattleResolved,
    LoadoutsRecorded,
    UnitFateSet,
)
from mekref.rules.tripwire.battle_model import (
    Battle,
    BattleLedger,
    BattleStatus,
    PersonFate,
    SideOutcome,
    with_file,
)
from mekref.rules.tripwire.captured_units import engagement_hex, taken
from mekref.rules.tripwire.holding import WRECKED, escorts_lost, leave_formations
from mekref.rules.tripwire.model import UnitRole
from mekref.rules.tripwire.state import CampaignState, Person, PersonStatus
from mekref.rules.tripwire.toe import SALVAGE_COMPANY


def _with_ledger(state: CampaignState, new: BattleLedger) -> CampaignState:
    return copy_with(state, battles=new)


def _with_battle(state: CampaignState, battle: Battle) -> CampaignState:
    led = state.battles
    return _with_ledger(state, copy_with(led, battles=led.battles.with_battle(battle)))


def evolve_loadouts(state: CampaignState, e: LoadoutsRecorded) -> CampaignState:
    led = state.battles
    return _with_ledger(state, copy_with(led, loadouts={**led.loadouts, **dict(e.loadouts)}))


def evolve_report(state: CampaignState, e: BattleReportReceived) -> CampaignState:
    battle = state.battles.battles.get(e.battle_id) or Battle(
        battle_id=e.battle_id, number=e.number
    )
    battle = with_file(battle, e.file)
    if e.supersedes:
        battle = copy_with(battle, superseded=(*battle.superseded, e.supersedes))
    if e.confirmed is not None:
        battle = copy_with(battle, confirmed=e.confirmed, held="")
    if e.engagement_id and not battle.engagement_id:
        battle = copy_with(battle, engagement_id=e.engagement_id)
    if e.held and battle.confirmed is None and not battle.held:
        battle = copy_with(battle, held=e.held)
    return _with_battle(state, battle)


def evolve_confirmed(state: CampaignState, e: BattleConfirmed) -> CampaignState:
    battle = state.battles.battles[e.battle_id]
    return _with_battle(
        state,
        copy_with(
            battle,
            held="",
            confirmed=e.note,
            engagement_id=e.engagement_id or battle.engagement_id,
        ),
    )


def evolve_control(state: CampaignState, e: BattleControlSet) -> CampaignState:
    battle = state.battles.battles[e.battle_id]
    return _with_battle(state, copy_with(battle, control_side=e.side_id, control_note=e.note))


def with_battle_vp(vp: Mapping[str, int], sides: Iterable[SideOutcome]) -> dict[str, int]:
    """``vp`` with one battle's VP added side by side: "victory points can't be reduced below
    0" (line 414); a battle's VP not known add nothing (R-VP-6: never counted as 0, the
    standings say what is missing)."""
    out = dict(vp)
    for side in sides:
        if side.vp_known:
            out[side.side_id] = max(0, out.get(side.side_id, 0) + side.vp_delta)
    return out


def evolve_resolved(state: CampaignState, e: BattleResolved) -> CampaignState:
    res = e.resolution
    battle = state.battles.battles[e.battle_id]
    led = state.battles
    units = dict(state.units)
    damage = dict(led.unit_damage)
    fates = dict(led.fates)
    crew_damage = dict(led.crew_damage)
    for outcome in res.units:
        damage[outcome.unit_id] = outcome.damage
        fates[outcome.unit_id] = outcome.fate
        if outcome.crew_damage:
            crew_damage[outcome.unit_id] = outcome.crew_damage
    salvaged = [(o.unit_id, o.salvaged_by) for o in res.units if o.salvaged_by is not None]
    people = dict(state.people)
    captured = dict(led.captured_people)
    kills = dict(led.kills)
    may_train = dict(led.may_train)
    for p in res.people:
        person = people.get(p.person_id)
        if person is None:
            continue
        people[p.person_id] = person_after(person, p.hits, p.fate, p.death_roll is not None)
        if p.captured_by is not None:
            captured[p.person_id] = p.captured_by
        if p.kills:
            kills[p.person_id] = kills.get(p.person_id, 0) + p.kills
        if p.may_train:
            may_train[p.person_id] = battle.number
    vp = with_battle_vp(led.victory_points, res.sides)
    new_led = copy_with(
        led,
        battles=led.battles.with_battle(
            copy_with(
                battle,
                status=BattleStatus.RESOLVED,
                control_side=res.control_side,
                resolution=res,
            )
        ),
        unit_damage=damage,
        fates=fates,
        crew_damage=crew_damage,
        captured_people=captured,
        kills=kills,
        may_train=may_train,
        victory_points=vp,
    )
    # R-BOMB-2: a fighter that fought comes back without the bombs it took (L84 prices a
    # loadout; what MegaMek says is left is not read back).
    fought = {o.unit_id for o in res.units}
    state = copy_with(
        state,
        units=units,
        people=people,
        battles=new_led,
        tracks_completed=state.tracks_completed + 1,
        bombs={u: b for u, b in state.bombs.items() if u not in fought},
    )
    # L162: whether the leader's escort fell, read while the formations still hold it (T-L1).
    state = escorts_lost(state, battle.battle_id, ((o.unit_id, o.fate) for o in res.units))
    # L145-L146: a truly destroyed unit leaves play: out of its formation at once (R-VP-7).
    state = leave_formations(state, (o.unit_id for o in res.units if o.fate in WRECKED))
    # Salvage is immobile (L137): it leaves the enemy's formation at once and stays on the
    # battlefield, the engagement's hex (ruling T-F7).
    s = state.strategic
    field_hex = None if s is None else engagement_hex(s, battle.engagement_id)
    state = taken(state, (unit_id for unit_id, _ in salvaged), field_hex)
    for unit_id, side_id in salvaged:
        # Salvaged units join the controlling side's TO&E (line 136).
        state = _change_sides(state, unit_id, side_id)
    return state


def evolve_fate(state: CampaignState, e: UnitFateSet) -> CampaignState:
    led = copy_with(state.battles, fates={**state.battles.fates, e.unit_id: e.fate})
    state = copy_with(state, battles=led)
    if e.fate in WRECKED:
        state = leave_formations(state, (e.unit_id,))
    if e.new_side is not None:
        # Out of the enemy's formation at once, standing where it was (ruling T-F7).
        state = _change_sides(taken(state, (e.unit_id,), None), e.unit_id, e.new_side)
    return state


def _change_sides(state: CampaignState, unit_id: str, side_id: str) -> CampaignState:
    """A captured unit joins its captor's TO&E without its crew (line 136)."""
    unit = state.units[unit_id]
    people = dict(state.people)
    ranks = [r for r in (UnitRole.FORCE_COMMANDER, UnitRole.LANCE_LEADER) if r in unit.roles]
    for seat, pid in enumerate(unit.crew):
        if pid in people:
            # The first seat of a commander's unit keeps the rank it held (L352).
            rank = ranks[0].value if ranks and seat == 0 else people[pid].rank
            people[pid] = copy_with(people[pid], unit_id=None, rank=rank)
    moved = copy_with(
        unit, side_id=side_id, company=SALVAGE_COMPANY, lance=SALVAGE_COMPANY, crew=()
    )
    return copy_with(state, units={**state.units, unit_id: moved}, people=people)


def person_after(person: Person, hits: int, fate: PersonFate, rolled: bool) -> Person:
    dead = fate in (PersonFate.KIA, PersonFate.DIED_OF_WOUNDS)
    return copy_with(
        person,
        hits=6 if dead else hits,
        status=PersonStatus.DEAD if dead else PersonStatus.ACTIVE,
        death_rolled=rolled or (person.death_rolled and hits == person.hits),
    )
