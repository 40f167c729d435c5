"""Shared test helpers: where the bundled real MegaMek fixtures live."""

from __future__ import annotations

from pathlib import Path

import pytest
from layers import mark_layers

TESTS = Path(__file__).parent
FIXTURES = TESTS / "fixtures" / "megamek"

#: The folders whose tests start many ``mekref`` processes and servers, slowest first.
_SLOW_FIRST = ("turn", "cli", "battle", "grpc", "daemon", "rules", "house_rules")


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers added here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test marked with its layer (unit, integration, e2e; postgres, slow: tests/layers.py).

    Then the slow folders first, each file's tests in their order: the two test processes
    (``make test``, xdist by file) then share out the quick files last, and neither waits
    idle at the end for one long file of the other. Only the order of files changes."""
    mark_layers(items)

    def rank(item: pytest.Item) -> int:
        parts = item.path.relative_to(TESTS).parts
        top = parts[0] if len(parts) > 1 else ""
        return _SLOW_FIRST.index(top) if top in _SLOW_FIRST else len(_SLOW_FIRST)

    items.sort(key=rank)


@pytest.fixture
def megamek_fixtures() -> Path:
    return FIXTURES


@pytest.fixture(autouse=True)
def _private_cache_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The unit catalog caches under the user's cache folder; tests keep theirs private.
    monkeypatch.setenv("MEKREF_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
