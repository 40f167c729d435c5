"""``python -m bench.grpc_echo``: a bare grpcio echo server, the anchor of ``bench.grpc``.

A plain ``grpc.aio`` server in its own process that answers ``DiagnosticsService.Echo`` with
the request's payload through a generic handler: no interceptors, no authentication, no
thread pool, none of mekref's servicers. It prints ``listening on HOST:PORT`` once bound (port
0 picks a free one) and runs until it is terminated (SIGTERM or SIGINT).
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys

import grpc
from grpc import aio

from mekref.v1 import diagnostics_pb2


async def echo(
    request: diagnostics_pb2.EchoRequest, context: object
) -> diagnostics_pb2.EchoResponse:
    return diagnostics_pb2.EchoResponse(payload=request.payload)


async def serve(address: str) -> None:
    server = aio.server()
    handler = grpc.unary_unary_rpc_method_handler(
        echo,
        request_deserializer=diagnostics_pb2.EchoRequest.FromString,
        response_serializer=diagnostics_pb2.EchoResponse.SerializeToString,
    )
    service = diagnostics_pb2.DESCRIPTOR.services_by_name["DiagnosticsService"].full_name
    server.add_generic_rpc_handlers(
        (grpc.method_handlers_generic_handler(service, {"Echo": handler}),)
    )
    port = server.add_insecure_port(address)
    await server.start()
    print(f"listening on {address.rsplit(':', 1)[0]}:{port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    await stop.wait()
    await server.stop(1.0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.grpc_echo", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--address", default="127.0.0.1:0", help="where to listen (loopback)")
    args = parser.parse_args(argv)
    asyncio.run(serve(args.address))
    return 0


if __name__ == "__main__":
    sys.exit(main())
