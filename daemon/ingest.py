"""The file pipeline: one battle file in, applied once, held, or quarantined.

``Pipeline.process(path)`` is the one path a file takes, whether the watcher saw it, a folder
scan found it or ``mekref replay`` feeds it:

1. read the bytes with a size cap and hash them (sha256 is the file's identity);
2. already applied to a campaign? skip it (whatever its name);
3. parse it (safe XML; a broken file that is still changing is retried once it settles);
4. find its campaign (``battle_input.campaign_matches`` over the store's campaigns);
5. turn it into a rules command (``battle_input.report_command``);
6. ``CampaignRunner.execute(..., battle_file=FileRef(...))``: events and the file's sha256
   commit in one transaction, so a crash leaves it applied once or not at all.

A file for no known campaign is held as unmatched (listed, retried on every rescan). A bad
file (unreadable, hostile, over the cap, ambiguous, refused by the rules) is copied to the
quarantine folder with a reason and recorded in the store; the original is never touched.
"""

from __future__ import annotations

import hashlib
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any, Protocol, cast

import structlog

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_model import MulFile
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.adapters.megamek.xml_safety import DEFAULT_MAX_BYTES
from mekref.daemon.campaigns import CampaignRunner
from mekref.daemon.store import Campaign, EventStore, FileRef, StoreUnavailable
from mekref.daemon.watch.faults import fault_point, kill_inside_commit
from mekref.daemon.watch.quarantine import Reason, quarantine_copy
from mekref.daemon.watch.readiness import Stat, file_stat
from mekref.rules.campaign_state import CampaignState
from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal

BATTLE_INPUT_MODULE = "mekref.daemon.battle_input"
BATTLES_MODULE = "mekref.rules.tripwire.battles"
DEFAULT_ACTOR = "mekref serve"


class BattleInput(Protocol):
    """What the pipeline needs from battle ingestion (``mekref.daemon.battle_input``)."""

    FileNotForCampaign: type[Exception]
    AmbiguousMatch: type[Exception]

    def campaign_matches(self, state: CampaignState, mul: MulFile) -> bool: ...

    def report_command(
        self,
        state: CampaignState,
        mul: MulFile,
        *,
        sha256: str,
        path: str,
        design_for: DesignLookup | None,
        actor: str,
    ) -> Command: ...


def load_battle_input() -> BattleInput | None:
    """The battle ingestion module, or None in a build that does not have it yet."""
    try:
        return cast(BattleInput, importlib.import_module(BATTLE_INPUT_MODULE))
    except ModuleNotFoundError as exc:
        if exc.name != BATTLE_INPUT_MODULE:
            raise
        return None


