"""Operation TripWire (the Chaos Campaign) as one rule-set value the kernel runs.

The tables below list every TripWire command with its decider and every event with its
evolver, from the modules that hold them: the campaign basics (:mod:`.campaign`), battles
(:mod:`.battles`), spending between tracks (:mod:`.spending_units`, :mod:`.spending_people`),
kept salvage and seated crews (:mod:`.toe`) and the strategic turn (:mod:`.turn.plugin`).
TripWire's deciders also consult the rule tables (:class:`~.ruleset.TripWire`);
:func:`_with_tables` hands them over.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from mekref.rules.dice import Dice
from mekref.rules.kernel import Decider, RuleSet
from mekref.rules.messages import Command, Event
from mekref.rules.tripwire import (
    battles,
    bombs,
    campaign,
    configurations,
    designs,
    house_acquisition,
    house_xp,
    import_condition,
    recruit_skills,
    spending_people,
    spending_units,
    toe,
    unit_bv,
    wounds,
)
from mekref.rules.tripwire.acting_side import acting_side
from mekref.rules.tripwire.battle_files import TripWireBattleFiles
from mekref.rules.tripwire.campaign import Decider as TripWireDecider
from mekref.rules.tripwire.campaign import Evolver
from mekref.rules.tripwire.commands import CreateCampaign
from mekref.rules.tripwire.ruleset import tripwire_rules
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import plugin as turn
from mekref.rules.tripwire.turn.events import CampaignEnded, OrdersSubmitted, OrdersWithdrawn
from mekref.rules.tripwire.turn.state import StrategicState
from mekref.rules.tripwire.turn.victory import end_reason
from mekref.rules.tripwire.turn.view import SideView
from mekref.rules.tripwire.visibility import TripWireViews


def _call_with_tables(
    decider: TripWireDecider, state: CampaignState, command: Any, dice: Dice
) -> list[Event]:
    events = decider(state, command, dice, tripwire_rules())
    # House rules L154 (a campaign created with them): a battle resolved by this decision gives
    # its survivors experience (ruling HOUSE-36); nothing otherwise.
    events = [*events, *house_xp.gained(state, events)]
    return [*events, *_ending(state, events)]


#: Events whose evolvers change only a side's orders (``StrategicState.orders``) and the log's
#: bookkeeping: none of what the end check reads (the units, battles, sides, starting BV,
#: captured leaders, VP, ``ended``). A test folds each and checks those are the same objects.
END_NEUTRAL_EVENTS: frozenset[type[Event]] = frozenset({OrdersSubmitted, OrdersWithdrawn})


def _ending(state: CampaignState, events: list[Event]) -> list[Event]:
    """The campaign ends itself: when a decision (a battle's result, a unit's fate, a sale)
    reaches an end condition of lines 412-414 or 162, a ``CampaignEnded`` event says why.
    The kernel's ``over`` stays unset: after the end, orders and days are refused
    (``campaign_over``) but the end-of-campaign business (L351 ransom) goes on."""
    if state.strategic is None or state.strategic.ended or not events:
        return []
    # Orders change nothing the end check reads: their decision is checked on the state it
    # was made on, with no fold of its events (the runner folds them once, to keep the state).
    neutral = all(type(e) in END_NEUTRAL_EVENTS for e in events)
    after = state if neutral else TRIPWIRE.fold(events, state)
    s = after.strategic
    if s is None or s.ended:
        return []
    reason = _end_reason(after, s)
    return [CampaignEnded(reason=reason)] if reason else []


#: The last end check: the objects it read, and its answer. The state is immutable (every
#: evolver builds new dicts and tuples), so the same objects give the same answer. Most
#: decisions (a side's orders, a note) leave every input of the end check as it was, and the
#: check sums every unit's BV: this skips it then. One entry, replaced whole (thread-safe);
#: it holds the objects, so their ids cannot be reused while it does.
_last_end: tuple[tuple[object, ...], dict[str, int], str] | None = None


def _end_reason(state: CampaignState, s: StrategicState) -> str:
    global _last_end
    inputs = (state.units, state.battles, state.sides, s.starting_bv, s.leader_captured)
    last = _last_end
    if (
        last is not None
        and all(a is b for a, b in zip(last[0], inputs, strict=True))
        and last[1] == s.vp
    ):
        return last[2]
    reason = end_reason(state, s, s.vp)
    _last_end = (inputs, dict(s.vp), reason)
    return reason


def _with_tables(
    *tables: Mapping[type[Command], TripWireDecider],
) -> dict[type[Command], Decider[CampaignState]]:
    merged: dict[type[Command], Decider[CampaignState]] = {}
    for table in tables:
        for command, decider in table.items():
            if command in merged:
                raise ValueError(f"{command.__name__} has two deciders")
            merged[command] = partial(_call_with_tables, decider)
    return merged


def _merged(*tables: Mapping[type[Event], Evolver]) -> dict[type[Event], Evolver]:
    merged: dict[type[Event], Evolver] = {}
    for table in tables:
        for event, evolver in table.items():
            if event in merged:
                raise ValueError(f"{event.__name__} has two evolvers")
            merged[event] = evolver
    return merged


TRIPWIRE: RuleSet[CampaignState] = RuleSet(
    name="tripwire",
    title="Operation TripWire (Chaos Campaign)",
    state_type=CampaignState,
    deciders=_with_tables(
        campaign.DECIDERS,
        wounds.DECIDERS,
        battles.DECIDERS,
        designs.DECIDERS,
        spending_units.DECIDERS,
        spending_people.DECIDERS,
        toe.DECIDERS,
        turn.DECIDERS,
        bombs.DECIDERS,
        recruit_skills.DECIDERS,
        house_xp.DECIDERS,
        house_acquisition.DECIDERS,
        unit_bv.DECIDERS,
        import_condition.DECIDERS,
        configurations.DECIDERS,
    ),
    evolvers=_merged(
        campaign.EVOLVERS,
        wounds.EVOLVERS,
        battles.EVOLVERS,
        designs.EVOLVERS,
        spending_units.EVOLVERS,
        spending_people.EVOLVERS,
        toe.EVOLVERS,
        turn.EVOLVERS,
        bombs.EVOLVERS,
        house_xp.EVOLVERS,
        house_acquisition.EVOLVERS,
        unit_bv.EVOLVERS,
        import_condition.EVOLVERS,
        configurations.EVOLVERS,
    ),
    setup=(CreateCampaign,),
    started=lambda state: state.created,
    not_started=("no_campaign", "create the campaign first"),
    acting_side=acting_side,
    views=TripWireViews(),
    side_view_type=SideView,
    battle_files=TripWireBattleFiles(),
)
