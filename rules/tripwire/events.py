"""The events a campaign log holds. Every field needed to re-fold the state is in the event."""

from __future__ import annotations

from dataclasses import field

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.messages import Event, RefereeNote, event_type
from mekref.rules.record_type import record
from mekref.rules.tripwire.commands import SideSpec
from mekref.rules.tripwire.model import CrewSkills, ForceDescription
from mekref.rules.tripwire.state import PoolKind


@event_type("CampaignCreated")
@record
class CampaignCreated(Event):
    name: str
    ruleset: str
    seed: str
    sides: tuple[SideSpec, ...]
    actor: str
    # The house rules (002_*.txt) as options of this campaign (``campaign new --house-rules``,
    # rulings HOUSE-31 on). Left out of the JSON while False, so older logs decode unchanged.
    house_rules: bool = field(default=False, metadata=OMIT_IF_DEFAULT)


@event_type("ForceImported")
@record
class ForceImported(Event):
    side_id: str
    force: ForceDescription
    spare_people: tuple[CrewSkills, ...]
    violations: tuple[str, ...]  # described violations; empty when the force passed
    accepted_unchecked: RefereeNote | None
    actor: str


@event_type("PoolOpened")
@record
class PoolOpened(Event):
    pool_id: str
    side_id: str
    name: str
    kind: PoolKind
    balance: int
    capacity: int | None
    actor: str
    location: str | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # LOCATION pools


@event_type("PoolCredited")
@record
class PoolCredited(Event):
    pool_id: str
    amount: int
    reason: str
    actor: str


@event_type("PoolDebited")
@record
class PoolDebited(Event):
    pool_id: str
    amount: int
    reason: str
    actor: str


@event_type("WarChestTransferred")
@record
class WarChestTransferred(Event):
    from_pool: str
    to_pool: str
    amount: int
    actor: str
    # The referee who moved WP by hand, and why (L59 wants a Load/Unload, T-WP1).
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@event_type("PersonHitsSet")
@record
class PersonHitsSet(Event):
    person_id: str
    previous_hits: int
    hits: int
    override: RefereeNote
    actor: str


@event_type("PersonHealed")
@record
class PersonHealed(Event):
    person_id: str
    pool_id: str
    hits_before: int
    hits_after: int
    cost_sp: int
    track: int
    actor: str
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)  # R-WHERE-1
    # The strategic day it was paid on, while the map runs (the hospital's daily heal, R-HEAL-4).
    day: int | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@event_type("DeathRollMade")
@record
class DeathRollMade(Event):
    person_id: str
    dies: bool
    actor: str
