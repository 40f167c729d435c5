"""Shared set-up for the Succession Wars tests: a two-player game on the sample map.

Player "Ann" takes Davion and Steiner, player "Bo" takes Kurita, Marik and Liao (the rule book's
two-player split). Free set-up pieces go where :func:`placements` says: every hostile border
Region gets a garrison, and the Davion border at Daniels is held by Lindon's Company alone (a
1-strength Mercenary) with a 1-unit JumpShip beside it, so the scripted war has a weak spot.
"""

from __future__ import annotations

from dataclasses import replace

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event
from mekref.rules.succession_wars import game
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import sample_map
from mekref.rules.succession_wars.model import REFEREE, Status, SWState
from mekref.rules.succession_wars.start import free_setup_pieces

SEED = "succession-wars-test"
PLAYERS = (
    ("Davion", "Ann"),
    ("Steiner", "Ann"),
    ("Kurita", "Bo"),
    ("Marik", "Bo"),
    ("Liao", "Bo"),
)

# Where each House's free set-up pieces go unless named in SPECIAL.
DEFAULT = {
    "davion": "Robinson",
    "kurita": "Dieron",
    "steiner": "Tharkad",
    "marik": "Atreus",
    "liao": "Sian",
}
SPECIAL = {
    "davion-lindons-company-1": "Daniels",
    "davion-js-6": "Daniels",  # the 1-unit JumpShip
    "steiner-donegal-guards-1": "Odessa",
    "steiner-donegal-guards-2": "Odessa",
    "steiner-donegal-guards-3": "Hesperus",
    "liao-capellan-hussars-1": "Capella",
    "liao-sian-reserves-1": "Tikonov",
    "liao-js-1": "St. Ives",
    "liao-js-2": "St. Ives",
    "liao-js-3": "Sian",
}


def placements() -> tuple[m.Placement, ...]:
    out = []
    for piece in free_setup_pieces():
        region = SPECIAL.get(piece) or DEFAULT[piece.split("-")[0]]
        out.append(m.Placement(piece=piece, region=region))
    return tuple(out)


def start_command(seed: str = SEED) -> m.SWStartCampaign:
    return m.SWStartCampaign(
        actor=REFEREE, seed=seed, map=sample_map(), players=PLAYERS, placements=placements()
    )


class Game:
    """A running game: every command is decided, logged and folded."""

    def __init__(self, seed: str = SEED) -> None:
        self.state: SWState = game.SUCCESSION_WARS.initial_state()
        self.log: list[Event] = []
        self.commands: list[Command] = []
        self.run(start_command(seed))

    def run(self, command: Command) -> list[Event]:
        events = game.SUCCESSION_WARS.decide(
            self.state, command, game.SUCCESSION_WARS.dice_for(self.state, command)
        )
        self.commands.append(command)
        self.log.extend(events)
        self.state = game.SUCCESSION_WARS.fold(events, self.state)
        return events

    def dice(self) -> Dice:
        return game.SUCCESSION_WARS.dice_for(self.state)

    def end_phase(self, house: str, times: int = 1) -> None:
        for _ in range(times):
            self.run(m.SWEndPhase(actor=house, house=house))

    def pass_turn(self, house: str) -> None:
        """End every remaining phase of ``house``'s turn."""
        assert self.state.active == house
        while self.state.active == house and not self.state.winner:
            self.end_phase(house)


# --- state surgery for focused tests --------------------------------------------------------------


def to_phase(g: Game, house: str, phase: str) -> None:
    """Pass whole turns until ``house`` is active, then end phases until ``phase``."""
    while g.state.active != house:
        g.pass_turn(g.state.active)
    while g.state.phase.value != phase:
        g.end_phase(house)


def edit(g: Game, **changes: object) -> None:
    """Replace parts of the state directly (only for tests that set up a position)."""
    g.state = replace(g.state, **changes)  # type: ignore[arg-type]


def move_unit(g: Game, uid: str, region: str, **changes: object) -> None:
    unit = g.state.units[uid]
    units = dict(g.state.units)
    fields: dict[str, object] = {"status": Status.ACTIVE, **changes}
    units[uid] = replace(unit, region=region, **fields)  # type: ignore[arg-type]
    edit(g, units=units)


def move_ship(g: Game, sid: str, region: str, **changes: object) -> None:
    ships = dict(g.state.jumpships)
    ships[sid] = replace(g.state.jumpships[sid], region=region, **changes)  # type: ignore[arg-type]
    edit(g, jumpships=ships)


def move_leader(g: Game, lid: str, region: str, **changes: object) -> None:
    leaders = dict(g.state.leaders)
    leaders[lid] = replace(g.state.leaders[lid], region=region, **changes)  # type: ignore[arg-type]
    edit(g, leaders=leaders)


def clear_region(g: Game, region: str) -> None:
    """Take every unit, JumpShip and Leader out of ``region`` (units to the destroyed pile)."""
    units = {
        k: (replace(u, region="", status=Status.DESTROYED) if u.region == region else u)
        for k, u in g.state.units.items()
    }
    ships = {
        k: (replace(s, region="", status=Status.DESTROYED) if s.region == region else s)
        for k, s in g.state.jumpships.items()
    }
    leaders = {
        k: (replace(ld, region="Atreus") if ld.region == region else ld)
        for k, ld in g.state.leaders.items()
    }
    edit(g, units=units, jumpships=ships, leaders=leaders)


def set_house(g: Game, house: str, **changes: object) -> None:
    houses = dict(g.state.houses)
    houses[house] = replace(houses[house], **changes)  # type: ignore[arg-type]
    edit(g, houses=houses)


def set_region(g: Game, region: str, **changes: object) -> None:
    regions = dict(g.state.regions)
    regions[region] = replace(regions[region], **changes)  # type: ignore[arg-type]
    edit(g, regions=regions)
