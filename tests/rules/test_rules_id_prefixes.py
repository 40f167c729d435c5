"""Ids as the CLI prints them (issue 27, item 9): a unique prefix of a unit's or a person's id
stands for it in any command field that names units or people; an ambiguous one is refused
with the candidates; one that fits nothing is left for the rule to refuse."""

from __future__ import annotations

import pytest
from battle.states import campaign, fu

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_spending import RecruitCaptured
from mekref.rules.tripwire.id_prefixes import with_full_ids
from mekref.rules.tripwire.turn.reorganise import CreateFormation


def test_unique_prefixes_of_units_and_people_are_made_whole() -> None:
    state = campaign((fu("aa11"), fu("ab22")), (fu("bb33"),))
    cmd = RecruitCaptured(person_id="p-b", pool_id="x", actor="t")
    assert with_full_ids(state, cmd).person_id == "p-bb33"
    formed = with_full_ids(
        state,
        CreateFormation(side_id="red", day=1, formation_id="f", unit_ids=("aa", "ab2"), actor="t"),
    )
    assert formed.unit_ids == ("aa11", "ab22")


def test_an_ambiguous_prefix_is_refused_and_an_unknown_one_left_alone() -> None:
    state = campaign((fu("aa11"), fu("ab22")), (fu("bb33"),))
    with pytest.raises(Refusal) as refused:
        with_full_ids(state, RecruitCaptured(person_id="p-a", pool_id="x", actor="t"))
    assert refused.value.code == "ambiguous_id"
    assert "'p-a' begins the id of 2 persons: p-aa11 (Pilot aa11, red), p-ab22" in str(
        refused.value
    )
    unknown = RecruitCaptured(person_id="nobody", pool_id="x", actor="t")
    assert with_full_ids(state, unknown) is unknown
