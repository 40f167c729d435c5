"""Shared set-up for the Succession Wars tests: a two-player game on the sample map.

Player "Ann" takes Davion and Steiner, player "Bo" takes Kurita, Marik and Liao (the rule book's
two-player split). Free set-up pieces go where :func:`placements` says: every hostile border
Region gets a garrison, and the Davion border at Daniels is held by Lindon's Company alone (a
1-strength Mercenary) with a 1-unit JumpShip beside it, so the scripted war has a weak spot.
"""

from __future__ import annotations

from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event
from mekref.rules.succession_wars import game
from mekref.rules.succession_wars import messages as m
from mekref.rules.succession_wars.data import sample_map
from mekref.rules.succession_wars.model import REFEREE, SWState
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
        self.state: SWState = game.initial_state()
        self.log: list[Event] = []
        self.commands: list[Command] = []
        self.run(start_command(seed))

    def run(self, command: Command) -> list[Event]:
        events = game.decide(self.state, command, game.dice_for(self.state, command))
        self.commands.append(command)
        self.log.extend(events)
        self.state = game.fold(events, self.state)
        return events

    def dice(self) -> Dice:
        return game.dice_for(self.state)

    def end_phase(self, house: str, times: int = 1) -> None:
        for _ in range(times):
            self.run(m.SWEndPhase(actor=house, house=house))

    def pass_turn(self, house: str) -> None:
        """End every remaining phase of ``house``'s turn."""
        assert self.state.active == house
        while self.state.active == house and not self.state.winner:
            self.end_phase(house)
