"""BattleService: battle files in (the watcher's exactly-once path), referee inputs, scenarios.

An upload never names a path on the server. Its bytes are checked (size cap, then the same safe
XML reader the watcher uses), written to the server's own uploads folder under their sha256,
and handed to the file pipeline exactly as a dropped file would be, so a file uploaded and also
dropped in a watched folder is still applied once.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

import grpc

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.daemon.grpc import auth, contracts
from mekref.daemon.grpc.errors import ApiError, FieldViolation, invalid, unimplemented
from mekref.daemon.grpc.services.base import Context, Services, check_campaign_id, rpc
from mekref.daemon.grpc.services.campaign import timestamp
from mekref.rules.codec import canonical_json, to_jsonable
from mekref.rules.messages import RefereeNote
from mekref.v1 import battle_pb2, battle_pb2_grpc

_OUTCOMES = {
    "applied": battle_pb2.UPLOAD_OUTCOME_APPLIED,
    "already_applied": battle_pb2.UPLOAD_OUTCOME_ALREADY_APPLIED,
    "unmatched": battle_pb2.UPLOAD_OUTCOME_HELD_UNMATCHED,
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
        auth.require_campaign(auth.current_principal(), cid)
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
        if self.s.pipeline is None or self.s.uploads_dir is None:
            raise unimplemented("battle file upload")
        principal = auth.current_principal()
        return await self.s.run(context, self._upload, cid, data, principal.side_id)

    def _upload(
        self, cid: str, data: bytes, side_id: str | None
    ) -> battle_pb2.UploadBattleFileResponse:
        sha = hashlib.sha256(data).hexdigest()
        try:
            # Hostile or broken XML is refused here, before anything is written to disk.
            mul = read_mul_bytes(data, "upload", max_bytes=self.s.upload_max_bytes)
        except MulReadError as exc:
            raise ApiError(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"content: {exc.problem} ({exc.hint})",
                "file_refused" if exc.refused else "file_unreadable",
                (FieldViolation("content", f"{exc.position}: {exc.problem}"),),
            ) from None
        battle_input = contracts.optional_module(contracts.BATTLE_INPUT_MODULE)
        if battle_input is not None:
            state = self.s.runner.load(cid).state
            if not battle_input.campaign_matches(state, mul):
                raise ApiError(
                    grpc.StatusCode.FAILED_PRECONDITION,
                    "no unit or person in this file belongs to this campaign",
                    "file_not_for_campaign",
                )
            if side_id is not None:
                self._check_own_view(battle_input, state, mul, sha, side_id)
        if not self.s.store.has_file(cid, sha):
            path = store_upload(Path(self.s.uploads_dir), data, sha)
            result = self.s.pipeline.process(path)
            outcome = str(getattr(result.outcome, "value", result.outcome))
            if outcome == "retry":
                raise ApiError(
                    grpc.StatusCode.UNAVAILABLE, "the file could not be applied now; retry", "retry"
                )
            reason = result.reason or ""
        else:
            outcome, reason = "already_applied", ""
        first = last = 0
        for ingested in self.s.store.ingested_files(cid):
            if ingested.sha256 == sha:
                first, last = ingested.first_seq, ingested.last_seq
                outcome = "applied" if outcome == "applied" else "already_applied"
        if outcome in ("unchanged", "already_quarantined"):
            # The pipeline had dealt with these bytes before: say what became of them.
            quarantined = [q for q in self.s.store.quarantined_files() if q.sha256 == sha]
            outcome, reason = "quarantined", quarantined[0].reason if quarantined else reason
        if outcome == "applied":
            self.s.hub.notify_threadsafe(cid)
        return battle_pb2.UploadBattleFileResponse(
            outcome=_OUTCOMES.get(outcome, battle_pb2.UPLOAD_OUTCOME_UNSPECIFIED),
            sha256=sha,
            first_seq=first,
            last_seq=last,
            reason=reason,
        )

    def _check_own_view(
        self, battle_input: Any, state: Any, mul: Any, sha: str, side_id: str
    ) -> None:
        """A side uploads its own player's record only: another side's is acting for it.

        The file's view is worked out as the pipeline will (``report_command``); a file whose
        units cannot be matched is left to the pipeline, which quarantines it with the reason.
        """
        try:
            command = battle_input.report_command(
                state,
                mul,
                sha256=sha,
                path="upload",
                design_for=getattr(self.s.pipeline, "design_for", None),
                actor=side_id,
            )
        except (battle_input.FileNotForCampaign, battle_input.AmbiguousMatch):
            return
        battles = contracts.optional_module(contracts.BATTLES_MODULE)
        file = getattr(command, "file", None)
        if battles is None or file is None:
            return
        # The rules name the view when they take the file in; ask them the same way now.
        view = battles.reporting_side(state, file)
        if view != side_id:
            # Neither whose view it is nor whether it is anyone's: only that it is not yours.
            raise ApiError(
                grpc.StatusCode.PERMISSION_DENIED,
                "this file is not your side's view of the battle; the referee uploads it",
                "not_your_file",
            )

    @rpc
    async def ListPendingBattles(
        self, request: battle_pb2.ListPendingBattlesRequest, context: Context
    ) -> battle_pb2.ListPendingBattlesResponse:
        cid = check_campaign_id(request.campaign_id)
        auth.require_referee(auth.current_principal(), cid)

        def listing() -> battle_pb2.ListPendingBattlesResponse:
            state = self.s.runner.load(cid).state
            module = contracts.optional_module(contracts.BATTLES_MODULE)
            battles: list[Any] = list(module.pending_battles(state)) if module else []
            return battle_pb2.ListPendingBattlesResponse(
                battles=[
                    battle_pb2.PendingBattle(
                        battle_id=b.battle_id, detail_json=canonical_json(to_jsonable(b))
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
        messages = contracts.optional_module("mekref.rules.tripwire.battle_messages")
        if messages is None:
            raise unimplemented("battle referee inputs")
        note = None
        if request.reason.strip():
            note = RefereeNote(referee=principal.actor, reason=request.reason)
        elif request.close_battle:
            raise invalid("reason", "closing a battle on the referee's word needs a reason")
        side = request.field_controller_side_id or None
        command: Any
        if request.close_battle:
            command = messages.CloseBattle(
                actor=principal.actor, battle_id=request.battle_id, control_side=side, note=note
            )
        elif side is None:
            raise invalid("field_controller_side_id", "name the side holding the field")
        else:
            command = messages.SetBattleControl(
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
        side_id = auth.acting_side(auth.current_principal(), cid, request.side_id)
        if not request.battle_id:
            raise invalid("battle_id", "name the engagement")
        module = contracts.optional_module(contracts.EXPORT_MODULE)
        if module is None:
            raise unimplemented("scenario export")
        eid = request.battle_id

        def export() -> battle_pb2.ExportScenarioResponse:
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
            mul = module.scenario_mul(state, eid, side_id)
            sheet = module.scenario_sheet(state, eid, side_id)
            return battle_pb2.ExportScenarioResponse(
                file_name=f"{eid}-{side_id}.mul",
                content=mul.encode("utf-8"),
                sheet_markdown=sheet,
            )

        return await self.s.run(context, export)
