"""Repairing turrets (ruling T-T1 in docs/turn.md).

L275: "Turrets are CF150 1 Hex Level 2 Towers that may accept 15 tons of Weapons. ... Players may
spend 100 WP to repair a damaged turret but not if the CF has been reduced to 0." L157:
"Bagnorgeio: 1000 WP. ... 3 AntiAircraft Twin AC/5 turrets."

On the Ginestra map of the where tests: the loyalists hold Bagnorgeio (chest "city", 0508) and
the Space Port (chest "port", 0610).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mekref.rules.messages import RefereeNote
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.events import FacilityDestroyed, TurretRepaired
from mekref.rules.tripwire.turn.turrets import (
    RecordTurretDamage,
    RepairTurret,
    turret_cf,
    turret_counts,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
world = pytest.importorskip("turn.turn_world")
where = pytest.importorskip("test_rules_tripwire_where")

NOTE = RefereeNote(referee="Ann", reason="battle 2: the Marauder's PPCs hit the towers")
CITY = "Bagnorgeio"


def _start() -> CampaignState:
    state, _ = world.run(CampaignState(), *where.setup_commands(("guard", "0508", ("L-GRF",))))
    return world.run(
        state,
        RecordTurretDamage(actor="Ann", location=CITY, turret=2, cf=90, note=NOTE),
        RecordTurretDamage(actor="Ann", location=CITY, turret=3, cf=0, note=NOTE),
    )[0]


def _repair(turret: int, pool: str = "city", side: str = "loyalist") -> RepairTurret:
    return RepairTurret(actor=side, side_id=side, location=CITY, turret=turret, pool_id=pool)


def _refused(state: CampaignState, cmd: object, code: str) -> str:
    with pytest.raises(Refusal) as caught:
        world.run(state, cmd)
    assert caught.value.code == code, str(caught.value)
    return str(caught.value)


def test_the_turret_table_follows_lines_157_to_160() -> None:
    # L157/L158: "3 AntiAircraft Twin AC/5 turrets"; L159/L160: "Turret Defence (2 x Twin AC10,
    # 2 x Quad LRM15, 2 x Twin ER PPCs, 2 x Quad Lasers 1LL/2ML/1SL)" = 8 turrets.
    assert turret_counts() == {
        "Bagnorgeio": 3,
        "Bagnorgeio Space Port": 3,
        "Forward Deployment Base": 8,
        "Combat Systems Manufacturing Facility": 8,
    }


def test_l275_100_wp_repair_a_damaged_turret_but_not_at_cf_0() -> None:
    # L275: "Players may spend 100 WP to repair a damaged turret but not if the CF has been
    # reduced to 0."
    state = _start()
    assert turret_cf(state, CITY) == (150, 90, 0)
    # Refused: CF 0 ...
    why = _refused(state, _repair(3), "beyond_repair")
    assert "L275 'Players may spend 100 WP" in why
    # ... a turret that is not damaged, one that does not exist, a location without turrets ...
    _refused(state, _repair(1), "not_damaged")
    _refused(state, _repair(4), "bad_target")
    _refused(
        state,
        RepairTurret(actor="l", side_id="loyalist", location="Arda Valley", turret=1,
                     pool_id="city"),
        "bad_target",
    )  # fmt: skip
    # ... paid from a pool that is not at the location (L58, R-WHERE-2) ...
    _refused(state, _repair(2, pool="port"), "pool_elsewhere")
    # ... by a side that does not hold the location.
    _refused(state, _repair(2, side="rebel"), "not_held")
    # Allowed: turret 2 (CF 90) back to CF 150 for 100 WP from Bagnorgeio's chest.
    after, (event,) = world.run(state, _repair(2))
    assert isinstance(event, TurretRepaired) and (event.cf_before, event.cf, event.wp) == (
        90,
        150,
        100,
    )
    assert turret_cf(after, CITY) == (150, 150, 0)
    assert after.pools["city"].balance == 900


def test_ruling_t_t1_destroyed_turrets_are_at_cf_0() -> None:
    """T-T1: turrets destroyed by the Destruction action (line 219: "Only Ammunition Dumps, Fuel
    Dumps and Turrets are military targets") count as CF 0: beyond repair."""
    state = _start()
    destroyed = FacilityDestroyed(
        location=CITY, facility="turrets", by_force="rebel", civilian=False
    )
    from mekref.rules.tripwire.game import TRIPWIRE

    state = TRIPWIRE.evolve(state, destroyed)
    why = _refused(state, _repair(2), "beyond_repair")
    assert "CF 0" in why


def test_turret_repair_through_the_console_script(tmp_path: Path) -> None:
    """T-T1 through the installed ``mekref``: the referee records the damage (refused without
    a referee), an undamaged turret's repair is refused, a damaged one repaired for 100 WP."""
    from console_script import mekref, start_tripwire

    db = str(tmp_path / "c.db")
    start, *rest = where.setup_commands(("guard", "0508", ("L-GRF",)))
    campaign = start_tripwire(tmp_path, (start, *rest))
    base = ("--db", db, "--campaign", campaign)
    record = ("turn", "turret-damage", *base, "--location", CITY, "--turret", "2", "--cf", "60")
    no_referee = mekref(*record)
    assert no_referee.returncode != 0 and "--referee" in no_referee.stderr
    recorded = mekref(*record, "--referee", "Ann", "--reason", "battle 2")
    assert recorded.returncode == 0, recorded.stderr
    repair = ("spend", "turret", *base, "--side", "loyalist", "--location", CITY,
              "--pool", "city")  # fmt: skip
    whole = mekref(*repair, "--turret", "1")
    assert whole.returncode == 3 and "L275 'Players may spend 100 WP" in whole.stderr
    assert len(whole.stderr.strip().splitlines()) == 1
    repaired = mekref(*repair, "--turret", "2")
    assert repaired.returncode == 0, repaired.stderr
    assert "pool city (City chest): 900 WP" in repaired.stdout
