"""The tactical house rules: the scenario-sheet list and MegaMek's game-options file."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from mekref.rules.house_rules.tactical import game_options_xml, scenario_sheet, tactical_rules
from mekref.rules.refusal import Refusal

ALL = tuple(r.key for r in tactical_rules())


def test_every_tactical_rule_from_the_brief_is_listed() -> None:
    assert set(ALL) >= {
        "skid_first_facing",
        "skid_modifiers",
        "dodge",
        "real_time_initiative",
        "random_initiative",
        "tc_focus",
        "heavy_woods_jump",
        "elementals_dismount",
        "lam_limits",
    }
    by_key = {r.key: r for r in tactical_rules()}
    assert "Dodge Maneuver" in by_key["dodge"].ref.source
    assert "heavy woods" in by_key["heavy_woods_jump"].ref.source


def test_only_heavy_woods_has_a_megamek_game_option() -> None:
    # MegaMek OptionsConstants.ADVANCED_GROUND_MOVEMENT_PSR_JUMP_HEAVY_WOODS:
    # "psr_jump_heavy_woods"
    options = {r.key: r.megamek_option for r in tactical_rules() if r.megamek_option}
    assert options == {"heavy_woods_jump": "psr_jump_heavy_woods"}


def test_game_options_file_has_megameks_shape() -> None:
    text = game_options_xml(ALL)
    assert text.startswith('<?xml version="1.0"?>\n')
    root = ET.fromstring(text.split("\n", 1)[1])
    assert root.tag == "options"
    pairs = [(o.findtext("optionname"), o.findtext("optionvalue")) for o in root]
    assert pairs == [("psr_jump_heavy_woods", "true")]
    empty = ET.fromstring(game_options_xml(("dodge",)).split("\n", 1)[1])
    assert list(empty) == []


def test_scenario_sheet_lists_the_rules_in_force() -> None:
    sheet = scenario_sheet(("dodge", "heavy_woods_jump"))
    assert "Dodge Maneuver" in sheet and "no MegaMek option" in sheet
    assert "MegaMek game option psr_jump_heavy_woods (on)" in sheet
    with pytest.raises(Refusal):
        scenario_sheet(("flying_tanks",))
    with pytest.raises(Refusal):
        game_options_xml(("flying_tanks",))
