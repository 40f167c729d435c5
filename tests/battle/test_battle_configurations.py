"""Extra configurations bought before the campaign (L24, footnote **** at L99; ruling
R-FORCE-13): omni units and battle armor only, at the Reconfigure price, the unit counted at its
highest configuration's BV in its company's budget, each violation quoting its line."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_spending import ReconfigureUnit
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.configurations import BuyConfiguration, ConfigurationBought, counted_bv
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import UnitKind, UnitRole
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn.state import StrategicState
from mekref.rules.tripwire.unit_bv import RecordUnitBv

from .states import campaign, fu, run

WORD = RefereeNote(referee="Ann", reason="the group allows it")
OMNI = frozenset({UnitRole.OMNI})


def _state(*red: object) -> CampaignState:
    units = red or (fu("r1"), replace(fu("r2", bv=1100), roles=OMNI))
    state = campaign(tuple(units), (fu("b1"),))  # type: ignore[arg-type]
    _, state = run(
        state,
        OpenPool(pool_id="union", side_id="red", name="Union", kind=PoolKind.DROPSHIP,
                 dropship_class="Union", actor="t"),
    )  # fmt: skip
    return state


def _buy(unit: str, model: str, bv: int, word: RefereeNote | None = None) -> BuyConfiguration:
    return BuyConfiguration(
        unit_id=unit, pool_id="union", configuration=model, bv=bv, accept_unchecked=word, actor="t"
    )


def test_l99_an_extra_configuration_costs_a_reconfigure_and_is_then_free() -> None:
    """L99: "Each extra configuration beyond the first costs you must may the cost of a
    Reconfigure Omni-Pod ... before the start of the campaign. ... It does not cost WP to change
    the configurations once purchased." L91: "| Reconfigure Omni-Pod. # **** | Tonnage/4 |":
    50/4 = 12.5 -> 13."""
    events, state = run(_state(), _buy("r2", "A", 1300))
    assert events[0].cost_sp == 13 and state.pools["union"].balance == 250 - 13
    assert state.battles.configurations == {"r2": ("A",)}
    # The unit stays in the configuration it was imported in: its BV is its own until refitted.
    assert state.units["r2"].bv == 1100 and state.battles.bv_override == {}
    fit = ReconfigureUnit(unit_id="r2", pool_id="union", configuration="A", bv=1300,
                          note=WORD, actor="t")  # fmt: skip
    events, state = run(state, fit)
    assert events[0].cost_sp == 0 and state.pools["union"].balance == 250 - 13
    with pytest.raises(Refusal, match=r"already has the configuration 'a' \(it has GRF-1N, A\)"):
        run(_state(), _buy("r2", "A", 1300), _buy("r2", "a", 1300))


def test_l99_the_unit_counts_at_its_highest_configurations_bv() -> None:
    """L99: "The BV cost for the unit is considered to be the highest BV cost of the possible
    configurations." A cheaper configuration leaves it at the highest."""
    _, state = run(_state(), _buy("r2", "A", 1300), _buy("r2", "B", 900))
    assert state.battles.construction_bv == {"r2": 1300}
    assert state.battles.configurations == {"r2": ("A", "B")}
    _, low = run(_state(), _buy("r2", "B", 900))
    # The highest bought is kept; the imported one, the highest, is read when counted.
    assert low.battles.construction_bv == {"r2": 900}
    assert counted_bv(low, low.units["r2"]) == 1100


def test_l99_l10_the_highest_bv_must_fit_the_companys_budget() -> None:
    """L10: "Alpha and Bravo company each have 20,000 BV to spend on units." counted with L99's
    highest configuration: 9,500 + 10,000 + a configuration of 10,600 is 20,100."""
    state = _state(fu("r1", bv=9500), replace(fu("r2", bv=10000), roles=OMNI))
    with pytest.raises(Refusal) as refused:
        run(state, _buy("r2", "A", 10600))
    assert refused.value.code == "force_construction"
    assert "20100 BV spent counting each unit at its highest configuration's BV" in str(
        refused.value
    )
    assert "the limit is 20000 (line 10)" in str(refused.value)
    assert '[line 99: "**** Omni-units/BattleArmour may be purchased' in str(refused.value)
    _, ok = run(state, _buy("r2", "A", 10500))  # exactly 20,000 fits
    assert ok.battles.construction_bv == {"r2": 10500}


