"""docs/rulings.md names a test for every ruling, and every test it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
RULINGS = HERE.parents[1] / "docs" / "rulings.md"
#: ``test_rules_x.py::test_y`` (in tests/rules), ``tests/turn/test_x.py::test_y`` (any test
#: folder), or ``::test_y`` (the file named last).
REFERENCE = re.compile(r"`(?:((?:tests/\w+/)?test_\w+\.py))?::(test_\w+)`")


def _test_file(named: str) -> Path:
    return HERE.parents[1] / named if named.startswith("tests/") else HERE / named


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_every_named_test_exists() -> None:
    text = RULINGS.read_text(encoding="utf-8")
    current: str | None = None
    checked = 0
    for match in REFERENCE.finditer(text):
        current = match.group(1) or current
        assert current is not None, match.group(0)
        assert match.group(2) in _tests_in(_test_file(current)), f"{current}::{match.group(2)}"
        checked += 1
    assert checked >= 40


def test_every_ruling_names_a_test() -> None:
    sections = re.split(r"^### ", RULINGS.read_text(encoding="utf-8"), flags=re.M)[1:]
    assert len(sections) >= 25
    for section in sections:
        assert "Test" in section and REFERENCE.search(section), section.splitlines()[0]


def test_every_ruling_cited_in_code_or_tests_is_in_the_document() -> None:
    import mekref.rules

    headings = set(re.findall(r"^### (R-[A-Z]+-\d+)", RULINGS.read_text(encoding="utf-8"), re.M))
    sources = [*Path(mekref.rules.__file__).resolve().parent.rglob("*.py"), *HERE.glob("*.py")]
    cited = {
        ruling
        for path in sources
        for ruling in re.findall(r"R-[A-Z]+-\d+", path.read_text(encoding="utf-8"))
    }
    assert cited <= headings, sorted(cited - headings)
