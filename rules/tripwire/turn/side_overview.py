"""The strategic picture as one reader may know it: the referee's whole, or one side's cut.

The referee's overview (:mod:`~mekref.rules.tripwire.turn.overview`) lifts the fog; a side's
cut keeps it (ruling T-V3 in docs/turn.md). A side gets its own formations, the enemy
formations only as its sensors sighted them (the side view's sightings, never the formation
record), every location's control and every side's unrest (public, as in the side view), every
side's victory points (L414: "the player with the most victory points wins", a race both
players follow), its own standing against the attrition line but not the enemy's BV, the
engagements it fights cut as its scenario export cuts them
(:func:`~mekref.rules.tripwire.turn.secrecy.engagement_for`), its own formations a battle left
sharing a hex, and its own WarChest pools.

One typed value serves the CLI (``mekref report --overview --side``) and the gRPC API
(``CampaignService.GetOverview``), so no channel's cut can drift from the other's.
"""

from __future__ import annotations

from dataclasses import field
from fractions import Fraction

from mekref.rules.record_type import Record, record
from mekref.rules.tripwire import battle_link
from mekref.rules.tripwire.battle_model import Battle, BattleStatus
from mekref.rules.tripwire.state import CampaignState, Pool
from mekref.rules.tripwire.turn.secrecy import engagement_for
from mekref.rules.tripwire.turn.state import IN_ORBIT, Sighting, StrategicState
from mekref.rules.tripwire.turn.victory import progress, unknown_text

#: How far an engagement has come by its battle (rulings T-E8, T-E9).
ENGAGEMENT_STATUSES = ("open", "being fought", "closed")


@record
class OverviewFormation(Record):
    """A formation where it stands, with the units still its side's own."""

    formation_id: str
    side_id: str
    name: str
    where: str  # "CCRR", "orbit", or "" at the pirate point
    units: int  # units still the side's own (stores from before T-F7 kept captured ones listed)
    fatigue: int


@record
class OverviewEngagement(Record):
    """An engagement of the last resolved day and how far its battle has come."""

    engagement_id: str
    day: int
    hex: str
    kind: str
    sides: tuple[str, ...]
    formations: tuple[str, ...]  # a side's cut: its own formations only
    #: "open", "being fought" or "closed" (rulings T-E8, T-E9).
    status: str = field(metadata={"allowed": ENGAGEMENT_STATUSES})
    battle_id: str = ""  # "" while no battle is open for it


@record
class OverviewTogether(Record):
    """After a battle: the formations still sharing its hex (ruling T-E7).

    A side's cut lists only its own formations there."""

    battle_id: str
    engagement_id: str
    hex: str
    formations: tuple[tuple[str, str], ...]  # (formation id, side id)
    next_day: int


@record
class OverviewStanding(Record):
    """One side's victory points (public, L414) and its BV against the attrition line (L412).

    The BV is set for the referee and for the side itself; an enemy's stays unset in a cut."""

    side_id: str
    battle_vp: int
    strategic_vp: int
    total_vp: int
    #: The BV its units had when the strategic map started (R-VP-3), summed over the units
    #: whose BV is known: the whole only while ``units_without_bv`` is 0, a part otherwise
    #: (0 when none is known); unset for an enemy in a side's cut.
    starting_bv: int | None = None
    #: The BV of its operational or repairable units now, summed as ``starting_bv`` is.
    effective_bv: int | None = None
    #: Its units with no BV known: while any, its share of the start cannot be told (R-VP-3).
    units_without_bv: int | None = None
    leader_captured: bool = False
    #: Its BV now as a share of its start, x100 (L412's line is ``Overview.attrition_percent``);
    #: None when not known (no start yet, or a unit without a BV: R-VP-3) and for an enemy.
    percent_of_start: Fraction | None = None
    #: Its battles whose VP are not known, units of them having no BV (R-VP-6): while any,
    #: ``battle_vp`` and ``total_vp`` count only the battles known, and are not its VP.
    battles_vp_unknown: tuple[str, ...] = ()


@record
class Overview(Record):
    """The strategic picture for one reader; ``side_id`` "" is the referee's whole."""

    side_id: str
    day: int
    map_name: str
    ended: str
    formations: tuple[OverviewFormation, ...]
    sightings: tuple[Sighting, ...]  # (whose sensors, what they revealed)
    sighted_by: tuple[str, ...]  # the side whose sensors made each sighting, in step
    control: tuple[tuple[str, str], ...]  # location -> side
    unrest: tuple[tuple[str, int], ...]
    engagements: tuple[OverviewEngagement, ...]
    still_together: tuple[OverviewTogether, ...]
    pools: tuple[Pool, ...]
    standings: tuple[OverviewStanding, ...]
    vp_target: int  # line 414: the VP that end the campaign
    #: Which end cannot be told and what to record (R-VP-3, R-VP-6); "" when all is known.
    unknown: str = ""
    #: (side, hex) of each temporary runway the reader may know: its own (L409, T-LZ2).
    runways: tuple[tuple[str, str], ...] = ()
    #: Line 412: a side whose BV falls below this share of its start (in %) ends the campaign.
    attrition_percent: int = 0
    #: Why the campaign ends now ("" while no end condition is met). The referee's whole
    #: only: a side's BV against its line is its own, so a side's cut leaves this "".
    reached: str = ""


