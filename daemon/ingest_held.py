"""Files held for later: unmatched (no campaign has their units yet) or waiting (a savegame of a
game still going on), listed in the store with their reason; and the unmatched ones remembered
by the watcher's pipeline, so that rescans neither read nor parse them again.

A held file belongs to no campaign yet. Only two things can change that: its bytes, or a
campaign (a new one, or new events in one: a force imported, a unit recruited). While neither
changed, a rescan leaves it alone. When a campaign changed, the file is matched again from its
parse kept here (parsing is pure: the same bytes give the same result), without reading or
parsing it; only a file that now matches takes the whole way in again (read, hash, and the
same kept parse). A parse is kept while the held files' sizes stay within a budget: past it,
a file is parsed again when a campaign changes, as before.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.battle_file import BattleFileRead
from mekref.adapters.megamek.held_reasons import GAME_IN_PROGRESS
from mekref.daemon.ingest_model import IngestResult, Outcome
from mekref.daemon.store import EventStore
from mekref.daemon.watch.readiness import Stat

#: Each campaign's id with its last seq: what a held file's match depends on.
Campaigns = tuple[tuple[str, int], ...]

#: Bytes of held files whose parse is kept: a parse takes 3 to 5 times its file's size.
PARSE_BUDGET = 32 * 1024 * 1024


@dataclass(frozen=True)
class Held:
    stat: Stat  # size, mtime and inode when it was read
    campaigns: Campaigns  # as they were when it was last matched
    sha256: str
    reason: str
    parsed: BattleFileRead | None  # None: over the budget, parsed again when needed


class HeldFiles:
    """Held files by path (one thread: the watcher's loop takes files one at a time)."""

    def __init__(self, budget: int = PARSE_BUDGET) -> None:
        self.budget = budget
        self._entries: dict[Path, Held] = {}
        self._kept = 0  # bytes of the files whose parse is kept

    def hold(self, path: Path, held: Held) -> None:
        self.forget(path)
        size = held.stat[0]
        if held.parsed is not None and self._kept + size > self.budget:
            held = replace(held, parsed=None)
        if held.parsed is not None:
            self._kept += size
        self._entries[path] = held

    def look(
        self,
        path: Path,
        stat: Stat,
        campaigns: Campaigns,
        where: str,
        belongs: Callable[[Held], bool] | None,
        log: Any,
    ) -> tuple[IngestResult | None, dict[str, BattleFileRead]]:
        """A rescan's look at ``path``, held with the same bytes: UNCHANGED while the campaigns
        are as they were; UNMATCHED, neither read nor parsed, while ``belongs`` finds that its
        kept parse still belongs to none (None: not asked). Otherwise no result, and its kept
        parse by sha256, for the whole way in."""
        held = self._entries.get(path)
        if held is None or held.stat != stat:
            return None, {}
        if held.campaigns == campaigns:
            return IngestResult(Outcome.UNCHANGED, where, reason="held, nothing changed"), {}
        if belongs is None or held.parsed is None or belongs(held):
            return None, {held.sha256: held.parsed} if held.parsed is not None else {}
        self._entries[path] = replace(held, campaigns=campaigns)
        log.debug("file.unmatched", path=where, sha256=held.sha256, reason=held.reason)
        return IngestResult(Outcome.UNMATCHED, where, held.sha256, reason=held.reason), {}

    def judged(
        self,
        path: Path,
        stat: Stat,
        campaigns: Campaigns,
        result: IngestResult,
        parses: dict[str, BattleFileRead],
    ) -> None:
        """What became of a file taken the whole way in: held again (with its parse) while it
        is unmatched, forgotten once its fate is final; kept as it was when it is to be retried."""
        if result.outcome is Outcome.UNMATCHED and result.sha256 is not None:
            parsed = parses.get(result.sha256)
            self.hold(path, Held(stat, campaigns, result.sha256, result.reason or "", parsed))
        elif result.outcome not in (Outcome.RETRY, Outcome.UNCHANGED):
            self.forget(path)

    def forget(self, path: Path) -> None:
        held = self._entries.pop(path, None)
        if held is not None and held.parsed is not None:
            self._kept -= held.stat[0]


def hold_unmatched(
    store: EventStore, where: str, sha: str, log: Any, reason: str, now: datetime
) -> IngestResult:
    """Listed as unmatched (never dropped): said once at info, later looks only at debug."""
    kept = store.hold_unmatched(sha, where, reason, at=now)
    (log.info if kept.first_seen == now else log.debug)("file.unmatched", reason=reason)
    return IngestResult(Outcome.UNMATCHED, where, sha, reason=reason)


def hold_waiting(store: EventStore, where: str, sha: str, log: Any, reason: str) -> IngestResult:
    """A savegame of a game still going on: listed with its reason, never applied.

    MegaMek writes its autosaves over the same name (``autosave.sav.gz`` after every report
    phase with "paranoid autosave"): the bytes held before under this path are no longer in
    the folder, so they leave the waiting list (an upload has no path and keeps its entry)."""
    if not where.startswith("upload:"):
        for old in store.unmatched_files():
            if old.path == where and old.sha256 != sha and old.reason.startswith(GAME_IN_PROGRESS):
                store.release_unmatched(old.sha256)
                log.info("file.waiting_replaced", replaced=old.sha256)
    store.hold_unmatched(sha, where, reason)
    log.info("file.waiting", reason=reason)
    return IngestResult(Outcome.WAITING, where, sha, reason=reason)


def _under(path: str, folders: Iterable[Path]) -> bool:
    for folder in folders:
        root = os.path.abspath(folder)
        if os.path.abspath(path).startswith(root.rstrip(os.sep) + os.sep):
            return True
    return False


def release_vanished(
    store: EventStore, folders: Iterable[Path], log: Any, present: set[str]
) -> list[str]:
    """Savegames waiting for their game to end whose file left a watched folder (MegaMek's
    rolling autosave keeps the last few ``Round-*`` files and deletes the older ones): they
    leave the waiting list. ``present``: the paths (as the store shows them) a scan of the
    folders just found, so a name shown escaped is never taken for a missing file. Returns the
    paths released. A file outside the watched folders (one the referee brought with ``battle
    ingest``) is left listed: nothing watches it."""
    folders = tuple(folders)
    gone = []
    for held in store.unmatched_files():
        if not held.reason.startswith(GAME_IN_PROGRESS) or not _under(held.path, folders):
            continue
        if held.path in present or os.path.lexists(held.path):
            continue
        if store.release_unmatched(held.sha256):
            log.info("file.waiting_gone", path=held.path, sha256=held.sha256)
            gone.append(held.path)
    return gone
