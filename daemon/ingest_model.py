"""What the battle-file pipeline (:mod:`mekref.daemon.ingest`) is asked and what it answers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from mekref.rules.messages import Event, RefereeNote

DEFAULT_ACTOR = "mekref serve"


class Outcome(StrEnum):
    APPLIED = "applied"
    ALREADY_APPLIED = "already_applied"
    UNMATCHED = "unmatched"
    #: A savegame of a game not yet over (a round autosave): held, not applied, not quarantined.
    WAITING = "waiting"
    QUARANTINED = "quarantined"
    ALREADY_QUARANTINED = "already_quarantined"
    #: The caller named a campaign and the file does not belong to it: nothing changed.
    NOT_FOR_CAMPAIGN = "not_for_campaign"
    #: A side's upload whose units are not that side's own view of a battle of the campaign
    #: (another side's view, no side's, an ambiguous match, no unit of the campaign): nothing
    #: applied. The side is told one sentence that names no unit (the same whatever the
    #: enemy fields); the file and the full reason are in the quarantine for the referee.
    NOT_YOUR_FILE = "not_your_file"
    #: A side's upload would open one held battle more than its side may have open (the
    #: server's ``held_battles_per_side``): nothing changed.
    HELD_LIMIT = "held_limit"
    UNCHANGED = "unchanged"  # same path, size, mtime and inode as a file already dealt with
    SKIPPED = "skipped"  # not a regular file (a FIFO, a device, a link): never read
    RETRY = "retry"  # unfinished, or the store is unreachable: try again later
    GONE = "gone"


@dataclass(frozen=True)
class IngestOptions:
    """How the caller wants a file taken in."""

    #: Apply to this campaign only; a file that does not belong to it is refused.
    campaign_id: str | None = None
    #: A side's upload: the file must be that side's own view of the battle.
    uploader_side: str | None = None
    #: Join this battle instead of the one the file's units point to (referee).
    battle_id: str | None = None
    #: The referee's word for entities names cannot settle: entity line -> campaign unit id.
    assigned: Mapping[int, str] | None = None
    actor: str = DEFAULT_ACTOR
    #: The referee's word that the battle is over: a savegame saved before MegaMek's victory
    #: phase is applied instead of waiting.
    game_over: bool = False
    #: The referee's word that the battle stands even where the rules would hold it (TripWire:
    #: it matches no engagement of the strategic map, ruling T-E8): recorded with the file.
    confirmed: RefereeNote | None = None
    #: A side's upload: how many open held battles (T-E8) files of that side's view may have
    #: opened; one that would open more is refused (HELD_LIMIT). None: no limit (the referee,
    #: the watcher, ``battle ingest``).
    held_limit: int | None = None


@dataclass(frozen=True)
class IngestResult:
    outcome: Outcome
    path: str
    sha256: str | None = None
    campaign_id: str | None = None
    battle_id: str | None = None
    events: int = 0
    reason: str | None = None
    #: The events the file caused (APPLIED only).
    applied: tuple[Event, ...] = field(default=(), repr=False)
    first_seq: int = 0
    last_seq: int = 0
    #: The campaign's state after the file (APPLIED only).
    state: Any = field(default=None, repr=False, compare=False)
    #: Why a file was quarantined, for programs: "file_too_large", "file_refused" (hostile
    #: XML), "file_unreadable" (broken or cut short), "ambiguous_units", "several_campaigns",
    #: "not_for_campaign" or "rules_refused"; for NOT_YOUR_FILE the case behind it
    #: ("not_your_file", "ambiguous_units", "not_for_campaign"), never told to the side.
    code: str = ""
    #: APPLIED, yet its battle is held for the referee's confirmation: why (ruling T-E8).
    held: str = ""
