"""Ids as the CLI prints them (issue 27, item 9): a unique prefix of a unit's or a person's id
stands for it in any command field that names units or people; an ambiguous one is refused
with the candidates; one that fits nothing is left for the rule to refuse."""

from __future__ import annotations

from dataclasses import replace

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


def test_battles_by_a_unique_prefix_with_or_without_battle() -> None:
    """A battle id is ``battle-`` and 12 hex digits: a unique prefix of either stands for it;
    one of two battles is refused listing both."""
    from battle.states import file, run, seen, submit

    from mekref.rules.tripwire.battle_messages import SetBattleControl
    from mekref.rules.tripwire.battle_model import RecordSection

    state = campaign((fu("aa11"), fu("ab22")), (fu("bb33"),))
    _, state = run(
        state,
        submit(file("abc1" + "0" * 60, seen("aa11", RecordSection.SURVIVORS))),
        submit(file("abc2" + "0" * 60, seen("ab22", RecordSection.SURVIVORS))),
    )
    assert sorted(state.battles.battles) == ["battle-abc100000000", "battle-abc200000000"]
    for given in ("abc1", "battle-abc1", "BATTLE-ABC1"):
        cmd = SetBattleControl(battle_id=given, side_id="red", actor="t")
        assert with_full_ids(state, cmd).battle_id == "battle-abc100000000", given
    with pytest.raises(Refusal) as refused:
        with_full_ids(state, SetBattleControl(battle_id="abc", side_id="red", actor="t"))
    assert "'abc' begins the id of 2 battles: battle-abc100000000 (#1, open), " in str(
        refused.value
    )


def test_units_and_people_by_their_names_where_only_one_has_it() -> None:
    """A unit's chassis and model, a person's name, in any case: one that several have is
    refused listing them."""
    state = campaign(
        (fu("aa11", chassis="Atlas", model="AS7-D"), fu("ab22"), fu("ac33")), (fu("bb33"),)
    )
    cmd = RecruitCaptured(person_id="pilot  BB33", pool_id="x", actor="t")
    assert with_full_ids(state, cmd).person_id == "p-bb33"
    formed = CreateFormation(
        side_id="red", day=1, formation_id="f", unit_ids=("atlas as7-d",), actor="t"
    )
    assert with_full_ids(state, formed).unit_ids == ("aa11",)
    with pytest.raises(Refusal) as refused:
        with_full_ids(state, replace(formed, unit_ids=("Griffin GRF-1N",)))
    assert refused.value.code == "ambiguous_id"
    assert "'Griffin GRF-1N' is the name of 3 units: ab22 (Griffin GRF-1N, red), " in str(
        refused.value
    )
    assert "give its id (the report prints it)" in str(refused.value)


def test_a_name_that_also_begins_another_id_is_refused_not_guessed() -> None:
    """A person called "Abe" while another person's id begins "abe": the two readings
    disagree, so the command is refused listing both, never given to the id's owner."""
    state = campaign((fu("abe1", pilot="Zed"), fu("cc22", pilot="Abe")), (fu("bb33"),))
    people = dict(state.people)
    people["abe-x"] = replace(people["p-abe1"], person_id="abe-x")
    del people["p-abe1"]
    state = replace(state, people=people)
    with pytest.raises(Refusal) as refused:
        with_full_ids(state, RecruitCaptured(person_id="Abe", pool_id="x", actor="t"))
    assert refused.value.code == "ambiguous_id"
    assert "abe-x (Zed, red)" in str(refused.value) and "p-cc22 (Abe, red)" in str(refused.value)
