"""Technical teams: who may try a repair or replacement again (lines 89-94)."""

from __future__ import annotations

from enum import IntEnum

from mekref.rules.house_rules.table_loader import HouseTables, load_tables
from mekref.rules.record_type import Record, record
from mekref.rules.refusal import Refusal

#: A part's job: mend it or put in a new one (line 89).
REPAIR_JOBS = ("repair", "replace")
#: The marks a botched attempt leaves: the next level of tech who may try (line 89).
BOTCH_MARKS = ("(R)", "(V)", "(E)")


class Rating(IntEnum):
    GREEN = 1
    REGULAR = 2
    VETERAN = 3
    ELITE = 4

    @property
    def letter(self) -> str:
        return self.name[0]


@record
class Attempt(Record):
    team_id: str
    rating: Rating
    success: bool


@record
class Permission(Record):
    allowed: bool
    tn_modifier: int  # the cumulative +1 after an Elite failure
    reason: str


def may_attempt(
    history: tuple[Attempt, ...],
    team_id: str,
    rating: Rating,
    job: str,
    tables: HouseTables | None = None,
) -> Permission:
    """Lines 90 and 92, the same for a repair and a replacement.

    No team tries the same part twice and no team of the same or lower rating follows a failure,
    unless the failure was an Elite team's: then Elite teams (the same one too) may go on at a
    cumulative +1 per Elite failure. Four attempts in all, by any ratings.
    Ruling HOUSE-11: "+1 for each attempt" counts the Elite failures before this attempt.
    """
    t = tables or load_tables()
    if job not in ("repair", "replace"):
        raise ValueError("a job is a repair or a replacement")
    rules = t.rule("repairs", job)
    if any(a.success for a in history):
        return Permission(allowed=False, tn_modifier=0, reason="the job is done")
    if len(history) >= rules.int("max_attempts"):
        final = "impossible: replace the part" if job == "repair" else "the part was destroyed"
        return Permission(allowed=False, tn_modifier=0, reason=f"four attempts made; {final}")
    if not history:
        return Permission(allowed=True, tn_modifier=0, reason="first attempt")
    last = history[-1]
    elite_failures = sum(1 for a in history if a.rating is Rating.ELITE)
    if last.rating is Rating.ELITE:
        if rating is not Rating.ELITE:
            return Permission(
                allowed=False, tn_modifier=0, reason="after an Elite failure only Elite teams try"
            )
        return Permission(
            allowed=True,
            tn_modifier=elite_failures * rules.int("cumulative_modifier"),
            reason="Elite retry",
        )
    if any(a.team_id == team_id for a in history):
        return Permission(
            allowed=False, tn_modifier=0, reason="a team may not try the same part twice"
        )
    if rating <= last.rating:
        return Permission(
            allowed=False,
            tn_modifier=0,
            reason=f"only a team rated above {last.rating.name.title()} may try next",
        )
    return Permission(allowed=True, tn_modifier=0, reason="a higher-rated team")


def botch_mark(failed: Rating) -> str:
    """Line 89: the letter of the next level of tech who may try ((R), (V) or (E))."""
    if failed is Rating.ELITE:
        return "(E)"
    return f"({Rating(failed + 1).letter})"


def maintenance_modifiers(tables: HouseTables | None = None) -> tuple[int, int]:
    """Line 94: (-3 to the maintenance TN, +1 to the MOS needed for each good effect)."""
    row = (tables or load_tables()).rule("repairs", "maintenance")
    return row.int("tn_modifier"), row.int("good_effect_mos_bonus")


def check_rating(name: str) -> Rating:
    try:
        return Rating[name.upper()]
    except KeyError:
        raise Refusal("unknown_rating", f"no technical team rating {name!r}") from None
