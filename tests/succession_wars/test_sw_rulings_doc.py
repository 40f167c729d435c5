"""docs/succession-wars.md: every ruling names a test that exists, and every ruling cited in
the rule set's code or tests is in the document."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "succession-wars.md"
CODE = HERE.parents[1] / "rules" / "succession_wars"
REFERENCE = re.compile(r"`(test_sw_\w+\.py)::(test_\w+)`")


def _sections() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    rulings = text.split("## Rulings", 1)[1].split("## README material", 1)[0]
    return re.split(r"^### ", rulings, flags=re.M)[1:]


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_every_ruling_quotes_decides_and_names_a_test() -> None:
    sections = _sections()
    assert len(sections) >= 25
    for section in sections:
        title = section.splitlines()[0]
        assert re.match(r"SW-\d\d ", title), title
        assert "Text:" in section and "Decision:" in section, title
        refs = REFERENCE.findall(section)
        assert refs, title
        for filename, test in refs:
            assert test in _tests_in(HERE / filename), f"{filename}::{test}"


def test_every_cited_ruling_is_in_the_document() -> None:
    headings = {s.split()[0] for s in _sections()}
    sources = [*CODE.rglob("*.py"), *HERE.glob("*.py")]
    cited = {
        ruling
        for path in sources
        for ruling in re.findall(r"SW-\d\d", path.read_text(encoding="utf-8"))
    }
    assert cited <= headings, sorted(cited - headings)
    assert len(cited) >= 20
