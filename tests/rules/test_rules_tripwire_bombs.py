"""Buying bombs for aerospace fighters (rulings R-BOMB-1, R-BOMB-2 in docs/rulings.md).

L84: "| Purchase Bomb Loadout/Per Bomb (Intro/Standard/Advanced) | 1/2/5 |". On the Ginestra map
of the where tests: the loyalists' Rapier RPR-300 (85 t: 17 bomb points) stands at the Space
Port (chest "port", 0610); Bagnorgeio's chest ("city") is elsewhere.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.adapters.megamek.mms_writer import MmsFaction, MmsScenario, MmsUnit, mms_gaps
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.bombs import BombsBought, BuyBombs, bomb_points, bomb_rows, price
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.export import scenario_entities, scenario_mul, scenario_sheet
from mekref.rules.tripwire.turn.state import EngagementSetup

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
world = pytest.importorskip("turn.turn_world")
where = pytest.importorskip("test_rules_tripwire_where")

PORT = "0610"


def _start() -> CampaignState:
    state, _ = world.run(
        CampaignState(),
        *where.setup_commands(("air", PORT, ("L-RPR",)), ("alpha", "0508", ("L-GRF",))),
    )
    return state


def _buy(*bombs: tuple[str, int], unit: str = "L-RPR", pool: str = "port") -> BuyBombs:
    return BuyBombs(actor="loyalist", unit_id=unit, pool_id=pool, bombs=bombs)


def _refused(state: CampaignState, cmd: BuyBombs, code: str) -> str:
    with pytest.raises(Refusal) as caught:
        world.run(state, cmd)
    assert caught.value.code == code, str(caught.value)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_l84_bombs_cost_1_2_or_5_sp_each_by_tier() -> None:
    # L84: "| Purchase Bomb Loadout/Per Bomb (Intro/Standard/Advanced) | 1/2/5 |"
    assert (price("intro"), price("standard"), price("advanced")) == (1, 2, 5)
    rows = bomb_rows()
    # R-BOMB-1: the plain TW bombs are Intro, the other TW/TM bombs Standard, MegaMek's
    # advanced ammunition Advanced.
    assert {k for k, r in rows.items() if r.tier == "intro"} == {"he", "cluster"}
    assert {k for k, r in rows.items() if r.tier == "standard"} == {"lg", "rl", "tag"}
    assert rows["he"].internal == "HEBomb" and rows["as"].points == 6
    assert bomb_points(85) == 17 and bomb_points(25) == 5  # one point per 5 tons


def test_l84_buying_bombs_for_a_fighter_where_it_stands() -> None:
    # L84: "Purchase Bomb Loadout/Per Bomb (Intro/Standard/Advanced) | 1/2/5"
    state = _start()
    # Refused: a 'Mech carries no bombs ...
    why = _refused(state, _buy(("he", 2), unit="L-GRF", pool="city"), "not_a_bomber")
    assert "L84" in why
    # ... more than the Rapier's 17 bomb points (3 AS missiles take 18) ...
    _refused(state, _buy(("as", 3)), "no_room")
    # ... an unknown type ...
    _refused(state, _buy(("nuke", 1)), "bad_param")
    # ... paid from a pool that is not where the fighter stands (L58, R-WHERE-2).
    why = _refused(state, _buy(("he", 4), pool="city"), "pool_elsewhere")
    assert "L58" in why
    # Allowed: 4 HE (Intro, 1 each) + 2 LG (Standard, 2 each) + 1 Arrow IV (Advanced, 5) = 13 SP.
    after, (event,) = world.run(state, _buy(("he", 4), ("lg", 2), ("arrow", 1)))
    assert isinstance(event, BombsBought) and event.cost_sp == 13
    assert after.pools["port"].balance == 1000 - 13
    assert after.bombs["L-RPR"] == (("ArrowIVMissile Ammo", 1), ("HEBomb", 4), ("LGBomb", 2))
    # 4 + 2 + 5 = 11 of 17 points carried: 7 more HE do not fit, 6 do.
    _refused(after, _buy(("he", 7)), "no_room")
    after, _ = world.run(after, _buy(("he", 6)))
    assert dict(after.bombs["L-RPR"])["HEBomb"] == 10


def _with_engagement(state: CampaignState) -> CampaignState:
    assert state.strategic is not None
    e = EngagementSetup(engagement_id="e1", day=1, hex=PORT, kind="meeting",
                        sides=("loyalist",), formations=("air",), attacker=None, ambusher=None,
                        ambush_totals=(), objectives=(), map_sheets=(), terrain="plains",
                        weather="clear", arrivals=(), aerospace=(), command_centre=())  # fmt: skip
    return replace(state, strategic=replace(state.strategic, engagements=(e,)))


def test_ruling_r_bomb_2_bombs_go_out_in_the_unit_list_and_are_spent_by_a_battle() -> None:
    """R-BOMB-2: the bought bombs are written as MegaMek's ``<bombs>`` element of the fighter
    in the scenario's unit list (MegaMek's MULParser reads ``type`` as the bomb's internal name,
    ``load`` as the count); the scenario file (ScenarioV1) has no key for them and says so; the
    sheet lists them. A battle the fighter fought uses them up."""
    state, _ = world.run(_start(), _buy(("he", 4), ("cluster", 2)))
    state = _with_engagement(state)
    mul = read_mul_bytes(scenario_mul(state, "e1", "loyalist").encode("utf-8"), "e1.mul")
    (rapier,) = mul.entities
    assert rapier.bombs is not None
    assert [(b.type, b.load, b.internal) for b in rapier.bombs] == [
        ("ClusterBomb", 2, False),
        ("HEBomb", 4, False),
    ]
    assert "- Rapier RPR-300: 2 x ClusterBomb, 4 x HEBomb" in scenario_sheet(
        state, "e1", "loyalist"
    )
    entities = scenario_entities(state, "e1", "loyalist")
    scenario = MmsScenario(
        name="e1",
        description="",
        maps=(),
        factions=(
            MmsFaction(
                name="Loyalists",
                location="N",
                units=tuple(MmsUnit(entity=e) for _, e in entities),
            ),
        ),
    )
    gaps = mms_gaps(scenario)
    assert any("bombs (2 x ClusterBomb, 4 x HEBomb) not carried" in g for g in gaps)
    # A fighter without bombs writes no <bombs> element.
    plain = _with_engagement(_start())
    (bare,) = read_mul_bytes(
        scenario_mul(plain, "e1", "loyalist").encode("utf-8"), "e.mul"
    ).entities
    assert bare.bombs is None


def test_bombs_through_the_console_script(tmp_path: Path) -> None:
    """L84 through the installed ``mekref``: too many bombs are refused in one line; 4 HE and
    2 LG for the Rapier cost 8 SP from the Space Port's chest."""
    from console_script import mekref, start_tripwire

    db = str(tmp_path / "c.db")
    start, *rest = where.setup_commands(("air", PORT, ("L-RPR",)))
    campaign = start_tripwire(tmp_path, (start, *rest))
    buy = ("spend", "bombs", "--db", db, "--campaign", campaign, "--unit", "L-RPR",
           "--pool", "port")  # fmt: skip
    too_many = mekref(*buy, "--bomb", "alamo=2")
    assert too_many.returncode == 3 and "bomb point(s) free" in too_many.stderr
    assert len(too_many.stderr.strip().splitlines()) == 1
    bought = mekref(*buy, "--bomb", "he=4", "--bomb", "lg=2")
    assert bought.returncode == 0, bought.stderr
    assert "pool port (Port chest): 992 WP" in bought.stdout


