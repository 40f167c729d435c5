"""Identify/Scan as an order (lines 359-372, ruling T-S2).

Line 360: "A unit attempts to identify units of the opposing forces. Units make a Piloting skill
applying standard LoS and movement modifiers with the following additional modifiers."
Lines 362-367: "| Short Visual Range (1-10) | +0 |", "| Medium Visual Range (11-20) | +2 |", ...
"| Active Probe (In range) | -2 |", "| No direct LoS (Sensors Only) (Ranges are halved) | +2 |".
Lines 369-372, the margin: "| General type of unit e.g. BattleMech | -4 |", "| Tonnage Class
(Light, Medium, Heavy, Assault | -2 |", "| BattleMech Type | 0 |", "| Identifying features
(Damage, Unit Number) | +2 |".
"""

from __future__ import annotations

import pytest
from turn_world import REFEREE, placed, run, started

from mekref.rules.messages import Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn import events as ev
from mekref.rules.tripwire.turn import surveillance
from mekref.rules.tripwire.turn.orders import FormationOrder, ResolveTurn, SubmitOrders
from mekref.rules.tripwire.turn.setup import FormationSpec

Order = FormationOrder


def _state() -> CampaignState:
    return placed(
        started(),
        (FormationSpec(formation_id="a", name="A", unit_ids=("L-GRF",), hex="0508"),),
        (FormationSpec(formation_id="b", name="B", unit_ids=("R-JR7", "R-MAD")),),
    )


def _day(
    state: CampaignState, loyal: tuple[Order, ...], rebel: tuple[Order, ...]
) -> tuple[CampaignState, list[Event]]:
    return run(
        state,
        SubmitOrders(actor="loyalist", side_id="loyalist", day=1, orders=loyal),
        SubmitOrders(actor="rebel", side_id="rebel", day=1, orders=rebel),
        ResolveTurn(actor=REFEREE, day=1),
    )


@pytest.mark.parametrize(
    ("params", "modifier"),
    [
        ((), 0),  # short range, line of sight
        ((("range", "15"),), 2),  # medium
        ((("range", "15"), ("probe", "yes")), 0),
        ((("range", "30"), ("sensors", "yes")), 4),  # halved to 15: medium +2, sensors +2
        ((("range", "60"),), 6),  # extreme
    ],
)
def test_identify_rolls_piloting_with_the_tables_modifiers(
    params: tuple[tuple[str, str], ...], modifier: int
) -> None:
    """Alpha's Griffin (Piloting 5) watches Bravo land next door in 0608."""
    _, events = _day(
        _state(),
        (Order(formation_id="a", action="identify", target="b", params=params),),
        (Order(formation_id="b", action="orbital_insertion", target="0608"),),
    )
    (seen,) = [e for e in events if isinstance(e, ev.SightingsMade) and e.side_id == "loyalist"]
    (roll,) = [r for r in seen.rolls if r.name == "identify, a"]
    margin = roll.total - (5 + modifier)
    info = (
        "markings_and_damage" if margin >= 2
        else "model" if margin >= 0
        else "weight_class" if margin >= -2
        else "unit_type" if margin >= -4
        else "nothing"
    )  # fmt: skip
    assert surveillance.identify_info(margin) == info
    bravo = [s for s in seen.sightings if s.formation_id == "b"]
    if info == "nothing":
        assert all(s.info == "presence" for s in bravo)  # at most the array saw it land
    else:
        assert bravo[0].info == info and bravo[0].hex == "0608" and bravo[0].units == 2


def test_identify_needs_the_enemy_in_the_same_or_an_adjacent_hex() -> None:
    _, events = _day(
        _state(),
        (Order(formation_id="a", action="identify", target="b"),),
        (Order(formation_id="b", action="orbital_insertion", target="1712"),),
    )
    assert not [r for e in events for r in e.rolls if r.name == "identify, a"]
    (notes,) = [
        e.notes for e in events if isinstance(e, ev.FormationsUpdated) and e.side_id == "loyalist"
    ]
    assert any("identify: nothing in sight" in n for n in notes)


@pytest.mark.parametrize(
    ("order", "code"),
    [
        (Order(formation_id="a", action="identify", target="a"), "bad_target"),
        (Order(formation_id="a", action="identify"), "bad_target"),
        (
            Order(formation_id="a", action="identify", target="b", params=(("range", "61"),)),
            "bad_param",
        ),
        (
            Order(formation_id="a", action="identify", target="b", params=(("probe", "maybe"),)),
            "bad_param",
        ),
    ],
)
def test_identify_orders_are_checked(order: Order, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        run(_state(), SubmitOrders(actor="loyalist", side_id="loyalist", day=1, orders=(order,)))
    assert refused.value.code == code
