"""Shared test helpers: where the bundled real MegaMek fixtures live."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).parent
FIXTURES = TESTS / "fixtures" / "megamek"


@pytest.fixture
def megamek_fixtures() -> Path:
    return FIXTURES
