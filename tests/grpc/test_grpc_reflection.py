"""Reflection serves every file descriptor of every service it lists, its own v1 service's
included, under both ``grpc.reflection.v1`` and ``grpc.reflection.v1alpha``, from a real
``mekref serve --grpc`` (docs/api.md, Services)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2
from test_grpc_every_ruleset import Served, serve_five

NAMES = ("grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_five(tmp_path_factory)


def _ask(channel: grpc.Channel, service: str, *requests: Any) -> list[Any]:
    call = channel.stream_stream(
        f"/{service}/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    return list(call(iter(requests), timeout=30))


def _files(answer: Any) -> list[descriptor_pb2.FileDescriptorProto]:
    assert answer.WhichOneof("message_response") == "file_descriptor_response", answer
    return [
        descriptor_pb2.FileDescriptorProto.FromString(raw)
        for raw in answer.file_descriptor_response.file_descriptor_proto
    ]


@pytest.mark.parametrize("reflection", NAMES)
def test_every_listed_service_resolves_to_its_files(served: Served, reflection: str) -> None:
    channel = grpc.insecure_channel(f"127.0.0.1:{served.port}")  # no token: reflection is open
    try:
        (listing,) = _ask(
            channel, reflection, reflection_pb2.ServerReflectionRequest(list_services="")
        )
        services = sorted(s.name for s in listing.list_services_response.service)
        assert set(NAMES) | {"grpc.health.v1.Health", "mekref.v1.RulesService"} <= set(services)
        answers = _ask(
            channel,
            reflection,
            *(reflection_pb2.ServerReflectionRequest(file_containing_symbol=s) for s in services),
        )
        pool = descriptor_pool.DescriptorPool()
        fetched: dict[str, descriptor_pb2.FileDescriptorProto] = {}
        for answer in answers:
            for file in _files(answer):
                fetched.setdefault(file.name, file)
        # Every file and every import it names came back: the pool builds them all.
        pending = dict(fetched)
        while pending:
            ready = [f for f in pending.values() if all(d in fetched for d in f.dependency)]
            ready = [f for f in ready if all(_has(pool, d) for d in f.dependency)]
            assert ready, f"files whose imports never came: {sorted(pending)}"
            for file in ready:
                pool.Add(file)
                del pending[file.name]
        for name in services:
            assert pool.FindServiceByName(name).methods, name
        assert "grpc/reflection/v1/reflection.proto" in fetched
        assert "mekref/v1/tripwire.proto" in fetched and "mekref/v1/rulesets.proto" in fetched
        # And each file by its own name.
        by_name = _ask(
            channel,
            reflection,
            *(reflection_pb2.ServerReflectionRequest(file_by_filename=n) for n in sorted(fetched)),
        )
        assert [_files(a)[0].name for a in by_name] == sorted(fetched)
    finally:
        channel.close()


def _has(pool: descriptor_pool.DescriptorPool, name: str) -> bool:
    try:
        pool.FindFileByName(name)
    except KeyError:
        return False
    return True
