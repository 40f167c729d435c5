"""Bearer tokens for the API: issued once, stored only as their sha256.

A token is ``mkr_<token id>_<secret>``; the database keeps the token id, the sha256 of the
whole token and what it grants (the referee, or one side of one campaign). A leaked database
therefore yields no usable token. The table is part of the event store's schema (a versioned
migration, SQLite and PostgreSQL alike), so tokens follow the campaign data across replicas
and backups without a second file to keep.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from mekref.daemon.store import EventStore, TokenRow

_PREFIX = "mkr_"


class Role(StrEnum):
    REFEREE = "referee"
    SIDE = "side"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who a token speaks for. ``campaign_id`` None: a referee for every campaign."""

    token_id: str
    role: Role
    campaign_id: str | None
    side_id: str | None
    label: str = ""

    @property
    def is_referee(self) -> bool:
        return self.role is Role.REFEREE

    @property
    def actor(self) -> str:
        """How commands record who asked (never the secret)."""
        who = "referee" if self.is_referee else f"side {self.side_id}"
        return f"{who} (token {self.token_id})"


@dataclass(frozen=True, slots=True)
class TokenRecord:
    principal: Principal
    created_at: str
    revoked_at: str | None


@dataclass(frozen=True, slots=True)
class IssuedToken:
    """A newly issued token: ``secret`` is shown once and never stored."""

    secret: str
    principal: Principal


def token_sha256(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _principal(row: TokenRow) -> Principal:
    return Principal(row.token_id, Role(row.role), row.campaign_id, row.side_id, row.label)


class TokenStore:
    """Issue, look up, list and revoke tokens in the event store's own database."""

    def __init__(self, store: EventStore) -> None:
        self._store = store

    def issue(
        self,
        role: Role,
        *,
        campaign_id: str | None = None,
        side_id: str | None = None,
        label: str = "",
        now: datetime | None = None,
    ) -> IssuedToken:
        if role is Role.SIDE and (not side_id or not campaign_id):
            raise ValueError("a side token names its campaign and side")
        if role is Role.REFEREE and side_id:
            raise ValueError("a referee token names no side")
        token_id = secrets.token_hex(6)
        secret = f"{_PREFIX}{token_id}_{secrets.token_urlsafe(32)}"
        created = (now or datetime.now(UTC)).isoformat()
        row = TokenRow(token_id, role.value, campaign_id, side_id, label, created)
        self._store.add_token(row, token_sha256(secret))
        return IssuedToken(secret, _principal(row))

    def lookup(self, token: str) -> Principal | None:
        """The principal of a live token, or None (unknown, malformed or revoked)."""
        if not token.startswith(_PREFIX) or len(token) > 200:
            return None
        row = self._store.live_token(token_sha256(token))
        return _principal(row) if row is not None else None

    def list(self) -> list[TokenRecord]:
        return [
            TokenRecord(_principal(r), r.created_at, r.revoked_at) for r in self._store.tokens()
        ]

    def revoke(self, token_id: str, *, now: datetime | None = None) -> bool:
        return self._store.revoke_token(token_id, at=now)
