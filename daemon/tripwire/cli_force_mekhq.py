"""``force import`` of a MekHQ campaign: its crews read once designs are known (the unit kind
decides which skills count), and what the import prints of command and of what it leaves out
(rulings R-IMP-4, R-IMP-5)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mekref.adapters.megamek.errors import MulReadError
from mekref.adapters.megamek.mekhq_crew import CampaignImport, DesignFor, campaign_import
from mekref.adapters.megamek.mekhq_left_out import unit_notes
from mekref.adapters.megamek.mekhq_model import Campaign
from mekref.daemon.cli_common import CliError


def campaign_for_import(
    campaign: Campaign, path: Path, design_for: DesignFor | None
) -> CampaignImport:
    try:
        return campaign_import(campaign, str(path), design_for)
    except MulReadError as exc:
        raise CliError(exc.one_line(), exc.exit_code) from exc


def remarks_by_position(mekhq: CampaignImport) -> dict[int, tuple[str, ...]]:
    """Each unit's lines (skills' arithmetic, injuries, abilities), by its place in the list."""
    return {
        index: tuple(unit_notes(mekhq.campaign, crew)) for index, crew in enumerate(mekhq.crews)
    }


def print_mekhq_report(console: Any, mekhq: CampaignImport) -> None:
    """Who commands, as the campaign records it, and every kind of thing not taken."""
    from rich.text import Text  # rich loads when this prints (force list --json loads none)

    version = mekhq.campaign.version or "no version (an early MekHQ)"
    console.print(Text(f"MekHQ campaign {mekhq.campaign.name!r}, written by MekHQ {version}"))
    for line in mekhq.command.lines:
        console.print(Text(f"command: {line}"))
    for line in mekhq.not_taken:
        console.print(Text(f"not taken: {line}"))