def test_ruling_r_bomb_2_a_battle_the_fighter_fought_uses_its_bombs_up() -> None:
    """R-BOMB-2: after a battle the fighter fought, its bought bombs are gone (the rest of the
    side keeps theirs); bombs bought again go out in the next export."""
    from mekref.rules.tripwire.battle_messages import BattleResolved
    from mekref.rules.tripwire.battle_model import (
        Battle,
        BattleResolution,
        Fate,
        RepairLine,
        UnitDamage,
        UnitOutcome,
    )
    from mekref.rules.tripwire.game import TRIPWIRE

    state, _ = world.run(_start(), _buy(("he", 4)))
    state = replace(state, bombs={**state.bombs, "L-OTHER": (("HEBomb", 1),)})
    battle = Battle(battle_id="b1", number=1)
    state = replace(state, battles=replace(state.battles, battles={"b1": battle}))
    line = RepairLine(armor_sp=0, armor_deferred_sp=0, internal_sp=0, rearm_sp=0, total_sp=0,
                      tech_hours=0, repairable=True, needs_repair_facility=False)  # fmt: skip
    outcome = UnitOutcome(unit_id="L-RPR", side_id="loyalist", fate=Fate.OPERATIONAL,
                          damage=UnitDamage(locations=()), repair=line)  # fmt: skip
    res = BattleResolution(control_side="loyalist", track=1, units=(outcome,), people=(),
                           sides=(), conflicts=())  # fmt: skip
    after = TRIPWIRE.evolve(state, BattleResolved(battle_id="b1", resolution=res, actor="ref"))
    assert "L-RPR" not in after.bombs and after.bombs["L-OTHER"] == (("HEBomb", 1),)
