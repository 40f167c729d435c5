"""Ruling R-ENGINE-3: a side's cut of an engagement is what its scenario export shows."""

from __future__ import annotations

from mekref.rules.codec import to_jsonable
from mekref.rules.tripwire.turn.secrecy import engagement_for
from mekref.rules.tripwire.turn.state import Arrival, EngagementSetup
from mekref.rules.tripwire.visibility import PARTICIPANTS

SETUP = EngagementSetup(
    engagement_id="E1",
    day=2,
    hex="1412",
    kind="assault",
    sides=("loyalist", "rebel"),
    formations=("air", "bravo"),
    attacker="rebel",
    ambusher=None,
    ambush_totals=(("loyalist", 7), ("rebel", 9)),
    objectives=(("loyalist", "breakthrough"), ("rebel", "hold_the_line")),
    map_sheets=("A",),
    terrain="hills",
    weather="clear",
    arrivals=(
        Arrival(formation_id="air", side_id="loyalist", lance="Air", walk_mp=5, turn=3),
        Arrival(formation_id="bravo", side_id="rebel", lance="Bravo", walk_mp=4, turn=0),
    ),
    aerospace=(("loyalist", "L-RPR", 80),),
    command_centre=("loyalist",),
    notes=(
        "loyalist was on Guard: may predesignate 4 artillery hexes per map sheet and place 50% "
        "of its force in hidden deployment (line 320)",
        "rebel chooses the time of the attack",
        "Mobs rise in the town",
    ),
)
OWNERS = {"air": "loyalist", "bravo": "rebel"}


def test_each_side_gets_only_its_own_secrets_of_an_engagement() -> None:
    rebel = engagement_for(SETUP, "rebel", OWNERS)
    assert rebel.objectives == (("rebel", "hold_the_line"),)
    assert rebel.formations == ("bravo",)
    assert [a.formation_id for a in rebel.arrivals] == ["bravo"]
    assert rebel.aerospace == ()
    assert rebel.command_centre == ()
    assert rebel.notes == ("rebel chooses the time of the attack", "Mobs rise in the town")
    # Shared facts stay: the sheet prints them for both sides.
    assert (rebel.ambush_totals, rebel.attacker, rebel.sides) == (
        SETUP.ambush_totals, "rebel", SETUP.sides,
    )  # fmt: skip
    loyal = engagement_for(SETUP, "loyalist", OWNERS)
    assert "hidden deployment" in loyal.notes[0]
    assert loyal.aerospace == SETUP.aerospace and loyal.command_centre == ("loyalist",)
    # A formation the state no longer knows counts as the enemy's.
    assert engagement_for(SETUP, "rebel", {}).formations == ()


def test_the_event_stream_takes_the_same_cut() -> None:
    from mekref.rules.tripwire.state import CampaignState
    from mekref.rules.tripwire.visibility import visible_payload

    assert "EngagementDetermined" in PARTICIPANTS
    payload = {"type": "EngagementDetermined", "engagement": to_jsonable(SETUP), "rolls": []}
    state = CampaignState()
    seen = visible_payload("rebel", "EngagementDetermined", payload, state)
    assert seen is not None and "rolls" not in seen
    assert seen["engagement"]["objectives"] == [["rebel", "hold_the_line"]]
    assert visible_payload("other", "EngagementDetermined", payload, state) is None