def pending_battles(state: CampaignState) -> list[Any]:
    """Battles waiting for files (``rules.tripwire.battles.pending_battles``), if available."""
    try:
        module = importlib.import_module(BATTLES_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name != BATTLES_MODULE:
            raise
        return []
    return list(module.pending_battles(state))


def _battle_id_of(event: Event) -> str | None:
    battle_id = getattr(event, "battle_id", None)
    return battle_id if isinstance(battle_id, str) else None


def _snake(name: str) -> str:
    """``BattleReportReceived`` -> ``report_received`` (the caller adds "battle.")."""
    out = "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
    return out.removeprefix("battle_")


def battle_of_file(state: CampaignState, sha256: str) -> str | None:
    """The battle a file joined, from the campaign's battle ledger (None if none)."""
    ledger = getattr(state, "battles", None)
    for battle in getattr(ledger, "battles", {}).values():
        if any(f.sha256 == sha256 for f in battle.files):
            return str(battle.battle_id)
    return None


class Outcome(StrEnum):
    APPLIED = "applied"
    ALREADY_APPLIED = "already_applied"
    UNMATCHED = "unmatched"
    QUARANTINED = "quarantined"
    ALREADY_QUARANTINED = "already_quarantined"
    UNCHANGED = "unchanged"  # same path, size and mtime as a file already dealt with
    RETRY = "retry"  # unfinished, or the store is unreachable: try again later
    GONE = "gone"


@dataclass(frozen=True)
class IngestResult:
    outcome: Outcome
    path: str
    sha256: str | None = None
    campaign_id: str | None = None
    battle_id: str | None = None
    events: int = 0
    reason: str | None = None


@dataclass(frozen=True)
class _Read:
    data: bytes | None  # None: over the cap, not kept in memory
    sha256: str
    size: int


def read_capped(path: Path, max_bytes: int) -> _Read:
    """Read up to ``max_bytes`` (+1 to tell "over"); hash the whole file either way."""
    digest = hashlib.sha256()
    with path.open("rb") as f:
        head = f.read(max_bytes + 1)
        digest.update(head)
        size = len(head)
        if size <= max_bytes:
            return _Read(head, digest.hexdigest(), size)
        # Over the cap: keep hashing (identity) but do not hold the bytes.
        while chunk := f.read(1 << 20):
            digest.update(chunk)
            size += len(chunk)
    return _Read(None, digest.hexdigest(), size)


class Pipeline:
    def __init__(
        self,
        store: EventStore,
        *,
        quarantine_dir: Path,
        design_for: DesignLookup | None = None,
        battle_input: BattleInput | None = None,
        actor: str = DEFAULT_ACTOR,
        max_bytes: int = DEFAULT_MAX_BYTES,
        now: Callable[[], datetime] = lambda: datetime.now(UTC),
    ) -> None:
        self.store = store
        self.runner = CampaignRunner(store)
        self.quarantine_dir = quarantine_dir
        self.design_for = design_for
        self.battle_input = battle_input if battle_input is not None else load_battle_input()
        self.actor = actor
        self.max_bytes = max_bytes
        self._now = now
        self.log = structlog.get_logger("mekref.ingest")
        # path -> (size, mtime) of files whose fate is final (applied, duplicate,
        # quarantined): a periodic rescan skips them without reading them again.
        self._final: dict[Path, Stat] = {}
        # sha256s quarantined by this process: a rescan does not re-judge them; a restart does.
        self._quarantined: set[str] = set()
        self._held: set[str] = set()  # sha256s held as unmatched by this process

    # -- the pipeline ---------------------------------------------------------------------
    def process(self, path: Path, *, settled: bool = True) -> IngestResult:
        """Take ``path`` through the pipeline.

        ``settled`` says the file has not changed for a while; a file taken on a close event
        is not, and if it fails to parse it is retried once it settles instead of being
        quarantined (a writer that closes after every chunk would otherwise lose its file).
        """
        before = file_stat(path)
        if before is None:
            self.log.info("file.gone", path=str(path), sha256=None)
            return IngestResult(Outcome.GONE, str(path))
        if self._final.get(path) == before:
            return IngestResult(Outcome.UNCHANGED, str(path))
        try:
            read = read_capped(path, self.max_bytes)
        except OSError as exc:
            self.log.warning(
                "file.unreadable", path=str(path), sha256=None, error=str(exc.strerror or exc)
            )
            return IngestResult(Outcome.RETRY, str(path), reason=str(exc))
        log = self.log.bind(path=str(path), sha256=read.sha256)
        try:
            result = self._process(path, read, settled, log, path.name)
        except StoreUnavailable as exc:
            log.warning("file.store_unavailable", error=str(exc))
            return IngestResult(Outcome.RETRY, str(path), read.sha256, reason=str(exc))
        if result.outcome in (Outcome.APPLIED, Outcome.ALREADY_APPLIED, Outcome.QUARANTINED):
            self._final[path] = before
        return result

    def _process(self, path: Path, read: _Read, settled: bool, log: Any, name: str) -> IngestResult:
        sha = read.sha256
        campaigns = self.store.list_campaigns()
        for campaign in campaigns:
            if self.store.has_file(campaign.id, sha):
                log.info("file.already_applied", campaign_id=campaign.id)
                return IngestResult(Outcome.ALREADY_APPLIED, str(path), sha, campaign.id)
        if sha in self._quarantined:
            log.debug("file.already_quarantined")
            return IngestResult(Outcome.ALREADY_QUARANTINED, str(path), sha)
        if read.data is None:
            return self._quarantine(
                path,
                read,
                log,
                Reason(
                    what=f"the file is {read.size} bytes, over the {self.max_bytes} byte limit",
                    where=str(path),
                    todo="a MegaMek battle record is far smaller; check this is the right file",
                ),
            )
        try:
            mul = read_mul_bytes(read.data, str(path), max_bytes=self.max_bytes)
        except MulReadError as exc:
            if not exc.refused and not settled:
                log.info("file.unfinished", problem=exc.problem)
                return IngestResult(Outcome.RETRY, str(path), sha, reason=exc.one_line())
            return self._quarantine(
                path, read, log, Reason(exc.problem, str(exc.position), exc.hint)
            )
        fault_point("after_parse")
        return self._apply(path, read, mul, campaigns, log, name)

    def _apply(
        self,
        path: Path,
        read: _Read,
        mul: MulFile,
        campaigns: list[Campaign],
        log: Any,
        name: str,
    ) -> IngestResult:
        sha = read.sha256
        battle_input = self.battle_input
        if battle_input is None:
            return self._hold(
                path,
                sha,
                log,
                "this build of mekref cannot apply battle files yet (no battle ingestion)",
            )
        # Battle files belong to campaigns whose state has units and battles (TripWire's);
        # campaigns of other rule sets never match one.
        states = {c.id: self.state_of(c.id) for c in campaigns}
        campaigns = [c for c in campaigns if isinstance(states[c.id], CampaignState)]
        matching = [c for c in campaigns if battle_input.campaign_matches(states[c.id], mul)]
        if not matching:
            return self._hold(
                path, sha, log, "no unit or person in this file belongs to a known campaign"
            )
        if len(matching) > 1:
            names = ", ".join(f"{c.name} ({c.id})" for c in matching)
            return self._quarantine(
                path,
                read,
                log,
                Reason(
                    what=f"the file's units belong to several campaigns: {names}",
                    where=str(path),
                    todo="split the file per campaign, or keep each campaign in its own database",
                ),
            )
        campaign = matching[0]
        log = log.bind(campaign_id=campaign.id)
        try:
            command = battle_input.report_command(
                states[campaign.id],
                mul,
                sha256=sha,
                # The campaign keeps the file's name, not where it was found: the same files
                # give the same state whether the daemon saw them or a replay fed them.
                path=name,
                design_for=self.design_for,
                actor=self.actor,
            )
        except battle_input.AmbiguousMatch as exc:
            return self._quarantine(
                path,
                read,
                log,
                Reason(
                    what=f"units cannot be matched without guessing: {exc}",
                    where=str(path),
                    todo="export the scenario from mekref so units carry their ids, or have "
                    "the referee say which unit is which",
                ),
                campaign.id,
            )
        except battle_input.FileNotForCampaign as exc:
            return self._quarantine(
                path,
                read,
                log,
                Reason(
                    what=f"the file does not belong to campaign {campaign.name}: {exc}",
                    where=str(path),
                    todo="check that this file comes from one of this campaign's battles",
                ),
                campaign.id,
            )
        except Refusal as exc:
            return self._refused(path, read, log, exc, campaign.id)
        battle_id = getattr(command, "battle_id", None)
        battle_id = battle_id if isinstance(battle_id, str) else None
        log = log.bind(battle_id=battle_id)
        try:
            with kill_inside_commit(self.store):
                executed = self.runner.execute(
                    campaign.id, command, battle_file=FileRef(sha, str(path), battle_id)
                )
        except Refusal as exc:
            return self._refused(path, read, log, exc, campaign.id)
        fault_point("after_commit")
        if executed.already_applied:
            log.info("file.already_applied")
            return IngestResult(Outcome.ALREADY_APPLIED, str(path), sha, campaign.id, battle_id)
        battles = sorted({b for e in executed.events if (b := _battle_id_of(e)) is not None})
        battle_id = battle_id or (battles[0] if len(battles) == 1 else None)
        log.info(
            "file.applied",
            events=len(executed.events),
            first_seq=executed.first_seq,
            last_seq=executed.last_seq,
            battle_id=battle_id,
        )
        self._log_battles(log, executed.events, executed.state, sha)
        return IngestResult(
            Outcome.APPLIED, str(path), sha, campaign.id, battle_id, len(executed.events)
        )

    def state_of(self, campaign_id: str) -> Any:
        """The campaign's current state. Matching a file needs every campaign's state; the
        runner keeps the newest one it folded and reads only the events appended since (by
        this process, the CLI or another replica), so this stays cheap as logs grow."""
        return self.runner.load(campaign_id).state

    def _log_battles(
        self, log: Any, events: tuple[Event, ...], state: CampaignState, sha: str
    ) -> None:
        """One line per battle event the file caused, and one per battle still waiting."""
        for event in events:
            battle_id = _battle_id_of(event)
            if battle_id is not None:
                log.info("battle." + _snake(type(event).TYPE), battle_id=battle_id)
        for battle in pending_battles(state):
            if sha in battle.files:
                log.info(
                    "battle.waiting",
                    battle_id=battle.battle_id,
                    sides_expected=list(battle.sides_expected),
                    sides_reported=list(battle.sides_reported),
                )

    # -- outcomes -------------------------------------------------------------------------
    def _refused(
        self, path: Path, read: _Read, log: Any, exc: Refusal, campaign_id: str
    ) -> IngestResult:
        return self._quarantine(
            path,
            read,
            log,
            Reason(
                what=f"the rules refused it: {exc}",
                where=str(path),
                todo="fix the campaign (or the file) as the message says; the referee can "
                "override with a recorded reason",
            ),
            campaign_id,
        )

    def _hold(self, path: Path, sha: str, log: Any, reason: str) -> IngestResult:
        self.store.hold_unmatched(sha, str(path), reason)
        # Said once at info; every rescan retries it, which is only worth a debug line.
        (log.debug if sha in self._held else log.info)("file.unmatched", reason=reason)
        self._held.add(sha)
        return IngestResult(Outcome.UNMATCHED, str(path), sha, reason=reason)

    def _quarantine(
        self,
        path: Path,
        read: _Read,
        log: Any,
        reason: Reason,
        campaign_id: str | None = None,
    ) -> IngestResult:
        when = self._now()
        try:
            copy = str(
                quarantine_copy(
                    self.quarantine_dir, path, read.sha256, reason, data=read.data, when=when
                )
            )
        except OSError as exc:
            # The record and the log line still say what is wrong; the copy is a convenience.
            copy = f"(no copy: {exc.strerror or exc})"
            log.error("quarantine.copy_failed", folder=str(self.quarantine_dir), error=str(exc))
        self.store.quarantine_file(
            read.sha256, str(path), copy, reason.one_line(), campaign_id=campaign_id, at=when
        )
        self._quarantined.add(read.sha256)
        log.warning(
            "file.quarantined", reason=reason.one_line(), quarantine_path=copy, what=reason.what
        )
        return IngestResult(
            Outcome.QUARANTINED, str(path), read.sha256, campaign_id, reason=reason.one_line()
        )
