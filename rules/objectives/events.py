"""What happened to the objective tokens. Each event carries everything its fold needs."""

from __future__ import annotations

from dataclasses import dataclass

from mekref.rules.messages import EVENTS, Event
from mekref.rules.objectives.model import DropReason, Objective, Squad


@EVENTS.register("OBJScenarioSetUp")
@dataclass(frozen=True, kw_only=True)
class ScenarioSetUp(Event):
    seed: str
    sides: tuple[str, ...]
    objectives: tuple[Objective, ...]
    squads: tuple[Squad, ...]
    actor: str


@EVENTS.register("OBJSquadAdded")
@dataclass(frozen=True, kw_only=True)
class SquadAdded(Event):
    squad: Squad


@EVENTS.register("OBJRoundStarted")
@dataclass(frozen=True, kw_only=True)
class RoundStarted(Event):
    round: int


@EVENTS.register("OBJClaimed")
@dataclass(frozen=True, kw_only=True)
class Claimed(Event):
    objective_id: str
    squad_id: str
    side: str
    carried: bool
    previous_side: str | None
    how: str  # "claim", "search", "drop" or "close_quarters"


@EVENTS.register("OBJScanTokenPlaced")
@dataclass(frozen=True, kw_only=True)
class ScanTokenPlaced(Event):
    squad_id: str


@EVENTS.register("OBJSquadMoved")
@dataclass(frozen=True, kw_only=True)
class SquadMoved(Event):
    squad_id: str
    garrison: str | None
    in_aircraft: bool
    scan_token_removed: bool


@EVENTS.register("OBJSearchMade")
@dataclass(frozen=True, kw_only=True)
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


@EVENTS.register("OBJPassed")
@dataclass(frozen=True, kw_only=True)
class Passed(Event):
    objective_id: str
    from_squad: str
    to_squad: str


@EVENTS.register("OBJDropped")
@dataclass(frozen=True, kw_only=True)
class Dropped(Event):
    objective_id: str
    squad_id: str
    reason: DropReason
    garrison: str | None


@EVENTS.register("OBJObjectiveDestroyed")
@dataclass(frozen=True, kw_only=True)
class ObjectiveDestroyed(Event):
    objective_id: str
    squad_id: str


@EVENTS.register("OBJObjectiveRemoved")
@dataclass(frozen=True, kw_only=True)
class ObjectiveRemoved(Event):
    objective_id: str
    garrison: str


@EVENTS.register("OBJSquadDestroyed")
@dataclass(frozen=True, kw_only=True)
class SquadDestroyed(Event):
    squad_id: str


@EVENTS.register("OBJGarrisonDestroyed")
@dataclass(frozen=True, kw_only=True)
class GarrisonDestroyed(Event):
    garrison: str


@EVENTS.register("OBJExtracted")
@dataclass(frozen=True, kw_only=True)
class Extracted(Event):
    objective_id: str
    squad_id: str
    side: str
