"""The "accepts battle files" capability a rule set may offer the shell.

A rule set that keeps units fought in MegaMek (TripWire) turns a parsed MegaMek file into a
command of its own; the daemon's one battle-file pipeline (watcher, ``mekref battle ingest``
and gRPC uploads alike) asks it through this protocol and never knows the rule set's types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, TypeVar

from mekref.rules.messages import Command, RefereeNote
from mekref.rules.record_type import Record, record

if TYPE_CHECKING:  # for the hints only: the MUL model loads with the rule set that reads files
    from mekref.adapters.megamek.mul_model import MulFile
    from mekref.adapters.megamek.mul_summary import DesignLookup

S_contra = TypeVar("S_contra", contravariant=True)


class FileNotForCampaign(Exception):
    """No unit or person of the file belongs to the campaign; the message says why."""


class AmbiguousMatch(Exception):
    """An entity without ids fits several campaign units; ``candidates`` names them."""

    def __init__(self, entity: str, candidates: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.entity = entity
        self.candidates = candidates


@record
class FileRequest(Record):
    """How the caller wants a file taken in, beyond its bytes."""

    sha256: str
    #: The file's name as the campaign keeps it (never where it was found: the same files give
    #: the same state whether the daemon saw them or a replay fed them).
    name: str
    actor: str
    #: The referee's word for entities names cannot settle: entity line -> campaign unit id.
    assigned: Mapping[int, str] | None = None
    #: Join this battle instead of the one the units point to.
    battle_id: str | None = None
    #: The referee's word that the battle stands even if the rules would hold it (TripWire:
    #: a file matching no engagement of the strategic map, ruling T-E8).
    confirmed: RefereeNote | None = None
    #: The side whose token uploaded the file; None for the referee's doors (a watched folder,
    #: 'battle ingest', a referee token). A rule set may weigh a side's file as that side's
    #: word only (TripWire: ruling BR-15).
    uploaded_by: str | None = None


@record
class Waiting(Record):
    """A battle still waiting for files or for control of the field."""

    battle_id: str
    sides_expected: tuple[str, ...]
    sides_reported: tuple[str, ...]
    files: tuple[str, ...]  # sha256 of each file received
    control_side: str | None = None
    #: The engagement of the strategic map the battle is fought for, when the rules link one.
    engagement_id: str = ""
    #: Why the battle waits for the referee's confirmation (it matches no engagement), or "".
    held: str = ""


@record
class AfterBattle(Record):
    """What the referee must hear about a resolved battle now (TripWire: the formations still
    sharing the hex of the engagement it closed, and what happens next)."""

    battle_id: str
    engagement_id: str
    hex: str
    formations: tuple[tuple[str, str], ...]  # (formation id, side id)
    text: str


class BattleFiles(Protocol[S_contra]):
    def matches(self, state: S_contra, mul: MulFile) -> bool:
        """Whether any unit or person of the file belongs to this campaign."""
        ...

    def command(
        self, state: S_contra, mul: MulFile, request: FileRequest, designs: DesignLookup | None
    ) -> Command:
        """The command the file becomes. Raises FileNotForCampaign or AmbiguousMatch."""
        ...

    def reporting_side(self, state: S_contra, command: Command) -> str | None:
        """Whose view of the battle the file is (a record is one player's view), if known."""
        ...

    def battle_of(self, command: Command) -> str | None:
        """The battle the file's command names, when it names one."""
        ...

    def waiting(self, state: S_contra) -> tuple[Waiting, ...]:
        """Battles still waiting for files or control."""
        ...

    def held_opened_by(self, state: S_contra, side_id: str) -> tuple[str, ...]:
        """The open battles still held for the referee's confirmation (TripWire: they match no
        engagement) that a file of ``side_id``'s view opened, oldest first."""
        ...

    def battle_of_file(self, state: S_contra, sha256: str) -> str | None:
        """The battle a file joined (the rules may have chosen it), or None."""
        ...

    def view_of_file(self, state: S_contra, sha256: str) -> str | None:
        """Whose view of its battle a file taken in was (:meth:`reporting_side` then), or None
        (no side's, or no such file)."""
        ...

    def waiting_for_file(self, state: S_contra, sha256: str) -> Waiting | None:
        """The battle a file joined as :meth:`waiting` shows it, if it still waits, else None:
        what the pipeline says after each file, without building every open battle."""
        ...

    def after_battles(self, state: S_contra) -> tuple[AfterBattle, ...]:
        """Resolved battles whose aftermath still needs the referee, oldest first."""
        ...

    def warnings(self, command: Command) -> tuple[str, ...]:
        """What the referee must hear about an applied file (e.g. a unit whose damage cannot
        be priced because no design is known), one line each."""
        ...
