"""Fixtures: a real API server on a loopback port over a fresh SQLite campaign database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("mekref.v1.campaign_pb2", reason="run 'make proto' to generate the API code")

from grpc_helpers import Running, start, stop


@pytest.fixture
def api(tmp_path: Path) -> Iterator[Running]:
    running = start(tmp_path / "campaign.db")
    try:
        yield running
    finally:
        stop(running)
