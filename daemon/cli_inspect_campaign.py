"""``mekref inspect FILE.cpnx``: a MekHQ campaign previewed as ``force import`` would read it.

Each unit with its condition (as for a unit list: state, lost locations, ammunition), its place
in the TO&E, the crew's Gunnery/Piloting as MekHQ computes them and their hits, who commands,
and what the import would leave out. A crew whose skills cannot be read is shown with the
reason instead of refusing the file (``force import`` refuses it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mekref.adapters.megamek.mekhq_crew import CampaignImport, campaign_import
from mekref.adapters.megamek.mekhq_left_out import unit_notes
from mekref.adapters.megamek.mekhq_reader import read_campaign_bytes
from mekref.adapters.megamek.mul_summary import DesignLookup, UnitSummary, summarize

if TYPE_CHECKING:  # rich loads when a table is drawn, not for --json
    from rich.console import Console

#: Said under a table only when a kind in it was guessed: a footnote for nothing misleads.
GUESSED_KIND_NOTE = "kind '?' = guessed from the file's shape; pass --units-dir for designs"


def inspect_campaign(data: bytes, path: str, design_for: DesignLookup | None) -> dict[str, Any]:
    """The preview as plain data (what ``--json`` prints); raises ``MulReadError``."""
    campaign = read_campaign_bytes(data, path)
    imp = campaign_import(campaign, path, design_for, strict=False)
    summary = summarize(imp.mul, path, design_for)
    units = [_unit_json(imp, index, unit) for index, unit in enumerate(summary.units)]
    return {
        "file": path,
        "campaign": campaign.name,
        "mekhq_version": campaign.version,
        "units": units,
        "command": list(imp.command.lines),
        "not_taken": list(imp.not_taken),
        "notices": list(summary.notices),
    }


def _unit_json(imp: CampaignImport, index: int, unit: UnitSummary) -> dict[str, Any]:
    crew = imp.crews[index]
    place = (imp.mul.entities[index].force or "").split("||")
    names = [p.split("|")[0] for p in place if p]
    member = crew.member
    return {
        "unit": f"{unit.chassis} {unit.model}".strip(),
        "external_id": unit.external_id,
        "kind": unit.kind.value,
        "kind_source": unit.kind_source.value,
        "toe": names,
        "state": unit.state,
        "destroyed_locations": list(unit.destroyed_locations),
        "damaged_locations": list(unit.damaged_locations),
        "ammo": [{"location": a.location, "type": a.type, "shots": a.shots} for a in unit.ammo],
        "crew": None
        if member is None
        else {
            "name": member.name,
            "gunnery": member.gunnery,
            "piloting": member.piloting,
            "hits": member.hits,
        },
        "people": [
            {
                "name": p.name,
                "rank": p.rank,
                "hits": p.hits,
                "commander": p.commander,
                "injuries": [i.describe() for i in p.injuries],
            }
            for p in crew.people
        ],
        "force_commander": index in imp.command.force_commanders,
        "lance_leader": index in imp.command.lance_leaders,
        "problem": crew.problem,
        "notes": unit_notes(imp.campaign, crew),
    }


def _crew_cell(u: dict[str, Any]) -> str:
    if u["problem"]:
        return f"cannot be read: {u['problem']}"
    crew = u["crew"]
    if crew is None:
        return "no crew"
    text = f"{crew['name']} {crew['gunnery']}/{crew['piloting']}"
    if crew["hits"]:
        text += f" ({crew['hits']} hits)"
    role = (
        "Force Commander"
        if u["force_commander"]
        else "leads its lance"
        if u["lance_leader"]
        else ""
    )
    return f"{text}\n{role}" if role else text


def print_campaign(console: Console, payload: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    version = payload["mekhq_version"] or "no version (an early MekHQ)"
    console.print(
        Text.assemble(
            (payload["file"], "bold"),
            f"  MekHQ campaign {payload['campaign']!r}, MekHQ {version}",
            f"  {len(payload['units'])} units",
        )
    )
    table = Table(title="units as force import reads them", title_justify="left", expand=False)
    for column in ("unit", "kind", "company / lance", "crew G/P (hits)", "state", "lost", "ammo"):
        table.add_column(column, overflow="fold")
    for u in payload["units"]:
        kind = u["kind"].replace("_", " ") + (" ?" if u["kind_source"] == "shape" else "")
        ammo = "\n".join(f"{a['type']}: {a['shots']}" for a in u["ammo"])
        table.add_row(
            u["unit"],
            kind,
            " / ".join(u["toe"][-2:]) or "(no formation)",
            _crew_cell(u),
            u["state"],
            ", ".join(u["destroyed_locations"]),
            ammo,
        )
    console.print(table)
    for u in payload["units"]:
        for note in u["notes"]:
            console.print(Text(f"{u['unit']}: {note}"))
    for line in payload["command"]:
        console.print(Text(f"command: {line}"))
    for line in payload["not_taken"]:
        console.print(Text(f"not taken: {line}"))
    for notice in payload["notices"]:
        console.print(Text.assemble(("note", "yellow"), f" {notice}"))
    if any(u["kind_source"] == "shape" for u in payload["units"]):
        console.print(Text(GUESSED_KIND_NOTE, "dim"))
