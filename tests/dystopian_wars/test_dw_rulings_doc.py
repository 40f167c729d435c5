"""docs/dystopian-wars.md: every ruling names a test, and every test it names exists."""

from __future__ import annotations

from pathlib import Path

from rulings_doc import (
    check_every_cited_ruling_is_documented,
    check_every_ruling_names_an_existing_test,
)

import mekref.rules.dystopian_wars

HERE = Path(__file__).parent
DOC = HERE.parents[1] / "docs" / "dystopian-wars.md"


def test_every_ruling_names_an_existing_test() -> None:
    check_every_ruling_names_an_existing_test(DOC, HERE, at_least=20)


def test_every_ruling_cited_in_code_or_tests_is_documented() -> None:
    check_every_cited_ruling_is_documented(DOC, mekref.rules.dystopian_wars, HERE, "DW")
