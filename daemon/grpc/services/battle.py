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
from typing import Any

import grpc

from mekref.daemon.grpc import auth, typed
from mekref.daemon.grpc.errors import ApiError, FieldViolation, invalid, unimplemented
from mekref.daemon.grpc.services.base import Context, Services, check_campaign_id, rpc
from mekref.daemon.grpc.services.campaign import timestamp
from mekref.daemon.ingest import IngestOptions, Outcome
from mekref.daemon.tripwire.mms_export import build_engagement_mms
from mekref.rules.codec import canonical_json, to_jsonable
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.battle_messages import CloseBattle, SetBattleControl
from mekref.rules.tripwire.turn.export import scenario_mul, scenario_sheet
from mekref.v1 import battle_pb2, battle_pb2_grpc, tripwire_pb2

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
    def __init__(self, services: Services) -> None:
        self.s = services

    @rpc
    async def UploadBattleFile(
        self, request: battle_pb2.UploadBattleFileRequest, context: Context
    ) -> battle_pb2.UploadBattleFileResponse:
        cid = check_campaign_id(request.campaign_id)
        principal = auth.current_principal()
        auth.require_campaign(principal, cid)
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
        for ingested in self.s.store.ingested_files(cid):
            if ingested.sha256 == sha:
                first, last = ingested.first_seq, ingested.last_seq
        return battle_pb2.UploadBattleFileResponse(
            outcome=code,
            sha256=sha,
            first_seq=first,
            last_seq=last,
            reason=reason,
        )

    @rpc
    async def ListPendingBattles(
        self, request: battle_pb2.ListPendingBattlesRequest, context: Context
    ) -> battle_pb2.ListPendingBattlesResponse:
        cid = check_campaign_id(request.campaign_id)
        auth.require_referee(auth.current_principal(), cid)

        def listing() -> battle_pb2.ListPendingBattlesResponse:
            self.s.require_tripwire(cid, "ListPendingBattles")
            state = self.s.runner.load(cid).state
            files = self.s.runner.game(cid).battle_files
            battles = files.waiting(state) if files is not None else ()
            return battle_pb2.ListPendingBattlesResponse(
                battles=[
                    battle_pb2.PendingBattle(
                        battle_id=b.battle_id,
                        detail_json=canonical_json(to_jsonable(b)),
                        detail=typed.fill(
                            tripwire_pb2.Tripwire.PendingBattle(), type(b), to_jsonable(b)
                        ),
                    )
                    for b in battles
                ],
                unmatched_files=[
                    battle_pb2.UnmatchedFile(
                        sha256=u.sha256,
                        file_name=Path(u.path).name,
                        reason=u.reason,
                        first_seen=timestamp(u.first_seen),
                    )
                    for u in self.s.store.unmatched_files()
                    if u.campaign_id in (None, cid)
                ],
                quarantined_files=[
                    battle_pb2.QuarantinedFile(
                        sha256=q.sha256,
                        original_path=q.original_path,
                        reason=q.reason,
                        quarantine_path=q.quarantine_path,
                        quarantined_at=timestamp(q.quarantined_at),
                    )
                    for q in self.s.store.quarantined_files()
                    if q.campaign_id in (None, cid)
                ],
            )

        return await self.s.run(context, listing)

    @rpc
    async def SetRefereeInputs(
        self, request: battle_pb2.SetRefereeInputsRequest, context: Context
    ) -> battle_pb2.SetRefereeInputsResponse:
        cid = check_campaign_id(request.campaign_id)
        principal = auth.current_principal()
        auth.require_referee(principal, cid)
        if not request.battle_id:
            raise invalid("battle_id", "name the battle")
        if request.objectives_met:
            raise unimplemented("objectives as referee inputs")
        await self.s.check_tripwire(context, cid, "SetRefereeInputs")
        note = None
        if request.reason.strip():
            note = RefereeNote(referee=principal.actor, reason=request.reason)
        elif request.close_battle:
            raise invalid("reason", "closing a battle on the referee's word needs a reason")
        side = request.field_controller_side_id or None
        command: Any
        if request.close_battle:
            command = CloseBattle(
                actor=principal.actor, battle_id=request.battle_id, control_side=side, note=note
            )
        elif side is None:
            raise invalid("field_controller_side_id", "name the side holding the field")
        else:
            command = SetBattleControl(
                actor=principal.actor, battle_id=request.battle_id, side_id=side, note=note
            )

        executed = await self.s.execute(context, cid, command)
        return battle_pb2.SetRefereeInputsResponse(
            first_seq=executed.first_seq, last_seq=executed.last_seq
        )

    @rpc
    async def ExportScenario(
        self, request: battle_pb2.ExportScenarioRequest, context: Context
    ) -> battle_pb2.ExportScenarioResponse:
        cid = check_campaign_id(request.campaign_id)
        principal = auth.current_principal()
        side_id = auth.acting_side(principal, cid, request.side_id)
        referee = principal.is_referee
        if not request.engagement_id:
            raise invalid("engagement_id", "name the engagement")
        eid = request.engagement_id

        def export() -> battle_pb2.ExportScenarioResponse:
            self.s.require_tripwire(cid, "ExportScenario")
            state = self.s.runner.load(cid).state
            strategic = getattr(state, "strategic", None)
            fought = [
                e
                for e in getattr(strategic, "engagements", ())
                if e.engagement_id == eid and side_id in e.sides
            ]
            if not fought:
                # The same answer for "no such engagement" and "not yours": nothing leaks.
                raise ApiError(
                    grpc.StatusCode.NOT_FOUND,
                    f"no engagement {eid!r} for side {side_id!r}",
                    "unknown_engagement",
                )
            mul = scenario_mul(state, eid, side_id)
            sheet = scenario_sheet(state, eid, side_id)
            response = battle_pb2.ExportScenarioResponse(
                file_name=f"{eid}-{side_id}.mul",
                content=mul.encode("utf-8"),
                sheet_markdown=sheet,
            )
            if referee:  # the scenario names both sides' units: the host's file only
                built = build_engagement_mms(state, eid, lambda _side: {})
                response.scenario_file_name = built.file_name
                response.scenario_mms = built.text.encode("utf-8")
                response.options_file_name = built.options_name or ""
                response.options_xml = (built.options_xml or "").encode("utf-8")
                response.scenario_warnings.extend(built.warnings)
            return response

        return await self.s.run(context, export)
