"""API errors with rich details: ``google.rpc.Status`` carrying ErrorInfo and BadRequest.

Every refusal a client can act on says which field was wrong (``BadRequest`` field violations
for INVALID_ARGUMENT, ``PreconditionFailure`` for FAILED_PRECONDITION) and a stable reason code
(``ErrorInfo.reason``, the rules engine's refusal code), so a bot can react without parsing
English. Servicers raise :class:`ApiError`; the error boundary in ``services.base`` turns it
into a status.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf import any_pb2

# googleapis-common-protos ships no type stubs; its messages are typed Any here.
from google.rpc import code_pb2, error_details_pb2, status_pb2  # type: ignore[import-untyped]

from mekref.daemon.store import (
    CampaignNotFound,
    ConcurrencyError,
    StoreError,
    StoreUnavailable,
    WriterBusy,
)
from mekref.rules.refusal import Refusal

DOMAIN = "mekref"


@dataclass(frozen=True)
class FieldViolation:
    field: str
    description: str


@dataclass(frozen=True)
class ApiError(Exception):
    """An error to send to the client as it is."""

    code: grpc.StatusCode
    message: str
    reason: str = ""
    violations: tuple[FieldViolation, ...] = ()
    metadata: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.code.name}: {self.message}"

    def to_status(self) -> Any:
        """The ``google.rpc.Status`` to send (``grpc_status.rpc_status.to_status`` wraps it)."""
        details: list[any_pb2.Any] = []
        if self.reason:
            info = error_details_pb2.ErrorInfo(
                reason=self.reason, domain=DOMAIN, metadata=dict(self.metadata)
            )
            details.append(_pack(info))
        if self.violations and self.code is grpc.StatusCode.INVALID_ARGUMENT:
            bad = error_details_pb2.BadRequest(
                field_violations=[
                    error_details_pb2.BadRequest.FieldViolation(
                        field=v.field, description=v.description
                    )
                    for v in self.violations
                ]
            )
            details.append(_pack(bad))
        elif self.violations and self.code is grpc.StatusCode.FAILED_PRECONDITION:
            failed = error_details_pb2.PreconditionFailure(
                violations=[
                    error_details_pb2.PreconditionFailure.Violation(
                        type=self.reason or "rules", subject=v.field, description=v.description
                    )
                    for v in self.violations
                ]
            )
            details.append(_pack(failed))
        return status_pb2.Status(
            code=_CODE_NUMBERS[self.code], message=self.message, details=details
        )


def _pack(message: Any) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


_CODE_NUMBERS: dict[grpc.StatusCode, int] = {
    grpc.StatusCode.INVALID_ARGUMENT: code_pb2.INVALID_ARGUMENT,
    grpc.StatusCode.FAILED_PRECONDITION: code_pb2.FAILED_PRECONDITION,
    grpc.StatusCode.NOT_FOUND: code_pb2.NOT_FOUND,
    grpc.StatusCode.PERMISSION_DENIED: code_pb2.PERMISSION_DENIED,
    grpc.StatusCode.UNAUTHENTICATED: code_pb2.UNAUTHENTICATED,
    grpc.StatusCode.UNAVAILABLE: code_pb2.UNAVAILABLE,
    grpc.StatusCode.ABORTED: code_pb2.ABORTED,
    grpc.StatusCode.RESOURCE_EXHAUSTED: code_pb2.RESOURCE_EXHAUSTED,
    grpc.StatusCode.DEADLINE_EXCEEDED: code_pb2.DEADLINE_EXCEEDED,
    grpc.StatusCode.UNIMPLEMENTED: code_pb2.UNIMPLEMENTED,
    grpc.StatusCode.INTERNAL: code_pb2.INTERNAL,
    grpc.StatusCode.ALREADY_EXISTS: code_pb2.ALREADY_EXISTS,
}


def invalid(field_name: str, description: str, reason: str = "invalid_argument") -> ApiError:
    return ApiError(
        grpc.StatusCode.INVALID_ARGUMENT,
        f"{field_name}: {description}",
        reason,
        (FieldViolation(field_name, description),),
    )


def denied(message: str) -> ApiError:
    return ApiError(grpc.StatusCode.PERMISSION_DENIED, message, "permission_denied")


def unimplemented(what: str) -> ApiError:
    return ApiError(
        grpc.StatusCode.UNIMPLEMENTED,
        f"{what} is not available in this build of mekref",
        "not_in_this_build",
    )


# Refusal codes whose cause is a value the client chose rather than the campaign's state;
# prefixes cover families (unknown_action, bad_param, illegal_path ...). The rest are
# FAILED_PRECONDITION: the request may be fine another day (wrong_day, insufficient_wp).
_ARGUMENT_PREFIXES = (
    "unknown_",
    "bad_",
    "illegal_",
    "invalid_",
    "duplicate_",
    "empty_",
    "not_your",
)
_ARGUMENT_CODES = frozenset({"wrong_units"})
# The rules write refusals as "orders[0].path[2]: what is wrong"; the prefix is the field.
_FIELD_PREFIX = re.compile(r"([a-z_]+(?:\[\d+\])?(?:\.[a-z_]+(?:\[\d+\])?)*): ")


def refusal_error(refusal: Refusal) -> ApiError:
    """Map a rules refusal to INVALID_ARGUMENT or FAILED_PRECONDITION with its field."""
    code = refusal.code
    found = _FIELD_PREFIX.match(refusal.message)
    field_name = found.group(1) if found else "request"
    status = (
        grpc.StatusCode.INVALID_ARGUMENT
        if code.startswith(_ARGUMENT_PREFIXES) or code in _ARGUMENT_CODES
        else grpc.StatusCode.FAILED_PRECONDITION
    )
    # The violation names the field once: its description is the message after the prefix.
    said = refusal.message[found.end() :] if found else refusal.message
    violations = (FieldViolation(field_name, said),)
    return ApiError(status, refusal.message, code, violations)


def store_error(exc: StoreError) -> ApiError:
    if isinstance(exc, CampaignNotFound):
        return ApiError(grpc.StatusCode.NOT_FOUND, "no such campaign", "campaign_not_found")
    if isinstance(exc, StoreUnavailable):
        return ApiError(
            grpc.StatusCode.UNAVAILABLE, "the database is unavailable; retry", "store_unavailable"
        )
    if isinstance(exc, ConcurrencyError | WriterBusy):
        return ApiError(
            grpc.StatusCode.ABORTED, "another writer changed the campaign; retry", "conflict"
        )
    return ApiError(grpc.StatusCode.INTERNAL, "store error", "store_error")


def violations_error(violations: Sequence[FieldViolation]) -> ApiError:
    first = violations[0]
    return ApiError(
        grpc.StatusCode.INVALID_ARGUMENT,
        f"{first.field}: {first.description}",
        "invalid_argument",
        tuple(violations),
    )
