"""Shared test helpers: where the bundled real MegaMek fixtures live."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest
from layers import mark_layers, slow_seconds

TESTS = Path(__file__).parent
FIXTURES = TESTS / "fixtures" / "megamek"

#: The folders whose tests start many ``mekref`` processes and servers, slowest first.
_SLOW_FIRST = ("turn", "cli", "battle", "grpc", "daemon", "rules", "house_rules")


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by the markers added here
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Each test marked with its layer (unit, integration, e2e; postgres, slow: tests/layers.py).

    Then the files in the order the two test processes should start them (``make test``,
    xdist by file, with ``--no-loadscope-reorder`` so that xdist keeps this order instead of
    putting the files with the most tests first): the files holding the measured slowest tests
    (tests/slow_tests.txt), most seconds first, then the slow folders, each file's tests in
    their order. The long files start at once and the quick ones fill in at the end, so
    neither process waits idle for one long file of the other. Only the order of files
    changes."""
    mark_layers(items)
    measured: dict[str, float] = defaultdict(float)
    for node, seconds in slow_seconds().items():
        measured[node.split("::", 1)[0]] += seconds

    def rank(item: pytest.Item) -> tuple[float, int]:
        parts = item.path.relative_to(TESTS).parts
        top = parts[0] if len(parts) > 1 else ""
        folder = _SLOW_FIRST.index(top) if top in _SLOW_FIRST else len(_SLOW_FIRST)
        return -measured[item.nodeid.split("::", 1)[0]], folder

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
