"""The API over the PostgreSQL event store: tokens in the same database, a full round trip."""

from __future__ import annotations

import sys
from pathlib import Path

import grpc
import pytest
from grpc_helpers import start, stop

from mekref.daemon.grpc.tokens import Role, TokenStore
from mekref.daemon.store import open_store
from mekref.v1 import campaign_pb2, event_pb2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from store.pgfixtures import pg_dsn, pg_server_dsn  # noqa: F401  (pytest fixtures)

pytestmark = pytest.mark.postgres


def test_tokens_live_hashed_in_the_postgres_database(pg_dsn: str) -> None:  # noqa: F811
    import psycopg

    with open_store(pg_dsn) as store:
        tokens = TokenStore(store)
        issued = tokens.issue(Role.REFEREE, label="pg")
        assert tokens.lookup(issued.secret) == issued.principal
        with psycopg.connect(pg_dsn) as conn:
            rows = conn.execute("SELECT * FROM api_tokens").fetchall()
        assert issued.secret not in repr(rows)
        assert tokens.revoke(issued.principal.token_id)
        assert tokens.lookup(issued.secret) is None


def test_round_trip_over_postgres(pg_dsn: str) -> None:  # noqa: F811
    api = start(pg_dsn)
    try:
        side = api.as_side("liao")
        view = side.campaigns.GetSideView(
            campaign_pb2.GetSideViewRequest(campaign_id=api.campaign_id), metadata=side.md
        )
        assert [p.pool_id for p in view.pools] == ["liao-union"]
        events = [
            a.event
            for a in side.events.SubscribeEvents(
                event_pb2.SubscribeEventsRequest(campaign_id=api.campaign_id, stop_at_head=True),
                metadata=side.md,
            )
        ]
        assert events and all("davion-union" not in e.payload_json for e in events)
        with pytest.raises(grpc.RpcError) as caught:
            side.campaigns.GetSideView(
                campaign_pb2.GetSideViewRequest(campaign_id=api.campaign_id, side_id="davion"),
                metadata=side.md,
            )
        assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        stop(api)
