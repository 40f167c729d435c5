"""Spending experience on Piloting and Gunnery, what a rank gives, and the staff's experience
(lines 104, 153, 158-164, 168-170).

Line 153 says starting experience "may be spent on the piloting and gunnery skill and on special
abilities as described below", but the costs "below" are not in the text: the only cost printed
is the LAM pilot's extra 6 XP per Piloting point (line 104). The group therefore enters its own
cost per step (``HRSkillCosts``, ruling HOUSE-24); a step without a cost is refused, never
priced by a guess.
"""

from __future__ import annotations

from dataclasses import field

from mekref.rules.house_rules.pilots import lam_piloting_cost, rank_for
from mekref.rules.house_rules.repairs import Rating
from mekref.rules.house_rules.table_loader import HouseTables, Row, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal

SKILLS = ("piloting", "gunnery")
#: The range a skill may be entered in: 0 (the best MegaMek knows) to 8 (its worst).
SKILL_RANGE = range(0, 9)


@record
class SkillCost(Record):
    """The group's price of one step: lowering ``skill`` to ``to_level`` costs ``xp``."""

    skill: str = field(metadata={"allowed": ("piloting", "gunnery")})
    to_level: int = field(metadata={"doc": "the level reached by the step (7 -> 6: 6)"})
    xp: int


def check_skill(name: str) -> str:
    value = name.strip().lower()
    if value not in SKILLS:
        raise Refusal("unknown_skill", f"no skill {name!r}: piloting or gunnery")
    return value


def check_level(skill: str, level: int) -> int:
    if level not in SKILL_RANGE:
        raise Refusal("bad_skill", f"{skill} {level} is out of range: 0 to 8")
    return level


def check_costs(costs: tuple[SkillCost, ...]) -> tuple[SkillCost, ...]:
    if not costs:
        raise Refusal("no_costs", "list at least one step: skill, to_level, xp")
    seen: set[tuple[str, int]] = set()
    for cost in costs:
        skill = check_skill(cost.skill)
        check_level(skill, cost.to_level)
        if cost.to_level >= max(SKILL_RANGE):
            raise Refusal("bad_skill", f"{skill} cannot be lowered to {cost.to_level}")
        if cost.xp <= 0:
            raise Refusal("bad_xp", f"{skill} to {cost.to_level}: a step costs at least 1 XP")
        if (skill, cost.to_level) in seen:
            raise Refusal("duplicate_cost", f"{skill} to {cost.to_level} is listed twice")
        seen.add((skill, cost.to_level))
    return tuple(sorted(costs, key=lambda c: (c.skill, -c.to_level)))


@record
class StepPrice(Record):
    skill: str
    before: int
    after: int
    base_xp: int  # the group's cost (HRSkillCosts)
    lam_xp: int  # line 104's extra for a LAM pilot's Piloting step
    total: int


def price_step(
    costs: tuple[SkillCost, ...],
    skill: str,
    current: int,
    lam: bool,
    tables: HouseTables | None = None,
    *,
    enter_with: str = "HRSkillCosts",
) -> StepPrice:
    """One point off ``skill``: the group's cost, plus 6 for a LAM pilot's Piloting (line 104,
    ruling HOUSE-25: "also" adds to the normal cost). ``enter_with`` names, in the refusal of a
    step without a cost, how the group enters its costs where the price is asked."""
    t = tables or load_tables()
    skill = check_skill(skill)
    start = t.rule("experience", "start")
    if current <= min(SKILL_RANGE):
        raise Refusal("skill_at_best", f"{skill} is already 0")
    after = current - 1
    cost = next((c for c in costs if c.skill == skill and c.to_level == after), None)
    if cost is None:
        raise Refusal(
            "no_skill_cost",
            f"no cost for {skill} {current} -> {after}: the text prints none (line 153 says "
            f"'as described below', and the table is missing); enter the group's costs with "
            f"{enter_with}",
            start.ref,
        )
    lam_xp = lam_piloting_cost(1, t) if lam and skill == "piloting" else 0
    return StepPrice(
        skill=skill,
        before=current,
        after=after,
        base_xp=cost.xp,
        lam_xp=lam_xp,
        total=cost.xp + lam_xp,
    )


# --- what a rank gives ------------------------------------------------------------------------


def rank_name(piloting: int | None, gunnery: int | None) -> str | None:
    """Lines 160-164 by combined skill (ruling HOUSE-14); None while a skill is unknown."""
    if piloting is None or gunnery is None:
        return None
    return rank_for(piloting, gunnery).text("name")


def morale_skill_for(rank: str | None, pilot_id: str, tables: HouseTables | None = None) -> str:
    """Ruling HOUSE-27: the morale table's "Unit Skill" (lines 110-113) is the pilot's rank;
    Untrained has no row there, so such a pilot's unit needs the skill named."""
    t = tables or load_tables()
    if rank is None:
        raise Refusal(
            "skills_unknown",
            f"pilot {pilot_id!r} has no Piloting/Gunnery on record: give the unit's skill, or "
            "set them (HRSetPilotSkills)",
        )
    keys = {row.text("key") for row in t.rows("morale", "skill")}
    if rank not in keys:
        raise Refusal(
            "no_morale_row",
            f"pilot {pilot_id!r} is {rank}; the morale table has no {rank} row: give the skill",
            t.rows("morale", "skill")[0].ref,
        )
    return rank


def technician_rating(rank: str | None) -> Rating | None:
    """Line 168: a technician's skill matches their MechWarrior's. Ruling HOUSE-28: the rank is
    the technical team's Experience Rating of lines 89-92; Untrained (and unknown) gives none."""
    if rank is None:
        return None
    try:
        return Rating[rank.upper()]
    except KeyError:
        return None


def technician_rule(tables: HouseTables | None = None) -> Row:
    return (tables or load_tables()).rule("experience", "technician")


def technician_feat_xp(feat: str, omnimech: bool, tables: HouseTables | None = None) -> int:
    """Line 168: 1 XP per exceptional feat of repair (a rebuild, a major customization); an
    OmniMech's customization earns nothing."""
    rule = technician_rule(tables)
    if feat not in rule.texts("feats"):
        raise Refusal(
            "unknown_feat",
            f"no feat {feat!r}: one of {', '.join(rule.texts('feats'))}",
            rule.ref,
        )
    if feat == "customization" and omnimech and not rule.flag("omni_customization_earns"):
        raise Refusal(
            "omnimech_customization",
            "an OmniMech's customization earns no experience",
            rule.ref,
        )
    return rule.int("xp_per_feat")


def support_rule(tables: HouseTables | None = None) -> Row:
    return (tables or load_tables()).rule("experience", "support")


def contract_xp(role: str, tables: HouseTables | None = None) -> int:
    """Line 170: 1 XP per contract served, for support personnel other than technicians and
    medics (they earn none this way)."""
    rule = support_rule(tables)
    if role.strip().lower() in rule.texts("not_earning"):
        return 0
    return rule.int("xp_per_contract")
