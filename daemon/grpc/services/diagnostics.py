"""DiagnosticsService: an authenticated echo (the benchmark's baseline) and who-am-I."""

from __future__ import annotations

from mekref.daemon.grpc import auth
from mekref.daemon.grpc.services.base import Context, Services, rpc
from mekref.daemon.grpc.tokens import Role
from mekref.v1 import common_pb2, diagnostics_pb2, diagnostics_pb2_grpc

_ROLES = {Role.REFEREE: common_pb2.ROLE_REFEREE, Role.SIDE: common_pb2.ROLE_SIDE}


class DiagnosticsServicer(diagnostics_pb2_grpc.DiagnosticsServiceServicer):
    def __init__(self, services: Services) -> None:
        self.s = services

    @rpc
    async def Echo(
        self, request: diagnostics_pb2.EchoRequest, context: Context
    ) -> diagnostics_pb2.EchoResponse:
        auth.current_principal()
        return diagnostics_pb2.EchoResponse(payload=request.payload)

    @rpc
    async def WhoAmI(
        self, request: diagnostics_pb2.WhoAmIRequest, context: Context
    ) -> diagnostics_pb2.WhoAmIResponse:
        p = auth.current_principal()
        return diagnostics_pb2.WhoAmIResponse(
            role=_ROLES[p.role],
            campaign_id=p.campaign_id or "",
            side_id=p.side_id or "",
            token_id=p.token_id,
        )
