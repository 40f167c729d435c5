"""The house rules' experience in a TripWire campaign created with the house rules (their lines
104, 153-154): XP for every battle survived, the group's price list, spending it on the stored
Piloting and Gunnery. Rulings HOUSE-36 to HOUSE-39; the console script's run is in
tests/turn/test_turn_house_xp_cli.py.

L154: "Mechwarriors gain 1 experience point for each battle that they survive through."
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hr_helpers import LINES, UNITS

from mekref.adapters.megamek.mtf_reader import parse_mtf
from mekref.daemon.tripwire.cli_house_xp import example_text, read_costs
from mekref.rules.codec import canonical_json
from mekref.rules.house_rules.advancement import SkillCost, check_costs
from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal
from mekref.rules.tripwire.acting_side import acting_side
from mekref.rules.tripwire.battle_messages import BattleResolved
from mekref.rules.tripwire.battle_model import RecordSection
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.designs import record_designs
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.house_xp import (
    SetXpCosts,
    SpendXp,
    XpCostsSet,
    XpGained,
    XpSpent,
)
from mekref.rules.tripwire.house_xp_ledger import HouseExperience
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.training import Skill, Trainee, TrainingRoute, training_cost
from mekref.rules.tripwire.visibility import visible_payload

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "battle"))
states = pytest.importorskip("states")

L104 = LINES[103]
L153 = LINES[152]
L154 = LINES[153]
#: The group's prices of these tests (the text prints none, HOUSE-24).
COSTS = (
    SkillCost(skill="gunnery", to_level=3, xp=6),
    SkillCost(skill="gunnery", to_level=2, xp=16),
    SkillCost(skill="piloting", to_level=4, xp=5),
)


def _campaign(house_rules: bool = True) -> CampaignState:
    """Red: r1 and r2 (Griffins), Blue: b1; every pilot Gunnery 4, Piloting 5."""
    state = CampaignState()
    for cmd in (
        CreateCampaign(
            name="XP",
            ruleset="tripwire",
            seed="house-xp",
            sides=(SideSpec(side_id="red", name="Red"), SideSpec(side_id="blue", name="Blue")),
            house_rules=house_rules,
            actor="t",
        ),
        ImportForce(
            side_id="red",
            force=states.force(states.fu("r1"), states.fu("r2")),
            accept_unchecked=states.NOTE,
            actor="t",
        ),
        ImportForce(
            side_id="blue", force=states.force(states.fu("b1")), accept_unchecked=states.NOTE,
            actor="t",
        ),
    ):  # fmt: skip
        _, state = TRIPWIRE.execute(state, cmd)
    return state


def _battle(state: CampaignState, sha: str, r1_hits: int = 0) -> tuple[list[Event], CampaignState]:
    """A battle: r1 unhurt, r2's pilot killed (6 hits), b1's pilot wounded (2 hits); the
    referee closes it, red holding the field."""
    f = states.file(
        sha,
        states.seen("r1", RecordSection.SURVIVORS, hits=r1_hits),
        states.seen("r2", RecordSection.SURVIVORS, hits=6),
        states.seen("b1", RecordSection.SURVIVORS, hits=2),
    )
    events, state = states.run(state, states.submit(f))
    battle_id = next(e.battle_id for e in events if hasattr(e, "battle_id"))
    more, state = states.run(state, states.close(battle_id, "red"))
    return [*events, *more], state


def _do(state: CampaignState, cmd: Command) -> tuple[list[Event], CampaignState]:
    return TRIPWIRE.execute(state, cmd)


def _refused(state: CampaignState, cmd: Command) -> Refusal:
    with pytest.raises(Refusal) as caught:
        TRIPWIRE.execute(state, cmd)
    return caught.value


def test_ruling_survivors_of_a_tripwire_battle_gain_one_xp() -> None:
    """HOUSE-36. L154: "Mechwarriors gain 1 experience point for each battle that they survive
    through." — every person of the battle's resolution not killed gains 1 XP, one event per
    side, right after the resolution; the killed gain nothing."""
    assert L154 == "Mechwarriors gain 1 experience point for each battle that they survive through."
    events, state = _battle(_campaign(), "a")
    kinds = [type(e) for e in events]
    assert kinds.index(XpGained) == kinds.index(BattleResolved) + 1
    gains = [e for e in events if isinstance(e, XpGained)]
    assert [(g.side_id, g.people, g.xp) for g in gains] == [
        ("blue", ("p-b1",), 1),  # wounded, alive
        ("red", ("p-r1",), 1),  # p-r2 was killed
    ]
    assert state.house_experience.xp == {"p-b1": 1, "p-r1": 1}
    # Each battle survived: one more.
    _, state = _battle(state, "b", r1_hits=1)
    assert state.house_experience.xp_of("p-r1") == 2
    assert state.house_experience.xp_of("p-r2") == 0


def test_without_the_house_rules_a_battle_gives_no_xp_and_the_state_is_unchanged() -> None:
    events, state = _battle(_campaign(house_rules=False), "a")
    assert not any(isinstance(e, XpGained) for e in events)
    assert state.house_experience == HouseExperience()
    assert "house_experience" not in canonical_json(state)
    refused = _refused(state, SetXpCosts(costs=COSTS, actor="ref"))
    assert refused.code == "no_house_rules"
    assert "L154" in refused.message and "--house-rules" in refused.message


def test_ruling_imported_people_keep_their_skills_and_start_with_no_xp() -> None:
    """HOUSE-37. L153: "Mechwarriors start with a base piloting and gunnery skill of 7. Each
    Mechwarrior is given a random amount of experience points to represent previous training."
    — that is how the house rules make a MechWarrior; a TripWire person comes from a MegaMek
    list (or a hire) with skills already paid for: they keep them, with 0 XP."""
    assert L153.startswith("Mechwarriors start with a base piloting and gunnery skill of 7.")
    state = _campaign()
    person = state.people["p-r1"]
    assert (person.gunnery, person.piloting) == (4, 5)
    assert state.house_experience.xp_of("p-r1") == 0
    # No price list yet: spending says how to enter one.
    refused = _refused(state, SpendXp(person_id="p-r1", skill=Skill.GUNNERY, actor="t"))
    assert refused.code == "no_xp_costs"
    assert "mekref spend xp-costs --file" in refused.message


def test_ruling_the_groups_costs_are_checked_and_replaced_whole() -> None:
    """HOUSE-37 (the group's price list, HOUSE-24): checked as the house rules check it, a new
    list replaces the old one."""
    state = _campaign()
    twice = (*COSTS, SkillCost(skill="gunnery", to_level=3, xp=7))
    assert _refused(state, SetXpCosts(costs=twice, actor="ref")).code == "duplicate_cost"
    events, state = _do(state, SetXpCosts(costs=COSTS, actor="ref"))
    assert [type(e) for e in events] == [XpCostsSet]
    assert len(state.house_experience.costs) == 3
    _, state = _do(state, SetXpCosts(costs=COSTS[:1], actor="ref"))
    assert state.house_experience.costs == COSTS[:1]


def test_the_bundled_example_is_the_groups_choice_and_a_valid_list() -> None:
    """HOUSE-37: the example file (``mekref spend xp-costs --example``) says the numbers are one
    group's, not the text's, and passes the house rules' checks: every step of both skills."""
    text = example_text()
    assert "NOT the text's" in text and "HOUSE-24" in text
    costs = check_costs(read_costs(text, "example"))
    assert {(c.skill, c.to_level) for c in costs} == {
        (skill, level) for skill in ("gunnery", "piloting") for level in range(8)
    }


def _with_xp(state: CampaignState, xp: int, pid: str = "p-r1") -> CampaignState:
    ledger = replace(state.house_experience, xp={pid: xp}, costs=COSTS)
    return replace(state, house_experience=ledger)


def test_ruling_spending_lowers_the_stored_skill_at_the_groups_price() -> None:
    """HOUSE-38. L153: "... that experience may be spent on the piloting and gunnery skill" —
    one point per command at the group's price; the person's stored skill (the one the export
    writes) changes; short of XP it is refused quoting L154."""
    state = _with_xp(_campaign(), 10)
    events, state = _do(state, SpendXp(person_id="p-r1", skill=Skill.GUNNERY, actor="t"))
    (spent,) = events
    assert isinstance(spent, XpSpent)
    assert (spent.price.before, spent.price.after, spent.price.total) == (4, 3, 6)
    assert (spent.xp_left, spent.rank_before, spent.rank_after) == (4, "Regular", "Regular")
    assert state.people["p-r1"].gunnery == 3
    assert (state.house_experience.xp_of("p-r1"), state.house_experience.spent_by("p-r1")) == (
        4,
        6,
    )
    short = _refused(state, SpendXp(person_id="p-r1", skill=Skill.GUNNERY, actor="t"))
    assert short.code == "not_enough_xp"
    assert "has 4 XP; gunnery 3 -> 2 costs 16" in short.message
    assert f"L154: '{L154}'" in short.message


def test_ruling_spending_xp_and_tripwire_training_both_stay_open() -> None:
    """HOUSE-38: the house rules' XP and TripWire's WP training (L110) both lower the same
    stored skill; each prices the next step from the skill as it now is. The person's side
    spends (a side token may, for its own people only); the price list is the referee's."""
    state = _with_xp(_campaign(), 10)
    _, state = _do(state, SpendXp(person_id="p-r1", skill=Skill.GUNNERY, actor="t"))
    trainee = Trainee(
        person_id="p-r1", gunnery=3, piloting=5, took_part_with_kill=True,
        trained_this_contract=False,
    )  # fmt: skip
    assert training_cost(trainee, Skill.PILOTING, TrainingRoute.KILL) > 0
    assert acting_side(state, SpendXp(person_id="p-r1", skill=Skill.GUNNERY, actor="t")) == "red"
    assert acting_side(state, SpendXp(person_id="p-b1", skill=Skill.GUNNERY, actor="t")) == "blue"
    assert acting_side(state, SetXpCosts(costs=COSTS, actor="t")) is None
    # The prices are everyone's to read; a side's gains and spends are its own.
    prices = TRIPWIRE.events.to_json(XpCostsSet(costs=COSTS))
    assert visible_payload("blue", "XpCostsSet", dict(prices), state) is not None
    gain = TRIPWIRE.events.to_json(XpGained(side_id="red", battle_id="b", people=("p-r1",), xp=1))
    assert visible_payload("blue", "XpGained", dict(gain), state) is None
    assert visible_payload("red", "XpGained", dict(gain), state) is not None


def test_ruling_a_lam_pilot_pays_six_more_for_piloting() -> None:
    """HOUSE-39. L104: "LAM pilots must also spend 6 experience points in order to lower their
    piloting skill by one" — a person seated in a 'Mech whose recorded design is a LAM pays
    the group's price + 6 for Piloting (HOUSE-25); Gunnery costs the same as anyone's. A
    'Mech without a design on record cannot tell: its pilot's Piloting step is refused."""
    assert L104.startswith("LAM pilots must also spend 6 experience points")
    state = _with_xp(_campaign(), 20)
    no_design = _refused(state, SpendXp(person_id="p-r1", skill=Skill.PILOTING, actor="t"))
    assert no_design.code == "design_unknown" and "mekref force designs" in no_design.message
    lam = parse_mtf((UNITS / "Shadow Hawk LAM SHD-X2.mtf").read_text("utf-8"), "lam")
    recorded = record_designs("red", {"r1": lam}, "t")
    assert recorded is not None
    _, state = _do(state, recorded)
    events, state = _do(state, SpendXp(person_id="p-r1", skill=Skill.PILOTING, actor="t"))
    (spent,) = events
    assert isinstance(spent, XpSpent)
    assert (spent.price.base_xp, spent.price.lam_xp, spent.price.total) == (5, 6, 11)
    assert state.people["p-r1"].piloting == 4
    assert state.house_experience.xp_of("p-r1") == 9
    # Gunnery: the group's price alone.
    events, _ = _do(state, SpendXp(person_id="p-r1", skill=Skill.GUNNERY, actor="t"))
    assert isinstance(events[0], XpSpent) and events[0].price.total == 6


def test_the_messages_round_trip() -> None:
    for message in (
        SetXpCosts(costs=COSTS, actor="ref"),
        SpendXp(person_id="p", skill=Skill.PILOTING, actor="t"),
    ):
        assert TRIPWIRE.commands.from_json(TRIPWIRE.commands.to_json(message)) == message
    for event in (
        XpCostsSet(costs=COSTS),
        XpGained(side_id="s", battle_id="b", people=("p",), xp=1),
    ):
        assert TRIPWIRE.events.from_json(TRIPWIRE.events.to_json(event)) == event
