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
"""

from __future__ import annotations

import hashlib
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from mekref.adapters.megamek.mul_model import Entity, Section
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.rules.messages import Command, RefereeNote
from mekref.rules.tripwire.battle_messages import CloseBattle, SetBattleControl
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
)

# This rule set's message codec (names kept from the shared registry).
COMMANDS = TRIPWIRE.commands

FIXTURES = Path(__file__).parent.parent / "fixtures" / "megamek"
REFEREE = "Referee"
FILES = {"01-bob.mul": "bob.mul", "02-clusterstrike.mul": "clusterstrike-batchall-record.mul"}
# Tonnage and BV per design (the records do not carry them).
DESIGNS: dict[str, tuple[UnitKind, int, int]] = {
    "Huscarl": (UnitKind.AEROSPACE_FIGHTER, 70, 1500),
    "Atlas III": (UnitKind.MEK, 100, 2400),
    "Black Knight": (UnitKind.MEK, 75, 1800),
    "Bandersnatch": (UnitKind.MEK, 75, 1750),
    "Avatar": (UnitKind.MEK, 70, 1500),
    "Flashman": (UnitKind.MEK, 75, 1600),
    "Rifleman": (UnitKind.MEK, 60, 1200),
    "Penetrator": (UnitKind.MEK, 75, 1700),
}
OWN = (Section.SURVIVORS, Section.ALLIES)


def _unit(entity: Entity) -> ForceUnit:
    kind, tons, bv = DESIGNS[entity.chassis]
    assert entity.external_id is not None
    return ForceUnit(
        unit_id=entity.external_id,
        chassis=entity.chassis,
        model=entity.model,
        kind=kind,
        tonnage=Fraction(tons),
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


def _units(name: str) -> tuple[list[Entity], str]:
    data = (FIXTURES / FILES[name]).read_bytes()
    mul = read_mul_bytes(data, name)
    units = [e for e in mul.entities if not e.is_ejected_crew and e.chassis in DESIGNS]
    return units, "battle-" + hashlib.sha256(data).hexdigest()[:12]


def commands() -> tuple[list[Command], dict[str, list[Command]]]:
    bob, bob_battle = _units("01-bob.mul")
    cluster, cluster_battle = _units("02-clusterstrike.mul")
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
        _import("wob", [e for e in cluster if e.section in OWN]),
        _import("fedsuns", [e for e in cluster if e.section not in OWN]),
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
