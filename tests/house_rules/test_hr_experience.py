"""Pilots' skills and spending experience, what a rank gives, technicians and support staff
(lines 104, 153, 158-164, 168-170)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hr_helpers import LINES

from mekref.rules.codec import canonical_json
from mekref.rules.house_rules import commands as c
from mekref.rules.house_rules import events as e
from mekref.rules.house_rules.advancement import (
    SkillCost,
    contract_xp,
    price_step,
    rank_name,
    technician_rating,
)
from mekref.rules.house_rules.game import HOUSE_RULES
from mekref.rules.house_rules.model import HouseState
from mekref.rules.house_rules.repairs import Rating
from mekref.rules.house_rules.table_loader import load_tables
from mekref.rules.messages import Command, Event
from mekref.rules.refusal import Refusal

COSTS = tuple(
    SkillCost(skill=skill, to_level=level, xp=xp)
    for skill in ("piloting", "gunnery")
    for level, xp in ((6, 4), (5, 6), (4, 8), (3, 12), (2, 16))
)


def run(*script: Command, state: HouseState | None = None) -> tuple[list[Event], HouseState]:
    current = (
        state
        or HOUSE_RULES.execute(HOUSE_RULES.initial_state(), c.SetUp(actor="ref", seed="xp-3058"))[1]
    )
    log: list[Event] = []
    for command in script:
        events, current = HOUSE_RULES.execute(current, command)
        log += events
    return log, current


def refused(state: HouseState, command: Command) -> Refusal:
    with pytest.raises(Refusal) as info:
        HOUSE_RULES.execute(state, command)
    return info.value


def test_the_rule_lines_are_quoted_from_the_text() -> None:
    t = load_tables()
    for section, line in (
        ("start", 153),
        ("lam", 104),
        ("technician", 168),
        ("technician_spending", 169),
        ("support", 170),
    ):
        assert t.rule("experience", section).ref.line == line
        assert LINES[line - 1] == t.rule("experience", section).ref.source


def test_pilots_join_with_their_skills_or_marked_unknown() -> None:
    # L153: "Mechwarriors start with a base piloting and gunnery skill of 7."
    log, state = run(
        c.AddPilot(actor="ref", pilot_id="ana", name="Ana", piloting=7, gunnery=7),
        c.AddPilot(actor="ref", pilot_id="old", name="Old", starting_xp=30),
    )
    assert (state.pilots["ana"].piloting, state.pilots["ana"].gunnery) == (7, 7)
    assert state.pilots["old"].piloting is None and state.pilots["old"].gunnery is None
    # Never a silent default: the outcome says the skills are not on record.
    assert "Piloting 7, Gunnery 7 (Untrained)" in HOUSE_RULES.outcome(log[0])
    assert "not on record" in HOUSE_RULES.outcome(log[1])
    half = refused(
        state, c.AddPilot(actor="ref", pilot_id="x", name="X", starting_xp=30, piloting=5)
    )
    assert half.code == "half_skills" and half.source is not None and half.source.line == 153
    wild = refused(state, c.AddPilot(actor="ref", pilot_id="x", name="X", piloting=9, gunnery=4))
    assert wild.code == "bad_skill"
    # An unknown pilot's skills are put on record once; afterwards only spending changes them.
    _, state = run(
        c.SetPilotSkills(actor="ref", pilot_id="old", piloting=5, gunnery=4), state=state
    )
    assert state.pilots["old"].piloting == 5
    again = refused(state, c.SetPilotSkills(actor="ref", pilot_id="old", piloting=3, gunnery=2))
    assert again.code == "skills_on_record"


def test_ruling_spending_needs_the_groups_costs_one_point_at_a_time() -> None:
    # L153: "Once starting experience is determined that experience may be spent on the piloting
    # and gunnery skill and on special abilities as described below." The costs "below" are not
    # in the text (ruling HOUSE-24): without the group's costs nothing is spent.
    _, state = run(
        c.AddPilot(actor="ref", pilot_id="ana", name="Ana", starting_xp=30, piloting=7, gunnery=7)
    )
    spend = c.SpendExperience(actor="ref", pilot_id="ana", skill="gunnery")
    missing = refused(state, spend)
    assert missing.code == "no_skill_cost" and "HRSkillCosts" in missing.message
    assert missing.source is not None and missing.source.line == 153
    log, state = run(c.SkillCosts(actor="ref", costs=COSTS), spend, spend, spend, state=state)
    ana = state.pilots["ana"]
    # Gunnery 7 -> 6 (4), 6 -> 5 (6), 5 -> 4 (8): 18 XP of 30.
    assert (ana.gunnery, ana.xp, ana.xp_spent) == (4, 12, 18)
    improved = [ev for ev in log if isinstance(ev, e.SkillImproved)]
    assert [(x.before, x.after, x.base_xp) for x in improved] == [(7, 6, 4), (6, 5, 6), (5, 4, 8)]
    assert HOUSE_RULES.outcome(improved[0]) == (
        "ana improves Gunnery 7 -> 6 for 4 XP, 26 XP left; rank Untrained -> Green"
    )
    # 12 XP left; Gunnery 4 -> 3 costs 12: spent; then 3 -> 2 (16) is more than is left.
    _, state = run(spend, state=state)
    poor = refused(state, spend)
    assert poor.code == "not_enough_xp" and "costs 16" in poor.message
    assert refused(state, c.SkillCosts(actor="ref", costs=())).code == "no_costs"
    twice = (COSTS[0], COSTS[0])
    assert refused(state, c.SkillCosts(actor="ref", costs=twice)).code == "duplicate_cost"


def test_pilots_without_skills_or_out_of_play_cannot_spend() -> None:
    _, state = run(
        c.AddPilot(actor="ref", pilot_id="old", name="Old", starting_xp=30),
        c.SkillCosts(actor="ref", costs=COSTS),
    )
    unknown = refused(state, c.SpendExperience(actor="ref", pilot_id="old", skill="piloting"))
    assert unknown.code == "skills_unknown" and "HRSetPilotSkills" in unknown.message
    _, state = run(
        c.AddPilot(actor="ref", pilot_id="ret", name="Ret", starting_xp=30, piloting=5, gunnery=4),
        c.ReportBattle(
            actor="ref", battle_id="b", fought=("ret",), hits=(c.PilotHits(pilot_id="ret", hits=5),)
        ),
        state=state,
    )
    gone = refused(state, c.SpendExperience(actor="ref", pilot_id="ret", skill="piloting"))
    assert gone.code == "cannot_spend"
    _, state = run(
        c.AddPilot(actor="ref", pilot_id="ok", name="Ok", starting_xp=30, piloting=5, gunnery=4),
        state=state,
    )
    bad = refused(state, c.SpendExperience(actor="ref", pilot_id="ok", skill="tactics"))
    assert bad.code == "unknown_skill"


def test_ruling_a_lam_pilot_pays_six_more_for_piloting() -> None:
    # L104: "LAM pilots must also spend 6 experience points in order to lower their piloting
    # skill by one" - ruling HOUSE-25: on top of the group's cost for the step.
    step = price_step(COSTS, "piloting", 6, lam=True)
    assert (step.base_xp, step.lam_xp, step.total) == (6, 6, 12)
    assert price_step(COSTS, "gunnery", 6, lam=True).lam_xp == 0
    assert price_step(COSTS, "piloting", 6, lam=False).total == 6
    log, state = run(
        c.AddPilot(
            actor="ref", pilot_id="lam", name="Lam", starting_xp=13, piloting=6, gunnery=5, lam=True
        ),
        c.SkillCosts(actor="ref", costs=COSTS),
        c.SpendExperience(actor="ref", pilot_id="lam", skill="piloting"),
    )
    assert state.pilots["lam"].piloting == 5 and state.pilots["lam"].xp == 1
    assert "12 XP (6 + 6 for a LAM pilot)" in HOUSE_RULES.outcome(log[-1])


def test_rank_follows_the_skills() -> None:
    # L161-L164: "Green | 6 | 5 | 10 or greater |" ... "Elite | 3 | 2 | 5 or less |"
    assert rank_name(6, 5) == "Green" and rank_name(5, 4) == "Regular"
    assert rank_name(4, 3) == "Veteran" and rank_name(3, 2) == "Elite"
    assert rank_name(7, 7) == "Untrained" and rank_name(None, 4) is None
    _, state = run(
        c.AddPilot(actor="ref", pilot_id="r", name="R", starting_xp=40, piloting=5, gunnery=5),
        c.SkillCosts(actor="ref", costs=COSTS),
    )
    log, state = run(c.SpendExperience(actor="ref", pilot_id="r", skill="gunnery"), state=state)
    # 5/5 (10, Green) -> 5/4 (9, Regular)
    assert isinstance(log[0], e.SkillImproved)
    assert (log[0].rank_before, log[0].rank_after) == ("Green", "Regular")
    report = {s.title: s.lines for s in HOUSE_RULES.summarize(state)}
    assert "Piloting 5, Gunnery 4, Regular, 8 XP spent" in report["pilots"][0]


def test_ruling_the_morale_skill_is_the_pilots_rank() -> None:
    # L108 "Unit Skill | Target Modifier |" (Green -1 ... Elite +2): ruling HOUSE-27.
    _, state = run(
        c.AddPilot(actor="ref", pilot_id="vet", name="Vet", starting_xp=30, piloting=4, gunnery=3),
        c.AddPilot(actor="ref", pilot_id="new", name="New", starting_xp=30, piloting=7, gunnery=7),
    )
    log, _ = run(
        c.MoraleTestCommand(actor="ref", unit_id="u", turn=1, nationality="Davion", pilot_id="vet"),
        state=state,
    )
    assert isinstance(log[0], e.MoraleTested)
    # Veteran +1 (L112), Davion +0 (L116).
    assert log[0].test.reasons[:2] == ("Veteran", "Davion") and log[0].test.modifier == 1
    untrained = refused(
        state,
        c.MoraleTestCommand(actor="ref", unit_id="u", turn=1, nationality="Davion", pilot_id="new"),
    )
    assert untrained.code == "no_morale_row" and "Untrained" in untrained.message
    clash = refused(
        state,
        c.MoraleTestCommand(
            actor="ref", unit_id="u", turn=1, nationality="Davion", pilot_id="vet", skill="Green"
        ),
    )
    assert clash.code == "skill_mismatch"
    none = refused(
        state, c.MoraleTestCommand(actor="ref", unit_id="u", turn=1, nationality="Davion")
    )
    assert none.code == "no_skill"


def test_ruling_technicians_follow_their_mechwarrior_and_earn_by_feats() -> None:
    # L168: "Technicians change skill to match that of their mechwarrior. For example when a
    # green mechwarrior becomes a regular his tech becomes a regular as well. ... Technicians
    # earn one experience point each time they perform exceptional feats of repair ...
    # Omnimechs are not eligible for experience from customization due to their omni pods."
    assert technician_rating("Regular") is Rating.REGULAR
    assert technician_rating("Untrained") is None and technician_rating(None) is None
    _, state = run(
        c.AddPilot(actor="ref", pilot_id="kai", name="Kai", starting_xp=40, piloting=5, gunnery=5),
        c.SkillCosts(actor="ref", costs=COSTS),
        c.AddTechnician(actor="ref", tech_id="tess", name="Tess", pilot_id="kai"),
    )
    techs = {s.title: s.lines for s in HOUSE_RULES.summarize(state)}["technicians"]
    assert techs == ("Tess (tess) for kai: Green (as kai), 0 XP",)
    # The green MechWarrior becomes a regular: so does his tech.
    _, state = run(c.SpendExperience(actor="ref", pilot_id="kai", skill="gunnery"), state=state)
    techs = {s.title: s.lines for s in HOUSE_RULES.summarize(state)}["technicians"]
    assert techs == ("Tess (tess) for kai: Regular (as kai), 0 XP",)
    log, state = run(
        c.TechnicianFeat(actor="ref", tech_id="tess", feat="rebuild", unit_id="griffin"),
        c.TechnicianFeat(actor="ref", tech_id="tess", feat="customization", unit_id="griffin"),
        state=state,
    )
    assert state.technicians["tess"].xp == 2
    assert HOUSE_RULES.outcome(log[0]) == "technician tess: rebuild of griffin, +1 XP"
    omni = refused(
        state,
        c.TechnicianFeat(
            actor="ref", tech_id="tess", feat="customization", unit_id="mad-cat", omnimech=True
        ),
    )
    assert omni.code == "omnimech_customization" and omni.source is not None
    assert omni.source.line == 168
    # An OmniMech rebuild is still a feat: only customization is excluded.
    _, state = run(
        c.TechnicianFeat(
            actor="ref", tech_id="tess", feat="rebuild", unit_id="mad-cat", omnimech=True
        ),
        state=state,
    )
    assert state.technicians["tess"].xp == 3
    assert (
        refused(
            state, c.TechnicianFeat(actor="ref", tech_id="tess", feat="paint", unit_id="x")
        ).code
        == "unknown_feat"
    )
    assert (
        refused(state, c.AddTechnician(actor="ref", tech_id="t2", name="T", pilot_id="nobody")).code
        == "unknown_pilot"
    )


def test_support_staff_earn_one_xp_a_contract_but_medics_do_not() -> None:
    # L170: "All support personnel other than technicians and medics gain 1 XP per contract
    # they provide services during."
    assert contract_xp("administrator") == 1 and contract_xp("Medic") == 0
    log, state = run(
        c.AddPilot(actor="ref", pilot_id="kai", name="Kai", starting_xp=40, piloting=5, gunnery=5),
        c.AddTechnician(actor="ref", tech_id="tess", name="Tess", pilot_id="kai"),
        c.AddSupportStaff(actor="ref", person_id="ada", name="Ada", role="administrator"),
        c.AddSupportStaff(actor="ref", person_id="doc", name="Doc", role="medic"),
        c.ContractServed(actor="ref", contract_id="k1", served=("ada", "doc")),
        c.ContractServed(actor="ref", contract_id="k2", served=("ada",)),
    )
    assert state.support["ada"].xp == 2 and state.support["ada"].contracts == 2
    assert state.support["doc"].xp == 0 and state.support["doc"].contracts == 1
    served = next(ev for ev in log if isinstance(ev, e.ContractServedDone))
    assert HOUSE_RULES.outcome(served) == "contract k1 served: ada +1 XP; doc none (medic)"
    tech = refused(state, c.ContractServed(actor="ref", contract_id="k3", served=("tess",)))
    assert tech.code == "technician_contract" and tech.source is not None
    assert tech.source.line == 170
    assert (
        refused(
            state, c.AddSupportStaff(actor="ref", person_id="t2", name="T", role="Technician")
        ).code
        == "technician_role"
    )
    assert (
        refused(state, c.ContractServed(actor="ref", contract_id="k3", served=("ghost",))).code
        == "unknown_staff"
    )
    staff = {s.title: s.lines for s in HOUSE_RULES.summarize(state)}["support staff"]
    assert staff == (
        "Ada (ada), administrator: 2 XP, 2 contracts",
        "Doc (doc), medic: 0 XP, 1 contracts",
    )


def test_a_log_written_before_skills_were_kept_still_reads_with_its_hash() -> None:
    # An HRPilotJoined event as logs recorded it before pilots had skills.
    old = {"type": "HRPilotJoined", "pilot_id": "kai", "name": "Kai", "xp": 32, "rolls": []}
    joined = HOUSE_RULES.events.from_json(old)
    assert isinstance(joined, e.PilotJoined) and joined.piloting is None
    _, state = run()
    state = HOUSE_RULES.evolve(state, joined)
    # Not on record, and left out of the canonical JSON: the state hash is the one it had.
    text = canonical_json(state)
    assert '"piloting"' not in text and '"skill_costs"' not in text
    assert '"technicians"' not in text and '"quality"' not in text
    report = {s.title: s.lines for s in HOUSE_RULES.summarize(state)}
    assert report["pilots"] == (
        "Kai (kai): 32 XP, 0 hits, active, 0 battles; Piloting/Gunnery not on record",
    )


def test_ruling_a_technicians_team_repairs_at_the_mechwarriors_rank() -> None:
    # L168: "when a green mechwarrior becomes a regular his tech becomes a regular as well" -
    # the technical team's Experience Rating of lines 89-92 (ruling HOUSE-28).
    _, state = run(
        c.AddPilot(actor="ref", pilot_id="kai", name="Kai", starting_xp=40, piloting=5, gunnery=5),
        c.AddPilot(actor="ref", pilot_id="new", name="New", starting_xp=40, piloting=7, gunnery=7),
        c.AddTechnician(actor="ref", tech_id="tess", name="Tess", pilot_id="kai"),
        c.AddTechnician(actor="ref", tech_id="rook", name="Rook", pilot_id="new"),
    )
    attempt = c.RepairAttempt(
        actor="ref", part_id="arm", job="repair", team_id="t1", target_number=13,
        technician_id="tess",
    )  # fmt: skip
    log, after = run(attempt, state=state)
    done = log[0]
    assert isinstance(done, e.RepairAttempted) and done.attempt.rating is Rating.GREEN
    # A failed Green attempt leaves (R): the next team must be rated above Green.
    assert done.mark == "(R)"
    clash = refused(state, replace(attempt, rating="elite"))
    assert clash.code == "rating_mismatch"
    untrained = refused(state, replace(attempt, technician_id="rook"))
    assert untrained.code == "no_technician_rating" and "Untrained" in untrained.message
    assert refused(state, replace(attempt, technician_id="")).code == "no_rating"
    assert refused(state, replace(attempt, technician_id="ghost")).code == "unknown_technician"
    assert after.jobs["arm"].attempts[0].rating is Rating.GREEN
