"""Run the ``mekref`` CLI with the test stand-in for battle ingestion (tests only).

``python tests/daemon/serve_with_fake.py serve --watch DIR ...`` is ``mekref serve`` whose
battle files credit 1 WP each (see fake_battle_input.py), so daemon tests do not depend on
the rules of battle resolution. Only the pipeline's choice of battle input is replaced; the
rest of the CLI keeps the real modules.
"""

from __future__ import annotations

import sys

import fake_battle_input

from mekref.daemon import ingest
from mekref.daemon.cli import main


def _fake() -> ingest.BattleInput:
    return fake_battle_input  # type: ignore[return-value]


if __name__ == "__main__":
    ingest.load_battle_input = _fake
    sys.exit(main(sys.argv[1:]))
