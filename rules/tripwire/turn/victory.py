"""Strategic victory points and the end of the campaign (lines 411-428, 162).

Controlling Locations: 1 VP per location garrisoned unopposed by at least a lance (line 426).
Seat of Power: 2 VP while the side's VIP is in the capital's government building (line 428).
The campaign ends at 10 VP (line 414), when a leader is captured (line 162), or when a force
falls below 50% of its starting BV in operational or repairable units (line 412).

Which units count: ruling R-VP-3 (the end by attrition) and R-VP-4 (garrisons: the one
judgement of :func:`mekref.rules.tripwire.holding.holds_ground`), docs/rulings.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction

from mekref.hexmap import HexMap, label
from mekref.rules.record_type import Record, record
from mekref.rules.tripwire.holding import holds_ground, in_play
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.data import single
from mekref.rules.tripwire.turn.state import Formation, StrategicState

#: "at least a subforce (e.g. Lance)": four units, an Inner Sphere lance (ruling T-V1).
LANCE = 4


def counts_for_attrition(state: CampaignState, unit_id: str) -> bool:
    """Whether the unit is part of its side's combat effectiveness (line 412, R-VP-3):
    "operational units, or units that could be repaired" are every unit still in play
    (:func:`holding.in_play`): a wreck that can be repaired counts, captured salvage counts for
    its captor, kept or not, and a missing unit counts until the referee sets its fate (the
    campaign never ends on an unknown); a truly destroyed, sold or scrapped unit never does."""
    return in_play(state, unit_id)


def garrisoning(state: CampaignState, formations: Iterable[Formation]) -> int:
    """How many units of ``formations`` hold ground: wrecks do not, kept and crewed salvage
    does (R-VP-4)."""
    return sum(1 for f in formations for u in f.unit_ids if holds_ground(state, u))


def unit_bv(state: CampaignState, unit_id: str) -> int:
    """The unit's BV now: a reconfigured omni counts its new configuration (line 99)."""
    return state.battles.bv_override.get(unit_id, state.units[unit_id].bv)


def effective_bv(state: CampaignState) -> dict[str, int]:
    """Each side's BV in operational or repairable units it holds now (R-VP-3)."""
    bv = {side: 0 for side in sorted(state.sides)}
    for unit in state.units.values():
        if counts_for_attrition(state, unit.unit_id):
            bv[unit.side_id] = bv.get(unit.side_id, 0) + unit_bv(state, unit.unit_id)
    return bv


def battles_vp_unknown(state: CampaignState) -> dict[str, tuple[str, ...]]:
    """Each side's resolved battles whose VP are not known, by battle id in battle order
    (R-VP-6): a unit of the battle had no BV when it was resolved (the resolution names it),
    or has none now (a battle resolved before the resolution named them)."""
    unknown: dict[str, list[str]] = {}
    for b in sorted(state.battles.battles.values(), key=lambda b: b.number):
        res = b.resolution
        if res is None:
            continue
        named = any(not x.vp_known for x in res.sides)
        if named or any(
            u.unit_id in state.units and unit_bv(state, u.unit_id) <= 0 for u in res.units
        ):
            for x in res.sides:
                unknown.setdefault(x.side_id, []).append(b.battle_id)
    return {side: tuple(ids) for side, ids in sorted(unknown.items())}


def strategic_vp(
    state: CampaignState,
    s: StrategicState,
    hexmap: HexMap,
    formations: Mapping[str, Formation],
    control: Mapping[str, str],
) -> dict[str, int]:
    vp = {side: 0 for side in s.vp} | {side: 0 for side in control.values()}
    per_location = int(single("strategic_victory", "location_vp")["vp"])
    seat = single("strategic_victory", "seat_of_power")
    by_hex: dict[str, list[Formation]] = {}
    for f in formations.values():
        by_hex.setdefault(f.hex, []).append(f)
    for loc in hexmap.locations:
        holder = control.get(loc.name)
        if holder is None:
            continue
        here = by_hex.get(label(loc.hex), [])
        if garrisoning(state, (f for f in here if f.side_id != holder)):
            continue  # opposed (wrecks oppose nobody, R-VP-4)
        own = [f for f in here if f.side_id == holder]
        if len(s.destroyed.get(loc.name, ())) >= len(loc.facilities) > 0:
            continue  # every structure destroyed: no longer scores
        if garrisoning(state, own) >= LANCE:
            vp[holder] = vp.get(holder, 0) + per_location
        # The VIP is present while its escort still stands: a formation of wrecks carries
        # nobody into the government building (R-VP-4).
        if loc.name == seat["location"] and any(
            f.carries_leader and garrisoning(state, (f,)) for f in own
        ):
            vp[holder] = vp.get(holder, 0) + int(seat["vp"])
    return vp


@record
class SideStanding(Record):
    """One side's progress toward each end condition."""

    side_id: str
    starting_bv: int  # its units' BV when the strategic map started (R-VP-3)
    effective_bv: int  # operational or repairable units it holds now
    # effective / starting, x100; None: unknown (no starting BV, or units without a BV)
    percent: Fraction | None
    without_bv: int  # units of the side with no BV known: the share cannot be told
    below: bool  # under the line: the campaign ends (line 412)
    battle_vp: int  # the battles whose VP are known (all of them when ``vp_known``)
    strategic_vp: int
    leader_captured: bool
    #: Its battles whose VP are not known, a unit of them having no BV (R-VP-6): while any,
    #: its battle VP and total are not known and the 10-VP end is not decided (line 414).
    battles_vp_unknown: tuple[str, ...] = ()

    @property
    def vp_known(self) -> bool:
        return not self.battles_vp_unknown

    @property
    def total_vp(self) -> int:
        """The known VP: the whole total only when ``vp_known``."""
        return self.battle_vp + self.strategic_vp


