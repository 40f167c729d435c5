"""Which units are still in play, and which can hold ground: one judgement for every rule.

L145-L146: a 'Mech "is only truly destroyed when its center torso internal structure is
eliminated. In that instance ... it cannot be repaired." A truly (or utterly) destroyed unit,
like a sold or scrapped one, has left play for good (:func:`out_of_play`): it leaves its
formation, goes out in no later scenario file and is never counted again as force or loss;
the report still lists it (its wreck can be scrapped, its crew is in the books). Ruling
R-VP-7 (docs/rulings.md).

L426: "Each location which has at least a subforce (e.g. Lance) of units garrisoning it
unopposed scores 1 Victory Point." L136: the side controlling the field "take[s] control of
the 'Mech and may either keep it ... or sell it." A unit *holds ground*
(:func:`holds_ground`) when it is in play and stands in the field: operational, damaged or
retreated, or salvage its captor has kept and crewed. Garrisons, control, contest, Martial
Law, a formation still in a hex after a battle and the seat of power's escort all count with
this one function (ruling R-VP-4).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.state import CampaignState, CampaignUnit, PersonStatus
from mekref.rules.tripwire.turn.state import Formation

#: The company a captured unit joins until it is kept or sold (line 136).
SALVAGE_COMPANY = "Salvage"

#: Fates after which a unit never returns to operation (L145-L146).
WRECKED = frozenset({Fate.TRULY_DESTROYED, Fate.UTTERLY_DESTROYED})

#: Fates of a unit standing in the field (a unit never in a battle has none: operational).
_STANDING = frozenset({Fate.OPERATIONAL, Fate.DAMAGED, Fate.RETREATED})


def out_of_play(state: CampaignState, unit_id: str) -> str:
    """Why the unit has left play for good; "" while it is in play."""
    led = state.battles
    if unit_id not in state.units:
        return "the unit is not in the campaign"
    if unit_id in led.sold:
        return "the unit was sold"
    if unit_id in led.scrapped:
        return "the unit was scrapped"
    if led.fates.get(unit_id) in WRECKED:
        return "the unit is truly destroyed"
    return ""


def in_play(state: CampaignState, unit_id: str) -> bool:
    return not out_of_play(state, unit_id)


def crew_aboard(state: CampaignState, unit: CampaignUnit) -> tuple[str, ...]:
    """The unit's crew who can serve in it: alive, free, of its side, seated in it."""
    if not in_play(state, unit.unit_id):
        return ()
    out = []
    for pid in unit.crew:
        p = state.people.get(pid)
        if (
            p is not None
            and p.status is not PersonStatus.DEAD
            and pid not in state.battles.captured_people
            and p.side_id == unit.side_id
            and p.unit_id == unit.unit_id
        ):
            out.append(pid)
    return tuple(out)


def kept_and_crewed(state: CampaignState, unit_id: str) -> bool:
    """Captured salvage its captor has kept (it left the Salvage company for a lance, L136)
    and crewed (``salvage seat``): from then on it stands for its new side."""
    unit = state.units.get(unit_id)
    return (
        unit is not None
        and state.battles.fates.get(unit_id) is Fate.CAPTURED
        and unit.company != SALVAGE_COMPANY
        and bool(crew_aboard(state, unit))
    )


def holds_ground(state: CampaignState, unit_id: str) -> bool:
    """Whether the unit can hold ground today (R-VP-4): in play, and operational, damaged or
    retreated, or kept and crewed salvage. A wreck (destroyed, repairable or not, until it is
    repaired), salvage not yet kept or crewed, and a missing unit do not."""
    if not in_play(state, unit_id):
        return False
    fate = state.battles.fates.get(unit_id)
    return fate is None or fate in _STANDING or kept_and_crewed(state, unit_id)


def leave_formations(state: CampaignState, unit_ids: Iterable[str]) -> CampaignState:
    """``unit_ids``, which have left play (or their side: captured, :mod:`.captured_units`),
    leave their formations on the strategic map at once; a formation left with no unit is
    dissolved, with its orders (L145-L146: the wreck is no force any more, and goes out in no
    later scenario)."""
    s = state.strategic
    gone = set(unit_ids)
    if s is None or not gone:
        return state
    if gone & s.captured_at.keys():
        # A captured unit standing in no formation (T-F7) that leaves play stands nowhere.
        captured_at = {u: h for u, h in s.captured_at.items() if u not in gone}
        s = replace(s, captured_at=captured_at)
        state = replace(state, strategic=s)
    if not any(u in gone for f in s.formations.values() for u in f.unit_ids):
        return state
    formations: dict[str, Formation] = {}
    dissolved: set[str] = set()
    for fid, f in s.formations.items():
        kept = tuple(u for u in f.unit_ids if u not in gone)
        if kept:
            formations[fid] = f if kept == f.unit_ids else replace(f, unit_ids=kept)
        else:
            dissolved.add(fid)
    orders = {
        side: tuple(o for o in given if o.formation_id not in dissolved)
        for side, given in s.orders.items()
    }
    return replace(state, strategic=replace(s, formations=formations, orders=orders))


#: Fates of a unit destroyed in a battle, repairable or not (L162: "If the unit is destroyed").
_DESTROYED = frozenset({Fate.DESTROYED_REPAIRABLE, *WRECKED})


def escorts_lost(
    state: CampaignState, battle_id: str, fates: Iterable[tuple[str, Fate]]
) -> CampaignState:
    """L162: "Each leader can be escorted by a platoon of infantry or a squad of BattleArmor
    ... If the unit is destroyed the leader can be captured." Records the battle in which a
    side's leader-carrying formation lost an infantry or battle armor unit; called before the
    wrecks leave their formations, which would forget who escorted the leader (ruling T-L1)."""
    s = state.strategic
    if s is None:
        return state
    destroyed = {u for u, fate in fates if fate in _DESTROYED}
    lost = dict(s.escorts_lost)
    for f in s.formations.values():
        if (
            f.carries_leader
            and f.side_id not in lost
            and any(
                u in destroyed and u in state.units and state.units[u].kind.is_infantry
                for u in f.unit_ids
            )
        ):
            lost[f.side_id] = battle_id
    if lost == s.escorts_lost:
        return state
    return replace(state, strategic=replace(s, escorts_lost=lost))
