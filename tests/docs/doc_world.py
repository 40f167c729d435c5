"""The folder a doc's commands run in: the files, stores and MegaMek folders its examples name,
made from the bundled samples and the project's real fixtures.

Each doc's examples assume things a group would have (a unit list ``alpha.mul``, a MekHQ
campaign, MegaMek's ``data/mekfiles``, the battle files MegaMek wrote into ``logs/``). Here
they are the bundled Ginestra sample, the Fox's Teeth MekHQ campaign fixture and records made
from those same units as MegaMek writes them at a game's end: the commands run unchanged.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from console_script import MEKREF
from doc_grpc import Grpc
from tls_files import self_signed

from mekref.adapters.megamek.mekhq_reader import read_campaign_bytes
from mekref.adapters.megamek.mul_model import (
    Crew,
    CrewMember,
    Entity,
    Location,
    MulFile,
    RootKind,
    Section,
)
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_writer import DEFAULT_WRITE_VERSION, write_mul

ROOT = Path(__file__).resolve().parents[2]
LEGAL = ROOT / "daemon" / "samples" / "ginestra" / "legal"
FOX = ROOT / "tests" / "fixtures" / "mekhq" / "FoxsTeeth.cpnx"
UNITS = ROOT / "tests" / "fixtures" / "megamek" / "units"
FOX_DESIGNS = ROOT / "tests" / "fixtures" / "megamek" / "designs-fox"
OMNI_DESIGNS = ROOT / "tests" / "fixtures" / "megamek" / "designs-omni"
#: The omni unit docs/campaign.md configures (a Bandit Hovercraft, an omni vehicle), and its
#: configurations' rows of MegaMek's BV table (MUL ids, tons and BVs from the MegaMek Unit
#: Digest: designs-omni/README.txt).
OMNI = ("Bandit Hovercraft", "A")
OMNI_BVS = "Bandit Hovercraft|A|230|50|902|\nBandit Hovercraft|B|231|50|753|\n"
#: The Fox's Teeth 'Mechs in the skirmish: the first is wrecked (their designs: FOX_DESIGNS).
FOX_IN_BATTLE = ("Hornet", "JagerMech")
#: The sample's DropShips (L9), listed before the lances they carry.
DROPSHIPS = ("Union", "Gazelle")


@dataclass
class World:
    """Where a doc's commands run (``work``), its ``HOME``, and the doc's placeholders."""

    work: Path
    home: Path
    subs: dict[str, str] = field(default_factory=dict)
    grpc: Grpc | None = None  # the servers its grpcurl blocks talk to

    @property
    def env(self) -> dict[str, str]:
        return {"HOME": str(self.home), "NO_COLOR": "1", "COLUMNS": "200"}


def run(world: World, *argv: str) -> str:
    """A set-up step through the console script; its stdout. It must succeed."""
    done = subprocess.run(
        [str(MEKREF), *argv], cwd=world.work, env={**_base_env(), **world.env},
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, (argv, done.stdout[-2000:], done.stderr[-2000:])
    return done.stdout


def _base_env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("MEKREF_")}


def new_world(folder: Path) -> World:
    """MegaMek's folders under ``HOME`` (its designs: the sample's and the fixtures'), and the
    files the docs name beside the stores: ``alpha.mul``, ``Units.txt``, ``Fox's Teeth.cpnx``,
    a certificate and key."""
    home, work = folder / "home", folder / "work"
    mekfiles = home / "megamek" / "data" / "mekfiles"
    shutil.copytree(LEGAL / "units", mekfiles)
    for design in (*UNITS.iterdir(), *FOX_DESIGNS.iterdir()):
        if design.is_file() and design.suffix in (".mtf", ".blk"):
            shutil.copy(design, mekfiles / design.name)
    for sub in ("logs", "savegames"):
        (home / "megamek" / sub).mkdir(parents=True)
    work.mkdir()
    shutil.copy(LEGAL / "loyalist.mul", work / "alpha.mul")
    shutil.copy(LEGAL / "Units.txt", work / "Units.txt")
    shutil.copy(FOX, work / "Fox's Teeth.cpnx")
    cert, key = self_signed(folder)
    shutil.copy(cert, work / "server.pem")
    shutil.copy(key, work / "server.key")
    shutil.copy(cert, work / "clients-ca.pem")
    return World(work=work, home=home)


def with_an_omni(world: World) -> None:
    """``alpha.mul`` with the last Bulldog of Charlie Company's Armour Lance (its "Militia crew
    3") a Bandit Hovercraft A instead, the omni's design in MegaMek's data and its
    configurations' BVs in ``Units.txt``: docs/campaign.md's omni configuration block runs on
    it. The sample has no omni of its own; the swap keeps the company's vehicle count, and its
    BV stays under L15's 10,000."""
    mul = world.work / "alpha.mul"
    text = mul.read_text(encoding="utf-8")
    crew = text.index('<pilot name="Militia crew 3"')
    bulldog = 'chassis="Bulldog Medium Tank" model="" type="Tracked"'
    start = text.rindex(bulldog, 0, crew)
    swapped = f'chassis="{OMNI[0]}" model="{OMNI[1]}" type="Hover"'
    mul.write_text(text[:start] + swapped + text[start + len(bulldog) :], encoding="utf-8")
    for design in OMNI_DESIGNS.glob("*.blk"):
        shutil.copy(design, world.home / "megamek" / "data" / "mekfiles" / design.name)
    with (world.work / "Units.txt").open("a", encoding="utf-8") as table:
        table.write(OMNI_BVS)


