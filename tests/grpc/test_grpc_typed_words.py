"""Typed words over gRPC, against a real ``mekref serve --grpc`` (issue 29): a client gives a
command as ``mekref game do`` takes it (``command_words``: TYPE key=value ...), without JSON;
and a referee's command naming an actor must name the side it is given for.

The Succession Wars: the three-player game of tests/succession_wars/test_sw_typed_game.py
started with words (its board named: "sample"), its first phase ended with words by a side
token and by the referee, a referee's command naming the wrong House refused."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from console_script import mekref
from grpc_helpers import Stubs, console_serve, field_violations, status_of

from mekref.v1 import rules_pb2

sys.path.insert(0, str(Path(__file__).parents[1] / "succession_wars"))
from test_sw_typed_game import _start_words


def _token(db: str, *args: str) -> str:
    made = mekref("token", "create", "--db", db, *args)
    assert made.returncode == 0, made.stderr
    return made.stdout.strip()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, int]]:
    db = str(tmp_path / "c.db")
    assert mekref("campaign", "new", "--db", db, "--name", "placeholder", "--seed", "1",
                  "--side", "x:X", "--side", "y:Y").returncode == 0  # fmt: skip
    with console_serve(db) as port:
        yield db, port


def test_commands_given_as_typed_words_and_the_referees_actor_checked(
    served: tuple[str, int],
) -> None:
    db, port = served
    ref = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), _token(db, "--referee"))
    try:
        started = ref.rules.StartCampaign(
            rules_pb2.StartCampaignRequest(
                name="Words", ruleset="succession_wars", command_words=_start_words()
            ),
            metadata=ref.md,
        )
        cid = started.campaign.campaign_id
        assert "order of play Liao, Marik, Steiner, Kurita, Davion" in started.events[-2].outcome

        def run(stubs: Stubs, *words: str) -> rules_pb2.ExecuteCommandResponse:
            request = rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_words=words)
            return stubs.rules.ExecuteCommand(request, metadata=stubs.md)

        # Liao's player: its token's side is the actor; names in any case.
        liao = Stubs(
            grpc.insecure_channel(f"127.0.0.1:{port}"),
            _token(db, "--campaign", cid, "--side", "Liao"),
        )
        try:
            done = run(liao, "swendphase", "house=LIAO")
            assert done.events[0].event.succession_wars.sw_phase_began.phase == "spend"
            # An event the side sees whole is told in the rule set's words, as to the referee.
            assert done.events[0].outcome.endswith("Liao begins the spend phase")
        finally:
            liao.close()
        # The referee, as Liao: the actor it names is the House the command names.
        done = run(ref, "SWEndPhase", "actor=liao", "house=Liao")
        assert done.events[0].outcome.endswith("Liao begins the movement phase")
        view = json.loads(ref.rules.GetView(rules_pb2.GetViewRequest(campaign_id=cid),
                                            metadata=ref.md).view_json)  # fmt: skip
        assert view["phase"] == "movement"
        # The referee naming Davion as the actor of Liao's command: refused, nothing stored.
        with pytest.raises(grpc.RpcError) as err:
            run(ref, "SWEndPhase", "actor=Davion", "house=Liao")
        assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "actor 'Davion' is another side: this SWEndPhase is given for Liao" in str(
            err.value.details()
        )
        assert status_of(err.value) is not None
        # A side's name mistyped as the actor is refused, never run as the referee's command.
        # (as JSON: typed words already match the actor against the campaign's names)
        mistyped = '{"type": "SWEndPhase", "actor": "Davoin", "house": "Liao"}'
        with pytest.raises(grpc.RpcError) as err:
            ref.rules.ExecuteCommand(
                rules_pb2.ExecuteCommandRequest(campaign_id=cid, command_json=mistyped),
                metadata=ref.md,
            )
        assert err.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "actor 'Davoin' is no side of the campaign; did you mean 'Davion'?" in str(
            err.value.details()
        )
        # An unknown name is refused with the list of valid ones, as on the command line.
        with pytest.raises(grpc.RpcError) as err:
            run(ref, "SWEndPhase", "house=Atlantis")
        listed = '"Liao", "Marik", "Steiner", "Kurita", "Davion"'
        said = f"SWEndPhase house='Atlantis' is none of: {listed}"
        assert ("command_words", said) in field_violations(err.value)
        assert str(err.value.details()) == f"command_words: {said}"  # the field named once
        # One form at a time.
        with pytest.raises(grpc.RpcError) as err:
            ref.rules.ExecuteCommand(
                rules_pb2.ExecuteCommandRequest(
                    campaign_id=cid, command_json="{}", command_words=["SWEndPhase"]
                ),
                metadata=ref.md,
            )
        assert "give one of command, command_json and command_words" in str(err.value.details())
        # A set-up names a bundled board; the server reads no file a client names.
        words = [w if not w.startswith("map=") else "map=/etc/board.toml" for w in _start_words()]
        with pytest.raises(grpc.RpcError) as err:
            ref.rules.StartCampaign(
                rules_pb2.StartCampaignRequest(
                    name="File", ruleset="succession_wars", command_words=words
                ),
                metadata=ref.md,
            )
        assert "over the API give a bundled map's name or the board inline" in str(
            err.value.details()
        )
        # The referee's own command (no actor) still runs as the referee.
        done = run(ref, "SWEndPhase", "house=liao")
        assert done.events[0].outcome.endswith("Liao begins the combat phase")
    finally:
        ref.close()


def test_the_example_start_file_is_taken_as_json_with_its_bundled_board(
    served: tuple[str, int], tmp_path: Path
) -> None:
    # `mekref game example` writes "map": "sample"; sent as command_json, the server fills the
    # bundled board in as it does for map=sample in words (it named SWMap, not what to do).
    db, port = served
    start = tmp_path / "start.json"
    assert mekref("game", "example", "--ruleset", "succession_wars", "--out", str(start)) \
        .returncode == 0  # fmt: skip
    ref = Stubs(grpc.insecure_channel(f"127.0.0.1:{port}"), _token(db, "--referee"))
    try:
        started = ref.rules.StartCampaign(
            rules_pb2.StartCampaignRequest(
                name="Example", ruleset="succession_wars", command_json=start.read_text()
            ),
            metadata=ref.md,
        )
        assert "on map sample" in started.events[0].outcome
        # A House's token giving another House's command is told whose token it holds.
        cid = started.campaign.campaign_id
        davion = Stubs(
            grpc.insecure_channel(f"127.0.0.1:{port}"),
            _token(db, "--campaign", cid, "--side", "Davion"),
        )
        with pytest.raises(grpc.RpcError) as err:
            davion.rules.ExecuteCommand(
                rules_pb2.ExecuteCommandRequest(
                    campaign_id=cid, command_words=["SWEndPhase", "house=Liao"]
                ),
                metadata=davion.md,
            )
        davion.close()
        assert err.value.code() is grpc.StatusCode.PERMISSION_DENIED
        assert str(err.value.details()) == (
            "SWEndPhase as given is not a command your side gives (this token acts for Davion): "
            "it is the referee's or another side's"
        )
        unknown = json.loads(start.read_text()) | {"map": "atlantis"}
        with pytest.raises(grpc.RpcError) as err:
            ref.rules.StartCampaign(
                rules_pb2.StartCampaignRequest(
                    name="Unknown", ruleset="succession_wars", command_json=json.dumps(unknown)
                ),
                metadata=ref.md,
            )
        said = str(err.value.details())
        assert said.startswith("command_json: \"map\": 'atlantis' is neither a bundled map")
        assert "command_json: command_json" not in said
    finally:
        ref.close()
