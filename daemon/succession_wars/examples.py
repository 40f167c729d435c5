"""The Succession Wars' example commands for ``mekref game example``: built from the rule
set's own data rather than bundled as JSON, so the example always names every free set-up piece
of the Order of Battle: 93 today.
"""

from __future__ import annotations

from typing import Any

from mekref.rules.codec import to_jsonable
from mekref.rules.registry import ruleset
from mekref.rules.succession_wars import messages as sw
from mekref.rules.succession_wars.data import load_oob_3025, sample_map
from mekref.rules.succession_wars.model import REFEREE, Status, SWMap
from mekref.rules.succession_wars.scenario_2786 import example_placements
from mekref.rules.succession_wars.start import counters_3025, free_setup_pieces, jumpships_3025

SUCCESSION_WARS = "succession_wars"
EXAMPLE_SEED = "change-me-before-the-game"

#: The rule book's two-player split (L13): one player takes Davion and Steiner, the other
#: Kurita, Marik and Liao. Each House still plays its own turn with its own treasury.
SW_PLAYERS = (
    ("Davion", "Player 1"),
    ("Steiner", "Player 1"),
    ("Kurita", "Player 2"),
    ("Marik", "Player 2"),
    ("Liao", "Player 2"),
)


def example_start(scenario: str = "") -> dict[str, Any]:
    """The example start command, as JSON (``scenario``: "3025", the default, or "2786")."""
    command = _sw_start(scenario)
    data = to_jsonable(command)
    assert isinstance(data, dict)
    # The board by name: 'mekref game start' fills it in (succession_wars/sw_maps.py), and
    # a short file is one a group can read and edit.
    return {"type": command.TYPE, **data, "map": command.map.name}


def example_next(scenario: str = "") -> dict[str, Any]:
    """A command that the campaign set up by :func:`example_start` accepts next."""
    # Fold the example start (pure, the same dice the referee's store will roll) and give
    # the active House's next step: end its Draw phase, or (2786) draw from the Mercenary
    # pile, the first thing the scenario's first round does (L603).
    game = ruleset(SUCCESSION_WARS)
    _, state = game.execute(game.initial_state(), _sw_start(scenario))
    house = str(state.active)
    kind = "SWDrawMercenary" if state.scenario == "2786" else "SWEndPhase"
    return {"type": kind, "actor": house, "house": house}


def sw_placements(board: SWMap) -> tuple[sw.Placement, ...]:
    """A legal Region for every free set-up piece of the 3025 Order of Battle.

    A piece that must set up "adjacent to" a Region goes to the first Region of its House (in
    map order) bordering it. The other counters first garrison, one each, the House's Regions
    with a hostile border that no named set-up already holds (the garrison rule); the rest,
    and every JumpShip, stand at the House capital."""
    oob = load_oob_3025()
    counters = counters_3025(oob)
    held = {
        (unit.house, setup)
        for unit, setup in counters
        if unit.status is Status.ACTIVE and _named(setup)
    }
    rules = {unit.id: (unit.house, setup) for unit, setup in counters}
    placed: dict[str, str] = {}
    for piece in free_setup_pieces(oob):
        house, setup = rules.get(piece, ("", ""))
        if setup.lower().startswith(_ADJACENT):
            placed[piece] = _adjacent(board, house, setup[len(_ADJACENT) :])
            held.add((house, placed[piece]))
    bare = {house: _hostile_borders(board, house, held) for house in oob.sequence}
    ships = {ship.id: ship.owner for ship in jumpships_3025(oob)}
    for piece in free_setup_pieces(oob):
        if piece in placed:
            continue
        house = ships.get(piece) or rules[piece][0]
        needy = bare[house] if piece not in ships else []
        placed[piece] = needy.pop(0) if needy else board.house_capital(house)
    return tuple(sw.Placement(piece=p, region=r) for p, r in placed.items())


_ADJACENT = "adjacent to "


def _named(setup: str) -> bool:
    lowered = setup.lower()
    return not (lowered.startswith("free") or lowered.startswith(_ADJACENT))


def _adjacent(board: SWMap, house: str, target: str) -> str:
    for region in board.regions:
        if region.house == house and target in region.borders:
            return region.name
    raise ValueError(f"{board.name}: no {house} Region borders {target}")


def _hostile_borders(board: SWMap, house: str, held: set[tuple[str, str]]) -> list[str]:
    out = []
    for region in board.regions:
        if region.house != house or (house, region.name) in held:
            continue
        for name in region.borders:
            other = board.region(name)
            if other is not None and other.house != house and not other.periphery:
                out.append(region.name)
                break
    return out


def _sw_start(scenario: str = "") -> sw.SWStartCampaign:
    board = sample_map()
    # The First Succession War: every counter, JumpShip and Leader is placed (L601).
    first_war = scenario == "2786"
    return sw.SWStartCampaign(
        actor=REFEREE,
        seed=EXAMPLE_SEED,
        map=board,
        players=SW_PLAYERS,
        placements=(example_placements if first_war else sw_placements)(board),
        scenario="2786" if first_war else "3025",
    )
