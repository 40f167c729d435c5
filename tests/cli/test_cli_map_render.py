"""``mekref map render`` on the Ginestra sample after its first day: every formation's full
name in the picture (a PNG has no tooltips, and names cut to six letters read "Alpha / Bravo /
Alpha / Bravo / Charli"), a side's map hiding what it did not sight, and without ``--side``
the referee's whole map (every side, no fog), as ``report --overview`` without ``--side``."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from console_script import mekref, mekref_fresh

from mekref.daemon.samples.ginestra import FOLDER

UNITS = Path(__file__).parents[1] / "fixtures" / "megamek" / "units"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Day 1 resolved: Bravo lands on Alpha at the Manufacturing Facility (both sides sight
    each other there), the loyalists also sight the rebel militia at its base; the rebels see
    nothing of the loyalists' other formations."""
    path = str(tmp_path_factory.mktemp("map") / "g.db")
    steps = [
        ["campaign", "new", "--name", "Ginestra", "--seed", "3065",
         "--side", "loyalist:Loyalists", "--side", "rebel:Rebels"],
        *(["force", "import", "--side", side, str(FOLDER / f"{side}.mul"), "--units-dir",
           str(UNITS), "--unchecked", "--referee", "Ref", "--reason", "demo forces"]
          for side in ("loyalist", "rebel")),
        ["turn", "setup"],
        ["orders", "submit", "--side", "rebel", "--day", "1",
         "--order", "bravo:orbital_insertion::1105", "--order",
         "r-militia:orbital_insertion::1712", "--param", "bravo:objective=raid"],
        ["orders", "submit", "--side", "loyalist", "--day", "1",
         "--order", "l-militia:move:0509,0609", "--order", "alpha:guard"],
        ["turn", "resolve", "--day", "1"],
    ]  # fmt: skip
    for argv in steps:
        done = mekref(*argv, "--db", path)
        assert done.returncode == 0, (argv, done.stderr)
    return path


def render(db: str, out: Path, *side: str) -> ET.Element:
    done = mekref_fresh("map", "render", "--db", db, *side, "-o", str(out))
    assert done.returncode == 0, done.stderr
    return ET.fromstring(out.read_text(encoding="utf-8"))


def markers(root: ET.Element) -> dict[str, str]:
    """Each formation drawn: its id and its side."""
    return {
        g.get("data-id", ""): g.get("data-side", "")
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "formation"
    }


def key_lines(root: ET.Element) -> str:
    """The key beside the map, one entry a line (wrapped entries joined again)."""
    entries = [
        " ".join(t.text or "" for t in g.iter(f"{SVG}text"))
        for g in root.iter(f"{SVG}g")
        if g.get("class") == "key"
    ]
    return "\n".join(entries)


def test_a_sides_map_names_its_formations_in_full_and_hides_what_it_did_not_sight(
    db: str, tmp_path: Path
) -> None:
    root = render(db, tmp_path / "loyalist.svg", "--side", "loyalist")
    key = key_lines(root)
    # Full names, each with its hex and id: the key lists every formation drawn, by number.
    assert re.search(r"\b0609 Loyalist Militia \(l-militia\)", key), key
    assert re.search(r"\b1105 Alpha Lance \(alpha\)", key), key
    assert re.search(r"\b0508 Government Guard \(l-guard\)", key), key
    # What its sensors showed of the enemy, in words, not "presen" or "unit t".
    assert re.search(r"\b1105 bravo sighted \(unit type, 4 units\)", key), key
    assert re.search(r"\b1712 r-militia sighted \(presence\)", key), key
    assert len(key.splitlines()) == len(markers(root))
    # The SVG keeps a tooltip on every badge, with the same words.
    tips = {t.text for g in root.iter(f"{SVG}g") if g.get("class") == "formation"
            for t in g.iter(f"{SVG}title")}  # fmt: skip
    assert "2. Loyalist Militia (l-militia), loyalist, at 0609" in tips, tips

    rebel = render(db, tmp_path / "rebel.svg", "--side", "rebel")
    seen = markers(rebel)
    # Fog of war: the rebels sighted Alpha only; the guard, the militia and the flight stay
    # off their map, in the badges, the key and the tooltips alike.
    assert seen == {"alpha": "loyalist", "bravo": "rebel", "r-militia": "rebel"}
    text = (tmp_path / "rebel.svg").read_text(encoding="utf-8")
    for secret in ("l-guard", "Government Guard", "l-militia", "Loyalist Militia", "l-air",
                   "Rapier Flight", "Alpha Lance"):  # fmt: skip
        assert secret not in text, secret
    assert re.search(r"\b1105 alpha sighted \(unit type, 4 units\)", key_lines(rebel))


def test_without_side_the_referee_sees_every_side_and_no_fog(db: str, tmp_path: Path) -> None:
    root = render(db, tmp_path / "referee.svg")
    drawn = markers(root)
    assert {"alpha", "l-guard", "l-militia", "l-air"} <= {f for f, s in drawn.items()
                                                          if s == "loyalist"}  # fmt: skip
    assert {"bravo", "r-militia"} <= {f for f, s in drawn.items() if s == "rebel"}
    assert root.find(f".//{SVG}g[@id='fog']") is None
    title = next(t.text or "" for t in root.iter(f"{SVG}text"))
    assert title.endswith("referee: every side")
    key = key_lines(root)
    assert re.search(r"\b1712 Rebel Militia \(r-militia\)", key), key
    assert "sighted" not in key  # the referee's map shows formations, not sightings


def test_the_help_shows_the_referee_view() -> None:
    done = mekref("map", "render", "--help")
    assert done.returncode == 0
    assert "mekref map render --db ginestra.db -o referee.png" in done.stdout
    assert "referee's whole map" in " ".join(done.stdout.split())
