"""The battle-file pipeline: one file in, applied once, held, refused or quarantined.

Every battle file takes this one path, whoever brings it: the folder watcher and a folder scan
(``process``), ``mekref battle ingest`` (``process`` with the referee's options) and a gRPC
upload (``ingest_bytes``):

1. read the bytes with a size cap (regular files only, never following a link) and hash them:
   the sha256 is the file's identity;
2. already applied to a campaign? skip it (whatever its name), but for a side whose own view it
   was not (told NOT_YOUR_FILE, as in step 5's check);
3. parse it once (safe XML; a broken file that is still changing is retried once it settles);
4. find its campaign: the one the caller names, else every campaign whose rule set takes
   battle files is asked whether the file belongs to it;
5. turn it into that rule set's command (:class:`~mekref.rules.battle_files.BattleFiles`);
6. ``CampaignRunner.execute(..., battle_file=FileRef(...))``: the events and the file's sha256
   commit in one transaction, so a crash leaves it applied once or not at all. The rules may
   hold the battle the file joined (TripWire: it matches no engagement of the strategic map)
   until the referee confirms it: the file is applied and ``IngestResult.held`` says why.

A side's upload (``IngestOptions.uploader_side``) must be that side's own view: one that is
not is quarantined with the full reason for the referee and answered NOT_YOUR_FILE with one
sentence that names no unit (:mod:`mekref.daemon.side_uploads`), and one that would open more
held battles than the side may keep open is refused (HELD_LIMIT).

A file for no known campaign is held as unmatched (listed, and looked at again when the
campaigns change: matched from its kept parse, neither read nor parsed again while its bytes
stay the same; see ``ingest_held.py``). A bad file (unreadable, hostile, over the cap,
ambiguous, refused by the rules) gets a record in the store and, when its bytes were read, a
copy in the quarantine folder with a reason; the original is never touched.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.battle_file import BattleFileRead, read_battle_file
from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.adapters.megamek.xml_safety import DEFAULT_MAX_BYTES
from mekref.daemon import logs
from mekref.daemon import side_uploads as uploads
from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.ingest_held import Campaigns, Held, HeldFiles, hold_unmatched, hold_waiting
from mekref.daemon.ingest_model import (
    DEFAULT_ACTOR,
    IngestOptions,
    IngestResult,
    Outcome,
)
from mekref.daemon.ingest_quarantine import Quarantine
from mekref.daemon.store import Campaign, EventStore, FileRef, StoreUnavailable
from mekref.daemon.store.model import display_text
from mekref.daemon.watch.faults import fault_point, kill_inside_commit
from mekref.daemon.watch.quarantine import Reason
from mekref.daemon.watch.readiness import Stat, file_stat
from mekref.daemon.watch.reading import FileBytes, NotRegularFile, read_capped
from mekref.rules.battle_files import AmbiguousMatch, FileNotForCampaign, FileRequest, Waiting
from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal

__all__ = ["DEFAULT_ACTOR", "IngestOptions", "IngestResult", "Outcome", "Pipeline"]

#: Locks by sha256 (striped: equal bytes always take the same lock, others rarely share one).
_SAME_BYTES = tuple(threading.Lock() for _ in range(64))


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
        self.log = logs.get_logger("mekref.ingest")
        # path -> (size, mtime, inode) of files whose fate is final (applied, duplicate,
        # quarantined, skipped): a periodic rescan skips them without reading them again.
        self._final: dict[Path, Stat] = {}
        self.quarantine = Quarantine(store, quarantine_dir, now)
        self._now = now
        # Held (unmatched) files with their parse: a rescan reads one again only when it
        # changed, and matches it again (from the kept parse) only when a campaign changed.
        self._held = HeldFiles()
        #: Battle files parsed by this pipeline (a held file is not parsed again).
        self.parses = 0

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
        # A name that is not UTF-8 (bytes from an old share) is shown escaped (\xff) in logs,
        # reasons and records alike; ``path`` itself still opens the file.
        where = display_text(str(path))
        before = file_stat(path)
        if before is None:
            self.log.info("file.gone", path=where, sha256=None)
            self._final.pop(path, None)
            self._held.forget(path)
            return IngestResult(Outcome.GONE, where, reason="no such file (or it was removed)")
        if self._final.get(path) == before:
            return IngestResult(Outcome.UNCHANGED, where)
        # Taken before the file is judged: a campaign changing meanwhile is seen next time.
        campaigns = self._campaigns_now()
        belongs = self._belongs_now if options is None else None
        still, parses = self._held.look(path, before, campaigns, where, belongs, self.log)
        if still is not None:
            return still
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
        result = self._guarded(read, where, display_text(path.name), settled, opts, parses)
        if result.outcome in (
            Outcome.APPLIED,
            Outcome.ALREADY_APPLIED,
            Outcome.QUARANTINED,
            Outcome.WAITING,  # its bytes will never say the game ended: look again if they change
        ):
            self._final[path] = before
        self._held.judged(path, before, campaigns, result, parses)
        return result

    def _belongs_now(self, held: Held) -> bool:
        """Whether a held file's kept parse matches a campaign now (or its bytes came in by
        another way): then it takes the whole way in again."""
        listed = self.store.list_campaigns()
        if held.parsed is None or any(self.store.has_file(c.id, held.sha256) for c in listed):
            return True
        mul = held.parsed.mul
        return any(self._files(c.id).matches(state, mul) for c, state in self._candidates(listed))

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
        self,
        read: FileBytes,
        where: str,
        name: str,
        settled: bool,
        opts: IngestOptions,
        parses: dict[str, BattleFileRead] | None = None,
    ) -> IngestResult:
        """``parses``: parses by sha256 to use instead of parsing; a new parse is added."""
        log = self.log.bind(path=where, sha256=read.sha256)
        try:
            # The same bytes arriving twice at once (a burst of identical uploads, a file seen
            # by the watcher while the CLI ingests it) are judged once: the second waits, then
            # finds them applied or quarantined instead of parsing and copying them again.
            with _SAME_BYTES[int(read.sha256[:8], 16) % len(_SAME_BYTES)]:
                known = {} if parses is None else parses  # the caller reads a new parse here
                return self._ingest(read, where, name, settled, opts, log, known)
        except StoreUnavailable as exc:
            log.warning("file.store_unavailable", error=str(exc))
            return IngestResult(Outcome.RETRY, where, read.sha256, reason=str(exc))

    def _ingest(
        self,
        read: FileBytes,
        where: str,
        name: str,
        settled: bool,
        opts: IngestOptions,
        log: Any,
        parses: dict[str, BattleFileRead],
    ) -> IngestResult:
        sha = read.sha256
        campaigns = self.store.list_campaigns()
        if opts.campaign_id is not None:
            campaigns = [c for c in campaigns if c.id == opts.campaign_id]
        for campaign in campaigns:
            if self.store.has_file(campaign.id, sha):
                return uploads.already_applied(where, sha, campaign.id, opts, self.runner, log)
        known = self.quarantine.known(sha)
        # A side's upload is judged afresh unless the bytes themselves are bad: what a side is
        # told must come from its own view, never from a reason written for someone else.
        if known is not None and (opts.uploader_side is None or known.startswith("file_")):
            log.debug("file.already_quarantined")
            return IngestResult(Outcome.ALREADY_QUARANTINED, where, sha, code=known)
        if read.data is None:
            return self.quarantine.put(
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
            parsed = self._parse(read.data, sha, where, log, parses)
        except MulReadError as exc:
            if not exc.refused and not settled:
                log.info("file.unfinished", problem=exc.problem)
                return IngestResult(Outcome.RETRY, where, sha, reason=exc.one_line())
            return self.quarantine.put(
                where,
                name,
                read,
                log,
                Reason(exc.problem, str(exc.position), exc.hint),
                code="file_refused" if exc.refused else "file_unreadable",
            )
        if parsed.waiting is not None and not opts.game_over:
            return hold_waiting(self.store, where, sha, log, parsed.waiting)
        fault_point("after_parse")
        designs = parsed.designs(self.design_for)
        return self._apply(where, name, read, parsed.mul, campaigns, opts, log, designs)

    def _parse(
        self, data: bytes, sha: str, where: str, log: Any, parses: dict[str, BattleFileRead]
    ) -> BattleFileRead:
        """The file parsed, or its parse in ``parses`` (the same bytes parse alike)."""
        parsed = parses.get(sha)
        if parsed is None:
            start = time.perf_counter()
            parsed = read_battle_file(data, where, max_bytes=self.max_bytes)
            self.parses += 1
            ms = round((time.perf_counter() - start) * 1000)
            log.debug("file.parsed", bytes=len(data), ms=ms)
            parses[sha] = parsed
        return parsed

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
        if opts.campaign_id is not None and not matching and opts.uploader_side and candidates:
            nobody = Reason(
                what="no unit or person in this file belongs to this campaign",
                where=where,
                todo="nothing to do unless it comes from one of this campaign's battles: then "
                "check the units it lists",
            )
            return uploads.refuse_side(
                self.quarantine, where, name, read, log, opts, nobody, "not_for_campaign"
            )
        if opts.campaign_id is not None and not matching:
            why = (
                "no unit or person in this file belongs to this campaign"
                if candidates
                else "this campaign's rule set takes no battle files"
            )
            log.info("file.not_for_campaign", campaign_id=opts.campaign_id, reason=why)
            return IngestResult(Outcome.NOT_FOR_CAMPAIGN, where, sha, opts.campaign_id, reason=why)
        if not matching:
            why = "no unit or person in this file belongs to a known campaign"
            return hold_unmatched(self.store, where, sha, log, why, self._now())
        if len(matching) > 1:
            names = ", ".join(f"{c.name} ({c.id})" for c, _ in matching)
            return self.quarantine.put(
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
        return self._take(where, name, read, mul, campaign, state, opts, log, designs)

    def _take(
        self,
        where: str,
        name: str,
        read: FileBytes,
        mul: MulFile,
        campaign: Campaign,
        state: Any,
        opts: IngestOptions,
        log: Any,
        designs: DesignLookup | None,
    ) -> IngestResult:
        """The file, matched to ``campaign``: its command, whose view it is, then applied."""
        files = self._files(campaign.id)
        log = log.bind(campaign_id=campaign.id)
        request = FileRequest(
            sha256=read.sha256,
            name=name,
            actor=opts.actor,
            assigned=opts.assigned,
            battle_id=opts.battle_id,
            confirmed=opts.confirmed,
            uploaded_by=opts.uploader_side,
        )
        why: Reason | None = None
        try:
            command = files.command(state, mul, request, designs)
        except AmbiguousMatch as exc:
            code, why = (
                "ambiguous_units",
                Reason(
                    what=f"units cannot be matched without guessing: {exc}",
                    where=where,
                    todo="export the scenario from mekref so units carry their ids, or have "
                    "the referee say which unit is which (battle ingest --assign)",
                ),
            )
        except FileNotForCampaign as exc:
            code, why = (
                "not_for_campaign",
                Reason(
                    what=f"the file does not belong to campaign {campaign.name}: {exc}",
                    where=where,
                    todo="check that this file comes from one of this campaign's battles",
                ),
            )
        except Refusal as exc:
            return self.quarantine.refused(where, name, read, log, exc, campaign.id)
        if why is not None:
            if opts.uploader_side is not None:  # an ambiguity's candidates name enemy units
                return uploads.refuse_side(self.quarantine, where, name, read, log, opts, why, code)
            return self.quarantine.put(where, name, read, log, why, campaign.id, code=code)
        if opts.uploader_side is not None:
            view = files.reporting_side(state, command)
            if view != opts.uploader_side:
                whose = f"side {view}'s view" if view else "no side's view (ruling BR-1)"
                why = Reason(
                    what=f"it is {whose} of the battle, not side {opts.uploader_side}'s",
                    where=where,
                    todo="ingest it as the referee if it belongs to a battle (mekref battle "
                    "ingest), or ask the side whose view it is for its own file",
                )
                return uploads.refuse_side(
                    self.quarantine, where, name, read, log, opts, why, "not_your_file"
                )
        return self._execute(where, name, read, command, campaign.id, log, opts)

    def _files(self, campaign_id: str) -> Any:
        return self.runner.game(campaign_id).battle_files

    def _execute(
        self,
        where: str,
        name: str,
        read: FileBytes,
        command: Command,
        campaign_id: str,
        log: Any,
        opts: IngestOptions,
    ) -> IngestResult:
        sha = read.sha256
        files = self._files(campaign_id)
        battle_id = files.battle_of(command)
        log = log.bind(battle_id=battle_id)
        check = None
        if opts.uploader_side is not None and opts.held_limit is not None:
            check = uploads.held_limit_check(files, opts.uploader_side, opts.held_limit)
        try:
            with kill_inside_commit(self.store):
                executed = self.runner.execute(
                    campaign_id, command, battle_file=FileRef(sha, where, battle_id), check=check
                )
        except Refusal as exc:
            mine = opts.uploader_side is None
            return self.quarantine.refused(where, name, read, log, exc, campaign_id, remember=mine)
        except uploads.HeldBattleLimit as exc:
            # Nothing stored and nothing quarantined: the file is fine, the side must wait.
            log.info("file.held_limit", side=exc.side_id, held=list(exc.held), limit=exc.limit)
            return IngestResult(Outcome.HELD_LIMIT, where, sha, campaign_id, reason=str(exc))
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
        for warning in files.warnings(command):
            log.warning("file.unpriced_unit", warning=warning)
        # The battle this file joined, alone: asking for every open battle after each file
        # made a burst of files slower with each file.
        waiting = files.waiting_for_file(executed.state, sha)
        self._log_battles(log, executed.events, waiting)
        held = str(waiting.held) if waiting is not None else ""
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

    def _campaigns_now(self) -> Campaigns:
        """Each campaign with its last seq: what a held file's match depends on."""
        return tuple((c.id, self.store.last_seq(c.id)) for c in self.store.list_campaigns())

    def _log_battles(self, log: Any, events: tuple[Event, ...], waiting: Waiting | None) -> None:
        """One line per battle event the file caused, and one if its battle still waits."""
        for event in events:
            battle_id = _battle_id_of(event)
            if battle_id is not None:
                log.info("battle." + _snake(type(event).TYPE), battle_id=battle_id)
        if waiting is not None:
            log.info(
                "battle.waiting",
                battle_id=waiting.battle_id,
                sides_expected=list(waiting.sides_expected),
                sides_reported=list(waiting.sides_reported),
            )
