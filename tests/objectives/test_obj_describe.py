"""Every objectives event is told in words (``mekref game do``), none as a field dump."""

from __future__ import annotations

import pytest
from test_obj_scenario import EVENT_SAMPLES

from mekref.rules.kernel import describe_fields
from mekref.rules.messages import Event
from mekref.rules.objectives.game import OBJECTIVES


@pytest.mark.parametrize("event", EVENT_SAMPLES, ids=lambda ev: type(ev).TYPE)
def test_every_event_has_words(event: Event) -> None:
    words = OBJECTIVES.outcome(event)
    assert words and words != describe_fields(event)
    assert type(event).TYPE not in words


def test_a_search_shows_its_die_its_modifiers_and_its_result() -> None:
    """L23 "Add the resulting number to the number of the current round. If the result is 7 or
    more": the sum shows the round (before: "d6 4 enemy -1 scan tokens +1 = 6")."""
    search = next(ev for ev in EVENT_SAMPLES if type(ev).TYPE == "OBJSearchMade")
    assert OBJECTIVES.outcome(search) == (
        "round 2: q searches o: d6 4 enemy -1 scan tokens +1 round +2 = 6, needs 7+: not found"
    )


def test_a_drop_says_why() -> None:
    drop = next(ev for ev in EVENT_SAMPLES if type(ev).TYPE == "OBJDropped")
    assert OBJECTIVES.outcome(drop) == "q drops objective o after a failed Fortitude test"
