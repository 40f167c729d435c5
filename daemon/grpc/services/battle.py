"""BattleService: battle files in (the watcher's exactly-once path), referee inputs, scenarios.

An upload never names a path on the server. Its bytes go through the one battle-file pipeline
(size cap, sha256 identity, safe XML, quarantine with a reason, exactly once), parsed once, to
the campaign the request names and no other; a side may upload only its own view of a battle,
and a side's file that is not is answered with words that name no unit (the referee reads why
in the quarantine), nor may its uploads open more held battles than the server allows.
An applied upload is kept in the server's uploads folder under its sha256 (the name the
campaign records), so a file uploaded and also dropped in a watched folder is applied once, and
the uploads folder replays to the same state.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

import grpc

from mekref.daemon.grpc.errors import ApiError, FieldViolation, invalid
from mekref.daemon.grpc.services.base import Context, Services, campaign_caller, rpc
from mekref.daemon.ingest import IngestOptions, Outcome
from mekref.v1 import battle_pb2, battle_pb2_grpc

_OUTCOMES = {
    "applied": battle_pb2.UPLOAD_OUTCOME_APPLIED,
    "already_applied": battle_pb2.UPLOAD_OUTCOME_ALREADY_APPLIED,
    "unmatched": battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED,
    # A savegame of a game still in progress: held too; the reason says why and what to do.
    "waiting": battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED,
    "quarantined": battle_pb2.UPLOAD_OUTCOME_QUARANTINED,
    "already_quarantined": battle_pb2.UPLOAD_OUTCOME_QUARANTINED,
}


def store_upload(folder: Path, data: bytes, sha256: str) -> Path:
    """Write ``data`` as ``<folder>/<sha256>.mul`` atomically: the name is ours, never the
    client's."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{sha256}.mul"
    if target.exists():
        return target
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".upload-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


class BattleServicer(battle_pb2_grpc.BattleServiceServicer):
    """Battle files in, for every rule set that takes them. ListPendingBattles,
    SetRefereeInputs and ExportScenario are a wing's (TripWire's:
    ``mekref.daemon.tripwire.grpc_battle``); without one they answer UNIMPLEMENTED."""

    def __init__(self, services: Services) -> None:
        self.s = services

    @rpc
    async def UploadBattleFile(
        self, request: battle_pb2.UploadBattleFileRequest, context: Context
    ) -> battle_pb2.UploadBattleFileResponse:
        cid, principal = campaign_caller(request)
        data = request.content
        if not data:
            raise invalid("content", "the file is empty")
        if len(data) > self.s.upload_max_bytes:
            raise invalid(
                "content",
                f"{len(data):,} bytes is over the {self.s.upload_max_bytes:,}-byte limit",
                "file_too_large",
            )
        if len(request.file_name) > 255:
            raise invalid("file_name", "at most 255 characters")
        async with self.s.upload_slots:
            return await self.s.run(
                context,
                self._upload,
                cid,
                data,
                request.file_name,
                principal.side_id,
                principal.actor,
            )

    def _upload(
        self, cid: str, data: bytes, file_name: str, side_id: str | None, actor: str
    ) -> battle_pb2.UploadBattleFileResponse:
        self.s.store.get_campaign(cid)  # NOT_FOUND before anything else
        sha = hashlib.sha256(data).hexdigest()
        # The campaign keeps the name the bytes are stored under (never the client's), so a
        # replay of the uploads folder gives the same state as the live upload.
        options = IngestOptions(
            campaign_id=cid,
            uploader_side=side_id,
            actor=actor,
            held_limit=self.s.held_battles_per_side if side_id is not None else None,
        )
        result = self.s.pipeline.ingest_bytes(data, f"{sha}.mul", options, shown_as=file_name)
        outcome = result.outcome
        if outcome is Outcome.RETRY:
            raise ApiError(
                grpc.StatusCode.UNAVAILABLE, "the file could not be applied now; retry", "retry"
            )
        if outcome is Outcome.NOT_FOR_CAMPAIGN:
            raise ApiError(
                grpc.StatusCode.FAILED_PRECONDITION, result.reason or "", "file_not_for_campaign"
            )
        if outcome is Outcome.NOT_YOUR_FILE:
            # One code and one sentence whether the enemy fields the file's units, nobody does,
            # or the match is ambiguous: the answer must not tell a side what the enemy fields.
            # The full reason is in the quarantine (ListPendingBattles, mekref status).
            raise ApiError(
                grpc.StatusCode.FAILED_PRECONDITION, result.reason or "", "not_your_file"
            )
        if outcome is Outcome.HELD_LIMIT:
            raise ApiError(
                grpc.StatusCode.RESOURCE_EXHAUSTED, result.reason or "", "held_battles_limit"
            )
        if outcome is Outcome.QUARANTINED and result.code.startswith("file_"):
            # The bytes themselves are bad (hostile, broken, too large): the client's error,
            # answered at once; the quarantine keeps the record and a copy, as for a dropped file.
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"content: {result.reason}",
                result.code,
                (FieldViolation("content", result.reason or ""),),
            )
        if outcome is Outcome.APPLIED and self.s.uploads_dir is not None:
            store_upload(Path(self.s.uploads_dir), data, sha)
        reason = result.reason or ""
        code = _OUTCOMES.get(outcome.value, battle_pb2.UPLOAD_OUTCOME_UNSPECIFIED)
        if outcome is Outcome.APPLIED and result.held:
            # Taken in (its events are in the log), but its battle matches no engagement of the
            # strategic map: held until the referee confirms it (ruling T-E8).
            code = battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED
            # The full reason names formations and hexes (the enemy's too): the referee's only.
            why = result.held if side_id is None else "it matches no open engagement"
            reason = f"battle {result.battle_id} is held until the referee confirms it: {why}"
        if outcome is Outcome.ALREADY_QUARANTINED:
            quarantined = [q for q in self.s.store.quarantined_files() if q.sha256 == sha]
            reason = quarantined[0].reason if quarantined else reason
        first = last = 0
        for ingested in self.s.store.ingested_files(cid, sha256=sha):
            first, last = ingested.first_seq, ingested.last_seq
        return battle_pb2.UploadBattleFileResponse(
            outcome=code,
            sha256=sha,
            first_seq=first,
            last_seq=last,
            reason=reason,
        )