def engagement_status(battle: Battle | None) -> str:
    """How far an engagement has come by its battle: "open" (none yet), "being fought" (a
    battle is open for it, or held) or "closed" (its battle is resolved)."""
    if battle is None:
        return "open"
    return "closed" if battle.status is BattleStatus.RESOLVED else "being fought"


def _engagements(state: CampaignState, s: StrategicState, side_id: str) -> list[OverviewEngagement]:
    """The engagements ``side_id`` fought in ("" for all), as that side may see them, each with
    how far its battle has come."""
    owners = {fid: f.side_id for fid, f in s.formations.items()}
    by_engagement = {b.engagement_id: b for b in state.battles.battles.values() if b.engagement_id}
    engagements = []
    for e in s.engagements:
        if side_id and side_id not in e.sides:
            continue
        cut = engagement_for(e, side_id, owners) if side_id else e
        battle = by_engagement.get(e.engagement_id)
        engagements.append(
            OverviewEngagement(
                engagement_id=e.engagement_id, day=e.day, hex=e.hex, kind=e.kind,
                sides=tuple(e.sides), formations=tuple(cut.formations),
                status=engagement_status(battle),
                battle_id=battle.battle_id if battle is not None else "",
            )
        )  # fmt: skip
    return engagements


def overview_of(state: CampaignState, side_id: str = "") -> Overview | None:
    """The picture ``side_id`` may know ("" for the referee's whole), or None before the
    strategic map has started (``turn setup``)."""
    s = state.strategic
    if s is None:
        return None

    def mine(owner: str) -> bool:
        return not side_id or owner == side_id

    formations = tuple(
        OverviewFormation(
            formation_id=f.formation_id,
            side_id=f.side_id,
            name=f.name,
            where="orbit" if f.hex == IN_ORBIT else f.hex,
            units=sum(
                1 for u in f.unit_ids if u in state.units and state.units[u].side_id == f.side_id
            ),
            fatigue=f.fatigue,
        )
        for _, f in sorted(s.formations.items())
        if mine(f.side_id)
    )
    seen = [(who, x) for who, xs in sorted(s.sightings.items()) if mine(who) for x in xs]
    engagements = _engagements(state, s, side_id)
    together = []
    for t in battle_link.after_battles(state):
        own = tuple((f, x) for f, x in t.formations if mine(x))
        if own:
            together.append(
                OverviewTogether(
                    battle_id=t.battle_id, engagement_id=t.engagement_id, hex=t.hex,
                    formations=own, next_day=t.next_day,
                )
            )  # fmt: skip
    p = progress(state, s, s.vp)
    standings = tuple(
        OverviewStanding(
            side_id=x.side_id,
            battle_vp=x.battle_vp,
            strategic_vp=x.strategic_vp,
            total_vp=x.total_vp,
            # An enemy's BV is its strength: a side learns it only from what it sighted.
            starting_bv=x.starting_bv if mine(x.side_id) else None,
            effective_bv=x.effective_bv if mine(x.side_id) else None,
            units_without_bv=x.without_bv if mine(x.side_id) else None,
            percent_of_start=x.percent if mine(x.side_id) else None,
            # A captured leader ends the campaign (line 412): both sides know it.
            leader_captured=x.leader_captured,
            # Public like the VP (L414): both sides know a battle's VP are not known.
            battles_vp_unknown=x.battles_vp_unknown,
        )
        for x in p.sides
    )
    return Overview(
        side_id=side_id,
        day=s.day,
        map_name=s.map_name,
        ended=s.ended,
        formations=formations,
        sightings=tuple(x for _, x in seen),
        sighted_by=tuple(who for who, _ in seen),
        control=tuple(sorted(s.control.items())),
        unrest=tuple(sorted(s.unrest.items())),
        engagements=tuple(engagements),
        still_together=tuple(together),
        pools=tuple(x for _, x in sorted(state.pools.items()) if mine(x.side_id)),
        standings=standings,
        vp_target=p.vp_target,
        unknown=unknown_text(state, p.vp_target, p.sides, bv_of=side_id) if side_id else p.unknown,
        runways=tuple((x, h) for x, hexes in sorted(s.runways.items()) if mine(x) for h in hexes),
        attrition_percent=p.attrition_percent,
        reached="" if side_id else p.reached,
    )
