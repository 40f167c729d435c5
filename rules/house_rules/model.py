"""House-rule campaign state: pilots, morale exemptions, repair jobs, exchange rates."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from mekref.rules.house_rules.acquisition import Acquisition
from mekref.rules.house_rules.pilots import PilotStatus
from mekref.rules.house_rules.repairs import Attempt


@dataclass(frozen=True, kw_only=True)
class Pilot:
    pilot_id: str
    name: str
    xp: int
    hits: int = 0
    status: PilotStatus = PilotStatus.ACTIVE
    battles: int = 0


@dataclass(frozen=True, kw_only=True)
class PartJob:
    """One part's repair or replacement attempts (a new part after a failed install starts a
    fresh job under a new id)."""

    part_id: str
    job: str  # "repair" or "replace"
    attempts: tuple[Attempt, ...] = ()
    marks: tuple[str, ...] = ()  # botch marks, "(R)", "(V)", "(E)"


@dataclass(frozen=True, kw_only=True)
class HouseState:
    seed: str = ""
    created: bool = False
    pilots: dict[str, Pilot] = field(default_factory=dict)
    morale_exempt: frozenset[str] = frozenset()
    jobs: dict[str, PartJob] = field(default_factory=dict)
    exchange_rates: dict[str, Fraction] = field(default_factory=dict)
    #: The last search for each item whose bids are still open (bought: closed; a new search
    #: for the item replaces them, ruling HOUSE-23).
    offers: dict[str, Acquisition] = field(default_factory=dict)
    rolls_used: int = 0
    events_applied: int = 0
