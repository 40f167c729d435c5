"""Every command and event type round-trips through canonical JSON, byte for byte."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from tripwire_forces import legal_force

from mekref.rules.codec import CodecError, canonical_json, to_jsonable
from mekref.rules.dice import Dice
from mekref.rules.messages import Command, Event, RefereeNote, message_to_json
from mekref.rules.tripwire import commands as cc
from mekref.rules.tripwire import events as ce
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import CrewSkills
from mekref.rules.tripwire.state import PoolKind

# This rule set's message codec (names kept from the shared registry).
COMMANDS = TRIPWIRE.commands
EVENTS = TRIPWIRE.events
command_from_json = TRIPWIRE.commands.from_json
event_from_json = TRIPWIRE.events.from_json
command_to_json = message_to_json
event_to_json = message_to_json

NOTE = RefereeNote(referee="ref-anna", reason="MegaMek file lost the pilot's ejection")
SIDES = (cc.SideSpec(side_id="loyal", name="Loyalists"), cc.SideSpec(side_id="fed", name="Feds"))
SPARE = (CrewSkills(person_id="p-spare", name="Spare", gunnery=4, piloting=5),)
ROLL, _ = Dice("seed").roll("death roll, pilot p1")

EVENT_SAMPLES: list[Event] = [
    ce.CampaignCreated(name="TripWire", ruleset="tripwire", seed="42", sides=SIDES, actor="ref"),
    ce.ForceImported(
        side_id="loyal",
        force=legal_force(),
        spare_people=SPARE,
        violations=("x",),
        accepted_unchecked=NOTE,
        actor="ref",
    ),
    ce.PoolOpened(
        pool_id="u1",
        side_id="loyal",
        name="Union",
        kind=PoolKind.DROPSHIP,
        balance=250,
        capacity=250,
        actor="ref",
    ),
    ce.PoolCredited(pool_id="u1", amount=5, reason="salvage", actor="ref"),
    ce.PoolDebited(pool_id="u1", amount=5, reason="repairs", actor="ref"),
    ce.WarChestTransferred(from_pool="u1", to_pool="g1", amount=10, actor="ref"),
    ce.PersonHitsSet(person_id="p1", previous_hits=2, hits=3, override=NOTE, actor="ref"),
    ce.PersonHealed(
        person_id="p1", pool_id="u1", hits_before=3, hits_after=2, cost_sp=60, track=1, actor="ref"
    ),
    ce.DeathRollMade(person_id="p1", dies=True, rolls=(ROLL,), actor="ref"),
]

COMMAND_SAMPLES: list[Command] = [
    cc.CreateCampaign(actor="ref", name="TripWire", ruleset="tripwire", seed="42", sides=SIDES),
    cc.ImportForce(
        actor="ref", side_id="loyal", force=legal_force(), spare_people=SPARE, accept_unchecked=NOTE
    ),
    cc.OpenPool(
        actor="ref",
        pool_id="t1",
        side_id="loyal",
        name="Flatbed",
        kind=PoolKind.CARGO,
        cargo_tons=Fraction(21, 2),
    ),
    cc.CreditPool(actor="ref", pool_id="u1", amount=5, reason="r"),
    cc.DebitPool(actor="ref", pool_id="u1", amount=5, reason="r"),
    cc.TransferWarChest(actor="ref", from_pool="u1", to_pool="g1", amount=5),
    cc.SetPersonHits(actor="ref", person_id="p1", hits=6, override=NOTE),
    cc.HealPerson(actor="ref", person_id="p1", pool_id="u1", at_hospital=True),
    cc.ResolveDeathRoll(actor="ref", person_id="p1"),
]


_CORE_MODULES = ("mekref.rules.tripwire.events", "mekref.rules.tripwire.commands")


def test_every_registered_type_has_a_sample() -> None:
    # Other rule modules register their own types (and test them); this file covers the core's.
    core_events = [c.TYPE for c in EVENTS.classes() if c.__module__ in _CORE_MODULES]
    core_commands = [c.TYPE for c in COMMANDS.classes() if c.__module__ in _CORE_MODULES]
    assert sorted(type(e).TYPE for e in EVENT_SAMPLES) == sorted(core_events)
    assert sorted(type(c).TYPE for c in COMMAND_SAMPLES) == sorted(core_commands)


@pytest.mark.parametrize("event", EVENT_SAMPLES, ids=lambda e: type(e).TYPE)
def test_event_round_trip(event: Event) -> None:
    data = event_to_json(event)
    assert data["type"] == type(event).TYPE
    text = canonical_json(data)
    back = event_from_json(json.loads(text))
    assert back == event
    assert canonical_json(event_to_json(back)) == text


@pytest.mark.parametrize("command", COMMAND_SAMPLES, ids=lambda c: type(c).TYPE)
def test_command_round_trip(command: Command) -> None:
    text = canonical_json(command_to_json(command))
    assert command_from_json(json.loads(text)) == command


def test_canonical_json_is_sorted_and_compact() -> None:
    text = canonical_json(event_to_json(EVENT_SAMPLES[3]))
    assert text == (
        '{"actor":"ref","amount":5,"pool_id":"u1","reason":"salvage","rolls":[],'
        '"type":"PoolCredited"}'
    )


def test_fractions_are_exact_text_and_floats_are_refused() -> None:
    assert to_jsonable(Fraction(35, 2)) == "35/2"
    with pytest.raises(CodecError):
        to_jsonable(17.5)


def test_unknown_type_and_unknown_fields_are_refused() -> None:
    with pytest.raises(CodecError):
        event_from_json({"type": "Nope"})
    data = event_to_json(EVENT_SAMPLES[3])
    data["extra"] = 1
    with pytest.raises(CodecError):
        event_from_json(data)


def test_a_referee_note_needs_a_name_and_a_reason() -> None:
    with pytest.raises(ValueError):
        RefereeNote(referee="ref", reason=" ")


def test_missing_fields_and_refused_values_are_codec_errors() -> None:
    data = event_to_json(EVENT_SAMPLES[3])
    del data["amount"]
    with pytest.raises(CodecError):
        event_from_json(data)
    hits = event_to_json(EVENT_SAMPLES[6])
    hits["override"]["reason"] = ""
    with pytest.raises(CodecError):
        event_from_json(hits)
    bad_type = event_to_json(EVENT_SAMPLES[3])
    bad_type["amount"] = "5"
    with pytest.raises(CodecError):
        event_from_json(bad_type)
