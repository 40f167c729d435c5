"""Reorganising formations one step at a time: create, split, merge, move a unit.

L153: "Reorganising Forces – Any forces may be moved between force elements (e.g. Lances). If
this is done the force element retains its Formation Type."
L178: "Players may reorganise formations at the start of any campaign turn."
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from turn_world import placed, run, started

from mekref.rules.messages import Command
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn.events import (
    FormationsReorganised,
    FormationTrainingBegun,
    OrdersSubmitted,
    is_private,
)
from mekref.rules.tripwire.turn.orders import (
    FormationOrder,
    ResolveTurn,
    SubmitOrders,
    WithdrawOrders,
)
from mekref.rules.tripwire.turn.reorganise import (
    ChangeFormationType,
    CreateFormation,
    MergeFormations,
    SplitFormation,
    TransferUnit,
)
from mekref.rules.tripwire.turn.setup import FormationSpec
from mekref.rules.tripwire.turn.state import Formation, StrategicState


def _state() -> CampaignState:
    return placed(
        started(),
        (
            FormationSpec(
                formation_id="alpha",
                name="Alpha",
                unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"),
                hex="0508",
                baggage_person_days=40,
            ),
            FormationSpec(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610"),
            FormationSpec(formation_id="hover", name="Hover", unit_ids=("L-MAX",), hex="0610"),
        ),
        (
            FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD", "R-AS7")),
            FormationSpec(formation_id="tanks", name="Tanks", unit_ids=("R-BLD",)),
        ),
    )


STATE = _state()


def _s(state: CampaignState) -> StrategicState:
    assert state.strategic is not None
    return state.strategic


def _refused(cmd: Command, state: CampaignState = STATE) -> Refusal:
    with pytest.raises(Refusal) as info:
        TRIPWIRE.execute(state, cmd)
    return info.value


def _with(state: CampaignState, *changed: Formation) -> CampaignState:
    s = _s(state)
    formations = {**s.formations, **{f.formation_id: f for f in changed}}
    return replace(state, strategic=replace(s, formations=formations))


def _untouched(before: CampaignState, after: CampaignState, *names: str) -> None:
    for fid in names:
        assert _s(after).formations[fid] == _s(before).formations[fid], fid


def test_create_from_units_standing_in_one_hex() -> None:
    # L178: "Players may reorganise formations at the start of any campaign turn."
    cmd = CreateFormation(
        actor="loyalist", side_id="loyalist", day=1, formation_id="scouts",
        name="Scouts", unit_ids=("L-LCT", "L-GRF"),
    )  # fmt: skip
    state, events = run(STATE, cmd)
    (e,) = events
    assert isinstance(e, FormationsReorganised) and e.action == "create"
    s = _s(state)
    assert s.formations["scouts"].unit_ids == ("L-LCT", "L-GRF")
    assert s.formations["scouts"].hex == "0508"
    assert s.formations["scouts"].baggage_person_days == 0
    assert s.formations["alpha"].unit_ids == ("L-WVR", "L-SHD")
    assert s.formations["alpha"].baggage_person_days == 40  # baggage stays with alpha (T-F1)
    _untouched(STATE, state, "air", "hover", "bravo", "tanks")


def test_create_refuses_units_standing_apart() -> None:
    # Ruling T-F1: "Only units standing in one hex may form a formation there".
    refusal = _refused(
        CreateFormation(
            actor="loyalist",
            side_id="loyalist",
            day=1,
            formation_id="mixed",
            unit_ids=("L-GRF", "L-MAX"),
        )
    )
    assert refusal.code == "reorganise_apart"
    assert "0508, 0610" in str(refusal) and "L153" in str(refusal)


def test_split_keeps_the_rest_and_the_baggage() -> None:
    cmd = SplitFormation(actor="loyalist", side_id="loyalist", day=1, formation_id="alpha",
                         unit_ids=("L-LCT",), new_formation_id="scout")  # fmt: skip
    state, _ = run(STATE, cmd)
    s = _s(state)
    assert (s.formations["scout"].unit_ids, s.formations["scout"].hex) == (("L-LCT",), "0508")
    assert s.formations["alpha"].unit_ids == ("L-GRF", "L-WVR", "L-SHD")
    assert s.formations["alpha"].baggage_person_days == 40
    _untouched(STATE, state, "air", "hover", "bravo", "tanks")
    every = replace(cmd, unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"))
    assert _refused(every).code == "split_all"
    assert _refused(replace(cmd, unit_ids=("L-MAX",))).code == "not_in_formation"
    assert _refused(replace(cmd, new_formation_id="air")).code == "duplicate_id"


def test_merge_two_formations_in_one_hex() -> None:
    cmd = MergeFormations(actor="loyalist", side_id="loyalist", day=1, formation_id="hover",
                          absorbed_id="air")  # fmt: skip
    state, events = run(STATE, cmd)
    s = _s(state)
    assert "air" not in s.formations
    assert s.formations["hover"].unit_ids == ("L-MAX", "L-RPR")
    (e,) = events
    assert isinstance(e, FormationsReorganised) and e.dissolved == ("air",)
    _untouched(STATE, state, "alpha", "bravo", "tanks")
    # Alpha stands in 0508, Air in 0610: they do not merge.
    assert _refused(replace(cmd, formation_id="alpha")).code == "reorganise_apart"
    assert _refused(replace(cmd, absorbed_id="hover")).code == "same_formation"


def test_move_a_unit_between_force_elements_in_one_hex() -> None:
    # L153: "Any forces may be moved between force elements (e.g. Lances)."
    cmd = TransferUnit(actor="loyalist", side_id="loyalist", day=1, unit_id="L-MAX",
                       to_formation_id="air")  # fmt: skip
    state, events = run(STATE, cmd)
    s = _s(state)
    assert s.formations["air"].unit_ids == ("L-RPR", "L-MAX")
    assert s.formations["air"].name == "Air"  # the element keeps what it is (L153)
    assert "hover" not in s.formations  # emptied: dissolved
    (e,) = events
    assert isinstance(e, FormationsReorganised) and e.dissolved == ("hover",)
    _untouched(STATE, state, "alpha", "bravo", "tanks")
    # The Griffin stands in 0508, Air in 0610.
    refusal = _refused(replace(cmd, unit_id="L-GRF"))
    assert refusal.code == "reorganise_apart"


def test_another_sides_formation_or_unit_is_answered_like_a_missing_one() -> None:
    theirs = _refused(
        MergeFormations(
            actor="loyalist", side_id="loyalist", day=1, formation_id="alpha", absorbed_id="bravo"
        )
    )
    missing = _refused(
        MergeFormations(
            actor="loyalist", side_id="loyalist", day=1, formation_id="alpha", absorbed_id="nobody"
        )
    )
    assert theirs.code == missing.code == "not_your_formation"
    assert str(theirs).replace("bravo", "X") == str(missing).replace("nobody", "X")
    unit = _refused(
        TransferUnit(
            actor="loyalist", side_id="loyalist", day=1, unit_id="R-JR7", to_formation_id="alpha"
        )
    )
    none = _refused(
        TransferUnit(
            actor="loyalist", side_id="loyalist", day=1, unit_id="R-XXX", to_formation_id="alpha"
        )
    )
    assert unit.code == none.code == "not_your_unit"
    assert str(unit).replace("R-JR7", "X") == str(none).replace("R-XXX", "X")


def test_ruling_t_f3_a_formation_with_orders_is_refused_until_they_are_withdrawn() -> None:
    # L178: reorganising comes "at the start of any campaign turn", before the orders.
    ordered, _ = run(
        STATE,
        SubmitOrders(
            actor="loyalist",
            side_id="loyalist",
            day=1,
            orders=(FormationOrder(formation_id="alpha", action="guard"),),
        ),
    )
    split = SplitFormation(actor="loyalist", side_id="loyalist", day=1, formation_id="alpha",
                           unit_ids=("L-LCT",), new_formation_id="scout")  # fmt: skip
    refusal = _refused(split, ordered)
    assert refusal.code == "has_orders" and "withdraw" in str(refusal)
    withdrawn, _ = run(
        ordered,
        WithdrawOrders(actor="loyalist", side_id="loyalist", day=1, formation_ids=("alpha",)),
    )
    after, _ = run(withdrawn, split)
    assert "scout" in _s(after).formations
    # The wrong day is refused too: formations are reorganised for the day being ordered.
    assert _refused(replace(split, day=2)).code == "wrong_day"


def test_ruling_t_f4_formations_in_orbit_do_not_regroup() -> None:
    # The rebels wait at the pirate point (hex ""): orbit is no hex of the map.
    merge = MergeFormations(actor="rebel", side_id="rebel", day=1, formation_id="bravo",
                            absorbed_id="tanks")  # fmt: skip
    refusal = _refused(merge)
    assert refusal.code == "in_orbit"
    landed = _with(
        STATE,
        replace(_s(STATE).formations["bravo"], hex="1712"),
        replace(_s(STATE).formations["tanks"], hex="1712"),
    )
    after, _ = run(landed, merge)
    assert _s(after).formations["bravo"].unit_ids == ("R-JR7", "R-MAD", "R-AS7", "R-BLD")


def test_ruling_t_f1_the_regrouped_formation_keeps_the_worst_counters() -> None:
    s = _s(STATE)
    tired = _with(
        STATE,
        replace(s.formations["air"], fatigue=1, days_on_rations=2),
        replace(s.formations["hover"], fatigue=3, days_since_maintenance=5),
    )
    after, _ = run(
        tired,
        MergeFormations(
            actor="loyalist", side_id="loyalist", day=1, formation_id="air", absorbed_id="hover"
        ),
    )
    air = _s(after).formations["air"]
    assert (air.fatigue, air.days_since_maintenance, air.days_on_rations) == (3, 5, 2)


def test_ruling_t_f2_units_in_no_formation_form_one_where_the_side_stands() -> None:
    s = _s(STATE)
    # The hover tank left its formation (say, recruited); it forms one where the side stands.
    loose = replace(STATE, strategic=replace(s, formations={
        k: f for k, f in s.formations.items() if k != "hover"}))  # fmt: skip
    cmd = CreateFormation(actor="loyalist", side_id="loyalist", day=1, formation_id="new",
                          unit_ids=("L-MAX",))  # fmt: skip
    assert _refused(cmd, loose).code == "no_hex"
    assert _refused(replace(cmd, hex="1818"), loose).code == "reorganise_apart"
    after, _ = run(loose, replace(cmd, hex="0610"))
    assert _s(after).formations["new"].hex == "0610"


def test_the_reorganisation_event_is_private_and_round_trips() -> None:
    _, events = run(
        STATE,
        TransferUnit(
            actor="loyalist", side_id="loyalist", day=1, unit_id="L-MAX", to_formation_id="air"
        ),
    )
    (e,) = events
    assert is_private(e)
    assert TRIPWIRE.events.from_json(TRIPWIRE.events.to_json(e)) == e
    # Over gRPC the side's own token runs it (RuleSet.acting_side names the side).
    move = TransferUnit(
        actor="x", side_id="loyalist", day=1, unit_id="L-MAX", to_formation_id="air"
    )
    assert TRIPWIRE.acting_side(STATE, move) == "loyalist"


def test_ruling_t_f5_the_kept_formation_keeps_baggage_and_leader() -> None:
    s = _s(STATE)
    led = _with(
        STATE,
        replace(s.formations["alpha"], carries_leader=True),
        replace(s.formations["hover"], carries_leader=True, baggage_person_days=12),
        replace(s.formations["air"], baggage_person_days=8),
    )
    split, _ = run(
        led,
        SplitFormation(
            actor="loyalist", side_id="loyalist", day=1, formation_id="alpha",
            unit_ids=("L-GRF",), new_formation_id="solo",
        ),
    )  # fmt: skip
    alpha, solo = _s(split).formations["alpha"], _s(split).formations["solo"]
    assert (alpha.carries_leader, alpha.baggage_person_days) == (True, 40)
    assert (solo.carries_leader, solo.baggage_person_days) == (False, 0)
    merged, _ = run(
        led,
        MergeFormations(
            actor="loyalist", side_id="loyalist", day=1, formation_id="air", absorbed_id="hover"
        ),
    )
    air = _s(merged).formations["air"]
    assert (air.carries_leader, air.baggage_person_days, air.name) == (True, 20, "Air")


def test_ruling_t_f6_a_formation_type_change_costs_100_sp_and_a_day_of_training() -> None:
    # L95: "| Change Formation Type | 100 (Requires 1 day of training) |"
    # L153: "If this is done the force element retains its Formation Type."
    def pool(pool_id: str, side: str, balance: int) -> OpenPool:
        return OpenPool(actor="referee", pool_id=pool_id, side_id=side, name=pool_id,
                        kind=PoolKind.LOCATION, location="Bagnorgeio",
                        opening_balance=balance)  # fmt: skip

    poor, _ = run(STATE, pool("cap", "loyalist", 99), pool("fdb", "rebel", 500))
    train = ChangeFormationType(actor="loyalist", side_id="loyalist", day=1, formation_id="alpha",
                                formation_type="Battle Lance", pool_id="cap")  # fmt: skip
    short = _refused(train, poor)
    assert short.code == "insufficient_wp" and "100 SP" in str(short) and "L95" in str(short)
    theirs, missing = (_refused(replace(train, pool_id=p), poor) for p in ("fdb", "nope"))
    assert theirs.code == missing.code == "not_your_pool"
    assert str(theirs).replace("fdb", "X") == str(missing).replace("nope", "X")

    rich, _ = run(STATE, pool("cap", "loyalist", 150))
    state, events = run(rich, train)
    (e,) = events
    assert isinstance(e, FormationTrainingBegun) and is_private(e)
    assert state.pools["cap"].balance == 50
    alpha = _s(state).formations["alpha"]
    assert (alpha.formation_type, alpha.training_type) == ("", "Battle Lance")
    # The training day: no action for alpha, no reorganising it either.
    state, events = run(
        state,
        SubmitOrders(actor="loyalist", side_id="loyalist", day=1, orders=(
            FormationOrder(formation_id="alpha", action="guard"),
            FormationOrder(formation_id="air", action="rest"),
        )),
    )  # fmt: skip
    (submitted,) = events
    assert isinstance(submitted, OrdersSubmitted)
    assert [(r.formation_id, r.code) for r in submitted.refused] == [("alpha", "training")]
    split = SplitFormation(actor="loyalist", side_id="loyalist", day=1, formation_id="alpha",
                           unit_ids=("L-LCT",), new_formation_id="scout")  # fmt: skip
    assert _refused(split, state).code == "training"
    # From the next day alpha is a Battle Lance, and keeps it when units leave it (L153).
    state, _ = run(state, ResolveTurn(actor="referee", day=1))
    alpha = _s(state).formations["alpha"]
    assert (alpha.formation_type, alpha.training_type) == ("Battle Lance", "")
    state, _ = run(state, replace(split, day=2))
    assert _s(state).formations["alpha"].formation_type == "Battle Lance"
    assert _s(state).formations["scout"].formation_type == ""
    assert _refused(replace(train, day=2), state).code == "same_type"
