"""The files ``mekref force import`` reads: the unit list or MekHQ campaign, ``--bv-table`` and
the designs under ``--units-dir``. Each is a file a person named: read through
:func:`~mekref.daemon.watch.reading.read_named` (a link followed, a regular file only, never
past its cap), and a file that cannot be used is one line saying what to do. Each reader
loads with its first use (``battle ingest`` imports this module for ``--units-dir`` alone).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mekref.adapters.megamek.errors import EXIT_REFUSED_FILE, MulReadError
from mekref.daemon.cli_common import CliError
from mekref.daemon.watch.reading import FileTooLarge, NotRegularFile, read_named

if TYPE_CHECKING:
    from mekref.adapters.megamek.bv_table import BvTable
    from mekref.adapters.megamek.mekhq_model import Campaign
    from mekref.adapters.megamek.mul_model import MulFile
    from mekref.adapters.megamek.mul_summary import DesignLookup

#: MegaMek's whole unit cache exported by MekCacheCSVTool is a few MB.
MAX_BV_TABLE_BYTES = 64 * 1024 * 1024


def read_mul(path: Path) -> tuple[MulFile | None, Campaign | None]:
    """A MegaMek unit list, or a MekHQ campaign (its crews are read once designs are known)."""
    from mekref.adapters.megamek.mekhq_reader import (
        CAMPAIGN_LIMITS,
        is_campaign,
        read_campaign_bytes,
    )
    from mekref.adapters.megamek.mul_reader import read_mul_bytes

    try:
        # A campaign (its own caps apply once it is read) is the largest file this takes.
        data = read_named(path, CAMPAIGN_LIMITS.max_bytes)
    except NotRegularFile as exc:
        raise CliError(f"{path}: {exc.refusal()}", EXIT_REFUSED_FILE) from None
    except FileTooLarge as exc:
        message = f"{path}: {exc}; a unit list or MekHQ campaign is far smaller: check the path"
        raise CliError(message, EXIT_REFUSED_FILE) from None
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror}); check the path") from exc
    try:
        if is_campaign(data, str(path)):
            return None, read_campaign_bytes(data, str(path))
        return read_mul_bytes(data, str(path)), None
    except MulReadError as exc:
        raise CliError(exc.one_line(), exc.exit_code) from exc


def design_lookup(units_dir: Path | None) -> DesignLookup | None:
    return None if units_dir is None else units_catalog(units_dir)


def units_catalog(units_dir: Path) -> DesignLookup:
    """The designs of ``--units-dir``; a CLI error saying why when the folder cannot serve."""
    from mekref.daemon.design_lookup import CatalogUnavailable, catalog_lookup

    try:
        return catalog_lookup(units_dir, progress=False)
    except CatalogUnavailable as exc:
        raise CliError(str(exc)) from exc


def bv_table(path: Path | None) -> BvTable | None:
    if path is None:
        return None
    from mekref.adapters.megamek.bv_table import BvTableError, parse_units_txt

    try:
        return parse_units_txt(read_named(path, MAX_BV_TABLE_BYTES).decode("utf-8"), str(path))
    except NotRegularFile as exc:
        raise CliError(f"--bv-table {path}: {exc.refusal()}") from None
    except UnicodeDecodeError as exc:
        raise CliError(f"--bv-table {path}: not UTF-8 text ({exc.reason})") from None
    except (OSError, BvTableError) as exc:
        raise CliError(f"--bv-table: {exc}") from exc
