"""What the referee or a player asks of the objective tracker.

Distances on the table ("within 2\"", "within 1\"") are not known to mekref: the command states
them, and the referee is the one who measured. What mekref does know (Garrisons, carriers, scan
tokens, the round) it checks itself.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.messages import Command, command_type
from mekref.rules.objectives.model import DropReason, Position, UnitType
from mekref.rules.record_type import Record, record


@record
class ObjectiveSpec(Record):
    objective_id: str
    garrison: str | None = None
    #: None: the text's default (hidden inside a Garrison, open outside).
    hidden: bool | None = None
    mobile: bool = False
    #: Where the token is placed (inches from the left and bottom edges); the 6" rule is
    #: checked against the other tokens and, with the table size, the far edges. With
    #: ``players_place``, an objective without a position is placed by a player in turn.
    position: Position | None = None


@record
class SquadSpec(Record):
    squad_id: str
    side: str
    types: frozenset[UnitType]
    garrison: str | None = None


@command_type("OBJSetUpScenario")
@record
class SetUpScenario(Command):
    seed: str
    sides: tuple[str, ...]
    objectives: tuple[ObjectiveSpec, ...]
    squads: tuple[SquadSpec, ...] = ()
    table_width: Fraction | None = None
    table_depth: Fraction | None = None
    #: The players take turns placing the objectives given no position (line 7), with
    #: OBJPlaceObjective before round 1; the table size is then required.
    players_place: bool = field(default=False, metadata=OMIT_IF_DEFAULT)
    #: The side that places first (the text does not say: the scenario must).
    first_placer: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@command_type("OBJPlaceObjective")
@record
class PlaceObjective(Command):
    """A side places one of the scenario's objectives, in its turn, before round 1."""

    side: str
    objective_id: str
    #: The token's centre, in inches from the table's left and bottom edges.
    position: Position
    #: The Garrison the token is put on top of, if any.
    garrison: str | None = None


@command_type("OBJAddSquad")
@record
class AddSquad(Command):
    squad: SquadSpec


@command_type("OBJStartRound")
@record
class StartRound(Command):
    round: int


@command_type("OBJClaim")
@record
class Claim(Command):
    """The squad is in coherency and within 2" (or in the objective's Garrison)."""

    objective_id: str
    squad_id: str
    #: An enemy Infantry or Vehicle unit also meets the claim criteria (blocks a reclaim).
    enemies_qualify: bool = False


@command_type("OBJScan")
@record
class Scan(Command):
    squad_id: str


@command_type("OBJMoveSquad")
@record
class MoveSquad(Command):
    """A Moving action: where the squad ends (its Garrison, or embarked in an Aircraft)."""

    squad_id: str
    garrison: str | None = None
    in_aircraft: bool = False


@command_type("OBJSearch")
@record
class Search(Command):
    objective_id: str
    squad_id: str
    #: Enemy units within 2" of the objective or in the same Garrison: -1 to the roll.
    enemies_near: bool = False
    #: Friendly units whose Scan Token is within 2" and is spent on this roll.
    scan_tokens: tuple[str, ...] = ()


@command_type("OBJPass")
@record
class Pass(Command):
    from_squad: str
    to_squad: str


@command_type("OBJDrop")
@record
class Drop(Command):
    squad_id: str
    reason: DropReason = DropReason.CHOSEN
    #: Enemy squads within 1" of the dropping squad, in the order their player chose.
    enemy_squads_within_1: tuple[str, ...] = ()


@command_type("OBJDestroySquad")
@record
class DestroySquad(Command):
    squad_id: str
    #: The enemy squad whose Close Quarters weapon destroyed it, if that is how it died.
    close_quarters_by: str | None = None
    enemy_squads_within_1: tuple[str, ...] = ()


@command_type("OBJDestroyGarrison")
@record
class DestroyGarrison(Command):
    garrison: str


@command_type("OBJExtract")
@record
class Extract(Command):
    """A scenario's extraction: the carrier leaves the table with the objective."""

    objective_id: str
