"""A small Ginestra campaign for the turn tests: two sides, their units, the map started."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from mekref.adapters.megamek.blk_reader import parse_blk
from mekref.rules.messages import Command, Event, RefereeNote
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.designs import RecordDesigns, stored_design
from mekref.rules.tripwire.game import TRIPWIRE
from mekref.rules.tripwire.model import (
    Company,
    CompanyRole,
    CrewSkills,
    ForceDescription,
    ForceUnit,
    Lance,
    UnitKind,
)
from mekref.rules.tripwire.state import CampaignState
from mekref.rules.tripwire.turn.setup import FormationSpec, PlaceFormations, StartStrategicMap
from mekref.rules.tripwire.turn.state import UnitMobility

REFEREE = "referee"
UNITS = Path(__file__).resolve().parents[1] / "fixtures" / "megamek" / "units"
NOTE = RefereeNote(referee="ref", reason="a small test force")

# (unit id, chassis, model, kind, tons, bv, walk, mode, lance, pilot piloting)
LOYALIST = (
    ("L-GRF", "Griffin", "GRF-1N", UnitKind.MEK, 55, 1272, 5, "leg", "Alpha", 5),
    ("L-WVR", "Wolverine", "WVR-6R", UnitKind.MEK, 55, 1101, 5, "leg", "Alpha", 5),
    ("L-SHD", "Shadow Hawk", "SHD-2H", UnitKind.MEK, 55, 1064, 5, "leg", "Alpha", 5),
    ("L-LCT", "Locust", "LCT-1V", UnitKind.MEK, 20, 432, 8, "leg", "Alpha", 4),
    ("L-MAX", "Maxim Heavy Hover Transport", "(Fire Support)", UnitKind.COMBAT_VEHICLE,
     50, 600, 8, "hover", "Militia", 5),
    ("L-RPR", "Rapier", "RPR-300", UnitKind.AEROSPACE_FIGHTER, 85, 1500, 6, "aerospace", "Air", 4),
)  # fmt: skip
REBEL = (
    ("R-JR7", "Jenner", "JR7-D", UnitKind.MEK, 35, 875, 7, "leg", "Bravo", 5),
    ("R-MAD", "Marauder", "MAD-3R", UnitKind.MEK, 75, 1363, 4, "leg", "Bravo", 5),
    ("R-AS7", "Atlas", "AS7-D", UnitKind.MEK, 100, 1897, 3, "leg", "Bravo", 5),
    ("R-BLD", "Bulldog Medium Tank", "", UnitKind.COMBAT_VEHICLE,
     60, 700, 4, "tracked", "Militia", 5),
)  # fmt: skip


def _force(rows: tuple[tuple[object, ...], ...]) -> ForceDescription:
    lances: dict[str, list[ForceUnit]] = {}
    for uid, chassis, model, kind, tons, bv, _walk, _mode, lance, piloting in rows:
        assert isinstance(uid, str) and isinstance(lance, str) and isinstance(kind, UnitKind)
        lances.setdefault(lance, []).append(
            ForceUnit(
                unit_id=uid,
                chassis=str(chassis),
                model=str(model),
                kind=kind,
                tonnage=Fraction(int(str(tons))),
                bv=int(str(bv)),
                crew=(
                    CrewSkills(
                        person_id=f"P-{uid}",
                        name=f"Pilot {uid}",
                        gunnery=4,
                        piloting=int(str(piloting)),
                    ),
                ),
            )
        )
    company = Company(
        name="Force",
        role=CompanyRole.MEK_COMPANY,
        lances=tuple(Lance(name=n, units=tuple(u)) for n, u in sorted(lances.items())),
    )
    return ForceDescription(companies=(company,))


def mobility() -> tuple[UnitMobility, ...]:
    out = []
    for uid, *_rest, walk, mode, _lance, _p in (*LOYALIST, *REBEL):
        fuel = 400 if mode == "aerospace" else 0
        out.append(
            UnitMobility(
                unit_id=str(uid),
                walk_mp=int(str(walk)),
                mode=str(mode),
                fuel=fuel,
                max_fuel=fuel,
                safe_thrust=6 if mode == "aerospace" else 0,
                rugged=uid == "L-GRF",  # the Griffin GRF-1N has quirk:rugged_1
            )
        )
    return tuple(out)


def fixture_design(side_id: str, unit_id: str, file_name: str) -> RecordDesigns:
    """A fixture unit file's design recorded for one unit, as ``force import`` records it (a
    DropShip's motion type tells aerodyne from spheroid, ruling T-LZ5)."""
    text = (UNITS / file_name).read_text(encoding="utf-8")
    design = stored_design(parse_blk(text, file_name))
    return RecordDesigns(
        actor=REFEREE, side_id=side_id, designs=(design,), units=((unit_id, design.key),)
    )


def run(state: CampaignState, *commands: Command) -> tuple[CampaignState, list[Event]]:
    events: list[Event] = []
    for cmd in commands:
        new, state = TRIPWIRE.execute(state, cmd)
        events += new
    return state, events


def started(
    seed: str = "ginestra-test", control: tuple[tuple[str, str], ...] = ()
) -> CampaignState:
    state, _ = run(
        CampaignState(),
        CreateCampaign(
            actor=REFEREE,
            name="Ginestra",
            ruleset="tripwire",
            seed=seed,
            sides=(
                SideSpec(side_id="loyalist", name="Loyalists"),
                SideSpec(side_id="rebel", name="Rebels"),
            ),
        ),
        ImportForce(
            actor=REFEREE, side_id="loyalist", force=_force(LOYALIST), accept_unchecked=NOTE
        ),
        ImportForce(actor=REFEREE, side_id="rebel", force=_force(REBEL), accept_unchecked=NOTE),
        StartStrategicMap(
            actor=REFEREE,
            map_name="ginestra",
            attacker="rebel",
            defender="loyalist",
            mobility=mobility(),
            control=control
            or (
                ("Bagnorgeio", "loyalist"),
                ("Bagnorgeio Space Port", "loyalist"),
                ("Combat Systems Manufacturing Facility", "loyalist"),
                ("Forward Deployment Base", "rebel"),
            ),
        ),
    )
    return state


def placed(
    state: CampaignState, loyalist: tuple[FormationSpec, ...], rebel: tuple[FormationSpec, ...]
) -> CampaignState:
    state, _ = run(
        state,
        PlaceFormations(actor="loyalist", side_id="loyalist", day=1, formations=loyalist),
        PlaceFormations(actor="rebel", side_id="rebel", day=1, formations=rebel),
    )
    return state
