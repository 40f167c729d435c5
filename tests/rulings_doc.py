"""Checks shared by each rule set's rulings document test: rulings name tests that exist, and
every ruling id cited in code or tests has a heading."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from types import ModuleType

REFERENCE = re.compile(r"`(?:(test_\w+\.py))?::(test_\w+)`")


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def check_every_ruling_names_an_existing_test(doc: Path, tests: Path, at_least: int) -> None:
    """Each ``### `` section under ``## Rulings`` names ``file.py::test`` found in ``tests``."""
    text = doc.read_text(encoding="utf-8")
    sections = re.split(r"^### ", text.split("## Rulings", 1)[1], flags=re.M)[1:]
    assert len(sections) >= at_least
    for section in sections:
        current: str | None = None
        found = 0
        for match in REFERENCE.finditer(section):
            current = match.group(1) or current
            assert current is not None, match.group(0)
            assert match.group(2) in _tests_in(tests / current), f"{current}::{match.group(2)}"
            found += 1
        assert found, section.splitlines()[0]


def check_every_cited_ruling_is_documented(
    doc: Path, package: ModuleType, tests: Path, prefix: str
) -> None:
    """Every ``PREFIX-n`` in the package's code or in ``tests`` is a ``### PREFIX-n`` heading."""
    headings = set(re.findall(rf"^### ({prefix}-\d+)", doc.read_text(encoding="utf-8"), re.M))
    assert package.__file__ is not None
    sources = [*Path(package.__file__).resolve().parent.rglob("*.py"), *tests.glob("*.py")]
    cited = {
        r for p in sources for r in re.findall(rf"{prefix}-\d+", p.read_text(encoding="utf-8"))
    }
    assert cited <= headings, sorted(cited - headings)
