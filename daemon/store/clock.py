"""Timestamps: the store writes ISO-8601 UTC text so both engines round-trip the same bytes."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def to_text(at: datetime) -> str:
    # A naive datetime has no defined instant; refusing it beats silently assuming local time.
    if at.tzinfo is None or at.utcoffset() is None:
        raise ValueError(f"timestamp must be timezone-aware, got naive {at!r}")
    return at.astimezone(UTC).isoformat(timespec="microseconds")


def from_text(text: str) -> datetime:
    return datetime.fromisoformat(text)
