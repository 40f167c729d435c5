"""Sessions: a flood of anonymous visits cannot push a logged-in player out."""

from __future__ import annotations

from mekref.daemon.grpc.tokens import Principal, Role
from mekref.daemon.web import sessions
from mekref.daemon.web.sessions import Sessions, csrf_ok


class _Tokens:
    def lookup(self, token: str) -> Principal | None:
        return Principal("t1", Role.SIDE, "c", "a") if token == "good" else None

    def cached(self, token: str) -> tuple[bool, Principal | None]:
        return False, None


def test_anonymous_sessions_are_forgotten_before_logged_in_ones(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sessions, "MAX_SESSIONS", 50)
    found = Sessions(_Tokens())  # type: ignore[arg-type]
    player = found.log_in(None, "good")
    assert player is not None and found.log_in(None, "bad") is None
    for _ in range(500):
        found.new()
    assert found.get(player.session_id) is player
    assert found.principal(player) == Principal("t1", Role.SIDE, "c", "a")
    assert csrf_ok(player, player.csrf) and not csrf_ok(player, "x") and not csrf_ok(None, "x")


def test_the_desk_shows_the_share_of_start_only_when_it_can_be_told() -> None:
    """L412: a side whose BV falls below half its start ends the campaign; the desk shows the
    share when every unit of the side has a BV, "?" otherwise (R-VP-3)."""
    from mekref.daemon.tripwire.web.referee import _share_of_start
    from mekref.v1 import common_pb2, tripwire_pb2

    standing = tripwire_pb2.Tripwire.OverviewStanding
    known = standing(percent_of_start_fraction=common_pb2.Fraction(num=1600000, den=33827))
    assert _share_of_start(known) == "47.3%"
    assert _share_of_start(standing(units_without_bv=4, starting_bv=1, effective_bv=1)) == "?"
    assert _share_of_start(standing(starting_bv=0, effective_bv=0)) == "?"
