"""The house rules' experience in words, for the commands that show it: each survivor's
"+1 XP (L154)" after a battle (``battle ingest``, ``control``, ``confirm``, ``close``) and the
experience section of ``mekref report`` (rulings HOUSE-36 to HOUSE-39). Not a command module:
the report loads it without the spending commands.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from mekref.rules.house_rules.advancement import SkillCost, rank_name
from mekref.rules.messages import Event
from mekref.rules.tripwire import house_xp
from mekref.rules.tripwire.state import CampaignState


def say_xp(console: Any, state: CampaignState | None, events: Iterable[Event]) -> None:
    """After a battle (house rules L154): each survivor's "+1 XP (L154)" and XP now."""
    if state is None:
        return
    for e in events:
        if isinstance(e, house_xp.XpGained):
            for line in house_xp.gained_lines(state, e):
                console.print(line)


def house_xp_report(state: CampaignState, events: Any, side: str | None) -> dict[str, Any]:
    """Each person's skills, rank, XP and XP spent; the group's prices; every gain and spend
    in words (a side's report: its own people)."""
    ledger = state.house_experience
    people = [
        {
            "id": p.person_id,
            "name": p.name,
            "side": p.side_id,
            "gunnery": p.gunnery,
            "piloting": p.piloting,
            "rank": rank_name(p.piloting, p.gunnery) or "Untrained",
            "status": p.status.value,
            "xp": ledger.xp_of(p.person_id),
            "spent": ledger.spent_by(p.person_id),
        }
        for p in sorted(state.people.values(), key=lambda p: (p.side_id, p.name, p.person_id))
        if not side or p.side_id == side
    ]
    log: list[dict[str, Any]] = []
    for seq, e in events:
        if isinstance(e, house_xp.XpGained) and (not side or e.side_id == side):
            lines = house_xp.gained_lines(state, e, balance=False)
            log += [{"seq": seq, "what": "gained", "line": line} for line in lines]
        elif isinstance(e, house_xp.XpSpent) and (not side or e.side_id == side):
            log.append({"seq": seq, "what": "spent", "line": house_xp.spent_line(state, e)})
    return {
        "costs": [{"skill": c.skill, "to_level": c.to_level, "xp": c.xp} for c in ledger.costs],
        "people": people,
        "log": log,
    }


def print_house_xp(console: Any, report: dict[str, Any]) -> None:
    """The report's experience section: the people table, the log, the group's prices."""
    from rich.table import Table  # rich's tables load when one is drawn

    people = Table(title="experience (house rules L153-L154)", title_justify="left")
    for col in ("id", "name", "side", "G/P", "rank", "XP", "spent"):
        people.add_column(col, overflow="fold")
    for p in report["people"]:
        people.add_row(
            p["id"][:8],
            p["name"],
            p["side"],
            f"{p['gunnery']}/{p['piloting']}",
            p["rank"],
            str(p["xp"]),
            str(p["spent"]),
        )
    console.print(people)
    for entry in report["log"]:
        console.print(f"  {entry['line']}")
    costs = house_xp.costs_lines(
        SkillCost(skill=c["skill"], to_level=c["to_level"], xp=c["xp"]) for c in report["costs"]
    )
    if costs:
        console.print("XP costs (the group's): " + "; ".join(costs))
    else:
        console.print(f"XP costs: none entered yet: {house_xp.ENTER_COSTS}")
