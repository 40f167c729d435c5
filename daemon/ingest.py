"""The battle-file pipeline: one file in, applied once, held, refused or quarantined.

Every battle file takes this one path, whoever brings it: the folder watcher and a folder scan
(``process``), ``mekref battle ingest`` (``process`` with the referee's options) and a gRPC
upload (``ingest_bytes``):

1. read the bytes with a size cap (regular files only, never following a link) and hash them:
   the sha256 is the file's identity;
2. already applied to a campaign? skip it (whatever its name);
3. parse it once (safe XML; a broken file that is still changing is retried once it settles);
4. find its campaign: the one the caller names, else every campaign whose rule set takes
   battle files is asked whether the file belongs to it;
5. turn it into that rule set's command (:class:`~mekref.rules.battle_files.BattleFiles`);
6. ``CampaignRunner.execute(..., battle_file=FileRef(...))``: the events and the file's sha256
   commit in one transaction, so a crash leaves it applied once or not at all. The rules may
   hold the battle the file joined (TripWire: it matches no engagement of the strategic map)
   until the referee confirms it: the file is applied and ``IngestResult.held`` says why.

A file for no known campaign is held as unmatched (listed, and looked at again when the
campaigns change). A bad file (unreadable, hostile, over the cap, ambiguous, refused by the
rules) gets a record in the store and, when its bytes were read, a copy in the quarantine folder
with a reason; the original is never touched.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

import structlog

from mekref.adapters.megamek.battle_file import read_battle_file
from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.adapters.megamek.xml_safety import DEFAULT_MAX_BYTES
from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.store import Campaign, EventStore, FileRef, StoreUnavailable
from mekref.daemon.store.model import display_text
from mekref.daemon.watch.faults import fault_point, kill_inside_commit
from mekref.daemon.watch.quarantine import Reason, quarantine_copy
from mekref.daemon.watch.readiness import Stat, file_stat
from mekref.daemon.watch.reading import FileBytes, NotRegularFile, read_capped
from mekref.rules.battle_files import AmbiguousMatch, FileNotForCampaign, FileRequest
from mekref.rules.messages import Command, Event, RefereeNote
from mekref.rules.refusal import Refusal

DEFAULT_ACTOR = "mekref serve"
#: Locks by sha256 (striped: equal bytes always take the same lock, others rarely share one).
_SAME_BYTES = tuple(threading.Lock() for _ in range(64))


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
    #: A side sent a file that is not its own view of the battle: nothing changed.
    NOT_YOUR_FILE = "not_your_file"
    UNCHANGED = "unchanged"  # same path, size and mtime as a file already dealt with
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
    #: "not_for_campaign" or "rules_refused".
    code: str = ""
    #: APPLIED, yet its battle is held for the referee's confirmation: why (ruling T-E8).
    held: str = ""


def _battle_id_of(event: Event) -> str | None:
    battle_id = getattr(event, "battle_id", None)
    return battle_id if isinstance(battle_id, str) else None


def _snake(name: str) -> str:
    """``BattleReportReceived`` -> ``report_received`` (the caller adds "battle.")."""
    out = "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
    return out.removeprefix("battle_")


class Pipeline:
    def __init__(
        self,
        store: EventStore,
        *,
        quarantine_dir: Path,
        runner: CampaignRunner | None = None,
        design_for: DesignLookup | None = None,
        max_bytes: int = DEFAULT_MAX_BYTES,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = store
        self.runner = runner if runner is not None else CampaignRunner(store)
        self.quarantine_dir = quarantine_dir
        self.design_for = design_for
        self.max_bytes = max_bytes
        self._now = now
        self.log = structlog.get_logger("mekref.ingest")
        # path -> (size, mtime) of files whose fate is final (applied, duplicate,
        # quarantined, skipped): a periodic rescan skips them without reading them again.
        self._final: dict[Path, Stat] = {}
        # sha256s quarantined by this process: a rescan does not re-judge them; a restart does.
        self._quarantined: set[str] = set()
        # Held (unmatched) files: path -> (size, mtime, the campaigns as they were). A rescan
        # looks at one again only when it or the campaigns changed.
        self._held: dict[Path, tuple[Stat, tuple[tuple[str, int], ...]]] = {}

    # -- the doors ------------------------------------------------------------------------
    def process(
        self, path: Path, *, settled: bool = True, options: IngestOptions | None = None
    ) -> IngestResult:
        """Take the file at ``path`` through the pipeline (the watcher, a scan, the CLI).

        ``settled`` says the file has not changed for a while; a file taken on a close event
        is not, and if it fails to parse it is retried once it settles instead of being
        quarantined (a writer that closes after every chunk would otherwise lose its file).
        """
        opts = options or IngestOptions()
        where = str(path)
        before = file_stat(path)
        if before is None:
            self.log.info("file.gone", path=where, sha256=None)
            return IngestResult(Outcome.GONE, where, reason="no such file (or it was removed)")
        if self._final.get(path) == before:
            return IngestResult(Outcome.UNCHANGED, where)
        held = self._held.get(path)
        if held is not None and held == (before, self._campaigns_now()):
            return IngestResult(Outcome.UNCHANGED, where, reason="held, nothing changed")
        try:
            read = read_capped(path, self.max_bytes)
        except NotRegularFile as exc:
            self.log.warning(
                "file.skipped",
                path=where,
                sha256=None,
                reason=f"{exc}: mekref reads regular files only",
            )
            self._final[path] = before
            return IngestResult(
                Outcome.SKIPPED,
                where,
                reason=f"{exc}; mekref reads regular files only and never follows a link",
            )
        except OSError as exc:
            self.log.warning(
                "file.unreadable", path=where, sha256=None, error=str(exc.strerror or exc)
            )
            return IngestResult(Outcome.RETRY, where, reason=str(exc))
        result = self._guarded(read, where, display_text(path.name), settled, opts)
        if result.outcome in (
            Outcome.APPLIED,
            Outcome.ALREADY_APPLIED,
            Outcome.QUARANTINED,
            Outcome.WAITING,  # its bytes will never say the game ended: look again if they change
        ):
            self._final[path] = before
            self._held.pop(path, None)
        elif result.outcome is Outcome.UNMATCHED:
            self._held[path] = (before, self._campaigns_now())
        return result

    def ingest_bytes(
        self, data: bytes, name: str, options: IngestOptions, *, shown_as: str = ""
    ) -> IngestResult:
        """Take bytes that arrived without a file (a gRPC upload) through the same path.

        ``name`` is what the campaign records; ``shown_as`` (the sender's file name) only
        appears in logs and quarantine records."""
        sha = hashlib.sha256(data).hexdigest()
        read = FileBytes(data if len(data) <= self.max_bytes else None, sha, len(data))
        where = f"upload:{display_text(shown_as or name)}"
        return self._guarded(read, where, display_text(name), True, options)

    # -- the pipeline ---------------------------------------------------------------------
    def _guarded(
        self, read: FileBytes, where: str, name: str, settled: bool, opts: IngestOptions
    ) -> IngestResult:
        log = self.log.bind(path=where, sha256=read.sha256)
        try:
            # The same bytes arriving twice at once (a burst of identical uploads, a file seen
            # by the watcher while the CLI ingests it) are judged once: the second waits, then
            # finds them applied or quarantined instead of parsing and copying them again.
            with _SAME_BYTES[int(read.sha256[:8], 16) % len(_SAME_BYTES)]:
                return self._ingest(read, where, name, settled, opts, log)
        except StoreUnavailable as exc:
            log.warning("file.store_unavailable", error=str(exc))
            return IngestResult(Outcome.RETRY, where, read.sha256, reason=str(exc))

    def _ingest(
        self, read: FileBytes, where: str, name: str, settled: bool, opts: IngestOptions, log: Any
    ) -> IngestResult:
        sha = read.sha256
        campaigns = self.store.list_campaigns()
        if opts.campaign_id is not None:
            campaigns = [c for c in campaigns if c.id == opts.campaign_id]
        for campaign in campaigns:
            if self.store.has_file(campaign.id, sha):
                log.info("file.already_applied", campaign_id=campaign.id)
                return IngestResult(Outcome.ALREADY_APPLIED, where, sha, campaign.id)
        if sha in self._quarantined:
            log.debug("file.already_quarantined")
            return IngestResult(Outcome.ALREADY_QUARANTINED, where, sha)
        if read.data is None:
            return self._quarantine(
                where,
                name,
                read,
                log,
                Reason(
                    what=f"the file is {read.size} bytes, over the {self.max_bytes} byte limit",
                    where=where,
                    todo="a MegaMek battle record is far smaller; check this is the right file, "
                    "or raise the limit with --max-file-mb (max_file_mb in mekref.toml)",
                ),
                opts.campaign_id,
                code="file_too_large",
            )
        try:
            parsed = read_battle_file(read.data, where, max_bytes=self.max_bytes)
        except MulReadError as exc:
            if not exc.refused and not settled:
                log.info("file.unfinished", problem=exc.problem)
                return IngestResult(Outcome.RETRY, where, sha, reason=exc.one_line())
            return self._quarantine(
                where,
                name,
                read,
                log,
                Reason(exc.problem, str(exc.position), exc.hint),
                code="file_refused" if exc.refused else "file_unreadable",
            )
        if parsed.waiting is not None and not opts.game_over:
            return self._wait(where, sha, log, parsed.waiting)
        fault_point("after_parse")
        designs = parsed.designs(self.design_for)
        return self._apply(where, name, read, parsed.mul, campaigns, opts, log, designs)

    def _candidates(self, campaigns: list[Campaign]) -> list[tuple[Campaign, Any]]:
        """The campaigns whose rule set takes battle files, with their current state."""
        out: list[tuple[Campaign, Any]] = []
        for campaign in campaigns:
            if self.runner.game(campaign.id).battle_files is not None:
                out.append((campaign, self.runner.load(campaign.id).state))
        return out

    def _apply(
        self,
        where: str,
        name: str,
        read: FileBytes,
        mul: MulFile,
        campaigns: list[Campaign],
        opts: IngestOptions,
        log: Any,
        designs: DesignLookup | None,
    ) -> IngestResult:
        sha = read.sha256
        candidates = self._candidates(campaigns)
        matching = [(c, state) for c, state in candidates if self._files(c.id).matches(state, mul)]
        if opts.campaign_id is not None and not matching:
            why = (
                "no unit or person in this file belongs to this campaign"
                if candidates
                else "this campaign's rule set takes no battle files"
            )
            log.info("file.not_for_campaign", campaign_id=opts.campaign_id, reason=why)
            return IngestResult(Outcome.NOT_FOR_CAMPAIGN, where, sha, opts.campaign_id, reason=why)
        if not matching:
            return self._hold(
                where, sha, log, "no unit or person in this file belongs to a known campaign"
            )
        if len(matching) > 1:
            names = ", ".join(f"{c.name} ({c.id})" for c, _ in matching)
            return self._quarantine(
                where,
                name,
                read,
                log,
                Reason(
                    what=f"the file's units belong to several campaigns: {names}",
                    where=where,
                    todo="split the file per campaign, or keep each campaign in its own database",
                ),
                code="several_campaigns",
            )
        campaign, state = matching[0]
        files = self._files(campaign.id)
        assert files is not None
        log = log.bind(campaign_id=campaign.id)
        request = FileRequest(
            sha256=sha,
            name=name,
            actor=opts.actor,
            assigned=opts.assigned,
            battle_id=opts.battle_id,
            confirmed=opts.confirmed,
            uploaded_by=opts.uploader_side,
        )
        try:
            command = files.command(state, mul, request, designs)
        except AmbiguousMatch as exc:
            return self._quarantine(
                where,
                name,
                read,
                log,
                Reason(
                    what=f"units cannot be matched without guessing: {exc}",
                    where=where,
                    todo="export the scenario from mekref so units carry their ids, or have "
                    "the referee say which unit is which (battle ingest --assign)",
                ),
                campaign.id,
                code="ambiguous_units",
            )
        except FileNotForCampaign as exc:
            return self._quarantine(
                where,
                name,
                read,
                log,
                Reason(
                    what=f"the file does not belong to campaign {campaign.name}: {exc}",
                    where=where,
                    todo="check that this file comes from one of this campaign's battles",
                ),
                campaign.id,
                code="not_for_campaign",
            )
        except Refusal as exc:
            return self._refused(where, name, read, log, exc, campaign.id)
        if opts.uploader_side is not None:
            view = files.reporting_side(state, command)
            if view != opts.uploader_side:
                # Neither whose view it is nor whether it is anyone's: only that it is not yours.
                log.info("file.not_your_file", side=opts.uploader_side)
                return IngestResult(
                    Outcome.NOT_YOUR_FILE,
                    where,
                    sha,
                    campaign.id,
                    reason="this file is not your side's view of the battle; the referee "
                    "uploads it",
                )
        return self._execute(where, name, read, command, campaign.id, log)

    def _files(self, campaign_id: str) -> Any:
        return self.runner.game(campaign_id).battle_files

    def _execute(
        self, where: str, name: str, read: FileBytes, command: Command, campaign_id: str, log: Any
    ) -> IngestResult:
        sha = read.sha256
        battle_id = self._files(campaign_id).battle_of(command)
        log = log.bind(battle_id=battle_id)
        try:
            with kill_inside_commit(self.store):
                executed = self.runner.execute(
                    campaign_id, command, battle_file=FileRef(sha, where, battle_id)
                )
        except Refusal as exc:
            return self._refused(where, name, read, log, exc, campaign_id)
        fault_point("after_commit")
        if executed.already_applied:
            log.info("file.already_applied")
            return IngestResult(Outcome.ALREADY_APPLIED, where, sha, campaign_id, battle_id)
        battles = sorted({b for e in executed.events if (b := _battle_id_of(e)) is not None})
        battle_id = battle_id or (battles[0] if len(battles) == 1 else None)
        log.info(
            "file.applied",
            events=len(executed.events),
            first_seq=executed.first_seq,
            last_seq=executed.last_seq,
            battle_id=battle_id,
        )
        for warning in self._files(campaign_id).warnings(command):
            log.warning("file.unpriced_unit", warning=warning)
        self._log_battles(log, campaign_id, executed.events, executed.state, sha)
        held = self._held_reason(campaign_id, executed.state, sha)
        if held:
            log.info("file.held", battle_id=battle_id, reason=held)
        return IngestResult(
            Outcome.APPLIED,
            where,
            sha,
            campaign_id,
            battle_id,
            len(executed.events),
            applied=executed.events,
            first_seq=executed.first_seq,
            last_seq=executed.last_seq,
            state=executed.state,
            held=held,
        )

    def _held_reason(self, campaign_id: str, state: Any, sha: str) -> str:
        """Why the battle the file joined waits for the referee's confirmation, or ""."""
        files = self._files(campaign_id)
        battle_id = files.battle_of_file(state, sha)
        for battle in files.waiting(state):
            if battle.battle_id == battle_id:
                return str(battle.held)
        return ""

    def _campaigns_now(self) -> tuple[tuple[str, int], ...]:
        """Each campaign with its last seq: what a held file's match depends on."""
        return tuple((c.id, self.store.last_seq(c.id)) for c in self.store.list_campaigns())

    def _log_battles(
        self, log: Any, campaign_id: str, events: tuple[Event, ...], state: Any, sha: str
    ) -> None:
        """One line per battle event the file caused, and one per battle still waiting."""
        for event in events:
            battle_id = _battle_id_of(event)
            if battle_id is not None:
                log.info("battle." + _snake(type(event).TYPE), battle_id=battle_id)
        for battle in self._files(campaign_id).waiting(state):
            if sha in battle.files:
                log.info(
                    "battle.waiting",
                    battle_id=battle.battle_id,
                    sides_expected=list(battle.sides_expected),
                    sides_reported=list(battle.sides_reported),
                )

    # -- outcomes -------------------------------------------------------------------------
    def _refused(
        self, where: str, name: str, read: FileBytes, log: Any, exc: Refusal, campaign_id: str
    ) -> IngestResult:
        return self._quarantine(
            where,
            name,
            read,
            log,
            Reason(
                what=f"the rules refused it: {exc}",
                where=where,
                todo="fix the campaign (or the file) as the message says; the referee can "
                "override with a recorded reason",
            ),
            campaign_id,
            code="rules_refused",
        )

    def _hold(self, where: str, sha: str, log: Any, reason: str) -> IngestResult:
        known = self.store.unmatched_files()
        self.store.hold_unmatched(sha, where, reason)
        # Said once at info; later looks at it are only worth a debug line.
        held_before = any(u.sha256 == sha for u in known)
        (log.debug if held_before else log.info)("file.unmatched", reason=reason)
        return IngestResult(Outcome.UNMATCHED, where, sha, reason=reason)

    def _wait(self, where: str, sha: str, log: Any, reason: str) -> IngestResult:
        """A savegame of a game still going on: listed with its reason, never applied."""
        self.store.hold_unmatched(sha, where, reason)
        log.info("file.waiting", reason=reason)
        return IngestResult(Outcome.WAITING, where, sha, reason=reason)

    def _quarantine(
        self,
        where: str,
        name: str,
        read: FileBytes,
        log: Any,
        reason: Reason,
        campaign_id: str | None = None,
        *,
        code: str,
    ) -> IngestResult:
        when = self._now()
        try:
            # A file too large to hold gets only its reason file: nothing worth a copy (and
            # copying it again on every restart would fill the disk).
            written = quarantine_copy(
                self.quarantine_dir,
                name,
                read.sha256,
                reason,
                data=read.data,
                original=where,
                when=when,
            )
            copy = (
                str(written)
                if read.data is not None
                else "(no copy: the file is over the size limit)"
            )
        except OSError as exc:
            # The record and the log line still say what is wrong; the copy is a convenience.
            copy = f"(no copy: {exc.strerror or exc})"
            log.error("quarantine.copy_failed", folder=str(self.quarantine_dir), error=str(exc))
        self.store.quarantine_file(
            read.sha256, where, copy, reason.one_line(), campaign_id=campaign_id, at=when
        )
        self._quarantined.add(read.sha256)
        log.warning(
            "file.quarantined", reason=reason.one_line(), quarantine_path=copy, what=reason.what
        )
        return IngestResult(
            Outcome.QUARANTINED,
            where,
            read.sha256,
            campaign_id,
            reason=reason.one_line(),
            code=code,
        )
