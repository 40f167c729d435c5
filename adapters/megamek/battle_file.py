"""Any MegaMek battle file, read: a unit list or record (``.mul``) or a savegame (``.sav.gz``).

The daemon's one pipeline reads every battle file through :func:`read_battle_file`: a MUL is
read as before; a savegame is read (:mod:`.savegame_reader`) and projected to the same
:class:`~.mul_model.MulFile` a record gives (:mod:`.savegame_record`), together with the unit
designs the save itself records. A savegame whose game has not ended (a round autosave) carries
the reason it must wait (:attr:`BattleFileRead.waiting`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from lxml import etree

from mekref.adapters.megamek.design import UnitDesign
from mekref.adapters.megamek.errors import FilePosition, MulReadError
from mekref.adapters.megamek.gzip_safety import is_gzip
from mekref.adapters.megamek.held_reasons import GAME_IN_PROGRESS
from mekref.adapters.megamek.mul_model import Entity, MulFile
from mekref.adapters.megamek.mul_reader import read_mul_bytes
from mekref.adapters.megamek.mul_summary import DesignLookup
from mekref.adapters.megamek.savegame_reader import read_savegame_bytes
from mekref.adapters.megamek.savegame_record import SaveGameRecord, to_record
from mekref.adapters.megamek.xml_safety import DEFAULT_MAX_BYTES, limits_for

SAVEGAME_SUFFIXES = (".sav.gz", ".sav")


def is_savegame_name(path: str) -> bool:
    return PurePath(path).name.lower().endswith(SAVEGAME_SUFFIXES)


@dataclass(frozen=True)
class BattleFileRead:
    mul: MulFile
    savegame: SaveGameRecord | None = None

    @property
    def waiting(self) -> str | None:
        """Why this file must wait before it is applied (a game still in progress), or None."""
        if self.savegame is None or self.savegame.save.game_over:
            return None
        save = self.savegame.save
        phase = (save.phase or "unknown").lower().replace("_", " ")
        return (
            f"{GAME_IN_PROGRESS} (round {save.round if save.round is not None else '?'}, "
            f"{phase} phase): a savegame is applied once its game has ended (saved in the "
            "victory phase); if this battle is over, the referee applies it with "
            "`mekref battle ingest --game-over FILE --referee NAME --reason TEXT`"
        )

    def designs(self, catalog: DesignLookup | None) -> DesignLookup | None:
        """Designs for the file's entities: a savegame's own (its units' original armor and
        structure are in it), else the catalog's."""
        if self.savegame is None:
            return catalog
        own = self.savegame.designs

        def lookup(entity: Entity) -> UnitDesign | None:
            design = own.get(entity.game_id) if entity.game_id is not None else None
            if design is None and catalog is not None:
                return catalog(entity)
            return design

        return lookup


def read_battle_file(
    data: bytes, path: str, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> BattleFileRead:
    """Read a MUL or a savegame (by its gzip signature or its name); raise MulReadError."""
    try:
        if is_gzip(data) or is_savegame_name(path):
            record = to_record(read_savegame_bytes(data, path, max_compressed=max_bytes))
            return BattleFileRead(record.mul, record)
        return BattleFileRead(read_mul_bytes(data, path, limits=limits_for(max_bytes)))
    except etree.LxmlError as exc:
        # The readers word every refusal they foresee; anything libxml2 or its XPath still
        # raises on a crafted file (a limit of its own, an allocation it gave up on) is a
        # refusal too, in one line, never a traceback or a retry.
        message = " ".join(str(exc).split()) or type(exc).__name__
        raise MulReadError(
            FilePosition(path),
            f"unreadable XML: {message}",
            "the file was crafted or damaged; export or save it again from MegaMek",
            refused=True,
        ) from None
