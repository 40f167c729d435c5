"""Issue 27: ``make demo``'s Ginestra walk-through (``python -m
mekref.daemon.samples.ginestra.demo``, in a fresh process, each step a ``mekref`` command) shows
WarChest Points moved by Load/Unload in a DropShip linked by command, a wiped-out side's file
applied and its battle resolved without ``battle close``, and the VP total moving with kept
salvage.

L59: "Each Union DropShip carries 250 WP or resources. ... WarChest Points may be moved from one
location to another, but this requires a Load/Unload action."
L136: the side that controls the field "take control of the the 'Mech and may either keep it
(only if they have space in there TO&E) or sell it."
L426: "Each location which has at least a subforce (e.g. Lance) of units garrisoning it
unopposed scores 1 Victory Point."
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path


def _section(text: str, title: str) -> str:
    """What the demo printed under its ``## title`` heading, up to the next one."""
    return text.split(f"\n## {title}", 1)[1].split("\n## ", 1)[0]


def test_the_ginestra_demo_moves_wp_applies_a_wiped_out_file_and_scores_kept_salvage(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-m", "mekref.daemon.samples.ginestra.demo", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=600, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    text = done.stdout
    # Alpha's Union: its pool opened empty and linked by command (T-C3).
    linked = _section(text, "... and linked to the Union by command")
    assert "TransportLinked: side_id=loyalist, pool_id=l-union-a" in linked
    # Day 1 loads 200 WP at the Space Port, day 2 the Union hops to Bagnorgeio, day 3 unloads.
    assert "l-union-a:load_unload --param l-union-a:from=bagnorgeio-space-port" in text
    assert "l-union-a:suborbital_hop::0508" in text
    assert "--param l-union-a:from=l-union-a --param l-union-a:to=bagnorgeio" in text
    # BR-1: the rebels' file, every unit of theirs destroyed, is the rebels' view: the battle
    # resolves as it is ingested (no 'battle close', no waiting for a "missing rebel").
    wiped = _section(text, "The rebel lance is wiped out")
    assert re.search(r"day3-1105-1-rebel-record\.mul: \d+ units for battle \S+, view of side rebel",
                     wiped), wiped  # fmt: skip
    assert "resolved, loyalist holds the field" in wiped and "waits" not in wiped
    assert "$ mekref battle close" not in text
    # The Facility contested on day 3 (4 strategic VP); on day 4 alpha's three 'Mechs and the
    # kept, crewed Griffin hold it (5).
    assert "strategic VP: loyalist 4, rebel 1" in _section(text, "The referee resolves day 3")
    assert "SalvageKept" in _section(text, "Salvage: the loyalists keep the rebels' Griffin")
    assert "strategic VP: loyalist 5, rebel 1" in _section(text, "The referee resolves day 4")
    overview = _section(text, "The referee's overview")
    # The WarChest table: id (what --pool takes), name, side, kind, WP, capacity.
    rows = {cells[1]: cells[2:] for line in overview.splitlines() if line.startswith("│")
            for cells in [[c.strip() for c in line.strip("│").split("│")]]
            if len(cells) > 1}  # fmt: skip
    assert rows["Bagnorgeio"][:3] == ["loyalist", "location", "1200"]
    assert rows["Bagnorgeio Space Port"][:3] == ["loyalist", "location", "800"]
    assert rows["Alpha's Union"][:4] == ["loyalist", "dropship", "0", "250"]
    assert "VP total (battle + strategic): loyalist 7 (2 + 5), rebel 1 (0 + 1)" in overview
    # Issue 30: the demo ends with a token for each side and the referee, and the command that
    # serves the campaign's pages.
    tokens = re.findall(r"^mkr_\w+_\S+$", text, flags=re.M)
    assert len(tokens) == 3, text[-2000:]
    listed = subprocess.run(
        [str(Path(sys.executable).with_name("mekref")), "token", "list", "--db",
         str(tmp_path / "ginestra.db"), "--json"],
        capture_output=True, text=True, timeout=120, env=env, check=True,
    )  # fmt: skip
    import json

    grants = sorted((t["role"], t["side_id"] or "") for t in json.loads(listed.stdout))
    assert grants == [("referee", ""), ("side", "loyalist"), ("side", "rebel")]
    assert f"mekref serve --db {tmp_path / 'ginestra.db'} --web 127.0.0.1:8080" in text
