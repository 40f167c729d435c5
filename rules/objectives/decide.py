"""The objective tracker's decisions: set-up, claims, scans, searches, passing, dropping,
destruction and extraction, each refusing with the rule line when the table-top facts given
do not allow it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event
from mekref.rules.objectives import commands as c
from mekref.rules.objectives import events as e
from mekref.rules.objectives.model import (
    DropReason,
    Objective,
    ObjectivesState,
    ObjectiveStatus,
    Squad,
)
from mekref.rules.objectives.setup import add_squad, place, set_up, standing
from mekref.rules.objectives.table_loader import load_tables
from mekref.rules.refusal import Refusal, known


def _objective(state: ObjectivesState, objective_id: str) -> Objective:
    obj = known(state.objectives, objective_id, "unknown_objective", "no objective {!r}")
    if obj.status in (ObjectiveStatus.REMOVED, ObjectiveStatus.DESTROYED):
        raise Refusal("objective_gone", f"objective {objective_id!r} is out of the game")
    if obj.status is ObjectiveStatus.EXTRACTED:
        raise Refusal("objective_gone", f"objective {objective_id!r} was extracted")
    if obj.status is ObjectiveStatus.UNPLACED:
        raise Refusal(
            "unplaced",
            f"objective {objective_id!r} has not been placed yet: place it with OBJPlaceObjective",
            load_tables().placement_turns_ref,
        )
    return obj


def _squad(state: ObjectivesState, squad_id: str) -> Squad:
    squad = known(state.squads, squad_id, "unknown_squad", "no squad {!r}")
    if squad.destroyed:
        raise Refusal("squad_destroyed", f"squad {squad_id!r} has been destroyed")
    return squad


def _same_garrison(obj: Objective, squad: Squad) -> None:
    # Line 7: "Objectives inside Garrisons may only be interacted with by a unit inside that
    # same Garrison." Ruling OBJ-2: the wall works both ways, as the pass and drop rules say.
    if obj.garrison != squad.garrison:
        raise Refusal(
            "garrison_wall",
            f"squad {squad.squad_id!r} ({squad.garrison or 'outside'}) cannot reach objective "
            f"{obj.objective_id!r} ({obj.garrison or 'outside'})",
            load_tables().placement_ref,
        )


def _claimer(squad: Squad) -> None:
    if not squad.may_carry:
        raise Refusal(
            "not_infantry_or_vehicle",
            f"squad {squad.squad_id!r} is neither Infantry nor Vehicle",
            load_tables().claim_ref,
        )


def _on_table(squad: Squad) -> None:
    # Line 13 claims need a unit "within 2\" of the Objective or in the same Garrison"; a squad
    # embarked in an Aircraft (line 31) is neither, so it neither claims nor searches.
    if squad.in_aircraft:
        raise Refusal(
            "embarked",
            f"squad {squad.squad_id!r} is embarked in an Aircraft, not on the table",
            load_tables().claim_ref,
        )


def _spend_actions(state: ObjectivesState, squad: Squad, cost: int, what: str) -> None:
    """Two actions a round (ruling OBJ-9): a search or scan takes both, a move one."""
    t = load_tables()
    if state.round < 1:
        return  # before the first round (deployment) nothing is counted
    used = squad.actions_used_in(state.round)
    if used + cost > t.actions_per_round:
        raise Refusal(
            "no_actions_left",
            f"squad {squad.squad_id!r} has used {used} of its {t.actions_per_round} actions in "
            f"round {state.round}; {what} needs {cost}",
            t.actions_ref,
        )


def _start_round(state: ObjectivesState, cmd: c.StartRound, dice: Dice) -> list[Event]:
    if cmd.round != state.round + 1:
        raise Refusal("bad_round", f"round {state.round + 1} comes next, not {cmd.round}")
    left = sorted(o for o, x in state.objectives.items() if x.status is ObjectiveStatus.UNPLACED)
    if left:
        raise Refusal(
            "placement_unfinished",
            f"objectives {', '.join(left)} are still to be placed ({state.next_placer()} "
            "places next)",
            load_tables().placement_time_ref,
        )
    return [e.RoundStarted(round=cmd.round)]


def _claiming(state: ObjectivesState, cmd: c.Claim | c.Search) -> tuple[Objective, Squad]:
    """The objective and the squad of a claim or a search, once the squad may claim, is on
    the table and shares the objective's garrison."""
    obj = _objective(state, cmd.objective_id)
    squad = _squad(state, cmd.squad_id)
    _claimer(squad)
    _on_table(squad)
    _same_garrison(obj, squad)
    return obj, squad


