"""The orders contract: refusals (with the field they concern), replacing and withdrawing
orders, reorganising formations, and secrecy (a side's view never shows the enemy's hidden
formations or orders)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from turn_world import REFEREE, placed, run, started

from mekref.rules.codec import canonical_json
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn.events import OrdersSubmitted, is_private
from mekref.rules.tripwire.turn.orders import (
    FormationOrder,
    ResolveTurn,
    SubmitOrders,
    WithdrawOrders,
    actions,
    orders_of,
    side_view,
)
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations

# This rule set's message codec (names kept from the shared registry).
EVENTS = TRIPWIRE.events

Order = FormationOrder


def _state(control: tuple[tuple[str, str], ...] = ()) -> CampaignState:
    state = started(control=control)
    state, _ = run(
        state,
        OpenPool(
            actor=REFEREE,
            pool_id="cap",
            side_id="loyalist",
            name="Bagnorgeio",
            kind=PoolKind.LOCATION,
            location="Bagnorgeio",
            opening_balance=50,
        ),
    )
    return placed(
        state,
        (
            FormationSpec(
                formation_id="alpha",
                name="Alpha",
                unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"),
                hex="0508",
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


def _refusal(cmd: SubmitOrders | WithdrawOrders | ResolveTurn | PlaceFormations) -> Refusal:
    with pytest.raises(Refusal) as info:
        TRIPWIRE.decide(STATE, cmd, TRIPWIRE.dice_for(STATE))
    return info.value


def _submit(side: str, *orders: FormationOrder, day: int = 1) -> SubmitOrders:
    return SubmitOrders(actor=side, side_id=side, day=day, orders=orders)


def test_actions_are_the_rule_texts_list() -> None:
    known = {"move", "forced_march", "guard", "rest", "overflight", "looting", "recruit"}
    assert known <= actions()
    # The 26 of the Actions list, Identify/Scan (ruling T-S2) and the engineers' temporary
    # runway of L409 (ruling T-LZ1).
    assert len(actions()) == 28


def test_unknown_action_is_refused_with_its_field() -> None:
    r = _refusal(_submit("loyalist", Order(formation_id="alpha", action="teleport")))
    assert r.code == "unknown_action"
    assert "orders[0].action" in r.message


def test_illegal_path_names_the_hex_and_why() -> None:
    # 0508 -> 0607 -> 0707 -> 0806 -> 0906 is four road steps; alpha has 3 MP (speed 5).
    r = _refusal(
        _submit(
            "loyalist",
            Order(formation_id="alpha", action="move", path=("0607", "0707", "0806", "0906")),
        )
    )
    assert r.code == "illegal_path"
    assert "orders[0].path[3]" in r.message and "0906" in r.message and "over_budget" in r.message
    r = _refusal(_submit("loyalist", Order(formation_id="alpha", action="move", path=("0707",))))
    assert r.code == "illegal_path" and "not_adjacent" in r.message
    # Legged units cannot enter the sea (hexmap ruling R3).
    r = _refusal(
        _submit(
            "loyalist",
            Order(formation_id="alpha", action="move", path=("0408", "0308", "0208", "0108")),
        )
    )
    assert r.code == "illegal_path" and "0108" in r.message and "impassable" in r.message


def test_forced_march_gets_half_again_the_mp() -> None:
    # 3 MP x 1.5 = 4.5, rounded up to 5 (hexmap ruling R4): four road hexes now fit.
    order = Order(
        formation_id="alpha", action="forced_march", path=("0607", "0707", "0806", "0906")
    )
    events = TRIPWIRE.decide(STATE, _submit("loyalist", order), TRIPWIRE.dice_for(STATE))
    assert len(events) == 1


def test_not_your_formation() -> None:
    r = _refusal(_submit("loyalist", Order(formation_id="bravo", action="guard")))
    assert r.code == "not_your_formation" and "orders[0].formation_id" in r.message
    r = _refusal(_submit("loyalist", Order(formation_id="ghost", action="guard")))
    assert r.code == "not_your_formation"
    r = _refusal(WithdrawOrders(actor="rebel", side_id="rebel", day=1, formation_ids=("alpha",)))
    assert r.code == "not_your_formation"


def test_wrong_day() -> None:
    r = _refusal(_submit("loyalist", Order(formation_id="alpha", action="guard"), day=2))
    assert r.code == "wrong_day" and r.message.startswith("day:")
    assert _refusal(ResolveTurn(actor=REFEREE, day=3)).code == "wrong_day"


def test_not_enough_wp() -> None:
    order = Order(formation_id="alpha", action="repair", params=(("pool", "cap"), ("wp", "80")))
    r = _refusal(_submit("loyalist", order))
    assert r.code == "insufficient_wp" and "params.wp" in r.message


def test_aerospace_actions_need_aerospace_units_and_fuel() -> None:
    r = _refusal(
        _submit("loyalist", Order(formation_id="alpha", action="overflight", target="0707"))
    )
    assert r.code == "wrong_units"
    # The Rapier holds 400 fuel points: 1 per km at low altitude (line 201), there and back.
    far = Order(formation_id="air", action="overflight", target="1712")
    assert _refusal(_submit("loyalist", far)).code == "insufficient_fuel"


def test_the_attacker_starts_at_the_pirate_point() -> None:
    state = started()
    spec = FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7",), hex="1712")
    with pytest.raises(Refusal) as info:
        TRIPWIRE.execute(
            state, PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=(spec,))
        )
    assert info.value.code == "pirate_point"
    with pytest.raises(Refusal):
        TRIPWIRE.execute(
            STATE, _submit("rebel", Order(formation_id="bravo", action="move", path=("1712",)))
        )


def test_submit_replaces_and_withdraw_drops() -> None:
    state, _ = run(
        STATE,
        _submit(
            "loyalist",
            Order(formation_id="alpha", action="guard"),
            Order(formation_id="hover", action="rest"),
        ),
        _submit("loyalist", Order(formation_id="alpha", action="rest")),
    )
    assert [(o.formation_id, o.action) for o in orders_of(state, "loyalist")] == [
        ("alpha", "rest"),
        ("hover", "rest"),
    ]
    state, _ = run(
        state, WithdrawOrders(actor="loyalist", side_id="loyalist", day=1, formation_ids=("hover",))
    )
    assert [o.formation_id for o in orders_of(state, "loyalist")] == ["alpha"]
    assert orders_of(state, "rebel") == ()


def test_reorganising_needs_units_standing_together() -> None:
    split = (
        FormationSpec(formation_id="a1", name="A1", unit_ids=("L-GRF", "L-WVR"), hex="0508"),
        FormationSpec(formation_id="a2", name="A2", unit_ids=("L-SHD", "L-LCT"), hex="0508"),
        FormationSpec(formation_id="air", name="Air", unit_ids=("L-RPR", "L-MAX"), hex="0610"),
    )
    state, _ = run(
        STATE, PlaceFormations(actor="loyalist", side_id="loyalist", day=1, formations=split)
    )
    assert state.strategic is not None
    assert sorted(f for f in state.strategic.formations if f.startswith("a")) == ["a1", "a2", "air"]
    apart = (
        FormationSpec(formation_id="mixed", name="M", unit_ids=("L-GRF", "L-RPR"), hex="0508"),
    )
    with pytest.raises(Refusal) as info:
        TRIPWIRE.execute(
            STATE, PlaceFormations(actor="loyalist", side_id="loyalist", day=1, formations=apart)
        )
    assert info.value.code == "reorganise_apart"


def test_the_orders_event_is_private_to_its_side() -> None:
    events, _ = TRIPWIRE.execute(
        STATE, _submit("loyalist", Order(formation_id="alpha", action="guard"))
    )
    (stored,) = events
    assert isinstance(stored, OrdersSubmitted) and stored.side_id == "loyalist"
    assert is_private(stored)
    assert EVENTS.from_json(EVENTS.to_json(stored)) == stored


def test_side_view_never_shows_the_enemys_hidden_formations_or_orders() -> None:
    # The loyalists start holding nothing; the rebels land far away and write tomorrow's orders.
    state, _ = run(
        _state(control=(("Forward Deployment Base", "rebel"),)),
        _submit("rebel", Order(formation_id="bravo", action="orbital_insertion", target="1712")),
        _submit("loyalist", Order(formation_id="alpha", action="guard")),
        ResolveTurn(actor=REFEREE, day=1),
        _submit(
            "rebel", Order(formation_id="tanks", action="orbital_insertion", target="1612"), day=2
        ),
    )
    loyal = side_view(state, "loyalist")
    assert {f.formation_id for f in loyal.formations} == {"alpha", "air", "hover"}
    assert loyal.orders == ()
    assert all(x.side_id == "rebel" for x in loyal.sightings)
    # What the loyalists know of a rebel formation is a sighting, if their sensors made one;
    # of anything unseen (the tanks still in orbit, the rebels' orders) there is no trace.
    seen = {x.formation_id for x in loyal.sightings}
    text = canonical_json(replace(loyal, sightings=()))
    assert "tanks" not in canonical_json(loyal) and "1612" not in canonical_json(loyal)
    assert "bravo" not in text and "1712" not in text
    assert seen <= {"bravo"}
    rebel = side_view(state, "rebel")
    assert [o.formation_id for o in rebel.orders] == ["tanks"]
    assert "0508" not in canonical_json(rebel)


def test_side_view_of_a_random_day_holds_only_own_formations_and_sightings() -> None:
    for seed in range(6):
        state = placed(
            started(seed=f"secrecy-{seed}"),
            (FormationSpec(formation_id="alpha", name="A", unit_ids=("L-GRF",), hex="0707"),),
            (FormationSpec(formation_id="bravo", name="B", unit_ids=("R-JR7",)),),
        )
        state, _ = run(
            state,
            _submit(
                "rebel", Order(formation_id="bravo", action="orbital_insertion", target="1512")
            ),
            ResolveTurn(actor=REFEREE, day=1),
        )
        view = side_view(state, "loyalist")
        assert [f.formation_id for f in view.formations] == ["alpha"]
        hidden = canonical_json(replace(view, sightings=()))
        assert "bravo" not in hidden and "1512" not in hidden
        assert all(x.formation_id == "bravo" and x.hex == "1512" for x in view.sightings)


def test_a_seen_enemy_appears_as_a_sighting_only() -> None:
    # Nobody holds a sensor site: alpha stands in open country (0607), bravo lands unseen.
    state = placed(
        started(control=(("Forward Deployment Base", "rebel"),)),
        (
            FormationSpec(
                formation_id="alpha",
                name="Alpha",
                unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"),
                hex="0607",
            ),
        ),
        (FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD")),),
    )
    state, _ = run(
        state,
        _submit("rebel", Order(formation_id="bravo", action="orbital_insertion", target="0806")),
        ResolveTurn(actor=REFEREE, day=1),
    )
    assert side_view(state, "loyalist").sightings == ()
    state, _ = run(
        state,
        _submit(
            "loyalist", Order(formation_id="alpha", action="move", path=("0707", "0806")), day=2
        ),
        ResolveTurn(actor=REFEREE, day=2),
    )
    view = side_view(state, "loyalist")
    assert [(s.formation_id, s.hex) for s in view.sightings] == [("bravo", "0806")]
    assert all(f.side_id == "loyalist" for f in view.formations)
