"""Commands and events of the battle side: files in, referee inputs, the resolution out."""

from __future__ import annotations

from dataclasses import field

from mekref.rules.codec import OMIT_IF_DEFAULT
from mekref.rules.messages import Command, Event, RefereeNote, command_type, event_type
from mekref.rules.record_type import record
from mekref.rules.tripwire.battle_model import AmmoBinLoad, BattleFile, BattleResolution, Fate


@command_type("RecordLoadouts")
@record
class RecordLoadouts(Command):
    """The standard ammunition load of imported units (the full bins re-arming restores)."""

    side_id: str
    loadouts: tuple[tuple[str, tuple[AmmoBinLoad, ...]], ...]  # (unit id, bins)


@command_type("SubmitBattleReport")
@record
class SubmitBattleReport(Command):
    """One battle file (one player's view), already matched to campaign ids by the shell.

    ``battle_id`` None: the file joins the open battle that shares its units (or the one
    fought for the engagement it fits), else opens one. ``note``: the referee's word that the
    battle stands even if it matches no engagement of the strategic map (ruling T-E8).
    """

    file: BattleFile
    battle_id: str | None = None
    note: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)


@command_type("ConfirmBattle")
@record
class ConfirmBattle(Command):
    """Referee: a held battle (its files match no open engagement) stands; optionally it is
    the battle of ``engagement_id``, an open engagement (ruling T-E8)."""

    battle_id: str
    note: RefereeNote
    engagement_id: str = field(default="", metadata=OMIT_IF_DEFAULT)


@command_type("SetBattleControl")
@record
class SetBattleControl(Command):
    """Referee input: the side left holding the field (decides salvage and ejected crews)."""

    battle_id: str
    side_id: str
    note: RefereeNote | None = None


@command_type("CloseBattle")
@record
class CloseBattle(Command):
    """Resolve a battle now. Before every side has reported this needs the referee's word."""

    battle_id: str
    control_side: str | None = None  # None: the control already set
    note: RefereeNote | None = None


@command_type("SetUnitFate")
@record
class SetUnitFate(Command):
    """Referee override: correct a unit's fate (e.g. mark it captured by ``new_side``)."""

    unit_id: str
    fate: Fate
    note: RefereeNote
    new_side: str | None = None  # captured: the side that takes it


@event_type("LoadoutsRecorded")
@record
class LoadoutsRecorded(Event):
    side_id: str
    loadouts: tuple[tuple[str, tuple[AmmoBinLoad, ...]], ...]
    actor: str


@event_type("BattleReportReceived")
@record
class BattleReportReceived(Event):
    battle_id: str
    number: int
    opened: bool  # this file opened the battle
    file: BattleFile
    actor: str
    # Ruling T-E8 (strategic map only): the open engagement the battle is fought for; the
    # reason the battle is held when its files match none; the referee's word that it stands.
    engagement_id: str = field(default="", metadata=OMIT_IF_DEFAULT)
    held: str = field(default="", metadata=OMIT_IF_DEFAULT)
    confirmed: RefereeNote | None = field(default=None, metadata=OMIT_IF_DEFAULT)
    # Ruling SG-7: the sha256 of the earlier save of the same game this file supersedes in the
    # battle (its result is replaced by this one's); "" when it supersedes nothing.
    supersedes: str = field(default="", metadata=OMIT_IF_DEFAULT)


@event_type("BattleConfirmed")
@record
class BattleConfirmed(Event):
    """The referee confirmed a held battle (who and why), linking it to ``engagement_id``
    when one is named."""

    battle_id: str
    note: RefereeNote
    actor: str
    engagement_id: str = field(default="", metadata=OMIT_IF_DEFAULT)


@event_type("BattleControlSet")
@record
class BattleControlSet(Event):
    battle_id: str
    side_id: str
    note: RefereeNote | None
    actor: str


@event_type("BattleResolved")
@record
class BattleResolved(Event):
    """Everything the battle decided; ``rolls`` holds the death rolls it made."""

    battle_id: str
    resolution: BattleResolution
    actor: str


@event_type("UnitFateSet")
@record
class UnitFateSet(Event):
    unit_id: str
    previous: Fate
    fate: Fate
    new_side: str | None
    note: RefereeNote
    actor: str
