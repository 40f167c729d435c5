"""Set-up and maps: the sample board, the map format's checks, the garrison rule, Leaders."""

from __future__ import annotations

from dataclasses import replace

import pytest
from sw_helpers import PLAYERS, Game, placements, start_command

from mekref.rules.refusal import Refusal
from mekref.rules.succession_wars import game
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import load_oob_3025, parse_map, sample_map
from mekref.rules.succession_wars.model import REFEREE
from mekref.rules.tables import TableError


def _start(command: m.SWStartCampaign) -> list[m.Event]:  # type: ignore[name-defined]
    return game.SUCCESSION_WARS.decide(
        game.SUCCESSION_WARS.initial_state(),
        command,
        game.SUCCESSION_WARS.dice_for(game.SUCCESSION_WARS.initial_state(), command),
    )


def _refused(command: m.SWStartCampaign) -> str:
    with pytest.raises(Refusal) as err:
        _start(command)
    return err.value.code


def test_sample_map_holds_every_region_the_order_of_battle_names() -> None:
    board = sample_map()
    names = {r.name for r in board.regions}
    oob = load_oob_3025()
    named = {f.setup for f in oob.formations if not f.setup.lower().startswith(("free", "adj"))}
    named |= {c for cs in oob.centers.values() for c in cs}
    named |= {ld.setup for ld in oob.leaders if not ld.setup.startswith("with ")}
    named |= {"Daniels", "Emerson", "Donegal", "Bandit Kingdoms"}
    assert named <= names
    for region in board.regions:
        for other in region.borders:
            assert region.name in board.region(other).borders  # type: ignore[union-attr]
    capitals = sorted(r.house for r in board.regions if r.capital == "house")
    assert capitals == ["Davion", "Kurita", "Liao", "Marik", "Steiner"]
    assert [r.name for r in board.regions if r.terra] == ["Earth"]
    assert sum(r.periphery for r in board.regions) == 3


HEAD = '[map]\nname="x"\n'
ROW_A = '[[region]]\nname="A"\nhouse="H"\nresource=1\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HEAD + ROW_A + 'borders=["B"]\n', "unknown"),
        (HEAD + ROW_A + ROW_A, "twice"),
        (HEAD + ROW_A + 'capital="big"\n', "capital"),
        ("not toml [", "TOML"),
    ],
)
def test_map_format_refuses_inconsistent_boards(text: str, message: str) -> None:
    with pytest.raises(TableError, match=message):
        parse_map(text)


def test_borders_listed_on_one_side_go_both_ways() -> None:
    board = parse_map(
        '[map]\nname="x"\n[[region]]\nname="A"\nhouse="H"\nresource=1\nborders=["B"]\n'
        '[[region]]\nname="B"\nhouse="H"\nresource=2\ncapital="house"\ncenter=true\n'
    )
    assert board.region("B").borders == ("A",)  # type: ignore[union-attr]


def test_hostile_borders_must_be_garrisoned() -> None:
    """Daniels borders Liao's St. Ives: leaving it empty is refused."""
    moved = tuple(
        replace(p, region="Robinson") if p.region == "Daniels" and "js" not in p.piece else p
        for p in placements()
    )
    command = replace(start_command(), placements=moved)
    assert _refused(command) == "ungarrisoned_border"


def test_adjacent_setup_must_border_donegal() -> None:
    """Ruling SW-06: "Adjacent to Donegal" means a Steiner Region bordering Donegal."""
    moved = tuple(
        replace(p, region="Skye") if p.piece == "steiner-donegal-guards-1" else p
        for p in placements()
    )
    assert _refused(replace(start_command(), placements=moved)) == "bad_setup"


def test_free_setup_pieces_go_in_their_own_houses_regions() -> None:
    moved = tuple(
        replace(p, region="St. Ives") if p.piece == "davion-js-1" else p for p in placements()
    )
    assert _refused(replace(start_command(), placements=moved)) == "bad_setup"
    missing = tuple(p for p in placements() if p.piece != "davion-js-1")
    assert _refused(replace(start_command(), placements=missing)) == "bad_setup"
    extra = (*placements(), m.Placement(piece="davion-davion-guards-1", region="Robinson"))
    assert _refused(replace(start_command(), placements=extra)) == "bad_setup"


def test_leaders_named_without_values_are_not_placed() -> None:
    """Ruling SW-06: Isoroku Kurita, Margaret Aten, Beauregard Waslewski and Karl Yadi have no
    printed values and stay out; Leaders "with" a unit stand with its first counter."""
    state = Game().state
    names = {ld.name for ld in state.leaders.values()}
    assert not names & {"Isoroku Kurita", "Margaret Aten", "Beauregard Waslewski", "Karl Yadi"}
    assert len(state.leaders) == 5 * 4 + 5  # four rated Leaders a House, five Mercenary
    felsner = state.leaders["davion-ran-felsner"]
    assert felsner.region == state.units["davion-crucis-lancers-1"].region
    kusaka = state.leaders["marik-thaddeus-kusaka"]
    assert (kusaka.admin, kusaka.loyalty, kusaka.mercenary) == (0, 7, True)
    assert state.leaders["marik-thomas-marik"].region == "Earth"


def test_only_the_referee_sets_up_once() -> None:
    assert _refused(replace(start_command(), actor="Liao")) == "referee_only"
    assert _refused(replace(start_command(), players=PLAYERS[:4])) == "bad_players"
    g = Game()
    with pytest.raises(Refusal) as err:
        g.run(start_command())
    assert err.value.code == "already_started"


def test_an_unknown_scenario_is_refused() -> None:
    """Ruling SW-14: "3025" and "2786" are the scenarios; a 3025 set-up file given as 2786 is
    refused for its pieces (test_sw_2786.py sets 2786 up)."""
    assert _refused(replace(start_command(), scenario="3052")) == "scenario_not_supported"
    assert _refused(replace(start_command(), scenario="2786")) == "bad_setup"


def test_commands_before_set_up_are_refused() -> None:
    state = game.SUCCESSION_WARS.initial_state()
    with pytest.raises(Refusal) as err:
        game.SUCCESSION_WARS.decide(
            state, m.SWEndPhase(actor=REFEREE, house="Liao"), game.SUCCESSION_WARS.dice_for(state)
        )
    assert err.value.code == "not_started"


def test_stale_dice_are_an_error() -> None:
    g = Game()
    with pytest.raises(ValueError):
        game.SUCCESSION_WARS.decide(
            g.state,
            m.SWEndPhase(actor="Liao", house="Liao"),
            game.SUCCESSION_WARS.dice_for(g.state).__class__(g.state.seed, 0),
        )
