"""The state of a scenario's objective tokens and of the squads that can interact with them."""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum
from fractions import Fraction

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.record_type import Record, record


class UnitType(StrEnum):
    """The unit types the objective rules name (a unit may have several)."""

    INFANTRY = "infantry"
    VEHICLE = "vehicle"
    TRANSPORT = "transport"
    AIRCRAFT = "aircraft"


class ObjectiveStatus(StrEnum):
    UNPLACED = "unplaced"  # a player has still to place it (line 7: players take turns)
    ON_TABLE = "on_table"  # lying on the table or in a Garrison, claimed or not
    CARRIED = "carried"  # a mobile objective moving with its squad
    REMOVED = "removed"  # its Garrison was destroyed while it lay there
    DESTROYED = "destroyed"  # its carrier died inside an Aircraft
    EXTRACTED = "extracted"  # carried off the table where a scenario asks for it


class DropReason(StrEnum):
    CHOSEN = "chosen"  # "A squad can drop an Objective at any time"
    OUT_OF_COHERENCY = "out_of_coherency"
    FAILED_FORTITUDE = "failed_fortitude"
    CARRIER_DESTROYED = "carrier_destroyed"


@record
class Position(Record):
    """Inches from the table's left and bottom edges (exact: measured to a token's centre)."""

    x: Fraction
    y: Fraction


@record
class Objective(Record):
    objective_id: str
    hidden: bool
    mobile: bool
    garrison: str | None  # where it lies (or where its carrier is, while carried)
    status: ObjectiveStatus = ObjectiveStatus.ON_TABLE
    claimed_by: str | None = None  # a side
    carrier: str | None = None  # a squad, while carried
    #: Where its token was placed, when that was given (line 7's 6" rule is checked against it).
    position: Position | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    #: While unplaced: what the scenario said of it being hidden (None: the text's default,
    #: decided by where it is placed, lines 15 and 19).
    hidden_stated: bool | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@record
class Squad(Record):
    squad_id: str
    side: str
    types: frozenset[UnitType]
    garrison: str | None = None
    in_aircraft: bool = False
    carrying: str | None = None
    scan_token: bool = False
    destroyed: bool = False
    #: The round of the squad's last action and how many of that round's actions it used.
    actions_round: int = 0
    actions_used: int = 0

    def actions_used_in(self, round_: int) -> int:
        return self.actions_used if self.actions_round == round_ else 0

    @property
    def may_carry(self) -> bool:
        # "Only Infantry or Vehicle squads may carry Objectives" (line 31); they also claim.
        return bool(self.types & {UnitType.INFANTRY, UnitType.VEHICLE})

    @property
    def may_scan(self) -> bool:
        # "A Transport that doesn't have the Aircraft type may choose to make a scan action"
        return UnitType.TRANSPORT in self.types and UnitType.AIRCRAFT not in self.types


@record
class ObjectivesState(Record):
    seed: str = ""
    set_up: bool = False
    sides: tuple[str, ...] = ()
    round: int = 0  # 0 until the first round starts
    objectives: dict[str, Objective] = field(default_factory=dict)
    squads: dict[str, Squad] = field(default_factory=dict)
    rolls_used: int = 0
    events_applied: int = 0
    #: The table's size in inches, when the scenario gave it (the far edges of line 7's rule).
    table_width: Fraction | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    table_depth: Fraction | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    #: The sides in the order they take turns placing objectives (line 7); empty: the scenario
    #: placed them all at set-up.
    placing_order: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)
    placements_made: int = field(default=0, metadata=OMIT_IF_DEFAULT)
    #: Garrisons destroyed so far, in the order they fell (line 7).
    destroyed_garrisons: tuple[str, ...] = field(default=(), metadata=OMIT_IF_DEFAULT)

    def next_placer(self) -> str | None:
        """The side whose turn it is to place an objective, or None when none is left."""
        if not self.placing_order:
            return None
        if not any(o.status is ObjectiveStatus.UNPLACED for o in self.objectives.values()):
            return None
        return self.placing_order[self.placements_made % len(self.placing_order)]


def field_names(state: ObjectivesState) -> dict[str, tuple[str, ...]]:
    """The names this scenario's commands take, by field (the ``field_names`` hook): its sides,
    objectives and squads, as the deciders look them up (``unknown_objective``). A Garrison
    is named by the table, not the scenario: its names are not listed."""
    sides = tuple(state.sides)
    squads = tuple(state.squads)
    return {
        "side": sides,
        "first_placer": sides,
        "objective_id": tuple(state.objectives),
        "squad_id": squads,
        "from_squad": squads,
        "to_squad": squads,
        "scan_tokens": squads,  # the squads whose Scan Tokens are spent
        "enemy_squads_within_1": squads,
        "close_quarters_by": squads,
    }
