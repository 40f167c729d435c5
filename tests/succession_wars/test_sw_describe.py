"""Every Succession Wars event is told in words (``mekref game do``), none as a field dump."""

from __future__ import annotations

from functools import cache

from sw_campaign import play_campaign

from mekref.rules.kernel import describe_fields
from mekref.rules.messages import Event
from mekref.rules.succession_wars.describe import _WORDS
from mekref.rules.succession_wars.game import SUCCESSION_WARS


@cache
def _log() -> tuple[Event, ...]:
    return tuple(play_campaign().log)


def test_every_event_type_has_words() -> None:
    assert {cls.TYPE for cls in _WORDS} == {c.TYPE for c in SUCCESSION_WARS.events.classes()}


def test_every_event_of_the_scripted_campaign_reads_as_words() -> None:
    for event in _log():
        words = SUCCESSION_WARS.outcome(event)
        assert words and words != describe_fields(event), event
        assert type(event).TYPE not in words


def test_the_first_combat_reads_as_the_table_would_say_it() -> None:
    lines = [SUCCESSION_WARS.outcome(e) for e in _log()]
    assert "combat at Daniels: Liao attacks Davion" in "\n".join(lines)
    assert "Davion loses at Daniels: davion-lindons-company-1" in lines
