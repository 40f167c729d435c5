"""A command's text fields are held to their allowed values however the command arrives: the
typed words match them without case before the rules see them; a command given as JSON (the
API's ExecuteCommand, a typed message) reaches the kernel as written, and the kernel matches
it the same way, refusing a value none of its field's values (naming the field and them)
where the rules would otherwise take it or fail on it (ruling R-ENGINE-5).

L11 "Left Side | Front | Right Side": a hit table's columns; L182 "To find armor roll 2d6 ...",
L183 "To find ammo roll 2d6 ...": the quantity of armor or of ammunition found."""

from __future__ import annotations

import pytest
from hr_helpers import LINES

from mekref.rules.house_rules import commands as c
from mekref.rules.house_rules import describe
from mekref.rules.house_rules import table_commands as tc
from mekref.rules.house_rules.game import HOUSE_RULES
from mekref.rules.house_rules.model import HouseState
from mekref.rules.refusal import Refusal


def _state() -> HouseState:
    _, state = HOUSE_RULES.execute(HOUSE_RULES.initial_state(), c.SetUp(actor="ref", seed="a"))
    return state


def _hit(state: HouseState, **data: str) -> tuple[tc.HitLocationRolled, HouseState]:
    command = HOUSE_RULES.commands.from_json(
        {"type": "HRHitLocation", "actor": "ref", "unit_id": "atlas", **data}
    )
    (event,), state = HOUSE_RULES.execute(state, command)
    assert isinstance(event, tc.HitLocationRolled)
    return event, state


def test_a_table_named_in_another_case_is_that_table() -> None:
    assert LINES[10].startswith("Left Side | Front | Right Side")
    # "Low" is the 1d6 low table (legs only), never the side table.
    event, state = _hit(_state(), table="Low")
    assert event.table == "low" and len(event.rolls[0].faces) == 1
    assert "Leg" in event.location
    event, _ = _hit(state, facing="front", focus="up", exposed="left")
    assert event.table == "upper_body"


def test_a_column_none_of_the_tables_is_refused_not_a_crash() -> None:
    command = HOUSE_RULES.commands.from_json(
        {"type": "HRHitLocation", "actor": "ref", "unit_id": "atlas", "column": "rear"}
    )
    with pytest.raises(Refusal) as refused:
        HOUSE_RULES.execute(_state(), command)
    assert refused.value.code == "no_such_row"
    assert "no rear side row" in refused.value.message


def test_a_quantity_of_neither_armor_nor_ammo_is_refused() -> None:
    assert LINES[181].startswith("To find armor roll 2d6")
    assert LINES[182].startswith("To find ammo roll 2d6")
    command = HOUSE_RULES.commands.from_json(
        {"type": "HRQuantity", "actor": "ref", "item": "x", "kind": "armour", "level": 1}
    )
    with pytest.raises(Refusal) as refused:
        HOUSE_RULES.execute(_state(), command)
    assert refused.value.code == "not_allowed"
    assert "kind='armour' is none of: 'armor', 'ammo'" in refused.value.message


def test_the_allowed_values_and_defaults_still_roll() -> None:
    state = _state()
    for data in ({"table": "low"}, {}, {"table": "upper_body", "column": "left"}):
        command = HOUSE_RULES.commands.from_json(
            {"type": "HRHitLocation", "actor": "ref", "unit_id": "atlas", **data}
        )
        (event,), state = HOUSE_RULES.execute(state, command)
        assert isinstance(event, tc.HitLocationRolled)


def test_a_column_the_table_has_no_row_for_is_a_refusal() -> None:
    with pytest.raises(Refusal) as refused:
        tc._table_hit("side", "rear", 9)
    assert refused.value.code == "no_such_row"
    assert "no rear side row for 9" in refused.value.message


def test_a_hit_location_without_a_roll_says_so() -> None:
    event = tc.HitLocationRolled(
        unit_id="atlas", table="side", column="front", focus="", to_hit_modifier=0,
        location="Center Torso", crit=False, line=20,
    )  # fmt: skip
    words = describe.describe(event)
    assert "no roll hits the Center Torso" in words and ": 0 hits" not in words


def test_an_object_inside_a_command_is_held_to_its_values_too() -> None:
    """L153 "Mechwarriors start with a base piloting and gunnery skill of 7.": a step of the
    group's XP prices names piloting or gunnery; given as JSON inside the command, it is put in
    the rule set's spelling, as the typed words put it."""
    command = HOUSE_RULES.commands.from_json(
        {"type": "HRSkillCosts", "actor": "ref",
         "costs": [{"skill": "Gunnery", "to_level": 3, "xp": 400}]}
    )  # fmt: skip
    assert LINES[152].startswith("Mechwarriors start with a base piloting and gunnery skill")
    _, state = HOUSE_RULES.execute(_state(), command)
    assert [c.skill for c in state.skill_costs] == ["gunnery"]


def test_a_repair_rating_none_of_the_ratings_is_refused() -> None:
    """L89 names the ratings a team has (green, regular, veteran, elite): "superb" is none of
    them: the rule's own refusal comes first. The empty rating ("the technician's") stays
    allowed, and is the enum's zero, no value of its own."""
    command = HOUSE_RULES.commands.from_json(
        {"type": "HRRepairAttempt", "actor": "ref", "part_id": "arm", "job": "repair",
         "team_id": "t1", "rating": "superb", "target_number": 8}
    )  # fmt: skip
    with pytest.raises(Refusal) as refused:
        HOUSE_RULES.execute(_state(), command)
    assert refused.value.code == "unknown_rating" and "superb" in refused.value.message
    assert "" in c.RepairAttempt.__dataclass_fields__["rating"].metadata["allowed"]


def test_the_closed_lists_are_the_tables_values() -> None:
    """The lists the API's enums are written from hold every value the tables give."""
    from mekref.rules.house_rules.morale import MORALE_RESULTS
    from mekref.rules.house_rules.random_damage import EFFECT_KINDS
    from mekref.rules.house_rules.retreat import RETREAT_OUTCOMES
    from mekref.rules.house_rules.table_loader import load_tables

    t = load_tables()
    assert tuple(r.text("key") for r in t.rows("morale", "band")) == MORALE_RESULTS
    failures = {r.text("outcome") for r in t.rows("retreat", "failure")}
    assert failures | {"hours"} == set(RETREAT_OUTCOMES)
    kinds = {r.text("kind") for r in t.rows("random_damage", "row")}
    armour = {"side_damage", "clusters", "one_location", "all_locations", "none", "roll_twice"}
    assert kinds - armour == set(EFFECT_KINDS)
