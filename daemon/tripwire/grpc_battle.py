"""BattleService's TripWire RPCs: the battles waiting for files, the referee's inputs to a
battle, an engagement exported as MegaMek files, and a resolved battle's end-of-game record for
MekHQ. Battle files in (UploadBattleFile) are the
core's (:class:`~mekref.daemon.grpc.services.battle.BattleServicer`), which this extends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grpc

from mekref.daemon.grpc import typed
from mekref.daemon.grpc.errors import ApiError, invalid, unimplemented
from mekref.daemon.grpc.services.base import (
    Context,
    legacy_text,
    referee_caller,
    rpc,
    side_caller,
    wants_legacy_json,
)
from mekref.daemon.grpc.services.battle import BattleServicer
from mekref.daemon.grpc.services.campaign import timestamp
from mekref.daemon.tripwire.grpc_guard import check_tripwire, require_tripwire
from mekref.daemon.tripwire.mms_export import build_engagement_mms
from mekref.rules.codec import to_jsonable
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.battle_messages import CloseBattle, SetBattleControl
from mekref.rules.tripwire.battle_record import battle_record
from mekref.rules.tripwire.battle_visibility import fought_by
from mekref.rules.tripwire.turn.export import scenario_mul, scenario_sheet
from mekref.v1 import battle_pb2, tripwire_pb2


class TripwireBattleServicer(BattleServicer):
    @rpc
    async def ListPendingBattles(
        self, request: battle_pb2.ListPendingBattlesRequest, context: Context
    ) -> battle_pb2.ListPendingBattlesResponse:
        cid, _ = referee_caller(request)
        legacy = wants_legacy_json(context)

        def listing() -> battle_pb2.ListPendingBattlesResponse:
            require_tripwire(self.s, cid, "ListPendingBattles")
            state = self.s.runner.load(cid).state
            files = self.s.runner.game(cid).battle_files
            battles = files.waiting(state) if files is not None else ()
            return battle_pb2.ListPendingBattlesResponse(
                battles=[
                    battle_pb2.PendingBattle(
                        battle_id=b.battle_id,
                        detail_json=legacy_text(legacy, to_jsonable(b)),
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
        cid, principal = referee_caller(request)
        if not request.battle_id:
            raise invalid("battle_id", "name the battle")
        if request.objectives_met:
            raise unimplemented("objectives as referee inputs")
        await check_tripwire(self.s, context, cid, "SetRefereeInputs")
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
        cid, principal, side_id = side_caller(request)
        referee = principal.is_referee
        if not request.engagement_id:
            raise invalid("engagement_id", "name the engagement")
        eid = request.engagement_id

        def export() -> battle_pb2.ExportScenarioResponse:
            require_tripwire(self.s, cid, "ExportScenario")
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

    @rpc
    async def ExportBattleRecord(
        self, request: battle_pb2.ExportBattleRecordRequest, context: Context
    ) -> battle_pb2.ExportBattleRecordResponse:
        cid, _, side_id = side_caller(request)
        if not request.battle_id:
            raise invalid("battle_id", "name the battle")
        bid = request.battle_id

        def export() -> battle_pb2.ExportBattleRecordResponse:
            require_tripwire(self.s, cid, "ExportBattleRecord")
            state = self.s.runner.load(cid).state
            # Who fought is the rule GetBattleReport and the event stream use (BR-17).
            if side_id not in fought_by(state, bid):
                # The same answer for "no such battle" and "not yours": nothing leaks.
                raise ApiError(
                    grpc.StatusCode.NOT_FOUND,
                    f"no battle {bid!r} for side {side_id!r}",
                    "unknown_battle",
                )
            record = battle_record(state, bid, side_id)
            return battle_pb2.ExportBattleRecordResponse(
                file_name=record.file_name,
                content=record.text.encode("utf-8"),
                control_side_id=record.control_side,
                notes=list(record.notes),
            )

        return await self.s.run(context, export)
