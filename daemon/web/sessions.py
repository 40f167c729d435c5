"""Logins, sessions and CSRF tokens for the pages.

The browser never keeps the side's token: logging in trades it for a random session id in an
HttpOnly, SameSite=Strict cookie (Secure under TLS). The server keeps, per session, the token
(so every request is checked again through the API's own authenticator: a revoked token stops
working within its cache time), the CSRF token every form must echo back, and the messages
the next page shows. Sessions live in memory: a restart logs everyone out, and nothing about
them ever reaches the database.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from dataclasses import dataclass, field

from mekref.daemon.grpc.auth import Authenticator
from mekref.daemon.grpc.tokens import Principal

COOKIE = "mekref_session"
#: A session unused this long is forgotten: the player logs in again.
IDLE_SECONDS = 12 * 3600
#: Sessions kept at most (anonymous ones included): a flood of login pages cannot grow memory.
MAX_SESSIONS = 10_000


@dataclass
class Session:
    session_id: str
    csrf: str
    token: str | None = None
    seen: float = field(default_factory=time.monotonic)
    #: (kind, text) shown once on the next page: "ok" or "refused".
    flashes: list[tuple[str, str]] = field(default_factory=list)


class Sessions:
    def __init__(self, authenticator: Authenticator) -> None:
        self._auth = authenticator
        self._by_id: dict[str, Session] = {}
        self._lock = threading.Lock()

    def get(self, session_id: str | None) -> Session | None:
        if not session_id:
            return None
        with self._lock:
            found = self._by_id.get(session_id)
            if found is None:
                return None
            if time.monotonic() - found.seen > IDLE_SECONDS:
                del self._by_id[session_id]
                return None
            found.seen = time.monotonic()
            return found

    def new(self) -> Session:
        session = Session(secrets.token_urlsafe(32), secrets.token_urlsafe(32))
        with self._lock:
            if len(self._by_id) >= MAX_SESSIONS:
                self._forget_oldest()
            self._by_id[session.session_id] = session
        return session

    def _forget_oldest(self) -> None:
        # Anonymous sessions go first: a flood of login pages must not log players out.
        oldest = sorted(self._by_id.values(), key=lambda s: (s.token is not None, s.seen))
        oldest = oldest[: MAX_SESSIONS // 10]
        for s in oldest:
            del self._by_id[s.session_id]

    def log_in(self, old: Session | None, token: str) -> Session | None:
        """A new session (a new id: the one seen before logging in is dropped) for a live
        token, or None."""
        if self._auth.lookup(token) is None:
            return None
        self.drop(old)
        session = self.new()
        session.token = token
        return session

    def drop(self, session: Session | None) -> None:
        if session is not None:
            with self._lock:
                self._by_id.pop(session.session_id, None)

    def principal(self, session: Session | None) -> Principal | None:
        """Who the session speaks for now (None: not logged in, or the token was revoked)."""
        if session is None or session.token is None:
            return None
        hit, found = self._auth.cached(session.token)
        return found if hit else self._auth.lookup(session.token)


def csrf_ok(session: Session | None, given: object) -> bool:
    return (
        session is not None
        and isinstance(given, str)
        and hmac.compare_digest(session.csrf.encode(), given.encode())
    )
