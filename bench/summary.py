"""The one table ``python -m bench`` ends with: each measure, its anchor, the project, the ratio
and the goal, collected from the benchmarks that ran in this process."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    measure: str
    anchor: str
    project: str
    ratio: str
    goal: str
    met: bool | None  # None: no goal to judge


ROWS: list[Row] = []


def add(measure: str, anchor: str, project: str, ratio: str, goal: str, met: bool | None) -> None:
    ROWS.append(Row(measure, anchor, project, ratio, goal, met))


def table(rows: list[Row] | None = None) -> str:
    rows = ROWS if rows is None else rows
    lines = [
        "| measure | anchor, same run | mekref | ratio | goal | met |",
        "|---|---|---|---:|---|---|",
    ]
    for r in rows:
        met = "-" if r.met is None else ("yes" if r.met else "**no**")
        lines.append(f"| {r.measure} | {r.anchor} | {r.project} | {r.ratio} | {r.goal} | {met} |")
    return "\n".join(lines)
