"""Server reflection under both names: ``grpc.reflection.v1`` (what current grpcurl and
Postman ask first) and ``grpc.reflection.v1alpha`` (what older tools ask).

``grpcio-reflection`` for Python ships only the v1alpha service. The v1 protocol is the same
messages under a new package name (grpc/grpc's ``reflection/v1/reflection.proto`` copied the
v1alpha one field for field), so their bytes on the wire are identical: the v1 method is the
v1alpha servicer behind a second name, with v1alpha's (de)serialisers. Its file descriptor,
``grpc/reflection/v1/reflection.proto``, is v1alpha's renamed the same way, added to the
descriptor pool reflection answers from, so a tool asking for the v1 service's own file finds
it like every other served file.
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool, text_format
from grpc import aio
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer

V1_SERVICE_NAME = "grpc.reflection.v1.ServerReflection"
V1_FILE = "grpc/reflection/v1/reflection.proto"


def add_v1_file(pool: descriptor_pool.DescriptorPool | None = None) -> None:
    """Put ``grpc/reflection/v1/reflection.proto`` (v1alpha's, renamed) in ``pool`` (the
    default pool, which reflection serves), unless a v1 file is there already."""
    pool = pool or descriptor_pool.Default()
    try:
        pool.FindFileByName(V1_FILE)
        return
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    # The package, the type references and the options, in the text form (lengths recounted).
    text = text_format.MessageToString(proto).replace(
        "grpc.reflection.v1alpha", "grpc.reflection.v1"
    )
    renamed = text_format.Parse(text, descriptor_pb2.FileDescriptorProto())
    renamed.name = V1_FILE
    renamed.options.ClearField("deprecated")  # v1alpha is; v1 is its successor
    renamed.options.go_package = "google.golang.org/grpc/reflection/grpc_reflection_v1"
    pool.Add(renamed)


def enable_reflection(service_names: Sequence[str], server: aio.Server) -> None:
    """Serve reflection for ``service_names`` (plus both reflection services) on ``server``."""
    add_v1_file()
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
