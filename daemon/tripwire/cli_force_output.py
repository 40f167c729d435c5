"""What ``mekref force import`` prints of the units it reads, and the death rolls it makes.

The force table (ids, kinds, tons, BV, place in the TO&E, crews, notes), then one line per unit
for the condition it comes in with and for every note about it (the standard load taken from the
design, what the books do not keep), one per crew member with hits, and the L125 death roll of
each person the list gives 5 hits (rulings R-IMP-1 to R-IMP-3 in docs/rulings.md); the force
check's verdict (ruling R-FORCE-14).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from mekref.adapters.megamek.mul_model import DEAD_HITS
from mekref.daemon.tripwire.cli_campaign import run_command
from mekref.daemon.tripwire.cli_force_list import condition_text
from mekref.rules.tripwire.commands import ResolveDeathRoll
from mekref.rules.tripwire.events import DeathRollMade
from mekref.rules.tripwire.ruleset import tripwire_rules

if TYPE_CHECKING:
    from mekref.daemon.tripwire.cli_force import ImportedUnit
    from mekref.rules.tripwire.force_report import ForceReport


def print_units(console: Any, units: list[ImportedUnit]) -> None:
    from rich.table import Table  # rich loads when this prints (force list --json loads none)

    table = Table(title="force", title_justify="left")
    for column in ("id", "unit", "kind", "tons", "BV", "company / lance", "crew", "notes"):
        table.add_column(column, overflow="fold")
    for item in units:
        u = item.unit
        table.add_row(
            u.unit_id[:8],
            f"{u.chassis} {u.model}".strip(),
            u.kind.value,
            # 0 is what the import keeps when no design gives the weight: not known, not 0 t.
            f"{float(u.tonnage):g}" if u.tonnage else "unknown",
            str(u.bv) if u.bv else "no BV",
            f"{item.company} / {item.lance}",
            ", ".join(f"{c.name} {c.gunnery}/{c.piloting}" for c in u.crew),
            "; ".join(item.notes),
        )
    console.print(table)


def print_condition(console: Any, units: list[ImportedUnit]) -> None:
    """What the list says of each unit's condition and crew, as the campaign will keep it.

    A note that several units of one design share (a company of Griffins each taking the
    standard load from the design) prints once with the number of units: one line per unit
    buried the damaged units' lines among dozens of identical ones."""
    from rich.text import Text  # rich loads when this prints (force list --json loads none)

    notes: Counter[str] = Counter()
    for item in units:
        came = item.condition
        name = f"{item.unit.chassis} {item.unit.model}".strip()
        if came is not None and came.damage is not None:
            console.print(f"{name}: came in damaged: {condition_text(came.damage)}")
        notes.update(f"{name}: {note}" for note in (came.notes if came is not None else ()))
        for remark in item.remarks:
            console.print(Text(f"{name}: {remark}"))
        for c in item.unit.crew:
            if c.hits:
                state = "dead" if c.hits >= DEAD_HITS else f"{c.hits} hit(s)"
                console.print(f"{name}: {c.name}: {state}")
    for line, count in notes.items():
        console.print(Text(line if count == 1 else f"{line} ({count} units)"))


def death_rolls(console: Any, runner: Any, cid: str, units: list[ImportedUnit]) -> None:
    """L125: "A MechWarrior with 5 Damage has a chance of death on the operating table": a
    person the list gives 5 hits rolls now, as after a battle (ruling R-IMP-3)."""
    rules = tripwire_rules()
    for item in units:
        for c in item.unit.crew:
            if not rules.death_roll_due(c.hits):
                continue
            done = run_command(runner, cid, ResolveDeathRoll(person_id=c.person_id, actor="cli"))
            for e in done.events:
                if isinstance(e, DeathRollMade):
                    faces = " ".join(str(f) for r in e.rolls for f in r.faces)
                    console.print(
                        f"{c.name}: 5 hits, death roll (L125) {faces}: "
                        + ("dies" if e.dies else "survives")
                    )


def print_report(console: Any, report: ForceReport) -> None:
    """The check's verdict: the violations, then the checks whose verdict is not known (a BV
    limit with a unit of no BV, ruling R-FORCE-14), never "no violation" while one is."""
    unknown = report.not_known
    if report.violations:
        console.print(f"force construction: {len(report.violations)} violation(s)", style="bold")
        for v in report.violations:
            console.print(f"  - {v.describe()}")
    elif unknown:
        console.print(
            f"force construction: not known (no violation found; {len(unknown)} BV limit(s) "
            "not known)",
            style="bold",
        )
    else:
        console.print("force construction: no violation", style="bold")
    if unknown and report.violations:
        console.print(f"force construction: {len(unknown)} BV limit(s) not known", style="bold")
    for v in unknown:
        console.print(f"  - not known: {v.describe()}")
