"""Group commit: a batch decides like one-by-one execution and commits once."""

from __future__ import annotations

from grpc_helpers import Running

from mekref.daemon.campaigns import CampaignRunner, Executed
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import CreditPool, DebitPool
from mekref.rules.tripwire.game import TRIPWIRE


def test_a_batch_is_decided_in_order_and_a_refusal_stands_alone(api: Running) -> None:
    runner = api.server.services.runner
    cid, pool = api.campaign_id, api.pools["davion"]
    before = api.store.last_seq(cid)
    balance = runner.load(cid).state.pools[pool].balance
    results = runner.execute_many(
        cid,
        [
            DebitPool(actor="t", pool_id=pool, amount=balance, reason="spend it all"),
            DebitPool(actor="t", pool_id=pool, amount=1, reason="nothing left"),
            CreditPool(actor="t", pool_id=pool, amount=3, reason="found some"),
        ],
    )
    first, refused, third = results
    assert isinstance(first, Executed) and isinstance(third, Executed)
    assert isinstance(refused, Refusal)  # decided on the state the first debit left
    assert (first.first_seq, first.last_seq) == (before + 1, before + 1)
    assert (third.first_seq, third.last_seq) == (before + 2, before + 2)
    assert third.state.pools[pool].balance == 3
    assert api.store.last_seq(cid) == before + 2
    assert TRIPWIRE.state_hash(runner.replay(cid)) == TRIPWIRE.state_hash(runner.load(cid).state)


def test_a_batch_of_refusals_appends_nothing(api: Running) -> None:
    runner = api.server.services.runner
    cid = api.campaign_id
    before = api.store.last_seq(cid)
    results = runner.execute_many(
        cid, [DebitPool(actor="t", pool_id="no-such-pool", amount=1, reason="x")]
    )
    assert isinstance(results[0], Refusal)
    assert api.store.last_seq(cid) == before


def test_a_batch_after_another_writers_append_decides_on_the_whole_log(api: Running) -> None:
    """The server's runner decides a batch on the state it holds, without reading the store
    first; an append made meanwhile by another process (here another runner on the same
    store, as a CLI command would) is folded in before any answer stands: a batch with events
    by the append's seq check, a batch that would only be refused by deciding it again on the
    state read from the store."""
    runner = api.server.services.runner
    cid, pool = api.campaign_id, api.pools["davion"]
    balance = runner.load(cid).state.pools[pool].balance  # the server now holds this state
    other = CampaignRunner(api.store, snapshot_every=None)
    other.execute(cid, CreditPool(actor="cli", pool_id=pool, amount=5, reason="from the CLI"))
    # Enough only with the other writer's credit: decided on the held state, it is refused.
    (done,) = runner.execute_many(
        cid, [DebitPool(actor="t", pool_id=pool, amount=balance + 5, reason="all of it")]
    )
    assert isinstance(done, Executed), done
    assert done.state.pools[pool].balance == 0
    assert api.store.last_seq(cid) == done.last_seq
    assert TRIPWIRE.state_hash(runner.replay(cid)) == TRIPWIRE.state_hash(done.state)


def test_a_batch_with_events_after_another_writers_append_is_decided_again(
    api: Running,
) -> None:
    runner = api.server.services.runner
    cid, pool = api.campaign_id, api.pools["davion"]
    runner.load(cid)
    other = CampaignRunner(api.store, snapshot_every=None)
    other.execute(cid, CreditPool(actor="cli", pool_id=pool, amount=5, reason="from the CLI"))
    credit, debit = runner.execute_many(
        cid,
        [
            CreditPool(actor="t", pool_id=pool, amount=1, reason="one more"),
            DebitPool(actor="t", pool_id=pool, amount=10**9, reason="too much"),
        ],
    )
    assert isinstance(credit, Executed) and isinstance(debit, Refusal)
    assert credit.first_seq == api.store.last_seq(cid)  # after the other writer's event
    assert TRIPWIRE.state_hash(runner.replay(cid)) == TRIPWIRE.state_hash(credit.state)
