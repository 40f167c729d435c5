"""The engine core: decide/evolve, refusals with reasons, referee overrides, determinism."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tripwire_forces import legal_force, mek_company, with_lance

from mekref.rules.codec import canonical_json
from mekref.rules.dice import Dice, verify
from mekref.rules.messages import Command, Event, RefereeNote, event_text, message_to_json
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.commands import (
    CreateCampaign,
    CreditPool,
    DebitPool,
    HealPerson,
    ImportForce,
    OpenPool,
    ResolveDeathRoll,
    SetPersonHits,
    SideSpec,
    TransferWarChest,
)
from mekref.rules.tripwire.events import DeathRollMade
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import ForceDescription
from mekref.rules.tripwire.state import (
    CampaignState,
    PersonStatus,
    PoolKind,
    state_from_text,
    state_to_text,
)

# This rule set's message codec (names kept from the shared registry).
event_from_json = TRIPWIRE.events.from_json
event_from_text = TRIPWIRE.events.from_text
event_to_json = message_to_json

NOTE = RefereeNote(referee="ref-anna", reason="correcting the MUL")
SIDES = (SideSpec(side_id="loyal", name="Loyalists"), SideSpec(side_id="fed", name="Federalists"))


def run(commands: list[Command], seed: str = "42") -> tuple[list[Event], CampaignState]:
    state = CampaignState()
    log: list[Event] = []
    for command in commands:
        if isinstance(command, CreateCampaign):
            command = replace(command, seed=seed)
        events, state = TRIPWIRE.execute(state, command)
        log.extend(events)
    return log, state


def setup_commands() -> list[Command]:
    return [
        CreateCampaign(actor="ref", name="Ginestra", ruleset="tripwire", seed="42", sides=SIDES),
        ImportForce(actor="ref", side_id="loyal", force=legal_force()),
        OpenPool(
            actor="ref",
            pool_id="union-a",
            side_id="loyal",
            name="Union A",
            kind=PoolKind.DROPSHIP,
            dropship_class="Union",
        ),
        OpenPool(
            actor="ref",
            pool_id="gazelle",
            side_id="loyal",
            name="Gazelle",
            kind=PoolKind.DROPSHIP,
            dropship_class="Gazelle",
        ),
        OpenPool(
            actor="ref",
            pool_id="fdb",
            side_id="loyal",
            name="Forward Deployment Base",
            kind=PoolKind.LOCATION,
            location="Forward Deployment Base",
        ),
        OpenPool(
            actor="ref",
            pool_id="truck",
            side_id="loyal",
            name="Flatbed",
            kind=PoolKind.CARGO,
            cargo_tons=Fraction(10),
        ),
    ]


def test_setup_builds_the_state() -> None:
    _, state = run(setup_commands())
    assert state.created and state.ruleset == "tripwire" and set(state.sides) == {"loyal", "fed"}
    assert len(state.units) == 12 * 2 + 2 * 2 + 8
    assert state.people["p-a1"].gunnery == 3 and state.people["p-a1"].unit_id == "a1"
    assert state.force_checks["loyal"].checked
    pools = {p.pool_id: (p.balance, p.capacity) for p in state.pools.values()}
    # "Each Union DropShip carries 250 WP ... The Gazelle DropShip carries 2500 WarChest Points.
    #  Any unit can carry 5x its Cargo Capacity in WarChest Points (e.g. A 10 to flatbed truck
    #  can carry 50 WP)." Locations: "Forward Deployment Base: 1000 WP."
    assert pools == {
        "union-a": (250, 250),
        "gazelle": (2500, 2500),
        "fdb": (1000, None),
        "truck": (0, 50),
    }


def test_same_seed_same_inputs_give_byte_identical_events_and_state() -> None:
    commands = [
        *setup_commands(),
        SetPersonHits(actor="ref", person_id="p-a2", hits=5, override=NOTE),
        ResolveDeathRoll(actor="ref", person_id="p-a2"),
        SetPersonHits(actor="ref", person_id="p-a3", hits=5, override=NOTE),
        ResolveDeathRoll(actor="ref", person_id="p-a3"),
    ]
    log1, state1 = run(commands)
    log2, state2 = run(commands)
    text1 = [canonical_json(event_to_json(e)) for e in log1]
    text2 = [canonical_json(event_to_json(e)) for e in log2]
    assert text1 == text2
    assert TRIPWIRE.state_hash(state1) == TRIPWIRE.state_hash(state2)
    # Folding the log again (a replay) gives the same hash as the live state.
    assert TRIPWIRE.state_hash(TRIPWIRE.fold(log1)) == TRIPWIRE.state_hash(state1)
    assert state1.rolls_used == 2


def test_a_different_seed_changes_the_dice() -> None:
    commands = [*setup_commands()]
    for n in range(2, 5):
        commands += [
            SetPersonHits(actor="ref", person_id=f"p-a{n}", hits=5, override=NOTE),
            ResolveDeathRoll(actor="ref", person_id=f"p-a{n}"),
        ]
    log1, _ = run(commands, seed="1")
    log2, _ = run(commands, seed="2")
    faces1 = [r.faces for e in log1 for r in e.rolls]
    faces2 = [r.faces for e in log2 for r in e.rolls]
    assert faces1 != faces2


def test_refused_commands_give_reasons_and_change_nothing() -> None:
    _, state = run(setup_commands())
    cases = [
        (DebitPool(actor="x", pool_id="union-a", amount=251, reason="r"), "insufficient_wp"),
        (CreditPool(actor="x", pool_id="union-a", amount=1, reason="r"), "over_capacity"),
        (CreditPool(actor="x", pool_id="truck", amount=51, reason="r"), "over_capacity"),
        (CreditPool(actor="x", pool_id="nope", amount=1, reason="r"), "unknown_pool"),
        (DebitPool(actor="x", pool_id="fdb", amount=0, reason="r"), "bad_amount"),
        (
            TransferWarChest(actor="x", from_pool="fdb", to_pool="union-a", amount=1),
            "over_capacity",
        ),
        (TransferWarChest(actor="x", from_pool="fdb", to_pool="fdb", amount=1), "same_pool"),
        (SetPersonHits(actor="x", person_id="p-a1", hits=7, override=NOTE), "bad_hits"),
        (ImportForce(actor="x", side_id="loyal", force=legal_force()), "already_imported"),
        (ImportForce(actor="x", side_id="nobody", force=legal_force()), "unknown_side"),
    ]
    for command, code in cases:
        with pytest.raises(Refusal) as caught:
            TRIPWIRE.decide(state, command, TRIPWIRE.dice_for(state))
        assert caught.value.code == code, command


def test_transfer_moves_wp_between_pools_of_one_side() -> None:
    _, state = run(setup_commands())
    _, state = TRIPWIRE.execute(
        state, DebitPool(actor="x", pool_id="union-a", amount=100, reason="r")
    )
    _, state = TRIPWIRE.execute(
        state,
        TransferWarChest(actor="x", from_pool="fdb", to_pool="union-a", amount=60, note=NOTE),
    )
    assert state.pools["fdb"].balance == 940 and state.pools["union-a"].balance == 210


def test_transfer_between_sides_is_refused() -> None:
    _, state = run(
        [
            *setup_commands(),
            OpenPool(
                actor="ref",
                pool_id="fed-loc",
                side_id="fed",
                name="Bagnorgeio",
                kind=PoolKind.LOCATION,
                location="Bagnorgeio",
            ),
        ]
    )
    with pytest.raises(Refusal) as caught:
        TRIPWIRE.decide(
            state,
            TransferWarChest(actor="x", from_pool="fdb", to_pool="fed-loc", amount=1),
            TRIPWIRE.dice_for(state),
        )
    assert caught.value.code == "other_side"


def test_referee_override_records_who_and_why_and_six_hits_is_dead() -> None:
    _, state = run(setup_commands())
    events, state = TRIPWIRE.execute(
        state, SetPersonHits(actor="ref", person_id="p-a2", hits=6, override=NOTE)
    )
    (event,) = events
    data = event_to_json(event)
    assert data["override"] == {"referee": "ref-anna", "reason": "correcting the MUL"}
    assert data["previous_hits"] == 0
    assert state.people["p-a2"].status is PersonStatus.DEAD


def test_an_illegal_force_is_refused_unless_the_referee_accepts_it_unchecked() -> None:
    alpha = mek_company("Alpha")
    short = with_lance(alpha, 1, replace(alpha.lances[1], units=alpha.lances[1].units[:3]))
    force = ForceDescription(companies=(short,))
    _, state = run(setup_commands()[:1])
    with pytest.raises(Refusal) as caught:
        TRIPWIRE.decide(
            state, ImportForce(actor="x", side_id="fed", force=force), TRIPWIRE.dice_for(state)
        )
    assert caught.value.code == "force_construction"
    assert "mek_company.counts" in caught.value.message
    _, state = TRIPWIRE.execute(
        state, ImportForce(actor="ref", side_id="fed", force=force, accept_unchecked=NOTE)
    )
    assert not state.force_checks["fed"].checked
    assert state.force_checks["fed"].violations


def test_import_refuses_ids_already_in_the_campaign() -> None:
    _, state = run(setup_commands())
    with pytest.raises(Refusal) as caught:
        TRIPWIRE.decide(
            state,
            ImportForce(actor="x", side_id="fed", force=legal_force()),
            TRIPWIRE.dice_for(state),
        )
    assert caught.value.code == "duplicate_id"


def test_healing_costs_the_current_row_needs_a_hospital_from_three_hits_once_per_track() -> None:
    _, state = run(setup_commands())
    _, state = TRIPWIRE.execute(
        state, SetPersonHits(actor="ref", person_id="p-a2", hits=3, override=NOTE)
    )
    with pytest.raises(Refusal) as caught:
        TRIPWIRE.decide(
            state,
            HealPerson(actor="x", person_id="p-a2", pool_id="fdb", at_hospital=False, note=NOTE),
            TRIPWIRE.dice_for(state),
        )
    assert caught.value.code == "needs_hospital"
    _, state = TRIPWIRE.execute(
        state, HealPerson(actor="x", person_id="p-a2", pool_id="fdb", at_hospital=True, note=NOTE)
    )
    # "| 3 Hits (Heavily Wounded) | 60 |"
    assert state.pools["fdb"].balance == 1000 - 60 and state.people["p-a2"].hits == 2
    with pytest.raises(Refusal) as caught:
        TRIPWIRE.decide(
            state,
            HealPerson(actor="x", person_id="p-a2", pool_id="fdb", at_hospital=True, note=NOTE),
            TRIPWIRE.dice_for(state),
        )
    assert caught.value.code == "healed_this_track"


def test_five_hits_need_the_death_roll_before_healing_and_the_roll_is_recorded() -> None:
    _, state = run(setup_commands())
    _, state = TRIPWIRE.execute(
        state, SetPersonHits(actor="ref", person_id="p-a2", hits=5, override=NOTE)
    )
    with pytest.raises(Refusal) as caught:
        TRIPWIRE.decide(
            state,
            HealPerson(actor="x", person_id="p-a2", pool_id="fdb", at_hospital=True, note=NOTE),
            TRIPWIRE.dice_for(state),
        )
    assert caught.value.code == "death_roll_first"
    events, after = TRIPWIRE.execute(state, ResolveDeathRoll(actor="x", person_id="p-a2"))
    (event,) = events
    assert isinstance(event, DeathRollMade)
    (roll,) = event.rolls
    assert roll.name == "death roll, pilot p-a2" and verify("42", roll)
    # "Roll a Death roll on 1D6. On a 4 – 6 they die."
    assert event.dies == (roll.faces[0] >= 4)
    assert (after.people["p-a2"].status is PersonStatus.DEAD) == event.dies
    with pytest.raises(Refusal):
        TRIPWIRE.decide(
            after, ResolveDeathRoll(actor="x", person_id="p-a2"), TRIPWIRE.dice_for(after)
        )


def test_decide_refuses_a_stale_dice_cursor() -> None:
    _, state = run(setup_commands())
    with pytest.raises(ValueError):
        TRIPWIRE.decide(state, ResolveDeathRoll(actor="x", person_id="p-a2"), Dice("42", 99))


def test_evolve_counts_events_and_is_pure() -> None:
    _, state = run(setup_commands()[:1])
    before = TRIPWIRE.state_hash(state)
    (event,) = TRIPWIRE.decide(
        state,
        ImportForce(actor="x", side_id="loyal", force=legal_force()),
        TRIPWIRE.dice_for(state),
    )
    after = TRIPWIRE.evolve(state, event)
    assert TRIPWIRE.state_hash(state) == before
    assert after.events_applied == state.events_applied + 1


def test_unknown_ruleset_and_second_create_are_refused() -> None:
    with pytest.raises(Refusal):
        TRIPWIRE.execute(
            CampaignState(),
            CreateCampaign(actor="x", name="n", ruleset="nope", seed="1", sides=SIDES),
        )
    _, state = run(setup_commands()[:1])
    with pytest.raises(Refusal):
        TRIPWIRE.execute(state, setup_commands()[0])


def test_state_hash_is_a_sha256_hex_digest() -> None:
    digest = TRIPWIRE.state_hash(CampaignState())
    assert len(digest) == 64 and int(digest, 16) >= 0


def test_a_log_stored_as_json_text_replays_to_the_same_state_hash() -> None:
    """What the daemon does: store each event as canonical JSON text, read it back, fold."""
    commands = [
        *setup_commands(),
        DebitPool(actor="side", pool_id="union-a", amount=40, reason="armor, Griffin"),
        TransferWarChest(actor="side", from_pool="fdb", to_pool="union-a", amount=40),
        SetPersonHits(actor="ref", person_id="p-a4", hits=5, override=NOTE),
        ResolveDeathRoll(actor="ref", person_id="p-a4"),
    ]
    log, live = run(commands)
    stored = [canonical_json(event_to_json(e)) for e in log]
    replayed = TRIPWIRE.fold(event_from_json(json.loads(text)) for text in stored)
    assert replayed == live
    assert TRIPWIRE.state_hash(replayed) == TRIPWIRE.state_hash(live)


WARCHEST_STEPS = st.lists(
    st.tuples(
        st.sampled_from(["credit", "debit", "transfer"]),
        st.sampled_from(["union-a", "gazelle", "fdb", "truck"]),
        st.sampled_from(["union-a", "gazelle", "fdb", "truck"]),
        st.integers(-5, 400),
    ),
    max_size=25,
)


@settings(max_examples=60, deadline=None)
@given(WARCHEST_STEPS)
def test_warchest_pools_never_go_negative_or_over_capacity(
    steps: list[tuple[str, str, str, int]],
) -> None:
    """Any sequence of credits, debits and transfers: refused ones change nothing, accepted
    ones keep every pool within 0..capacity, and WP are conserved by transfers."""
    _, state = run(setup_commands())
    log: list[Event] = []
    for kind, a, b, amount in steps:
        command: Command
        if kind == "credit":
            command = CreditPool(actor="x", pool_id=a, amount=amount, reason="r")
        elif kind == "debit":
            command = DebitPool(actor="x", pool_id=a, amount=amount, reason="r")
        else:
            command = TransferWarChest(actor="x", from_pool=a, to_pool=b, amount=amount)
        before = sum(p.balance for p in state.pools.values())
        try:
            events, after = TRIPWIRE.execute(state, command)
        except Refusal:
            continue
        change = sum(p.balance for p in after.pools.values()) - before
        expected = {"credit": amount, "debit": -amount, "transfer": 0}[kind]
        assert change == expected
        log.extend(events)
        state = after
        for pool in state.pools.values():
            assert pool.balance >= 0
            assert pool.capacity is None or pool.balance <= pool.capacity
    base_log, _ = run(setup_commands())
    assert TRIPWIRE.state_hash(TRIPWIRE.fold([*base_log, *log])) == TRIPWIRE.state_hash(state)


def test_state_snapshot_text_round_trips_and_hashes_the_same() -> None:
    """Snapshots: the state's canonical text loads back to an equal state with the same hash."""
    commands = [
        *setup_commands(),
        SetPersonHits(actor="ref", person_id="p-a4", hits=5, override=NOTE),
        ResolveDeathRoll(actor="ref", person_id="p-a4"),
    ]
    _, state = run(commands)
    text = state_to_text(state)
    loaded = state_from_text(text)
    assert loaded == state
    assert TRIPWIRE.state_hash(loaded) == TRIPWIRE.state_hash(state)
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == TRIPWIRE.state_hash(state)


def test_event_text_is_what_the_store_keeps() -> None:
    log, _ = run(setup_commands())
    for event in log:
        text = event_text(event)
        assert json.loads(text)["type"] == type(event).TYPE
        assert event_from_text(text) == event
