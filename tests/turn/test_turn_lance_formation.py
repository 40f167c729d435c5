"""A TO&E lance's Formation Type change (``mekref spend formation``, ``ChangeFormation``) is paid
once per lance and day (ruling R-FORM-1 in docs/rulings.md).

L95: "| Change Formation Type | 100 (Requires 1 day of training) |"
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from console_script import mekref
from ginestra_cli import legal_day_zero, ok
from turn_world import placed, run, started

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_spending import ChangeFormation
from mekref.rules.tripwire.commands import OpenPool
from mekref.rules.tripwire.state import CampaignState, PoolKind
from mekref.rules.tripwire.turn.setup import FormationSpec


def _state() -> CampaignState:
    state = placed(
        started(),
        (FormationSpec(formation_id="alpha", name="Alpha", hex="0508",
                       unit_ids=("L-GRF", "L-WVR", "L-SHD", "L-LCT")),),
        (FormationSpec(formation_id="bravo", name="Bravo", unit_ids=("R-JR7", "R-MAD", "R-AS7")),),
    )  # fmt: skip
    state, _ = run(state, OpenPool(actor="referee", pool_id="cap", side_id="loyalist", name="cap",
                                   kind=PoolKind.LOCATION, location="Bagnorgeio",
                                   opening_balance=500))  # fmt: skip
    return state


def _next_day(state: CampaignState) -> CampaignState:
    assert state.strategic is not None
    return replace(state, strategic=replace(state.strategic, day=state.strategic.day + 1))


def test_ruling_r_form_1_a_lance_pays_one_formation_change_a_day() -> None:
    # L95: "| Change Formation Type | 100 (Requires 1 day of training) |"
    change = ChangeFormation(actor="t", side_id="loyalist", pool_id="cap", lance="Alpha",
                             formation="Striker")  # fmt: skip
    state, _ = run(_state(), change)
    assert state.pools["cap"].balance == 400
    with pytest.raises(Refusal) as again:
        run(state, change)
    assert again.value.code == "same_formation"
    with pytest.raises(Refusal) as other:
        run(state, replace(change, formation="Fire"))
    assert other.value.code == "already_training" and "L95" in str(other.value)
    assert "from day 2" in str(other.value)
    # The next day the lance may train for another type, and pays for it once.
    state, _ = run(_next_day(state), replace(change, formation="Fire"))
    assert state.pools["cap"].balance == 300


def test_spend_formation_charges_a_legal_sample_lance_once_a_day(tmp_path: Path) -> None:
    db = legal_day_zero(tmp_path)
    args = ("spend", "formation", "--db", db, "--side", "loyalist", "--pool", "bagnorgeio",
            "--lance", "Battle Lance")  # fmt: skip
    assert "bagnorgeio (Bagnorgeio): 900 WP" in ok(*args, "--formation", "Striker")
    for formation, code in (("Striker", "same_formation"), ("Fire", "already_training")):
        done = mekref(*args, "--formation", formation)
        assert done.returncode == 3 and code in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert "change it again from day 2" in done.stderr
    (pool,) = [p for p in json.loads(ok("report", "--db", db, "--json"))["pools"]
               if p["id"] == "bagnorgeio"]  # fmt: skip
    assert pool["balance"] == 900
