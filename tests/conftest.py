"""Shared test helpers: where the bundled real MegaMek fixtures live."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).parent
FIXTURES = TESTS / "fixtures" / "megamek"


@pytest.fixture
def megamek_fixtures() -> Path:
    return FIXTURES


@pytest.fixture(autouse=True)
def _private_cache_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The unit catalog caches under the user's cache folder; tests keep theirs private.
    monkeypatch.setenv("MEKREF_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