def _claim(state: ObjectivesState, cmd: c.Claim, dice: Dice) -> list[Event]:
    t = load_tables()
    obj, squad = _claiming(state, cmd)
    if obj.hidden:
        raise Refusal("hidden", "a Hidden Objective must be discovered by a search first")
    if obj.status is ObjectiveStatus.CARRIED:
        raise Refusal("carried", f"objective {obj.objective_id!r} is carried by {obj.carrier!r}")
    if obj.claimed_by == squad.side:
        raise Refusal("already_claimed", f"{squad.side!r} already holds {obj.objective_id!r}")
    if obj.claimed_by is not None and cmd.enemies_qualify:
        # Line 13: a reclaim needs "no enemy units that also meet that criteria". Ruling
        # OBJ-1: a first claim of an unclaimed objective is not blocked by enemies in range.
        raise Refusal("contested", "an enemy unit also meets the claim criteria", t.claim_ref)
    if obj.mobile and squad.carrying is not None:
        raise Refusal("hands_full", f"squad {squad.squad_id!r} already carries", t.carry_ref)
    return [_claimed(obj.objective_id, squad, "claim", obj.mobile, obj.claimed_by)]


def _claimed(
    objective_id: str, squad: Squad, how: str, carried: bool, previous_side: str | None
) -> e.Claimed:
    """The squad claims the objective for its side (and carries it when it is mobile)."""
    return e.Claimed(
        objective_id=objective_id,
        squad_id=squad.squad_id,
        side=squad.side,
        carried=carried,
        previous_side=previous_side,
        how=how,
    )


def _scan(state: ObjectivesState, cmd: c.Scan, dice: Dice) -> list[Event]:
    t = load_tables()
    squad = _squad(state, cmd.squad_id)
    if not squad.may_scan:
        raise Refusal("cannot_scan", "only a Transport without the Aircraft type scans", t.scan_ref)
    if squad.scan_token:
        raise Refusal("has_scan_token", "a unit may only have 1 Scan Token at a time", t.scan_ref)
    _spend_actions(state, squad, t.scan_action_cost, "a scan")
    return [e.ScanTokenPlaced(squad_id=squad.squad_id)]


def _move(state: ObjectivesState, cmd: c.MoveSquad, dice: Dice) -> list[Event]:
    squad = _squad(state, cmd.squad_id)
    standing(state, cmd.garrison)
    _spend_actions(state, squad, load_tables().move_action_cost, "a Moving action")
    return [
        e.SquadMoved(
            squad_id=squad.squad_id,
            garrison=cmd.garrison,
            in_aircraft=cmd.in_aircraft,
            # "If the Transport makes a Moving action, remove its Scan Token." (line 25)
            scan_token_removed=squad.scan_token,
        )
    ]


def search_roll_name(objective_id: str, squad_id: str) -> str:
    return f"objective search, {objective_id}, squad {squad_id}"


