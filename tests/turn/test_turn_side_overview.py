"""One side's cut of the strategic overview keeps the fog (ruling T-V3, docs/turn.md).

The small Ginestra world plays two days: the loyalists' Hover drives east, the rebels' Bravo
lands and meets it in 1412 on day 2. Each side's overview must hold its own formations and
pools, enemy formations only as its sightings name them, the engagement cut to its own
formations, and every side's VP (L414: "Once a force reaches 10 Victory Points the campaign is
over and the player with the most victory points wins."); the referee's holds everything.
"""

from __future__ import annotations

from dataclasses import replace

from turn_world import placed, run, started

from mekref.rules.codec import to_jsonable
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.orders import ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec as FS
from mekref.rules.tripwire.turn.side_overview import Overview, overview_of
from mekref.rules.tripwire.turn.state import FormationOrder as Order
from mekref.rules.tripwire.turn.view import side_view

SIDES = ("loyalist", "rebel")


def _two_days() -> CampaignState:
    state = placed(
        started(),
        (FS(formation_id="alpha", name="Alpha",
            unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"), hex="0508"),
         FS(formation_id="air", name="Air", unit_ids=("L-RPR",), hex="0610"),
         FS(formation_id="hover", name="Hover", unit_ids=("L-MAX",), hex="0610")),
        (FS(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD", "R-AS7")),
         FS(formation_id="tanks", name="Tanks", unit_ids=("R-BLD",))),
    )  # fmt: skip
    plan = {
        1: ((Order(formation_id="alpha", action="move", path=("0607", "0707", "0806")),
             Order(formation_id="hover", action="move", path=("0711", "0811", "0912", "1012")),
             Order(formation_id="air", action="guard")),
            (Order(formation_id="bravo", action="orbital_insertion", target="1612"),
             Order(formation_id="tanks", action="orbital_insertion", target="1712"))),
        2: ((Order(formation_id="alpha", action="move", path=("0906", "1005", "1105")),
             Order(formation_id="hover", action="move", path=("1113", "1212", "1313", "1412")),
             Order(formation_id="air", action="guard")),
            (Order(formation_id="bravo", action="move", path=("1512", "1412")),
             Order(formation_id="tanks", action="rest"))),
    }  # fmt: skip
    for day, (loyal, rebel) in plan.items():
        state, _ = run(
            state,
            SubmitOrders(actor="loyalist", side_id="loyalist", day=day, orders=loyal),
            SubmitOrders(actor="rebel", side_id="rebel", day=day, orders=rebel),
            ResolveTurn(actor="referee", day=day),
        )
    return state


def _named_formations(o: Overview) -> set[str]:
    """Every formation id the overview names anywhere, except in its sightings."""
    named = {f.formation_id for f in o.formations}
    named |= {f for e in o.engagements for f in e.formations}
    named |= {f for t in o.still_together for f, _ in t.formations}
    return named


def test_ruling_t_v3_a_side_overview_names_no_enemy_formation_it_did_not_sight() -> None:
    state = _two_days()
    s = state.strategic
    assert s is not None
    owner = {fid: f.side_id for fid, f in s.formations.items()}
    (engagement,) = s.engagements
    assert {owner[f] for f in engagement.formations} == set(SIDES)  # both sides fought there
    whole = overview_of(state)
    assert whole is not None
    assert {f.formation_id for f in whole.formations} == set(owner)
    for side in SIDES:
        cut = overview_of(state, side)
        assert cut is not None and cut.side_id == side
        view = side_view(state, side)
        # Own formations: exactly the side view's.
        assert [f.formation_id for f in cut.formations] == [f.formation_id for f in view.formations]
        # No enemy formation outside the sightings, which are the side view's own.
        assert all(owner[f] == side for f in _named_formations(cut))
        assert cut.sightings == view.sightings
        assert set(cut.sighted_by) <= {side}
        (e,) = cut.engagements
        assert e.engagement_id == engagement.engagement_id
        assert e.formations and all(owner[f] == side for f in e.formations)
        # Enemy formations neither in the record nor in the sightings never appear at all.
        sighted = {x.formation_id for x in cut.sightings}
        hidden = {f for f, who in owner.items() if who != side} - sighted
        assert hidden, "the test needs an enemy formation the side did not sight"
        text = str(to_jsonable(cut))
        assert not any(f"'{f}'" in text for f in hidden)
        # Own pools only; public facts as the side view has them.
        assert {p.side_id for p in cut.pools} <= {side}
        assert cut.control == view.control and cut.unrest == view.unrest
        # L414: every side's VP is public; the enemy's BV is not (its strength).
        assert {x.side_id for x in cut.standings} == set(SIDES)
        for x in cut.standings:
            full = next(y for y in whole.standings if y.side_id == x.side_id)
            assert x.total_vp == full.total_vp == x.battle_vp + x.strategic_vp
            if x.side_id == side:
                assert x.starting_bv == full.starting_bv
            else:
                assert x.starting_bv is x.effective_bv is x.units_without_bv is None


def test_ruling_t_v3_the_referee_overview_is_the_whole_picture() -> None:
    state = _two_days()
    whole = overview_of(state)
    assert whole is not None and whole.side_id == ""
    (e,) = whole.engagements
    assert set(e.formations) == set(state.strategic.engagements[0].formations)  # type: ignore[union-attr]
    assert set(whole.sighted_by) == {
        who
        for who, seen in state.strategic.sightings.items()
        if seen  # type: ignore[union-attr]
    }
    assert {p.pool_id for p in whole.pools} == set(state.pools)
    assert all(x.starting_bv is not None for x in whole.standings)


def test_before_the_map_there_is_no_overview() -> None:
    state = replace(started(), strategic=None)
    assert overview_of(state) is None and overview_of(state, "rebel") is None
