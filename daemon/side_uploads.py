"""What a side's battle-file upload is told, and how many held battles its uploads may open.

A side's token uploads only its own view of a battle (ruling BR-1). Whether a file is that, is
judged against every unit of the campaign, the enemy's too, so each way it can fail says
something about the enemy: a chassis the enemy fields matches one of its units (another side's
view), a chassis nobody fields matches nothing, two enemy units of one design make the match
ambiguous. The side is therefore told one sentence, the same in every case, that names no unit
and no side; the file and the full reason (units, ids, crews, sides) go to the quarantine, where
the referee reads them (``mekref status``, ``ListPendingBattles``).

A held battle (ruling T-E8: its files match no open engagement of the strategic map) waits for
the referee, who confirms or closes it; nothing else ends it. A side's uploads may keep at most
``held_battles_per_side`` of them open, so a side cannot fill the referee's list at will.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mekref.daemon.ingest_model import IngestOptions, IngestResult, Outcome
from mekref.daemon.ingest_quarantine import Quarantine
from mekref.daemon.watch.quarantine import Reason
from mekref.daemon.watch.reading import FileBytes

if TYPE_CHECKING:
    from mekref.daemon.campaigns import CampaignRunner

#: The one answer to a side whose file is not its own view: it must not depend on what the enemy
#: fields, so it never changes with the case.
NOT_YOURS = (
    "this file's units do not match your side's units in this campaign; the referee has the "
    "details (upload your own side's unit list or record of one of this campaign's battles; a "
    "file exported from mekref carries every unit's id)"
)


def already_applied(
    where: str, sha: str, campaign_id: str, opts: IngestOptions, runner: CampaignRunner, log: Any
) -> IngestResult:
    """Bytes the campaign already took in. A side is told so only when they were its own view:
    the enemy's file, sent again by a side that got hold of it, gets the one answer a file not
    its own gets, so that it learns nothing of what the enemy sent (nor when: the seqs)."""
    side = opts.uploader_side
    files = runner.game(campaign_id).battle_files if side is not None else None
    if files is not None and files.view_of_file(runner.load(campaign_id).state, sha) != side:
        log.info("file.not_your_file", side=side, code="not_your_file", applied=True)
        return IngestResult(
            Outcome.NOT_YOUR_FILE, where, sha, campaign_id, reason=NOT_YOURS, code="not_your_file"
        )
    log.info("file.already_applied", campaign_id=campaign_id)
    return IngestResult(Outcome.ALREADY_APPLIED, where, sha, campaign_id)


def for_referee(side_id: str, reason: Reason) -> Reason:
    """The full reason, saying whose upload it was: the quarantine record is the referee's."""
    return Reason(f"side {side_id}'s upload: {reason.what}", reason.where, reason.todo)


def refuse_side(
    quarantine: Quarantine,
    where: str,
    name: str,
    read: FileBytes,
    log: Any,
    opts: IngestOptions,
    reason: Reason,
    code: str,
) -> IngestResult:
    """A side's upload that is not its own view: the file and the full reason go to the
    quarantine (the referee's); the side is told NOT_YOURS, the same in every case."""
    side = opts.uploader_side
    assert side is not None
    # Not remembered as quarantined: the referee may bring the same bytes and be answered.
    quarantine.put(
        where,
        name,
        read,
        log,
        for_referee(side, reason),
        opts.campaign_id,
        code=code,
        remember=False,
    )
    log.info("file.not_your_file", side=side, code=code)
    return IngestResult(
        Outcome.NOT_YOUR_FILE, where, read.sha256, opts.campaign_id, reason=NOT_YOURS, code=code
    )


class HeldBattleLimit(Exception):
    """A side's upload would open one held battle more than its uploads may keep open."""

    def __init__(self, side_id: str, held: tuple[str, ...], limit: int) -> None:
        self.side_id = side_id
        self.held = held
        self.limit = limit
        todo = (
            "ask the referee to confirm or close them (mekref battle confirm, mekref battle "
            "close), then upload this file again"
        )
        if limit == 0:
            message = (
                "this server takes no battle held for the referee's confirmation from a side's "
                "upload (held_battles_per_side = 0) and this file would open one: ask the "
                "referee to ingest it"
            )
        else:
            message = (
                f"your side already has {len(held)} battle(s) held for the referee's "
                f"confirmation ({', '.join(held)}), the most a side's uploads may open "
                f"(held_battles_per_side = {limit}), and this file would open another: {todo}"
            )
        super().__init__(message)


def held_limit_check(files: Any, side_id: str, limit: int) -> Callable[[Any, Any], None]:
    """A check for ``CampaignRunner.execute``: refuse (HeldBattleLimit) a decision that leaves
    more than ``limit`` held battles opened by ``side_id``'s files, when it added one. A file
    joining a held battle, or linked to an engagement, is never refused by it."""

    def check(before: Any, after: Any) -> None:
        now = files.held_opened_by(after, side_id)
        if len(now) <= limit:
            return
        was = files.held_opened_by(before, side_id)
        if len(now) > len(was):
            raise HeldBattleLimit(side_id, was, limit)

    return check
