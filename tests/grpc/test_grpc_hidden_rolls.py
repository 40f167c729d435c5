"""Rolls that would give away a secret stay out of a side's events, against a real ``mekref
serve --grpc``: the rolls that shuffle The Succession Wars' Event Cards (replayed, they give
the deck's order and so every House's hand), and the roll that drew another fleet's Dystopian
Wars Field Order. The referee still reads every roll."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from console_script import mekref
from grpc_helpers import Stubs, console_serve

from mekref.v1 import campaign_pb2, event_pb2, rules_pb2


def _token(db: str, *args: str) -> str:
    made = mekref("token", "create", "--db", db, *args)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


def _start(db: str, tmp_path: Path, ruleset: str, name: str) -> str:
    start = tmp_path / f"{ruleset}.json"
    assert mekref("game", "example", "--ruleset", ruleset, "--out", str(start)).returncode == 0
    made = mekref("game", "start", "--db", db, "--ruleset", ruleset, "--name", name, str(start))
    assert made.returncode == 0, made.stderr
    return made.stdout.split()[1].rstrip(":")


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, int, str, str]]:
    db = str(tmp_path / "c.db")
    sw = _start(db, tmp_path, "succession_wars", "Fourth War")
    dw = _start(db, tmp_path, "dystopian_wars", "North Sea")
    with console_serve(db) as port:
        yield db, port, sw, dw


def _roll_names(stubs: Stubs, cid: str) -> list[str]:
    """Every roll the caller may see, from the dice log; checked against the event stream."""
    log = stubs.campaigns.GetDiceLog(
        campaign_pb2.GetDiceLogRequest(campaign_id=cid, limit=1000), metadata=stubs.md
    )
    names = [r.name for r in log.rolls]
    stream = stubs.events.SubscribeEvents(
        event_pb2.SubscribeEventsRequest(campaign_id=cid, stop_at_head=True), metadata=stubs.md
    )
    streamed = [str(answer.event.event) for answer in stream]
    for name in {n for n in names if n.startswith(("shuffle", "field order"))}:
        assert any(name in text for text in streamed)
    return names


def test_a_side_never_gets_the_rolls_that_would_give_away_a_secret(
    served: tuple[str, int, str, str],
) -> None:
    db, port, sw, dw = served
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    ref = Stubs(channel, _token(db, "--referee"))
    davion = Stubs(channel, _token(db, "--campaign", sw, "--side", "Davion"))
    sun = Stubs(channel, _token(db, "--campaign", dw, "--side", "sun"))
    try:
        referee_rolls = _roll_names(ref, sw)
        assert sum(n.startswith("shuffle the Event Cards") for n in referee_rolls) == 47
        davion_rolls = _roll_names(davion, sw)
        assert not [n for n in davion_rolls if "shuffle" in n]

        words = ["DWStartBattle", "battle_id=b1", "fleets.1=brit", "fleets.2=sun"]
        ref.rules.ExecuteCommand(
            rules_pb2.ExecuteCommandRequest(campaign_id=dw, command_words=words), metadata=ref.md
        )
        drawn = "field order, b1, fleet "
        assert {n for n in _roll_names(ref, dw) if n.startswith(drawn)} == {
            drawn + "brit",
            drawn + "sun",
        }
        assert {n for n in _roll_names(sun, dw) if n.startswith(drawn)} == {drawn + "sun"}
    finally:
        channel.close()
