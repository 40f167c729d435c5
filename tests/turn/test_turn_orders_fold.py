"""Orders are folded once per decision, each into its formation's place (issue 28).

A side's orders for the day are kept sorted by formation id, one each. A submission used to
rebuild and sort all of them, and its decision folded its event twice (once for the end check,
once by whoever keeps the state); the results must be what they were.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from turn_world import placed, run, started

from mekref.rules.messages import Event
from mekref.rules.tripwire.battle_model import Fate
from mekref.rules.tripwire.game import END_NEUTRAL_EVENTS, TRIPWIRE
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.events import CampaignEnded, OrdersSubmitted, OrdersWithdrawn
from mekref.rules.tripwire.turn.orders import FormationOrder, SubmitOrders, orders_of
from mekref.rules.tripwire.turn.setup import FormationSpec

Order = FormationOrder


def _state() -> CampaignState:
    return placed(
        started(),
        (
            FormationSpec(formation_id="alpha", name="Alpha", unit_ids=("L-GRF",), hex="0508"),
            FormationSpec(formation_id="hover", name="Hover", unit_ids=("L-MAX",), hex="0610"),
        ),
        (FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7",)),),
    )


def _by_rebuild(
    kept: dict[str, tuple[FormationOrder, ...]], e: Event
) -> dict[str, tuple[FormationOrder, ...]]:
    """The side's orders after ``e`` as the evolvers gave them before: every order of the side
    in a dict by formation, the new ones over them, sorted again."""
    if isinstance(e, OrdersSubmitted):
        by_id = {o.formation_id: o for o in kept.get(e.side_id, ())}
        by_id.update({o.formation_id: o for o in e.orders})
        return {**kept, e.side_id: tuple(by_id[k] for k in sorted(by_id))}
    assert isinstance(e, OrdersWithdrawn)
    gone = set(e.formation_ids)
    return {
        **kept,
        e.side_id: tuple(o for o in kept.get(e.side_id, ()) if o.formation_id not in gone),
    }


def test_each_order_takes_its_formations_place_as_a_rebuild_and_sort_gave() -> None:
    """Random submissions and withdrawals (formation ids that sort as text: upper case before
    lower, "f10" before "f2"): the side's orders after each are those the old fold gave."""
    rng = random.Random(28)
    ids = [f"f{n}" for n in range(14)] + ["Zulu", "alpha", "ab", "a"]
    actions = ("rest", "guard", "recon")
    state = _state()
    expected = dict(state.strategic.orders) if state.strategic else {}
    for step in range(400):
        side = rng.choice(("loyalist", "rebel"))
        e: Event
        if rng.random() < 0.75:
            chosen = rng.sample(ids, rng.randint(1, 5))
            e = OrdersSubmitted(
                side_id=side,
                day=1,
                orders=tuple(Order(formation_id=f, action=rng.choice(actions)) for f in chosen),
                actor=side,
            )
        else:
            e = OrdersWithdrawn(
                side_id=side, day=1, formation_ids=tuple(rng.sample(ids, 2)), actor=side
            )
        state = TRIPWIRE.evolve(state, e)
        expected = _by_rebuild(expected, e)
        assert state.strategic is not None
        assert state.strategic.orders == expected, step
    assert len(orders_of(state, "loyalist")) > 5  # the walk did fill the lists


def test_an_order_is_folded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The decision checks the campaign's end without folding the orders; keeping the state
    folds them once."""
    folds: list[OrdersSubmitted] = []
    evolver = TRIPWIRE.evolvers[OrdersSubmitted]

    def counted(state: CampaignState, e: OrdersSubmitted) -> CampaignState:
        folds.append(e)
        return evolver(state, e)

    monkeypatch.setitem(TRIPWIRE.evolvers, OrdersSubmitted, counted)
    state = _state()
    cmd = SubmitOrders(
        actor="loyalist",
        side_id="loyalist",
        day=1,
        orders=(Order(formation_id="alpha", action="rest"),),
    )
    events = TRIPWIRE.decide(state, cmd, TRIPWIRE.dice_for(state))
    assert [type(e) for e in events] == [OrdersSubmitted] and folds == []
    after, _ = run(state, cmd)
    assert len(folds) == 1
    assert [o.action for o in orders_of(after, "loyalist")] == ["rest"]


def _end_inputs(state: CampaignState) -> tuple[object, ...]:
    s = state.strategic
    assert s is not None
    return (
        state.units,
        state.battles,
        state.sides,
        s.starting_bv,
        s.leader_captured,
        s.vp,
        s.ended,
    )


def test_the_events_an_end_check_skips_leave_everything_it_reads() -> None:
    """Every event type the end check does not fold: folded, it leaves each object the check
    reads (units, battles, sides, starting BV, captured leaders, VP, the end) the same object."""
    state = _state()
    samples: dict[type[Event], Event] = {
        OrdersSubmitted: OrdersSubmitted(
            side_id="loyalist", day=1, orders=(Order(formation_id="alpha", action="rest"),),
            actor="loyalist",
        ),
        OrdersWithdrawn: OrdersWithdrawn(
            side_id="loyalist", day=1, formation_ids=("alpha",), actor="loyalist"
        ),
    }  # fmt: skip
    assert set(samples) == END_NEUTRAL_EVENTS  # a new type there needs its sample here
    for kind, event in samples.items():
        after = TRIPWIRE.evolve(state, event)
        assert all(a is b for a, b in zip(_end_inputs(after), _end_inputs(state), strict=True)), (
            kind
        )


def test_orders_on_a_campaign_past_its_end_still_end_it() -> None:
    """A state already past an end condition (lines 412-414) but not marked ended: a side's
    orders end it, as the fold before the end check did."""
    state = _state()
    wrecked = {u: Fate.TRULY_DESTROYED for u in ("R-AS7", "R-BLD")}
    state = replace(state, battles=replace(state.battles, fates={**state.battles.fates, **wrecked}))
    assert state.strategic is not None and state.strategic.ended == ""
    cmd = SubmitOrders(
        actor="loyalist",
        side_id="loyalist",
        day=1,
        orders=(Order(formation_id="alpha", action="rest"),),
    )
    events = TRIPWIRE.decide(state, cmd, TRIPWIRE.dice_for(state))
    assert [type(e) for e in events] == [OrdersSubmitted, CampaignEnded]
    (ended,) = [e for e in events if isinstance(e, CampaignEnded)]
    assert ended.reason.startswith("rebel fell below 50% of its starting BV")
