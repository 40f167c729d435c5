"""Battle commands and events round-trip through canonical JSON, byte for byte, and the state
with a battle ledger survives the snapshot codec."""

from __future__ import annotations

import json
from dataclasses import replace

from mekref.rules.codec import canonical_json
from mekref.rules.messages import Command, Event, message_to_json
from mekref.rules.tripwire import battle_messages as bm
from mekref.rules.tripwire.battle_model import AmmoBinLoad, Fate, RecordSection, ReportedKill
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.state import CampaignState, state_from_text, state_to_text

from .states import NOTE, campaign, close, control, file, fu, run, seen, submit

# This rule set's message codec (names kept from the shared registry).
COMMANDS = TRIPWIRE.commands
EVENTS = TRIPWIRE.events
command_from_json = TRIPWIRE.commands.from_json
event_from_json = TRIPWIRE.events.from_json
command_to_json = message_to_json
event_to_json = message_to_json

S = RecordSection


def _samples() -> tuple[list[Command], list[Event], CampaignState]:
    state = campaign((fu("r1"),), (fu("b1", commander=True),))
    load = (AmmoBinLoad(location="Right Torso", slot=5, ammo_type="IS Ammo LRM-10", shots=6),)
    kill = ReportedKill(killed_name="Griffin GRF-1N", killed_unit_ids=("b1",), killer_unit_id="r1")
    commands: list[Command] = [
        bm.RecordLoadouts(side_id="red", loadouts=(("r1", load),), actor="t"),
        submit(file("a", seen("r1", S.SURVIVORS, hits=5), seen("b1", S.SALVAGE), kills=(kill,))),
        control("battle-" + "a" * 12, "red"),
        submit(file("b", seen("b1", S.SURVIVORS, hits=2))),
        bm.SetUnitFate(unit_id="r1", fate=Fate.CAPTURED, new_side="blue", note=NOTE, actor="t"),
    ]
    events, state = run(state, *commands)
    commands.append(close("battle-x", "red"))
    # Rulings T-E8, T-E9 need a strategic map (tests/turn/test_turn_battle_link_cli.py plays
    # them); here their messages only round-trip, with every optional field set.
    commands.append(
        bm.ConfirmBattle(battle_id="battle-x", note=NOTE, engagement_id="day1-1105-1", actor="t")
    )
    received = next(e for e in events if isinstance(e, bm.BattleReportReceived))
    events += [
        replace(received, engagement_id="day1-1105-1", held="why", confirmed=NOTE),
        bm.BattleConfirmed(battle_id="battle-x", note=NOTE, engagement_id="day1-1105-1", actor="t"),
    ]
    return commands, events, state


def test_every_battle_message_type_is_exercised() -> None:
    commands, events, _ = _samples()
    mine = [c for c in vars(bm).values() if isinstance(c, type) and issubclass(c, Command)]
    ours_c = {n for n in COMMANDS.names() if n in {c.TYPE for c in mine}}
    assert {type(c).TYPE for c in commands} == ours_c
    assert {type(e).TYPE for e in events} == {
        "LoadoutsRecorded", "BattleReportReceived", "BattleControlSet", "BattleResolved",
        "UnitFateSet", "BattleConfirmed",
    }  # fmt: skip
    assert set(EVENTS.names()) >= {type(e).TYPE for e in events}


def test_commands_and_events_round_trip() -> None:
    commands, events, _ = _samples()
    for c in commands:
        text = canonical_json(command_to_json(c))
        back = command_from_json(json.loads(text))
        assert back == c and canonical_json(command_to_json(back)) == text
    for e in events:
        text = canonical_json(event_to_json(e))
        again = event_from_json(json.loads(text))
        assert again == e and canonical_json(event_to_json(again)) == text


def test_state_with_battles_round_trips_and_hashes_the_same() -> None:
    _, _, state = _samples()
    text = state_to_text(state)
    back = state_from_text(text)
    assert back == state and TRIPWIRE.state_hash(back) == TRIPWIRE.state_hash(state)
