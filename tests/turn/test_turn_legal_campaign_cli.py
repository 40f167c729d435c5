"""The legal Ginestra sample (daemon/samples/ginestra/legal) played from Day Zero to each ending
through the installed ``mekref`` console script only: the battalions and militias imported
checked (no ``--unchecked``) with the sample's BV table, orders, days resolved, the engagements
exported for MegaMek and the battles written back as MegaMek end-of-game files (built from the
exported lists with the project's MUL writer, as in test_turn_campaign_endings_cli.py).

BV (the sample's Units.txt; every figure from the MegaMek Unit Digest, legal/README.md):
Atlas 1897, Marauder 1363, Griffin 1272, Wolverine 1101, Shadow Hawk 1064, Jenner 875, Locust
432, Bulldog 605, Maxim (Fire Support) 869, Maxim 764, Manticore 993, Foot Platoon (Rifle) 90;
the Chippewa has none. Rebel formations: bravo (Alpha Command Lance: Atlas, Marauder, Shadow
Hawk, Jenner) 5199; r-alpha-battle (Griffin, 2 Wolverines, Locust) 3906; r-alpha-recon (Jenner,
Locust, Griffin, Shadow Hawk) 3643; r-bravo-command (Marauder, Atlas, 2 Shadow Hawks) 5388;
r-bravo-fire (2 Griffins, 2 Wolverines) 4746. Loyalists: alpha (Griffin, Wolverine, Shadow Hawk,
Locust) 3869 at the Facility (1105); at Bagnorgeio (0508) l-alpha-recon 3454, l-bravo-command
5388, l-bravo-scout 2614, the Loyalist Militia (2 Manticores, 2 Maxims) 3514 and the Government
Guard (2 rifle platoons, the leader's escort) 180: 15150. Starting BV without the fighters:
loyalist 33827, rebel 33528.

Each side carries its DropShips (L9: a Union (3055) for Alpha and for Bravo, the Gazelle for
Charlie; no BV in the table), the loyalists' on the Space Port, the rebels' at the pirate point.

1. 10 VP (L414). Day 1: bravo lands on the Facility, r-alpha-recon on Bagnorgeio: both opposed,
   loyalist strategic 1 (the Space Port); Alpha's Union, its pool linked by command (T-C3),
   lands on the Forward Deployment Base (1712) and on day 2 loads its 250 WP from the base's
   chest by a Load/Unload order (L59, T-WP1): 750 left there. At 1105 the Atlas and the
   Marauder are wrecked: 3260 of 5199 (62.7%, the 50% row): loyalist +2. At 0508 the Griffin
   and a Shadow Hawk are wrecked: 2336 of 3643 (64.1%): loyalist +2; battle VP 4. The referee
   moves the beaten lances back (T-E7). Day 2: r-alpha-battle lands on the Facility (loyalist
   strategic 4: Bagnorgeio 1 and the seat 2, the Space Port 1); both Wolverines wrecked, 2202
   of 3906 (56.4%): loyalist +2, battle VP 6, total 6 + 4 = 10: the battle ends the campaign.
2. Attrition (L412). The fighters and the DropShips have no BV, so the end by attrition is not
   known until the referee records theirs (R-VP-6): here 1000 each, the test's stand-in for the
   figure a group reads in MegaMek's unit selector. Rebel start 33528 + 4000 (four Chippewas)
   + 3000 (two Unions and the Gazelle) = 40528. Day 1: five rebel lances
   land on the Facility (22882 BV) and all twenty 'Mechs are truly destroyed. The rebels' file
   has no survivor and no kill line, but shows every rebel unit destroyed: it is the rebels'
   own view (BR-1), so the battle resolves as it is ingested, without the referee (loyalist
   +3: the 50% row and the rebels' Force Commander killed in her Atlas): 40528 - 22882 =
   17646, 43.5% < 50%: the campaign ends.
3. Leader captured (L162, L413). Day 1: r-alpha-recon lands on Bagnorgeio; both Guard platoons
   lose every trooper: the loyalists lose 180 of 15150 (1.2%, no row): 0 VP each. The referee
   rules the leader captured and carried to the rebels' DropShip: the campaign ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ginestra_cli import legal_day_zero, legal_export, legal_ingest, ok
from test_turn_campaign_endings_cli import (
    TRULY,
    WRECK,
    _engagements,
    _over,
    _report,
    _standing,
    battle_files,
)


def _orders(db: str, day: int, *orders: str, params: tuple[str, ...] = ()) -> str:
    """The rebels' orders for ``day`` (the loyalists stand where they were placed), resolved;
    ``params``: ``FORMATION:KEY=VALUE`` parameters of the orders."""
    given = [x for order in orders for x in ("--order", order)]
    given += [x for param in params for x in ("--param", param)]
    ok("orders", "submit", "--db", db, "--side", "rebel", "--day", str(day), *given)
    return ok("turn", "resolve", "--db", db, "--day", str(day))


def _sides(report: dict[str, Any], engagement: str) -> dict[str, tuple[int, int, int]]:
    """Per side of the battle of ``engagement``: its BV there, the BV destroyed, its VP."""
    (battle,) = [b for b in report["battles"] if b["engagement_id"] == engagement]
    assert battle["status"] == "resolved" and battle["units_without_bv"] == []
    return {x["side"]: (x["starting_bv"], x["destroyed_bv"], x["vp"]) for x in battle["sides"]}


def test_ten_vp_on_the_legal_sample(tmp_path: Path) -> None:
    # L414: "Once a force reaches 10 Victory Points the campaign is over and the player with the
    # most victory points wins." L420: "| 50% of Enemy force destroyed | 2 |".
    db = legal_day_zero(tmp_path)
    # L59: "Each Union DropShip carries 250 WP ... WarChest Points may be moved from one location
    # to another, but this requires a Load/Unload action." Alpha's Union gets its pool (empty)
    # by command after the set-up (ruling T-C3) and lands on the rebels' Forward Deployment Base.
    ok("pool", "open", "--db", db, "--side", "rebel", "--id", "r-union-a", "--name",
       "Alpha's Union", "--dropship", "Union", "--balance", "0")  # fmt: skip
    (union,) = [u["id"] for u in _report(db)["units"] if u["side"] == "rebel"
                and u["chassis"] == "Union" and u["company"] == "Alpha Company"]  # fmt: skip
    ok("pool", "link", "--db", db, "--side", "rebel", "--pool", "r-union-a", "--unit", union)
    day1 = _orders(db, 1, "bravo:orbital_insertion::1105", "r-alpha-recon:orbital_insertion::0508",
                   "r-union-a:orbital_insertion::1712")  # fmt: skip
    assert "strategic VP: loyalist 1, rebel 0" in day1
    (at_capital, at_facility) = sorted(_engagements(day1))
    assert at_capital.startswith("day1-0508-") and at_facility.startswith("day1-1105-")
    legal_export(db, tmp_path)
    legal_ingest(db, battle_files(tmp_path, at_facility,
                             {"rebel:Atlas": (WRECK,), "rebel:Marauder": (WRECK,)}))  # fmt: skip
    wrecked = {"rebel:Griffin": (WRECK,), "rebel:Shadow Hawk": (WRECK,)}
    legal_ingest(db, battle_files(tmp_path, at_capital, wrecked))
    report = _report(db)
    assert _sides(report, at_facility) == {"loyalist": (3869, 0, 2), "rebel": (5199, 3260, -2)}
    assert _sides(report, at_capital) == {"loyalist": (15150, 0, 2), "rebel": (3643, 2336, -2)}
    # VP known; the share of the starting BV is not (the fighters have no BV: None, never 0).
    assert _standing(report) == {
        "loyalist": (4, 1, 5, 33827, None),
        "rebel": (0, 0, 0, 33528, None),
    }
    for formation, hex_ in (("bravo", "1106"), ("r-alpha-recon", "0509")):
        ok("turn", "reposition", "--db", db, "--formation", formation, "--hex", hex_,
           "--referee", "Ann", "--reason", "beaten, falls back")  # fmt: skip

    load = ("r-union-a:from=forward-deployment-base", "r-union-a:to=r-union-a", "r-union-a:wp=250")
    day2 = _orders(db, 2, "r-alpha-battle:orbital_insertion::1105", "r-union-a:load_unload",
                   params=load)  # fmt: skip
    assert "strategic VP: loyalist 4, rebel 0" in day2
    pools = {p["id"]: p["balance"] for p in _report(db)["pools"] if p["side"] == "rebel"}
    assert pools == {"forward-deployment-base": 750, "r-union-a": 250}
    (again,) = _engagements(day2)
    legal_export(db, tmp_path / "day2")
    out = legal_ingest(
        db, battle_files(tmp_path / "day2", again, {"rebel:Wolverine": (WRECK, WRECK)})
    )
    reason = "loyalist reached 10 VP; most VP: loyalist"
    assert f"the campaign has ended: {reason}" in out
    report = _report(db)
    assert _sides(report, again) == {"loyalist": (3869, 0, 2), "rebel": (3906, 2202, -2)}
    assert report["ending"]["ended"] == reason
    assert _standing(report)["loyalist"] == (6, 4, 10, 33827, None)
    _over(db, reason, next_day=3)


def test_attrition_on_the_legal_sample_once_the_fighters_bv_is_recorded(tmp_path: Path) -> None:
    # L412: "The campaign is a success when all the opponents forces are reduced to less than
    # 50% of their starting combat effectiveness, based on the BV of operational units, or units
    # that could be repaired." (R-VP-3: a side with a unit of no BV has no share until it is
    # recorded, R-VP-6.)
    db = legal_day_zero(tmp_path)
    aero = [(u["id"], u["chassis"]) for u in _report(db)["units"]
            if u["chassis"] in ("Chippewa", "Union", "Gazelle")]  # fmt: skip
    assert sorted(c for _, c in aero) == ["Chippewa"] * 8 + ["Gazelle"] * 2 + ["Union"] * 4
    for unit, chassis in aero:
        ok("battle", "bv", "--db", db, "--unit", unit, "--bv", "1000", "--held-at-start",
           "--referee", "Ann", "--reason", f"{chassis}, MegaMek's unit selector")  # fmt: skip
    assert _standing(_report(db)) == {
        "loyalist": (0, 0, 0, 40827, 100.0),
        "rebel": (0, 0, 0, 40528, 100.0),
    }
    lances = ("bravo", "r-alpha-battle", "r-alpha-recon", "r-bravo-command", "r-bravo-fire")
    day1 = _orders(db, 1, *(f"{f}:orbital_insertion::1105" for f in lances))
    (engagement,) = _engagements(day1)
    legal_export(db, tmp_path)
    every = {f"rebel:{c}": (TRULY,) * 6
             for c in ("Atlas", "Marauder", "Griffin", "Wolverine", "Shadow Hawk", "Jenner",
                       "Locust")}  # fmt: skip
    out = legal_ingest(db, battle_files(tmp_path, engagement, every))
    # The rebels' file has no survivor and no kill line, and every rebel unit in it is
    # destroyed: it is the rebels' own view (ruling BR-1), so the battle does not wait for a
    # rebel file that cannot come, nor for the referee's 'battle close'.
    assert "missing rebel" not in out and "view of side rebel" in out
    reason = (
        "rebel fell below 50% of its starting BV: 17646 of 40528 BV (43.5%) in operational or "
        "repairable units"
    )
    assert f"the campaign has ended: {reason}" in out
    report = _report(db)
    # L420 "| 50% of Enemy force destroyed | 2 |" and L421 "| Enemy Force Commander
    # captured/killed | 1* |": Alpha's Force Commander went down with her Atlas.
    assert _sides(report, engagement) == {"loyalist": (3869, 0, 3), "rebel": (22882, 22882, -3)}
    assert report["ending"]["ended"] == reason
    _over(db, reason, next_day=2)


def test_the_leader_captured_on_the_legal_sample(tmp_path: Path) -> None:
    # L162: "Each leader can be escorted by a platoon of infantry or a squad of BattleArmor
    # (becoming part of that unit). If the unit is destroyed the leader can be captured. If a
    # leader is captured and returned to the opposinng players DropShip the campaign ends."
    db = legal_day_zero(tmp_path)
    day1 = _orders(db, 1, "r-alpha-recon:orbital_insertion::0508")
    (engagement,) = _engagements(day1)
    legal_export(db, tmp_path)
    out = legal_ingest(db, battle_files(tmp_path, engagement,
                                   {"loyalist:Foot Platoon": (TRULY, TRULY)}),
                  control="rebel")  # fmt: skip
    assert "the campaign has ended" not in out
    report = _report(db)
    assert _sides(report, engagement) == {"loyalist": (15150, 180, 0), "rebel": (3643, 0, 0)}
    out = ok("campaign", "capture-leader", "--db", db, "--side", "loyalist", "--referee", "Ann",
             "--reason", "the Guard destroyed in Bagnorgeio; the leader carried to the rebels' "
             "DropShip")  # fmt: skip
    reason = "the leader of loyalist was captured"
    # The battle that destroyed the Guard is the capture's ground (ruling T-L1): no override.
    assert "the escort was destroyed in battle" in " ".join(out.split())
    assert f"the campaign has ended: {reason}" in " ".join(out.split())
    assert _report(db)["ending"]["ended"] == reason
    _over(db, reason, next_day=2)
