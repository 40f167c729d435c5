"""Group commit: a batch decides like one-by-one execution and commits once."""

from __future__ import annotations

from grpc_helpers import Running

from mekref.daemon.campaigns import Executed
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