@record
class EndProgress(Record):
    vp_target: int  # line 414
    attrition_percent: int  # line 412
    sides: tuple[SideStanding, ...]
    reached: str  # why the campaign ends now ("" while no condition is met)
    ended: str  # why it ended, as recorded ("" while it runs)
    #: Which end cannot be told and what to record to tell it ("" when every figure is
    #: known): an end is never decided on an unknown (R-VP-3, R-VP-6).
    unknown: str = ""


def _percent(part: int, whole: int) -> Fraction | None:
    return Fraction(part * 100, whole) if whole > 0 else None


def progress(state: CampaignState, s: StrategicState, vp: Mapping[str, int]) -> EndProgress:
    """Each side against each end condition; ``vp`` is the strategic VP to count."""
    target = int(single("strategic_victory", "end")["vp"])
    line = int(single("strategic_victory", "end_bv")["percent"])
    battle = state.battles.victory_points
    bv = effective_bv(state)
    # A unit imported without a BV (no --bv-table) makes any share a plausible wrong number:
    # the end by attrition is then unknown, never decided on a partial sum.
    unknown: dict[str, int] = {}
    for unit in state.units.values():
        if unit_bv(state, unit.unit_id) <= 0:
            unknown[unit.side_id] = unknown.get(unit.side_id, 0) + 1
    vp_unknown = battles_vp_unknown(state)
    sides = []
    for side in sorted({*state.sides, *vp, *battle}):
        start = s.starting_bv.get(side, 0)
        pct = None if unknown.get(side) else _percent(bv.get(side, 0), start)
        sides.append(
            SideStanding(
                side_id=side,
                starting_bv=start,
                effective_bv=bv.get(side, 0),
                percent=pct,
                without_bv=unknown.get(side, 0),
                below=pct is not None and pct < line,
                battle_vp=battle.get(side, 0),
                strategic_vp=vp.get(side, 0),
                leader_captured=side in s.leader_captured,
                battles_vp_unknown=vp_unknown.get(side, ()),
            )
        )
    return EndProgress(
        vp_target=target,
        attrition_percent=line,
        sides=tuple(sides),
        reached=_reason(target, line, sides),
        ended=s.ended,
        unknown=unknown_text(state, target, sides),
    )


#: How the referee records a missing BV (R-VP-6): the unit's battles are scored again.
RECORD_BV = (
    "record each such unit's BV: mekref battle bv --unit ID --bv N "
    "[--held-at-start | --joined-later] --referee NAME --reason TEXT"
)


def unknown_text(
    state: CampaignState, target: int, sides: Iterable[SideStanding], bv_of: str = ""
) -> str:
    """What keeps an end from being told, in words, with how to tell it; ``bv_of``: a side's
    cut, which names only its own units without a BV (an enemy's BV stays hidden, T-V3)."""
    sides = list(sides)
    parts: list[str] = []
    vp = [x for x in sides if not x.vp_known]
    if vp:
        numbers = sorted(
            {state.battles.battles[b].number for x in vp for b in x.battles_vp_unknown}
        )
        parts.append(
            f"the {target}-VP end (L414) cannot be told: the VP of battle(s) "
            f"{', '.join(f'#{n}' for n in numbers)} are not known, units of them having no BV "
            f"(L419-L424 score shares of BV destroyed; R-VP-6), so the VP of "
            f"{', '.join(x.side_id for x in vp)} are not known"
        )
    bv = [x for x in sides if x.without_bv and (not bv_of or x.side_id == bv_of)]
    if bv:
        parts.append(
            "the end by attrition (L412) cannot be told for "
            + ", ".join(f"{x.side_id} ({x.without_bv} unit(s) without a BV)" for x in bv)
            + " (R-VP-3)"
        )
    return "; ".join(parts) + f"; {RECORD_BV}" if parts else ""


def _reason(target: int, line: int, sides: list[SideStanding]) -> str:
    # Battle VP (kept by the battle rules) and strategic VP count together (line 415).
    # R-VP-6: while a side's VP are not known, neither who reached 10 nor who has the most
    # can be told: the VP end waits for the BV (the other ends do not read VP).
    known = all(x.vp_known for x in sides)
    winners = [x.side_id for x in sides if x.total_vp >= target] if known else []
    if winners:
        best = max(x.total_vp for x in sides)
        top = [x.side_id for x in sides if x.total_vp == best]
        return f"{', '.join(winners)} reached {target} VP; most VP: {', '.join(top)}"
    captured = [x.side_id for x in sides if x.leader_captured]
    if captured:
        return f"the leader of {', '.join(captured)} was captured"
    for x in sides:
        if x.below and x.percent is not None:
            return (
                f"{x.side_id} fell below {line}% of its starting BV: "
                f"{x.effective_bv} of {x.starting_bv} BV ({float(x.percent):.1f}%) in "
                "operational or repairable units"
            )
    return ""


def end_reason(state: CampaignState, s: StrategicState, vp: Mapping[str, int]) -> str:
    return progress(state, s, vp).reached
