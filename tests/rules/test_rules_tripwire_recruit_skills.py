"""Rolling recruits' skills (ruling R-HIRE-3 in docs/rulings.md).

L232: "Roll personnel skills using Total Warfare." L233: "Purchasing Experienced personnel –
Pilots or crews with different experience levels cost different amounts of Support Points."
L237: "| Green | 10 |". On the Ginestra map of the where tests (the loyalists' chest "city").
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.battle_spending import PersonHired
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.recruit_skills import (
    RECRUIT_LEVELS,
    HireRecruit,
    level_columns,
    skills_for,
)
from mekref.rules.tripwire.state import CampaignState

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
world = pytest.importorskip("turn.turn_world")
where = pytest.importorskip("test_rules_tripwire_where")


def _start(found: int = 1) -> CampaignState:
    state, _ = world.run(CampaignState(), *where.setup_commands(("alpha", "0508", ("L-GRF",))))
    assert state.strategic is not None
    # A Recruit action found one MechWarrior for the loyalists (R-HIRE-2).
    recruits = {"loyalist": {"mechwarrior": found}}
    return replace(state, strategic=replace(state.strategic, recruits=recruits))


def _hire(level: str, person: str = "P-NEW") -> HireRecruit:
    return HireRecruit(actor="loyalist", person_id=person, side_id="loyalist", pool_id="city",
                       name="Ota Brand", level=level, hire_as="mechwarrior")  # fmt: skip


def test_l232_the_random_skills_table_by_training_level() -> None:
    # L232: "Roll personnel skills using Total Warfare." (Total Warfare's Random Skills Table,
    # as MegaMek's TotalWarfareSkillGenerator rolls it.)
    assert tuple(level_columns()) == ("Very Green", "Green", "Regular", "Veteran", "Elite")
    assert skills_for("Very Green", 1, 1) == (6, 7)
    assert skills_for("Green", 6, 6) == (4, 5)
    assert skills_for("Regular", 6, 6) == (3, 4)
    assert skills_for("Elite", 6, 6) == (1, 2)
    # R-HIRE-3: a Regular rolling 6 for Gunnery (3) and 1 for Piloting (6) is 3/5: L47 "a
    # maximum difference of 2 between Gunnery and Piloting" brings the worse skill within 2.
    assert skills_for("Regular", 6, 1) == (3, 5)
    assert skills_for("Regular", 1, 6) == (4, 4)


def test_ruling_r_hire_3_a_recruit_hired_at_a_level_gets_rolled_skills() -> None:
    """R-HIRE-3: the side pays the level's price (L237: Green 10) and the skills are two named
    1D6 rolls on the table, kept in the event."""
    state = _start()
    # Refused: a level the table has no row for, and a Civilian (no combat skills).
    for level in ("Heroic", "Civilian"):
        with pytest.raises(Refusal) as caught:
            world.run(state, _hire(level))
        assert caught.value.code == "bad_level" and "L232" in str(caught.value)
    # Refused: no recruit found (R-HIRE-2) still applies.
    with pytest.raises(Refusal) as caught:
        world.run(_start(found=0), _hire("Green"))
    assert caught.value.code == "no_recruit"
    # Allowed: a Green MechWarrior, 10 SP, skills from the two dice the campaign rolls next.
    expected = TRIPWIRE.dice_for(state)  # the dice the next decision uses
    g, expected = expected.roll("recruit gunnery, P-NEW", 1)
    p, _ = expected.roll("recruit piloting, P-NEW", 1)
    after, (hired,) = world.run(state, _hire("Green"))
    assert isinstance(hired, PersonHired)
    assert [r.name for r in hired.rolls] == ["recruit gunnery, P-NEW", "recruit piloting, P-NEW"]
    assert (hired.gunnery, hired.piloting) == skills_for("Green", g.total, p.total)
    assert hired.cost_sp == 10 and hired.rolled_level == "Green"
    assert after.pools["city"].balance == 990
    assert after.people["P-NEW"].gunnery == hired.gunnery


def test_the_training_levels_are_a_closed_list_read_without_case() -> None:
    """L232's table rows are the list the API's ``level_enum`` is written from: a level in
    another case is that row (as the typed words read it); one the table lacks is refused."""
    assert tuple(level_columns()) == RECRUIT_LEVELS
    state = _start()
    _, (hired,) = world.run(state, _hire("very green"))
    assert isinstance(hired, PersonHired) and hired.rolled_level == "Very Green"
    with pytest.raises(Refusal) as caught:
        world.run(state, _hire("Superhuman"))
    assert caught.value.code == "bad_level"


def test_hiring_with_rolled_skills_through_the_console_script(tmp_path: Path) -> None:
    """L232 through the installed ``mekref``: skills given and rolled at once is refused; a
    Regular rolled on the referee's word (no Recruit action on this map yet, R-HIRE-2) costs
    100 SP and prints the two dice."""
    from console_script import mekref, start_tripwire

    db = str(tmp_path / "c.db")
    start, *rest = where.setup_commands(("alpha", "0508", ("L-GRF",)))
    campaign = start_tripwire(tmp_path, (start, *rest))
    hire = ("spend", "hire", "--db", db, "--campaign", campaign, "--side", "loyalist",
            "--pool", "city", "--name", "Ota Brand", "--as", "mechwarrior")  # fmt: skip
    both = mekref(*hire, "--roll-skills", "Regular", "--gunnery", "4")
    assert both.returncode != 0 and "not both" in both.stderr
    no_recruit = mekref(*hire, "--roll-skills", "Regular")
    assert no_recruit.returncode == 3 and "R-HIRE-2" in no_recruit.stderr
    rolled = mekref(*hire, "--roll-skills", "Regular", "--referee", "Ann", "--reason", "agreed")
    assert rolled.returncode == 0, rolled.stderr
    assert "recruit gunnery, " in rolled.stdout and "recruit piloting, " in rolled.stdout
    assert "rolled_level=Regular" in rolled.stdout
    assert "pool city (City chest): 900 WP" in rolled.stdout
