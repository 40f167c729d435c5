"""docs/house-rules.md: every ruling names a test, and every test it names exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "house-rules.md"
REFERENCE = re.compile(r"`(?:(test_\w+\.py))?::(test_\w+)`")


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_every_ruling_names_an_existing_test() -> None:
    text = DOC.read_text(encoding="utf-8")
    sections = re.split(r"^### ", text.split("## Rulings", 1)[1], flags=re.M)[1:]
    assert len(sections) >= 15
    for section in sections:
        current: str | None = None
        found = 0
        for match in REFERENCE.finditer(section):
            current = match.group(1) or current
            assert current is not None, match.group(0)
            assert match.group(2) in _tests_in(HERE / current), f"{current}::{match.group(2)}"
            found += 1
        assert found, section.splitlines()[0]


def test_every_ruling_cited_in_code_or_tests_is_documented() -> None:
    import mekref.rules.house_rules

    headings = set(re.findall(r"^### (HOUSE-\d+)", DOC.read_text(encoding="utf-8"), re.M))
    package = Path(mekref.rules.house_rules.__file__).resolve().parent
    sources = [*package.rglob("*.py"), *HERE.glob("*.py")]
    cited = {r for p in sources for r in re.findall(r"HOUSE-\d+", p.read_text(encoding="utf-8"))}
    assert cited <= headings, sorted(cited - headings)