def _search(state: ObjectivesState, cmd: c.Search, dice: Dice) -> list[Event]:
    t = load_tables()
    obj, squad = _claiming(state, cmd)
    if not obj.hidden:
        raise Refusal("not_hidden", f"objective {obj.objective_id!r} is not hidden")
    if state.round < 1:
        raise Refusal("no_round", "searches are made in a round: start round 1 first")
    _spend_actions(state, squad, t.search_action_cost, "a search")
    if obj.mobile and squad.carrying is not None:
        # Ruling OBJ-4: a find is claimed at once, and a squad carries one objective only.
        raise Refusal("hands_full", "the searcher already carries an objective", t.carry_ref)
    if len(set(cmd.scan_tokens)) != len(cmd.scan_tokens):
        raise Refusal("bad_tokens", "each Scan Token is spent once")
    for token_owner in cmd.scan_tokens:
        owner = _squad(state, token_owner)
        if owner.side != squad.side or not owner.scan_token:
            raise Refusal(
                "bad_tokens", f"{token_owner!r} has no friendly Scan Token to spend", t.scan_ref
            )
    roll, _ = dice.roll(search_roll_name(obj.objective_id, squad.squad_id), t.search_dice)
    enemy = t.search_enemy_modifier if cmd.enemies_near else 0
    bonus = t.scan_bonus_per_token * len(cmd.scan_tokens)
    # Line 23: the die, -1 for enemies, plus the round; line 25: +1 per spent token.
    total = roll.total + enemy + bonus + state.round
    found = total >= t.search_target
    out: list[Event] = [
        e.SearchMade(
            objective_id=obj.objective_id,
            squad_id=squad.squad_id,
            round=state.round,
            die=roll.total,
            enemy_modifier=enemy,
            scan_bonus=bonus,
            total=total,
            found=found,
            tokens_spent=cmd.scan_tokens,
            rolls=(roll,),
        )
    ]
    if found:
        out.append(_claimed(obj.objective_id, squad, "search", obj.mobile, obj.claimed_by))
    return out


def _pass(state: ObjectivesState, cmd: c.Pass, dice: Dice) -> list[Event]:
    t = load_tables()
    giver = _squad(state, cmd.from_squad)
    taker = _squad(state, cmd.to_squad)
    if giver.carrying is None:
        raise Refusal("not_carrying", f"squad {giver.squad_id!r} carries no objective")
    if giver.squad_id == taker.squad_id:
        raise Refusal("bad_pass", "a squad cannot pass an objective to itself")
    if taker.side != giver.side:
        raise Refusal("bad_pass", "objectives are passed to a friendly squad", t.pass_ref)
    _claimer(taker)
    if taker.carrying is not None:
        raise Refusal("hands_full", f"squad {taker.squad_id!r} already carries", t.carry_ref)
    if taker.garrison != giver.garrison:
        raise Refusal("garrison_wall", "a pass cannot cross a Garrison's walls", t.pass_ref)
    return [
        e.Passed(objective_id=giver.carrying, from_squad=giver.squad_id, to_squad=taker.squad_id)
    ]


def _auto_claim(
    state: ObjectivesState, dropper: Squad, objective_id: str, listed: tuple[str, ...]
) -> list[Event]:
    """Who picks up a forced drop (line 37): one opposing player's squad, or nobody.

    Ruling OBJ-3: inside a Garrison the claimants are the enemy squads in that Garrison (mekref
    knows them); outside, the squads the command lists as within 1", which must be outside
    Garrisons too. Exactly one opposing side must be present; its first listed squad that can
    carry the objective takes it. No such squad: the objective lies unclaimed.
    """
    if dropper.garrison is not None:
        candidates = [
            s
            for s in sorted(state.squads.values(), key=lambda s: s.squad_id)
            if s.garrison == dropper.garrison and s.side != dropper.side and not s.destroyed
        ]
        candidates.sort(key=lambda s: listed.index(s.squad_id) if s.squad_id in listed else 99)
    else:
        candidates = [_squad(state, sid) for sid in listed]
        for s in candidates:
            if s.side == dropper.side:
                raise Refusal("bad_claimant", f"squad {s.squad_id!r} is not an enemy")
            if s.garrison is not None:
                raise Refusal("garrison_wall", f"squad {s.squad_id!r} is inside a Garrison")
    if len({s.side for s in candidates}) != 1:
        return []
    for s in candidates:
        if s.may_carry and s.carrying is None and not s.in_aircraft:
            return [_claimed(objective_id, s, "drop", True, None)]
    return []