def test_l24_only_omni_units_and_battle_armor_have_configurations() -> None:
    """L24: "Omni-units/BattleArmour may be purchased at the start of the game with more than
    one configuration"; L92: "| Reconfigure Battle Armor **** | 0 |"."""
    with pytest.raises(Refusal) as refused:
        run(_state(), _buy("r1", "GRF-1S", 1200))
    assert refused.value.code == "force_construction"
    text = str(refused.value)
    assert "only omni units and battle armor have configurations" in text
    assert "no design was recorded for it" in text  # whether it is an omni is not known
    assert '[line 24: "- Omni-units/BattleArmour may be purchased' in text
    # On the referee's word it is bought, and the side's force check records the violation.
    events, state = run(_state(), _buy("r1", "GRF-1S", 1200, WORD))
    assert events[0].accepted_unchecked == WORD
    assert state.force_checks["red"].violations[-1].startswith("configurations.units")
    squad = fu("r3", kind=UnitKind.BATTLE_ARMOR, tons=1, chassis="Elemental", model="[Laser]")
    events, state = run(_state(fu("r1"), squad), _buy("r3", "[Flamer]", 300))
    assert events[0].cost_sp == 0 and state.battles.configurations == {"r3": ("[Flamer]",)}


def test_l99_bought_before_the_start_of_the_campaign_only() -> None:
    """L99: "... costs you ... the cost of a Reconfigure ... before the start of the
    campaign": once a strategic day is resolved, a new configuration is fitted instead."""
    state = _state()
    day_one = StrategicState(map_name="m", map_text="", attacker="red", defender="blue")
    run(replace(state, strategic=day_one), _buy("r2", "A", 1300))  # Day Zero: orders for day 1
    later = replace(day_one, day=2)
    with pytest.raises(Refusal, match=r"strategic day 1 resolved.*spend reconfigure"):
        run(replace(state, strategic=later), _buy("r2", "A", 1300))


def test_l10_a_dropship_spends_no_company_bv_when_a_configuration_is_bought() -> None:
    """L10: "Alpha and Bravo company each have 20,000 BV to spend on units." counted as the
    force check counts it: a DropShip in the TO&E spends none (ruling R-FORCE-3). 9,500 and a
    configuration of 10,500 fit beside a DropShip of 5,000 BV."""
    ship = fu("ds", kind=UnitKind.DROPSHIP, tons=1900, bv=5000, chassis="Union", model="(2708)")
    state = _state(fu("r1", bv=9500), replace(fu("r2", bv=10000), roles=OMNI), ship)
    events, ok = run(state, _buy("r2", "A", 10500))
    assert events[0].violations == ()
    assert counted_bv(ok, ok.units["r2"]) == 10500


def test_l10_a_company_with_a_unit_without_bv_is_not_known() -> None:
    """L10 counted with L99's highest configuration; ruling R-VP-6: a unit without a BV makes
    the company's BV not known, never a partial sum: a violation naming the unit and what to
    record, bought only on the referee's word (and recorded in the side's force check)."""
    state = _state(fu("r1", bv=0), replace(fu("r2", bv=10000), roles=OMNI))
    with pytest.raises(Refusal) as refused:
        run(state, _buy("r2", "A", 10600))
    assert refused.value.code == "force_construction"
    assert "the company's BV is not known: 1 unit(s) have no BV (r1)" in refused.value.message
    assert "mekref battle bv --unit ID --bv N" in refused.value.message
    _, state = run(state, _buy("r2", "A", 10600, WORD))
    assert "is not known" in state.force_checks["red"].violations[-1]


def test_l99_the_highest_bv_is_read_with_the_units_bv_now() -> None:
    """L99: "The BV cost for the unit is considered to be the highest BV cost of the possible
    configurations.": a BV recorded for the unit after a configuration was bought (an event
    recorded before the company's BV had to be known) counts when it is the highest."""
    state = _state(fu("r1"), replace(fu("r2", bv=0), roles=OMNI))
    bought = ConfigurationBought(
        unit_id="r2", pool_id="union", configuration="A", bv=1300, cost_sp=13, counted_bv=1300,
        violations=(), accepted_unchecked=None, actor="t",
    )  # fmt: skip
    state = TRIPWIRE.fold([bought], state)
    assert counted_bv(state, state.units["r2"]) == 0  # its own BV is not known yet
    _, state = run(state, RecordUnitBv(unit_id="r2", bv=1800, note=WORD, actor="t"))
    assert counted_bv(state, state.units["r2"]) == 1800
