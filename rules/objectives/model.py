"""The state of a scenario's objective tokens and of the squads that can interact with them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction


class UnitType(StrEnum):
    """The unit types the objective rules name (a unit may have several)."""

    INFANTRY = "infantry"
    VEHICLE = "vehicle"
    TRANSPORT = "transport"
    AIRCRAFT = "aircraft"


class ObjectiveStatus(StrEnum):
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


@dataclass(frozen=True, kw_only=True)
class Position:
    """Inches from the table's left and bottom edges (exact: measured to a token's centre)."""

    x: Fraction
    y: Fraction


@dataclass(frozen=True, kw_only=True)
class Objective:
    objective_id: str
    hidden: bool
    mobile: bool
    garrison: str | None  # where it lies (or where its carrier is, while carried)
    status: ObjectiveStatus = ObjectiveStatus.ON_TABLE
    claimed_by: str | None = None  # a side
    carrier: str | None = None  # a squad, while carried


@dataclass(frozen=True, kw_only=True)
class Squad:
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


@dataclass(frozen=True, kw_only=True)
class ObjectivesState:
    seed: str = ""
    set_up: bool = False
    sides: tuple[str, ...] = ()
    round: int = 0  # 0 until the first round starts
    objectives: dict[str, Objective] = field(default_factory=dict)
    squads: dict[str, Squad] = field(default_factory=dict)
    rolls_used: int = 0
    events_applied: int = 0
