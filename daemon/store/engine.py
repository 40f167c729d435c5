"""What a store engine gives (a write transaction, a read, turns for appends, the writer lock)
and the plumbing every operation of the contract (``base.EventStore``) runs on."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime
from typing import Any, Literal, Protocol, TypeVar

from mekref.daemon.store.clock import Clock, to_text, utc_now
from mekref.daemon.store.errors import CampaignNotFound, StoreUnavailable
from mekref.daemon.store.locks import HeldByThread
from mekref.daemon.store.rows import Row

T = TypeVar("T")
Engine = Literal["sqlite", "postgresql"]


class Tx(Protocol):
    """One open write transaction."""

    def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    def run(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Execute and return the number of rows changed."""
        ...

    def run_many(self, sql: str, params: Sequence[Sequence[Any]]) -> None: ...


def max_seq(tx: Tx, campaign_id: str) -> int:
    found = tx.fetch(
        "SELECT COALESCE(MAX(seq), 0) FROM events WHERE campaign_id = ?", (campaign_id,)
    )
    return int(found[0][0])


class SqlEngine(ABC):
    """The hooks an engine implements and what the store's operations share on them."""

    def __init__(self, clock: Clock | None = None) -> None:
        self._clock: Clock = clock or utc_now
        self._held = HeldByThread()

    # -- engine hooks ---------------------------------------------------------------------
    @property
    @abstractmethod
    def engine(self) -> Engine: ...

    @abstractmethod
    def close(self) -> None: ...

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[Tx]:
        """A write transaction that commits on success and rolls back on any exception."""

    @abstractmethod
    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read outside any write transaction."""

    @abstractmethod
    def _serialise_appends(self, tx: Tx, campaign_id: str) -> None:
        """Make concurrent appends to one campaign take turns inside their transactions."""

    @abstractmethod
    def _writer_lock(self, campaign_id: str, wait: bool) -> AbstractContextManager[None]:
        """Hold the campaign's writer lock, across threads, processes and replicas; raise
        :class:`WriterBusy` at once when another holds it and ``wait`` is false."""

    # Driver exceptions that mean "the database is not usable right now"; each engine names
    # its own, and the store re-raises them as StoreUnavailable so callers need not import
    # a driver to handle an outage.
    _unavailable: tuple[type[Exception], ...] = ()

    @contextmanager
    def _tx(self) -> Iterator[Tx]:
        try:
            with self._transaction() as tx:
                yield tx
        except self._unavailable as exc:
            raise StoreUnavailable(f"{self.engine}: {exc}") from exc

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return self._reading(lambda: self._query(sql, params))

    def _reading(self, read: Callable[[], T]) -> T:
        """A read outside a write transaction, an outage raised as StoreUnavailable."""
        try:
            return read()
        except self._unavailable as exc:
            raise StoreUnavailable(f"{self.engine}: {exc}") from exc

    def _now(self, at: datetime | None) -> str:
        return to_text(at if at is not None else self._clock())

    def _require_campaign(self, fetch: Any, cid: str) -> None:
        if not fetch("SELECT 1 FROM campaigns WHERE id = ?", (cid,)):
            raise CampaignNotFound(cid)
