"""Spending taxes, placing new units, technology, and collecting taxes."""

from __future__ import annotations

import pytest
from sw_helpers import Game, move_leader, move_unit, set_house, set_region, to_phase

from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import load_tables
from mekref.rules.succession_wars.model import (
    CenterState,
    Kind,
    LeaderStatus,
    Status,
)
from mekref.rules.succession_wars.tech import effects
from mekref.rules.succession_wars.turn import taxes

L = "Liao"
RESERVE = "liao-capellan-hussars-2"  # reserve counter, "Not Available for Initial Placement"


def _spend() -> Game:
    g = Game()
    to_phase(g, L, "spend")
    return g


def _refused(g: Game, command: m.Command) -> str:  # type: ignore[name-defined]
    with pytest.raises(Refusal) as err:
        g.run(command)
    return err.value.code


def _cash(g: Game) -> int:
    return g.state.houses[L].cash


@pytest.mark.parametrize(
    ("tech", "mech", "merc"), [(0, 8, 6), (-10, 10, 8), (10, 7, 5), (19, 7, 5), (20, 6, 5)]
)
def test_mech_prices_follow_the_tech_level(tech: int, mech: int, merc: int) -> None:
    """Technology Scale: -10 -> 10 and 8; 10 -> 7 and 5; 20 -> 6 and 5 (House, Mercenary)."""
    g = _spend()
    set_house(g, L, tech=tech, cash=100)
    g.run(m.SWBuy(actor=L, house=L, item="house_mech", unit=RESERVE))
    assert _cash(g) == 100 - mech
    dracon = "liao-15th-dracon-1"  # a Mercenary counter (2) lost in combat
    move_unit(g, dracon, "", status=Status.DESTROYED)
    g.run(m.SWBuy(actor=L, house=L, item="merc_rebuild", unit=dracon))
    assert _cash(g) == 100 - mech - merc
    assert g.state.units[dracon].status is Status.PENDING and g.state.units[dracon].value == 4


def test_tech_effects_hold_away_from_zero() -> None:
    """Ruling SW-07: -6 is past -5 (all units -1); -8 also has -7's JumpShip -1; -10's -2
    supersedes -5's -1; 16 keeps 15's range 4 and 12's two boosts; 24 adds +2 for 'Mechs."""
    t = load_tables()
    assert effects(t, -4).all_units == 0
    assert effects(t, -6).all_units == -1 and effects(t, -6).jump_range == 3
    assert effects(t, -8).jump_range == 2
    assert effects(t, -10).all_units == -2
    sixteen = effects(t, 16)
    assert (sixteen.jump_range, sixteen.boosted_mechs, sixteen.tax_bonus) == (4, 2, 0)
    assert effects(t, 17).tax_bonus == 7 and effects(t, 24).mech_units == 2


def test_no_new_units_without_an_undamaged_center() -> None:
    g = _spend()
    for region in ("Sian", "Capella", "Tikonov"):
        set_region(g, region, center=CenterState.DAMAGED)
    assert _refused(g, m.SWBuy(actor=L, house=L, item="conventional")) == "no_center"


def test_only_available_counters_can_be_built() -> None:
    """An active counter or another House's counter is not available to buy."""
    g = _spend()
    cmd = m.SWBuy(actor=L, house=L, item="house_mech", unit="liao-capellan-hussars-1")
    assert _refused(g, cmd) == "no_counter"
    cmd = m.SWBuy(actor=L, house=L, item="house_mech", unit="davion-crucis-lancers-4")
    assert _refused(g, cmd) == "no_counter"
    set_house(g, L, cash=7)
    cmd = m.SWBuy(actor=L, house=L, item="house_mech", unit=RESERVE)
    assert _refused(g, cmd) == "not_enough_money"


def test_upgrade_needs_a_center_at_the_start_of_the_turn() -> None:
    """Chesterton Reserves 3 started the turn at Sian (a center): upgraded to 4 for 5 and taken
    off the board until the Place phase. A weak counter at St. Ives (no center) may not be;
    Tikonov Reserves 4 is already at full strength."""
    g = _spend()
    weak = "liao-chesterton-reserves-3"
    assert g.state.units[weak].value == 3 and weak in g.state.at_center
    g.run(m.SWBuy(actor=L, house=L, item="upgrade", unit=weak))
    assert g.state.units[weak].status is Status.PENDING and g.state.units[weak].value == 4
    assert _cash(g) == 38 - 5
    cav = "liao-st-ives-armored-cavalry-1"  # at St. Ives, no center there
    move_unit(g, cav, "St. Ives", value=3)
    cmd = m.SWBuy(actor=L, house=L, item="upgrade", unit=cav)
    assert _refused(g, cmd) == "cannot_upgrade"
    cmd = m.SWBuy(actor=L, house=L, item="upgrade", unit="liao-tikonov-reserves-2")
    assert _refused(g, cmd) == "cannot_upgrade"


