"""The events a campaign log holds. Every field needed to re-fold the state is in the event."""

from __future__ import annotations

from dataclasses import dataclass

from mekref.rules.campaign_commands import SideSpec
from mekref.rules.campaign_state import PoolKind
from mekref.rules.messages import EVENTS, Event, RefereeNote
from mekref.rules.model import CrewSkills, ForceDescription


@EVENTS.register("CampaignCreated")
@dataclass(frozen=True, kw_only=True)
class CampaignCreated(Event):
    name: str
    ruleset: str
    seed: str
    sides: tuple[SideSpec, ...]
    actor: str


@EVENTS.register("ForceImported")
@dataclass(frozen=True, kw_only=True)
class ForceImported(Event):
    side_id: str
    force: ForceDescription
    spare_people: tuple[CrewSkills, ...]
    violations: tuple[str, ...]  # described violations; empty when the force passed
    accepted_unchecked: RefereeNote | None
    actor: str


@EVENTS.register("PoolOpened")
@dataclass(frozen=True, kw_only=True)
class PoolOpened(Event):
    pool_id: str
    side_id: str
    name: str
    kind: PoolKind
    balance: int
    capacity: int | None
    actor: str


@EVENTS.register("PoolCredited")
@dataclass(frozen=True, kw_only=True)
class PoolCredited(Event):
    pool_id: str
    amount: int
    reason: str
    actor: str


@EVENTS.register("PoolDebited")
@dataclass(frozen=True, kw_only=True)
class PoolDebited(Event):
    pool_id: str
    amount: int
    reason: str
    actor: str


@EVENTS.register("WarChestTransferred")
@dataclass(frozen=True, kw_only=True)
class WarChestTransferred(Event):
    from_pool: str
    to_pool: str
    amount: int
    actor: str


@EVENTS.register("PersonHitsSet")
@dataclass(frozen=True, kw_only=True)
class PersonHitsSet(Event):
    person_id: str
    previous_hits: int
    hits: int
    override: RefereeNote
    actor: str


@EVENTS.register("PersonHealed")
@dataclass(frozen=True, kw_only=True)
class PersonHealed(Event):
    person_id: str
    pool_id: str
    hits_before: int
    hits_after: int
    cost_sp: int
    track: int
    actor: str


@EVENTS.register("DeathRollMade")
@dataclass(frozen=True, kw_only=True)
class DeathRollMade(Event):
    person_id: str
    dies: bool
    actor: str