def legal_on_the_map(world: World, db: str) -> None:
    """The bundled legal Ginestra sample on its strategic map, as its README makes it: both
    sides imported checked, then ``turn setup`` with its ``strategic.toml`` (Day Zero)."""
    run(world, "campaign", "new", "--db", db, "--name", "Ginestra", "--seed", "3065",
        "--side", "loyalist:Loyalists", "--side", "rebel:Rebels")  # fmt: skip
    for side, militia in (("loyalist", "Loyalist Militia"), ("rebel", "Rebel Militia")):
        run(world, "force", "import", "--db", db, "--side", side, str(LEGAL / f"{side}.mul"),
            "--units-dir", str(LEGAL / "units"), "--bv-table", str(LEGAL / "Units.txt"),
            "--militia", militia)  # fmt: skip
    run(world, "turn", "setup", "--db", db, "--file", str(LEGAL / "strategic.toml"))


def _record(entities: list[Entity]) -> str:
    return write_mul(
        MulFile(root=RootKind.RECORD, version=DEFAULT_WRITE_VERSION, entities=tuple(entities))
    )


def _wrecked(e: Entity) -> Entity:
    """Left on the field with both legs destroyed (MUL locations 6, 7): immobile, so salvage
    for the side holding the field, and not truly destroyed (L146), so it may be kept."""
    legs = tuple(Location(index=i, name="", armor=0, internal=0, destroyed=True) for i in (6, 7))
    return replace(e, section=Section.SALVAGE, locations=legs)


def alpha_vs_fox_records(logs: Path) -> None:
    """What MegaMek writes into ``logs/`` after a skirmish of the first lance of ``alpha.mul``
    against two Fox's Teeth 'Mechs: each player's record, the Atlas hit to the structure, the
    Marauder to the armour, the Wolverine truly destroyed, the Hornet's legs shot off and the
    Hornet left on the field. The MekHQ units carry no
    crew in their entity (MekHQ keeps people apart); MegaMek's record names the pilot MekHQ
    seated."""
    listed = read_mul_bytes((LEGAL / "loyalist.mul").read_bytes()).entities
    loyal = [e for e in listed if e.chassis not in DROPSHIPS][:4]  # Alpha's Command Lance
    fox = read_campaign_bytes(FOX.read_bytes())
    names = {p.person_id: p.name for p in fox.people}
    rebels = []
    for chassis in FOX_IN_BATTLE:
        unit = next(u for u in fox.units if u.entity.chassis == chassis)
        pilot = CrewMember(name=names.get(unit.driver_id or "", "Unknown"))
        rebels.append(replace(unit.entity, crew=Crew(members=(pilot,))))
    wreck = _wrecked(rebels[0])
    atlas = replace(loyal[0], locations=(Location(index=1, name="", armor=10, internal=25),))
    marauder = replace(loyal[1], locations=(Location(index=1, name="", armor=20),))
    # The Wolverine's centre torso is gone: truly destroyed (L146), its slot in Alpha
    # Company's Command Lance free for kept salvage.
    gone = Location(index=1, name="", armor=0, internal=0, destroyed=True)
    wolverine = replace(loyal[3], section=Section.SALVAGE, locations=(gone,))
    survivors = [replace(e, section=Section.SURVIVORS) for e in (atlas, marauder, loyal[2])]
    fox_left = [replace(e, section=Section.SURVIVORS) for e in rebels[1:]]
    (logs / "Anna.mul").write_text(_record([*survivors, wolverine, wreck]), encoding="utf-8")
    (logs / "Bruno.mul").write_text(_record([*fox_left, wolverine, wreck]), encoding="utf-8")


def first(world: World, *argv: str, key: str, table: str = "") -> str:
    """The first row's ``key`` of a ``--json`` listing (of its ``table``, when it has several)."""
    rows = json.loads(run(world, *argv, "--json"))
    return str((rows[table] if table else rows)[0][key])


if __name__ == "__main__":  # a look at a world: python tests/docs/doc_world.py FOLDER
    made = new_world(Path(sys.argv[1]))
    alpha_vs_fox_records(made.home / "megamek" / "logs")
    print(made.work)