def test_conventional_units_fight_at_two_and_take_two_spaces() -> None:
    """Ruling SW-04: a conventional unit costs 3, fights at 2 and fills two JumpShip spaces."""
    g = _spend()
    g.run(m.SWBuy(actor=L, house=L, item="conventional"))
    new = [u for u in g.state.units.values() if u.kind is Kind.CONVENTIONAL]
    assert [(u.value, u.status) for u in new] == [(2, Status.PENDING)]
    assert _cash(g) == 35


def test_jumpships_new_centers_and_placement() -> None:
    """A 3-unit JumpShip (20) and a center at St. Ives (30, ruling SW-03): the center is on the
    board at once but takes no new units this turn (ruling SW-28)."""
    g = _spend()
    set_house(g, L, cash=100)
    g.run(m.SWBuy(actor=L, house=L, item="jumpship_3"))
    g.run(m.SWBuildCenter(actor=L, house=L, region="St. Ives"))
    assert _cash(g) == 50
    assert g.state.regions["St. Ives"].center is CenterState.INTACT
    assert g.state.pending_tech[L] == 1
    assert _refused(g, m.SWBuildCenter(actor=L, house=L, region="Sian")) == "center_exists"
    to_phase(g, L, "place")
    assert g.state.houses[L].tech == 1  # +1 for building, applied in the Tech phase
    ship = next(s for s in g.state.jumpships.values() if s.status is Status.PENDING)
    at_st_ives = m.SWPlaceUnits(
        actor=L, house=L, placements=(m.Placement(piece=ship.id, region="St. Ives"),)
    )
    assert _refused(g, at_st_ives) == "center_too_new"
    at_daniels = m.SWPlaceUnits(
        actor=L, house=L, placements=(m.Placement(piece=ship.id, region="Daniels"),)
    )
    assert _refused(g, at_daniels) == "bad_placement"
    g.run(m.SWPlaceUnits(actor=L, house=L, placements=(m.Placement(piece=ship.id, region="Sian"),)))
    assert g.state.jumpships[ship.id].status is Status.ACTIVE


def test_unprinted_prices() -> None:
    """Ruling SW-03: the text prints no price for a center, a repair or a tech roll; we use 30,
    15 and 5."""
    g = _spend()
    set_region(g, "Capella", center=CenterState.DAMAGED)
    g.run(m.SWRepairCenter(actor=L, house=L, region="Capella"))
    assert _cash(g) == 38 - 15
    assert g.state.regions["Capella"].center is CenterState.INTACT
    assert g.state.pending_tech[L] == 1
    g.run(m.SWTechRoll(actor=L, house=L, chances=2))
    assert _cash(g) == 38 - 15 - 10


def test_tech_roll_follows_the_table() -> None:
    """Each chance is one die on the Tech Level Table: 7-9 give +1, 10 gives +2."""
    g = _spend()
    set_house(g, L, cash=100)
    events = g.run(m.SWTechRoll(actor=L, house=L, chances=4))
    changed = events[-1]
    assert isinstance(changed, m.SWTechChanged)
    faces = [r.faces[0] for r in changed.rolls]
    expected = sum(0 if f <= 6 else 1 if f <= 9 else 2 for f in faces)
    assert changed.delta == expected and g.state.houses[L].tech == expected


def test_star_league_card_builds_a_unit_at_no_cost() -> None:
    """Card 37 during the Build (Spend Taxes) Phase only: one unit owed at no cost."""
    g = Game()
    set_house(g, L, hand=(37, 48, 42, 29))
    cmd = m.SWPlayCard(actor=L, house=L, card=37)
    assert _refused(g, cmd) == "wrong_phase"
    to_phase(g, L, "spend")
    g.run(cmd)
    assert g.state.houses[L].free_units == 1
    g.run(m.SWBuy(actor=L, house=L, item="house_mech", unit=RESERVE, free=True))
    assert _cash(g) == 38 and g.state.houses[L].free_units == 0
    assert _refused(g, m.SWBuy(actor=L, house=L, item="conventional", free=True)) == "not_free"


def test_taxes_add_administration_and_resource_management() -> None:
    """Liao: 27 from its Regions + 11 Administration. A captured Leader adds nothing; at tech
    17 resource management adds 7 (ruling SW-30: a Leader adds his skill only in a Region his
    House controls)."""
    g = Game()
    assert taxes(g.state, L) == 38
    move_leader(g, "liao-candace-liao", "Sian", status=LeaderStatus.CAPTURED)
    assert taxes(g.state, L) == 35
    move_leader(g, "liao-charles-ling", "Daniels")
    assert taxes(g.state, L) == 32
    set_house(g, L, tech=17)
    assert taxes(g.state, L) == 39


def test_unplaced_pieces_wait_for_a_later_turn() -> None:
    """Ruling SW-29: a new 'Mech not placed this turn is still set aside next turn."""
    g = _spend()
    g.run(m.SWBuy(actor=L, house=L, item="house_mech", unit=RESERVE))
    to_phase(g, L, "taxes")
    g.pass_turn(L)
    to_phase(g, L, "place")
    assert g.state.units[RESERVE].status is Status.PENDING
    g.run(m.SWPlaceUnits(actor=L, house=L, placements=(m.Placement(piece=RESERVE, region="Sian"),)))
    assert g.state.units[RESERVE].region == "Sian"
