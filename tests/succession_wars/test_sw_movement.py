"""JumpShip movement: range, capacity, one JumpShip a turn, enemies in the way, Terra, captures."""

from __future__ import annotations

import pytest
from sw_helpers import Game, clear_region, move_ship, move_unit, set_house, to_phase

from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.model import Kind, LeaderStatus, Status

L = "Liao"
CAV1 = "liao-st-ives-armored-cavalry-1"
CAV2 = "liao-st-ives-armored-cavalry-2"


def _game() -> Game:
    g = Game()
    to_phase(g, L, "movement")
    return g


def _move(
    g: Game, ship: str, path: tuple[str, ...], up: tuple[str, ...] = (), down: tuple[str, ...] = ()
) -> list[m.Event]:  # type: ignore[name-defined]
    return g.run(
        m.SWMoveJumpShip(actor=L, house=L, jumpship=ship, pick_up=up, path=path, drop_off=down)
    )


def _refused(
    g: Game, ship: str, path: tuple[str, ...], up: tuple[str, ...] = (), down: tuple[str, ...] = ()
) -> str:
    with pytest.raises(Refusal) as err:
        _move(g, ship, path, up, down)
    return err.value.code


def test_range_is_three_regions_a_turn() -> None:
    """liao-js-3 at Sian: Capella, Sian, Tikonov is three Regions; a fourth is out of range."""
    g = _game()
    assert _refused(g, "liao-js-3", ("Capella", "Sian", "Tikonov", "Sian")) == "out_of_range"
    _move(g, "liao-js-3", ("Capella", "Sian"))
    _move(g, "liao-js-3", ("Tikonov",))
    assert g.state.jumps_used["liao-js-3"] == 3
    assert _refused(g, "liao-js-3", ("Sian",)) == "out_of_range"


@pytest.mark.parametrize(("tech", "reach"), [(15, 4), (-7, 2), (-10, 2), (14, 3)])
def test_range_follows_the_tech_level(tech: int, reach: int) -> None:
    g = _game()
    set_house(g, L, tech=tech)
    loop = ("Capella", "Sian", "Tikonov", "Sian", "Capella")
    assert _refused(g, "liao-js-3", loop[: reach + 1]) == "out_of_range"
    _move(g, "liao-js-3", loop[:reach])


def test_capacity_counts_mechs_one_and_conventional_units_two() -> None:
    """liao-js-2 (2 units) takes both Cavalry 'Mechs and a Leader (no space), but a
    conventional unit fills it alone."""
    g = _game()
    assert g.state.jumpships["liao-js-2"].capacity == 2
    _move(g, "liao-js-2", (), up=(CAV1, CAV2, "liao-charles-ling"))
    g = _game()
    move_unit(g, "liao-chesterton-reserves-1", "St. Ives", kind=Kind.CONVENTIONAL)
    assert _refused(g, "liao-js-2", (), up=("liao-chesterton-reserves-1", CAV1)) == "over_capacity"
    _move(g, "liao-js-2", (), up=("liao-chesterton-reserves-1",))


def test_units_travel_on_one_jumpship_a_turn() -> None:
    """The Cavalry ride liao-js-2 to Sian; liao-js-3 may not carry them on, but liao-js-2 may."""
    g = _game()
    _move(g, "liao-js-2", ("Sian",), up=(CAV1,), down=(CAV1,))
    assert _refused(g, "liao-js-3", ("Tikonov",), up=(CAV1,)) == "one_jumpship_per_turn"
    _move(g, "liao-js-2", ("Tikonov",), up=(CAV1,), down=(CAV1,))
    assert g.state.units[CAV1].region == "Tikonov"


def test_no_moving_through_enemy_combat_units() -> None:
    """Daniels holds Lindon's Company: a ship may stop there but not pass through."""
    g = _game()
    assert _refused(g, "liao-js-2", ("Daniels", "Emerson")) == "enemy_in_path"


def test_units_entering_enemy_region_must_stop() -> None:
    """Ruling SW-19: combat units carried into enemy combat units must be dropped there."""
    g = _game()
    assert _refused(g, "liao-js-2", ("Daniels",), up=(CAV1,)) == "must_stop"
    _move(g, "liao-js-2", ("Daniels",), up=(CAV1,), down=(CAV1,))
    # The ship may go back to a friendly Region, not on into Davion space.
    assert _refused(g, "liao-js-2", ("Emerson",)) == "must_go_home"
    _move(g, "liao-js-2", ("St. Ives",))


def test_empty_jumpship_may_pass_earth_but_not_with_units() -> None:
    """Ruling SW-20: an empty JumpShip passes Earth; one carrying combat units may not."""
    g = _game()
    ship = "liao-js-3"
    _move(g, ship, ("Tikonov",))
    assert _refused(g, ship, ("Earth", "Tikonov"), up=("liao-sian-reserves-1",)) == "terra"
    _move(g, ship, ("Earth", "Tikonov"))


def test_jumpships_and_leaders_left_alone_are_captured() -> None:
    """With Lindon's Company gone, Davion's 1-unit JumpShip sits alone at Daniels: the Cavalry
    landing there capture it at once. Charles Ling dropped alone beside enemy combat units is
    captured and held at the enemy capital."""
    g = _game()
    clear_region(g, "Daniels")
    move_unit(g, "davion-lindons-company-1", "Emerson")
    move_ship(g, "davion-js-6", "Daniels", status=Status.ACTIVE)
    events = _move(g, "liao-js-2", ("Daniels",), up=(CAV1,), down=(CAV1,))
    assert isinstance(events[-1], m.SWPiecesCaptured)
    assert g.state.jumpships["davion-js-6"].owner == L
    g2 = _game()
    _move(g2, "liao-js-1", ("Daniels",), up=("liao-charles-ling",), down=("liao-charles-ling",))
    ling = g2.state.leaders["liao-charles-ling"]
    assert (ling.status, ling.region, ling.captor) == (
        LeaderStatus.CAPTURED,
        "New Avalon",
        "Davion",
    )


def test_orders_out_of_turn_or_phase_are_refused() -> None:
    g = Game()
    with pytest.raises(Refusal) as err:
        g.run(m.SWMoveJumpShip(actor=L, house=L, jumpship="liao-js-1", path=("Sian",)))
    assert err.value.code == "wrong_phase"
    to_phase(g, L, "movement")
    with pytest.raises(Refusal) as err:
        g.run(m.SWMoveJumpShip(actor="Davion", house=L, jumpship="liao-js-1", path=("Sian",)))
    assert err.value.code == "not_your_house"
    with pytest.raises(Refusal) as err:
        g.run(m.SWMoveJumpShip(actor="Davion", house="Davion", jumpship="davion-js-1"))
    assert err.value.code == "not_your_turn"
    assert _refused(g, "liao-js-1", ("Tikonov",)) == "not_adjacent"