def _drop(state: ObjectivesState, cmd: c.Drop, dice: Dice) -> list[Event]:
    squad = _squad(state, cmd.squad_id)
    if squad.carrying is None:
        raise Refusal("not_carrying", f"squad {squad.squad_id!r} carries no objective")
    if cmd.reason is DropReason.CARRIER_DESTROYED:
        raise Refusal("bad_reason", "report a destroyed carrier with OBJDestroySquad")
    out: list[Event] = [
        e.Dropped(
            objective_id=squad.carrying,
            squad_id=squad.squad_id,
            reason=cmd.reason,
            garrison=squad.garrison,
        )
    ]
    if cmd.reason is DropReason.CHOSEN:
        # Ruling OBJ-3: "A dropped Objective automatically becomes unclaimed"; the enemy pick-up
        # follows the forced drops the same passage describes.
        if cmd.enemy_squads_within_1:
            raise Refusal("bad_claimant", "a chosen drop is not picked up by the enemy")
        return out
    return out + _auto_claim(state, squad, squad.carrying, cmd.enemy_squads_within_1)


def _destroy_squad(state: ObjectivesState, cmd: c.DestroySquad, dice: Dice) -> list[Event]:
    squad = _squad(state, cmd.squad_id)
    out: list[Event] = []
    carried = squad.carrying
    if carried is not None and squad.in_aircraft:
        out.append(e.ObjectiveDestroyed(objective_id=carried, squad_id=squad.squad_id))
    elif carried is not None:
        out.append(
            e.Dropped(
                objective_id=carried,
                squad_id=squad.squad_id,
                reason=DropReason.CARRIER_DESTROYED,
                garrison=squad.garrison,
            )
        )
        killer = None if cmd.close_quarters_by is None else _squad(state, cmd.close_quarters_by)
        if killer is not None and killer.side == squad.side:
            raise Refusal("bad_claimant", "a Close Quarters kill is made by an enemy squad")
        if killer is not None and killer.may_carry and killer.carrying is None:
            out.append(_claimed(carried, killer, "close_quarters", True, squad.side))
        else:
            # Ruling OBJ-5: a killer that cannot carry it leaves an ordinary forced drop.
            out += _auto_claim(state, squad, carried, cmd.enemy_squads_within_1)
    return [*out, e.SquadDestroyed(squad_id=squad.squad_id)]


def _destroy_garrison(state: ObjectivesState, cmd: c.DestroyGarrison, dice: Dice) -> list[Event]:
    if cmd.garrison in state.destroyed_garrisons:
        raise Refusal("garrison_destroyed", f"Garrison {cmd.garrison!r} is already destroyed")
    out: list[Event] = [
        e.ObjectiveRemoved(objective_id=o.objective_id, garrison=cmd.garrison)
        for o in sorted(state.objectives.values(), key=lambda o: o.objective_id)
        if o.garrison == cmd.garrison and o.status is ObjectiveStatus.ON_TABLE
    ]
    # Ruling OBJ-13: the squads inside stand outside the ruin; the referee records any losses.
    inside = tuple(
        sid
        for sid, q in sorted(state.squads.items())
        if q.garrison == cmd.garrison and not q.destroyed
    )
    return [*out, e.GarrisonDestroyed(garrison=cmd.garrison, squads_out=inside)]


def _extract(state: ObjectivesState, cmd: c.Extract, dice: Dice) -> list[Event]:
    obj = _objective(state, cmd.objective_id)
    if obj.status is not ObjectiveStatus.CARRIED or obj.carrier is None or obj.claimed_by is None:
        raise Refusal("not_carried", "only a carried objective can be extracted")
    return [e.Extracted(objective_id=obj.objective_id, squad_id=obj.carrier, side=obj.claimed_by)]


DECIDERS: dict[type[Command], Callable[[ObjectivesState, Any, Dice], list[Event]]] = {
    c.SetUpScenario: set_up,
    c.PlaceObjective: place,
    c.AddSquad: add_squad,
    c.StartRound: _start_round,
    c.Claim: _claim,
    c.Scan: _scan,
    c.MoveSquad: _move,
    c.Search: _search,
    c.Pass: _pass,
    c.Drop: _drop,
    c.DestroySquad: _destroy_squad,
    c.DestroyGarrison: _destroy_garrison,
    c.Extract: _extract,
}
