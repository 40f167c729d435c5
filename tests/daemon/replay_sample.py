"""Build the bundled replay set ``daemon/samples/replay`` from two real MegaMek records.

Run from the project folder: ``python tests/daemon/replay_sample.py daemon/samples/replay``.
``test_daemon_replay.py`` checks that the committed set is what this script writes, so the
set-up and the recorded files never drift apart.

The campaign: three sides whose units are exactly the units (and externalIds) of the records.
- ``01-bob.mul``: MegaMek's ``bob.mul``, an end-of-game record of a fighter squadron
  ("home"); the DropShip and small craft in it are not campaign units (listed as unmatched).
  Afterwards the referee gives "home" control of the field, which resolves the battle.
- ``02-clusterstrike.mul``: a Word of Blake player's record of a fight against the Federated
  Suns (survivors, allies, salvage, devastated, kills, ejected pilots). The Federated Suns
  file never arrives, so the referee closes the battle on the one record.

Every unit's design is in ``units/`` beside the set (real MegaMek files, origins in its
README.md): the set-up records them (``RecordDesigns``, the command ``mekref force designs
--units-dir units`` issues), so the battles are priced, and takes each unit's tonnage from them.
"""

from __future__ import annotations

import hashlib
import json
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.mul_model import Entity, Section
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.unit_file import is_unit_file, parse_unit_file
from mekref.rules.messages import Command, RefereeNote
from mekref.rules.tripwire.battle_messages import CloseBattle, SetBattleControl
from mekref.rules.tripwire.commands import CreateCampaign, ImportForce, SideSpec
from mekref.rules.tripwire.designs import record_designs
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

# This rule set's message codec (names kept from the shared registry).
COMMANDS = TRIPWIRE.commands

FIXTURES = Path(__file__).parent.parent / "fixtures" / "megamek"
#: The designs of the sample's units, committed beside the set (see its README.md).
UNITS = Path(__file__).parents[2] / "daemon" / "samples" / "replay" / "units"
REFEREE = "Referee"
FILES = {"01-bob.mul": "bob.mul", "02-clusterstrike.mul": "clusterstrike-batchall-record.mul"}
# Kind and BV per chassis (the records do not carry them; the tonnage comes from the design).
DESIGNS: dict[str, tuple[UnitKind, int]] = {
    "Huscarl": (UnitKind.AEROSPACE_FIGHTER, 1500),
    "Atlas III": (UnitKind.MEK, 2400),
    "Black Knight": (UnitKind.MEK, 1800),
    "Bandersnatch": (UnitKind.MEK, 1750),
    "Avatar": (UnitKind.MEK, 1500),
    "Flashman": (UnitKind.MEK, 1600),
    "Rifleman": (UnitKind.MEK, 1200),
    "Penetrator": (UnitKind.MEK, 1700),
}
OWN = (Section.SURVIVORS, Section.ALLIES)


@cache
def unit_designs() -> dict[tuple[str, str], UnitDesign]:
    """The designs in ``units/``, by (chassis, model)."""
    found: dict[tuple[str, str], UnitDesign] = {}
    for path in sorted(UNITS.iterdir()):
        if is_unit_file(path.name):
            design = parse_unit_file(path.read_bytes(), path.name)
            found[(design.chassis, design.model)] = design
    return found


def _design(entity: Entity) -> UnitDesign:
    design = unit_designs().get((entity.chassis, entity.model))
    assert design is not None, f"no design in {UNITS} for {entity.chassis} {entity.model}"
    return design


def _unit(entity: Entity) -> ForceUnit:
    kind, bv = DESIGNS[entity.chassis]
    assert entity.external_id is not None
    tons = _design(entity).tonnage
    assert tons is not None
    return ForceUnit(
        unit_id=entity.external_id,
        chassis=entity.chassis,
        model=entity.model,
        kind=kind,
        tonnage=Fraction(str(tons)),
        bv=bv,
        crew=tuple(
            CrewSkills(
                person_id=m.external_id,
                name=m.name,
                gunnery=m.gunnery if m.gunnery is not None else 4,
                piloting=m.piloting if m.piloting is not None else 5,
            )
            for m in entity.members
            if m.external_id
        ),
    )


def _force(entities: list[Entity]) -> ForceDescription:
    lances = tuple(
        Lance(name=f"Lance {n + 1}", units=tuple(_unit(e) for e in entities[i : i + 4]))
        for n, i in enumerate(range(0, len(entities), 4))
    )
    return ForceDescription(
        companies=(Company(name="Company", role=CompanyRole.MEK_COMPANY, lances=lances),)
    )


def _import(side: str, entities: list[Entity]) -> ImportForce:
    return ImportForce(
        actor=REFEREE,
        side_id=side,
        force=_force(entities),
        accept_unchecked=RefereeNote(
            referee=REFEREE, reason="sample campaign built from recorded battles"
        ),
    )


def _designs(side: str, entities: list[Entity]) -> Command:
    """What ``mekref force designs --units-dir units`` records for the side's units."""
    found = {e.external_id: _design(e) for e in entities if e.external_id is not None}
    command = record_designs(side, found, actor=REFEREE)
    assert command is not None
    return command


def _units(name: str) -> tuple[list[Entity], str]:
    data = (FIXTURES / FILES[name]).read_bytes()
    mul = read_mul_bytes(data, name)
    units = [e for e in mul.entities if not e.is_ejected_crew and e.chassis in DESIGNS]
    return units, "battle-" + hashlib.sha256(data).hexdigest()[:12]


def commands() -> tuple[list[Command], dict[str, list[Command]]]:
    bob, bob_battle = _units("01-bob.mul")
    cluster, cluster_battle = _units("02-clusterstrike.mul")
    wob = [e for e in cluster if e.section in OWN]
    fedsuns = [e for e in cluster if e.section not in OWN]
    setup: list[Command] = [
        CreateCampaign(
            actor=REFEREE,
            name="Replay sample",
            ruleset="tripwire",
            seed="7",
            sides=(
                SideSpec(side_id="home", name="Home Guard"),
                SideSpec(side_id="wob", name="Word of Blake"),
                SideSpec(side_id="fedsuns", name="Federated Suns"),
            ),
        ),
        _import("home", bob),
        _import("wob", wob),
        _import("fedsuns", fedsuns),
        _designs("home", bob),
        _designs("wob", wob),
        _designs("fedsuns", fedsuns),
    ]
    after: dict[str, list[Command]] = {
        "01-bob.mul": [SetBattleControl(actor=REFEREE, battle_id=bob_battle, side_id="home")],
        "02-clusterstrike.mul": [
            CloseBattle(
                actor=REFEREE,
                battle_id=cluster_battle,
                control_side="wob",
                note=RefereeNote(
                    referee=REFEREE,
                    reason="the Federated Suns record was lost; closing on the Blake record",
                ),
            )
        ],
    }
    return setup, after


def _text(cmds: list[Command]) -> str:
    body: dict[str, Any] = {"format": 1, "commands": [COMMANDS.to_json(c) for c in cmds]}
    return json.dumps(body, indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def expected_files() -> dict[str, bytes]:
    setup, after = commands()
    out = {"setup.json": _text(setup).encode()}
    for name, source in FILES.items():
        out[name] = (FIXTURES / source).read_bytes()
        out[f"{name}.after.json"] = _text(after[name]).encode()
    return out


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, data in expected_files().items():
        (folder / name).write_bytes(data)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
