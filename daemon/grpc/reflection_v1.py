"""Server reflection under both names: ``grpc.reflection.v1`` (what current grpcurl and
Postman ask first) and ``grpc.reflection.v1alpha`` (what older tools ask).

``grpcio-reflection`` for Python ships only the v1alpha service. The v1 protocol is the same
messages under a new package name (grpc/grpc's ``reflection/v1/reflection.proto`` copied the
v1alpha one field for field), so their bytes on the wire are identical: the v1 method is the
v1alpha servicer behind a second name, with v1alpha's (de)serialisers.
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from grpc import aio
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer

V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"


def enable_reflection(service_names: Sequence[str], server: aio.Server) -> None:
    """Serve reflection for ``service_names`` (plus both reflection services) on ``server``."""
    names = (*service_names, reflection.SERVICE_NAME, V1_SERVICE_NAME)
    servicer = ReflectionServicer(names)
    reflection.enable_server_reflection(names, server)
    v1 = grpc.method_handlers_generic_handler(
        V1_SERVICE_NAME,
        {
            "ServerReflectionInfo": grpc.stream_stream_rpc_method_handler(
                servicer.ServerReflectionInfo,
                request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
                response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
            )
        },
    )
    server.add_generic_rpc_handlers((v1,))
