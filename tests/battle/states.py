"""Campaign states for rules-level battle tests, built through the engine (no store)."""

from __future__ import annotations

from fractions import Fraction

from mekref.rules.messages import Command, Event, RefereeNote
from mekref.rules.tripwire.battle_messages import CloseBattle, SetBattleControl, SubmitBattleReport
from mekref.rules.tripwire.battle_model import (
    BattleFile,
    RecordSection,
    ReportedPerson,
    ReportedUnit,
    UnitDamage,
)
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    Lance,
    UnitKind,
    UnitRole,
)
from mekref.rules.tripwire.repair import LocationDamage
from mekref.rules.tripwire.salvage import UnitMobility
from mekref.rules.tripwire.state import CampaignState

SEED = "battle-rulings"
NOTE = RefereeNote(referee="Ann", reason="test")


def fu(
    uid: str,
    kind: UnitKind = UnitKind.MEK,
    tons: int = 50,
    bv: int = 1000,
    commander: bool = False,
    crew: int = 1,
    chassis: str = "Griffin",
    model: str = "GRF-1N",
    pilot: str | None = None,
) -> ForceUnit:
    people = tuple(
        CrewSkills(
            person_id=f"p-{uid}" if i == 0 else f"p-{uid}-{i}",
            name=pilot or f"Pilot {uid}" if i == 0 else f"Crew {uid} {i}",
            gunnery=4,
            piloting=5,
        )
        for i in range(crew)
    )
    return ForceUnit(
        unit_id=uid,
        chassis=chassis,
        model=model,
        kind=kind,
        tonnage=Fraction(tons),
        bv=bv,
        roles=frozenset({UnitRole.FORCE_COMMANDER} if commander else ()),
        crew=people,
        troopers=28 if kind is UnitKind.CONVENTIONAL_INFANTRY else 0,
    )


def force(*units: ForceUnit) -> ForceDescription:
    return ForceDescription(
        companies=(
            Company(
                name="A",
                role=CompanyRole.MEK_COMPANY,
                lances=(Lance(name="L1", units=units),),
            ),
        )
    )


def campaign(red: tuple[ForceUnit, ...], blue: tuple[ForceUnit, ...]) -> CampaignState:
    state = CampaignState()
    for cmd in (
        CreateCampaign(
            name="Rulings",
            ruleset="tripwire",
            seed=SEED,
            sides=(SideSpec(side_id="red", name="Red"), SideSpec(side_id="blue", name="Blue")),
            actor="t",
        ),
        ImportForce(side_id="red", force=force(*red), accept_unchecked=NOTE, actor="t"),
        ImportForce(side_id="blue", force=force(*blue), accept_unchecked=NOTE, actor="t"),
    ):
        _, state = TRIPWIRE.execute(state, cmd)
    return state


def run(state: CampaignState, *commands: Command) -> tuple[list[Event], CampaignState]:
    events: list[Event] = []
    for cmd in commands:
        new, state = TRIPWIRE.execute(state, cmd)
        events.extend(new)
    return events, state


def mek_locations(
    ct_internal: int = 10, armor_lost: int = 0, internal_lost: int = 0
) -> tuple[LocationDamage, ...]:
    return (
        LocationDamage(
            name="Center Torso",
            armor_max=20,
            armor_now=20 - armor_lost,
            internal_max=10,
            internal_now=min(ct_internal, 10 - internal_lost),
            is_center_torso=True,
        ),
        LocationDamage(name="Left Leg", armor_max=10, armor_now=10, internal_max=8, internal_now=8),
    )


def seen(
    uid: str,
    section: RecordSection,
    *,
    kind: UnitKind = UnitKind.MEK,
    hits: int = 0,
    ejected: bool = False,
    damage: UnitDamage | None = None,
    mobility: UnitMobility | None = None,
    crew_damage: int = 0,
    name: str = "Griffin GRF-1N",
) -> ReportedUnit:
    return ReportedUnit(
        unit_id=uid,
        display_name=name,
        section=section,
        kind=kind,
        damage=damage or UnitDamage(locations=mek_locations()),
        mobility=mobility or UnitMobility(kind=kind, crew_ejected=ejected),
        crew=(
            ReportedPerson(person_id=f"p-{uid}", name=f"Pilot {uid}", hits=hits, ejected=ejected),
        ),
        crew_damage=crew_damage,
    )


def file(sha: str, *units: ReportedUnit, **extra: object) -> BattleFile:
    return BattleFile(
        sha256=sha * 64 if len(sha) == 1 else sha,
        path=f"{sha}.mul",
        root="record",
        reporting_side=None,
        units=units,
        **extra,  # type: ignore[arg-type]
    )


def submit(f: BattleFile) -> SubmitBattleReport:
    return SubmitBattleReport(file=f, actor="t")


def control(battle_id: str, side: str) -> SetBattleControl:
    return SetBattleControl(battle_id=battle_id, side_id=side, actor="t")


def close(battle_id: str, side: str | None = None) -> CloseBattle:
    return CloseBattle(battle_id=battle_id, control_side=side, note=NOTE, actor="t")
