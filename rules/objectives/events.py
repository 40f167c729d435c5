"""What happened to the objective tokens. Each event carries everything its fold needs."""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.messages import Event, event_type
from mekref.rules.objectives.model import DropReason, Objective, Position, Squad
from mekref.rules.record_type import record

#: How an objective changed hands: claimed, found by a search, dropped, or taken in close
#: quarters.
CLAIMED_HOW = ("claim", "search", "drop", "close_quarters")


@event_type("OBJScenarioSetUp")
@record
class ScenarioSetUp(Event):
    seed: str
    sides: tuple[str, ...]
    objectives: tuple[Objective, ...]
    squads: tuple[Squad, ...]
    actor: str
    table_width: Fraction | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    table_depth: Fraction | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    #: The sides in their placing turns (line 7), when the players place objectives.
    placing_order: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    #: Objectives given a position whose far-edge 6" check was not made: no table size.
    far_edge_unchecked: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)


@event_type("OBJObjectivePlaced")
@record
class ObjectivePlaced(Event):
    objective_id: str
    side: str
    position: Position
    garrison: str | None
    hidden: bool


@event_type("OBJSquadAdded")
@record
class SquadAdded(Event):
    squad: Squad


@event_type("OBJRoundStarted")
@record
class RoundStarted(Event):
    round: int


@event_type("OBJClaimed")
@record
class Claimed(Event):
    objective_id: str
    squad_id: str
    side: str
    carried: bool
    previous_side: str | None
    how: str = field(metadata={"allowed": CLAIMED_HOW})  # "claim", "search", "drop" ...


@event_type("OBJScanTokenPlaced")
@record
class ScanTokenPlaced(Event):
    squad_id: str


@event_type("OBJSquadMoved")
@record
class SquadMoved(Event):
    squad_id: str
    garrison: str | None
    in_aircraft: bool
    scan_token_removed: bool


@event_type("OBJSearchMade")
@record
class SearchMade(Event):
    objective_id: str
    squad_id: str
    round: int
    die: int
    enemy_modifier: int
    scan_bonus: int
    total: int
    found: bool
    tokens_spent: tuple[str, ...]


@event_type("OBJPassed")
@record
class Passed(Event):
    objective_id: str
    from_squad: str
    to_squad: str


@event_type("OBJDropped")
@record
class Dropped(Event):
    objective_id: str
    squad_id: str
    reason: DropReason
    garrison: str | None


@event_type("OBJObjectiveDestroyed")
@record
class ObjectiveDestroyed(Event):
    objective_id: str
    squad_id: str


@event_type("OBJObjectiveRemoved")
@record
class ObjectiveRemoved(Event):
    objective_id: str
    garrison: str


@event_type("OBJSquadDestroyed")
@record
class SquadDestroyed(Event):
    squad_id: str


@event_type("OBJGarrisonDestroyed")
@record
class GarrisonDestroyed(Event):
    garrison: str
    #: The squads that were inside: they stand outside the ruin (ruling OBJ-13).
    squads_out: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)


@event_type("OBJExtracted")
@record
class Extracted(Event):
    objective_id: str
    squad_id: str
    side: str
