"""Scenario export: the side's unit list reads back through the MUL reader with every
externalId intact; the scenario sheet says what the players need."""

from __future__ import annotations

from dataclasses import replace

from turn_world import REFEREE, placed, run, started

from mekref.adapters.megamek.mul_model import Location, RootKind
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION
from mekref.rules.messages import RefereeNote
from mekref.rules.tripwire.commands import SetPersonHits
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.export import scenario_mul, scenario_sheet
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec


def _engaged() -> tuple[CampaignState, str]:
    state = placed(
        started(),
        (
            FormationSpec(
                formation_id="alpha",
                name="Alpha Lance",
                unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT"),
                hex="0707",
            ),
        ),
        (FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD", "R-AS7")),),
    )
    state, _ = run(
        state,
        SetPersonHits(
            actor=REFEREE,
            person_id="P-L-WVR",
            hits=2,
            override=RefereeNote(referee="ref", reason="wounded in an earlier track"),
        ),
        SubmitOrders(
            actor="rebel",
            side_id="rebel",
            day=1,
            orders=(
                FormationOrder(
                    formation_id="bravo",
                    action="orbital_insertion",
                    target="0707",
                    params=(("objective", "raid"),),
                ),
            ),
        ),
        ResolveTurn(actor=REFEREE, day=1),
    )
    assert state.strategic is not None
    (eng,) = state.strategic.engagements
    return state, eng.engagement_id


STATE, EID = _engaged()


def test_unit_list_round_trips_with_external_ids() -> None:
    text = scenario_mul(STATE, EID, "loyalist")
    mul = read_mul_bytes(text.encode("utf-8"))
    assert mul.root is RootKind.UNIT and mul.version == DEFAULT_WRITE_VERSION
    got = {e.external_id: e for e in mul.entities}
    assert set(got) == {"L-GRF", "L-WVR", "L-SHD", "L-LCT"}
    for uid, entity in got.items():
        assert entity.crew is not None
        assert [m.external_id for m in entity.crew.members] == [f"P-{uid}"]
    assert got["L-WVR"].crew is not None and got["L-WVR"].crew.members[0].hits == 2
    assert (got["L-GRF"].chassis, got["L-GRF"].model, got["L-GRF"].movement_mode) == (
        "Griffin",
        "GRF-1N",
        "Biped",
    )


def test_the_other_side_gets_only_its_own_units() -> None:
    mul = read_mul_bytes(scenario_mul(STATE, EID, "rebel").encode("utf-8"))
    assert {e.external_id for e in mul.entities} == {"R-JR7", "R-MAD", "R-AS7"}


def test_last_known_condition_is_carried_with_our_ids() -> None:
    first = read_mul_bytes(scenario_mul(STATE, EID, "loyalist").encode("utf-8")).entities[0]
    damaged = replace(
        first,
        external_id="whatever MegaMek wrote",
        locations=(Location(index=0, name="Head", armor=3, internal=2),),
    )
    text = scenario_mul(STATE, EID, "loyalist", {"L-GRF": damaged})
    back = {e.external_id: e for e in read_mul_bytes(text.encode("utf-8")).entities}
    assert back["L-GRF"].locations[0].armor == 3
    assert back["L-GRF"].crew is not None and back["L-GRF"].crew.members[0].external_id == "P-L-GRF"


def test_scenario_sheet() -> None:
    sheet = scenario_sheet(STATE, EID, "rebel")
    assert sheet.startswith(f"# Engagement {EID}: Rebels")
    assert "Raid" in sheet  # the objective from the order's params
    assert "Map sheets:" in sheet and "weather:" in sheet
    assert "| Bravo | Bravo | 3 | turn 3 |" in sheet  # walk 3: "| 3-4 | 3 |"
    assert "R-JR7" in sheet and "L-GRF" not in sheet


def test_battle_damage_is_laid_on_the_design() -> None:
    """The battle rules recorded the Griffin with its Center Torso at 20 of 27 armor (front 20 +
    rear 7) and 10 of 18 internal, its Left Arm gone: the loss of 7 comes off the front first
    (ruling T-X2): front 13, rear 7; the Left Arm goes out destroyed with 0 internal."""
    from pathlib import Path

    from mekref.adapters.megamek.mtf_reader import parse_mtf
    from mekref.rules.tripwire.battle_model import UnitDamage
    from mekref.rules.tripwire.repair import LocationDamage

    units = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
    griffin = parse_mtf((units / "Griffin GRF-1N.mtf").read_text(encoding="utf-8"), "griffin")
    damage = UnitDamage(
        locations=(
            LocationDamage(
                name="Center Torso", armor_max=27, armor_now=20, internal_max=18, internal_now=10
            ),
            LocationDamage(
                name="Left Arm", armor_max=14, armor_now=0, internal_max=9, internal_now=0
            ),
        )
    )
    ledger = replace(STATE.battles, unit_damage={"L-GRF": damage})
    state = replace(STATE, battles=ledger)
    text = scenario_mul(state, EID, "loyalist", designs={"L-GRF": griffin})
    back = {e.external_id: e for e in read_mul_bytes(text.encode("utf-8")).entities}
    locs = {loc.name or str(loc.index): loc for loc in back["L-GRF"].locations}
    by_index = {loc.index: loc for loc in back["L-GRF"].locations}
    assert (by_index[1].armor, by_index[1].rear, by_index[1].internal) == (13, 7, 10)
    assert by_index[5].destroyed and by_index[5].internal == 0
    assert len(locs) == 2
